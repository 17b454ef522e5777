"""Exact, mergeable sufficient statistics of per-seat results (the ``--aggregate`` mode).

A chunk of per-seat rows is reduced to histograms: for every seat, every result column and
every value it takes, the number of rows with that value - once over all rows, and once per
*outcome*, i.e. per value of each boolean result column (ended with the ass or not, won the
match or not, ...). Histograms of chunks merge by adding counts, they are small (result
columns are small integers), and they are *exact*: per-seat counts, sums and sums of squares
follow from them with integer arithmetic, so every seat-level table of the rows - means with
confidence intervals, distributions (how often seat 2 ends with 14 minus points), the same
per outcome (mean minus points of seat 0 in games in which it was dealt the ass) - comes out
of a run of billions of games without keeping its rows.

Every sum of integer values below 2**53 is exact in float64 whatever the order of addition, so
moments computed from the rows (analyzer.summary.seat_moments) and from the histograms are
identical, not merely close; the runner's tests check this.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.summary import seat_moments

# One row per (seat, outcome, column, value). ``given`` names the boolean outcome column the
# counts are conditioned on and ``given_value`` its value (0 or 1); ``given == ""`` marks the
# unconditional counts.
HIST_COLUMNS = ("seat", "given", "given_value", "column", "value", "count")
KEYS = list(HIST_COLUMNS[:-1])
MAX_BINS = 1 << 20  # bincount up to this many (seat, value) keys; np.unique beyond


def value_columns(columns: list[str]) -> list[str]:
    """The result columns that get statistics: all but the row's identity (index, seat)."""
    return [c for c in columns if c not in ("index", "seat")]


def chunk_moments(rows: dict[str, np.ndarray], columns: list[str]) -> pd.DataFrame:
    """analyzer.summary.seat_moments of a chunk's rows, computed in one jitted pass per column.

    The same frame, value for value, as ``seat_moments(pd.DataFrame(rows), columns)`` (the
    tests check it): integer sums are exact in any order. It takes a small part of the
    time, which matters because the kernels play a chunk in about the time pandas needs to
    group it.
    Float columns, whose sums depend on the order of addition, go through seat_moments itself.
    """
    if any(np.asarray(rows[c]).dtype.kind not in "biu" for c in columns):
        return seat_moments(pd.DataFrame(rows, copy=False), columns)
    seat = np.asarray(rows["seat"])
    if seat.size == 0 or seat.min() < 0:  # seats are 0..n-1; anything else the slow way
        return seat_moments(pd.DataFrame(rows, copy=False), columns)
    # imported here: a worker fixes numba's thread count before numba is first imported
    from analyzer.runner.seat_sums import sums_by_seat

    # Seats index the bins directly (np.unique's sort took half of this function's time).
    where = seat.astype(np.intp)
    counts = np.bincount(where)
    present = np.flatnonzero(counts)
    index = pd.Index(present.astype(seat.dtype), dtype=seat.dtype, name="seat")
    n = counts[present].astype(np.int64)
    parts: dict[tuple[str, str], np.ndarray] = {}
    for col in columns:
        total, squares = sums_by_seat(np.asarray(rows[col]), where, counts.size)
        parts[(col, "n")] = n
        parts[(col, "sum")] = total[present]
        parts[(col, "sumsq")] = squares[present]
    return pd.DataFrame(parts, index=index)


def outcome_columns(rows: dict[str, np.ndarray], columns: list[str]) -> list[str]:
    """The boolean result columns: the outcomes the histograms are also split by."""
    return [c for c in columns if np.asarray(rows[c]).dtype.kind == "b"]


def _integers(rows: dict[str, np.ndarray], col: str) -> np.ndarray:
    raw = np.asarray(rows[col])
    if raw.dtype.kind not in "biu":
        raise CardlabError(
            f"--aggregate needs integer or boolean result columns; {col!r} is {raw.dtype}"
        )
    return raw.astype(np.int64)


def histogram(rows: dict[str, np.ndarray], columns: list[str]) -> dict[str, np.ndarray]:
    """Counts per (seat, outcome, column, value) of one chunk, as arrays (HIST_COLUMNS).

    One ``np.bincount`` per column counts the joint (outcomes, seat, value) table; the overall
    and per-outcome histograms are sums over its outcome axis. Columns with a wide range fall
    back to one count per outcome.
    """
    seat = np.asarray(rows["seat"], dtype=np.int64)
    if seat.size == 0:
        return _empty()
    n_seats = int(seat.max()) + 1
    outcomes = outcome_columns(rows, columns)
    flags = [_integers(rows, g) for g in outcomes]
    n_codes = 1 << len(outcomes)
    code = np.zeros(seat.size, np.int64)  # which outcomes hold in a row, as bits
    for bit, flag in enumerate(flags):
        code |= flag << bit
    out: dict[str, list] = {c: [] for c in HIST_COLUMNS}

    def emit(col: str, given: str, gv: int, keys: np.ndarray, counts: np.ndarray,
             lo: int, span: int) -> None:
        """Append the (seat, value) keys that occur, with their counts."""
        s, val = np.divmod(keys, span)
        out["seat"].append(s)
        out["given"].append(np.full(keys.size, given, dtype=object))
        out["given_value"].append(np.full(keys.size, gv, dtype=np.int8))
        out["column"].append(np.full(keys.size, col, dtype=object))
        out["value"].append(val + lo)
        out["count"].append(counts)

    def emit_dense(col: str, given: str, gv: int, counts: np.ndarray, lo: int,
                   span: int) -> None:
        hit = np.flatnonzero(counts)
        emit(col, given, gv, hit, counts[hit], lo, span)

    for col in columns:
        v = _integers(rows, col)
        lo = int(v.min())
        span = int(v.max()) - lo + 1
        n_bins = n_seats * span
        base = seat * span + (v - lo)  # (seat, value) -> 0 .. n_bins-1
        if n_codes * n_bins <= MAX_BINS:
            joint = np.bincount(code * n_bins + base, minlength=n_codes * n_bins)
            joint = joint.reshape(n_codes, n_bins)
            emit_dense(col, "", 0, joint.sum(axis=0), lo, span)
            codes = np.arange(n_codes)
            for bit, given in enumerate(outcomes):
                if given != col:
                    for gv in (0, 1):
                        part = joint[(codes >> bit) & 1 == gv].sum(axis=0)
                        emit_dense(col, given, gv, part, lo, span)
        else:  # a wide column: sort the keys that occur, overall and per outcome
            for given, flag in [("", None), *zip(outcomes, flags, strict=True)]:
                if given == col:
                    continue
                for gv in (0,) if flag is None else (0, 1):
                    keys = base if flag is None else base[flag == gv]
                    hit, found = np.unique(keys, return_counts=True)
                    emit(col, given, gv, hit, found, lo, span)
    result = {c: np.concatenate(parts) for c, parts in out.items()}
    result["seat"] = result["seat"].astype(np.int16)
    result["given_value"] = result["given_value"].astype(np.int8)
    result["value"] = result["value"].astype(np.int64)
    result["count"] = result["count"].astype(np.int64)
    return result


def _empty() -> dict[str, np.ndarray]:
    return {
        "seat": np.zeros(0, np.int16),
        "given": np.zeros(0, object),
        "given_value": np.zeros(0, np.int8),
        "column": np.zeros(0, object),
        "value": np.zeros(0, np.int64),
        "count": np.zeros(0, np.int64),
    }


def merge_histograms(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Add up histograms (HIST_COLUMNS) of several chunks."""
    if not frames:
        return pd.DataFrame(_empty())
    merged = (
        pd.concat(frames, ignore_index=True)
        .groupby(KEYS, sort=True)["count"]
        .sum()
        .reset_index()
    )
    merged["count"] = merged["count"].astype(np.int64)
    return merged


def _select(hist: pd.DataFrame, given: str, given_value: int) -> pd.DataFrame:
    if given and not (hist["given"] == given).any():
        raise CardlabError(f"the histograms are not split by {given!r} (not a boolean column)")
    if not given:
        given_value = 0
    return hist[(hist["given"] == given) & (hist["given_value"] == int(given_value))]


def moments_from_histogram(
    hist: pd.DataFrame, columns: list[str], given: str = "", given_value: int = 1
) -> pd.DataFrame:
    """Per-seat n, sum, sum of squares per column, in analyzer.summary.seat_moments' format.

    With ``given``, over the rows in which that boolean column equals ``given_value`` only
    (``given`` itself has no statistics there). Sums are formed in Python integers (exact),
    then converted to float64 as seat_moments returns them.
    """
    sub_all = _select(hist, given, given_value)
    seats = sorted(int(s) for s in hist["seat"].unique())
    # The same index as seat_moments gives (grouping by the rows' seat column keeps its dtype).
    index = pd.Index(seats, dtype=hist["seat"].dtype, name="seat")
    parts: dict[tuple[str, str], pd.Series] = {}
    for col in columns:
        if col == given:
            continue
        sub = sub_all[sub_all["column"] == col]
        n_, s_, q_ = [], [], []
        for seat in seats:
            h = sub[sub["seat"] == seat]
            v = [int(x) for x in h["value"]]
            c = [int(x) for x in h["count"]]
            n_.append(sum(c))
            s_.append(float(sum(a * b for a, b in zip(v, c, strict=True))))
            q_.append(float(sum(a * a * b for a, b in zip(v, c, strict=True))))
        parts[(col, "n")] = pd.Series(n_, index=index, dtype=np.int64)
        parts[(col, "sum")] = pd.Series(s_, index=index, dtype=np.float64)
        parts[(col, "sumsq")] = pd.Series(q_, index=index, dtype=np.float64)
    return pd.DataFrame(parts, index=index)


def seat_distribution(
    hist: pd.DataFrame, column: str, given: str = "", given_value: int = 1
) -> pd.DataFrame:
    """Counts of each value of ``column`` per seat (rows: value, columns: seat), optionally in
    the rows where the boolean column ``given`` equals ``given_value``."""
    sub = _select(hist, given, given_value)
    sub = sub[sub["column"] == column]
    table = sub.pivot_table(index="value", columns="seat", values="count", aggfunc="sum")
    return table.fillna(0).astype(np.int64)


def moments_to_json(moments: pd.DataFrame) -> bytes:
    """Per-seat moments (seat_moments format) as JSON, exactly (floats keep every bit:
    Python writes the shortest text that reads back to the same double)."""
    doc = {
        "seat_dtype": str(moments.index.dtype),
        "seats": [int(s) for s in moments.index],
        "columns": [[c, s] for c, s in moments.columns],
        "values": [
            [int(v) if s == "n" else float(v) for (c, s), v in zip(moments.columns, row,
                                                                    strict=True)]
            for row in moments.itertuples(index=False)
        ],
    }
    return json.dumps(doc).encode()


def moments_from_json(data: bytes) -> pd.DataFrame:
    """The moments :func:`moments_to_json` wrote, with the same dtypes."""
    doc = json.loads(data)
    index = pd.Index(doc["seats"], dtype=doc["seat_dtype"], name="seat")
    columns = [tuple(c) for c in doc["columns"]]
    parts = {}
    for j, (col, stat) in enumerate(columns):
        dtype = np.int64 if stat == "n" else np.float64
        parts[(col, stat)] = pd.Series([row[j] for row in doc["values"]], index=index,
                                       dtype=dtype)
    return pd.DataFrame(parts, index=index)

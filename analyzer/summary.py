"""Per-seat summary tables from sufficient statistics (n, sum, sum of squares).

Both the per-game results and the ``--aggregate`` runs reduce to the same per-seat moments,
and every seat table is computed from those moments alone, so the two paths give identical
tables by construction.

Every output of a per-seat table - the table for people, ``--format csv`` and ``json`` - comes
from :func:`seat_estimates`, the one place where stored values become natural ones: a
metric's stored units times its ``unit`` (the game's ``Measure.scale``: a share of a match win
is stored in whole 1/27,720), so a rate is a fraction in [0, 1] everywhere, shown in percent
only in the table. Intervals are 95% intervals: for a rate the Wilson score interval, which
stays inside [0, 1]; for any other metric the normal approximation mean +/- 1.96 * s / sqrt(n),
with s the sample standard deviation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer.metrics import Metric
from analyzer.numbers import PM, decimals_for, interval, number

Z95 = 1.959963984540054


def seat_moments(results: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """n, sum and sum of squares of each column, per seat (index: seat)."""
    grouped = results.groupby("seat", sort=True)
    parts = {}
    for col in columns:
        x = results[col].astype(np.float64)
        parts[(col, "n")] = grouped[col].count().astype(np.int64)
        parts[(col, "sum")] = x.groupby(results["seat"]).sum()
        parts[(col, "sumsq")] = (x * x).groupby(results["seat"]).sum()
    out = pd.DataFrame(parts)
    out.index.name = "seat"
    return out


def merge_moments(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Add up moments of several chunks (sums add; counts add)."""
    return pd.concat(frames).groupby(level=0).sum()


def mean_ci(n: np.ndarray, total: np.ndarray, sumsq: np.ndarray) -> tuple[np.ndarray, ...]:
    """Mean and 95% half-width from moments (half-width NaN where n < 2)."""
    n = np.asarray(n, dtype=np.float64)
    mean = np.divide(total, n, out=np.full_like(n, np.nan), where=n > 0)
    var = np.divide(
        sumsq - n * mean * mean, n - 1, out=np.full_like(n, np.nan), where=n > 1
    )
    half = Z95 * np.sqrt(np.maximum(var, 0.0) / np.where(n > 0, n, np.nan))
    return mean, half


def seat_estimates(moments: pd.DataFrame, metric: Metric) -> dict[str, np.ndarray]:
    """Per seat (in the moments' order): n, and the metric's mean with its 95% interval ends,
    in natural units (a rate as a fraction; its Wilson interval inside [0, 1])."""
    n = moments[(metric.column, "n")].to_numpy()
    total = moments[(metric.column, "sum")].to_numpy(dtype=np.float64) * metric.unit
    sumsq = moments[(metric.column, "sumsq")].to_numpy(dtype=np.float64) * metric.unit ** 2
    mean, half = mean_ci(n, total, sumsq)
    if metric.rate:
        from analyzer.stats.intervals import wilson_bounds

        low, high = wilson_bounds(total, n)
    else:
        low, high = mean - half, mean + half
    return {"n": n, "mean": mean, "low": low, "high": high}


def seat_table(moments: pd.DataFrame, metrics: list[Metric]) -> pd.DataFrame:
    """One row per seat: for each metric its mean and 95% interval ends ``label low`` and
    ``label high``, in the table's units (natural units times the metric's scale)."""
    table = pd.DataFrame(index=moments.index)
    for m in metrics:
        est = seat_estimates(moments, m)
        table[m.label] = est["mean"] * m.scale
        table[m.label + " low"] = est["low"] * m.scale
        table[m.label + " high"] = est["high"] * m.scale
    table.insert(0, "n", moments[(metrics[0].column, "n")].to_numpy())
    return table


def seat_records(moments: pd.DataFrame, metrics: list[Metric], who: str = "seat",
                 labels: list[str] | None = None) -> list[dict[str, Any]]:
    """One record per seat for csv and json: ``who``, ``strategy`` (with ``labels``), n, and
    each metric's mean, ``_low`` and ``_high`` in natural units (rates as fractions)."""
    columns = {m.column: seat_estimates(moments, m) for m in metrics}
    records = []
    for i, seat in enumerate(moments.index):
        rec: dict[str, Any] = {who: int(seat)}
        if labels:
            rec["strategy"] = labels[int(seat)]
        rec["n"] = int(moments[(metrics[0].column, "n")].iloc[i])
        for column, est in columns.items():
            rec[column] = float(est["mean"][i])
            rec[column + "_low"] = float(est["low"][i])
            rec[column + "_high"] = float(est["high"][i])
        records.append(rec)
    return records


def estimate_cell(value: float, low: float, high: float,
                  within: tuple[float, float] | None = None) -> str:
    """``value ± half`` rounded to the interval, or ``value [low, high]`` where that would
    misstate the interval: where it is asymmetric by more than a shown digit (a rate's Wilson
    interval near 0% or 100%), or where ``value ± half`` would leave ``within``."""
    half = (high - low) / 2
    if not np.isfinite(half):
        return interval(value, half)
    d = decimals_for(half)
    digit = 10.0 ** -d
    symmetric = abs((value - low) - (high - value)) <= digit
    if within is not None:
        symmetric = symmetric and (float(number(value - half, d).replace(",", "")) >= within[0]
                                   and float(number(value + half, d).replace(",", ""))
                                   <= within[1])
    if symmetric:
        return interval(value, half)
    return f"{number(value, d)} [{number(low, d)}, {number(high, d)}]"


def format_seat_table(table: pd.DataFrame, metrics: list[Metric]) -> list[list[str]]:
    """Rows of strings per metric, each rounded to its interval (:func:`estimate_cell`; a
    rate's never shown outside 0..100%), for printing (seat first)."""
    rows = []
    for seat, row in table.iterrows():
        cells = [str(seat)]
        for m in metrics:
            within = (0.0, m.scale) if m.rate else None
            cells.append(estimate_cell(row[m.label], row[m.label + " low"],
                                       row[m.label + " high"], within))
        rows.append(cells)
    return rows


def caption(rows: list[list[str]]) -> str:
    """The table's note on its intervals (brackets only where a cell shows them)."""
    if any("[" in cell for row in rows for cell in row[1:]):
        return f"{PM} and [low, high] are 95% intervals"
    return f"{PM} is the 95% interval"

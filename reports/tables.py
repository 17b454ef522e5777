"""Study tables as people read them: chosen columns, ``mean ± half`` cells, rounded numbers.

The full tidy tables travel with the report as CSV files; the HTML shows these readable views.
Each study's views are in its report module (reports/studies/<study>.py); here is what they
share.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyzer.numbers import count, decimals_for, interval, number


@dataclass(frozen=True)
class TableView:
    """A readable table, its title, and the study table (CSV) it comes from."""

    title: str
    frame: pd.DataFrame
    source: str
    appendix: bool = False  # a correctness check: shown in the report's appendix


def interval_cell(value: float, low: float, high: float, rate: bool = False,
                  signed: bool = False) -> str:
    """``value ± half`` rounded to the interval (``rate``: in percent)."""
    return interval(value, (high - low) / 2, percent=rate, signed=signed)


def _cells(df: pd.DataFrame, col: str, rate: bool = False) -> list[str]:
    return [interval_cell(v, lo, hi, rate)
            for v, lo, hi in zip(df[col], df[col + "_low"], df[col + "_high"], strict=True)]


def _counts(values) -> list[str]:
    return [count(v) for v in values]


def _rank_view(t: pd.DataFrame, names: dict, rate: bool, unit: str,
               dealt: str | None = None) -> pd.DataFrame:
    """Ranking rows; ``names`` are the columns that name the strategy (default: as given)."""
    return pd.DataFrame({
        "players": t["players"], "rank": t["rank"], **(names or {"strategy": t["strategy"]}),
        f"mean per {unit} ± 95%": [interval_cell(m, lo, hi, rate) for m, lo, hi in
                                   zip(t["mean"], t["low"], t["high"], strict=True)],
        f"{dealt or _plural(unit)} played": _counts(t["deals"]), "games": _counts(t["games"]),
    })


def _plural(unit: str) -> str:
    return "matches" if unit == "match" else unit + "s"


def _pair_view(t: pd.DataFrame, rate: bool, unit: str) -> pd.DataFrame:
    scale = 100.0 if rate else 1.0
    pts = " (percentage points)" if rate else ""
    view = pd.DataFrame({
        "players": t["players"], "a": t["a"], "b": t["b"],
        f"a − b ± 95%{pts}": [interval(d * scale, h * scale, signed=True) for d, h in
                              zip(t["difference"], t["half"], strict=True)],
        "unpaired ±": [number(u * scale, decimals_for(h * scale))
                       for u, h in zip(t["unpaired_half"], t["half"], strict=True)],
        "variance reduction": ["n/a" if pd.isna(v) else f"{number(v, 1)}×"
                               for v in t["variance_reduction"]],
        f"{_plural(unit)}": _counts(t["n_units"]),
    })
    if "seq_answer" in t:
        view["until sure"] = [f"{a} after {count(n)} ({'clear' if s == 'answer' else 'budget'})"
                              for a, n, s in zip(t["seq_answer"], t["seq_units"],
                                                 t["seq_stopped_by"], strict=True)]
    return view


def rounded_view(df: pd.DataFrame) -> pd.DataFrame:
    """A table without a view of its own, as people read it: an estimate with ``_low`` /
    ``_high`` columns (or the column just before ``low``/``high``) becomes one ``value ± half``
    cell rounded to its interval, whole numbers get separators, other floats 4 significant
    digits. The full precision stays in the CSV beside the report."""
    out = {}
    cols = list(df.columns)
    bare = "low" in cols and "high" in cols and cols.index("low") > 0
    main = cols[cols.index("low") - 1] if bare else None
    skip = {"low", "high", "half"} if bare else set()
    for col in cols:
        if col in skip or (col.endswith(("_low", "_high", "_half"))
                           and col.rsplit("_", 1)[0] in cols):
            continue
        values = df[col]
        if col == main or (f"{col}_low" in cols and f"{col}_high" in cols):
            low = df["low"] if col == main else df[f"{col}_low"]
            high = df["high"] if col == main else df[f"{col}_high"]
            out[f"{col} ± 95%"] = [interval_cell(v, lo, hi) for v, lo, hi in
                                   zip(values, low, high, strict=True)]
        elif pd.api.types.is_bool_dtype(values):
            out[col] = ["yes" if x else "no" for x in values]
        elif pd.api.types.is_integer_dtype(values):
            out[col] = _counts(values)
        elif pd.api.types.is_float_dtype(values):
            out[col] = ["" if pd.isna(x) else f"{x:.4g}" for x in values]
        else:
            out[col] = values
    return pd.DataFrame(out)

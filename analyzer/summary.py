"""Per-seat summary tables from sufficient statistics (n, sum, sum of squares).

Both the per-game results and the ``--aggregate`` runs reduce to the same per-seat moments,
and every seat table is computed from those moments alone, so the two paths give identical
tables by construction. Confidence intervals are normal-approximation 95% intervals,
mean +/- 1.96 * s / sqrt(n), with s the sample standard deviation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.numbers import interval

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Metric:
    """A per-seat column to summarise: ``column`` of the results, shown as ``label``."""

    column: str
    label: str
    scale: float = 1.0  # e.g. 100 to show a proportion in percent


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


def seat_table(moments: pd.DataFrame, metrics: list[Metric]) -> pd.DataFrame:
    """One row per seat: for each metric its mean and the 95% interval half-width."""
    table = pd.DataFrame(index=moments.index)
    for m in metrics:
        mean, half = mean_ci(
            moments[(m.column, "n")].to_numpy(),
            moments[(m.column, "sum")].to_numpy(),
            moments[(m.column, "sumsq")].to_numpy(),
        )
        table[m.label] = mean * m.scale
        table[m.label + " ±95%"] = half * m.scale
    table.insert(0, "n", moments[(metrics[0].column, "n")].to_numpy())
    return table


def format_seat_table(table: pd.DataFrame, metrics: list[Metric]) -> list[list[str]]:
    """Rows of strings 'mean ± half', each rounded to its interval, for printing (seat first)."""
    rows = []
    for seat, row in table.iterrows():
        cells = [str(seat)]
        for m in metrics:
            cells.append(interval(row[m.label], row[m.label + " ±95%"]))
        rows.append(cells)
    return rows

"""Paired differences on common deals, and what pairing saves against unpaired runs.

Two strategies played on the very same deals (same ``(seed, index)``: common random numbers)
give one difference per deal. Deal luck is shared, so it cancels in the difference, and the
mean difference has the variance ``Var(a - b) / n`` instead of ``(Var a + Var b) / n``.
:func:`paired_difference` reports both, and their ratio as the *variance reduction*: how many
times more games an unpaired comparison would need for an interval as narrow.

In a duplicate design a unit (one deal) holds several games per strategy (one per seat it
takes), so a unit's value is the mean over those games. The unpaired yardstick is then the
design that spends the same number of games per strategy on independent deals, with each
game drawn the way the duplicate design draws it: its variance comes from the single games
(``games_a``, ``games_b``), not from the unit means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.errors import CardlabError
from analyzer.stats.intervals import Estimate, mean_interval, t_quantile


@dataclass(frozen=True)
class PairedComparison:
    """The mean of ``a - b`` over common units, with the cost of the unpaired alternative.

    ``var_paired`` is the variance of the paired mean difference; ``var_unpaired`` the
    variance an unpaired design with the same number of games per strategy would give;
    ``variance_reduction`` their ratio (>1: pairing helps). ``correlation`` is that of the
    unit values of a and b.
    """

    difference: Estimate
    mean_a: float
    mean_b: float
    var_paired: float
    var_unpaired: float
    correlation: float
    games_per_unit: float

    @property
    def variance_reduction(self) -> float:
        """var_unpaired / var_paired: how many times fewer games pairing needs."""
        if self.var_paired <= 0:
            return math.inf if self.var_unpaired > 0 else math.nan
        return self.var_unpaired / self.var_paired

    @property
    def unpaired_half(self) -> float:
        """Half-width the unpaired design would have had with the same games."""
        z = t_quantile(self.difference.level, max(self.difference.n - 1, 1))
        return z * math.sqrt(self.var_unpaired)

    def to_dict(self) -> dict[str, float]:
        """Flat dict for a tidy table row."""
        return {
            "difference": self.difference.value,
            "low": self.difference.low,
            "high": self.difference.high,
            "half": self.difference.half,
            "n_units": self.difference.n,
            "mean_a": self.mean_a,
            "mean_b": self.mean_b,
            "correlation": self.correlation,
            "unpaired_half": self.unpaired_half,
            "variance_reduction": self.variance_reduction,
        }


def unpaired_variance(games_a: np.ndarray, games_b: np.ndarray, n_games: float) -> float:
    """Variance of the difference of two independent means of ``n_games`` games each."""
    va = float(np.var(np.asarray(games_a, dtype=np.float64), ddof=1))
    vb = float(np.var(np.asarray(games_b, dtype=np.float64), ddof=1))
    return (va + vb) / n_games


def paired_difference(
    a: np.ndarray,
    b: np.ndarray,
    level: float = 0.95,
    games_a: np.ndarray | None = None,
    games_b: np.ndarray | None = None,
) -> PairedComparison:
    """Mean of ``a - b`` over common units with its t interval, and the unpaired yardstick.

    ``a[i]`` and ``b[i]`` are the two strategies' values on unit ``i`` (a deal, or the mean of
    a deal's duplicate games). ``games_a``/``games_b`` are the single-game values behind the
    unit means (default: the unit values themselves, one game per unit); their count sets the
    unpaired design's size (units may hold different numbers of games: seatings of 7 and 8
    deals, both strategies alike in each).
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise CardlabError(f"paired values need equal lengths, got {a.size} and {b.size}")
    if a.size < 2:
        raise CardlabError(f"a paired comparison needs at least 2 common units, got {a.size}")
    games_a = a if games_a is None else np.asarray(games_a, dtype=np.float64).ravel()
    games_b = b if games_b is None else np.asarray(games_b, dtype=np.float64).ravel()
    if games_a.size != games_b.size:
        raise CardlabError("games behind a paired comparison must be equal in number")
    per_unit = games_a.size / a.size
    n = a.size
    diff = a - b
    var_paired = float(np.var(diff, ddof=1)) / n
    var_unpaired = unpaired_variance(games_a, games_b, per_unit * n)
    sa, sb = float(np.std(a)), float(np.std(b))
    corr = float(np.corrcoef(a, b)[0, 1]) if sa > 0 and sb > 0 else math.nan
    return PairedComparison(
        difference=mean_interval(diff, level),
        mean_a=float(a.mean()),
        mean_b=float(b.mean()),
        var_paired=var_paired,
        var_unpaired=var_unpaired,
        correlation=corr,
        games_per_unit=per_unit,
    )

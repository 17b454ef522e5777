"""Statistical hygiene for comparisons of many strategies.

- :func:`holm`: Holm's step-down adjustment of p-values, so that a claim picked from many
  comparisons ("the best of k") keeps its error rate over all of them.
- :func:`rank_intervals`: intervals for each strategy's rank by the bootstrap over deals (the
  independent units), which says how sure the order is, not only the means.
- :func:`tiers`: strategies that cannot be separated from the best of their group are tied.
- :func:`identical_groups`: strategies whose results are identical on every unit make the
  same decisions there; they are merged and named together rather than compared with
  themselves (which gives the meaningless "0.000 +/- 0.000").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np


def two_sided_p(z: np.ndarray | float) -> np.ndarray:
    """Two-sided normal p-value of a z statistic (NaN stays NaN)."""
    z = np.abs(np.asarray(z, dtype=np.float64))
    cdf = np.vectorize(lambda v: NormalDist().cdf(v) if math.isfinite(v) else
                       (1.0 if v > 0 else math.nan))(z)
    return 2.0 * (1.0 - cdf)


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm-adjusted p-values (family-wise error over all of ``p``), in the input order."""
    p = np.asarray(p, dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[i]))
        adjusted[i] = running
    return adjusted


def rank_intervals(
    unit_values: np.ndarray, lower_is_better: bool, level: float = 0.95, draws: int = 1000,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap interval of each column's rank (1 = best) from a units x strategies matrix.

    Units (deals) are resampled with replacement; a rank is computed from the column means
    of each resample.
    """
    x = np.asarray(unit_values, dtype=np.float64)
    n, k = x.shape
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(n, np.full(n, 1.0 / n), size=draws) / n  # draws x units
    means = weights @ x  # draws x strategies
    key = means if lower_is_better else -means
    ranks = key.argsort(axis=1).argsort(axis=1) + 1
    tail = (1.0 - level) / 2.0
    low = np.floor(np.quantile(ranks, tail, axis=0)).astype(int)
    high = np.ceil(np.quantile(ranks, 1.0 - tail, axis=0)).astype(int)
    return low, high


def tiers(order: Sequence[str], separated: dict[tuple[str, str], bool]) -> dict[str, int]:
    """Tier numbers (1 = best) for strategies listed best first.

    A strategy joins the current tier unless it is clearly separated (``separated[(a, b)]`` or
    ``[(b, a)]``) from the tier's first member, the best of the tier; then it opens the next.
    """
    out: dict[str, int] = {}
    tier, leader = 0, None
    for name in order:
        if leader is None or separated.get((leader, name), separated.get((name, leader), False)):
            tier += 1
            leader = name
        out[name] = tier
    return out


def identical_groups(rows_by_strategy: dict[str, bytes]) -> list[list[str]]:
    """Strategies with byte-identical result rows, grouped in first-seen order."""
    groups: dict[bytes, list[str]] = {}
    for name, fingerprint in rows_by_strategy.items():
        groups.setdefault(fingerprint, []).append(name)
    return list(groups.values())

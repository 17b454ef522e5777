"""Statistical hygiene for comparisons of many strategies.

- :func:`holm`: Holm's step-down adjustment of p-values, so that a claim picked from many
  comparisons ("the best of k") keeps its error rate over all of them.
- :func:`ordered_groups`: strategies in order of their estimates, cut into consecutive groups
  only where every strategy above the cut is clearly separated from every one below it. The
  groups are a partition (transitive: "in the same group" is an equivalence), and each group
  is clearly ahead of every later one, so "the best is in the first group" keeps the error
  rate of the tests.
- :func:`rank_ranges`: the ranks each strategy can take given the same tests (1 + those
  clearly better, the count minus those clearly worse): a strategy that is not separated
  from another never gets a single rank.
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


def _clear(separated: dict[tuple[str, str], bool], a: str, b: str) -> bool:
    return bool(separated.get((a, b), separated.get((b, a), False)))


def ordered_groups(order: Sequence[str], separated: dict[tuple[str, str], bool]
                   ) -> dict[str, int]:
    """Group numbers (1 = best) for strategies listed best first.

    A new group starts before position p only if every strategy before p is clearly
    separated (``separated[(a, b)]`` or ``[(b, a)]``) from every strategy from p on; the groups
    are therefore runs of the order, each clearly ahead of all later ones, and a strategy is
    never placed below another it is not separated from.
    """
    order = list(order)
    out: dict[str, int] = {}
    group = 1
    for p, name in enumerate(order):
        if p and all(_clear(separated, a, b) for a in order[:p] for b in order[p:]):
            group += 1
        out[name] = group
    return out


def rank_ranges(order: Sequence[str], separated: dict[tuple[str, str], bool]
                ) -> dict[str, tuple[int, int]]:
    """(best rank, worst rank) each strategy of ``order`` (best first) can take: 1 + the number
    clearly separated above it, and the count minus the number clearly separated below it."""
    order = list(order)
    k = len(order)
    out = {}
    for p, name in enumerate(order):
        above = sum(_clear(separated, a, name) for a in order[:p])
        below = sum(_clear(separated, name, b) for b in order[p + 1:])
        out[name] = (1 + above, k - below)
    return out


def identical_groups(rows_by_strategy: dict[str, bytes]) -> list[list[str]]:
    """Strategies with byte-identical result rows, grouped in first-seen order."""
    groups: dict[bytes, list[str]] = {}
    for name, fingerprint in rows_by_strategy.items():
        groups.setdefault(fingerprint, []).append(name)
    return list(groups.values())


def selected_interval(value: float, low: float, high: float, family: int,
                      level: float = 0.95) -> tuple[float, float]:
    """The 95% interval ``[low, high]`` widened for having been picked from ``family``
    estimates (Bonferroni: each at level 1 - 0.05 / family)."""
    z = NormalDist().inv_cdf
    widen = z(1 - (1 - level) / (2 * family)) / z(1 - (1 - level) / 2)
    half = (high - low) / 2 * widen
    return value - half, value + half

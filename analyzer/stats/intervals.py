"""Confidence intervals for means and proportions (pure numpy).

Every interval here is two-sided at level ``1 - alpha`` (95% by default) and is reported as
an :class:`Estimate`: the point estimate, the half-width (or the two ends, for the asymmetric
Wilson interval) and the number of observations behind it.

Means use Student's t quantile, which matters only for small samples (the studies have
thousands of games, where t and the normal quantile agree to three digits); the quantile is
computed from the Cornish-Fisher expansion of t around the normal (Abramowitz & Stegun
26.7.5), accurate to about 1e-3 already at 5 degrees of freedom, so that no SciPy is needed.
Proportions use the Wilson score interval, which keeps its coverage near 0 and 1 where the
normal (Wald) interval collapses; the Wald interval is there for comparison.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist

import numpy as np

from analyzer.errors import CardlabError


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval [low, high] at level ``level`` from ``n`` values."""

    value: float
    low: float
    high: float
    n: int
    level: float = 0.95

    @property
    def half(self) -> float:
        """Half the interval's width (the ``±`` of a symmetric interval)."""
        return (self.high - self.low) / 2.0

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies inside the closed interval."""
        return self.low <= x <= self.high

    def scaled(self, factor: float) -> Estimate:
        """The same estimate in other units (e.g. 20 x a probability = a penalty in points)."""
        ends = sorted((self.low * factor, self.high * factor))
        return Estimate(self.value * factor, ends[0], ends[1], self.n, self.level)

    def to_dict(self) -> dict[str, float]:
        """Plain dict for tables and JSON."""
        return asdict(self)


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise CardlabError(f"confidence level must be between 0 and 1, got {level}")


def z_quantile(level: float = 0.95) -> float:
    """Two-sided standard-normal quantile: 1.959964 for level 0.95."""
    _check_level(level)
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def t_quantile(level: float, df: float) -> float:
    """Two-sided Student-t quantile (Cornish-Fisher expansion; the normal one for df=inf)."""
    z = z_quantile(level)
    if not math.isfinite(df):
        return z
    if df < 1:
        raise CardlabError(f"degrees of freedom must be >= 1, got {df}")
    z3, z5, z7, z9 = z**3, z**5, z**7, z**9
    g1 = (z3 + z) / 4.0
    g2 = (5 * z5 + 16 * z3 + 3 * z) / 96.0
    g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384.0
    g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160.0
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_interval_from_moments(
    n: float, total: float, sumsq: float, level: float = 0.95
) -> Estimate:
    """Mean and t interval from the moments n, sum x and sum x^2 (NaN ends where n < 2)."""
    n = float(n)
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0, level)
    mean = total / n
    if n < 2:
        return Estimate(mean, math.nan, math.nan, int(n), level)
    var = max(sumsq - n * mean * mean, 0.0) / (n - 1)
    half = t_quantile(level, n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, int(n), level)


def mean_interval(x: np.ndarray, level: float = 0.95) -> Estimate:
    """Mean of ``x`` with its t interval (NaN ends for fewer than two values)."""
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, level)
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, 1, level)
    # centred sum of squares: exact also when the mean is large against the spread
    half = t_quantile(level, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, level)


def wilson_bounds(
    successes: np.ndarray, n: np.ndarray, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """The ends of the Wilson score interval for arrays of proportions successes / n, always
    inside [0, 1] (NaN where n is 0). ``successes`` may be fractional (a sum of shares of a
    win, each in [0, 1]); a proportion a rounding crumb outside [0, 1] is clipped first."""
    n = np.asarray(n, dtype=np.float64)
    successes = np.asarray(successes, dtype=np.float64)
    z = z_quantile(level)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.clip(successes / n, 0.0, 1.0)
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    empty = ~(n > 0)
    # clip the rounding crumbs at 0 and 1 (x=0 gives low = 0 exactly in exact arithmetic)
    low = np.where(empty, np.nan, np.clip(centre - half, 0.0, 1.0))
    high = np.where(empty, np.nan, np.clip(centre + half, 0.0, 1.0))
    return low, high


def wilson_interval(successes: float, n: float, level: float = 0.95) -> Estimate:
    """Wilson score interval for a proportion (Wilson 1927; Newcombe 1998, method 3)."""
    _check_counts(successes, n)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, level)
    low, high = wilson_bounds(np.float64(successes), np.float64(n), level)
    return Estimate(successes / n, float(low), float(high), int(n), level)


def wald_interval(successes: float, n: float, level: float = 0.95) -> Estimate:
    """The normal-approximation (Wald) interval p +/- z sqrt(p(1-p)/n), clipped to [0, 1]."""
    _check_counts(successes, n)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, level)
    p = successes / n
    half = z_quantile(level) * math.sqrt(p * (1 - p) / n)
    return Estimate(p, max(0.0, p - half), min(1.0, p + half), int(n), level)


def _check_counts(successes: float, n: float) -> None:
    if n < 0 or successes < 0 or successes > n:
        raise CardlabError(f"need 0 <= successes <= n, got {successes} of {n}")


def proportion_interval(
    successes: float, n: float, level: float = 0.95, method: str = "wilson"
) -> Estimate:
    """A proportion with its interval; ``method`` is "wilson" (default) or "wald"."""
    if method == "wilson":
        return wilson_interval(successes, n, level)
    if method == "wald":
        return wald_interval(successes, n, level)
    raise CardlabError(f"unknown interval method {method!r}; methods: wilson, wald")


def clustered_share_interval(values, clusters, level: float = 0.95) -> Estimate:
    """The mean of ``values`` (each in [0, 1]: an agreement, or a chance of one) over
    observations that come in ``clusters`` (one label per value: e.g. the game a position was
    taken from, the unit that was randomised), with a Wilson interval on the effective number
    of observations: the ratio estimator's cluster-robust variance (the sum over clusters of
    (cluster total - share x cluster size) squared, times K / (K - 1), over the total size
    squared) gives the design effect, and n / design effect observations enter the Wilson
    interval. Observations alike within their clusters widen it; independent ones give
    about the plain Wilson interval. Where the clusters show no spread (every value 0 or
    every value 1, or a single cluster), the plain Wilson interval on n.

    >>> est = clustered_share_interval([1, 1, 0, 1], ["a", "a", "b", "b"])
    >>> round(est.value, 2), est.n
    (0.75, 4)
    """
    y = np.asarray(values, dtype=np.float64).ravel()
    labels = np.asarray(clusters).ravel()
    if y.size != labels.size:
        raise CardlabError(f"{y.size} values but {labels.size} cluster labels")
    if y.size and (y.min() < 0 or y.max() > 1):
        raise CardlabError("values must lie in [0, 1]")
    n = y.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, level)
    share = float(y.mean())
    _, index = np.unique(labels, return_inverse=True)
    totals = np.bincount(index, weights=y)
    sizes = np.bincount(index).astype(np.float64)
    k = totals.size
    var = float(((totals - share * sizes) ** 2).sum()) * k / max(k - 1, 1) / (n * n)
    plain = share * (1 - share) / n
    deff = var / plain if k > 1 and var > 0 and plain > 0 else 1.0
    eff = n / deff
    low, high = wilson_bounds(np.float64(share * eff), np.float64(eff), level)
    return Estimate(share, float(low), float(high), n, level)

"""Stop a paired comparison as soon as its answer is clear: a confidence sequence with a budget.

A confidence sequence is a sequence of intervals that covers the true mean difference at
*every* look at once with probability at least ``1 - alpha``, so the data may be checked
after every batch and the run stopped whenever the answer is clear, with no inflation of the
error rate (unlike repeated fixed-sample tests). We use the two-sided normal-mixture boundary
of Robbins, in the asymptotic form of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas
("Time-uniform central limit theory and asymptotic confidence sequences", Ann. Statist. 2024,
Thm 2.2):

    mean_t +/- sd_t * sqrt( 2 (t rho^2 + 1) / (t^2 rho^2) * log( sqrt(t rho^2 + 1) / alpha ) )

With a known standard deviation and Gaussian data it is exact (Ville's inequality applied to
the mixture martingale, i.e. a mixture SPRT of "difference = d" against a normal prior around
d); with the running sample standard deviation it is valid asymptotically, which is why no
decision is taken before ``min_n`` differences. ``rho`` tunes where the boundary is tightest;
we make it tightest at the budget, where a run that has not stopped needs it most.

Decision rule after each batch, first match wins:
1. the interval excludes 0: the sign is the answer ("a-lower" / "a-higher"); the chance of
   announcing a wrong sign (or a difference where there is none) is at most ``alpha``;
2. a ``margin`` was given and the interval lies inside (-margin, margin): "equivalent", no
   difference as large as the margin (wrong with probability at most ``alpha``);
3. the budget is spent: "undecided", with the estimate and interval reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import CardlabError


def mixture_rho(alpha: float, t_opt: float) -> float:
    """The mixture scale that makes the boundary tightest at ``t_opt`` observations."""
    la = -2.0 * math.log(alpha)
    return math.sqrt((la + math.log(la + 1.0)) / t_opt)


def cs_radius(n: np.ndarray | float, sd: np.ndarray | float, alpha: float, rho: float):
    """Half-width of the normal-mixture confidence sequence after ``n`` values of spread ``sd``."""
    n = np.asarray(n, dtype=np.float64)
    r2 = rho * rho
    return np.asarray(sd) * np.sqrt(
        2.0 * (n * r2 + 1.0) / (n * n * r2) * np.log(np.sqrt(n * r2 + 1.0) / alpha)
    )


@dataclass
class RunningMoments:
    """Count, mean and centred sum of squares, merged batch by batch (Chan et al.)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: np.ndarray) -> None:
        """Merge a batch of values."""
        x = np.asarray(x, dtype=np.float64).ravel()
        if x.size == 0:
            return
        nb, mb = x.size, float(x.mean())
        m2b = float(((x - mb) ** 2).sum())
        n = self.n + nb
        delta = mb - self.mean
        self.mean += delta * nb / n
        self.m2 += m2b + delta * delta * self.n * nb / n
        self.n = n

    @property
    def sd(self) -> float:
        """Sample standard deviation (NaN below two values)."""
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else math.nan


@dataclass(frozen=True)
class Look:
    """The state of the confidence sequence at one look."""

    n: int
    estimate: float
    low: float
    high: float


@dataclass
class SequentialResult:
    """What a sequential comparison decided, why, and after how much data.

    ``decision`` is "a-lower", "a-higher", "equivalent" or "undecided"; ``stopped_by`` is
    "answer" (the rule stopped it) or "budget".
    """

    decision: str
    stopped_by: str
    reason: str
    n: int
    estimate: float
    low: float
    high: float
    alpha: float
    margin: float | None
    budget: int
    looks: list[Look] = field(default_factory=list)

    def to_dict(self) -> dict:
        """Plain dict (JSON-able) without the per-look history."""
        return {
            "decision": self.decision, "stopped_by": self.stopped_by, "reason": self.reason,
            "n": self.n, "estimate": self.estimate, "low": self.low, "high": self.high,
            "alpha": self.alpha, "margin": self.margin, "budget": self.budget,
            "looks": len(self.looks),
        }


class ConfidenceSequence:
    """A running two-sided (1 - alpha) confidence sequence for the mean of a stream."""

    def __init__(self, alpha: float = 0.05, t_opt: float = 10_000, min_n: int = 100):
        if not 0 < alpha < 1:
            raise CardlabError(f"alpha must be between 0 and 1, got {alpha}")
        if t_opt < 1 or min_n < 2:
            raise CardlabError("t_opt must be >= 1 and min_n >= 2")
        self.alpha = alpha
        self.rho = mixture_rho(alpha, t_opt)
        self.min_n = min_n
        self.moments = RunningMoments()

    def update(self, x: np.ndarray) -> Look:
        """Add a batch and return the interval now (infinite before ``min_n`` values)."""
        self.moments.add(x)
        return self.look()

    def look(self) -> Look:
        """The current estimate and interval."""
        m = self.moments
        if m.n < self.min_n:
            return Look(m.n, m.mean if m.n else math.nan, -math.inf, math.inf)
        r = float(cs_radius(m.n, m.sd, self.alpha, self.rho))
        return Look(m.n, m.mean, m.mean - r, m.mean + r)


def decide(look: Look, margin: float | None) -> tuple[str, str] | None:
    """The decision this look supports, as (decision, reason), or None to go on."""
    if look.low > 0:
        return "a-higher", f"the interval [{look.low:.4g}, {look.high:.4g}] lies above 0"
    if look.high < 0:
        return "a-lower", f"the interval [{look.low:.4g}, {look.high:.4g}] lies below 0"
    if margin is not None and -margin < look.low and look.high < margin:
        return "equivalent", (
            f"the interval [{look.low:.4g}, {look.high:.4g}] lies within +/-{margin:g}"
        )
    return None


def run_sequential(
    next_batch: Callable[[int, int], np.ndarray],
    budget: int,
    batch: int = 1000,
    alpha: float = 0.05,
    margin: float | None = None,
    min_n: int = 100,
    growth: float = 1.0,
) -> SequentialResult:
    """Draw paired differences until the answer is clear or ``budget`` units are used.

    ``next_batch(start, count)`` returns the differences (a - b) of units ``start`` ..
    ``start + count - 1`` (e.g. deals played by both strategies). Batches start at ``batch``
    units and grow by the factor ``growth`` (1: constant), never past the budget. The
    confidence sequence is tuned to be tightest at the budget.
    """
    def one_column(start: int, count: int) -> np.ndarray:
        return np.asarray(next_batch(start, count), dtype=np.float64).reshape(-1, 1)

    return run_sequential_many(one_column, 1, budget, batch, alpha, margin, min_n, growth)[0]


def run_sequential_many(
    next_batch: Callable[[int, int], np.ndarray],
    streams: int,
    budget: int,
    batch: int = 1000,
    alpha: float = 0.05,
    margin: float | None = None,
    min_n: int = 100,
    growth: float = 1.0,
) -> list[SequentialResult]:
    """Several paired comparisons on the same units, run until every one is decided.

    ``next_batch(start, count)`` returns a (count, streams) array of differences. Each stream
    keeps its own confidence sequence at level ``1 - alpha / streams`` (Bonferroni, so that
    all answers together are wrong with probability at most ``alpha``) and freezes at its own
    decision; the run stops when all are decided or the budget is spent.
    """
    if budget < 2 or batch < 1 or streams < 1:
        raise CardlabError(
            f"need budget >= 2, batch >= 1 and streams >= 1; got {budget}, {batch}, {streams}"
        )
    if margin is not None and margin <= 0:
        raise CardlabError(f"margin must be positive, got {margin}")
    each = alpha / streams
    seqs = [ConfidenceSequence(each, t_opt=budget, min_n=min(min_n, budget))
            for _ in range(streams)]
    history: list[list[Look]] = [[] for _ in range(streams)]
    results: list[SequentialResult | None] = [None] * streams
    start, size = 0, float(batch)
    while start < budget and any(r is None for r in results):
        count = min(max(int(size), 1), budget - start)
        x = np.asarray(next_batch(start, count), dtype=np.float64)
        if x.shape != (count, streams):
            raise CardlabError(
                f"a batch of {count} units for {streams} comparisons returned shape {x.shape}"
            )
        start += count
        size *= growth
        for j, cs in enumerate(seqs):
            if results[j] is not None:
                continue
            look = cs.update(x[:, j])
            history[j].append(look)
            verdict = decide(look, margin)
            if verdict is not None:
                results[j] = SequentialResult(
                    verdict[0], "answer", verdict[1], look.n, look.estimate, look.low,
                    look.high, each, margin, budget, history[j])
    for j in range(streams):
        if results[j] is None:
            look = history[j][-1]
            reason = (
                f"budget of {budget} units spent; the interval [{look.low:.4g}, "
                f"{look.high:.4g}] still contains 0"
                + ("" if margin is None else f" and reaches past +/-{margin:g}")
            )
            results[j] = SequentialResult("undecided", "budget", reason, look.n,
                                          look.estimate, look.low, look.high, each, margin,
                                          budget, history[j])
    return [r for r in results if r is not None]

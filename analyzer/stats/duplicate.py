"""The duplicate format: the strategies compared rotate through the seats of the same deals.

A deal (one ``(seed, index)``) is played once per *arrangement* of strategies to seats. With
:func:`rotations` every strategy takes every seat exactly once per deal, so seat luck and deal
luck are the same for all of them and cancel in their differences; with :func:`seat_swaps` a
candidate takes each seat in turn against a fixed field (one seat against the field).

The estimator works on a long table of games, one row per (deal index, arrangement, seat)
with the strategy that sat there and its result. A strategy's value on a deal is the mean of
its games on that deal; deals are the independent units, so intervals are taken over deals
(the games of one deal are correlated and are never counted as independent).

The variance reduction of a pair (how many times more precise pairing made it) is a ratio of
two variances estimated from the deals; :func:`duplicate_pairs` gives it only where its
denominator, the variance of the paired differences, rests on enough deals
(:data:`MIN_RATIO_UNITS`) and on enough deals on which the two differ
(:data:`MIN_RATIO_DIFFERING`), and NaN otherwise: two deals, or two policies that differ on
one deal, give a ratio of thousands that says nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.stats.intervals import mean_interval
from analyzer.stats.paired import paired_difference

MIN_RATIO_UNITS = 30  # deals behind a variance-reduction figure, at least
MIN_RATIO_DIFFERING = 10  # deals on which the two differ, at least


def rotations(strategies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Arrangements in which each of k strategies takes every seat once: seat s of arrangement
    r plays ``strategies[(s + r) % k]``, for r = 0..k-1.

    Over the k arrangements each strategy plays ``players`` games per deal, one in each seat.
    """
    k = len(strategies)
    if k < 1:
        raise CardlabError("a duplicate comparison needs at least one strategy")
    if players < 1:
        raise CardlabError(f"players must be positive, got {players}")
    return [tuple(strategies[(s + r) % k] for s in range(players)) for r in range(k)]


def seat_swaps(candidate: str, field: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Arrangements putting ``candidate`` into seat s (s = 0..players-1) against ``field``.

    ``field`` is one strategy for all other seats or one per seat (the candidate replaces the
    field's strategy in its seat).
    """
    field = list(field)
    if len(field) == 1:
        field = field * players
    if len(field) != players:
        raise CardlabError(
            f"the field needs one strategy or exactly {players} (one per seat); got {len(field)}"
        )
    return [tuple(candidate if s == seat else field[s] for s in range(players))
            for seat in range(players)]


def label_games(
    rows: pd.DataFrame, arrangement: int, seats: Sequence[str]
) -> pd.DataFrame:
    """Add the columns ``arrangement`` and ``strategy`` (the label seated at each row's seat)."""
    out = rows.copy()
    out.insert(2, "arrangement", arrangement)
    out.insert(3, "strategy", np.asarray(seats, dtype=object)[out["seat"].to_numpy()])
    return out


def unit_means(games: pd.DataFrame, value: str, unit: str = "index") -> pd.DataFrame:
    """Units x strategies: each strategy's mean ``value`` over its games in that unit (a deal,
    or with ``unit="unit"`` a seating: a group of deals played in a fresh order).

    Raises when a strategy misses a unit or strategies have unequal games in a unit: such a
    table is not a duplicate design, and its differences would not be paired.
    """
    counts = games.groupby([unit, "strategy"]).size().unstack("strategy")
    if counts.isna().to_numpy().any() or (counts.nunique(axis=1) != 1).any():
        raise CardlabError(
            "not a balanced duplicate design: every strategy needs the same number of games "
            "on every deal"
        )
    return games.groupby([unit, "strategy"])[value].mean().unstack("strategy")


def _games_by_strategy(games: pd.DataFrame, value: str, strategy: str) -> np.ndarray:
    # ordered by deal so that games line up with unit_means row by row
    part = games[games["strategy"] == strategy].sort_values(["index", "arrangement", "seat"])
    return part[value].to_numpy(dtype=np.float64)


def duplicate_ranking(
    games: pd.DataFrame,
    value: str,
    lower_is_better: bool,
    level: float = 0.95,
    order: Sequence[str] | None = None,
    unit: str = "index",
) -> pd.DataFrame:
    """One row per strategy: mean ``value`` per game with its interval over the units (deals,
    or seatings: :func:`unit_means`), and rank.

    Rank 1 is the best mean (lowest when ``lower_is_better``); ties share a rank.
    """
    means = unit_means(games, value, unit)
    names = list(order) if order is not None else list(means.columns)
    rows = []
    for name in names:
        est = mean_interval(means[name].to_numpy(), level)
        mine = games["strategy"] == name
        rows.append({
            "strategy": name, "mean": est.value, "low": est.low, "high": est.high,
            "half": est.half, "deals": int(games.loc[mine, "index"].nunique()),
            "units": est.n, "games": int(mine.sum()),
        })
    table = pd.DataFrame(rows)
    key = table["mean"] if lower_is_better else -table["mean"]
    table.insert(1, "rank", key.rank(method="min").astype(int))
    return table.sort_values(["rank", "strategy"]).reset_index(drop=True)


# the columns of duplicate_pairs (an empty table keeps them: one strategy has no pairs)
PAIR_COLUMNS = ("a", "b", "difference", "low", "high", "half", "n_units", "mean_a", "mean_b",
                "correlation", "unpaired_half", "variance_reduction")


def duplicate_pairs(
    games: pd.DataFrame,
    value: str,
    level: float = 0.95,
    order: Sequence[str] | None = None,
    against: str | None = None,
    unit: str = "index",
) -> pd.DataFrame:
    """Paired differences ``a - b`` of mean ``value`` per game over common deals.

    Every pair (a before b in ``order``), or each strategy against ``against`` only. Columns:
    a, b, difference, low, high, half, n_units, mean_a, mean_b, correlation, unpaired_half,
    variance_reduction (against unpaired runs with the same games; NaN where its
    denominator is degenerate: :func:`ratio_is_meaningful`). ``unit``: as :func:`unit_means`.
    """
    means = unit_means(games, value, unit)
    names = list(order) if order is not None else list(means.columns)
    if against is not None:
        pairs = [(a, against) for a in names if a != against]
    else:
        pairs = list(itertools.combinations(names, 2))
    rows = []
    for a, b in pairs:
        cmp = paired_difference(
            means[a].to_numpy(), means[b].to_numpy(), level,
            games_a=_games_by_strategy(games, value, a),
            games_b=_games_by_strategy(games, value, b),
        )
        row = {"a": a, "b": b, **cmp.to_dict()}
        if not ratio_is_meaningful(means[a].to_numpy() - means[b].to_numpy()):
            row["variance_reduction"] = np.nan
        rows.append(row)
    return pd.DataFrame(rows, columns=PAIR_COLUMNS) if not rows else pd.DataFrame(rows)



def ratio_is_meaningful(differences: np.ndarray) -> bool:
    """True when the paired differences (one per deal) can carry a variance ratio: at least
    MIN_RATIO_UNITS deals, and the two differ on at least MIN_RATIO_DIFFERING of them (so
    the paired variance is neither zero nor the accident of a few deals)."""
    d = np.asarray(differences, dtype=np.float64)
    return d.size >= MIN_RATIO_UNITS and int(np.count_nonzero(d)) >= MIN_RATIO_DIFFERING

"""Does the ladder's 95% interval hold? A planted-strength simulation with neighbour effects.

Synthetic Who's the Ass? rows (:class:`analyzer.runner.synthetic.SyntheticAssBackend`: deal
luck shared by every arrangement of a deal, seat effects, noise) plus an effect that depends
on who sits where: a strategy's result moves by ``neighbour[(a, b, d)]`` when strategy ``b``
sits ``d`` seats after it (clockwise). With such effects a strategy's result depends on its
company, so an interval that takes one seating as fixed for many deals is too narrow; the
ladder's design draws a fresh seating per group of deals and takes its intervals over them.

The quantity rated is a strategy's expected result against a uniformly random seating of the
others (:func:`true_ratings`), minus the average of the regular strategies: its planted
strength plus, for every relative seat, the mean neighbour effect over the possible company.
:func:`coverage` plays the ladder's design (:func:`analyzer.studies.ladder.design`,
:func:`~analyzer.studies.ladder.play_ladder`) and rates it with the ladder's own code
(:func:`~analyzer.studies.ladder.rate`) on many seeds, and counts how often each 95% interval
holds the true rating. ``scripts/ladder_coverage.py`` prints it for 200 replications.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.runner.play import make_spec
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.ladder import rate
from analyzer.studies.seatings import SEATINGS, design, play_ladder

STRENGTHS = {"s1": -3.0, "s2": -1.0, "s3": 0.0, "s4": 0.0, "s5": 0.5, "s6": 2.0}
ENTRANT = {"e": -5.0}  # a strategy that enters like one tagged slow


def neighbour_effects(names: Sequence[str], players: int, sd: float = 1.5, seed: int = 1
                      ) -> dict[tuple[str, str, int], float]:
    """A random effect (normal, ``sd``) per ordered pair of strategies and relative seat."""
    rng = np.random.default_rng([seed, 0x4E1])
    return {(a, b, d): float(rng.normal(0.0, sd))
            for a in names for b in names if a != b for d in range(1, players)}


class NeighbourBackend(SyntheticAssBackend):
    """Synthetic Ass rows whose minus points also depend on who sits where."""

    def __init__(self, effects: dict[str, float], neighbour: dict[tuple[str, str, int], float],
                 **kwargs):
        super().__init__(effects=effects, **kwargs)
        self.neighbour = dict(neighbour)

    def collect(self, spec, count, start=0):
        """The synthetic rows plus each seat's neighbour effects from this seating."""
        rows = super().collect(spec, count, start)
        n = spec.players
        seats = spec.strategies
        shift = np.array([sum(self.neighbour.get((seats[s], seats[t], (t - s) % n), 0.0)
                              for t in range(n) if t != s) for s in range(n)])
        rows["minus_points"] = rows["minus_points"] + shift[rows["seat"].to_numpy()]
        return rows


def true_ratings(effects: dict[str, float], neighbour: dict[tuple[str, str, int], float],
                 regular: Sequence[str], entrants: Sequence[str], players: int
                 ) -> dict[str, float]:
    """Each strategy's expected result against a uniformly random seating of the regular
    strategies (other than itself), minus the mean of that over the regular strategies."""
    def expected(a: str) -> float:
        company = [b for b in regular if b != a]
        return effects.get(a, 0.0) + sum(
            np.mean([neighbour.get((a, b, d), 0.0) for b in company])
            for d in range(1, players))

    value = {a: expected(a) for a in [*regular, *entrants]}
    centre = float(np.mean([value[a] for a in regular]))
    return {a: v - centre for a, v in value.items()}


def coverage(reps: int, deals: int = 400, players: int = 4, seatings: int = SEATINGS,
             neighbour_sd: float = 1.5, slow_share: int = 10, level: float = 0.95,
             first_seed: int = 1000) -> pd.DataFrame:
    """One row per replication and strategy: the rating, its interval, the true rating and
    whether the interval holds it (``covered``)."""
    regular, entrants = list(STRENGTHS), list(ENTRANT)
    effects = {**STRENGTHS, **ENTRANT}
    neighbour = neighbour_effects([*regular, *entrants], players, neighbour_sd)
    truth = true_ratings(effects, neighbour, regular, entrants, players)
    backend = NeighbourBackend(effects, neighbour)
    rows = []
    for rep in range(reps):
        seed = first_seed + rep
        base = make_spec(backend, "ass", players, [regular[0]] * players, seed)
        plan = design(regular, entrants, players, deals, seed, seatings, slow_share)
        games, _ = play_ladder(backend, base, plan)
        ratings, _ = rate(games, "minus_points", lower=True, level=level)
        for r in ratings.itertuples(index=False):
            true = truth[r.strategy]
            rows.append({"rep": rep, "strategy": r.strategy, "entrant": bool(r.entrant),
                         "rating": r.rating, "low": r.low, "high": r.high, "true": true,
                         "covered": bool(r.low <= true <= r.high)})
    return pd.DataFrame(rows)

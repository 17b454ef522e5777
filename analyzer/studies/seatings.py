"""Seatings: the deals cut into small groups, each played in every rotation of a fresh seeded
order of the strategies, so that every strategy sits in every seat of every deal and its
company (who sits beside it, and where) is drawn anew for every group. The group, not the
deal, is then the unit of randomisation: a study's intervals are taken over the groups.

The ladder (:mod:`analyzer.studies.ladder`, with entrants on a share of the deals) and the
head-to-head comparison (:mod:`analyzer.studies.compare`) both play their tables so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.runner.play import Backend, collect_all
from analyzer.stats.duplicate import rotations
from analyzer.studies.defaults import LADDER_SLOW_SHARE

SEATINGS = 200  # fresh seatings per player count: the units the intervals are taken over
SLOW_LEAST = 10  # an entrant plays at least this many deals (all of them when fewer)


@dataclass(frozen=True)
class Seating:
    """One unit of the design: deals ``start``..``start+count-1`` played at every rotation of
    ``order`` (the regular strategies), and, on the first ``entrant_deals`` of them, the
    entrants' ``entrant_tables`` (one seat tuple per entrant and seat)."""

    unit: int
    start: int
    count: int
    order: tuple[str, ...]
    entrant_deals: int
    entrant_tables: tuple[tuple[str, ...], ...]

    def tables(self, players: int) -> list[tuple[str, ...]]:
        """The regular tables: every rotation of the order."""
        return rotations(self.order, players)


def design(regular: Sequence[str], entrants: Sequence[str], players: int, deals: int,
           seed: int, seatings: int = SEATINGS, slow_share: int = LADDER_SLOW_SHARE
           ) -> list[Seating]:
    """The seeded design: ``min(deals, seatings)`` groups of consecutive deals, each with a
    fresh random order of ``regular``; the entrants on ``deals / slow_share`` deals (at least
    SLOW_LEAST), spread evenly over the groups, each in every seat once per deal at a table
    of one rotation drawn at random. The orders do not depend on the entrants."""
    if slow_share < 1:
        raise CardlabError(f"the slow share must be at least 1, got {slow_share}")
    rng = np.random.default_rng([seed, players, 0x1add, 2])
    entrant_rng = np.random.default_rng([seed, players, 0x1add, 3])  # orders stay the same
    g_count = max(1, min(deals, seatings))
    edges = np.linspace(0, deals, g_count + 1).astype(int)
    with_entrants = min(deals, max(SLOW_LEAST, math.ceil(deals / slow_share))) if entrants else 0
    out = []
    k = len(regular)
    for g in range(g_count):
        order = tuple(regular[i] for i in rng.permutation(k))
        count = int(edges[g + 1] - edges[g])
        m = (g + 1) * with_entrants // g_count - g * with_entrants // g_count
        tables = []
        rots = rotations(order, players)
        for entrant in entrants:
            for seat in range(players):
                seats = list(rots[int(entrant_rng.integers(k))])
                seats[seat] = entrant
                tables.append(tuple(seats))
        out.append(Seating(g, int(edges[g]), count, order, min(m, count), tuple(tables)))
    return out


def play_ladder(backend: Backend, base, seatings: Sequence[Seating]
                ) -> tuple[pd.DataFrame, list]:
    """The games of the design: columns of the game plus ``unit`` (the seating),
    ``arrangement`` (the table on its deal: rotations first, then the entrants' tables),
    ``strategy`` and ``entrant_table``. Returns the specs of the first seating's tables.

    Each table of a seating is one run of that seating's deals, all played in one pass
    (:func:`collect_all`); the labels are added once at the end (a seating is a few deals, so
    per-run costs count)."""
    valid: dict[tuple[str, ...], Any] = {}
    runs, meta = [], []
    for st in seatings:
        regular = st.tables(base.players)
        jobs = [(seats, r, False, st.count) for r, seats in enumerate(regular)]
        if st.entrant_deals:
            jobs += [(seats, len(regular) + i, True, st.entrant_deals)
                     for i, seats in enumerate(st.entrant_tables)]
        for seats, arrangement, entrant, count in jobs:
            spec = valid.get(seats)
            if spec is None:
                spec = valid[seats] = backend.validate(replace(base, strategies=tuple(seats)))
            runs.append((spec, count, st.start))
            meta.append((st.unit, arrangement, entrant, seats))
    games = collect_all(backend, runs, concat=True)
    sizes = np.array([count * spec.players for spec, count, _ in runs])
    names = sorted({x for *_, seats in meta for x in seats})
    code = {x: i for i, x in enumerate(names)}
    seat_codes = np.array([[code[x] for x in seats] for *_, seats in meta])
    frame = np.repeat(np.arange(len(runs)), sizes)
    games.insert(2, "unit", np.repeat([m[0] for m in meta], sizes))
    games.insert(3, "arrangement", np.repeat([m[1] for m in meta], sizes))
    games.insert(4, "strategy", np.asarray(names, dtype=object)[
        seat_codes[frame, games["seat"].to_numpy()]])
    games["entrant_table"] = np.repeat([m[2] for m in meta], sizes)
    first = [valid[m[3]] for m in meta if m[0] == seatings[0].unit] if seatings else []
    return games, first

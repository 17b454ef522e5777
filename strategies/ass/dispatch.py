"""The dispatcher of Who's the Ass? strategies: every family, search included.

:mod:`strategies.ass.policies` holds the non-search families, so that the search
(:mod:`strategies.ass.pimc`) can roll worlds out with them through
:mod:`strategies.ass.rollout` (numba cannot recurse policy -> search -> policy);
:func:`decide` adds the search on top. The engine's play loop keeps its own copy of this
if/elif, specialised by table variant (``analyzer.engines.ass.engine._decide``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.games.ass.cards import PASS
from strategies.ass.catalog import BASIC, HEURISTIC, PIMC, RANDOM
from strategies.ass.pimc import search_move
from strategies.ass.policies import basic, heuristic, random_policy


@njit(cache=True)
def decide(family, params, view, rng):
    """The move of strategy family ``family`` with parameters ``params`` (if/elif dispatch).

    ``peek`` needs every hand, which a view never holds: only the engine plays it."""
    if family == BASIC:
        return basic(params, view, rng)
    elif family == RANDOM:
        return random_policy(params, view, rng)
    elif family == HEURISTIC:
        return heuristic(params, view, rng)
    elif family == PIMC:
        return search_move(family, params, view, rng, np.zeros(0, dtype=np.uint64),
                           np.zeros((0, 2), dtype=np.int64))  # no move record here
    return PASS - 1  # an unknown family: an illegal code the engine reports

"""The dispatcher of Who's the Ass? strategies: every family, search included.

:mod:`strategies.ass.policies` holds the non-search families, so that the search
(:mod:`strategies.ass.pimc`) can roll worlds out with them through
:mod:`strategies.ass.rollout` (numba cannot recurse policy -> search -> policy);
:func:`decide` adds the search on top. The engine's play loop keeps its own copy of this
search branch, specialised by table variant (``analyzer.engines.ass.engine._decide``); the
non-search families are listed once, in :func:`strategies.ass.policies.decide_other`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from strategies.ass.catalog import BASIC, PIMC
from strategies.ass.pimc import search_move
from strategies.ass.policies import basic, decide_other


@njit(cache=True)
def decide(family, params, view, rng):
    """The move of strategy family ``family`` with parameters ``params`` (if/elif dispatch).

    ``peek`` needs every hand, which a view never holds: only the engine plays it."""
    if family == BASIC:
        return basic(params, view, rng)
    elif family == PIMC:
        return search_move(family, params, view, rng, np.zeros(0, dtype=np.uint64),
                           np.zeros((0, 2), dtype=np.int64))  # no move record here
    return decide_other(family, params, view, rng)  # the other families (or an illegal code)

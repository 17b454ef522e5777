"""The dispatcher of Who's the Ass? strategies: every family, search included.

:mod:`strategies.ass.policies` holds the non-search families, so that the search
(:mod:`strategies.ass.pimc`) can roll worlds out with them through the one play loop
(:mod:`strategies.ass.loop`; numba cannot recurse policy -> search -> policy);
:func:`decide` adds the search on top. The play loop asks the search through
:func:`strategies.ass.loop.search_hook`, whose implementation :func:`register_search`
registers (the loop cannot import the search, which rolls out through it), in the loop's
variants with search only; the non-search families are listed once, in
:func:`strategies.ass.policies.decide_other`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.numba_compat import register_hook
from strategies.ass.catalog import BASIC, PIMC
from strategies.ass.loop import SEARCH, search_hook
from strategies.ass.pimc import search_move
from strategies.ass.policies import basic, decide_other


def register_search() -> None:
    """Give the play loop's ``search_hook`` its implementation, ``search_move``, called through
    its address from compiled code (:func:`analyzer.numba_compat.register_hook`; the engine
    calls this when it is imported)."""
    register_hook(search_hook, SEARCH, search_move)


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

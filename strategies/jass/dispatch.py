"""The engine's dispatcher of Plus-Minus Jass strategies: every family, search included.

:func:`strategies.jass.policies.choose_card` holds the non-search families only, so that a
search strategy can roll worlds out with it (numba cannot recurse engine -> policy ->
engine); :func:`decide` adds the search families on top and is what the deal loop's variants
with search (:mod:`strategies.jass.loop`) and the reference engine's checks
(analyzer/engines/jass/reference.py) call. The loop asks it through
:func:`strategies.jass.loop.search_hook`, whose compiled implementation
:func:`register_search` registers (the loop cannot import the search, which rolls out through
it).
"""

from __future__ import annotations

from analyzer.bits import popcount
from analyzer.games.jass.cards import SUIT_MASK
from analyzer.numba_compat import njit_no_runtime, njit_runtime, register_hook
from strategies.jass.knobs import FAM_PEEK, FAM_PIMC
from strategies.jass.loop import SEARCH, search_hook
from strategies.jass.policies import choose_card, forced_trump_card
from strategies.jass.search import peek_card, pimc_card, search_card


@njit_no_runtime(inline="always")
def decide(fam, prm, seat, hands, legal, st, played, taken, rng, aim):
    """The card the seat's strategy plays (one of ``legal``). ``hands`` is the engine's full
    deal: a legal player's policy receives ``hands[seat]`` only; ``peek`` (analysis, not a
    legal player) receives every hand."""
    if fam == FAM_PIMC:
        return pimc_card(prm, seat, hands[seat], legal, st, played, taken, rng)
    if fam == FAM_PEEK:
        return peek_card(prm, seat, hands, legal, st, played, taken, rng)
    return choose_card(fam, prm, seat, hands[seat], legal, st, played, taken, rng, aim)


@njit_runtime()
def forced_card(fam, prm, seat, hands, suit, st, played, taken, rng, aim):
    """The card the strategy plays when it must fix trump to ``suit`` (the trump study's
    counterfactual), with the same draws as its free decision there."""
    hand = hands[seat]
    # search exactly when the free decision (any card of the hand) would
    least = 1 if popcount(hand) >= 2 else 2
    if fam in (FAM_PIMC, FAM_PEEK):  # peek a value, not a literal: one compile
        return search_card(prm, seat, hand, hand & SUIT_MASK[suit], st, played, taken, rng,
                           hands, fam == FAM_PEEK, least)
    return forced_trump_card(fam, prm, seat, hand, suit, st, played, taken, rng, aim)


def register_search() -> None:
    """Give the deal loop's ``search_hook`` its implementation, :func:`decide`, called through
    its address from compiled code (:func:`analyzer.numba_compat.register_hook`; the engine
    calls this when it is imported)."""
    register_hook(search_hook, SEARCH, decide)

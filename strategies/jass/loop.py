"""The one deal loop of Plus-Minus Jass, shared by the engine and the search's rollouts.

:func:`run_deal` plays a deal card by card from any packed state (``hands``, ``played``,
``taken`` uint64[4] and the public state ``st``, layout in ``primitives``) to its end: the
engine (analyzer/engines/jass/engine.py) from the start of each deal, a search strategy
(:mod:`strategies.jass.search`) from a candidate card in a sampled world, through
:func:`rollout`. Its variants are made by the compiler from the types of two arguments, each
None or not (numba prunes an ``if x is None`` on an argument, alone in its ``if``, before
typing the rest, so a pruned branch's code is never compiled):

* ``search``  None: the families of :func:`strategies.jass.policies.choose_card` only (no
              search compiled in; ``basic``'s card trusted, any other checked), and the public
              state gets no ``S_BAN`` inferences (only a search reads them:
              :func:`strategies.jass.play.play_card_no_bans`); the engine's runs without a
              search seat and every rollout. True: every family, search included, through
              :func:`search_hook` (the full dispatcher :func:`strategies.jass.dispatch.decide`,
              registered from above by strategies/jass/dispatch.py, since the search rolls
              out through this loop), every card checked, ``S_BAN`` kept. The variants with
              search are compiled by a dispatcher of their own (``_deal_search``, a twin of
              ``_deal``: :func:`analyzer.numba_compat.twin`), as the search they ask compiles
              this loop for its rollouts while they compile.
* ``rec``     None (nothing of the records compiled in, ``stop`` and ``trow`` unread), or the
              engine's records' outputs (``trace_on``, ``trace``, ``cf_on``, ``cf_out``,
              ``alt``): with ``stop`` set, stop just before a seat has to fix trump (STOPPED);
              with ``trow`` >= 0, write the deal's cards, leaders and winners into row
              ``trow`` of the trace ``rec[1]`` (the engine's trace layout ``T_*``, whose slots
              this loop writes are defined here).

A card that breaks the rules (a strategy bug) ends the deal with ILLEGAL + seat; the policies
a rollout plays (``basic``, ``random``, ``heuristic``, ``learned``) never return one, so a
rollout plays to the end and returns DONE.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from analyzer.games.jass.cards import BIT, SUIT_MASK
from analyzer.games.jass.primitives import (
    S_LEADER,
    S_LED,
    S_N,
    S_NTRICKS,
    S_POS,
    S_SWISS,
    S_TRICK,
    S_TRUMP,
    U0,
    legal_mask,
)
from analyzer.numba_compat import njit_no_runtime, registered, twin
from strategies.jass.knobs import FAM_BASIC, FAM_LEARNED, P_DEPTH, ROLLOUT_FINISHER
from strategies.jass.play import DONE, play_card, play_card_no_bans, rollout_basic, to_move
from strategies.jass.policies import basic_card, begin_deal, choose_card

# Status codes of run_deal (and of the engine's play_unit); DONE is play.py's.
STOPPED = 1  # stopped at a trump-fixing decision (the records' run with stop on)
ILLEGAL = 100  # + seat: a strategy returned a card it may not play (a strategy bug)

# A rollout's ``stop`` and ``trow`` (unread without records), typed as the engine's (bool,
# int64) rather than literals, so that the rollouts and the engine's plain runs share one
# compiled loop (numba compiles a callee once per literal argument value)
NO_STOP = np.bool_(False)
NO_ROW = np.int64(-1)

# The engine's trace, one row per deal (analyzer/engines/jass/records.py reads it); this loop
# writes the cards, leaders and winners, the engine the rest.
T_DEALER = 0
T_TRUMP = 1
T_FIXER = 2
T_LAST_WINNER = 3
T_HANDS = 4  # 4 slots: hands after the deal, by seat (bitmasks)
T_CARDS = 8  # 36 slots: every card in playing order
T_LEADERS = 44  # 12 slots
T_WINNERS = 56  # 12 slots
T_POINTS = 68  # 4 slots
T_STICKS = 72  # 4 slots: awarded in this deal, bonus included
T_TOTALS = 76  # 4 slots: running totals after the deal
T_BONUS = 80  # 4 slots: bonus sticks from remembered ties paid in this deal
T_AIM = 84  # 4 slots: each seat's aim in the deal (-1 n/a)
T_WIDTH = 88


SEARCH: list = []  # the full dispatcher, as strategies/jass/dispatch.py registers it


def search_hook(fam, prm, seat, hands, legal, st, played, taken, rng, aim):
    """The card of a seat of any family, search included (``hands`` the whole deal, which
    ``peek`` reads). strategies/jass/dispatch.py registers the full dispatcher (the search
    rolls out through this module, so this module cannot import it): compiled code gets it
    from an overload, plain Python (NUMBA_DISABLE_JIT) from :data:`SEARCH`. :func:`run_deal`
    calls it only when ``search`` is True."""
    return registered(SEARCH, "strategies.jass.dispatch")(fam, prm, seat, hands, legal, st,
                                                          played, taken, rng, aim)


def run_deal(fams, prms, rng, hands, played, taken, st, memo, search, rec, stop, trow):
    """Play from the current state to the end of the deal with the families ``fams[seat]``,
    parameters ``prms[seat]`` and aims ``memo[seat]``; draws come from ``rng``. Returns DONE,
    ILLEGAL + seat, or (``rec`` not None, ``stop`` set) STOPPED. ``search``, ``rec``, ``stop``
    and ``trow``: the module docstring's.

    Compiled by ``_deal``, or where ``search`` is not None by its twin ``_deal_search``; in
    jitted code the choice is made when the caller is compiled (the overload below)."""
    deal = _deal if search is None else _deal_search
    return deal(fams, prms, rng, hands, played, taken, st, memo, search, rec, stop, trow)


@overload(run_deal, inline="always")
def _run_deal_typed(fams, prms, rng, hands, played, taken, st, memo, search, rec, stop, trow):
    deal = _deal if isinstance(search, types.NoneType) else _deal_search

    def impl(fams, prms, rng, hands, played, taken, st, memo, search, rec, stop, trow):
        return deal(fams, prms, rng, hands, played, taken, st, memo, search, rec, stop, trow)
    return impl


@njit_no_runtime()
def _deal(fams, prms, rng, hands, played, taken, st, memo, search, rec, stop, trow):
    """:func:`run_deal`, compiled."""
    if rec is not None:
        trace = rec[1]
    ntr = st[S_NTRICKS]
    while st[S_TRICK] < ntr:
        seat = to_move(st)
        hand = hands[seat]
        if rec is not None:
            pos = st[S_POS]
            t = st[S_TRICK]
            if (
                stop
                and st[S_TRUMP] < 0
                and pos > 0
                and (hand & SUIT_MASK[st[S_LED]]) == U0
            ):
                return STOPPED
        legal = legal_mask(hand, st)
        if search is None:
            fam = fams[seat]
            if fam == FAM_BASIC:  # trusted: it picks from legal by construction
                card = basic_card(legal, st)
            else:
                card = choose_card(fam, prms[seat], seat, hand, legal, st, played, taken, rng,
                                   memo[seat])
                if card < 0 or card >= 36 or (legal & BIT[card]) == U0:
                    return ILLEGAL + seat
        else:
            card = search_hook(fams[seat], prms[seat], seat, hands, legal, st, played, taken,
                               rng, memo[seat])
            if card < 0 or card >= 36 or (legal & BIT[card]) == U0:
                return ILLEGAL + seat
        if rec is not None and trow >= 0:
            trace[trow, T_CARDS + t * st[S_N] + pos] = card
            if pos == 0:
                trace[trow, T_LEADERS + t] = seat
        if search is None:
            play_card_no_bans(seat, card, hands, played, taken, st)  # no search reads the bans
        else:
            play_card(seat, card, hands, played, taken, st)
        if rec is not None and trow >= 0 and st[S_POS] == 0:
            trace[trow, T_WINNERS + t] = st[S_LEADER]
    return DONE


_deal_search = njit_no_runtime()(twin(_deal, "_deal_search"))


@njit_no_runtime()
def rollout(fams, prms, rng, hands, played, taken, st, memo):
    """The search strategies' playout: the deal on from the packed state to its end with the
    non-search families ``fams[seat]`` / ``prms[seat]`` and aims ``memo[seat]``; draws come
    from ``rng``. Allocates nothing; returns DONE.

    A table of ``basic`` in every seat under ``seed`` plays
    :func:`strategies.jass.play.rollout_basic` (the same cards, tricks and outcome, fewer of
    the public record's slots kept: its doc); ``learned`` with a depth
    (``learned:depth=D``) :func:`_learned_then_finisher`; every other table the one loop,
    :func:`run_deal` without search or records."""
    if basic_table(fams, st):
        return rollout_basic(hands, played, taken, st)
    if fams[0] == FAM_LEARNED and prms[0, P_DEPTH] > 0:
        return _learned_then_finisher(prms, rng, hands, played, taken, st, memo)
    return run_deal(fams, prms, rng, hands, played, taken, st, memo, None, None, NO_STOP,
                    NO_ROW)


def _finisher() -> tuple[np.ndarray, np.ndarray]:
    """Family and parameter vector, for every seat, of the preset that finishes a rollout of
    ``learned`` with a depth (frozen into the kernels)."""
    from strategies.registry import N_PARAMS, catalog, resolve_values

    spec = catalog("jass", with_files=False)[ROLLOUT_FINISHER]
    prms = np.zeros((4, N_PARAMS), dtype=np.float64)
    for i in range(4):
        prms[i, :] = resolve_values(spec, {})
    return np.full(4, spec.family, dtype=np.int64), prms


FINISH_FAMS, FINISH_PRMS = _finisher()


@njit_no_runtime()
def _learned_then_finisher(prms, rng, hands, played, taken, st, memo):
    """``learned:depth=D`` as a rollout: ``learned`` plays the next D cards of the deal (every
    seat), then every seat plays the finisher (``aim-low``, its aim for the deal fixed as at
    a deal's start) to the end. Returns DONE, or ILLEGAL + seat (a strategy bug)."""
    left = int(prms[0, P_DEPTH])
    ntr = st[S_NTRICKS]
    while left > 0 and st[S_TRICK] < ntr:
        seat = to_move(st)
        hand = hands[seat]
        legal = legal_mask(hand, st)
        card = choose_card(FAM_LEARNED, prms[seat], seat, hand, legal, st, played, taken, rng,
                           memo[seat])
        if card < 0 or card >= 36 or (legal & BIT[card]) == U0:
            return ILLEGAL + seat
        play_card_no_bans(seat, card, hands, played, taken, st)
        left -= 1
    if st[S_TRICK] >= ntr:
        return DONE
    for p in range(st[S_N]):
        memo[p] = begin_deal(FINISH_FAMS[p], FINISH_PRMS[p], p, hands[p], st)
    return run_deal(FINISH_FAMS, FINISH_PRMS, rng, hands, played, taken, st, memo, None, None,
                    NO_STOP, NO_ROW)


@njit_no_runtime(inline="always")
def basic_table(fams, st):
    """True for the tables :func:`strategies.jass.play.rollout_basic` plays: ``basic`` in each
    of the ``st[S_N]`` seats and the ``seed`` rule set."""
    if st[S_SWISS] != 0:
        return False
    for i in range(st[S_N]):  # noqa: SIM110 (a loop numba compiles)
        if fams[i] != FAM_BASIC:
            return False
    return True

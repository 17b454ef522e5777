"""The plain run of Plus-Minus Jass specialised to tables of ``basic`` alone under ``seed``.

Why (issue 13): a table of ``basic`` in every seat is the default run and the baseline of
every comparison, and the general loop (:func:`engine.play_unit`) pays there for what only
other strategies need: the public record kept card by card, a policy dispatch and a legal-move
mask per card, the trick state in memory. This module plays the same deals with the ideas of
the hand-written C yardstick (scripts/cbase/jass.c):

* the shuffle deals as it goes (J-2): Fisher-Yates fixes deck position i at its swap, so the
  card goes straight to its seat (``cards.DEAL_SEAT``); the same 35 draws as
  :func:`engine.start_deal`, and the stream is left where it leaves it;
* the tricks played by :func:`strategies.jass.basic_tricks.play_tricks` (shared with the
  search's rollout, :func:`strategies.jass.play.rollout_basic`): the trick in local
  variables, J-7 as one power table, J-4..J-6 under ``seed`` fused with ``basic``'s choice
  by 9-bit key tables (that module's doc);
* the player count a constant of the compiled loop (one inlined copy for 3 players, one for 4).

It leaves in the work arrays exactly what the scoring and the result rows read (``taken``,
``st[S_N]``, ``st[S_TRUMP]``, ``st[S_FIXER]``, ``st[S_LAST_WINNER]``, ``st[S_WON + i]``), so
:func:`engine.unit_begin`, :func:`engine.deal_finish` (J-8..J-10), :func:`engine.unit_end`,
:func:`engine._deal_row` and :func:`engine._match_row` are the general engine's, unchanged.
What it does not keep, as no ``basic`` seat reads it: the public record (``played``,
``S_VOID``, ``S_BAN``, ``S_HIST``, the trick slots ``S_TCARD``/``S_TSEAT``, ``S_HIGH_TRUMP``,
the public sticks and ties) and the aims (``basic`` has none). So it is for the chunk kernels
only, never for traces, records, counterfactuals or search.

``kernel.play_chunk`` picks it (:func:`analyzer.engines.jass.kernel.chunk_kernel`) when every
seat is ``basic`` and the rule set is ``seed``; every other table, ``swiss`` included, keeps
the general loop. tests/test_jass_basic_play.py holds its result columns to the general
loop's for the same (seed, index), deals and matches, 3 and 4 players.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.engines.jass.engine import (
    DONE,
    OFF,
    ON,
    ONE,
    _deal_columns,
    _deal_row,
    _match_columns,
    _match_row,
    deal_finish,
    new_work,
    unit_begin,
    unit_end,
)
from analyzer.games.jass.cards import BIT, DEAL_SEAT
from analyzer.games.jass.primitives import (
    S_FIXER,
    S_LAST_WINNER,
    S_N,
    S_POS,
    S_TRICK,
    S_TRUMP,
    S_WON,
    U0,
)
from analyzer.numba_compat import njit_no_runtime
from analyzer.rng import GOLDEN, S32, mix64
from strategies.jass.basic_tricks import ix as _ix
from strategies.jass.basic_tricks import play_tricks


@njit_no_runtime(inline="always")
def _deal_play(rng, deck, hands, taken, st, n, first):
    """Shuffle, deal from seat ``first`` and play the 36 cards; ``n`` is a constant of the
    caller (inlined), so the seat arithmetic and the loops know it."""
    for i in range(36):
        deck[i] = i
    for i in range(4):
        hands[i] = U0
        taken[i] = U0
        st[S_WON + i] = 0
    owner = DEAL_SEAT[_ix(n - 3), _ix(first)]
    z = rng[0]
    for i in range(35, 0, -1):  # Fisher-Yates: position i is final after its swap
        z += GOLDEN
        j = ((mix64(z) >> S32) * np.uint64(i + 1)) >> S32
        c = deck[j]
        deck[j] = deck[_ix(i)]
        hands[_ix(owner[_ix(i)])] |= BIT[_ix(c)]
    hands[_ix(owner[0])] |= BIT[_ix(deck[0])]
    rng[0] = z
    leader, trump, fixer = play_tricks(hands, taken, st, n, 36 // n, first, -1, -1)
    st[S_N] = n
    st[S_TRUMP] = trump
    st[S_FIXER] = fixer
    st[S_LAST_WINNER] = leader
    st[S_TRICK] = 36 // n
    st[S_POS] = 0


@njit_no_runtime(inline="always")
def _unit(seed, index, n, cap, work, deals_mode):
    """One match (or one deal in ``deals_mode``) as :func:`engine.play_unit` plays it: the
    same results in ``work``, the same draws. ``n`` is a constant of the caller, and it
    reaches the engine's scoring functions as one too: numba compiles a copy of each per
    player count, measured 20 to 25% faster per deal than their run-time-n code (a deal of
    4 players: 0.75x -> 0.89x of C's speed), for a few seconds more of cold compile."""
    rng, deck, hands, played, taken, st, ints, ties, res = work
    dealer, ndeals = unit_begin(seed, index, n, cap, work, deals_mode)
    winner = -1
    d = 0
    while d < ndeals:
        d += 1
        first = dealer + 1
        if first == n:
            first = 0
        _deal_play(rng, deck, hands, taken, st, n, first)
        winner = deal_finish(work, n, deals_mode)
        if winner >= 0:
            break
        dealer = first
    unit_end(work, d, winner, deals_mode)


# One compiled copy per player count, made by the compiler: ``seats`` is a tuple of n zeros,
# whose type (UniTuple(int64, n)) makes n = len(seats) a constant of each compiled copy, as
# the literal 3 and 4 of hand-written copies did; a run compiles only its own player count.
# The loops are functions of their own with _nrt=False: inlined into the allocating chunk
# function, the work arrays were reference-counted on every unit (a single deal 0.95x ->
# 0.68x of C's speed).
SEATS = {3: (0, 0, 0), 4: (0, 0, 0, 0)}  # J-1: 3 or 4 players


@njit_no_runtime()
def _matches_loop(seed, start, count, cap, work, sticks, won, bonus, deals, capped, winner,
                  first_dealer, seats):
    n = len(seats)
    for u in range(count):
        _unit(seed, start + u, n, cap, work, OFF[0])
        _match_row(work, u, n, sticks, won, bonus, deals, capped, winner, first_dealer)


@njit_no_runtime()
def _deals_loop(seed, start, count, work, points, tricks, sticks, fixed, last, trump, seats):
    n = len(seats)
    for u in range(count):
        _unit(seed, start + u, n, ONE[0], work, ON[0])
        _deal_row(work, u, n, points, tricks, sticks, fixed, last, trump)


@njit(cache=True, nogil=True)  # nogil: the threads backend runs chunks in parallel
def _matches_chunk(seed, start, count, cap, seats):
    work = new_work()
    cols = _match_columns(count, len(seats))
    _matches_loop(seed, start, count, cap, work, *cols, seats)
    return (DONE, -1, *cols)


@njit(cache=True, nogil=True)
def _deals_chunk(seed, start, count, seats):
    work = new_work()
    cols = _deal_columns(count, len(seats))
    _deals_loop(seed, start, count, work, *cols, seats)
    return (DONE, -1, *cols)


def matches_chunk_basic(seed, start, count, n, cap):
    """:func:`engine.matches_chunk` for a table of ``basic`` alone under ``seed`` (same
    returns; the status is always DONE: ``basic`` plays legal cards by construction)."""
    return _matches_chunk(seed, start, count, cap, SEATS[n])


def deals_chunk_basic(seed, start, count, n):
    """:func:`engine.deals_chunk` for a table of ``basic`` alone under ``seed`` (same
    returns)."""
    return _deals_chunk(seed, start, count, SEATS[n])

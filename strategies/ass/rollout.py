"""The rollout entry point of Who's the Ass?: play on from a packed mid-game state.

A search bot (strategies/ass/pimc.py) builds a complete state for every world it imagines
and plays it to the end, thousands of times per decision. ``play_on`` does that without any
of what the public ``engine.play_game`` does around the play (validation, allocation,
packing, tracing): it takes the engine's own packed state, allocates nothing (compiled with
``_nrt=False``), and is callable from jitted code. It plays the one play loop of the game
(strategies/ass/loop.py's ``play_rounds``), without the engine's books (no move record, no
ass-round counts, no known holdings: nothing in a rollout reads them).

The state, as the engine keeps it (engine.py's module docstring):

* ``packed``  uint64[n]: every seat's hand as 4-bit counts by kind (moves.py), updated in
              place; the minus points at the end are ``engine.score(packed[s])``;
* ``view``    int64[VIEW_LEN], the rollout's own work view: its PUB_SIZES hold every hand's
              size (kept up to date for the families other than ``basic``, which read the
              view; a rollout of ``basic`` alone reads them at the start only and leaves
              them as they were); before the decision of a family other than ``basic`` the
              decider's hand and the public state are written into it, as the engine does;
* ``gone``    the cards that have left the game, packed; ``table`` the cards played in the
              current round, packed;
* the round: ``starter``, ``pos`` (the position of the next seat to move: 0 = the starter
  has not led yet, n = every seat has had its turn), ``k``, ``high``, ``high_seat``,
  ``ass_round`` (0/1), ``blocked`` (the seat that may not lead the ass when ``pos`` is 0,
  -1 for none; A-8) and ``rounds`` (the round's number, for the view).

Every seat plays the one rollout policy ``fam`` with parameters ``pp`` (a tuple of 8
floats), a non-search family (basic, random, heuristic, learned), so a search family can roll
out without calling itself (numba compiles no recursion through the engine). ``basic`` alone
plays the loop's variant of nothing else (no hand sizes kept; once a 14 leads or beats a
normal round the round ends there), every other family the variant that asks it through
``loop.checked_move`` (view filled, family asked, move checked): a function of its own, so
that the families' code (``learned``'s features among them) stays out of the ``basic``
rollouts the search runs by default. ``learned`` with a depth (``learned:depth=D``, the knob
in slot 0) makes the first D decisions here (``_learned_then_basic``) and hands the state to
the loop of ``basic`` alone for the rest.

The rules are the engine's (the same loop), and tests hold ``play_on`` to the engine game by
game (tests/test_ass_pimc.py): the same moves, so the same final hands.
"""

from __future__ import annotations

import numpy as np

from analyzer.games.ass.cards import ASS, PASS, PUB_PLAYERS, PUB_SIZES
from analyzer.games.ass.moves import U0, U15, move_delta
from analyzer.numba_compat import njit_no_runtime
from strategies.ass.catalog import BASIC, LEARNED, SLOT_DEPTH
from strategies.ass.loop import ILLEGAL, MAX_ROUNDS, OK, ROUND_BOUND, _checked_inline, play_rounds

__all__ = ["MAX_ROUNDS", "NO_BLOCK", "OK", "ROUND_BOUND", "START", "play_on"]

# What jitted callers pass for "no seat blocked" and for a round's start (pos, k, high, ...):
# typed values, not the literals -1 and 0. numba compiles a callee once per literal argument
# value, and the literals reach the round loop too: the search, the analysis, the benchmarks
# and the tests' callers compiled five copies of play_on (and of the loop under it) where one
# serves them all, as it serves a call from Python.
NO_BLOCK = np.int64(-1)
START = np.int64(0)


@njit_no_runtime()
def play_on(packed, n, fam, pp, view, rng, gone, table, starter, blocked, pos, k, high,
            high_seat, ass_round, rounds):
    """Play from the state described in the module docstring to the end of the game.

    Returns (status, turns): status OK (-1), the seat whose move was illegal, or ROUND_BOUND;
    turns the number of seats that had a turn (forced passes included), for benchmarks.
    """
    if fam == LEARNED and pp[SLOT_DEPTH] > 0:
        return _learned_then_basic(packed, n, pp, view, rng, gone, table, starter, blocked, pos,
                                   k, high, high_seat, ass_round, rounds)
    if fam == BASIC:
        status, _, _, turns = play_rounds(None, None, fam, pp, packed, n, view, rng, gone, table,
                                          starter, blocked, pos, k, high, high_seat, ass_round,
                                          rounds, None, False, None)
    else:
        status, _, _, turns = play_rounds(True, None, fam, pp, packed, n, view, rng, gone, table,
                                          starter, blocked, pos, k, high, high_seat, ass_round,
                                          rounds, None, False, None)
    return status, turns


BASIC_PP = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@njit_no_runtime()
def _learned_then_basic(packed, n, pp, view, rng, gone, table, starter, blocked, pos, k, high,
                        high_seat, ass_round, rounds):
    """``learned:depth=D`` as a rollout: ``learned`` makes the first D decisions (a seat with
    a choice to make: forced passes are none), then every seat plays ``basic`` to the end
    (the fast loop of ``basic`` alone, from the middle of a round if need be). The rules are
    the loop's (A-5..A-9), written out for the few turns ``learned`` plays."""
    depth = int(pp[SLOT_DEPTH])
    view[PUB_PLAYERS] = n  # as the loop does: the policy reads it
    decisions = 0
    turns = 0
    status = OK
    done = False
    while decisions < depth:
        if pos == 0:  # the starter leads; A-8: the ass unless just taken
            if rounds >= MAX_ROUNDS:
                return ROUND_BOUND, turns
            hand = packed[starter]
            may = 1 if ((hand & U15) != U0 and starter != blocked) else 0
            move = _checked_inline(LEARNED, pp, starter, view, rng, packed, hand, U0, gone,
                                   START, START, START, START, may, starter, starter, rounds)
            if move == ILLEGAL:
                return starter, turns
            decisions += 1
            turns += 1
            high = move >> 8
            c = (move >> 4) & 15
            j = move & 15
            table = move_delta(move)
            packed[starter] = hand - table
            view[PUB_SIZES + starter] -= c + j
            high_seat = starter
            ass_round = 1 if high == ASS else 0
            k = 1 if ass_round else c + j
            pos = 1
            continue
        if pos < n:  # the seat at position pos follows
            seat = starter + pos
            if seat >= n:
                seat -= n
            hand = packed[seat]
            turns += 1
            if view[PUB_SIZES + seat] >= k:  # fewer than k cards (or none): a pass
                move = _checked_inline(LEARNED, pp, seat, view, rng, packed, hand, table, gone,
                                       pos, k, high, ass_round, START, starter, high_seat,
                                       rounds)
                if move == ILLEGAL:
                    return seat, turns
                decisions += 1
                if move != PASS:
                    v = move >> 8
                    delta = move_delta(move)
                    packed[seat] = hand - delta
                    table += delta
                    view[PUB_SIZES + seat] -= ((move >> 4) & 15) + (move & 15)
                    if v > high or (ass_round and v == high):
                        high = v
                        high_seat = seat
            pos += 1
            continue
        # the round is over
        if ass_round:
            packed[high_seat] += table
            view[PUB_SIZES + high_seat] += n
            blocked = high_seat
        else:
            gone += table
            blocked = NO_BLOCK
        table = U0
        starter = high_seat
        pos = START
        rounds += 1
        for s in range(n):  # the game ends at the end of a round with a hand empty
            if packed[s] == U0:
                done = True
        if done:
            return status, turns
    # (at pos == n the loop ends the round from there)
    status, _, _, more = play_rounds(None, None, BASIC, BASIC_PP, packed, n, view, rng, gone,
                                     table, starter, blocked, pos, k, high, high_seat,
                                     ass_round, rounds, None, False, None)
    return status, turns + more

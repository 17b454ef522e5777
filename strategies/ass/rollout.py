"""The rollout entry point of Who's the Ass?: play on from a packed mid-game state.

A search bot (strategies/ass/pimc.py) builds a complete state for every world it imagines
and plays it to the end, thousands of times per decision. ``play_on`` does that without any
of what the public ``engine.play_game`` does around the play (validation, allocation,
packing, tracing): it takes the engine's own packed state, allocates nothing (compiled with
``_nrt=False``), and is callable from jitted code.

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
floats); the dispatcher ``_roll_decide`` holds the non-search families only (basic, random,
heuristic), so a search family can roll out without calling itself (numba compiles no
recursion through the engine). ``basic`` runs on the packed hand and scalars in the loop and
is trusted without the legality check (tests hold basic_packed to basic and to the rules), and
a ``basic`` follower after a 14 in a normal round passes unasked (``_play_on_basic``, a loop
for ``basic`` alone); every other family is asked through ``_roll_other`` (view filled, family
asked, move checked).

The rules are those of ``engine.play_packed`` (A-5..A-9), and tests hold ``play_on`` to it
game by game (tests/test_ass_pimc.py): the same moves, so the same final hands.
"""

from __future__ import annotations

from numba import njit

from analyzer.games.ass.cards import (
    ASS,
    JOKER,
    JOKER_HIGH,
    PASS,
    PUB_ASS_ROUND,
    PUB_GONE,
    PUB_HIGH,
    PUB_HIGH_SEAT,
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_SIZES,
    PUB_STARTER,
    PUB_TABLE,
)
from analyzer.games.ass.moves import U0, U15, check_move, count_of, move_delta, unpack_to
from analyzer.numba_compat import njit_no_runtime
from strategies.ass.catalog import BASIC
from strategies.ass.policies import basic_packed, decide_other

# the proven bound on rounds of engine.py (2 * 110 + 1), repeated to keep the import one-way
MAX_ROUNDS = 221
OK = -1
ROUND_BOUND = 1000
ILLEGAL = -1000  # _roll_other's answer for an illegal move (no move code is negative)


@njit(cache=True, inline="always")
def _roll_decide(fam, pp, view, rng, hand, pos, ass_round, may_lead_ass, k, high):
    """The move of the rollout policy (non-search families only)."""
    if fam == BASIC:
        return basic_packed(hand, pos, ass_round, may_lead_ass, k, high)
    return decide_other(fam, pp, view, rng)  # a search family gets an illegal code, reported


@njit(cache=True, inline="always")
def _fill(view, hand, table, gone, pos, seat, k, high, ass_round, may_lead_ass, starter,
          high_seat, rounds):
    """The decider's hand and the public state into the work view (as the engine's)."""
    unpack_to(hand, view, 0)
    unpack_to(table, view, PUB_TABLE)
    unpack_to(gone, view, PUB_GONE)
    view[PUB_POS] = pos
    view[PUB_SEAT] = seat
    view[PUB_K] = k
    view[PUB_HIGH] = high
    view[PUB_ASS_ROUND] = ass_round
    view[PUB_MAY_LEAD_ASS] = may_lead_ass
    view[PUB_STARTER] = starter
    view[PUB_HIGH_SEAT] = high_seat
    view[PUB_ROUND] = rounds


@njit(cache=True, inline="always")
def _roll_other(fam, pp, view, rng, hand, table, gone, pos, seat, k, high, ass_round,
                may_lead_ass, starter, high_seat, rounds):
    """The checked move of a rollout family other than ``basic``: fill the work view, ask the
    family, and return its move, or ILLEGAL when the move breaks the rules (inlined; the
    engine's ``_decide_other`` is a call since issue 13's compile work)."""
    _fill(view, hand, table, gone, pos, seat, k, high, ass_round, may_lead_ass, starter,
          high_seat, rounds)
    move = _roll_decide(fam, pp, view, rng, hand, pos, ass_round, may_lead_ass, k, high)
    kind = (move >> 8) & 15 if move >= 0 else 0
    if not check_move(move, count_of(hand, kind), count_of(hand, JOKER), count_of(hand, ASS),
                      pos, ass_round, may_lead_ass, k, high):
        return ILLEGAL
    return move


@njit_no_runtime()
def _play_on_basic(packed, n, view, gone, table, starter, blocked, pos, k, high, high_seat,
                   ass_round, rounds, emptied):
    """play_on with ``basic`` in every seat: no other family's branch or call in the loop,
    and once a 14 leads or beats a normal round, the round's other turns are passes.

    No hand sizes: ``basic`` needs none (a follower with fewer than k cards, or none, finds
    no move and passes, which is A-6's forced pass), and a hand is empty when its packed
    word is 0; so the view's PUB_SIZES are neither read nor kept here."""
    turns = 0
    while True:
        if pos == 0:  # the starter leads; A-8: the ass unless just taken
            if rounds >= MAX_ROUNDS:
                return ROUND_BOUND, turns
            hand = packed[starter]
            may = 1 if ((hand & U15) != U0 and starter != blocked) else 0
            move = basic_packed(hand, 0, 0, may, 0, 0)
            high = move >> 8
            table = move_delta(move)
            packed[starter] = hand - table
            emptied = emptied or hand == table
            high_seat = starter
            ass_round = 1 if high == ASS else 0
            k = 1 if ass_round else ((move >> 4) & 15) + (move & 15)
            pos = 1
            turns += 1
        turns += n - pos
        if high != JOKER_HIGH or ass_round:  # else nothing beats 14: everyone passes
            seat = starter + pos
            if seat >= n:
                seat -= n
            for p in range(pos, n):
                # a follower with fewer than k cards (or none) has no move: basic passes
                hand = packed[seat]
                move = basic_packed(hand, p, ass_round, 0, k, high)
                if move != PASS:
                    v = move >> 8
                    delta = move_delta(move)
                    packed[seat] = hand - delta
                    table += delta
                    emptied = emptied or hand == delta
                    # in an ass round the last of several equal highest takes
                    if v > high or (ass_round and v == high):
                        high = v
                        high_seat = seat
                        if v == JOKER_HIGH and not ass_round:
                            break  # the rest pass
                seat += 1
                if seat == n:
                    seat = 0
        if ass_round:  # the taker takes every card of the round, the ass included
            packed[high_seat] += table
            blocked = high_seat
        else:  # played cards leave the game
            gone += table
            blocked = -1
        starter = high_seat
        pos = 0
        rounds += 1
        if emptied:  # the game ends at the end of a round with a hand empty
            for s in range(n):
                if packed[s] == U0:
                    return OK, turns


@njit_no_runtime()
def play_on(packed, n, fam, pp, view, rng, gone, table, starter, blocked, pos, k, high,
            high_seat, ass_round, rounds):
    """Play from the state described in the module docstring to the end of the game.

    Returns (status, turns): status OK (-1), the seat whose move was illegal, or ROUND_BOUND;
    turns the number of seats that had a turn (forced passes included), for benchmarks.

    ``basic`` is decided in place on the packed hand and trusted; once a 14 leads a normal
    round (or beats it), no ``basic`` follower can raise and the round's remaining turns are
    passes without a decision (``_play_on_basic``). Every other family is asked through
    ``_roll_other``.
    """
    view[PUB_PLAYERS] = n
    # typed bool from the start: a literal False had _play_on_basic compiled twice (once for
    # the literal), which cost seconds of every cold compile of the search
    emptied = view[PUB_SIZES] == 0
    for s in range(1, n):
        emptied = emptied or view[PUB_SIZES + s] == 0
    if fam == BASIC:
        return _play_on_basic(packed, n, view, gone, table, starter, blocked, pos, k, high,
                              high_seat, ass_round, rounds, emptied)
    return _play_on_general(packed, n, fam, pp, view, rng, gone, table, starter, blocked, pos,
                            k, high, high_seat, ass_round, rounds, emptied)


@njit_no_runtime()
def _play_on_general(packed, n, fam, pp, view, rng, gone, table, starter, blocked, pos, k,
                     high, high_seat, ass_round, rounds, emptied):
    """:func:`play_on`'s loop for every family but ``basic``: a function of its own, so that
    the families' code (``learned``'s features among them) stays out of the compiled
    ``play_on`` that the ``basic`` rollouts of the search run through."""
    turns = 0
    basic = False  # the loop below serves the other families (basic branches compile away)
    while True:
        if pos == 0:  # the starter leads; A-8: the ass unless just taken
            if rounds >= MAX_ROUNDS:
                return ROUND_BOUND, turns
            seat = starter
            hand = packed[seat]
            may = 1 if ((hand & U15) != U0 and seat != blocked) else 0
            turns += 1
            if basic:
                move = basic_packed(hand, 0, 0, may, 0, 0)
            else:
                move = _roll_other(fam, pp, view, rng, hand, U0, gone, 0, seat, 0, 0, 0, may,
                                   starter, seat, rounds)
                if move == ILLEGAL:
                    return seat, turns
            high = move >> 8
            c = (move >> 4) & 15
            j = move & 15
            table = move_delta(move)
            packed[seat] = hand - table
            view[PUB_SIZES + seat] -= c + j
            emptied = emptied or view[PUB_SIZES + seat] == 0
            high_seat = seat
            ass_round = 1 if high == ASS else 0
            k = 1 if ass_round else c + j
            pos = 1
        seat = starter + pos
        if seat >= n:
            seat -= n
        for p in range(pos, n):
            if basic and high == JOKER_HIGH and ass_round == 0:
                turns += n - p  # nothing beats 14: every basic follower passes
                break
            turns += 1
            # a follower with fewer than k cards (or none) passes without a decision
            if view[PUB_SIZES + seat] >= k:
                hand = packed[seat]
                if basic:
                    move = basic_packed(hand, p, ass_round, 0, k, high)
                else:
                    move = _roll_other(fam, pp, view, rng, hand, table, gone, p, seat, k, high,
                                       ass_round, 0, starter, high_seat, rounds)
                    if move == ILLEGAL:
                        return seat, turns
                if move != PASS:
                    v = move >> 8
                    delta = move_delta(move)
                    packed[seat] = hand - delta
                    table += delta
                    view[PUB_SIZES + seat] -= ((move >> 4) & 15) + (move & 15)
                    emptied = emptied or view[PUB_SIZES + seat] == 0
                    # in an ass round the last of several equal highest takes the cards
                    if v > high or (ass_round and v == high):
                        high = v
                        high_seat = seat
            seat += 1
            if seat == n:
                seat = 0
        if ass_round:  # the taker takes every card of the round, the ass included
            packed[high_seat] += table
            view[PUB_SIZES + high_seat] += n
            blocked = high_seat
        else:  # played cards leave the game
            gone += table
            blocked = -1
        starter = high_seat
        pos = 0
        rounds += 1
        if emptied:  # the game ends at the end of a round with a hand empty
            for s in range(n):
                if view[PUB_SIZES + s] == 0:
                    return OK, turns

"""The one play loop of Who's the Ass? (A-5..A-9), shared by the engine and the rollouts.

:func:`play_rounds` plays from any point of a round (the engine from the start of a game, a
search's rollout from the middle of a round) to the end of the game, on the engine's packed
state (analyzer/engines/ass/engine.py's module docstring): ``packed`` uint64[n] the hands as
4-bit counts by kind, ``view`` int64[VIEW_LEN] the public state (hand sizes, known holdings)
and the decider's hand before a decision, ``gone`` and ``table`` packed. Its variants are
made by the compiler from the types of four arguments, each None or not (numba prunes an
``if x is None`` or ``if x is not None`` on an argument, alone in its ``if``, before typing
the rest, so a pruned branch's code is never compiled):

* ``others``  None: every seat plays ``basic`` (decided on the packed hand, trusted; the other
              families are not compiled in); True: seats of other families are asked
              through :func:`checked_move` (view filled, family asked, move checked);
* ``search``  None or True: whether :func:`checked_move` holds the search families (``pimc``,
              ``peek``); their code is registered from above by strategies/ass/dispatch.py
              (:func:`search_hook`), since the search itself rolls out through this loop
              (and for that, the loop's variants with search are compiled by a dispatcher
              of their own, :func:`analyzer.numba_compat.twin`);
* ``trace``   None, or the move record int64[MAX_ROUNDS, TRACE_WIDTH], written while the
              runtime flag ``tracing`` is set (per round the starter, the taker or winner,
              and every seat's move in playing order from the starter; PASS for a pass);
* ``taken``   None in a rollout, or the engine's books int64[n]: the ass rounds each seat
              took, the known holdings (the view's PUB_KNOWN, A-11), and at a table of
              ``basic`` alone the hand sizes written back at the end.

With ``others`` and ``trace`` both None the loop keeps no hand sizes (``basic`` needs none: a
follower with fewer than k cards finds no move and passes, A-6's forced pass; a hand is empty
when its word is 0), and once a 14 leads or beats a normal round the round ends there, since
no ``basic`` follower can raise. Otherwise every seat's size is kept in the view, a follower
with fewer than k cards passes without a decision, and a ``basic`` follower after a 14 in a
normal round passes unasked.

Game length is bounded, so the loop needs no round cap: every normal round removes at least
the lead from the game, and two ass rounds are never consecutive (the taker starts the next
round and may not lead the ass in it, A-8), so a game has at most ``2 * cards + 1`` rounds
(``MAX_ROUNDS``). Reaching that bound would be a bug and is reported as one (ROUND_BOUND).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from analyzer.games.ass.cards import (
    ASS,
    DECK_SIZE,
    JOKER,
    JOKER_HIGH,
    PASS,
    PUB_ASS_ROUND,
    PUB_GONE,
    PUB_HIGH,
    PUB_HIGH_SEAT,
    PUB_K,
    PUB_KNOWN,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_SIZES,
    PUB_STARTER,
    PUB_TABLE,
)
from analyzer.games.ass.moves import (
    U0,
    U15,
    check_move,
    count_of,
    hand_size,
    known_after_play,
    move_delta,
    unpack_to,
)
from analyzer.numba_compat import njit_no_runtime, registered, twin
from strategies.ass.catalog import BASIC, PEEK, PIMC
from strategies.ass.policies import basic_packed, decide_other

MAX_CARDS = DECK_SIZE + 1  # the ass included
MAX_ROUNDS = 2 * MAX_CARDS + 1
OK = -1  # status: every hand played out to the end
ROUND_BOUND = 1000  # status: the proven bound on rounds was hit (a bug)
ILLEGAL = -1000  # checked_move's answer for an illegal move (no move code is negative)
I0 = np.int64(0)  # a zero typed int64, not the literal 0 (one compiled checked_move)


SEARCH: list = []  # the search's move, as strategies/ass/dispatch.py registers it


def search_hook(fam, pp, view, rng, packed, trace):
    """The move of a search seat (``pimc``, or ``peek``, which reads every hand in ``packed``;
    ``trace`` is the game's public move record). strategies/ass/dispatch.py registers it (the
    search rolls out through this module, so this module cannot import it): compiled code gets
    it from an overload, plain Python (NUMBA_DISABLE_JIT) from :data:`SEARCH`.
    :func:`checked_move` calls it only when ``search`` is True."""
    return registered(SEARCH, "strategies.ass.dispatch")(fam, pp, view, rng, packed, trace)


def family_of(fams, seat):
    """The family of ``seat``: ``fams[seat]`` for the engine's families by seat, ``fams``
    itself for a rollout's one family for every seat."""
    return fams[seat] if np.ndim(fams) else fams


@overload(family_of, inline="always")
def _family_of_typed(fams, seat):
    if isinstance(fams, types.Array):
        return lambda fams, seat: fams[seat]
    return lambda fams, seat: fams


def seat_params(params, seat):
    """The parameter vector of ``seat`` as a tuple (passed by value to the policy): a row of
    the engine's ``params`` [n, 8], or a rollout's one tuple for every seat."""
    if isinstance(params, tuple):
        return params
    return tuple(params[seat, i] for i in range(8))


@overload(seat_params, inline="always")
def _seat_params_typed(params, seat):
    if isinstance(params, types.Array):
        def row(params, seat):
            return (params[seat, 0], params[seat, 1], params[seat, 2], params[seat, 3],
                    params[seat, 4], params[seat, 5], params[seat, 6], params[seat, 7])
        return row
    return lambda params, seat: params


@njit(cache=True, inline="always")
def fill_view(view, hand, table, gone, pos, seat, k, high, ass_round, may_lead_ass, starter,
              high_seat, rounds):
    """Write the decider's hand and the public state into the view (for a policy's call)."""
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
def legal(move, hand, pos, ass_round, may_lead_ass, k, high):
    """check_move for a packed hand (the count of the move's kind looked up here)."""
    kind = (move >> 8) & 15 if move >= 0 else 0  # a kind out of range is rejected anyway
    return check_move(move, count_of(hand, kind), count_of(hand, JOKER), count_of(hand, ASS),
                      pos, ass_round, may_lead_ass, k, high)


def checked_move(others, search, fam, params, seat, view, rng, packed, hand, table, gone, pos,
                 k, high, ass_round, may_lead_ass, starter, high_seat, rounds, trace):
    """The checked move of ``seat``, of family ``fam`` other than ``basic``: fill the view for
    the decision, ask the family, and return its move, or ILLEGAL when the move breaks the
    rules. ILLEGAL at once where ``others`` is None (a loop of ``basic`` alone compiles no
    other family); a search family is asked only where ``search`` is True, and is illegal
    elsewhere. Out of line (``_checked``), compiled once per loop however often the loop asks;
    in jitted code the choice for ``others`` is made when the caller is compiled (the
    overload below). A rollout's loop inlines :func:`_checked_inline` instead, for speed (the
    search runs rollouts by the million)."""
    if others is None:
        return ILLEGAL
    return _checked(search, fam, params, seat, view, rng, packed, hand, table, gone, pos, k,
                    high, ass_round, may_lead_ass, starter, high_seat, rounds, trace)


@overload(checked_move, inline="always")
def _checked_move_typed(others, search, fam, params, seat, view, rng, packed, hand, table, gone,
                        pos, k, high, ass_round, may_lead_ass, starter, high_seat, rounds,
                        trace):
    if isinstance(others, types.NoneType):
        def basic_alone(others, search, fam, params, seat, view, rng, packed, hand, table, gone,
                        pos, k, high, ass_round, may_lead_ass, starter, high_seat, rounds,
                        trace):
            return ILLEGAL
        return basic_alone

    def out_of_line(others, search, fam, params, seat, view, rng, packed, hand, table, gone,
                    pos, k, high, ass_round, may_lead_ass, starter, high_seat, rounds, trace):
        return _checked(search, fam, params, seat, view, rng, packed, hand, table, gone, pos, k,
                        high, ass_round, may_lead_ass, starter, high_seat, rounds, trace)
    return out_of_line


@njit(cache=True, inline="always")
def _checked_inline(fam, params, seat, view, rng, packed, hand, table, gone, pos, k, high,
                    ass_round, may_lead_ass, starter, high_seat, rounds):
    """:func:`checked_move` where ``others`` is True and ``search`` None, inlined."""
    fill_view(view, hand, table, gone, pos, seat, k, high, ass_round, may_lead_ass, starter,
              high_seat, rounds)
    move = decide_other(fam, seat_params(params, seat), view, rng)  # search: an illegal code
    if not legal(move, hand, pos, ass_round, may_lead_ass, k, high):
        return ILLEGAL
    return move


@njit_no_runtime()
def _checked(search, fam, params, seat, view, rng, packed, hand, table, gone, pos, k, high,
             ass_round, may_lead_ass, starter, high_seat, rounds, trace):
    """:func:`checked_move` out of line (where ``others`` is True)."""
    if search is None:
        return _checked_inline(fam, params, seat, view, rng, packed, hand, table, gone, pos, k,
                               high, ass_round, may_lead_ass, starter, high_seat, rounds)
    fill_view(view, hand, table, gone, pos, seat, k, high, ass_round, may_lead_ass, starter,
              high_seat, rounds)
    pp = seat_params(params, seat)
    if fam in (PIMC, PEEK):
        move = search_hook(fam, pp, view, rng, packed, trace)
    else:
        move = decide_other(fam, pp, view, rng)
    if not legal(move, hand, pos, ass_round, may_lead_ass, k, high):
        return ILLEGAL
    return move


def play_rounds(others, search, fams, params, packed, n, view, rng, gone, table, starter,
                blocked, pos, k, high, high_seat, ass_round, rounds, trace, tracing, taken):
    """Play from a point of a round to the end of the game; return (status, rounds,
    ass_rounds, turns).

    The round under way: ``starter`` started it; ``pos`` is the position of the next seat to
    move (0: the starter has not led yet, so a new round starts, and ``blocked`` is the seat
    that may not lead the ass in it, -1 for none, A-8; None: 0 as a constant of the compile,
    for a caller that always starts a round, as the engine does); ``table`` the cards played in it,
    ``k``, ``high``, ``high_seat`` and ``ass_round`` (0/1) as in the view, and ``rounds`` its
    number. ``fams``/``params``: the seats' families and parameters (by seat, or one for all;
    :func:`family_of`, :func:`seat_params`). The four flags ``others``, ``search``, ``trace``
    and ``taken`` are the module docstring's.

    status is OK, the seat that made an illegal move, or ROUND_BOUND; rounds the rounds
    played to the end (the number of the next); ass_rounds those of them that were ass
    rounds; turns, in a rollout (``taken`` None; 0 in the engine), the seats that had a turn
    (forced passes included), for benchmarks.

    Compiled by ``_loop``, or where ``search`` is True by its twin ``_loop_search``
    (:func:`analyzer.numba_compat.twin`); in jitted code the choice is made when the caller
    is compiled (the overload below).
    """
    loop = _loop if search is None else _loop_search
    return loop(others, search, fams, params, packed, n, view, rng, gone, table, starter,
                blocked, pos, k, high, high_seat, ass_round, rounds, trace, tracing, taken)


@overload(play_rounds, inline="always")
def _play_rounds_typed(others, search, fams, params, packed, n, view, rng, gone, table, starter,
                       blocked, pos, k, high, high_seat, ass_round, rounds, trace, tracing,
                       taken):
    loop = _loop if isinstance(search, types.NoneType) else _loop_search

    def impl(others, search, fams, params, packed, n, view, rng, gone, table, starter,
             blocked, pos, k, high, high_seat, ass_round, rounds, trace, tracing, taken):
        return loop(others, search, fams, params, packed, n, view, rng, gone, table, starter,
                    blocked, pos, k, high, high_seat, ass_round, rounds, trace, tracing, taken)
    return impl


# _nrt=False: no allocation here, and no reference counting of the arrays on each call
@njit_no_runtime()
def _loop(others, search, fams, params, packed, n, view, rng, gone, table, starter, blocked,
          pos, k, high, high_seat, ass_round, rounds, trace, tracing, taken):
    """:func:`play_rounds`, compiled."""
    # "others is None and trace is None" below: basic alone without a record, which keeps no
    # hand sizes (written out in each test, so that numba prunes the other code before typing)
    # pos None: from the start of a round (the engine), a constant of the compile, so that the
    # loop below is compiled as if it led every round, with no test for it
    if pos is None:  # noqa: SIM108 (a test numba prunes)
        at = I0
    else:
        at = pos
    view[PUB_PLAYERS] = n
    empty_at_start = False  # a position may hold an empty hand already
    for s in range(n):
        if view[PUB_SIZES + s] == 0:
            empty_at_start = True
    emptied = empty_at_start
    ass_rounds = 0
    turns = 0
    status = OK
    while True:
        if at == 0:  # the starter leads; A-8: the ass unless just taken
            if rounds >= MAX_ROUNDS:
                status = ROUND_BOUND
                break
            hand = packed[starter]
            may_lead_ass = 1 if ((hand & U15) != U0 and starter != blocked) else 0
            fam = family_of(fams, starter)
            if others is None or fam == BASIC:  # basic is trusted (tests hold it to the rules)
                move = basic_packed(hand, 0, 0, may_lead_ass, 0, 0)
            else:
                # the engine (taken never None there) asks out of line, compiled once; a
                # rollout (pos never None there) inline, for speed; each test numba prunes
                if taken is not None:
                    move = checked_move(others, search, fam, params, starter, view, rng, packed,
                                        hand, U0, gone, I0, I0, I0, I0, may_lead_ass, starter,
                                        starter, rounds, trace)
                elif pos is not None:
                    move = _checked_inline(fam, params, starter, view, rng, packed, hand, U0,
                                           gone, I0, I0, I0, I0, may_lead_ass, starter,
                                           starter, rounds)
                else:
                    move = ILLEGAL
                if move == ILLEGAL:
                    status = starter
                    break
            if trace is not None:  # noqa: SIM102 (a test numba prunes)
                if tracing:
                    trace[rounds, 0] = starter
                    trace[rounds, 2] = move
            high = move >> 8
            c = (move >> 4) & 15
            j = move & 15
            table = move_delta(move)  # the cards on the table this round, packed
            packed[starter] = hand - table
            if others is not None or trace is not None:
                view[PUB_SIZES + starter] -= c + j
                if taken is not None and view[PUB_KNOWN + starter] != 0:  # less this play
                    view[PUB_KNOWN + starter] = np.int64(
                        known_after_play(np.uint64(view[PUB_KNOWN + starter]), move))
            # only a seat that plays can empty its hand: note it, and scan the hands only then
            emptied = empty_at_start or hand == table
            high_seat = starter
            ass_round = 1 if high == ASS else 0
            k = 1 if ass_round else c + j
            at = 1
            if taken is None:  # a rollout's count, for benchmarks
                turns += 1
        if taken is None:
            turns += n - at
        # basic alone without a record: nothing beats a 14 in a normal round, all pass
        if others is not None or trace is not None or high != JOKER_HIGH or ass_round:
            seat = starter + at
            if seat >= n:
                seat -= n
            for p in range(at, n):
                hand = packed[seat]
                if others is None and trace is None:  # no move with < k cards: a pass
                    move = basic_packed(hand, p, ass_round, 0, k, high)
                elif view[PUB_SIZES + seat] < k:  # fewer than k cards (or none): pass
                    move = PASS
                else:
                    fam = family_of(fams, seat)
                    if others is None or fam == BASIC:  # trusted, as for the lead
                        if high == JOKER_HIGH and ass_round == 0:
                            move = PASS  # nothing beats 14: basic passes, asked or not
                        else:
                            move = basic_packed(hand, p, ass_round, 0, k, high)
                    else:  # as for the lead
                        if taken is not None:
                            move = checked_move(others, search, fam, params, seat, view, rng,
                                                packed, hand, table, gone, p, k, high,
                                                ass_round, I0, starter, high_seat, rounds, trace)
                        elif pos is not None:
                            move = _checked_inline(fam, params, seat, view, rng, packed,
                                                   hand, table, gone, p, k, high, ass_round,
                                                   I0, starter, high_seat, rounds)
                        else:
                            move = ILLEGAL
                        if move == ILLEGAL:
                            status = seat
                            break
                if move != PASS:
                    v = move >> 8
                    delta = move_delta(move)
                    packed[seat] = hand - delta
                    table += delta
                    if others is not None or trace is not None:
                        view[PUB_SIZES + seat] -= ((move >> 4) & 15) + (move & 15)
                        if taken is not None and view[PUB_KNOWN + seat] != 0:  # A-11, as above
                            view[PUB_KNOWN + seat] = np.int64(
                                known_after_play(np.uint64(view[PUB_KNOWN + seat]), move))
                    emptied = emptied or hand == delta
                    # in an ass round the last of several equal highest takes the cards
                    if v > high or (ass_round and v == high):
                        high = v
                        high_seat = seat
                        if others is None and trace is None and v == JOKER_HIGH and ass_round == 0:
                            break  # the rest cannot beat 14 and pass
                if trace is not None:  # noqa: SIM102 (a test numba prunes)
                    if tracing:
                        trace[rounds, 2 + p] = move
                seat += 1
                if seat == n:
                    seat = 0
            if status != OK:
                break
        if ass_round:  # the taker takes every card of the round, the ass included
            packed[high_seat] += table
            if others is not None or trace is not None:
                view[PUB_SIZES + high_seat] += n
            if taken is not None:
                # the cards it took are public (the ass among them)
                if others is not None or trace is not None:
                    view[PUB_KNOWN + high_seat] = np.int64(
                        np.uint64(view[PUB_KNOWN + high_seat]) + table)
                taken[high_seat] += 1
            ass_rounds += 1
            blocked = high_seat
        else:  # played cards leave the game
            gone += table
            blocked = -1
        if trace is not None:  # noqa: SIM102 (a test numba prunes)
            if tracing:
                trace[rounds, 1] = high_seat
        starter = high_seat
        at = 0
        rounds += 1
        # the game ends at the end of a round with a hand empty. Only a hand that was
        # emptied in this round can be (unless it took the cards of an ass round since).
        if emptied:
            ended = False
            for s in range(n):
                if packed[s] == U0:
                    ended = True
                    break
            if ended:
                break
    if others is None and trace is None and taken is not None:  # the engine's: sizes at the end
        for s in range(n):
            view[PUB_SIZES + s] = hand_size(packed[s])
    return status, rounds, ass_rounds, turns


_loop_search = njit_no_runtime()(twin(_loop, "_loop_search"))

# public for analyzer/learn/ass_value.py, which plays learned games decision by decision, and
# the value model's round finisher (strategies/ass/value.py)
checked_inline = _checked_inline

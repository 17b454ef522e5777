"""The numba engine of Who's the Ass?: deal (A-2), rounds (A-5..A-9), scoring (A-10).

State lives in a few preallocated arrays, reused for every game of a chunk:

* ``hands``   int64[n, 16]: counts by kind per seat (see cards.py), seen by the engine only;
* ``view``    int64[VIEW_LEN]: the public state (hand sizes included); before each decision
              the engine copies the decider's own hand into its first 16 slots and hands the
              view to the policy, which so sees exactly what ruling A-11 allows;
* ``rng``     uint64[1]: the game's stream ``stream_start(seed, index, 0)``, used for the deal
              and then, in decision order, by strategies that draw;
* ``deck``    int64[109]: work space of the shuffle.

Game length is bounded, so the engine needs no round cap: every normal round removes at least
the lead from the game, and two ass rounds are never consecutive (the taker starts the next
round and may not lead the ass in it, A-8), so a game has at most ``2 * cards + 1`` rounds
(``MAX_ROUNDS``). Reaching that bound would be an engine bug and is reported as one.

Trace mode records every move into ``trace`` (int64[MAX_ROUNDS, 14]): per round the starter,
the winner, then one move code per seat in playing order from the starter (PASS for a pass,
forced or chosen). :mod:`analyzer.games.ass.records` turns that into a game record.

Speed notes (measured, see scripts/bench.py): every array passed to a jitted call costs
reference counting (atomic increments), so the hot path passes the policy one array (the view)
plus the stream and its parameters as a tuple of floats, checks moves with the scalar
``check_move``, and dispatches on the family id in place (the same if/elif as
``strategies.ass.policies.decide``, which the reference engine and the tests use; a family
missing here makes every one of its moves illegal, so it cannot go unnoticed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.games.ass.cards import (
    ASS,
    ASS_PENALTY,
    ASS_WINDOW,
    COPIES,
    DECK_SIZE,
    HAND_SLOTS,
    JOKER,
    JOKER_PENALTY,
    N_VALUES,
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
    SCRATCH,
    VIEW_LEN,
)
from analyzer.games.ass.moves import check_move
from analyzer.rng import GOLDEN, S32, mix64, seed_state
from strategies.ass.catalog import BASIC, HEURISTIC, RANDOM
from strategies.ass.policies import basic, heuristic, random_policy

MAX_PLAYERS = 12
MAX_CARDS = 110
MAX_ROUNDS = 2 * MAX_CARDS + 1
TRACE_WIDTH = 2 + MAX_PLAYERS

# status of play_game: OK, the seat that made an illegal move (0..n-1), or ROUND_BOUND when
# the proven bound on rounds was hit.
OK = -1
ROUND_BOUND = 1000


def canonical_deck() -> np.ndarray:
    """The 109 cards without the ass in canonical order: 1..13 eight each, then 5 jokers."""
    deck = np.empty(DECK_SIZE, dtype=np.int64)
    for i in range(N_VALUES * COPIES):
        deck[i] = i // COPIES + 1
    deck[N_VALUES * COPIES :] = JOKER
    return deck


def new_view() -> np.ndarray:
    """A zeroed view array (own hand + public state + scratch)."""
    return np.zeros(VIEW_LEN, dtype=np.int64)


@njit(cache=True)
def deal(rng, n, per_player, template, deck, hands, view):
    """Shuffle and deal one game (A-2, A-3); return the seat that holds the ass.

    Fisher-Yates on the canonical deck (for i = 108 .. 1: j = randbelow(i + 1), swap), then
    the ass goes to stack position p = randbelow(39), shifting the cards from p on by one;
    stack position q goes to seat q mod n, for q < n * per_player. Sets the hand sizes.

    The 109 draws are exactly analyzer.rng's ``randbelow`` on the game's stream, computed
    ahead in one loop: splitmix64's states form an arithmetic sequence, so the draws do not
    depend on each other and the loop vectorises (measured: the deal takes 30% less time).
    They are kept in the view's scratch space, and ``rng`` ends where 109 draws leave it.
    """
    start = rng[0]
    for k in range(DECK_SIZE):  # draw k: ((mix64(start + (k + 1) * GOLDEN) >> 32) * m) >> 32
        view[SCRATCH + k] = np.int64(mix64(start + GOLDEN * np.uint64(k + 1)) >> S32)
    rng[0] = start + GOLDEN * np.uint64(DECK_SIZE)
    for i in range(DECK_SIZE):
        deck[i] = template[i]
    for i in range(DECK_SIZE - 1, 0, -1):
        j = (view[SCRATCH + DECK_SIZE - 1 - i] * (i + 1)) >> 32
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    p = (view[SCRATCH + DECK_SIZE - 1] * ASS_WINDOW) >> 32
    for s in range(n):
        for k in range(HAND_SLOTS):
            hands[s, k] = 0
        view[PUB_SIZES + s] = per_player
    seat = 0
    for q in range(n * per_player):
        if q < p:
            hands[seat, deck[q]] += 1
        elif q == p:
            hands[seat, ASS] += 1
        else:
            hands[seat, deck[q - 1]] += 1
        seat += 1
        if seat == n:
            seat = 0
    return p % n


@njit(cache=True, inline="always")
def _seat_params(params, s):
    """The parameter vector of seat s as a tuple (passed by value to the policy)."""
    return (params[s, 0], params[s, 1], params[s, 2], params[s, 3],
            params[s, 4], params[s, 5], params[s, 6], params[s, 7])


@njit(cache=True)
def play_game(hands, starter, blocked, n, families, params, view, rng, trace, tracing, taken):
    """Play from a position to the end of the game; return (rounds, ass_rounds, status).

    ``hands`` and the hand sizes in ``view`` describe the position, ``view``'s PUB_GONE counts
    the cards already out of the game, ``starter`` starts the next round and ``blocked`` is
    the seat that may not lead the ass in it (-1 for none; A-8). ``taken[s]`` counts the ass
    rounds in which seat s took the cards. status is OK, the seat that made an illegal move,
    or ROUND_BOUND.
    """
    view[PUB_PLAYERS] = n
    for kind in range(HAND_SLOTS):  # kept clear from here on by the end of every round
        view[PUB_TABLE + kind] = 0
    rounds = 0
    ass_rounds = 0
    while True:
        if rounds >= MAX_ROUNDS:
            return rounds, ass_rounds, ROUND_BOUND
        for kind in range(HAND_SLOTS):  # (the table was cleared at the end of the last round)
            view[kind] = hands[starter, kind]
        view[PUB_ROUND] = rounds
        view[PUB_STARTER] = starter
        view[PUB_K] = 0
        view[PUB_HIGH] = 0
        view[PUB_ASS_ROUND] = 0
        view[PUB_POS] = 0
        view[PUB_SEAT] = starter
        view[PUB_HIGH_SEAT] = starter
        view[PUB_MAY_LEAD_ASS] = 1 if (hands[starter, ASS] > 0 and starter != blocked) else 0
        fam = families[starter]
        pp = _seat_params(params, starter)
        # the dispatch of policies.decide, written out here: calling decide (inlined or not)
        # costs about 10 ns more per decision in reference counting of the view (measured)
        if fam == BASIC:
            move = basic(pp, view, rng)
        elif fam == RANDOM:
            move = random_policy(pp, view, rng)
        elif fam == HEURISTIC:
            move = heuristic(pp, view, rng)
        else:  # a family missing here: an illegal code, reported as such
            move = PASS - 1
        vv = move >> 8 if move >= 0 else 0
        held = hands[starter, vv] if vv < HAND_SLOTS else 0
        if not check_move(move, held, hands[starter, JOKER], hands[starter, ASS], 0, 0,
                          view[PUB_MAY_LEAD_ASS], 0, 0):
            return rounds, ass_rounds, starter
        if tracing:
            trace[rounds, 0] = starter
            trace[rounds, 2] = move
        high = move >> 8
        c = (move >> 4) & 15
        j = move & 15
        if high <= N_VALUES:  # the ass (0) or number cards
            hands[starter, high] -= c
            view[PUB_TABLE + high] += c
        hands[starter, JOKER] -= j
        view[PUB_TABLE + JOKER] += j
        view[PUB_SIZES + starter] -= c + j
        view[PUB_MAY_LEAD_ASS] = 0
        high_seat = starter
        ass_round = high == ASS
        k = 1 if ass_round else c + j
        view[PUB_ASS_ROUND] = 1 if ass_round else 0
        view[PUB_K] = k
        view[PUB_HIGH] = high
        seat = starter
        for pos in range(1, n):
            seat += 1
            if seat == n:
                seat = 0
            if view[PUB_SIZES + seat] < k:  # fewer than k cards (or none): pass
                move = PASS
            else:
                for kind in range(HAND_SLOTS):
                    view[kind] = hands[seat, kind]
                view[PUB_POS] = pos
                view[PUB_SEAT] = seat
                fam = families[seat]
                pp = _seat_params(params, seat)
                # the dispatch of policies.decide, written out here: calling decide (inlined or not)
                # costs about 10 ns more per decision in reference counting of the view (measured)
                if fam == BASIC:
                    move = basic(pp, view, rng)
                elif fam == RANDOM:
                    move = random_policy(pp, view, rng)
                elif fam == HEURISTIC:
                    move = heuristic(pp, view, rng)
                else:  # a family missing here: an illegal code, reported as such
                    move = PASS - 1
                vv = move >> 8 if move >= 0 else 0
                held = hands[seat, vv] if vv < HAND_SLOTS else 0
                if not check_move(move, held, hands[seat, JOKER], hands[seat, ASS], pos,
                                  view[PUB_ASS_ROUND], 0, k, high):
                    return rounds, ass_rounds, seat
            if tracing:
                trace[rounds, 2 + pos] = move
            if move != PASS:
                v = move >> 8
                c = (move >> 4) & 15
                j = move & 15
                if v <= N_VALUES:
                    hands[seat, v] -= c
                    view[PUB_TABLE + v] += c
                hands[seat, JOKER] -= j
                view[PUB_TABLE + JOKER] += j
                view[PUB_SIZES + seat] -= c + j
                # in an ass round the last of several equal highest takes the cards
                if v > high or (ass_round and v == high):
                    high = v
                    high_seat = seat
                    view[PUB_HIGH] = high
                    view[PUB_HIGH_SEAT] = seat
        if ass_round:  # the taker takes every card of the round, the ass included
            for kind in range(JOKER + 1):
                hands[high_seat, kind] += view[PUB_TABLE + kind]
                view[PUB_TABLE + kind] = 0
            view[PUB_SIZES + high_seat] += n
            taken[high_seat] += 1
            ass_rounds += 1
            blocked = high_seat
        else:  # played cards leave the game
            for kind in range(JOKER + 1):
                view[PUB_GONE + kind] += view[PUB_TABLE + kind]
                view[PUB_TABLE + kind] = 0
            blocked = -1
        if tracing:
            trace[rounds, 1] = high_seat
        starter = high_seat
        rounds += 1
        for s in range(n):  # the game ends at the end of a round with a hand empty
            if view[PUB_SIZES + s] == 0:
                return rounds, ass_rounds, OK


@njit(cache=True)
def score(hands, s):
    """Minus points of seat s's hand (A-10): ass 20, joker 14, number cards their value."""
    total = hands[s, ASS] * ASS_PENALTY + hands[s, JOKER] * JOKER_PENALTY
    for w in range(1, N_VALUES + 1):
        total += w * hands[s, w]
    return total


@njit(cache=True)
def start_game(seed, index, n, per_player, template, deck, hands, view, rng, taken):
    """Seed game (seed, index)'s stream, reset the record, deal; return the ass seat."""
    seed_state(rng, seed, index, 0)
    for k in range(SCRATCH):  # the scratch tail needs no reset
        view[k] = 0
    for s in range(n):
        taken[s] = 0
    return deal(rng, n, per_player, template, deck, hands, view)


@njit(cache=True)
def run_chunk(seed, start, count, n, per_player, families, params, template,
              minus_points, ended_with_ass, dealt_ass, cards_left, jokers_left, ass_taken,
              went_out, rounds_out, ass_rounds_out, out_seat):
    """Play games start..start+count-1 and fill the per-(game, seat) result columns.

    Returns -1 when every game was played, else the position in the chunk of the first game
    in which a strategy made an illegal move (the kernel replays it to say which).
    """
    hands = np.zeros((n, HAND_SLOTS), dtype=np.int64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(DECK_SIZE, dtype=np.int64)
    trace = np.empty((1, TRACE_WIDTH), dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    for g in range(count):
        ass_seat = start_game(seed, start + g, n, per_player, template, deck, hands, view, rng,
                              taken)
        rounds, ass_rounds, status = play_game(hands, ass_seat, -1, n, families, params, view,
                                               rng, trace, False, taken)
        if status != OK:
            return g
        first_out = -1
        for s in range(n):
            if view[PUB_SIZES + s] == 0:
                first_out = s
                break
        for s in range(n):
            row = g * n + s
            minus_points[row] = score(hands, s)
            ended_with_ass[row] = hands[s, ASS] > 0
            dealt_ass[row] = s == ass_seat
            cards_left[row] = view[PUB_SIZES + s]
            jokers_left[row] = hands[s, JOKER]
            ass_taken[row] = taken[s]
            went_out[row] = view[PUB_SIZES + s] == 0
            rounds_out[row] = rounds
            ass_rounds_out[row] = ass_rounds
            out_seat[row] = first_out
    return -1


@njit(cache=True)
def trace_game(seed, index, n, per_player, families, params, template, dealt, trace, final):
    """Play one game in trace mode; return (rounds, ass_rounds, status, ass_seat).

    ``dealt`` and ``final`` (int64[n, 16]) receive the hands after the deal and at the end;
    ``trace`` (int64[MAX_ROUNDS, TRACE_WIDTH]) the moves.
    """
    hands = np.zeros((n, HAND_SLOTS), dtype=np.int64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(DECK_SIZE, dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    ass_seat = start_game(seed, index, n, per_player, template, deck, hands, view, rng, taken)
    dealt[:, :] = hands
    rounds, ass_rounds, status = play_game(hands, ass_seat, -1, n, families, params, view, rng,
                                           trace, True, taken)
    final[:, :] = hands
    return rounds, ass_rounds, status, ass_seat

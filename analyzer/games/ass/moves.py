"""Legal moves (rulings A-4..A-8), jitted, shared by the engine, the policies and the tests.

A move is a code from :mod:`analyzer.games.ass.cards`. Legality depends only on the view: the
mover's own hand (``view[kind]``) and the public state, which is exactly what a strategy sees
(A-11).

``legal_moves`` lists the legal moves in canonical order (ascending code, pass first) into the
view's scratch space; the ``random`` strategy draws from that list. ``is_legal`` checks one
move without building the list; the engine calls ``check_move`` on every decision, so no
strategy can make an illegal move unseen.

Packed hands. Inside the engine a hand is one ``uint64``: the count of kind ``k`` in the 4-bit
field at bits ``4k .. 4k+3`` (kinds 0..14, the top field always 0). No count exceeds 8 (8
copies of a value, 5 jokers, 1 ass), which is what :func:`at_least` relies on. A move is then
one subtraction (``move_delta``), the cards of an ass round one addition, and the scans of
``basic`` ("the lowest value held", "the lowest value above v with at least k cards") one
mask and one count-trailing-zeros each (measured: about half the play time of count arrays).
All these constants stay ``uint64``: numba turns uint64 mixed with int64 into float64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.bits import trailing_zeros
from analyzer.games.ass.cards import (
    ASS,
    COPIES,
    HAND_SLOTS,
    JOKER,
    JOKER_HIGH,
    N_JOKERS,
    N_VALUES,
    PASS,
    PUB_ASS_ROUND,
    PUB_GONE,
    PUB_HIGH,
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_SIZES,
    SCRATCH,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
U4 = np.uint64(4)
U15 = np.uint64(15)
NIB_ONES = np.uint64(0x1111111111111111)  # 1 in every field
NIB_HIGH = np.uint64(0x8888888888888888)  # the top bit of every field
NUMBER_FIELDS = np.uint64(0x00FFFFFFFFFFFFF0)  # the fields of kinds 1..13
ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)
JOKER_SHIFT = np.uint64(4 * JOKER)
BYTE_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)  # the low field of every byte
BYTE_ONES = np.uint64(0x0101010101010101)
BYTE_TOP = np.uint64(56)


@njit(cache=True, inline="always")
def enc(v, c, j):
    """Move code of c cards of kind v plus j jokers (see cards.encode)."""
    return v * 256 + c * 16 + j


@njit(cache=True, inline="always")
def check_move(move, held, jokers, has_ass, pos, ass_round, may_lead_ass, k, high):
    """True when ``move`` is legal; the arguments are the facts of the view it depends on.

    ``held`` is the mover's count of the move's kind ``move >> 8`` (any value for PASS or a
    code out of range), ``jokers`` and ``has_ass`` its jokers and ass, the rest as in the
    public state. Scalars only, and inlined: the engines call it on every decision of a
    family other than the built-in ``basic``, which they trust (it cost about 9% of the run
    time of basic games when basic was checked too).
    """
    if move == PASS:
        # the starter must lead; A-7: nobody passes in an ass round; A-6: else passing
        # is always allowed.
        return pos != 0 and ass_round == 0
    if move < 0:
        return False
    v = move >> 8
    c = (move >> 4) & 15
    j = move & 15
    if v > JOKER_HIGH or j > jokers:
        return False
    if pos == 0:  # leading
        if v == ASS:
            return c == 1 and j == 0 and has_ass > 0 and may_lead_ass != 0
        if v == JOKER_HIGH:
            return c == 0 and j >= 1
        return c >= 1 and c <= held
    if ass_round != 0:  # exactly one card, any value; a joker is 1 or 14
        if j == 1:
            return c == 0 and (v == 1 or v == JOKER_HIGH)
        return j == 0 and c == 1 and v >= 1 and v <= N_VALUES and held >= 1
    # exactly k cards, strictly higher than the highest value so far
    if c + j != k or v <= high or v == ASS:
        return False
    if v == JOKER_HIGH:
        return c == 0
    return c >= 1 and c <= held


@njit(cache=True)
def is_legal(move, view):
    """True when ``move`` is legal for the decider described by ``view``."""
    v = move >> 8 if move >= 0 else 0
    held = view[v] if v <= JOKER_HIGH else 0
    return check_move(move, held, view[JOKER], view[ASS], view[PUB_POS], view[PUB_ASS_ROUND],
                      view[PUB_MAY_LEAD_ASS], view[PUB_K], view[PUB_HIGH])


@njit(cache=True)
def legal_moves(view):
    """Write every legal move to view[SCRATCH:] in canonical order; return how many."""
    n = SCRATCH
    jokers = view[JOKER]
    if view[PUB_POS] == 0:  # leading: any set, or the ass alone where A-8 allows it
        if view[ASS] > 0 and view[PUB_MAY_LEAD_ASS] != 0:
            view[n] = enc(ASS, 1, 0)
            n += 1
        for v in range(1, N_VALUES + 1):
            for c in range(1, view[v] + 1):
                for j in range(jokers + 1):
                    view[n] = enc(v, c, j)
                    n += 1
        for j in range(1, jokers + 1):
            view[n] = enc(JOKER_HIGH, 0, j)
            n += 1
        return n - SCRATCH
    if view[PUB_ASS_ROUND] != 0:  # one card; a joker as 1 and as 14 are two moves
        if jokers > 0:
            view[n] = enc(1, 0, 1)
            n += 1
        for v in range(1, N_VALUES + 1):
            if view[v] > 0:
                view[n] = enc(v, 1, 0)
                n += 1
        if jokers > 0:
            view[n] = enc(JOKER_HIGH, 0, 1)
            n += 1
        return n - SCRATCH
    view[n] = PASS
    n += 1
    k = view[PUB_K]
    for v in range(view[PUB_HIGH] + 1, N_VALUES + 1):
        # c number cards (c >= 1) plus k - c jokers
        for c in range(1, min(k, view[v]) + 1):
            if k - c <= jokers:
                view[n] = enc(v, c, k - c)
                n += 1
    if view[PUB_HIGH] < JOKER_HIGH and jokers >= k:
        view[n] = enc(JOKER_HIGH, 0, k)
        n += 1
    return n - SCRATCH


# --- packed hands (see the module docstring) ---------------------------------------------------


@njit(cache=True, inline="always")
def lowest_kind(mask):
    """The kind of the lowest non-zero field of a non-zero packed mask."""
    return trailing_zeros(mask) >> 2


@njit(cache=True, inline="always")
def count_of(hand, kind):
    """The count of ``kind`` (0..15) in a packed hand, as int64."""
    return np.int64((hand >> (U4 * np.uint64(kind))) & U15)


@njit(cache=True, inline="always")
def at_least(hand, k):
    """The top bit of every field whose count is >= k (1 <= k <= 8).

    Adding 8 - k to a count of 0..8 gives 0..15, so no carry crosses a field, and the sum
    reaches 8 (the top bit) exactly when the count is >= k.
    """
    return (hand + NIB_ONES * np.uint64(8 - k)) & NIB_HIGH


@njit(cache=True, inline="always")
def fields_above(v):
    """The fields of the number values v+1..13 (none for v >= 13)."""
    return NUMBER_FIELDS & (ALL_BITS << (U4 * np.uint64(v + 1)))


@njit(cache=True, inline="always")
def move_delta(move):
    """The packed cards of a move other than PASS (subtract from the hand, add to the table)."""
    c = np.uint64((move >> 4) & 15)
    j = np.uint64(move & 15)
    # jokers alone (value 14) have c = 0, so the shift by 4 * 14 adds nothing there
    return (c << (U4 * np.uint64(move >> 8))) + (j << JOKER_SHIFT)


@njit(cache=True, inline="always")
def lead_move(move, seat, hands, view):
    """A-5: ``seat`` leads the round with ``move``: its cards leave ``hands[seat]`` and its
    size in ``view`` (``PUB_SIZES``). Returns the round's (table, k, high, ass_round): every
    later move must be k cards (1 in an ass round)."""
    c = (move >> 4) & 15
    j = move & 15
    table = move_delta(move)
    hands[seat] -= table
    view[PUB_SIZES + seat] -= c + j
    high = move >> 8
    ass_round = 1 if high == ASS else 0
    return table, 1 if ass_round else c + j, high, ass_round


@njit(cache=True, inline="always")
def follow_move(move, seat, hands, view, table, high, high_seat, ass_round):
    """A-6: ``seat`` puts ``move`` (not a pass) on the round's table: its cards leave
    ``hands[seat]`` and its size in ``view`` (``PUB_SIZES``); the move is the new high when
    higher, or as high in an ass round (A-7: the last of equal asses takes). Returns (table,
    high, high_seat)."""
    delta = move_delta(move)
    hands[seat] -= delta
    view[PUB_SIZES + seat] -= ((move >> 4) & 15) + (move & 15)
    v = move >> 8
    if v > high or (ass_round and v == high):
        return table + delta, v, seat
    return table + delta, high, high_seat


@njit(cache=True, inline="always")
def end_round(hands, view, n, table, gone, high_seat, ass_round):
    """A-7: the round is over: an ass round's cards go to its taker (who may not lead the
    ass next, A-8), a normal round's leave the game. Returns (gone, the seat that may not lead
    the ass, -1 for none)."""
    if ass_round:
        hands[high_seat] += table
        view[PUB_SIZES + high_seat] += n
        return gone, high_seat
    return gone + table, -1


@njit(cache=True, inline="always")
def hand_size(hand):
    """The number of cards in a packed hand: the 4-bit counts summed in bytes (each at most
    16), then the bytes by one multiply (the total is at most 110, so no byte overflows)."""
    b = (hand & BYTE_LOW) + ((hand >> U4) & BYTE_LOW)
    return np.int64((b * BYTE_ONES) >> BYTE_TOP)


@njit(cache=True, inline="always")
def pack_counts(counts, at):
    """The packed hand of the counts ``counts[at : at + 16]`` (each 0..8)."""
    hand = U0
    for kind in range(HAND_SLOTS):
        hand += np.uint64(counts[at + kind]) << (U4 * np.uint64(kind))
    return hand


@njit(cache=True, inline="always")
def unpack_to(hand, out, at):
    """Write the 16 counts of a packed hand to ``out[at : at + 16]``."""
    for kind in range(HAND_SLOTS):
        out[at + kind] = np.int64((hand >> (U4 * np.uint64(kind))) & U15)


@njit(cache=True, inline="always")
def known_after_play(known, move):
    """The known cards of a seat (packed) after it plays ``move`` (not PASS): each kind of
    the move lowered by the cards played of it, never below 0 (A-11: the seat may have
    played another copy of a card it was known to hold)."""
    shift = U4 * np.uint64(move >> 8)
    c = min((known >> shift) & U15, np.uint64((move >> 4) & 15))
    known -= c << shift
    j = min((known >> JOKER_SHIFT) & U15, np.uint64(move & 15))
    return known - (j << JOKER_SHIFT)


@njit(cache=True)
def lead_is_safe(w, k, view):
    """True when a lead of k cards of value w cannot be beaten, from public facts alone.

    Nobody can raise when every other hand has fewer than k cards, or when for every higher
    value u the cards of u not yet accounted for (8 minus those gone minus the own) plus the
    unaccounted jokers are fewer than k (jokers alone, value 14, included). Cards out of play
    count as unaccounted: the test is conservative, never wrong.
    """
    n = view[PUB_PLAYERS]
    seat = view[PUB_SEAT]
    most = 0
    for s in range(n):
        if s != seat and view[PUB_SIZES + s] > most:
            most = view[PUB_SIZES + s]
    if most < k:
        return True
    free_jokers = N_JOKERS - view[PUB_GONE + JOKER] - view[JOKER]
    if free_jokers >= k:
        return False
    for u in range(w + 1, N_VALUES + 1):
        if COPIES - view[PUB_GONE + u] - view[u] + free_jokers >= k:
            return False
    return True

"""Legal moves (rulings A-4..A-8), jitted, shared by the engine, the policies and the tests.

A move is a code from :mod:`analyzer.games.ass.cards`. Legality depends only on the view: the
mover's own hand (``view[kind]``) and the public state, which is exactly what a strategy sees
(A-11).

``legal_moves`` lists the legal moves in canonical order (ascending code, pass first) into the
view's scratch space; the ``random`` strategy draws from that list. ``is_legal`` checks one
move without building the list; the engine calls it on every decision, so no strategy can
make an illegal move unseen.
"""

from __future__ import annotations

from numba import njit

from analyzer.games.ass.cards import (
    ASS,
    JOKER,
    JOKER_HIGH,
    N_VALUES,
    PASS,
    PUB_ASS_ROUND,
    PUB_HIGH,
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_POS,
    SCRATCH,
)


@njit(cache=True, inline="always")
def enc(v, c, j):
    """Move code of c cards of kind v plus j jokers (see cards.encode)."""
    return v * 256 + c * 16 + j


@njit(cache=True)
def check_move(move, held, jokers, has_ass, pos, ass_round, may_lead_ass, k, high):
    """True when ``move`` is legal; the arguments are the facts of the view it depends on.

    ``held`` is the mover's count of the move's kind ``move >> 8`` (any value for PASS or a
    code out of range), ``jokers`` and ``has_ass`` its jokers and ass, the rest as in the
    public state. Scalars only, so the engine's call is inlined and costs nothing measurable.
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

"""The engine's packed-hand fast path of `basic` makes exactly the moves of `basic` itself.

The engine plays `basic` seats through ``basic_packed`` (a hand as 4-bit counts in one uint64,
no view); `basic` on the view is the readable version the reference engine is checked
against. This compares the two on random hands in every decision context: position in the
round, normal or ass round, allowed to lead the ass or not, lead size 1..13, highest value
0..14.
"""

import numpy as np
from numba import njit

from analyzer.games.ass.cards import (
    PASS,
    PUB_ASS_ROUND,
    PUB_HIGH,
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_POS,
    VIEW_LEN,
)
from analyzer.games.ass.moves import U0, U4, check_move, count_of
from analyzer.rng import randbelow
from strategies.ass.policies import basic, basic_packed


@njit
def _mismatches(trials, rng, view):
    bad = 0
    checked = 0
    params = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for _ in range(trials):
        hand = U0
        sparse = randbelow(rng, 4)  # some hands thin, some full
        for kind in range(16):
            view[kind] = 0
        for kind in range(15):  # ass (0), values 1..13, jokers (14)
            top = 1 if kind == 0 else (5 if kind == 14 else 8)
            x = randbelow(rng, top + 1)
            if randbelow(rng, 4) < sparse:
                x = 0
            view[kind] = x
            hand += np.uint64(x) << (U4 * np.uint64(kind))
        for pos in range(3):
            for ass_round in range(2):
                for may in range(2):
                    for k in range(1, 14):
                        for high in range(15):
                            view[PUB_POS] = pos
                            view[PUB_ASS_ROUND] = ass_round
                            view[PUB_MAY_LEAD_ASS] = may
                            view[PUB_K] = k
                            view[PUB_HIGH] = high
                            checked += 1
                            if basic(params, view, rng) != basic_packed(
                                hand, pos, ass_round, may, k, high
                            ):
                                bad += 1
    return bad, checked


def test_basic_packed_plays_exactly_as_basic():
    rng = np.array([777], dtype=np.uint64)
    bad, checked = _mismatches(300, rng, np.zeros(VIEW_LEN, np.int64))
    assert checked == 300 * 3 * 2 * 2 * 13 * 15
    assert bad == 0


@njit
def _illegal_where_trusted(trials, rng):
    """basic_packed's moves that check_move rejects, over random hands in every context in
    which the engine asks a follower or a starter (the engine trusts basic without the check),
    and the normal-round follows after a 14 that are not a pass (the engine skips them)."""
    bad = 0
    raised_14 = 0
    checked = 0
    for _ in range(trials):
        hand = U0
        size = 0
        for kind in range(15):
            top = 1 if kind == 0 else (5 if kind == 14 else 8)
            x = randbelow(rng, top + 1) if randbelow(rng, 3) == 0 else 0
            size += x
            hand += np.uint64(x) << (U4 * np.uint64(kind))
        if size == 0:
            continue
        jokers = count_of(hand, 14)
        has_ass = count_of(hand, 0)
        for may in range(2):  # the lead
            if may == 1 and has_ass == 0:
                continue
            if may == 0 and has_ass == size:
                continue  # a blocked starter took a round's cards with the ass
            move = basic_packed(hand, 0, 0, may, 0, 0)
            kind = (move >> 8) & 15 if move >= 0 else 0
            checked += 1
            if not check_move(move, count_of(hand, kind), jokers, has_ass, 0, 0, may, 0, 0):
                bad += 1
        for ass_round in range(2):
            if ass_round == 1 and has_ass == 1:
                continue  # in an ass round the ass is on the table
            for k in range(1, 14):
                if k > size or (ass_round == 1 and k > 1):
                    continue  # the engine passes such a follower without asking
                for high in range(15):
                    move = basic_packed(hand, 1, ass_round, 0, k, high)
                    kind = (move >> 8) & 15 if move >= 0 else 0
                    checked += 1
                    if not check_move(move, count_of(hand, kind), jokers, has_ass, 1,
                                      ass_round, 0, k, high):
                        bad += 1
                    if ass_round == 0 and high == 14 and move != PASS:
                        raised_14 += 1
    return bad, raised_14, checked


def test_basic_packed_is_legal_wherever_the_engine_trusts_it():
    """The engines play basic without the per-move legality check and pass basic followers
    after a 14 in a normal round without asking: both rest on this."""
    rng = np.array([4242], dtype=np.uint64)
    bad, raised_14, checked = _illegal_where_trusted(2000, rng)
    assert checked > 100_000
    assert bad == 0
    assert raised_14 == 0

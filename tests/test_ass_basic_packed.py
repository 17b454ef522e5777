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
    PUB_ASS_ROUND,
    PUB_HIGH,
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_POS,
    VIEW_LEN,
)
from analyzer.games.ass.moves import U0, U4
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

"""The numba loop of Who's the Ass? that the benchmarks and the C yardstick both time.

Kept apart from the benchmark scripts so that ``cbase_ass`` (the C yardstick, which the
benchmarks print beside their figures) and ``bench_ass_split`` import it without importing
each other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.engines.ass.engine import NO_BLOCK, OK, UNTRACED, play_packed, start_game
from analyzer.games.ass.cards import DECK_SIZE, VIEW_LEN


@njit(cache=True)
def _deal_play_loop(seed, count, n, per_player, template, families, params):
    packed = np.zeros(n, dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(DECK_SIZE, dtype=np.uint8)
    taken = np.zeros(n, dtype=np.int64)
    trace = np.empty((1, 14), dtype=np.int64)
    small = template.astype(np.uint8)
    check = np.uint64(0)
    for g in range(count):
        ass_seat = start_game(seed, g, n, per_player, small, deck, packed, view, rng, taken)
        rounds, _, status = play_packed(packed, ass_seat, NO_BLOCK, n, families, params, view,
                                        rng, trace, UNTRACED, taken, (None, None))
        if status != OK:
            return np.uint64(0)
        check += np.uint64(rounds) + packed[0]
    return check

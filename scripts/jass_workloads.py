"""The numba loops of Plus-Minus Jass that the benchmarks and the C yardstick both time.

Kept apart from the benchmark scripts so that ``cbase_jass`` (the C yardstick, which
``bench_jass`` prints beside its figures) and ``bench_jass`` import them without importing
each other. They pass the engine's typed constants (``engine.OFF[0]``, ``engine.ZERO[0]``),
not the literals False and 0, so that they time the engine's own compiled functions rather
than copies compiled for a literal argument.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from analyzer.engines.jass import engine
from analyzer.games.jass.primitives import (
    S_LAST_WINNER,
    S_N,
    S_POS,
    S_TRICK,
    S_TRUMP,
    S_WON,
    ST_SIZE,
)
from analyzer.rng import seed_state
from strategies.jass.loop import rollout


@njit(cache=True)
def _deal_only(seed, count, n):
    work = engine.new_work()
    rng, deck, hands, played, taken, st, ints, ties, res = work
    acc = 0
    for u in range(count):
        seed_state(rng, seed, u, 0)
        engine.start_deal(rng, deck, hands, played, taken, st, ints[5], n, engine.OFF[0],
                          n - 1, engine.ZERO[0])
        acc += hands[0] & 1
    return acc


@njit(cache=True)
def _deal_and_play(seed, count, n, fams, prms):
    work = engine.new_work()
    rng, deck, hands, played, taken, st, ints, ties, res = work
    acc = 0
    for u in range(count):
        seed_state(rng, seed, u, 0)
        engine.start_deal(rng, deck, hands, played, taken, st, ints[5], n, engine.OFF[0],
                          n - 1, engine.ZERO[0])
        engine.begin_all(fams, prms, hands, st, ints[0], n)
        engine.run_deal(fams, prms, rng, hands, played, taken, st, ints[0], None, None,
                        engine.OFF[0], engine.NO_ROW[0])
        acc += st[S_LAST_WINNER]
    return acc


@njit(cache=True)
def _fix_states(seed, count, n, fams, prms):
    """The packed state just before the trump-fixing card of deals 0..count-1 (deals with no
    trump fix are skipped). Returns (states, rows)."""
    work = engine.new_work()
    rng, deck, hands, played, taken, st, ints, ties, res = work
    trace = np.zeros((1, engine.T_WIDTH), dtype=np.int64)
    rec = (engine.OFF[0], trace, engine.OFF[0], trace, engine.new_alt())  # the records' outputs
    out_u = np.zeros((count, 13), dtype=np.uint64)
    out_s = np.zeros((count, ST_SIZE), dtype=np.int64)
    k = 0
    for u in range(count):
        seed_state(rng, seed, u, 0)
        engine.start_deal(rng, deck, hands, played, taken, st, ints[5], n, engine.OFF[0],
                          n - 1, engine.ZERO[0])
        engine.begin_all(fams, prms, hands, st, ints[0], n)
        if engine.run_deal(fams, prms, rng, hands, played, taken, st, ints[0],
                           engine.RECORDS_SEARCH, rec, engine.ON[0], engine.NO_ROW[0]
                           ) != engine.STOPPED:
            continue
        for i in range(4):
            out_u[k, i] = hands[i]
            out_u[k, 4 + i] = played[i]
            out_u[k, 8 + i] = taken[i]
        out_u[k, 12] = rng[0]
        out_s[k, :] = st
        k += 1
    return out_u, out_s, k


@njit(cache=True)
def _rollouts(out_u, out_s, rows, fams, prms, reps, play):
    """Roll the packed states ``reps`` times over (play 1: ``rollout``, 2: the records' loop,
    0: only the copy into the work arrays, which the timings subtract). Each rollout adds the
    checksum of C's ``jass_rollouts`` (scripts/cbase/jass.c: last winner, trump, every seat's
    taken cards and tricks), so both sides do the same work per rollout and the sums agree.
    Returns (checksum, cards rolled)."""
    hands = np.zeros(4, dtype=np.uint64)
    played = np.zeros(4, dtype=np.uint64)
    taken = np.zeros(4, dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    memo = np.full(4, -1, dtype=np.int64)
    trace = np.zeros((1, engine.T_WIDTH), dtype=np.int64)
    rec = (engine.OFF[0], trace, engine.OFF[0], trace, engine.new_alt())  # the records' outputs
    acc = 0
    cards = 0
    for _ in range(reps):
        for k in range(rows):
            for i in range(4):
                hands[i] = out_u[k, i]
                played[i] = out_u[k, 4 + i]
                taken[i] = out_u[k, 8 + i]
            rng[0] = out_u[k, 12]
            st[:] = out_s[k]
            cards += 36 - st[S_TRICK] * st[S_N] - st[S_POS]
            if play == 1:
                rollout(fams, prms, rng, hands, played, taken, st, memo)
            elif play == 2:  # the records' loop (trace off): checks, stop and trace branches
                engine.run_deal(fams, prms, rng, hands, played, taken, st, memo,
                                engine.RECORDS_SEARCH, rec, engine.OFF[0], engine.NO_ROW[0])
            if play == 0:
                acc += st[S_TRICK]
            else:
                acc += st[S_LAST_WINNER] * 5 + st[S_TRUMP]
                for i in range(st[S_N]):
                    acc += np.int64(taken[i] % np.uint64(1021)) * (i + 1) + st[S_WON + i]
    return acc, cards


def _cpu(fn) -> float:
    c0 = time.process_time()
    fn()
    return time.process_time() - c0

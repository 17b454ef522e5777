"""The search's rollout specialised to `basic` in every seat under `seed`
(strategies/jass/play.py, ``rollout_basic``) plays on from any packed mid-deal state
exactly as the one deal loop (strategies/jass/loop.py, ``run_deal`` without search or
records, which every other table's rollout plays) does: J-4..J-7 with `basic`'s cards, trump
fixed by the first card off suit (J-5) whether it comes in the trick in progress or later,
the same trick winners and the same J-8/J-9 outcome for the search; and ``rollout`` takes it
only for such tables.

The states are the real engine's: deals played card by card by ``engine.play_card`` (`basic`
or uniformly random legal cards), a snapshot before every card, so every trick position,
before and after trump is fixed, the trump-fixing card itself and finished deals all occur.
"""

import numpy as np
import pytest

from analyzer.engines.jass import engine
from analyzer.games.jass.cards import SUIT_MASK, mask_cards
from analyzer.games.jass.primitives import (
    S_HIST,
    S_LED,
    S_POS,
    S_TCARD,
    S_TIES,
    S_TRICK,
    S_TRUMP,
    S_TSEAT,
    S_VOID,
    ST_SIZE,
    legal_mask,
)
from strategies.jass.knobs import AIM_LOW, OBJ_DEAL, OBJ_MATCH
from strategies.jass.loop import NO_ROW, NO_STOP, rollout, run_deal
from strategies.jass.play import rollout_basic, to_move
from strategies.jass.policies import basic_card
from strategies.jass.search import outcome
from strategies.registry import engine_arrays, seat_strategies

# st slots the fast path leaves as they were (its docstring): the order of play, the voids,
# the trick slots; every other slot must equal the deal loop's
NOT_KEPT = np.zeros(ST_SIZE, dtype=bool)
NOT_KEPT[S_HIST:S_HIST + 36] = True
NOT_KEPT[S_VOID:S_VOID + 4] = True
NOT_KEPT[S_TCARD:S_TCARD + 4] = True
NOT_KEPT[S_TSEAT:S_TSEAT + 4] = True


def _states(n, deals, seed, swiss=False):
    """(hands, played, taken, st) before every card of ``deals`` deals and at their end; even
    deals played by `basic`, odd ones by uniformly random legal cards. Match standings (deal
    number, sticks, remembered ties) are set at random: no rollout changes them, the
    search's outcome reads them."""
    py = np.random.default_rng(seed)
    out = []
    for d in range(deals):
        work = engine.new_work()
        rng, deck, hands, played, taken, st = work[:6]
        rng[0] = np.uint64(seed * 10_000 + d)
        engine.start_deal(rng, deck, hands, played, taken, st, py.integers(0, 30, 4), n, swiss,
                          int(py.integers(0, n)), int(py.integers(0, 4)))
        st[S_TIES:S_TIES + 6] = py.integers(0, 3, 6)
        for _ in range(36):
            out.append((hands.copy(), played.copy(), taken.copy(), st.copy()))
            seat = to_move(st)
            legal = legal_mask(hands[seat], st)
            card = (basic_card(legal, st) if d % 2 == 0
                    else int(py.choice(mask_cards(int(legal)))))
            engine.play_card(seat, card, hands, played, taken, st)
        out.append((hands.copy(), played.copy(), taken.copy(), st.copy()))
    return out


def deal_loop(fams, prms, rng, hands, played, taken, st, memo):
    """The deal loop as a rollout of any table plays it (no search, no records)."""
    return run_deal(fams, prms, rng, hands, played, taken, st, memo, None, None, NO_STOP,
                    NO_ROW)


def _general(n, state):
    fams, prms = engine_arrays(seat_strategies("jass", ["basic"], n))
    rng = np.array([7], dtype=np.uint64)
    memo = np.full(4, -1, dtype=np.int64)
    a = [x.copy() for x in state]
    assert deal_loop(fams, prms, rng, *a, memo) == engine.DONE
    assert rng[0] == 7 and (memo == -1).all()  # basic neither draws nor aims
    return a


def _outcomes(n, taken, st):
    ints = np.zeros((5, 8), dtype=np.int64)
    return [outcome(seat, taken, st, obj, *ints) for seat in range(n)
            for obj in (OBJ_DEAL, OBJ_MATCH)]


@pytest.mark.parametrize("n", [3, 4])
def test_fast_path_leaves_what_the_deal_loop_leaves(n):
    """From every state: the same hands (empty), played and taken cards, the same tricks won,
    trump, fixer, last trick and trick bookkeeping (every st slot but the ones it documents
    as not kept), and the same outcome for every seat under both search objectives."""
    states = _states(n, 40, 100 + n)
    seen = set()
    for state in states:
        st0 = state[3]
        seen.add((int(st0[S_POS]), bool(st0[S_TRUMP] >= 0), int(st0[S_TRICK]) == 36 // n))
        g = _general(n, state)
        b = [x.copy() for x in state]
        assert rollout_basic(*b) == engine.DONE
        for x, y in zip(g[:3], b[:3], strict=True):
            assert np.array_equal(x, y)
        assert np.array_equal(g[3][~NOT_KEPT], b[3][~NOT_KEPT]), (st0[S_TRICK], st0[S_POS])
        assert np.array_equal(st0[NOT_KEPT], b[3][NOT_KEPT])  # left as it was
        assert _outcomes(n, g[2], g[3]) == _outcomes(n, b[2], b[3])
    # every trick position before and after trump is fixed, and finished deals, were rolled
    want = {(p, t, False) for p in range(n) for t in (False, True)} | {(0, True, True)}
    assert want <= seen, want - seen


@pytest.mark.parametrize("n", [3, 4])
def test_J5_trump_fixed_by_the_rollout_in_the_trick_in_progress(n):
    """The trump-fixing card (J-5) as the rollout's first card, and trump fixed earlier in
    the trick in progress: both loops end with the same trump, fixer and tricks."""
    fixing = fixed_mid_trick = 0
    states = _states(n, 40, 200 + n)
    for before, state in zip(states[:-1], states[1:], strict=True):
        hands, st0, prev = state[0], state[3], before[3]
        if st0[S_POS] == 0:
            continue
        led = int(st0[S_LED])
        if st0[S_TRUMP] < 0 and (hands[to_move(st0)] & SUIT_MASK[led]) == 0:
            fixing += 1  # the seat to move is void in the led suit: its card fixes trump
        elif st0[S_TRUMP] >= 0 and prev[S_TRUMP] < 0 and prev[S_TRICK] == st0[S_TRICK]:
            fixed_mid_trick += 1  # the card just played fixed trump, this trick goes on
        else:
            continue
        g = _general(n, state)
        b = [x.copy() for x in state]
        rollout_basic(*b)
        assert np.array_equal(g[2], b[2]) and np.array_equal(g[3][~NOT_KEPT], b[3][~NOT_KEPT])
    assert fixing >= 20 and fixed_mid_trick >= 20, (fixing, fixed_mid_trick)


def _with(fn, fams, prms, state):
    """hands, played, taken, st, rng, memo after ``fn`` from ``state``."""
    rng = np.array([3], dtype=np.uint64)
    memo = np.full(4, AIM_LOW, dtype=np.int64)
    a = [x.copy() for x in state]
    assert fn(fams, prms, rng, *a, memo) == engine.DONE
    return [*a, rng, memo]


def _same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("n", [3, 4])
def test_dispatch_takes_the_fast_path_only_for_basic_alone_under_seed(n):
    """rollout plays rollout_basic for `basic` in every seat under `seed` (it leaves the order
    of play as it was) and the deal loop for `swiss` states and for a table with another
    family in any seat (every slot, the stream and the aims equal to the deal loop's)."""
    basic = engine_arrays(seat_strategies("jass", ["basic"], n))
    tables = [basic] + [engine_arrays(seat_strategies(
        "jass", ["basic"] * s + [fam] + ["basic"] * (n - 1 - s), n))
        for s, fam in ((0, "random"), (n - 1, "aim-low"))]
    told_apart = 0
    for swiss in (False, True):
        for state in _states(n, 6, 300 + n + 10 * swiss, swiss=swiss)[::5]:
            for k, (fams, prms) in enumerate(tables):
                via = _with(rollout, fams, prms, state)
                general = _with(deal_loop, fams, prms, state)
                if swiss or k > 0:
                    assert _same(via, general), (swiss, k)
                else:
                    fast = [x.copy() for x in state]
                    rollout_basic(*fast)
                    assert _same(via[:4], fast)
                    told_apart += not np.array_equal(via[3], general[3])
    assert told_apart >= 10  # the check above can tell the two loops apart

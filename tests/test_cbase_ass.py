"""The C yardstick of Who's the Ass? (scripts/cbase/ass.c) plays exactly the numba engine's games.

Issue 13's targets compare the numba engine with a hand-written C engine of the same rules
(scripts/bench_ass_split.py times both in one run). A C engine that played other games would
be no yardstick, so: the same minus points per (game, seat) and rounds per game, and the same
twelve result columns in the same dtypes, as the kernel's play_chunk for 2,000 games at 3, 4,
6 and 12 players and two seeds, and the same final hands and turns as ``rollout.play_on``
(``basic``) from recorded mid-game states.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from script_module import load as _load

from analyzer.engines.ass import kernel
from analyzer.engines.kernel import RunSpec
from analyzer.games.ass.cards import PUB_SIZES, VIEW_LEN
from strategies.ass.catalog import BASIC
from strategies.ass.rollout import OK, START, play_on

GAMES = 2000
FAM_BASIC = np.int64(BASIC)  # typed, not a literal: play_on's one compiled copy (rollout.START)


@pytest.fixture(scope="module")
def cass():
    cbaseline = _load("cbaseline")
    try:
        cbaseline.compiler()
    except cbaseline.NoCompiler as exc:
        pytest.skip(f"the C yardstick needs a C compiler: {exc}")
    module = _load("cbase_ass")
    module.library()  # build once for the module's tests
    return module


@pytest.mark.parametrize("players", [3, 4, 6, 12])
@pytest.mark.parametrize("seed", [0, 8_123_456_789])
def test_c_engine_plays_the_numba_engines_games(cass, players, seed):
    start = 1000  # not from 0: the C engine must take the game's index, not its position
    out = kernel.play_chunk(RunSpec("ass", players, ("basic",), seed), start, GAMES)
    minus, rounds = cass.play_games(seed, start, GAMES, players)
    np.testing.assert_array_equal(minus, out["minus_points"].reshape(GAMES, players))
    np.testing.assert_array_equal(rounds, out["rounds"].reshape(GAMES, players)[:, 0])
    rows = cass.game_rows(seed, start, GAMES, players)  # every result column, its dtype too
    assert list(rows) == list(out)
    for name, column in out.items():
        assert rows[name].dtype == column.dtype, name
        np.testing.assert_array_equal(rows[name], column, err_msg=name)
    assert len(set(minus.sum(axis=1))) > 1  # whole games with varied results, not a constant


@njit(cache=True)
def _numba_rollouts(states, sizes, gone, starters, blocked, rounds, n):
    """rollout.play_on (basic) from every state; final hands, turns and status of each."""
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    count = states.shape[0]
    hands = np.empty((count, n), dtype=np.uint64)
    turns = np.empty(count, dtype=np.int64)
    status = np.empty(count, dtype=np.int64)
    pp = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for i in range(count):
        work = states[i].copy()
        for s in range(n):
            view[PUB_SIZES + s] = sizes[i, s]
        status[i], turns[i] = play_on(work, n, FAM_BASIC, pp, view, rng, gone[i],
                                      np.uint64(0), starters[i], blocked[i], START, START, START,
                                      START, START, rounds[i])
        hands[i] = work
    return hands, turns, status


@pytest.mark.parametrize("players", [3, 4, 12])
def test_c_rollouts_play_on_as_play_on_does(cass, players):
    mid_game_states = _load("bench_ass_search").mid_game_states
    arrays, _ = mid_game_states(300, players)
    hands, turns, status = _numba_rollouts(*arrays, players)
    assert (status == OK).all()
    assert (arrays[4] >= 0).any()  # some states follow an ass round (the taker is blocked)
    c_hands, c_turns = cass.rollouts(arrays, players)
    np.testing.assert_array_equal(c_hands, hands)
    np.testing.assert_array_equal(c_turns, turns)
    c_again, _ = cass.rollouts(arrays, players, rep=3)  # each rollout starts from its state
    np.testing.assert_array_equal(c_again, hands)


def test_c_engine_refuses_bad_arguments(cass):
    with pytest.raises(RuntimeError, match="C engine"):
        cass.play_games(1, 0, 10, 2, 13)
    with pytest.raises(RuntimeError, match="C engine"):
        cass.play_games(1, 0, 10, 4, 30)  # more cards than the deck holds

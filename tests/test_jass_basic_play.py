"""The plain run specialised to tables of `basic` alone (analyzer/engines/jass/basic_play.py)
plays exactly what the general loop plays: the same J-2 shuffle and deal from the same draws,
J-4..J-7 under `seed` with `basic`'s choices, so the same J-8 points, J-9 sticks (remembered
ties in a match) and J-10 ends, column for column, for every (seed, index); and the kernel
picks it only for tables of `basic` alone under `seed`.
"""

import numpy as np
import pytest

from analyzer.engines.jass import basic_play, engine, kernel
from analyzer.engines.kernel import RunSpec
from strategies.registry import engine_arrays, parse_strategy, seat_strategies

SEEDS = (1, 2026)


def _basic(n):
    return engine_arrays(seat_strategies("jass", ["basic"], n))


def _equal(general, special):
    assert len(general) == len(special)
    for k, (a, b) in enumerate(zip(general, special, strict=True)):
        assert np.array_equal(a, b), k
        assert np.asarray(a).dtype == np.asarray(b).dtype, k


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_single_deals_equal_the_general_loop(seed, n):
    """J-2..J-9 in deals mode: 3,000 deals, every returned column equal to play_unit's."""
    fams, prms = _basic(n)
    general = engine.deals_chunk(seed, 0, 3_000, n, False, fams, prms, None)
    special = basic_play.deals_chunk_basic(seed, 0, 3_000, n)
    _equal(general, special)
    points = special[2].reshape(-1, n)
    assert (points.sum(axis=1) == 157).all()
    trump = special[7]
    assert set(np.unique(trump)) <= {-1, 0, 1, 2, 3}
    if n == 3:  # J-5: a deal of 3 players may end with no trump; both kinds are exercised
        assert (trump < 0).any() and (trump >= 0).any()


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_matches_equal_the_general_loop(seed, n):
    """J-3 first dealer, the deal passing on, J-9 remembered ties and J-10: 300 matches. Each
    deal of a match draws on from where the deal before left the stream, so the matches agree
    only if every deal makes start_deal's 35 draws (J-2) and plays all 36 cards."""
    fams, prms = _basic(n)
    general = engine.matches_chunk(seed, 0, 300, n, False, 200, fams, prms, None)
    special = basic_play.matches_chunk_basic(seed, 0, 300, n, 200)
    _equal(general, special)
    if n == 4:  # the remembered ties were paid, not only the plain sticks
        assert special[4].sum() > 0


def test_deal_cap_equals_the_general_loop():
    """J-10's deal cap: capped matches end alike."""
    fams, prms = _basic(4)
    general = engine.matches_chunk(5, 0, 300, 4, False, 10, fams, prms, None)
    special = basic_play.matches_chunk_basic(5, 0, 300, 4, 10)
    _equal(general, special)
    assert special[6].any() and not special[6].all()


def test_dispatch_picks_the_basic_loop_only_for_basic_alone_under_seed():
    fams, _ = _basic(4)
    assert kernel.basic_alone(fams, False)
    assert not kernel.basic_alone(fams, True)  # swiss keeps the general loop
    mixed, _ = engine_arrays([parse_strategy("jass", t)
                              for t in ("basic", "random", "basic", "basic")])
    assert not kernel.basic_alone(mixed, False)
    for mode in kernel.MODES:
        basic = kernel.chunk_kernel(mode, fams, False)
        assert basic is kernel._BASIC_CHUNKS[mode]
        general = kernel._GENERAL_CHUNKS[mode]
        assert kernel.chunk_kernel(mode, fams, True) is general
        assert kernel.chunk_kernel(mode, mixed, False) is general


@pytest.mark.parametrize("mode", ["deals", "matches"])
def test_play_chunk_through_the_basic_loop_equals_the_general_loop(mode):
    """kernel.play_chunk on a basic table (the specialised loop) gives the general loop's
    table: the dispatch passes the spec's seed, range, players and deal cap through."""
    spec = RunSpec("jass", 4, ("basic",), seed=11, mode=mode, rules={"deal_cap": 10})
    out = kernel.play_chunk(spec, 7, 60)
    fams, prms = _basic(4)
    if mode == "deals":
        cols = engine.deals_chunk(11, 7, 60, 4, False, fams, prms, None)[2:]
        names = ("points", "tricks", "sticks", "fixed_trump", "last_trick")
        assert np.array_equal(out["trump"], np.repeat(cols[5], 4))
    else:
        cols = engine.matches_chunk(11, 7, 60, 4, False, 10, fams, prms, None)[2:]
        names = ("sticks", "won", "bonus_sticks")
        assert np.array_equal(out["deals"], np.repeat(cols[3], 4))
    for name, col in zip(names, cols, strict=False):
        assert np.array_equal(out[name], col), name

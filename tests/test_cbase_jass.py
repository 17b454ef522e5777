"""The hand-written C engine of Plus-Minus Jass (scripts/cbase/jass.c) plays exactly what the
numba engine plays: the yardstick of issue 13 is honest only if it does the same work.

For every (seed, index) the C engine must give the numba kernel's result columns, single deals
(J-2 shuffle and deal, J-4..J-7 under `seed`, J-8 points, J-9 sticks) and matches (J-3 first
dealer, J-9 remembered ties, J-10 end and the deal cap), and its rollout from a packed state
must end the deal as numba's rollout entry point does.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
sys.path.insert(0, str(SCRIPTS))

import cbaseline  # noqa: E402

try:
    cbaseline.compiler()
except cbaseline.NoCompiler as exc:  # pragma: no cover - depends on the machine
    pytest.skip(f"no C compiler, the C yardstick cannot be built: {exc}",
                allow_module_level=True)

import cbase_jass  # noqa: E402

from analyzer.engines.jass import engine  # noqa: E402
from analyzer.engines.jass.kernel import play_chunk  # noqa: E402
from analyzer.engines.kernel import RunSpec  # noqa: E402
from analyzer.games.jass.cards import SUIT_MASK  # noqa: E402
from analyzer.games.jass.primitives import (  # noqa: E402
    S_FIXER,
    S_LAST_WINNER,
    S_LED,
    S_POS,
    S_TRICK,
    S_TRUMP,
    S_WON,
    U0,
    legal_mask,
)
from strategies.jass.loop import rollout  # noqa: E402
from strategies.jass.play import to_move  # noqa: E402
from strategies.jass.policies import basic_card  # noqa: E402
from strategies.registry import engine_arrays, seat_strategies  # noqa: E402

SEEDS = (1, 2026)


@pytest.fixture(scope="module")
def lib():
    return cbase_jass.load()


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_c_single_deals_equal_the_numba_kernel(lib, seed, n):
    """J-2..J-9 in deals mode: 2,000 deals, every result column equal, row for row."""
    numba = play_chunk(RunSpec("jass", n, ("basic",), seed=seed, mode="deals"), 0, 2_000)
    c = cbase_jass.play_deals(seed, 0, 2_000, n, lib)
    for col in cbase_jass.DEAL_COLUMNS:
        assert np.array_equal(numba[col].astype(np.int64), c[col]), col
    assert set(np.unique(c["trump"])) <= {-1, 0, 1, 2, 3}
    assert (c["points"].reshape(-1, n).sum(axis=1) == 157).all()


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_c_matches_equal_the_numba_kernel(lib, seed, n):
    """J-3, J-9 remembered ties and J-10 in matches mode: 200 matches, every column equal."""
    numba = play_chunk(RunSpec("jass", n, ("basic",), seed=seed, mode="matches"), 0, 200)
    c = cbase_jass.play_matches(seed, 0, 200, n, lib=lib)
    for col in cbase_jass.MATCH_COLUMNS:
        assert np.array_equal(numba[col].astype(np.int64), c[col]), col
    if n == 4:  # the remembered ties were exercised, not only the plain sticks
        assert c["bonus_sticks"].sum() > 0


def test_c_deal_cap_equals_the_numba_kernel(lib):
    """J-10's cap: matches stopped after deal_cap deals are reported capped, as numba does."""
    spec = RunSpec("jass", 4, ("basic",), seed=3, mode="matches", rules={"deal_cap": 3})
    numba = play_chunk(spec, 0, 100)
    c = cbase_jass.play_matches(3, 0, 100, 4, cap=3, lib=lib)
    for col in cbase_jass.MATCH_COLUMNS:
        assert np.array_equal(numba[col].astype(np.int64), c[col]), col
    assert c["capped"].any()


def test_c_units_depend_on_seed_and_index_alone(lib):
    """A unit replays identically whatever the chunk it is played in; the checksum does not
    depend on whether the columns are written."""
    whole = cbase_jass.play_deals(7, 0, 1_500, 4, lib)
    part = cbase_jass.play_deals(7, 1_000, 500, 4, lib)
    for col in cbase_jass.DEAL_COLUMNS:
        assert np.array_equal(whole[col][4_000:], part[col])
    assert lib.jass_play_deals(7, 0, 1_500, 4, None) == whole["checksum"]
    m = cbase_jass.play_matches(7, 0, 60, 3, lib=lib)
    assert lib.jass_play_matches(7, 0, 60, 3, 200, None) == m["checksum"]
    assert lib.jass_play_deals(7, 0, 1, 5, None) == -1
    assert lib.jass_play_matches(7, 0, 1, 4, 0, None) == -1
    assert lib.jass_deal_parts(7, 0, 1, 4, 2) == -1 and lib.jass_deal_parts(7, 0, 1, 2, 0) == -1


def _basic_states(n, deals, seed):
    """Packed states of `basic` deals played by the numba engine's own move functions: the
    state just before each trump-fixing card (as bench_jass's split rolls out) and one after a
    random number of moves. Rows as bench_jass packs them (hands, played, taken, stream)."""
    py = np.random.default_rng(seed)
    us, sts = [], []
    for index in range(deals):
        work = engine.new_work()
        rng, deck, hands, played, taken, st = work[:6]
        rng[0] = np.uint64(seed * 1_000 + index)
        engine.start_deal(rng, deck, hands, played, taken, st, np.zeros(4, np.int64), n, False,
                          n - 1, 0)
        stop = int(py.integers(0, 36))
        fix_seen = False
        for move in range(36):
            seat = to_move(st)
            fixing = (st[S_TRUMP] < 0 and st[S_POS] > 0
                      and (hands[seat] & SUIT_MASK[st[S_LED]]) == U0)
            if (fixing and not fix_seen) or move == stop:
                us.append(np.concatenate([hands, played, taken, rng]))
                sts.append(st.copy())
                fix_seen = fix_seen or fixing
            card = basic_card(legal_mask(hands[seat], st), st)
            engine.play_card(seat, card, hands, played, taken, st)
    return np.array(us, dtype=np.uint64), np.array(sts, dtype=np.int64)


@pytest.mark.parametrize("n", [3, 4])
def test_c_rollouts_equal_the_numba_rollout(lib, n):
    """From the trump-fixing card and from other mid-deal states, C's rollout ends the deal
    with the taken cards, tricks, last trick, trump and fixer of analyzer's rollout()."""
    u, st = _basic_states(n, 120, 11 + n)
    assert len(u) >= 200
    c = cbase_jass.rollouts(u, st, lib=lib)
    fams, prms = engine_arrays(seat_strategies("jass", ["basic"], n))
    memo = np.full(4, -1, dtype=np.int64)
    for k in range(len(u)):
        hands, played, taken = u[k, 0:4].copy(), u[k, 4:8].copy(), u[k, 8:12].copy()
        s = st[k].copy()
        rollout(fams, prms, u[k, 12:13].copy(), hands, played, taken, s, memo)
        want = [*taken.astype(np.int64), *s[S_WON:S_WON + 4], s[S_LAST_WINNER], s[S_TRUMP],
                s[S_FIXER]]
        assert list(c[k]) == want, (k, st[k][S_TRICK], st[k][S_POS])


def test_bench_notes_a_missing_compiler_in_one_line(monkeypatch):
    """Without a C compiler (or for another strategy or rule set) bench_jass leaves the C
    column out with a one-line reason instead of failing."""
    import bench_jass

    monkeypatch.setenv("CC", "cardlab-no-such-cc")
    monkeypatch.setattr(cbase_jass, "_LIBS", {})
    lib, note = bench_jass._c_engine("basic", "seed")
    assert lib is None and "no C compiler" in note and "\n" not in note
    assert bench_jass._c_engine("random", "seed")[0] is None
    assert bench_jass._c_engine("basic", "swiss")[0] is None


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("mode", ["deals", "matches"])
def test_c_kernel_columns_are_play_chunks_own(lib, mode, n):
    """The "same work" yardstick: jass_deal_rows / jass_match_rows write exactly the columns,
    order, dtypes and values that play_chunk returns (deals from index 500, matches with a
    cap of 12 so that some are capped)."""
    if mode == "deals":
        spec = RunSpec("jass", n, ("basic",), seed=7, mode="deals")
        numba, c = play_chunk(spec, 500, 1_000), cbase_jass.deal_rows(7, 500, 1_000, n, lib)
    else:
        spec = RunSpec("jass", n, ("basic",), seed=7, mode="matches", rules={"deal_cap": 12})
        numba, c = play_chunk(spec, 500, 300), cbase_jass.match_rows(7, 500, 300, n, 12, lib)
        assert c["capped"].any() and not c["capped"].all()
    assert list(c) == list(numba)
    for name, col in numba.items():
        assert c[name].dtype == col.dtype, name
        np.testing.assert_array_equal(c[name], col, err_msg=name)

"""The kernel contract of Who's the Ass? (analyzer.engines.kernel): columns, validation,
chunk independence, and the seat frequencies of the deal against their exact values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.engines.ass import kernel
from analyzer.engines.ass.engine import MAX_ROUNDS
from analyzer.engines.kernel import RunSpec, kernel_module
from analyzer.errors import CardlabError


def spec(players=4, strategies=("basic",), seed=1, **kw):
    return RunSpec("ass", players, tuple(strategies), seed, **kw)


def test_kernel_module_is_found_and_declares_the_contract():
    mod = kernel_module("ass")
    assert mod is kernel
    assert kernel.UNIT == {"games": "game", "matches": "match"}
    assert kernel.MODES == ("games", "matches")
    assert set(kernel.UNIT_COLUMNS) <= set(kernel.COLUMNS)
    for mode in kernel.MODES:
        columns = kernel.MODE_COLUMNS[mode]
        assert set(kernel.MODE_UNIT_COLUMNS[mode]) <= set(columns)
        assert {m.column for m in kernel.seat_metrics(mode)} <= set(columns)


def test_play_chunk_columns_dtypes_and_order():
    out = kernel.play_chunk(spec(5), 10, 20)
    assert list(out) == list(kernel.MODE_COLUMNS["games"])
    for name, array in out.items():
        assert array.dtype == kernel.DTYPES[name], name
        assert len(array) == 100
    assert (out["index"] == np.repeat(np.arange(10, 30), 5)).all()
    assert (out["seat"] == np.tile(np.arange(5), 20)).all()
    games = {k: v.reshape(20, 5) for k, v in out.items()}
    for col in kernel.MODE_UNIT_COLUMNS["games"]:  # the same value on every seat's row
        assert (games[col] == games[col][:, :1]).all()
    assert (games["dealt_ass"].sum(axis=1) == 1).all()
    assert (games["ended_with_ass"].sum(axis=1) == 1).all()
    assert (games["went_out"].any(axis=1)).all()
    # out_seat: the lowest seat without cards
    first = np.argmax(games["went_out"], axis=1)
    assert (games["out_seat"][:, 0] == first).all()
    assert (games["went_out"] == (games["cards_left"] == 0)).all()
    assert (games["minus_points"] >= 20 * games["ended_with_ass"]).all()
    assert (games["ass_taken"].sum(axis=1) == games["ass_rounds"][:, 0]).all()


@pytest.mark.parametrize(
    "strategies", [("basic",), ("random",), ("careful", "random", "joker-dumper", "basic")]
)
def test_results_do_not_depend_on_chunking(strategies):
    whole = kernel.play_chunk(spec(4, strategies, seed=9), 0, 100)
    a = kernel.play_chunk(spec(4, strategies, seed=9), 0, 37)
    b = kernel.play_chunk(spec(4, strategies, seed=9), 37, 63)
    for name in whole:
        assert (whole[name] == np.concatenate([a[name], b[name]])).all(), name


def test_heuristic_with_default_knobs_plays_exactly_as_basic():
    a = kernel.play_chunk(spec(6, ("basic",), seed=3), 0, 2000)
    b = kernel.play_chunk(spec(6, ("heuristic",), seed=3), 0, 2000)
    for name in a:
        assert (a[name] == b[name]).all(), name


def test_game_length_stays_under_the_proven_bound():
    """No round cap is needed: rounds <= 2 * cards + 1 (engine.py); random play included."""
    for players in (3, 12):
        out = kernel.play_chunk(spec(players, ("random",), seed=2), 0, 3000)
        assert out["rounds"].max() <= 2 * players * kernel.validate(spec(players)).rules[
            "per_player"] + 1 <= MAX_ROUNDS
        assert (out["ass_rounds"] * 2 <= out["rounds"] + 1).all()  # never two in a row


@pytest.mark.parametrize("players", [3, 4, 5, 7, 10, 12])
def test_seat_frequency_of_the_dealt_ass_matches_the_exact_value(players):
    """A-2/A-3: P(seat s dealt the ass) = |{p in 0..38: p mod n = s}| / 39, exactly.

    Each seat's count is compared with its binomial expectation; 4.5 standard deviations
    per seat keep the false-alarm chance below 1e-4 for the whole test, while a seat off by
    the smallest possible amount (1/39) would be more than 15 standard deviations away.
    """
    games = 60_000
    out = kernel.play_chunk(spec(players, seed=123), 0, games)
    counts = out["dealt_ass"].reshape(games, players).sum(axis=0)
    for seat in range(players):
        p = sum(1 for q in range(39) if q % players == seat) / 39
        sd = math.sqrt(games * p * (1 - p))
        assert abs(counts[seat] - games * p) < 4.5 * sd, (seat, counts[seat], games * p)


@pytest.mark.parametrize(
    "bad,message",
    [
        (spec(2), "3 to 12 players"),
        (spec(13), "3 to 12 players"),
        (spec(4, ("basic", "basic")), "one per seat"),
        (spec(4, ("nosuch",)), "unknown ass strategy"),
        (spec(4, seed=-1), "seed must be"),
        (spec(4, rules={"per_player": 10}), "fixed by the rulebook"),
        (spec(4, rules={"jokers": 3}), r"unknown Who's the Ass\? rules option"),
        (spec(4, mode="tournaments"), "unknown mode"),
        (spec(4, rules={"games_per_match": 3}), "applies to matches"),
        (spec(4, mode="matches", rules={"games_per_match": 0}), "between 1 and 1000"),
        (spec(4, mode="matches", rules={"games_per_match": "x"}), "whole number"),
        (RunSpec("jass", 4, ("basic",), 1), "plays 'ass'"),
    ],
)
def test_validate_rejects_bad_runs_with_a_clear_message(bad, message):
    with pytest.raises(CardlabError, match=message):
        kernel.validate(bad)


def test_validate_fills_mode_rules_and_seats():
    done = kernel.validate(spec(9, ("careful",)))
    assert done.mode == "games" and done.rules == {"per_player": 12}
    assert done.strategies == ("careful",) * 9
    assert kernel.validate(done) == done


def test_warmup_runs():
    kernel.warmup()
    kernel.warmup_tables()


def test_an_illegal_move_is_caught_and_reported(monkeypatch):
    """A family the engine does not dispatch plays an illegal code: the chunk stops there and
    the kernel names the seat, strategy and game."""
    from analyzer.engines.ass import engine

    n = 4
    families = np.array([0, 0, 99, 0], dtype=np.int64)
    params = np.zeros((n, 8))
    cols = [np.empty(n * 5, dtype=kernel.DTYPES[c]) for c in list(kernel.DTYPES)]
    bad = engine.run_chunk(1, 0, 5, n, 13, families, params, engine.canonical_deck(), *cols,
                           engine.variant_for(families))
    assert bad == 0  # the first game already reaches seat 2
    from analyzer.engines.ass import runspec

    # the run kernel plays the chunk, the records replay the game to name the seat
    monkeypatch.setattr(kernel, "engine_inputs", lambda spec, strategies=None: (families, params))
    monkeypatch.setattr(runspec, "engine_inputs", lambda spec, strategies=None: (families, params))
    with pytest.raises(RuntimeError, match=r"seat 2 made an illegal move in game seed=1"):
        kernel.play_chunk(spec(4), 0, 5)


def test_the_variant_is_chosen_from_the_families():
    from analyzer.engines.ass.engine import variant_for
    from strategies.registry import engine_arrays, parse_strategy

    def families(*texts):
        return engine_arrays([parse_strategy("ass", t) for t in texts])[0]

    assert variant_for(families("basic", "basic", "basic")) == (None, None)
    assert variant_for(families("basic", "random", "heuristic", "careful")) == (True, None)
    assert variant_for(families("basic", "pimc")) == (True, True)
    assert variant_for(families("peek", "basic", "basic")) == (True, True)


def test_each_variant_holds_only_its_families():
    """The variant for tables of basic alone reaches no other family, the one for tables
    without a search seat no search: a seat of such a family is illegal at once there, in
    single games and in matches. So the play loop asks them only through loop.checked_move
    (and the search only through its search_hook)."""
    from analyzer.engines.ass import engine
    from strategies.registry import engine_arrays, parse_strategy

    n = 4
    cases = [("heuristic", (None, None)), ("random", (None, None)), ("pimc", (True, None)),
             ("peek", (True, None))]
    for name, variant in cases:
        families, params = engine_arrays([parse_strategy("ass", t)
                                          for t in ("basic", name, "basic", "basic")])
        cols = [np.empty(n * 3, dtype=kernel.DTYPES[c]) for c in list(kernel.DTYPES)]
        bad = engine.run_chunk(1, 0, 3, n, 13, families, params, engine.canonical_deck(),
                               *cols, variant)
        assert bad == 0, name
        cols = [np.empty(n * 3, dtype=kernel.MATCH_DTYPES[c])
                for c in list(kernel.MATCH_DTYPES)[2:]]
        bad = engine.run_match_chunk(1, 0, 3, n, 13, 2, families, params,
                                     engine.canonical_deck(), *cols, variant)
        assert bad == 0, name
        good = engine.variant_for(families)
        bad = engine.run_chunk(1, 0, 3, n, 13, families, params, engine.canonical_deck(),
                               *[np.empty(n * 3, dtype=kernel.DTYPES[c])
                                 for c in list(kernel.DTYPES)], good)
        assert bad == -1, name


def test_search_is_compiled_only_into_the_search_variant():
    """loop.checked_move asks the search (the search_hook dispatch registers) only where its
    ``search`` argument is True: with None the search is not compiled at all; with True it is
    called through its address, its code not copied into the caller. Here a stand-in search,
    never compiled before, in an uncached copy of checked_move's code (so that the stand-in
    stays out of the disk cache) whose other families are stand-ins too (compiling every
    policy for the copy's types is not what is tested, and took seconds)."""
    from numba import njit

    from analyzer.engines.ass import engine  # noqa: F401 (registers the search)
    from analyzer.games.ass.cards import VIEW_LEN
    from analyzer.numba_compat import twin
    from strategies.ass import loop
    from strategies.ass.catalog import PIMC

    lead = (5 << 8) | (1 << 4)  # one 5, led: legal with a 5 in hand
    illegal = loop.ILLEGAL

    @njit
    def stand_in(fam, pp, view, rng, packed, trace):
        return lead

    @njit
    def other_families(fam, pp, view, rng):
        return -1  # no move

    @njit
    def unsearched(fam, params, seat, view, rng, packed, hand, table, gone, pos, k, high,
                   ass_round, may_lead_ass, starter, high_seat, rounds):
        return illegal

    probe = twin(loop._checked, "checked_probe", decide_other=other_families,
                 _checked_inline=unsearched)
    search = loop.SEARCH[0]
    loop.SEARCH[0] = stand_in  # what the hook's overload calls, typed from here on
    try:
        x = np.float32(1)  # a type the engine never uses: a fresh compile
        pp = (x, x, x, x, x, x, x, x)
        view = np.zeros(VIEW_LEN, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        packed = np.zeros(4, dtype=np.uint64)
        trace = np.zeros((1, 14), dtype=np.int64)
        hand = np.uint64(1 << 20)  # one 5
        zero = np.int64(0)
        args = (PIMC, pp, zero, view, rng, packed, hand, np.uint64(0), np.uint64(0), zero, zero,
                zero, zero, zero, zero, zero, zero, trace)
        checked = njit(_nrt=False)(probe)
        assert checked(None, *args) == loop.ILLEGAL
        assert stand_in.signatures == []  # not compiled for the variant without search
        assert checked(True, *args) == lead
        assert len(stand_in.signatures) == 1
        ir = checked.inspect_llvm(checked.signatures[1])
        assert "cardlab.compiled." in ir  # called through its address
        defined = [line for line in ir.splitlines() if line.startswith("define")]
        assert defined and not any("stand_in" in line for line in defined)  # not linked in
        assert "cardlab.compiled." not in checked.inspect_llvm(checked.signatures[0])
    finally:
        loop.SEARCH[0] = search


@pytest.mark.parametrize("players", range(3, 13))
def test_the_basic_alone_loop_plays_the_traced_loops_games(players):
    """A table of basic alone plays the default run in a loop of its own
    (engine._play_basic_alone: no sizes, no move record, no other family); the traced loop
    (the one the engine-vs-reference tests hold to the rules) must give the same games:
    final hands, rounds, ass rounds and who took them, for 150 games at each player count
    (A-5..A-10)."""
    from analyzer.engines.ass.engine import (
        TRACE_WIDTH,
        canonical_deck,
        score,
        trace_game,
        variant_for,
    )
    from analyzer.games.ass.cards import ASS

    run = kernel.validate(spec(players, seed=31 + players))
    out = kernel.play_chunk(run, 0, 150)
    families, params = kernel.engine_inputs(run)
    for g in range(150):
        trace = np.zeros((MAX_ROUNDS, TRACE_WIDTH), dtype=np.int64)
        dealt = np.zeros((players, 16), dtype=np.int64)
        final = np.zeros((players, 16), dtype=np.int64)
        rounds, ass_rounds, status, _ = trace_game(
            run.seed, g, players, run.rules["per_player"], families, params, canonical_deck(),
            dealt, trace, final, variant_for(families))
        assert status == -1
        taken = [0] * players
        for r in range(rounds):
            if trace[r, 2] >> 8 == ASS:  # an ass round: its winner took the cards
                taken[trace[r, 1]] += 1
        rows = slice(g * players, (g + 1) * players)
        minus = [score(np.uint64(sum(int(c) << (4 * k) for k, c in enumerate(h[:15]))))
                 for h in final]
        assert list(out["minus_points"][rows]) == minus, g
        assert list(out["cards_left"][rows]) == [int(h.sum()) for h in final], g
        assert list(out["ass_taken"][rows]) == taken, g
        assert (out["rounds"][rows] == rounds).all()
        assert (out["ass_rounds"][rows] == ass_rounds).all()


_PURE_PYTHON_RUN = """
import json
from analyzer.engines.ass import kernel
from analyzer.engines.kernel import RunSpec
plain = kernel.play_chunk(RunSpec("ass", 4, PLAIN_FIELD, seed=8, mode="games"), 0, 6)
search = kernel.play_chunk(RunSpec("ass", 4, SEARCH_FIELD, seed=8, mode="games"), 0, 2)
print(json.dumps({"plain": plain["minus_points"].tolist(),
                  "search": search["minus_points"].tolist()}))
"""
PLAIN_FIELD = ("careful", "random", "basic", "careful")
SEARCH_FIELD = ("pimc:worlds=2", "basic", "random", "careful")  # the loop's search variant


def test_pure_python_mode_gives_identical_results():
    """Under NUMBA_DISABLE_JIT=1 (coverage, debugging) the same code gives the same games as
    the compiled kernels, a search seat's included (the play loop reaches the search through
    the hook strategies/ass/dispatch.py registers, in plain Python as when compiled)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    script = f"PLAIN_FIELD = {PLAIN_FIELD!r}\nSEARCH_FIELD = {SEARCH_FIELD!r}\n" + _PURE_PYTHON_RUN
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", script], env=env,
                         cwd=Path(__file__).resolve().parent.parent, capture_output=True,
                         text=True, check=True, timeout=120)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    plain = kernel.play_chunk(RunSpec("ass", 4, PLAIN_FIELD, seed=8, mode="games"), 0, 6)
    search = kernel.play_chunk(RunSpec("ass", 4, SEARCH_FIELD, seed=8, mode="games"), 0, 2)
    assert got == {"plain": plain["minus_points"].tolist(),
                   "search": search["minus_points"].tolist()}

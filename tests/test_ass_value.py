"""The value model of Who's the Ass? (strategies/ass/value.py), the evaluation of
``pimc:rollout=value``: its Python twin, its leaves against the engine's own loop, its
weights file, its training, and its place among pimc's knobs.

(The search with it is held to the reference engine, the rules check and the no-peeking
property in tests/test_ass_pimc.py, with the other pimc configurations.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer.games.ass.cards import PUB_PLAYERS, PUB_SIZES, VIEW_LEN
from analyzer.games.ass.moves import U0
from analyzer.learn.ass_value import fit, inputs, leaves
from strategies.ass.catalog import (
    PIMC,
    SLOT_ROLLOUT,
    VALUE,
    VALUE_CODE,
    VALUE_LATE_LEADS,
    encode_rollout,
)
from strategies.ass.policies import basic_packed
from strategies.ass.rollout import NO_BLOCK, OK, START, play_on
from strategies.ass.value import (
    HIDDEN,
    W1,
    finish_round,
    inputs_py,
    value,
    value_py,
)
from strategies.ass.value_weights import MODEL, ROW, ROWS, pack, unpack
from strategies.registry import StrategyError, parse_strategy

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("players", [3, 4, 6, 9, 12])
def test_value_matches_its_python_twin_and_reads_the_inputs_the_training_builds(players):
    hands, meta, labels = leaves(players, 0, 3, 7, 400)
    assert len(labels) > 50
    x = inputs(hands, meta)
    assert x.shape[1] == 40 + 17 * players
    for i in range(0, len(labels), 7):
        me, lead, barred = (int(v) for v in meta[i, [3, 1, 2]])
        hs = [int(h) for h in hands[i]]
        assert inputs_py(hs, me, lead, barred) == pytest.approx(list(x[i]), abs=1e-5)
        fast = value(hands[i], players, me, lead, barred)
        assert fast == pytest.approx(value_py(hs, me, lead, barred), rel=1e-9, abs=1e-9)
    assert W1[players].any(), "the shipped weights cover every player count"


def _after_basic(packed, n, starter, pos, k, high, high_seat, ass_round, table, gone, blocked,
                 rounds):
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    view[PUB_PLAYERS] = n
    for s in range(n):
        view[PUB_SIZES + s] = sum((int(packed[s]) >> (4 * q)) & 15 for q in range(16))
    rng = np.zeros(1, dtype=np.uint64)
    status, _ = play_on(packed, n, np.int64(0), (0.0,) * 8, view, rng, np.uint64(gone),
                        np.uint64(table), starter, blocked, pos, k, high, high_seat, ass_round,
                        rounds)
    assert status == OK
    return [int(h) for h in packed]


@pytest.mark.parametrize("players", [3, 4, 6, 8])
def test_a5_a9_finish_round_plays_the_round_as_the_engines_loop_does(players):
    """A leaf's round is finished by basic exactly as the play loop finishes it: playing on
    with basic from the leaf's next round gives the hands basic gives from the middle of the
    round (A-5..A-9: passes, the 14 that nothing beats, an ass round's taker, the end)."""
    rng = np.random.default_rng(players)
    hands, meta, _ = leaves(players, 0, 4, 11, 2000)
    checked = 0
    for i in rng.choice(len(hands), 60, replace=False):
        packed = hands[i].copy()
        starter = int(meta[i, 1])
        blocked = int(meta[i, 2])
        may = 1 if (int(packed[starter]) & 15) and starter != blocked else 0
        lead = basic_packed(packed[starter], 0, 0, may, 0, 0)
        from analyzer.games.ass.moves import move_delta

        delta = np.uint64(move_delta(lead))
        packed[starter] -= delta
        high = lead >> 8
        ass_round = 1 if high == 0 else 0
        k = 1 if ass_round else ((lead >> 4) & 15) + (lead & 15)
        cur = packed.copy()
        rview = np.zeros(VIEW_LEN, dtype=np.int64)
        over, nxt, nblocked, gone = finish_round(cur, players, starter, 1, k, high, starter,
                                                 ass_round, delta, U0, np.int64(0), (0.0,) * 8,
                                                 rview, np.zeros(1, np.uint64), np.int64(0))
        direct = _after_basic(packed.copy(), players, np.int64(starter), np.int64(1),
                              np.int64(k), np.int64(high), np.int64(starter), np.int64(ass_round),
                              delta, U0, NO_BLOCK, START)
        if over:
            assert any(h == 0 for h in cur)
            assert [int(h) for h in cur] == direct
        else:
            on = _after_basic(cur.copy(), players, np.int64(nxt), START, START, START,
                              np.int64(nxt), START, U0, gone, np.int64(nblocked), np.int64(1))
            assert on == direct
        checked += 1
    assert checked == 60


def test_rollout_value_is_pimcs_default_and_pimc_rollouts_is_pimc_as_it_was():
    s = parse_strategy("ass", "pimc:rollout=value")
    assert s.family == PIMC and int(s.values[SLOT_ROLLOUT]) >> 48 == VALUE
    assert s.label() == "pimc" and s.values == parse_strategy("ass", "pimc").values
    old = parse_strategy("ass", "pimc-rollouts")
    assert old.values == parse_strategy(
        "ass", "pimc:worlds=128,rollout=basic,infer=policy,candidates=10,oversample=2,eps=1"
    ).values
    assert old.identity() != s.identity()
    with pytest.raises(StrategyError, match="unknown ass strategy .value."):
        parse_strategy("ass", "value")
    assert encode_rollout("value") == float((VALUE << 48) + VALUE_LATE_LEADS) == VALUE_CODE
    assert encode_rollout("value-only") == float(VALUE << 48)
    only = parse_strategy("ass", "pimc:rollout=value-only")
    assert only.label() == "pimc:rollout=value-only" and only.identity() != s.identity()
    # both read the value model's weights and the linear model that finishes its rounds
    from analyzer.runner.manifest import reads_pinned_weights, reads_value_weights

    for strategy in (s, only):
        assert reads_value_weights(strategy) and reads_pinned_weights(strategy) == "knob"
    from strategies.ass.catalog import VALUE_CODES
    from strategies.ass.learned_weights import LINEAR_READERS

    assert set(VALUE_CODES) <= set(LINEAR_READERS)
    assert not reads_value_weights(old)
    with pytest.raises(StrategyError, match="'value': the value model"):
        parse_strategy("ass", "pimc:rollout=valeu")


def _leads_py(hand: int) -> int:
    """The leads a packed hand needs to go out: its values, the ass one more, jokers none."""
    counts = [(hand >> (4 * k)) & 15 for k in range(15)]
    return sum(1 for v in range(1, 14) if counts[v]) + counts[0]


@pytest.mark.parametrize("players", [4, 6])
def test_near_the_end_a_leaf_is_the_finishers_exact_play_out(players):
    """rollout=value: after the leaf's round, a game whose next leader can go out with one
    lead is played to its end by the finisher (learned-linear) and scored exactly (A-9,
    A-10); otherwise, and always with value-only, the network values the next round's start."""
    from strategies.ass.value import FINISHER, FINISHER_PP, leaf_value, near_end

    hands, meta, _ = leaves(players, 0, 4, 11, 3000)
    near = far = 0
    for i in range(len(hands)):
        packed = hands[i]
        me, lead = int(meta[i, 3]), int(meta[i, 1])
        end = _leads_py(int(packed[lead]))
        assert near_end(packed, np.int64(lead), 1) == (end <= 1)
        assert near_end(packed, np.int64(lead), 0) == (end == 0)
        if end == 0 or any(h == 0 for h in packed):
            continue
        rview = np.zeros(VIEW_LEN, dtype=np.int64)
        rview[PUB_PLAYERS] = players
        for s in range(players):
            rview[PUB_SIZES + s] = sum((int(packed[s]) >> (4 * q)) & 15 for q in range(16))
        # the leaf: a round that has ended (pos = players, nothing on the table), so the
        # state handed on is the next round's start, led by ``lead``
        args = (players, me, np.int64(lead), np.int64(players), np.int64(1), np.int64(1),
                np.int64(lead), np.int64(0), U0, U0)
        cur = packed.copy()
        got = leaf_value(cur, *args, rview.copy(), np.zeros(1, np.uint64), np.int64(3),
                         np.float64(1.0))
        only = leaf_value(packed.copy(), *args, rview.copy(), np.zeros(1, np.uint64),
                          np.int64(3), np.float64(0.0))
        # (a normal round that has ended blocks nobody from leading the ass next: A-8)
        assert only == value(packed, players, me, lead, np.int64(-1))
        if end == 1:
            played = packed.copy()
            status, _ = play_on(played, players, np.int64(FINISHER), FINISHER_PP, rview.copy(),
                                np.zeros(1, np.uint64), U0, U0, np.int64(lead), NO_BLOCK,
                                START, START, START, np.int64(lead), START, np.int64(4))
            assert status == OK and any(h == 0 for h in played)
            minus = sum(v * ((int(played[me]) >> (4 * v)) & 15) for v in range(1, 14)) + (
                20 * (int(played[me]) & 15) + 14 * ((int(played[me]) >> 56) & 15))
            assert got == float(minus)
            near += 1
        else:
            assert got == only
            far += 1
    assert near > 10 and far > 10


def test_the_analysis_plays_a_won_endgame_out_instead_of_breaking_the_set():
    """Leading 1 10 10 10's three 10s ends the game for its holder in most worlds (it leads
    its 1 next); the value network alone preferred leading one 10. With the endgame played
    out the analysis says so, as learned-linear playing every world to the end does."""
    from analyzer.analysis import ass

    pos = ass.typed(4, 0, "1 10 10 10", "4,5,6,4", None, None, ["2:A"], False, None, None)
    rows = ass.analyze(pos, 600, 3)["moves"]
    assert rows[0]["move"] == "10 10 10" and rows[0]["value"] < 1.5
    played = ass.analyze(pos, 600, 3, continuation="learned-linear")["moves"]
    assert played[0]["move"] == "10 10 10"
    only = {r["move"]: r["value"] for r in
            ass.analyze(pos, 600, 3, continuation="value-only")["moves"]}
    assert only["10 10 10"] - rows[0]["value"] > 3.0  # the rule is what changed it


def _write(tmp_path, text, name="v.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _cli(args, env_file):
    env = {**os.environ, "CARDLAB_VALUE_ASS": str(env_file)}
    return subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def test_a_bad_value_weights_file_stops_pimc_rollout_value_with_one_line(tmp_path):
    doc = json.loads((ROOT / "strategies/ass/value.json").read_text(encoding="utf-8"))
    rows = np.array(doc["weights"])
    rows[5] = 0.0  # no weights for 5 players
    partial = _write(tmp_path, MODEL.text(rows, doc["provenance"]), "partial.json")
    corrupt = _write(tmp_path, "{not json", "corrupt.json")
    for path, words in ((partial, "has no weights for 5 players"), (corrupt, "is corrupt"),
                        (tmp_path / "missing.json", "is missing")):
        done = _cli(["simulate", "ass", "--players", "4", "--games", "2", "-s",
                     "pimc:rollout=value,worlds=2", "-s", "basic", "-s", "basic", "-s", "basic"],
                    path)
        assert done.returncode == 2, done.stderr
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and words in lines[0] and "value weights file" in lines[0]
        assert "train_value.py" in lines[0] or "missing" in lines[0]


def test_pack_and_unpack_are_inverse():
    rng = np.random.default_rng(3)
    flat = rng.normal(size=(ROWS, ROW))
    assert np.array_equal(pack(*unpack(flat)), flat)


def test_the_fit_is_the_same_bit_for_bit_and_learns_the_differences_within_a_decision():
    hands, meta, labels = leaves(4, 0, 40, 5, 6000)
    x = inputs(hands, meta)
    a = fit(x, labels, meta[:, 0], 9, 4, epochs=2)
    b = fit(x, labels, meta[:, 0], 9, 4, epochs=2)
    for u, v in zip(a, b, strict=True):
        assert np.array_equal(np.asarray(u), np.asarray(v))
    assert np.asarray(a[0]).shape == (x.shape[1], HIDDEN)


def test_train_value_script_refuses_bad_input_in_one_line_before_any_work(tmp_path):
    script = ROOT / "scripts/train_value.py"
    existing = _write(tmp_path, "{}", "there.json")
    for args, words in ((["--players", "2-5"], "--players must lie within 3-12"),
                        (["--players", "four"], "--players must be counts"),
                        (["--leaves", "10"], "--leaves must be at least 1000"),
                        (["--out", str(existing)], "exists; add --force"),
                        (["--out", str(tmp_path / "no/such/v.json")], "no folder")):
        done = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2, (args, done.stderr)
        assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert existing.read_text() == "{}"


def test_a_run_of_pimc_records_the_value_weights_it_reads_and_a_replay_under_others_is_refused(
        tmp_path):
    """pimc (rollout=value) reads the value model and, finishing its rounds, learned's linear
    model (learned-linear): the plan records both files' sha256, and a replay under other
    value weights is one line."""
    import analyzer.engines.ass.kernel as kernel
    from analyzer.cli.runs import check_recorded_weights
    from analyzer.engines.kernel import RunSpec
    from analyzer.errors import CardlabError
    from analyzer.runner.manifest import build_plan, weights_in_use

    spec = RunSpec("ass", 4, ("pimc:worlds=2", "basic", "basic", "basic"), 1)
    plan = build_plan(spec, kernel, 0, 10, "rows")
    assert plan["value_weights"] == {"ass": weights_in_use("ass", "value")[0]}
    assert plan["linear_weights"] == {"ass": weights_in_use("ass", "linear")[0]}
    assert "weights" not in plan  # the network is not read
    check_recorded_weights(plan, tmp_path)  # the weights in use: fine
    for edited in ({**plan, "value_weights": {"ass": "0" * 64}},
                   {k: v for k, v in plan.items() if k != "value_weights"}):
        with pytest.raises(CardlabError, match="value weights") as err:
            check_recorded_weights(edited, tmp_path)
        assert "CARDLAB_VALUE_ASS" in str(err.value) and "\n" not in str(err.value)
    old = RunSpec("ass", 4, ("pimc-rollouts", "basic", "basic", "basic"), 1)
    assert "value_weights" not in build_plan(old, kernel, 0, 10, "rows")

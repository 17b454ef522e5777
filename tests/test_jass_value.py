"""The value model of Plus-Minus Jass (strategies/jass/value.py), the evaluation of
``pimc:rollout=value``: its Python twin, its leaves, its weights file, its training, and its
place among pimc's knobs.

(The search with it is held to the reference engine, the rules check and the no-peeking
property in tests/test_jass_search.py, with the other pimc configurations.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_jass_search import random_position  # tests/ is on sys.path

from analyzer.games.jass.primitives import S_LEADER, S_POS, S_TRICK, ST_SIZE, legal_mask
from analyzer.learn.ass_value import fit
from analyzer.learn.jass_value import input_rows, leaf_state, leaves
from strategies.jass.knobs import FAM_PIMC, P_ROLLOUT, ROLLOUT_CHOICES, VALUE_ROLLOUT
from strategies.jass.play import to_move
from strategies.jass.value import (
    B1,
    B2,
    INPUTS,
    LATE,
    W1,
    W2,
    finish_trick,
    inputs_py,
    value,
    value_py,
)
from strategies.jass.value_weights import MODEL, ROW, ROWS, pack, row_of, unpack
from strategies.registry import StrategyError, parse_strategy

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("players", [3, 4])
def test_value_matches_its_python_twin_and_reads_the_inputs_the_training_builds(players):
    hands, taken, meta, labels = leaves(players, 0, 3, 7, 400)
    assert len(labels) > 50
    assert set(np.unique(labels)) <= {0, 1, 2}
    x = input_rows(hands, taken, meta)
    assert x.shape[1] == INPUTS
    assert (meta[:, 2] >= 0).any() and (meta[:, 2] < 0).any()  # trump fixed and still open
    r = row_of(players)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    for i in range(0, len(labels), 5):
        seat, trump, leader, trick = (int(v) for v in meta[i, 1:5])
        hs = [int(h) for h in hands[i]]
        ts = [int(t) for t in taken[i]]
        xs = inputs_py(seat, hs, ts, players, trump, leader, trick)
        assert xs == pytest.approx(list(x[i]), abs=1e-6)  # the training's are float32
        leaf_state(meta[i], st)
        fast = value(seat, hands[i], taken[i], st)
        assert fast == pytest.approx(value_py(seat, hs, ts, players, trump, leader, trick),
                                     rel=1e-9, abs=1e-9)
        dense = np.maximum(np.array(xs) @ W1[r] + B1[r], 0.0) @ W2[r] + B2[r]
        assert fast == pytest.approx(dense, rel=1e-9, abs=1e-9)
    assert W1[r].any(), "the shipped weights cover every player count"


@pytest.mark.parametrize("players", [3, 4])
def test_j7_finish_trick_plays_learned_to_the_end_of_the_trick(players):
    """A leaf's trick is finished by learned-leaf's cards (the twin, written apart, under
    learned-leaf.json's weights) and ends where the trick ends (J-7: the winner leads next)."""
    from analyzer.engines.jass import engine
    from strategies.jass.learned import LEAF_WEIGHTS, choose_py

    checked = 0
    for seed in range(40):
        hands, played, taken, st, _ = random_position(seed, players, "seed", 1 + seed % 9)
        if st[S_POS] == 0:
            continue
        h2, p2, t2, st2 = hands.copy(), played.copy(), taken.copy(), st.copy()
        finish_trick(h2, p2, t2, st2, np.zeros(1, dtype=np.uint64))
        assert st2[S_POS] == 0 and st2[S_TRICK] == st[S_TRICK] + 1
        h3, p3, t3, st3 = hands.copy(), played.copy(), taken.copy(), st.copy()
        while st3[S_POS] != 0:
            seat = to_move(st3)
            card = choose_py(seat, h3[seat], legal_mask(h3[seat], st3), st3, p3, t3,
                             LEAF_WEIGHTS)
            engine.play_card(seat, card, h3, p3, t3, st3)
        assert [int(v) for v in h2] == [int(v) for v in h3]
        assert [int(v) for v in t2] == [int(v) for v in t3]
        assert st2[S_LEADER] == st3[S_LEADER]
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("players", [3, 4])
def test_a_leaf_is_labelled_with_what_learned_play_to_the_end_brings_the_decider(players):
    """The leaf of learned's own card (learned finishing its trick) is the very position of the
    deal the engine plays with learned-leaf (the model the value leaves play) in every seat
    (the same seed and index), and its label
    is the decider's sticks (J-9) of that deal: the data follows the game, and a label is
    learned play to the end."""
    from analyzer.engines.jass.kernel import play_chunk
    from analyzer.engines.kernel import RunSpec

    deals = 6
    hands, taken, meta, labels = leaves(players, 0, deals, 13, 10_000)
    run = play_chunk(RunSpec("jass", players, ("learned-leaf",) * players, 13, mode="deals"),
                     0, deals)
    sticks = {(int(i), int(s)): int(v)
              for i, s, v in zip(run["index"], run["seat"], run["sticks"], strict=True)}
    own = meta[:, 8] == 1
    assert own.sum() >= 50
    for row in np.flatnonzero(own):
        assert labels[row] == sticks[(int(meta[row, 9]), int(meta[row, 1]))]


def test_rollout_value_is_a_rollout_choice_that_needs_both_weights_files():
    s = parse_strategy("jass", "pimc:rollout=value")
    assert s.family == FAM_PIMC and int(s.values[P_ROLLOUT]) == VALUE_ROLLOUT
    assert ROLLOUT_CHOICES[VALUE_ROLLOUT] == "value"
    with pytest.raises(StrategyError, match="unknown jass strategy .value."):
        parse_strategy("jass", "value")


def _write(tmp_path, text, name="v.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _cli(args, env_file):
    env = {**os.environ, "CARDLAB_VALUE_JASS": str(env_file)}
    env.pop("CARDLAB_NUMBA_CACHE", None)
    env.pop("NUMBA_CACHE_DIR", None)
    return subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def test_a_bad_value_weights_file_stops_pimc_rollout_value_with_one_line(tmp_path):
    doc = json.loads((ROOT / "strategies/jass/value.json").read_text(encoding="utf-8"))
    rows = np.array(doc["weights"])
    rows[0] = 0.0  # no weights for 3 players
    partial = _write(tmp_path, MODEL.text(rows, doc["provenance"]), "partial.json")
    corrupt = _write(tmp_path, "{not json", "corrupt.json")
    for path, words in ((partial, "has no weights for 3 players"), (corrupt, "is corrupt"),
                        (tmp_path / "missing.json", "is missing")):
        # named, and as plain pimc's default evaluation
        for strategy in ("pimc:rollout=value,worlds=2", "pimc:worlds=2"):
            done = _cli(["simulate", "jass", "--deals", "2", "-s", strategy], path)
            assert done.returncode == 2, done.stderr
            lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
            assert len(lines) == 1 and words in lines[0] and "value weights file" in lines[0]
            assert "train_value.py --game jass" in lines[0] or "missing" in lines[0]


def test_pack_and_unpack_are_inverse():
    rng = np.random.default_rng(3)
    flat = rng.normal(size=(ROWS, ROW))
    assert np.array_equal(pack(*unpack(flat)), flat)


def test_leaves_lie_between_tricks_and_the_fit_is_the_same_bit_for_bit():
    hands, taken, meta, labels = leaves(4, 0, 30, 5, 5000)
    assert (9 - meta[:, 4] > LATE).all()  # the last tricks are played out exactly, not kept
    # between tricks: the cards held and won add up to the deck, every hand as long
    for i in range(0, len(labels), 11):
        cards = [int(h) for h in hands[i]] + [int(t) for t in taken[i]]
        assert sum(bin(c).count("1") for c in cards) == 36
        assert {bin(int(h)).count("1") for h in hands[i]} == {9 - int(meta[i, 4])}
    x = input_rows(hands, taken, meta)
    a = fit(x, labels, meta[:, 0], 9, 4, epochs=2, hidden=8)
    b = fit(x, labels, meta[:, 0], 9, 4, epochs=2, hidden=8)
    for u, v in zip(a, b, strict=True):
        assert np.array_equal(np.asarray(u), np.asarray(v))
    assert np.asarray(a[0]).shape == (INPUTS, 8)


def test_train_value_script_refuses_bad_jass_input_in_one_line_before_any_work(tmp_path):
    script = ROOT / "scripts/train_value.py"
    for args, words in ((["--game", "jass", "--players", "3-5"], "--players must lie within 3-4"),
                        (["--game", "jass", "--finisher", "basic"], "always finished by learned"),
                        (["--game", "jass", "--leaves", "10"], "--leaves must be at least")):
        done = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2, (args, done.stderr)
        assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("players", [3, 4])
def test_the_analysis_values_cards_as_the_search_does_with_the_value_model(players):
    """With ``--continuation value`` the analysis reads the search's own leaves: its value of
    a card is the search's (search_values, the same worlds), and the evaluation graph's point
    of the mover is the analysis's value, to the bit; every seat gets an estimate."""
    from analyzer.analysis import jass
    from analyzer.analysis.timeline import jass_step
    from analyzer.engines.jass.records import trace_record
    from analyzer.engines.kernel import RunSpec
    from analyzer.rng import new_state, seed_state
    from strategies.jass.search import search_values

    record = trace_record(RunSpec("jass", players, ("learned",) * players, 3, mode="deals"), 0)
    checked = 0
    for move in (0, 5, 13, 22):
        pos = jass.from_record(record, 0, move)
        cards = jass.legal_cards(pos)
        if len(cards) < 2:
            continue
        prm = jass.pimc_prm(24, "value")
        sticks, _, weights = jass.outcomes(pos, cards, 24, 7, 0, tuple(prm))
        assert (weights == 1).all() and sticks.dtype == np.float64
        rng = new_state()
        seed_state(rng, 7, 0, jass.WORLD_STREAM)
        cands = np.zeros(12, dtype=np.int64)
        scores = np.zeros(12)
        squares = np.zeros(12)
        legal = np.uint64(sum(1 << c for c in cards))
        nc, total = search_values(prm, pos.seat, np.uint64(pos.hand), legal, pos.st.copy(),
                                  pos.played.copy(), pos.taken.copy(), rng,
                                  np.zeros(4, np.uint64), False, cands, scores, squares)
        assert nc == len(cards) and total == 24
        for ci in range(nc):
            i = cards.index(int(cands[ci]))
            assert scores[ci] == pytest.approx(sticks[:, i].sum(), rel=1e-12, abs=1e-12)
        rng = new_state()
        seed_state(rng, 7, 0, jass.WORLD_STREAM)
        every, _, _ = jass_step(prm, pos.seat, np.uint64(pos.hand), pos.st.copy(),
                                pos.played.copy(), pos.taken.copy(), rng, cards[0])
        assert np.array_equal(every[:, pos.seat], sticks[:, 0])
        assert every.shape == (24, players)
        checked += 1
    assert checked >= 2


def test_a_run_of_pimc_rollout_value_records_both_weights_and_a_replay_under_others_is_refused(
        tmp_path):
    """pimc:rollout=value reads the value model and, finishing its tricks, learned-leaf: the
    plan records both files' sha256 (not learned.json's, which it does not read), and a
    replay under other value or leaf weights is one line; pimc-rollouts (aim-low rollouts)
    records neither."""
    import analyzer.engines.jass.kernel as kernel
    from analyzer.cli.runs import check_recorded_weights
    from analyzer.engines.kernel import RunSpec
    from analyzer.errors import CardlabError
    from analyzer.runner.manifest import build_plan, weights_in_use

    spec = RunSpec("jass", 3, ("pimc:rollout=value,worlds=2", "aim-low", "basic"), 1,
                   mode="deals")
    plan = build_plan(spec, kernel, 0, 10, "rows")
    assert plan["value_weights"] == {"jass": weights_in_use("jass", "value")[0]}
    assert plan["leaf_weights"] == {"jass": weights_in_use("jass", "pinned")[0]}
    assert "weights" not in plan
    check_recorded_weights(plan, tmp_path)  # the weights in use: fine
    with pytest.raises(CardlabError, match="leaf learned weights") as err:
        check_recorded_weights({**plan, "leaf_weights": {"jass": "0" * 64}}, tmp_path)
    assert "CARDLAB_LEARNED_JASS_LEAF" in str(err.value) and "\n" not in str(err.value)
    for edited in ({**plan, "value_weights": {"jass": "0" * 64}},
                   {k: v for k, v in plan.items() if k != "value_weights"}):
        with pytest.raises(CardlabError, match="value weights") as err:
            check_recorded_weights(edited, tmp_path)
        assert "CARDLAB_VALUE_JASS" in str(err.value) and "\n" not in str(err.value)
    plain = build_plan(RunSpec("jass", 3, ("pimc-rollouts", "aim-low", "basic"), 1,
                               mode="deals"), kernel, 0, 10, "rows")
    assert not {"value_weights", "weights", "leaf_weights"} & set(plain)
    default = build_plan(RunSpec("jass", 3, ("pimc", "aim-low", "basic"), 1, mode="deals"),
                         kernel, 0, 10, "rows")  # pimc's default rollout is the value model
    assert default["value_weights"] == plan["value_weights"]
    assert default["leaf_weights"] == plan["leaf_weights"]

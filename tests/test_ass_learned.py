"""The ``learned`` family of Who's the Ass? (its network, ``learned``, and its linear model of
before, ``learned-linear``): no peeking, engine against reference, the plain-Python twins,
training determinism, the weights files' checks, the decision data's run folder, and
(seed, index) reproducibility whatever the chunking."""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from analyzer.engines.ass.records import Tracer
from analyzer.engines.ass.reference import Player, Table, deal, dealt_known, play_from, play_record
from analyzer.engines.kernel import RunSpec
from analyzer.games.ass.cards import JOKER, SCRATCH
from analyzer.games.ass.rules import AssRules
from analyzer.learn.ass_decisions import fit_weights, play_games, run_decisions
from analyzer.learn.ridge import fit
from analyzer.rng import PyRng
from analyzer.runner.api import collect
from analyzer.runner.folder import RunFolder
from strategies.ass import learned
from strategies.ass import learned_weights as lw
from strategies.registry import parse_strategy, seat_strategies


class _Spy(Player):
    """A learned seat of the reference engine that keeps a copy of the table at each of its
    decisions (to build other deals that agree on what it knows)."""

    def __init__(self, strategy, rng, seen):
        super().__init__(strategy, rng)
        self.seen = seen

    def move(self, table, turn, starter, high_seat, on_table):
        self.seen.append((copy.deepcopy(table), copy.copy(turn), starter, high_seat,
                          list(on_table)))
        return super().move(table, turn, starter, high_seat, on_table)


def _decisions(seed, games, players=4):
    seen = []
    rules = AssRules.for_players(players)
    for index in range(games):
        rng = PyRng(seed, index, 0)
        hands, ass_seat = deal(rules, rng)
        table = Table(rules, hands, known=dealt_known(players, ass_seat))
        seats = [_Spy(parse_strategy("ass", "learned"), rng, seen) for _ in range(players)]
        play_from(table, seats, ass_seat)
    return seen


def _other_deal(table, seat, rnd):
    """The same table with the cards the decider cannot see dealt again among the others:
    each keeps its size and the cards the public record shows it holds."""
    other = copy.deepcopy(table)
    n = table.rules.players
    others = [s for s in range(n) if s != seat]
    free = {s: [table.hands[s][k] - table.known[s][k] for k in range(JOKER + 1)] for s in others}
    cards = [k for s in others for k in range(JOKER + 1) for _ in range(free[s][k])]
    rnd.shuffle(cards)
    for s in others:
        size = sum(free[s])
        other.hands[s] = list(table.known[s])
        for k in cards[:size]:
            other.hands[s][k] += 1
        cards = cards[size:]
    return other


def test_no_peeking_deals_that_agree_on_the_deciders_information_give_the_same_decision():
    """A-11: features and decision depend on the decider's information only."""
    rnd = random.Random(5)
    checked = differ = 0
    for table, turn, starter, high_seat, on_table in _decisions(31, 6):
        view = table.view(turn, starter, high_seat, on_table)
        other = _other_deal(table, turn.seat, rnd)
        differ += other.hands != table.hands
        view2 = other.view(turn, starter, high_seat, on_table)
        moves = learned.candidates_py(view)
        for move in moves:
            a = np.zeros(learned.N_FEATURES)
            b = np.zeros(learned.N_FEATURES)
            learned.features(view, move, a, 0)
            learned.features(view2, move, b, 0)
            assert np.array_equal(a, b)
        assert learned.choose_net(view.copy(), learned.KERNEL_WEIGHTS, 2.0) == \
            learned.choose_net(view2.copy(), learned.KERNEL_WEIGHTS, 2.0)
        assert learned.choose(view.copy(), learned.LINEAR_KERNEL_WEIGHTS, 0.0) == \
            learned.choose(view2.copy(), learned.LINEAR_KERNEL_WEIGHTS, 0.0)
        checked += 1
    assert checked > 100 and differ > 50  # the other deals really differ


def test_jitted_features_and_choice_agree_with_the_python_twin():
    rnd = np.random.default_rng(3)
    weights = rnd.normal(size=lw.PHASES * lw.N_FEATURES)  # any weights, not just the shipped
    for table, turn, starter, high_seat, on_table in _decisions(32, 4, players=5):
        view = table.view(turn, starter, high_seat, on_table)
        m = learned.candidates(view)
        assert list(view[SCRATCH:SCRATCH + m]) == learned.candidates_py(view)
        for move in learned.candidates_py(view):
            out = np.zeros(learned.N_FEATURES)
            learned.features(view, move, out, 0)
            assert list(out) == learned.features_py(view, move)
        for hold in (0.0, 1.5):
            assert learned.choose(view.copy(), weights, hold) == learned.choose_py(view, weights,
                                                                                   hold)


def test_the_inputs_the_network_skips_are_zero_for_every_move_of_the_decision():
    """learned.DANGER_INPUTS: where no opponent holds 2 cards or fewer (no_danger), those
    inputs are 0.0 for every candidate, so choose_net leaves out nothing that counts; both
    kinds of decision occur."""
    skipped = [d for d in range(learned.N_FEATURES) if learned.DANGER_INPUTS >> d & 1]
    assert skipped == list(range(learned.BASE, 2 * learned.BASE))
    kinds = set()
    for players in (4, 6):
        for table, turn, starter, high_seat, on_table in _decisions(41, 6, players=players):
            view = table.view(turn, starter, high_seat, on_table)
            calm = learned.no_danger(view)
            kinds.add(calm)
            if not calm:
                continue
            for move in learned.candidates_py(view):
                out = np.zeros(learned.N_FEATURES)
                learned.features(view, move, out, 0)
                assert (out[skipped] == 0.0).all()
    assert kinds == {True, False}


def test_the_jitted_network_chooses_as_its_python_twin_with_any_weights():
    """The network (kernel layout, subnormal entries zero) against the twin (the file's
    layout), on weights drawn at random and on the shipped ones; the shipped weights are
    those the kernels play (learned_weights.kernel_layout of the file's)."""
    rnd = np.random.default_rng(4)
    drawn = rnd.normal(size=lw.PHASES * lw.N_PARAMS) * 0.3
    drawn[::97] = 1e-310  # subnormal entries: zero in the kernels, the same choices
    checked = 0
    for flat in (drawn, lw.WEIGHTS):
        kernel = lw.kernel_layout(flat)
        for table, turn, starter, high_seat, on_table in _decisions(33, 4, players=5):
            view = table.view(turn, starter, high_seat, on_table)
            for hold in (0.0, 2.0):
                assert learned.choose_net(view.copy(), kernel, hold) == learned.choose_net_py(
                    view, flat, hold)
            checked += 1
    assert checked > 200
    assert np.array_equal(lw.KERNEL_WEIGHTS, lw.kernel_layout(lw.WEIGHTS))
    w = lw.WEIGHTS.reshape(lw.PHASES, lw.N_PARAMS)
    k = lw.KERNEL_WEIGHTS.reshape(lw.PHASES, lw.N_PARAMS)
    for h, d in ((0, 0), (5, 17), (31, 53)):  # in[h, d]: unit by unit in the file, input by input
        assert k[1, d * lw.HIDDEN + h] == w[1, h * lw.N_FEATURES + d] or abs(
            w[1, h * lw.N_FEATURES + d]) < 2.3e-308


def test_learned_linear_is_the_linear_model_and_reads_its_own_file():
    """model=linear plays the linear weights (learned-linear.json), the network's file is not
    read for it; the policy pimc's value model finishes rounds with is that model."""
    from strategies.ass.value import FINISHER_PP

    linear = parse_strategy("ass", "learned-linear")
    assert linear.values[learned.SLOT_MODEL] == learned.MODEL_LINEAR
    assert FINISHER_PP[learned.SLOT_MODEL] == learned.MODEL_LINEAR
    assert parse_strategy("ass", "learned").values[learned.SLOT_MODEL] == 0.0
    assert "(weights " + lw.LINEAR.digest(lw.LINEAR_WEIGHTS)[:12] in linear.spec.description
    for table, turn, starter, high_seat, on_table in _decisions(34, 3):
        view = table.view(turn, starter, high_seat, on_table)
        assert learned.learned(np.array(linear.values), view.copy(), np.zeros(4, np.uint64)) \
            == learned.choose_py(view, lw.LINEAR_WEIGHTS)


def test_hold_raises_passings_score_so_the_network_passes_less():
    """``hold``: passing's score raised by that many minus points. hold=0 passes where the
    network says so; the default (2) passes less; 63 practically never while a raise is legal;
    a pass with no raise legal is still played."""
    from analyzer.games.ass.cards import PASS

    default = parse_strategy("ass", "learned")
    assert default.values[learned.SLOT_HOLD] == 2.0
    passes = {0.0: 0, 2.0: 0, 63.0: 0}
    forced = 0
    for table, turn, starter, high_seat, on_table in _decisions(36, 8, players=5):
        view = table.view(turn, starter, high_seat, on_table)
        moves = learned.candidates_py(view)
        if PASS not in moves:
            continue
        if len(moves) == 1:
            forced += 1
            assert learned.choose_net(view.copy(), learned.KERNEL_WEIGHTS, 63.0) == PASS
            continue
        for hold in passes:
            passes[hold] += learned.choose_net(view.copy(), learned.KERNEL_WEIGHTS,
                                               hold) == PASS
    assert passes[0.0] > passes[2.0] >= passes[63.0] == 0 and forced > 0, passes


@pytest.mark.parametrize("players", [3, 4, 6, 12])
def test_engine_matches_reference_with_learned_seats(players):
    names = ["learned", "basic", "careful", "learned-linear", "random", "tuned", "learned"]
    for game in range(25):
        texts = [names[(game + s) % len(names)] for s in range(players)]
        fast, status = Tracer(RunSpec("ass", players, tuple(texts), 400 + players)).record(game)
        assert status == -1
        assert fast == play_record(400 + players, game,
                                   seat_strategies("ass", texts, players)), (game, texts)


@pytest.mark.parametrize("rollout", ["learned", "learned-4", "learned-linear"])
def test_pimc_with_learned_rollouts_matches_the_reference(rollout):
    texts = (f"pimc:worlds=4,rollout={rollout}", "learned", "basic", "careful")
    for game in range(3):
        fast, status = Tracer(RunSpec("ass", 4, texts, 77)).record(game)
        assert status == -1
        assert fast == play_record(77, game, seat_strategies("ass", list(texts), 4))


def test_runs_are_the_same_whatever_the_chunking_and_replay_agrees():
    spec = RunSpec("ass", 4, ("learned", "basic", "learned", "careful"), 12)
    whole = collect(spec, 60, workers=1)
    parts = pd.concat([collect(spec, 25, 0, workers=1), collect(spec, 35, 25, workers=1)],
                      ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)
    record, _ = Tracer(spec).record(41)
    row = whole[whole["index"] == 41].sort_values("seat")
    assert list(row["minus_points"]) == record["penalties"]


def test_fit_recovers_known_weights_and_is_deterministic():
    """Synthetic decisions whose values are exactly a linear function of the features (plus
    a per-decision offset the fit must ignore): the fit finds the weights."""
    rnd = np.random.default_rng(0)
    true = rnd.normal(size=(lw.PHASES, lw.N_FEATURES))
    rows = []
    for d in range(1000):  # about 1,200 centred rows per phase for 54 weights: exactly solved
        phase = d % lw.PHASES
        offset = rnd.normal() * 50
        for _ in range(rnd.integers(2, 7)):
            f = rnd.normal(size=lw.N_FEATURES)
            rows.append({"index": d // 10, "decision": d, "phase": phase,
                         "value": offset + float(f @ true[phase]),
                         **{f"f{i}": f[i] for i in range(lw.N_FEATURES)}})
    frame = pd.DataFrame(rows)
    w = fit(frame, ridge=0.0)
    assert np.allclose(w, true, atol=1e-8)
    assert fit(frame).tobytes() == fit(frame.copy()).tobytes()


def test_decision_data_of_a_tiny_run_are_reproducible_and_train_the_same_weights(tmp_path):
    searcher = parse_strategy("ass", "pimc:worlds=4")
    a = play_games(3, 0, 3, 4, searcher)
    b = play_games(3, 0, 3, 4, searcher)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    # every decision has one chosen candidate, the one of least value
    frame = pd.DataFrame(a)
    for _, d in frame.groupby(["index", "decision"]):
        assert d["chosen"].sum() == 1
        assert d.loc[d["chosen"], "value"].iloc[0] == d["value"].min()
    # the run folder: resumable and verified; the rows equal the in-memory ones
    out = tmp_path / "dec"
    run_decisions(out, 3, 3, 4, searcher, resume=False, progress=False)
    folder = RunFolder(out)
    check = folder.verify()
    assert not check.damage and check.manifest is not None
    on_disk = pd.concat([pd.read_parquet(p) for _, p in check.parts], ignore_index=True)
    assert np.array_equal(on_disk["value"].to_numpy(), a["value"])
    w1 = fit_weights(on_disk, 5)
    w2 = fit_weights(pd.DataFrame(b), 5)
    assert w1.shape == (lw.PHASES, lw.N_PARAMS) and w1.tobytes() == w2.tobytes()
    assert fit(on_disk).tobytes() == fit(pd.DataFrame(b)).tobytes()  # the linear model's fit


def test_decision_run_resumes_after_a_lost_part_and_flags_an_edited_one(tmp_path):
    from analyzer.learn import ass_decisions

    searcher = parse_strategy("ass", "pimc:worlds=2")
    out = tmp_path / "dec"
    old = ass_decisions.CHUNK
    ass_decisions.CHUNK = 2
    try:
        run_decisions(out, 4, 5, 3, searcher, resume=False, progress=False)
        parts = sorted(out.glob("part-*.parquet"))
        first = pd.read_parquet(parts[1])
        parts[1].unlink()
        (out / "_manifest.json").unlink()
        run_decisions(out, 4, 5, 3, searcher, resume=True, progress=False)
        assert pd.read_parquet(parts[1]).equals(first)
        data = bytearray(parts[0].read_bytes())
        parts[0].write_bytes(bytes(data[:-40]))  # a truncated part: damaged
        assert RunFolder(out).verify().damage
    finally:
        ass_decisions.CHUNK = old


def _doc():
    return lw.weights_document(np.arange(lw.PHASES * lw.N_PARAMS, dtype=float) / 7.0,
                               {"command": "test"})


def test_good_weights_file_round_trips(tmp_path):
    path = tmp_path / "w.json"
    doc = _doc()
    path.write_text(lw.weights_text(np.array(doc["weights"]), doc["provenance"]))
    w, read = lw.load_weights(path)
    assert np.array_equal(w, np.array(doc["weights"]).reshape(-1))
    assert read["provenance"] == {"command": "test"}


def test_the_shipped_weights_are_valid_small_and_say_where_they_came_from():
    for model, path in ((lw.MODEL, lw.WEIGHTS_FILE), (lw.LINEAR, lw.LINEAR_FILE)):
        w, doc = model.load(path)
        assert path.stat().st_size <= 2 * 1024 * 1024
        assert np.any(w != 0)
        prov = doc["provenance"]
        for key in ("command", "seed", "decisions", "commit"):
            assert key in prov, key
    # the linear model is the learned of before, unchanged (pimc's value model plays it)
    assert lw.LINEAR.digest(lw.LINEAR_WEIGHTS).startswith("0ca868a3601f")


def test_a_command_naming_learned_with_a_bad_weights_file_stops_in_one_line(tmp_path):
    bad = tmp_path / "gone.json"
    env = {**os.environ, lw.WEIGHTS_ENV: str(bad)}
    env.pop("CARDLAB_NUMBA_CACHE", None)
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()",
                           "simulate", "ass", "--games", "10", "-s", "learned"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and "missing" in lines[0]
    # the linear model's file: learned-linear, and pimc, whose value model it finishes
    env = {**os.environ, lw.LINEAR_ENV: str(bad)}
    env.pop("CARDLAB_NUMBA_CACHE", None)
    env.pop("NUMBA_CACHE_DIR", None)
    for name in ("learned-linear", "pimc"):
        done = subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()",
                               "simulate", "ass", "--games", "10", "-s", name],
                              capture_output=True, text=True, env=env)
        assert done.returncode == 2, name
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and str(bad) in lines[0] and "linear" in lines[0], name


def test_strategies_learned_explains_what_it_sees_and_how_it_was_trained():
    from typer.testing import CliRunner

    from analyzer.cli import app

    result = CliRunner().invoke(app, ["strategies", "learned"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "A-11" in text and "never another hand" in text
    assert "least squares" in text and "expert iteration" in text
    assert lw.WEIGHTS_DOC["provenance"]["command"] in text


def test_decisions_and_train_refuse_bad_input_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from analyzer.cli import app

    runner = CliRunner()
    for args, words in (
        (["decisions", "poker", "--out", str(tmp_path / "a")], "unknown game"),
        (["decisions", "ass", "--out", str(tmp_path / "b"), "--searcher", "careful"],
         "--searcher must be pimc"),
        (["decisions", "ass", "--out", str(tmp_path / "c"), "--players", "2"], "--players"),
        (["train", "ass", "--out", str(tmp_path / "d"), "--players", "4,13"], "--players"),
        (["train", "ass", "--out", str(tmp_path / "e"), "--seed", "23", "--eval-seed", "23"],
         "--eval-seed"),
        (["train", "ass", "--out", str(tmp_path / "f"), "--from", str(tmp_path)],
         "not a decisions run"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert words in result.output, (args, result.output)
        assert not any((tmp_path / x).exists() for x in "abcdef")
    # a user's folder or file is never written into or replaced
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    kept = tmp_path / "kept.json"
    kept.write_text("mine")
    for args, words in (
        (["train", "ass", "--out", str(mine)], "did not make for a training"),
        (["train", "ass", "--out", str(tmp_path / "g"), "--weights", str(kept)],
         "--weights"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and words in result.output, (args, result.output)
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    assert kept.read_text() == "mine" and not (tmp_path / "g").exists()


def test_train_from_decision_runs_writes_checked_weights_and_refuses_a_second_start(tmp_path):
    """``cardlab train ass --from``: the weights of the fit, in a valid file with provenance,
    the same for the same data; a work folder in use needs --resume."""
    from typer.testing import CliRunner

    from analyzer.cli import app

    run_decisions(tmp_path / "dec", 8, 4, 4, parse_strategy("ass", "pimc:worlds=4"),
                  resume=False, progress=False)
    runner = CliRunner()
    outs = []
    for name in ("a", "b"):
        result = runner.invoke(app, ["train", "ass", "--out", str(tmp_path / name), "-q",
                                     "--from", str(tmp_path / "dec")])
        assert result.exit_code == 0, result.output
        w, doc = lw.load_weights(tmp_path / name / "learned.json")
        assert doc["provenance"]["decisions"] > 10 and "--from" in doc["provenance"]["command"]
        outs.append(w)
    assert outs[0].tobytes() == outs[1].tobytes()
    frame = pd.concat([pd.read_parquet(p) for _, p in RunFolder(tmp_path / "dec").verify().parts])
    assert np.array_equal(outs[0], fit_weights(frame.assign(run=0), 0).reshape(-1))
    again = runner.invoke(app, ["train", "ass", "--out", str(tmp_path / "a"), "-q",
                                "--from", str(tmp_path / "dec")])
    assert again.exit_code == 2 and "--resume" in again.output

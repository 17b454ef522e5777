"""Expert iteration against a field mix (``cardlab train GAME --field-mix``, ``cardlab
decisions GAME --field-mix``): every other seat of a game (deal) drawn from the mix,
reproducibly from (seed, index); the learned seat's positions labelled by the searcher; the
training reproducible bit for bit and resumable; bad mixes refused in one line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.engines.jass.reference import ReferenceJass
from analyzer.games.jass.rules import make_rules
from analyzer.learn.decisions import draw_field, parse_mix, repair_command
from analyzer.learn.jass_decisions import _Recorder, play_games, run_decisions
from analyzer.runner.folder import RunFolder
from strategies.jass import learned_weights as lw
from strategies.registry import parse_strategy, seat_strategies

MIX = "aim-low+learned+pimc:worlds=2"
ASS_MIX = "careful+learned+pimc:worlds=2"


def test_each_other_seat_is_drawn_from_the_mix_and_the_learner_is_labelled():
    """The deal is the reference engine's with learned in seat index mod players and the
    drawn strategies in the others; the draws are reproducible, reach every entry and do
    not depend on the learner's seat; only the learner's decisions are recorded."""
    searcher = parse_strategy("jass", "pimc:worlds=2")
    mix = parse_mix("jass", MIX)
    assert [s.label() for s in mix] == ["aim-low", "learned", "pimc:worlds=2"]
    drawn = [draw_field(mix, 7, i, 4) for i in range(40)]
    assert drawn == [draw_field(mix, 7, i, 4) for i in range(40)]
    assert {s.label() for seats in drawn for s in seats} == {s.label() for s in mix}
    assert drawn != [draw_field(mix, 8, i, 4) for i in range(40)]  # the seed counts
    a = play_games(7, 0, 4, 4, searcher, mix)
    b = play_games(7, 0, 4, 4, searcher, mix)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    frame = pd.DataFrame(a)
    assert len(frame) > 0 and (frame["seat"] == frame["index"] % 4).all()
    assert (frame.groupby(["index", "decision"])["chosen"].sum() == 1).all()  # pimc's label
    rows: dict = {name: [] for name in frame.columns[:9]}
    rows["features"] = []
    recorder = _Recorder(make_rules(4, {}), searcher, rows, mix)
    for index in range(4):
        seats = [s.label() for s in draw_field(mix, 7, index, 4)]
        seats[index % 4] = "learned"
        plain = ReferenceJass(make_rules(4, {}), seat_strategies("jass", seats, 4))
        assert recorder.play_deal(7, index)["deals"] == plain.play_single_deal(7, index)["deals"]


def test_a_mix_run_records_its_mix_and_is_not_resumed_under_another(tmp_path):
    searcher = parse_strategy("jass", "pimc:worlds=2")
    mix = parse_mix("jass", MIX)
    run_decisions(tmp_path / "d", 5, 2, 3, searcher, resume=False, progress=False, field=mix)
    plan = RunFolder(tmp_path / "d").read_plan()
    assert plan["field_mix"] == [s.definition() for s in mix] and "field" not in plan
    assert f"--field-mix {MIX}" in repair_command(tmp_path / "d", plan)
    with pytest.raises(Exception, match="other|differ|plan"):
        run_decisions(tmp_path / "d", 5, 2, 3, searcher, resume=True, progress=False,
                      field=parse_mix("jass", "aim-low+learned"))


@pytest.mark.parametrize(("args", "words"), [
    (["decisions", "jass", "--field-mix", "aim-low++pimc"], "empty entry"),
    (["decisions", "jass", "--field-mix", "aim-low+nobody"], "nobody"),
    (["decisions", "jass", "--field-mix", "aim-low+peek"], "sees the hidden cards"),
    (["decisions", "jass", "--field-mix", "aim-low", "-s", "aim-low"], "not both"),
    (["decisions", "ass", "--field-mix", "basic+aim-low"], "aim-low"),
    (["train", "jass", "--field-mix", "pimc+"], "empty entry"),
    (["train", "jass", "--field-mix", "learned+pimc:worlds=x"], "worlds"),
    (["train", "ass", "--field-mix", "careful+peek"], "sees the hidden cards"),
    (["train", "jass", "--field-mix", "aim-low", "--from", "nowhere"], "--field-mix applies"),
])
def test_bad_mixes_are_refused_in_one_line_before_any_work(tmp_path, args, words):
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [*args[:2], "--out", str(out), *args[2:]])
    assert result.exit_code == 2, result.output
    assert words in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert not out.exists()


def test_ass_each_other_seat_is_drawn_from_the_mix_and_the_learner_is_labelled(monkeypatch):
    """Who's the Ass?: the game is the reference engine's with learned in seat index mod
    players and the drawn strategies in the others; only the learner's decisions are
    recorded, valued by the searcher (with learned rollouts, as training's later rounds)."""
    from analyzer.engines.ass.reference import play_record
    from analyzer.learn import ass_decisions

    searcher = parse_strategy("ass", "pimc:worlds=2,rollout=learned")
    mix = parse_mix("ass", ASS_MIX)
    games: list = []
    play_from = ass_decisions.play_from
    monkeypatch.setattr(ass_decisions, "play_from",
                        lambda *args: games.append(play_from(*args)) or games[-1])
    a = ass_decisions.play_games(9, 0, 4, 4, searcher, mix)
    b = ass_decisions.play_games(9, 0, 4, 4, searcher, mix)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    frame = pd.DataFrame(a)
    assert len(frame) > 0 and (frame["seat"] == frame["index"] % 4).all()
    assert (frame.groupby(["index", "decision"])["chosen"].sum() == 1).all()
    for index in range(4):
        seats = list(draw_field(mix, 9, index, 4))
        seats[index % 4] = parse_strategy("ass", "learned")
        assert games[index] == play_record(9, index, seats)["rounds"]


def test_the_legacy_field_alone_plans_and_runs_as_before():
    """``--field-mix aim-low`` is the training before the mix: the same plan (no field_mix)
    and the same decisions command (--strategy aim-low)."""
    from analyzer.learn.train import GAMES, TrainPlan, field_args, later_searcher

    game = GAMES["jass"]
    old = TrainPlan("jass", 23, 3000, (3, 4), 64, 3, 3000, 9925, 3000)
    legacy = TrainPlan("jass", 23, 3000, (3, 4), 64, 3, 3000, 9925, 3000, "aim-low")
    assert legacy.to_dict() == old.to_dict() and "field_mix" not in old.to_dict()
    searcher, field = later_searcher(game, 64, 2, "aim-low")
    assert field_args(game, field) == ["--strategy", "aim-low"]
    mixed = TrainPlan("jass", 23, 3000, (3, 4), 64, 3, 3000, 9925, 3000, MIX)
    assert mixed.to_dict()["field_mix"] == MIX
    one = TrainPlan("jass", 23, 3000, (3, 4), 64, 1, 3000, 9925, 3000, MIX)
    assert "field_mix" not in one.to_dict()  # one round: no later field, the plan as before
    assert field_args(game, later_searcher(game, 64, 2, MIX)[1]) == ["--field-mix", MIX]
    assert later_searcher(game, 64, 1, MIX)[1] is None  # round 1: pimc in every seat
    # the rollouts the shipped weights were searched with, pinned: pimc's default is now value
    assert later_searcher(game, 64, 1) == ("pimc:worlds=64,rollout=aim-low", None)
    assert later_searcher(game, 64, 2, "aim-low") == ("pimc:worlds=64,rollout=aim-low",
                                                      "aim-low")
    ass = GAMES["ass"]  # none: the searcher in every seat, as the shipped network was made
    old = TrainPlan("ass", 23, 1500, (4, 6), 64, 2, 3000, 9923, 1500)
    legacy = TrainPlan("ass", 23, 1500, (4, 6), 64, 2, 3000, 9923, 1500, "none")
    assert legacy.to_dict() == old.to_dict() and "field_mix" not in old.to_dict()
    # (the knobs the shipped network was searched with, pinned: infer=policy, the value model
    # in every round, whose rounds learned-linear finishes)
    assert later_searcher(ass, 64, 1) == ("pimc:worlds=64,infer=policy,rollout=value", None)
    assert later_searcher(ass, 64, 2, "none") == ("pimc:worlds=64,infer=policy,rollout=value",
                                                  None)
    assert later_searcher(ass, 64, 2, ASS_MIX) == (
        "pimc:worlds=64,infer=policy,rollout=value", ASS_MIX)
    assert later_searcher(ass, 64, 2, "none", "learned-linear") == (
        "pimc:worlds=64,infer=policy,rollout=learned-linear", None)


def _train(out, *more):
    result = CliRunner().invoke(app, ["train", "jass", "--out", str(out), "-q", "--seed", "3",
                                      "--players", "3", "--games", "2", "--rounds", "2",
                                      "--worlds", "2", "--eval-games", "1", "--field-mix", MIX,
                                      *more])
    assert result.exit_code == 0, result.output
    return lw.load_weights(out / "learned.json")


@pytest.mark.slow  # minutes: the first training compiles the kernels for each round's weights
def test_a_mix_training_is_reproducible_bit_for_bit_and_resumes_to_the_same_weights(tmp_path):
    """The same command twice gives the same weights; a training interrupted before its
    second round's fit, continued with --resume, too; --resume under another mix is
    refused."""
    w1, doc = _train(tmp_path / "a")
    assert doc["provenance"]["rounds"] and doc["provenance"]["fields"] == [MIX]
    assert f"--field-mix {MIX}" in doc["provenance"]["command"]
    w2, _ = _train(tmp_path / "b")
    assert w1.tobytes() == w2.tobytes()
    round2 = json.loads((tmp_path / "b" / "round-2" / "learned.json").read_text())
    for name in ("round-2/learned.json", "round-2/strength.json", "learned.json"):
        (tmp_path / "b" / name).unlink()  # stopped after round 2's data
    w3, _ = _train(tmp_path / "b", "--resume")
    assert w3.tobytes() == w1.tobytes()
    assert json.loads((tmp_path / "b" / "round-2" / "learned.json").read_text()) == round2
    result = CliRunner().invoke(app, ["train", "jass", "--out", str(tmp_path / "b"), "-q",
                                      "--seed", "3", "--players", "3", "--games", "2",
                                      "--rounds", "2", "--worlds", "2", "--eval-games", "1",
                                      "--field-mix", "aim-low+learned", "--resume"])
    assert result.exit_code == 2 and "other parameters" in result.output


def test_train_rollout_names_the_searchers_rollout_in_every_round():
    """--rollout (e.g. value: expert iteration on the default player's values) sets the
    searcher's rollout in every round and is part of the plan; without it the plan and the
    searchers read as before; a rollout pimc does not have is one line before any work."""
    from analyzer.learn.train import GAMES, TrainPlan, later_searcher

    jass, ass = GAMES["jass"], GAMES["ass"]
    assert later_searcher(jass, 64, 1, MIX, "value") == ("pimc:worlds=64,rollout=value", None)
    assert later_searcher(jass, 64, 2, MIX, "value") == ("pimc:worlds=64,rollout=value", MIX)
    assert later_searcher(jass, 64, 2, "none", "value") == ("pimc:worlds=64,rollout=value",
                                                             None)
    assert later_searcher(ass, 64, 2, None, "value") == (
        "pimc:worlds=64,infer=policy,rollout=value", None)  # ass's own later field: none
    plain = TrainPlan("jass", 23, 3000, (3, 4), 64, 3, 3000, 9925, 3000, MIX)
    valued = TrainPlan("jass", 23, 3000, (3, 4), 64, 3, 3000, 9925, 3000, MIX, "value")
    assert "rollout" not in plain.to_dict() and valued.to_dict()["rollout"] == "value"
    assert {**valued.to_dict(), "rollout": None} != plain.to_dict()
    for bad in ("bogus", "pimc"):
        result = CliRunner().invoke(app, ["train", "jass", "--rollout", bad, "-q"])
        assert result.exit_code == 2, result.output
        assert "is not a rollout of pimc" in result.output and "value" in result.output
        assert len(result.output.strip().splitlines()) == 1
    for bad in ("bogus", "pimc", "aim-low"):  # Who's the Ass?: any strategy that does not search
        result = CliRunner().invoke(app, ["train", "ass", "--rollout", bad, "-q"])
        assert result.exit_code == 2, result.output
        assert "is not a rollout of pimc" in result.output and "value" in result.output
        assert len(result.output.strip().splitlines()) == 1
    for good in ("value", "basic", "learned"):  # accepted: the next check is the game count
        result = CliRunner().invoke(app, ["train", "ass", "--rollout", good, "--games", "0",
                                          "-q"])
        assert result.exit_code == 2 and "--games" in result.output, result.output


@pytest.mark.slow  # half a minute: one round of a tiny training
def test_a_training_with_the_value_model_as_searcher_runs_and_records_it(tmp_path):
    result = CliRunner().invoke(app, ["train", "jass", "--out", str(tmp_path / "v"), "-q",
                                      "--seed", "3", "--players", "3", "--games", "2",
                                      "--rounds", "1", "--worlds", "2", "--eval-games", "1",
                                      "--rollout", "value"])
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "v" / "learned.json").read_text())
    assert doc["provenance"]["searchers"] == ["pimc:worlds=2,rollout=value"]
    assert doc["provenance"]["command"].endswith("--rollout value")
    plan = json.loads((tmp_path / "v" / "_train.json").read_text())
    assert plan["rollout"] == "value"
    again = CliRunner().invoke(app, ["train", "jass", "--out", str(tmp_path / "v"), "-q",
                                     "--seed", "3", "--players", "3", "--games", "2",
                                     "--rounds", "1", "--worlds", "2", "--eval-games", "1",
                                     "--resume"])  # the same training but its rollout: refused
    assert again.exit_code == 2 and "other parameters" in again.output

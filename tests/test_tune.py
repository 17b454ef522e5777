"""analyzer/tune: the tuner finds a planted optimum, merges identical candidates, resumes."""

import json
import re

import pytest

from analyzer.errors import CardlabError
from analyzer.tune.synthetic import X_BEST, Y_BEST, PlantedBackend, knobs_of, toy_space
from analyzer.tune.tuner import Tuner, TuneSettings, confirm, distinct_play

START = "toy:mode=a,inert=off,x=0.5,y=0.5"


def _settings(budget=40_000, seed=5):
    return TuneSettings("ass", 4, ("basic",), START, ("mode", "inert", "x", "y"), budget, seed,
                        "minus_points", True)


def test_tuning_recovers_the_planted_optimum_and_merges_identical_candidates():
    tuner = Tuner(PlantedBackend(), _settings(), toy_space())
    out = tuner.run()
    k = knobs_of(out.label)
    assert k["mode"] == "b"
    assert abs(float(k["x"]) - X_BEST) < 0.1 and abs(float(k["y"]) - Y_BEST) < 0.1
    assert out.games <= 40_000
    # inert=on plays exactly as inert=off: merged, never compared with itself
    assert [START, START.replace("inert=off", "inert=on")] in out.merged
    # held-out confirmation: the start is worse by about BONUS + CURVE * 0.08 = 4.6 points
    res = confirm(tuner, out.label, [START], budget=3000)[0]
    assert res.decision == "a-lower" and res.high < 0 and res.low < -4.6 < res.high + 0.5


def test_an_interrupted_run_resumes_to_the_same_answer(tmp_path):
    whole = Tuner(PlantedBackend(), _settings(20_000), toy_space()).run()
    path = tmp_path / "state.json"
    steps = []

    def stop_after_three(done, total):
        steps.append(done)
        if len(steps) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Tuner(PlantedBackend(), _settings(20_000), toy_space(), path,
              on_games=stop_after_three).run()
    saved = json.loads(path.read_text())
    assert saved["games"] == steps[-1] and 0 < saved["games"] < 20_000
    resumed = Tuner(PlantedBackend(), _settings(20_000), toy_space(), path).run()
    assert resumed.label == whole.label and resumed.games == whole.games
    assert resumed.history == whole.history
    with pytest.raises(CardlabError, match="other settings"):
        Tuner(PlantedBackend(), _settings(20_000, seed=6), toy_space(), path)


def test_a_budget_too_small_for_the_discrete_knobs_is_refused():
    with pytest.raises(CardlabError, match="too small for 6 combinations"):
        Tuner(PlantedBackend(), _settings(100), toy_space()).run()


def test_identical_baselines_are_compared_once():
    tuner = Tuner(PlantedBackend(), _settings(), toy_space())
    other = START.replace("inert=off", "inert=on")
    kept, same = distinct_play(tuner, [START, other, "basic"])
    assert kept == [START, "basic"] and same == [(START, other)]


def test_best_response_gain_is_measured_on_held_out_deals():
    from analyzer.studies.best_response import best_response_row

    row = best_response_row(PlantedBackend(), toy_space(), _settings(20_000), confirm=1000)
    # basic has effect 0; the planted best is BONUS = 3 points better (lower is better)
    assert knobs_of(row["response"])["mode"] == "b"
    assert row["low"] > 2.0 and row["low"] <= 3.0 + 0.3 and row["high"] >= 2.7
    assert not row["identical"] and row["held_out"] == 1000


def test_tune_command_writes_a_preset_that_other_commands_load(fresh_cli, tmp_path):
    out = tmp_path / "s.toml"
    code, stdout, err = fresh_cli("tune", "ass", "--knob", "jokers", "--games", "2000",
                                "--confirm", "200", "--workers", "1", "--out", str(out),
                                "--name", "mine", "--no-progress")
    assert code == 0, err
    assert "preset 'mine' added" in stdout
    assert "gain of" in stdout or "tuning kept the start" in stdout
    assert (tmp_path / "s.toml.state.json").exists()
    text = out.read_text()
    assert text.startswith("# written by: cardlab tune ass") and "[ass.mine]" in text
    # each call runs as a new process: the next one knows 'mine' from the file alone
    code, stdout, _ = fresh_cli("strategies", "ass")
    assert code == 0 and not re.search(r"\bmine\b", stdout), stdout
    code, stdout, err = fresh_cli("strategies", "ass", "--strategies", str(out))
    assert code == 0 and "mine" in stdout, err


@pytest.mark.parametrize("args,message", [
    (["tune", "ass", "--name", "careful"], "is built in"),
    (["tune", "ass", "--knob", "speed"], "has no knob 'speed'"),
    (["tune", "ass", "--start", "basic"], "has no knobs to tune"),
    (["tune", "ass", "--games", "0"], "--games must be positive"),
])
def test_tune_command_refuses_bad_input_in_one_line(cli, tmp_path, args, message):
    code, _, err = cli(*args, "--out", tmp_path / "s.toml")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and message in lines[0], err
    assert not (tmp_path / "s.toml").exists()


def test_a_step_on_worker_processes_scores_exactly_as_in_this_process(monkeypatch):
    """evaluate() sends every table of a step through the pool in one pass when it has
    workers; the per-deal means and fingerprints are those of the in-process path."""
    from analyzer.runner import api
    from analyzer.runner.play import KernelBackend
    from analyzer.tune.space import space_for

    passes = []
    many = api.collect_many
    monkeypatch.setattr(api, "collect_many", lambda jobs, **kw: passes.append(len(jobs)) or
                        many(jobs, **kw))

    settings = TuneSettings("ass", 4, ("basic",), "careful", ("jokers",), 1000, 3,
                            "minus_points", True)
    labels = ["careful", "careful:jokers=keep", "basic"]
    results = []
    for workers in (1, 2):
        backend = KernelBackend(workers=workers)
        tuner = Tuner(backend, settings, space_for("ass", "careful", ["jokers"]))
        results.append(tuner.evaluate(labels, 40, 30))
    (means1, prints1), (means2, prints2) = results
    assert means1.shape == (3, 30)
    assert (means1 == means2).all() and prints1 == prints2
    assert passes == [3 * 4]  # workers=2: one pass of every (candidate, seat) table

"""Issue 20, items 1, 2, 5, 9 and 12 (parts): a strategy is recorded, replayed, compared and
handed to worker processes as its fully resolved definition, exactly."""

import json
import os

import numpy as np
import pytest
from cli_check import one_error as _one_error

from analyzer.engines.kernel import RunSpec
from analyzer.runner import manifest as mf
from analyzer.runner.play import KernelBackend
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.runner.tasks import ROWS, ChunkTask, run_chunk
from analyzer.studies.compare import run_compare
from analyzer.studies.results import load_study, save_study
from analyzer.studies.seats import run_seats
from analyzer.tune.space import space_for
from reports.glossary import glossary
from reports.reproduce import study_command
from strategies import registry
from strategies.files import ENV
from strategies.registry import StrategyError, from_definition, parse_strategy


@pytest.fixture()
def fresh(monkeypatch):
    """Each call forgets every strategies file, as a new process would (a file edited since
    it was read is read anew); the catalogues and caches are restored after the test."""
    from cli_check import strategies_forgetter  # tests/ is on sys.path

    return strategies_forgetter(monkeypatch)


# --- item 1: identity at full precision ------------------------------------------------------

def test_item01_knobs_are_recorded_at_full_precision():
    plans = []
    for value in ("1.0000001", "0.9999999"):
        spec = RunSpec("jass", 3, (f"heuristic:strength={value}",), 7, mode="deals")
        entry = mf.describe_strategies(spec)[0]
        assert entry["definition"]["knobs"]["strength"] == value
        assert entry["params"]["strength"] == value and entry["label"].endswith(value)
        plans.append(entry)
    assert plans[0]["definition"]["identity"] != plans[1]["definition"]["identity"]
    # the recorded definition is the strategy itself, no catalogue look-up of its name
    s = from_definition("jass", plans[0]["definition"])
    assert s.values == parse_strategy("jass", "heuristic:strength=1.0000001").values


def test_item01_resume_refuses_a_preset_edited_since_the_run(cli, fresh, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("[jass.mine1]\nbase = 'heuristic'\nparams = { strength = 1.0000001 }\n")
    run = tmp_path / "run"
    args = ["--strategies", path, "simulate", "jass", "-p", "3", "--deals", "40",
            "--chunk-size", "10", "--backend", "serial", "-s", "mine1", "--out", run]
    code, _, err = cli(*args)
    assert code == 0, err
    plan = json.loads((run / mf.RUN_FILE).read_text())
    assert plan["strategies"][0]["definition"]["knobs"]["strength"] == "1.0000001"
    # an interrupted run: no manifest, one chunk missing
    (run / mf.MANIFEST_FILE).unlink()
    sorted(p for p in run.iterdir() if p.suffix == ".parquet")[-1].unlink()
    path.write_text("[jass.mine1]\nbase = 'heuristic'\nparams = { strength = 0.9999999 }\n")
    fresh()
    code, _, err = cli(*args, "--resume")
    assert code == 2
    _one_error(err, "1.0000001")


def test_item01_compare_calls_the_same_only_what_plays_the_same():
    backend = KernelBackend(workers=1)
    # different knobs, rounded alike to 6 digits: two strategies (refused for the budget)
    with pytest.raises(Exception, match="at least 2 deals"):
        run_compare(backend, "jass", ["heuristic:strength=1.0000001",
                                      "heuristic:strength=0.9999999"], games=1)
    # different names, the same play: one strategy
    with pytest.raises(Exception, match="play exactly alike"):
        run_compare(backend, "ass", ["careful", "heuristic:lead=safe,ass_throw=safe-high",
                                     "basic"], games=10)


# --- item 2: replay --from reads the run, after the folder's verification --------------------

def _records(cli, run, n):
    out = []
    for index in range(n):
        code, text, err = cli("replay", "--from", run, "--index", index)
        assert code == 0, err
        out.append(text)
    return out


def test_item02_replay_from_plays_the_recorded_strategies_and_refuses_damage(cli, fresh,
                                                                            tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("[ass.mine2]\nbase = 'heuristic'\nparams = { jokers = 'dump' }\n")
    run = tmp_path / "run"
    code, _, err = cli("--strategies", path, "simulate", "ass", "--games", "8", "-s", "mine2",
                       "--backend", "serial", "--out", run)
    assert code == 0, err
    before = _records(cli, run, 8)
    rows = __import__("pandas").read_parquet(run).sort_values(["index", "seat"])
    for index, text in enumerate(before):  # the replay is the run's game
        record = json.loads(text)
        points = [int(v) for v in rows[rows["index"] == index]["minus_points"]]
        assert json.dumps(points) in json.dumps(record), (index, points)
    # the file edited, then gone: the replay still plays what the run recorded
    path.write_text("[ass.mine2]\nbase = 'heuristic'\nparams = { jokers = 'keep' }\n")
    fresh()
    os.environ[ENV] = str(path)
    try:
        assert _records(cli, run, 8) == before
    finally:
        del os.environ[ENV]
    fresh()
    assert _records(cli, run, 8) == before
    # a folder that summarize calls damaged is not replayed
    for name in (mf.RUN_FILE, mf.MANIFEST_FILE):
        doc = json.loads((run / name).read_text())
        doc["seed"] = doc["spec"]["seed"] = 12345
        (run / name).write_text(json.dumps(doc))
    code, _, err = cli("summarize", run)
    assert code != 0 and "damaged" in err
    code, out, err = cli("replay", "--from", run, "--index", "0")
    assert code != 0 and out == ""
    assert "damaged" in err and "nothing is replayed" in err


# --- item 5: whole-number knobs ---------------------------------------------------------------

@pytest.mark.parametrize("game,text", [
    ("ass", "pimc:worlds=15.99"), ("ass", "pimc:worlds=15.5"), ("ass", "peek:candidates=3.5"),
    ("ass", "chaser:chase=1.5"), ("jass", "pimc:worlds=3.5"), ("jass", "pimc:candidates=2.5"),
    ("jass", "adaptive:gap=2.5"),
])
def test_item05_whole_number_knobs_refuse_fractions(cli, game, text):
    code, _, err = cli("strategies", text)
    assert code == 2
    _one_error(err, "(a whole number), got")


def test_item05_tuner_reads_whole_number_knobs_from_the_declarations():
    import analyzer.tune.space as space_module

    assert not hasattr(space_module, "INTEGER_KNOBS")  # one list: Param.integer
    for game, start, knobs in (("ass", "pimc", ["worlds", "candidates", "oversample", "eps"]),
                               ("ass", "heuristic", None), ("jass", "pimc", None),
                               ("jass", "heuristic", None)):
        space = space_for(game, start, knobs)
        declared = {p.name: p for p in parse_strategy(game, start).spec.params}
        for knob in space.knobs:
            p = declared[knob.name]
            assert knob.integer == (p.integer and not p.choices), (game, knob.name)
            if knob.integer:
                for u in (0.0, 0.1234, 0.3333, 0.777, 1.0):
                    value = knob.from_unit(u) if not knob.discrete else knob.values[0]
                    assert value == int(value)
                    assert p.parse(knob.show(value)) == value  # a label the knob accepts
    worlds = next(k for k in space_for("ass", "pimc", ["worlds"]).knobs if k.name == "worlds")
    assert not worlds.discrete and worlds.show(worlds.from_unit(0.06)) == "16"


# --- item 9: one loading order; workers play the parent's resolved strategies ---------------

def test_item09_multi_worker_run_with_a_file_preset_based_on_a_search_strategy(tmp_path, capfd,
                                                                              monkeypatch):
    """Each command as a new process runs it (every file forgotten, CARDLAB_STRATEGIES
    empty), in this process; its 2 worker processes are real ones, started by the command,
    and what they write to stderr is read too (capfd)."""
    from cli_check import as_new_process  # tests/ is on sys.path

    cardlab = as_new_process(capfd, monkeypatch)

    path = tmp_path / "s.toml"
    path.write_text("[ass.deep]\nbase = 'pimc'\nparams = { worlds = 4 }\n"
                    "[ass.seer]\nbase = 'peek'\n[ass.again]\nbase = 'tuned'\n"
                    "[ass.again6]\nbase = 'tuned-6'\n"
                    "[jass.deep]\nbase = 'pimc'\n[jass.seer]\nbase = 'peek'\n"
                    "[jass.again]\nbase = 'tuned'\n")
    for game, count in (("ass", ["--games", "400"]), ("jass", ["--deals", "200"])):
        code, _, err = cardlab("--strategies", path, "simulate", game, *count,
                               "-s", "again" if game == "ass" else "basic", "--workers", "2",
                               "--chunk-size", "100", "--backend", "local", "--format", "json")
        assert code == 0, err[-2000:]
        assert "Traceback" not in err


def test_item09_a_worker_plays_the_definition_it_is_handed(fresh):
    dump = parse_strategy("ass", "heuristic:jokers=dump")
    ghost = {**dump.definition(), "name": "ghost"}  # a preset this process cannot look up
    with pytest.raises(StrategyError):
        parse_strategy("ass", "ghost")
    spec = RunSpec("ass", 4, ("ghost",) * 4, 5, mode="games")
    task = ChunkTask("analyzer.engines.ass.kernel", spec, 0, 20, ROWS, single_thread=False,
                     strategies=(("ghost", ghost),))
    rows = run_chunk(task).rows
    want = run_chunk(ChunkTask("analyzer.engines.ass.kernel",
                               RunSpec("ass", 4, ("heuristic:jokers=dump",) * 4, 5,
                                       mode="games"), 0, 20, ROWS, single_thread=False)).rows
    for column, values in want.items():
        assert np.array_equal(rows[column], values), column
    with pytest.raises(StrategyError):  # pinned for the task only
        parse_strategy("ass", "ghost")


# --- item 12 (parts): reports from the recorded definitions; "did you mean" ------------------

def test_item12_unknown_strategy_says_did_you_mean(cli):
    code, _, err = cli("simulate", "ass", "-s", "carefull", "--games", "3")
    assert code == 2
    _one_error(err, "did you mean careful?")


def test_item12_report_reproduces_and_describes_a_file_preset_as_played(fresh, tmp_path,
                                                                       monkeypatch):
    path = tmp_path / "s.toml"
    path.write_text("[ass.mine12]\nbase = 'heuristic'\ndescription = 'dumps jokers'\n"
                    "params = { jokers = 'dump', keep = 5 }\n")
    monkeypatch.setenv(ENV, str(path))
    result = run_seats(SyntheticAssBackend(), players=[3], strategies=["mine12"], games=30)
    save_study(result, tmp_path / "res")
    # the file edited afterwards, and not loaded when the report is made
    path.write_text("[ass.mine12]\nbase = 'heuristic'\ndescription = 'other'\n"
                    "params = { jokers = 'keep' }\n")
    fresh()
    loaded = load_study(tmp_path / "res" / "seats")
    command = study_command(loaded)
    assert f"--strategies {path}" in command and "mine12" in command
    entry = next(e for e in glossary([loaded]) if e.name == "mine12")
    assert entry.description == "dumps jokers"
    assert "jokers = dump" in entry.settings and "keep = 5" in entry.settings
    assert registry.catalog("ass").get("mine12") is None

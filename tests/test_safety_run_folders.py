"""Issue 8, reproductions 5 and 9: run folders are verified against their own manifest before
they are summarized or continued; damage is reported one line per file and repaired by
``--resume --repair`` without losing a valid part."""

import contextlib
import fcntl
import json
import shutil

import pandas as pd
import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.runner import load_rows
from analyzer.runner.manifest import differences

runner = CliRunner()
SIM = ("simulate", "ass", "--games", "40", "--seed", "11", "--backend", "serial",
       "--chunk-size", "10", "--quiet")


def _run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def _lines(res, prefix):
    return [line for line in res.output.splitlines() if line.startswith(prefix)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An untouched finished run and its rows."""
    out = tmp_path_factory.mktemp("ref") / "run"
    assert _run(*SIM, "--out", out).exit_code == 0
    return out, pd.read_parquet(out)


@pytest.fixture
def run(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference[0], out)
    return out


def _repaired_equals_reference(run, reference):
    res = _run(*SIM, "--out", run, "--resume", "--repair")
    assert res.exit_code == 0, res.output
    assert _run("summarize", run).exit_code == 0
    pd.testing.assert_frame_equal(load_rows(run), reference[1])


def test_a_deleted_part_is_damage_not_complete(run, reference):
    (run / "part-0000000000000000010-0000000000000000020.parquet").unlink()
    res = _run("summarize", run)
    assert res.exit_code == 2 and "complete" not in _lines(res, "error:")[0].split(";")[0]
    damaged = _lines(res, "damaged:")
    assert len(damaged) == 1 and "_manifest.json: says the run is complete" in damaged[0]
    assert "cover 30 of 40 games" in damaged[0]
    res = _run(*SIM, "--out", run, "--resume")  # without --repair: refused, nothing played
    assert res.exit_code == 2 and "--resume --repair" in res.output
    _repaired_equals_reference(run, reference)
    assert (run / "_damaged" / "_manifest.json").is_file()  # moved aside, never deleted


def test_a_short_part_is_found_by_its_row_count(run, reference, tmp_path):
    other = tmp_path / "five"
    assert _run(*SIM, "--out", other, "--chunk-size", "5").exit_code == 0
    # same plan, so the embedded manifest agrees: only the row count can tell
    shutil.copy(other / "part-0000000000000000000-0000000000000000005.parquet",
                run / "part-0000000000000000000-0000000000000000010.parquet")
    res = _run("summarize", run)
    assert res.exit_code == 2
    assert any("part-0000000000000000000-0000000000000000010.parquet: holds 20 rows; its "
               "range 0..9 implies 40" in line for line in _lines(res, "damaged:"))
    _repaired_equals_reference(run, reference)
    assert (run / "_damaged" / "part-0000000000000000000-0000000000000000010.parquet").is_file()


def test_a_part_with_the_wrong_games_is_found_by_its_indices(run, reference):
    shutil.copy(run / "part-0000000000000000000-0000000000000000010.parquet",
                run / "part-0000000000000000010-0000000000000000020.parquet")
    res = _run("summarize", run)
    assert res.exit_code == 2 and "holds indices 0..9, not its range 10..19" in res.output
    _repaired_equals_reference(run, reference)


def test_a_part_of_another_seed_is_foreign(run, reference, tmp_path):
    other = tmp_path / "seed12"
    args = [a if a != "11" else "12" for a in SIM]
    assert _run(*args, "--out", other).exit_code == 0
    name = "part-0000000000000000020-0000000000000000030.parquet"
    shutil.copy(other / name, run / name)
    res = _run("summarize", run)
    assert res.exit_code == 2
    line = [x for x in _lines(res, "damaged:") if name in x][0]
    assert "belongs to another run" in line and "seed: 11 -> 12" in line
    _repaired_equals_reference(run, reference)


def test_an_edited_manifest_is_noticed(run, reference):
    manifest = json.loads((run / "_manifest.json").read_text())
    manifest["seed"] = 12
    (run / "_manifest.json").write_text(json.dumps(manifest))
    res = _run("summarize", run)
    assert res.exit_code == 2 and "_manifest.json: differs from _run.json" in res.output
    assert "seed: 11 -> 12" in res.output
    _repaired_equals_reference(run, reference)


def test_an_edited_run_plan_is_never_finished_under_the_new_seed(run):
    (run / "_manifest.json").unlink()  # an unfinished run
    (run / "part-0000000000000000030-0000000000000000040.parquet").unlink()
    plan = json.loads((run / "_run.json").read_text())
    plan["seed"] = plan["spec"]["seed"] = 999
    (run / "_run.json").write_text(json.dumps(plan))
    args = [a if a != "11" else "999" for a in SIM]
    for extra in ((), ("--repair",)):
        res = _run(*args, "--out", run, "--resume", *extra)
        assert res.exit_code == 2, res.output
        assert "_run.json: differs from the plan all 3 parts carry" in res.output
        assert "seed: 11 -> 999" in res.output
    assert not (run / "_manifest.json").exists()
    assert len(list(run.glob("part-*.parquet"))) == 3  # nothing moved, nothing played


def test_resume_into_a_missing_folder_is_refused(tmp_path):
    res = _run(*SIM, "--out", tmp_path / "typo", "--resume")
    assert res.exit_code == 2 and "holds no run to continue" in res.output
    assert not (tmp_path / "typo").exists()


def test_repair_needs_resume(run):
    res = _run(*SIM, "--out", run, "--repair")
    assert res.exit_code == 2 and "--repair needs --resume" in res.output


@contextlib.contextmanager
def _held(folder):
    with open(folder / ".lock", "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield


def test_a_folder_being_written_is_reported_as_such(run):
    (run / "_manifest.json").unlink()
    with _held(run):
        res = _run(*SIM, "--out", run)
        assert res.exit_code == 2 and "being written by another cardlab process" in res.output
        assert "add --resume" not in res.output
        res = _run("summarize", run)
        assert res.exit_code == 0 and "being written by another cardlab process" in res.output


def test_the_resume_refusal_shows_the_difference_itself():
    old = {"strategies": [{"seat": 0, "strategy": " basic", "params": {"x": "1"} | {
        f"k{i}": "v" for i in range(20)}}], "seed": 1}
    new = json.loads(json.dumps(old))
    new["strategies"][0]["strategy"] = "basic"
    assert differences(old, new) == ['strategies[0].strategy: " basic" -> "basic"']


@pytest.mark.parametrize("game,count", [("ass", "--games"), ("jass", "--deals")])
def test_aggregate_folders_are_verified_by_their_game_counts(tmp_path, game, count):
    sim = ("simulate", game, count, "30", "--seed", "5", "--backend", "serial",
           "--chunk-size", "10", "--aggregate", "--quiet")
    ref, run = tmp_path / "ref", tmp_path / "run"
    assert _run(*sim, "--out", ref).exit_code == 0
    shutil.copytree(ref, run)
    first, second, third = sorted(run.glob("part-*.parquet"))[:3]
    shutil.copy(first, second)  # a valid histogram of the wrong range, same plan
    five = tmp_path / "five"
    assert _run(*sim, "--out", five, "--chunk-size", "5").exit_code == 0
    shutil.copy(sorted(five.glob("part-*.parquet"))[0], third)  # 5 games, not 10
    res = _run("summarize", run)
    assert res.exit_code == 2
    assert f"{second.name}: was written for units 0..9, not its name's range 10..19" in (
        res.output)
    assert f"{third.name}: counts 5 " in res.output and "range 20..29 implies 10" in res.output
    res = _run(*sim, "--out", run, "--resume", "--repair")
    assert res.exit_code == 0, res.output
    assert _run("summarize", run).output.replace(str(run), "") == _run(
        "summarize", ref).output.replace(str(ref), "")

"""`cardlab simulate ass|jass` and `cardlab summarize`: tables, files, one-line errors."""

import json
import sys

import pandas as pd
import pytest
from typer.testing import CliRunner

from analyzer.cli import app

runner = CliRunner()


def _run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_simulate_ass_prints_the_seat_table_and_writes_a_dataset(tmp_path):
    out = tmp_path / "run.parquet"
    res = _run("simulate", "ass", "--players", "5", "--games", "3000", "--seed", "7",
               "--strategy", "basic", "--out", out, "--backend", "serial", "--chunk-size", 1000)
    assert res.exit_code == 0, res.output
    for text in ("mean minus points", "P(end with ass)", "P(dealt ass)", "±", "games/s",
                 "3,000 games in"):
        assert text in res.output
    rows = pd.read_parquet(out)
    assert len(rows) == 15_000 and list(rows.columns[:2]) == ["index", "seat"]
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["games"] == 3000 and manifest["seed"] == 7 and manifest["players"] == 5
    assert manifest["rules"] == {"per_player": 13}
    assert [s["name"] for s in manifest["strategies"]] == ["basic"] * 5
    # summarize gives the same table as the run printed
    shown = _run("summarize", out)
    assert shown.exit_code == 0
    table = lambda text: [ln for ln in text.splitlines() if ln.startswith("│")]  # noqa: E731
    assert table(shown.output) == table(res.output)
    assert "complete" in shown.output


def test_simulate_jass_modes_rules_and_per_seat_strategies(tmp_path):
    res = _run("simulate", "jass", "--players", "3", "--deals", "500", "--seed", "3",
               "-s", "basic", "-s", "random", "-s", "basic", "--ruleset", "swiss",
               "--backend", "serial", "-q")
    assert res.exit_code == 0, res.output
    assert "mean points" in res.output and "random" in res.output and "ruleset=swiss" in res.output
    agg = tmp_path / "agg"
    res = _run("simulate", "jass", "--matches", "300", "--seed", "3", "--deal-cap", "50",
               "--out", agg, "--aggregate", "--backend", "threads", "--workers", "2")
    assert res.exit_code == 0, res.output
    assert "mean final sticks" in res.output and "300 matches in" in res.output
    assert json.loads((agg / "_manifest.json").read_text())["rules"]["deal_cap"] == 50


@pytest.mark.parametrize(
    "args,message",
    [
        (["ass", "--strategy", "nosuch"], "unknown ass strategy 'nosuch'"),
        (["ass", "--players", "4", "-s", "basic", "-s", "basic"], "exactly 4"),
        (["ass", "--players", "13"], "3 to 12 players"),
        (["ass", "--games", "0"], "positive integer"),
        (["ass", "--strategy", "basic:nokey=1"], "no parameter 'nokey'"),
        (["jass", "--players", "5"], "3"),
        (["jass", "--matches", "5", "--deals", "5"], "not both"),
        (["jass", "--ruleset", "french"], "ruleset"),
        (["ass", "--aggregate"], "--aggregate needs --out"),
        (["ass", "--backend", "mpi"], "unknown backend"),
    ],
)
def test_bad_input_gets_a_one_line_error_and_exit_2(args, message):
    res = _run("simulate", *args, "--backend" if "--backend" not in args else "--quiet",
               *(["serial"] if "--backend" not in args else []))
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_unusable_out_folders_are_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = _run("simulate", "ass", "--games", "10", "--out", blocker / "sub", "--backend",
               "serial")
    assert res.exit_code == 2 and "cannot write to --out" in res.output
    other = tmp_path / "other"
    other.mkdir()
    (other / "data.csv").write_text("a,b")
    res = _run("simulate", "ass", "--games", "10", "--out", other, "--resume")
    assert res.exit_code == 2 and "holds something other than a cardlab run" in res.output
    done = tmp_path / "done"
    assert _run("simulate", "ass", "--games", "10", "--out", done, "--backend",
                "serial").exit_code == 0
    res = _run("simulate", "ass", "--games", "10", "--out", done, "--backend", "serial")
    assert res.exit_code == 2 and "already holds a finished run" in res.output
    res = _run("simulate", "ass", "--games", "10", "--seed", "1", "--out", done, "--resume")
    assert res.exit_code == 2 and "seed: 0 -> 1" in res.output


def test_summarize_refuses_foreign_and_corrupt_folders(tmp_path):
    res = _run("summarize", tmp_path / "missing")
    assert res.exit_code == 2 and "not a folder of cardlab results" in res.output
    run = tmp_path / "run"
    assert _run("simulate", "ass", "--games", "20", "--out", run, "--backend", "serial",
                "--chunk-size", "10").exit_code == 0
    part = sorted(run.glob("part-*.parquet"))[0]
    part.write_bytes(b"not parquet at all")
    res = _run("summarize", run)
    assert res.exit_code == 2 and "is not a readable Parquet file" in res.output
    lines = res.output.strip().splitlines()  # one line per damaged file, then the error
    assert len(lines) == 3 and lines[0].startswith(f"damaged: {part}")
    assert lines[1].startswith("damaged: ") and "_manifest.json" in lines[1]
    assert lines[2].startswith("error: ") and "--resume --repair" in lines[2]
    (run / "_run.json").write_text("{broken")
    res = _run("summarize", run)
    assert res.exit_code == 2 and "cannot read" in res.output


def test_dask_backend_without_dask_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    monkeypatch.delitem(sys.modules, "analyzer.runner.dask_backend", raising=False)
    res = _run("simulate", "ass", "--games", "5000", "--backend", "dask", "--chunk-size", "100")
    assert res.exit_code == 2 and "pip install 'cardlab[dask]'" in res.output


def test_start_plays_the_same_games_as_a_longer_run(tmp_path):
    from analyzer.engines.kernel import RunSpec
    from analyzer.runner import collect

    out = tmp_path / "tail"
    res = _run("simulate", "ass", "--players", "3", "--games", "40", "--start", "1000",
               "--seed", "5", "--out", out, "--backend", "serial")
    assert res.exit_code == 0, res.output
    rows = pd.read_parquet(out)
    assert rows["index"].min() == 1000 and rows["index"].max() == 1039
    longer = collect(RunSpec("ass", 3, ("basic",) * 3, seed=5), 1040, workers=1)
    pd.testing.assert_frame_equal(rows, longer.iloc[3000:].reset_index(drop=True),
                                  check_exact=True)

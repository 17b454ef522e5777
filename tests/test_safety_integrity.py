"""Issue 20, items 3, 4, 8 and 10: a run folder's rows are verified, not only the summary in
their footers; rates are fractions inside [0, 1] in every output format; a study and a run
never write into each other's folders; --chunk-size is bounded by memory per row."""

import csv
import io
import json
import re
import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_check import one_error, run_cli
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.runner import load_rows
from analyzer.runner.manifest import MOMENTS_KEY

runner = CliRunner()
SIM = ("simulate", "ass", "--games", "40", "--seed", "11", "--backend", "serial",
       "--chunk-size", "10", "--quiet")
PART = "part-0000000000000000010-0000000000000000020.parquet"


def _run(*args, env=None):
    return runner.invoke(app, [str(a) for a in args], env=env, catch_exceptions=False)


def _damaged(res) -> list[str]:
    return [line for line in res.output.splitlines() if line.startswith("damaged:")]


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


def _rewrite_part(path, edit_columns=None, edit_metadata=None):
    """Write a part again with edited columns and/or metadata (the rest kept as it was)."""
    table = pq.read_table(path)
    meta = dict(table.schema.metadata)
    columns = {name: table[name].to_numpy() for name in table.column_names}
    if edit_columns:
        edit_columns(columns)
    if edit_metadata:
        edit_metadata(meta)
    new = pa.table({name: pa.array(values) for name, values in columns.items()})
    pq.write_table(new.replace_schema_metadata(meta), path)


def test_item03_edited_rows_with_their_footer_kept_are_damage(run, reference):
    def zero(columns):
        columns["minus_points"] = np.zeros_like(columns["minus_points"])

    _rewrite_part(run / PART, edit_columns=zero)
    assert (pd.read_parquet(run)["minus_points"] == 0).sum() > 0  # pandas reads the edit
    res = _run("summarize", run)
    assert res.exit_code == 2, res.output
    assert "complete (verified)" not in res.output
    assert any(PART in line and "checksum" in line for line in _damaged(res)), res.output
    # replay repairs it: exactly the edited range is played again
    res = _run(*SIM, "--out", run, "--resume", "--repair")
    assert res.exit_code == 0, res.output
    assert "complete (verified)" in _run("summarize", run).output
    pd.testing.assert_frame_equal(load_rows(run), reference[1])


def test_item03_an_edited_footer_summary_is_damage(run):
    def halve(meta):
        doc = json.loads(meta[MOMENTS_KEY])
        doc["values"] = [[v / 2 if isinstance(v, float) else v for v in row]
                         for row in doc["values"]]
        meta[MOMENTS_KEY] = json.dumps(doc).encode()

    _rewrite_part(run / PART, edit_metadata=halve)
    res = _run("summarize", run)
    assert res.exit_code == 2 and any(PART in line for line in _damaged(res)), res.output


def test_item03_a_part_without_a_checksum_is_not_verified(run):
    def drop(meta):
        del meta[b"cardlab.checksum"]

    _rewrite_part(run / PART, edit_metadata=drop)
    res = _run("summarize", run)
    assert res.exit_code == 2
    assert any(PART in line and "no checksum" in line for line in _damaged(res)), res.output


def test_item03_edited_aggregate_counts_are_damage(tmp_path):
    out = tmp_path / "agg"
    assert _run(*SIM, "--out", out, "--aggregate").exit_code == 0
    part = out / PART

    def shift(columns):  # move one count between two values: the game count stays right
        count = columns["count"].copy()
        count[0] += 1
        count[1] -= 1
        columns["count"] = count

    _rewrite_part(part, edit_columns=shift)
    res = _run("summarize", out)
    assert res.exit_code == 2
    assert any(PART in line and "checksum" in line for line in _damaged(res)), res.output


MODES = {  # a small budget: rates near 0 and 1 are where intervals used to leave [0, 1]
    ("ass", "games"): ("simulate", "ass", "--games", "30", "-p", "4"),
    ("ass", "matches"): ("simulate", "ass", "--matches", "30", "-p", "4"),
    ("jass", "matches"): ("simulate", "jass", "--matches", "6", "-p", "3"),
    ("jass", "deals"): ("simulate", "jass", "--deals", "6", "-p", "3"),
}


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _table_bounds(cell: str) -> tuple[float, float, float]:
    """(low, value, high) of a table cell 'v ± h' or 'v [low, high]'."""
    m = re.fullmatch(r"(\S+) ± (\S+)", cell)
    if m:
        v, h = _number(m.group(1)), _number(m.group(2))
        return v - h, v, v + h
    m = re.fullmatch(r"(\S+) \[(\S+), (\S+)\]", cell)
    assert m, cell
    return _number(m.group(2)), _number(m.group(1)), _number(m.group(3))


@pytest.mark.parametrize("game,mode", list(MODES))
def test_item04_rates_are_fractions_in_every_format(game, mode):
    from analyzer.runner.manifest import mode_metrics

    rates = [m for m in mode_metrics(game, mode) if m.label.endswith("%")]
    assert rates
    args = (*MODES[game, mode], "--seed", "3", "--backend", "serial", "-q")
    env = {"COLUMNS": "200"}
    # json and csv: fractions, each with its bounds inside [0, 1]
    res = _run(*args, "--format", "json", env=env)
    assert res.exit_code == 0, res.output
    seats = json.loads(res.stdout.splitlines()[0])["seats"]
    res = _run(*args, "--format", "csv", env=env)
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert len(rows) == len(seats)
    for records in (seats, rows):
        for rec in records:
            for m in rates:
                low, value, high = (float(rec[m.column + s]) for s in ("_low", "", "_high"))
                assert 0.0 <= low <= value <= high <= 1.0, (m.column, rec)
    # the table: percentages, each interval shown inside 0..100%
    res = _run(*args, env=env)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    header_at = next(i for i, line in enumerate(lines) if rates[0].label in line)
    header = re.split(r"\s{2,}", lines[header_at].strip())
    body = [re.split(r"\s{2,}", line.strip()) for line in lines[header_at + 2:]
            if re.match(r"\s*\d+  ", line)]
    assert len(body) == len(seats)
    for cells in body:
        assert len(cells) == len(header), (header, cells)
        for m in rates:
            low, value, high = _table_bounds(cells[header.index(m.label)])
            assert 0.0 <= low <= value <= high <= 100.0, (m.label, cells)
        # the same estimate as the fraction in json, in percent
        seat = seats[int(cells[0])]
        for m in rates:
            _, value, _ = _table_bounds(cells[header.index(m.label)])
            assert value == pytest.approx(100 * seat[m.column], abs=1.0)


@pytest.fixture
def cli(capsys, tmp_path, monkeypatch):
    """The command line as a user runs it (run_app: exit code, stdout, stderr), in tmp_path."""
    monkeypatch.chdir(tmp_path)
    return lambda *args: run_cli(capsys, *args)


def _one_error(err: str, text: str) -> None:
    one_error(err, text, hint=False)


def test_item10_a_chunk_too_big_for_memory_is_refused_naming_the_largest(cli, tmp_path):
    from analyzer.cli.options import check_chunk_size, max_chunk_size

    largest = max_chunk_size("ass", "games", 4)
    assert 200_000 <= largest < 60_000_000  # above the default chunk, below the issue's
    code, out, err = cli("simulate", "ass", "--games", 60_000_000, "--chunk-size",
                         60_000_000, "--backend", "serial", "--out", "big")
    assert code == 2 and out == ""
    _one_error(err, f"the largest allowed is {largest:,}")
    assert not (tmp_path / "big").exists()  # refused before any work
    # the bound is on the chunk actually played, and it grows with fewer rows per unit
    check_chunk_size(largest, "ass", "games", 4, 10**12)
    check_chunk_size(10**12, "ass", "games", 4, 100)
    with pytest.raises(Exception, match=f"largest allowed is {largest:,}"):
        check_chunk_size(largest + 1, "ass", "games", 4, 10**12)
    assert max_chunk_size("ass", "games", 3) > largest > max_chunk_size("ass", "games", 12)


@pytest.mark.parametrize("value", ["99999999999999999999", str(2**63 + 1)])
def test_item10_chunk_size_has_the_count_bound(cli, value):
    code, out, err = cli("simulate", "ass", "--games", 10, "--chunk-size", value,
                         "--backend", "serial")
    assert code == 2 and out == ""
    _one_error(err, "--chunk-size")
    assert "2**63" in err


def _listing(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_item08_a_study_refuses_a_run_folder_as_out(cli, reference, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(reference[0], run)
    before = _listing(run)
    for out, text in ((run, "is a cardlab run folder"), (run / "sub", "is inside")):
        code, _, err = cli("study", "seats", "-p", "3", "--games", "20", "--out", out, "-q")
        assert code == 2, err
        _one_error(err, text)
        assert "choose another --out" in err
    assert _listing(run) == before  # nothing written into the run
    pd.testing.assert_frame_equal(pd.read_parquet(run), reference[1])


def test_item08_save_study_refuses_a_run_folder_too(reference, tmp_path):
    from analyzer.errors import CardlabError
    from analyzer.studies.results import StudyResult, base_manifest, save_study

    run = tmp_path / "run"
    shutil.copytree(reference[0], run)
    result = StudyResult("seats", {"t": pd.DataFrame({"x": [1]})}, base_manifest("seats"))
    with pytest.raises(CardlabError, match="is a cardlab run folder"):
        save_study(result, run)
    assert not (run / "seats").exists()


def test_item08_a_run_refuses_a_study_folder_and_any_folder_inside_an_output(cli, reference,
                                                                             tmp_path):
    from analyzer.studies.results import StudyResult, base_manifest, save_study

    result = StudyResult("seats", {"t": pd.DataFrame({"x": [1]})}, base_manifest("seats"))
    study = save_study(result, tmp_path / "studies")
    run = tmp_path / "run"
    shutil.copytree(reference[0], run)
    before = _listing(tmp_path)
    for out, text in ((study, "is a cardlab study folder"),
                      (study / "run", "is inside"),
                      (run / "inner", "is inside the run folder")):
        code, _, err = cli(*SIM, "--out", out)
        assert code == 2, err
        _one_error(err, text)
    assert _listing(tmp_path) == before  # nothing made, before any game
    # a study's --out is the folder that holds studies, never a study folder itself
    code, _, err = cli("study", "seats", "-p", "3", "--games", "20", "--out", study, "-q")
    assert code == 2
    _one_error(err, "is a cardlab study folder")

"""Issue 20, items 3, 4, 8 and 10: a run folder's rows are verified, not only the summary in
their footers; rates are fractions inside [0, 1] in every output format; a study and a run
never write into each other's folders; --chunk-size is bounded by memory per row."""

import json
import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
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

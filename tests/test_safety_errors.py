"""Issue 8, reproductions 7-9: every bad input is one line ``error: ...`` (usage errors add a
``hint:``), exit status 2, before any work - never a framed box, never a traceback."""

import errno
import time

import pandas as pd
import pytest
from cli_check import one_error as _one_error

from analyzer.errors import CardlabError
from analyzer.outputs import write_lines
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.results import save_study
from analyzer.studies.seats import run_seats
from reports.build import build_report


@pytest.mark.parametrize("args,text", [
    (["simulate", "jass", "--matches", "0"], "must be a positive integer; got 0"),
    (["simulate", "ass", "-s", "hold-jokers:keep=nan"], "'keep' needs a number"),
    (["simulate", "ass", "-s", "hold-jokers:keep=2.5"], "(a whole number), got '2.5'"),
    (["simulate", "ass", "-s", "hold-jokers:keep=1,keep=3"], "'keep' is given twice"),
    (["simulate", "ass", "-s", "hold-jokers:keep=\u0663"], "'keep' needs a number"),
    (["simulate", "ass", "-s", "hold-jokers:keep=inf"], "'keep' needs a number"),
    (["simulate", "jass", "-s", "adaptive:fight=nan"], "'fight' needs a number"),
    (["simulate", "jass", "-s", "adaptive:strength=inf"], "'strength' needs a number"),
    (["simulate", "jass", "-s", "adaptive:gap=nan"], "'gap' needs a number"),
])
def test_repro7_bad_counts_and_knobs(cli, args, text):
    code, _, err = cli(*args)
    assert code == 2
    _one_error(err, text)


@pytest.mark.parametrize("args,text", [
    (["export", "ass", "--seed", "1", "--start", "9223372036854775807", "--games", "2",
      "--out", "x.jsonl"], "indices must stay below 2**63"),
    (["export", "jass", "--seed", "1", "--matches", str(10**19), "--out", "x.jsonl"],
     "indices must stay below 2**63"),
    (["replay", "ass", "--seed", "1", "--index", "18446744073709551616"], "--index must be"),
    (["replay", "ass", "--seed", "1", "--index", "9223372036854775808"], "--index must be"),
    (["replay", "jass", "--seed", "1", "--index", "9223372036854775808"], "--index must be"),
    (["replay", "ass", "--seed", "-1", "--index", "0"], "--seed must be"),
    (["study", "all", "--scale", "nan"], "--scale must be a positive number"),
    (["study", "all", "--scale", "inf"], "--scale must be a positive number"),
    (["study", "seats", "--players", "\u0663"], "--players must be numbers"),
    (["simulate", "ass", "--games", "3", "--out", "-"], "--out - (stdout) is for export only"),
    (["study", "seats", "--out", "-"], "--out - (stdout) is for export only"),
])
def test_repro8_overflows_and_bad_values(cli, tmp_path, monkeypatch, args, text):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(*args)
    assert code == 2
    _one_error(err, text)
    assert list(tmp_path.iterdir()) == []


def test_repro8_compare_checks_metric_and_better_before_playing(cli, tmp_path):
    t0 = time.perf_counter()
    code, _, err = cli("study", "compare", "--game", "ass", "-s", "basic", "-s", "random",
                       "--games", "100000", "--metric", "nosuch", "--better", "lower",
                       "--out", tmp_path)
    assert code == 2
    _one_error(err, "--metric 'nosuch' is not a result column of ass games")
    code, _, err = cli("study", "compare", "--game", "ass", "-s", "basic", "-s", "random",
                       "--games", "100000", "--better", "sideways", "--out", tmp_path)
    assert code == 2
    _one_error(err, "--better must be lower or higher")
    assert time.perf_counter() - t0 < 30 and list(tmp_path.iterdir()) == []


def test_repro8_study_out_file_is_refused_before_playing(cli, tmp_path):
    f = tmp_path / "file"
    f.write_text("mine")
    code, _, err = cli("study", "seats", "--players", "4", "--games", "10", "--out", f)
    assert code == 2
    _one_error(err, "exists and is not a folder")
    assert f.read_text() == "mine"


def test_repro8_resume_on_a_read_only_folder(cli, tmp_path, monkeypatch):
    out = tmp_path / "run"
    code, _, _ = cli("simulate", "ass", "--games", "20", "--chunk-size", "10", "--backend",
                     "serial", "--out", out, "--quiet")
    assert code == 0
    (out / "_manifest.json").unlink()
    real_open = open

    def read_only(path, mode="r", *args, **kwargs):  # what a read-only mount answers
        if any(c in mode for c in "wax+"):
            raise PermissionError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("analyzer.runner.folder.open", read_only, raising=False)
    code, _, err = cli("simulate", "ass", "--games", "20", "--chunk-size", "10", "--backend",
                       "serial", "--out", out, "--resume", "--quiet")
    assert code == 1  # an I/O error (issue 42, item 16)
    _one_error(err, "Read-only file system")


def test_repro8_full_disk_export_leaves_nothing(tmp_path):
    def lines():
        yield "{}"
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(CardlabError, match="No space left on device; nothing was written"):
        write_lines(tmp_path / "x.jsonl", lines())
    assert list(tmp_path.iterdir()) == []


def test_repro8_full_disk_report_keeps_the_previous_one(tmp_path, monkeypatch):
    save_study(run_seats(SyntheticAssBackend(), players=[3], games=30), tmp_path / "res")
    index = build_report(tmp_path / "res", tmp_path / "rep")
    before = index.read_text()

    def full(self, path, *args, **kwargs):
        open(path, "w").close()  # the file is created, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    with pytest.raises(CardlabError, match="No space left on device"):
        build_report(tmp_path / "res", tmp_path / "rep")
    assert index.read_text() == before
    assert (tmp_path / "rep" / "data" / "seats" / "seats.csv").stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep", "res"]


@pytest.mark.parametrize("args,text,hint", [
    (["simulate", "ass", "--games", "x"], "Invalid value for '--games'", "see cardlab"),
    (["simulate", "ass", "--gamez", "3"], "No such option: --gamez", "did you mean --games?"),
    (["export", "ass", "--games", "3"], "Missing option '--out'", "see cardlab export ass"),
    (["simulate", "pocker"], "No such command 'pocker'", "see cardlab simulate --help"),
])
def test_repro9_usage_errors_are_one_line_and_a_hint(cli, args, text, hint):
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    _one_error(err, text)
    assert err.strip().splitlines()[1].startswith("hint: ") and hint in err

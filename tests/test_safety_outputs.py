"""Issue 8, reproductions 1-3 and 9 (export): outputs never destroy what cardlab did not write."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from analyzer.errors import CardlabError
from analyzer.outputs import MARKER, replace_folder
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.results import save_study
from analyzer.studies.seats import run_seats
from reports.build import build_report

MAIN = "from analyzer.cli import main; main()"


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    root = tmp_path_factory.mktemp("studies")
    save_study(run_seats(SyntheticAssBackend(), players=[3], games=50), root)
    return root


def test_repro1_report_never_deletes_a_users_folders(studies, tmp_path):
    p = tmp_path / "p"
    (p / "data").mkdir(parents=True)
    (p / "figures").mkdir()
    (p / "data" / "important.csv").write_text("x\n")
    with pytest.raises(CardlabError, match=f"{p} is not empty and was not written by cardlab"):
        build_report(studies, p)
    assert (p / "data" / "important.csv").read_text() == "x\n"
    assert sorted(x.name for x in p.iterdir()) == ["data", "figures"]
    assert [x.name for x in tmp_path.iterdir()] == ["p"]  # no build folder left behind


def test_repro1_report_replaces_its_own_earlier_report_atomically(studies, tmp_path):
    out = tmp_path / "report"
    index = build_report(studies, out)
    assert index == out / "index.html" and (out / MARKER).is_file()
    # a file an earlier cardlab wrote there (its marker lists it; issue 42: a file it does
    # not list is the user's, and the rebuild is refused instead)
    (out / "data" / "seats" / "stale.csv").write_text("old run\n")
    marker = json.loads((out / MARKER).read_text())
    marker["files"]["data/seats/stale.csv"] = hashlib.sha256(b"old run\n").hexdigest()
    (out / MARKER).write_text(json.dumps(marker))
    build_report(studies, out)  # ours: replaced as a whole, nothing of the old one mixed in
    assert not (out / "data" / "seats" / "stale.csv").exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["report"]


def test_a_failing_build_leaves_the_previous_folder_intact(tmp_path):
    out = tmp_path / "out"
    replace_folder(out, "report", lambda d: (d / "index.html").write_text("first"))

    def broken(d):
        (d / "index.html").write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(CardlabError, match="No space left on device.*nothing was changed"):
        replace_folder(out, "report", broken)
    assert (out / "index.html").read_text() == "first"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out"]


def test_repro2_study_never_replaces_a_users_folder(tmp_path):
    (tmp_path / "q" / "seats").mkdir(parents=True)
    (tmp_path / "q" / "seats" / "notes.txt").write_text("mine")
    result = run_seats(SyntheticAssBackend(), players=[3], games=20)
    with pytest.raises(CardlabError, match="was not written by cardlab"):
        save_study(result, tmp_path / "q")
    assert (tmp_path / "q" / "seats" / "notes.txt").read_text() == "mine"
    save_study(result, tmp_path / "r")
    save_study(result, tmp_path / "r")  # its own earlier result: replaced
    with pytest.raises(CardlabError, match="exists and is not a folder"):
        (tmp_path / "file").write_text("x")
        save_study(result, tmp_path / "file")




def test_repro3_export_refuses_devices_existing_files_and_folders(cli, tmp_path):
    code, _, err = cli("export", "ass", "--seed", "1", "--games", "5", "--out", "/dev/null")
    assert code == 2 and "not a regular file" in err
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
    code, _, err = cli("export", "ass", "--seed", "1", "--games", "5", "--out", "/dev/null",
                       "--force")
    assert code == 2 and "not a regular file" in err
    f = tmp_path / "games.jsonl"
    f.write_text("keep me\n")
    code, _, err = cli("export", "ass", "--seed", "1", "--games", "2", "--out", f)
    assert code == 2 and "add --force" in err and f.read_text() == "keep me\n"
    code, _, _ = cli("export", "ass", "--seed", "1", "--games", "2", "--out", f, "--force")
    assert code == 0 and len(f.read_text().splitlines()) == 2
    # the target is checked before any game is played: 10**18 matches would take forever
    code, _, err = cli("export", "ass", "--seed", "1", "--games", "2", "--out", tmp_path)
    assert code == 2 and "is a folder" in err
    code, _, err = cli("export", "jass", "--seed", "1", "--matches", 10**18, "--out", tmp_path)
    assert code == 2 and "is a folder" in err


def test_repro3_out_dash_streams_json_lines_to_stdout(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("export", "ass", "--seed", "3", "--games", "3", "--out", "-")
    assert code == 0 and len(out.splitlines()) == 3
    assert all(line.startswith("{") for line in out.splitlines())
    assert "wrote 3 games to stdout" in err
    assert list(tmp_path.iterdir()) == []  # no file called "-"


def test_repro9_sigterm_during_export_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "many.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", MAIN, "export", "ass", "--seed", "1",
                             "--games", "100000000", "--out", str(out)],
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not list(tmp_path.glob(".many.jsonl.*.part")):
        time.sleep(0.2)
    assert list(tmp_path.glob(".many.jsonl.*.part")), "the export did not start"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted; nothing was written" in err
    assert list(tmp_path.iterdir()) == []

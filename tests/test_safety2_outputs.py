"""Issue 42, items 1-3, 16 and 17: output folders never lose a user's file, --force never
writes into a cardlab folder, a refused command leaves nothing behind, I/O errors exit 1
naming the path, and two writers of one folder never both succeed."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.errors import CardlabError
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.results import save_study
from analyzer.studies.seats import run_seats
from reports.build import build_report

COMPARE = ("study", "compare", "--game", "ass", "-s", "basic", "-s", "careful", "--players",
           "4", "--games", "12", "-q")
SIM = ("simulate", "ass", "--games", "6", "--chunk-size", "3", "--backend", "serial", "-q")
MAIN = "from analyzer.cli import main; main()"


def _listing(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (None for a folder)."""
    out = {}
    for path in sorted(root.rglob("*")):
        out[str(path.relative_to(root))] = None if path.is_dir() else path.read_bytes()
    return out


def _one_line(err: str, *words: str) -> None:
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for w in words:
        assert w in lines[0], (w, err)
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    root = tmp_path_factory.mktemp("studies")
    save_study(run_seats(SyntheticAssBackend(), players=[3], games=30), root)
    return root


@pytest.fixture(scope="module")
def decisions_run(tmp_path_factory):
    from analyzer.learn import ass_decisions
    from analyzer.learn.decisions import run_decisions
    from strategies.registry import parse_strategy

    path = tmp_path_factory.mktemp("dec") / "dec"
    run_decisions(ass_decisions, path, 4, 4, 4, parse_strategy("ass", "pimc:worlds=2"),
                  resume=False, progress=False)
    return path


@pytest.fixture
def run(cli, tmp_path):
    path = tmp_path / "run"
    code, _, err = cli(*SIM, "--out", path)
    assert code == 0, err
    return path


# ----------------------------------------------------------------------------- item 1


def test_safety2_item01_study_rerun_never_deletes_a_users_files(cli, tmp_path):
    study = tmp_path / "S"
    code, _, err = cli(*COMPARE, "-o", study)
    assert code == 0, err
    (study / "compare" / "NOTES.txt").write_text("my notes\n")
    (study / "compare" / "mytrain").mkdir()
    (study / "compare" / "mytrain" / "learned.json").write_text("{}\n")
    before = _listing(tmp_path)
    code, out, err = cli(*COMPARE, "-o", study)
    assert code == 2, (out, err)
    _one_line(err, "NOTES.txt", "mytrain", "cardlab did not write")
    assert _listing(tmp_path) == before  # refused before any game, nothing touched
    # study all checks every study folder before the first game
    code, _, err = cli("study", "all", "-o", study, "--scale", "0.2", "-q")
    assert code == 2
    _one_line(err, "NOTES.txt")
    assert _listing(tmp_path) == before
    # without the user's files the rerun replaces the earlier result
    (study / "compare" / "NOTES.txt").unlink()
    shutil.rmtree(study / "compare" / "mytrain")
    code, _, err = cli(*COMPARE, "-o", study)
    assert code == 0, err


def test_safety2_item01_an_edited_cardlab_file_is_the_users_now(studies, tmp_path):
    out = tmp_path / "rep"
    build_report(studies, out)
    (out / "index.html").write_text("my edits")
    with pytest.raises(CardlabError, match="index.html.*changed since cardlab wrote it"):
        build_report(studies, out)
    assert (out / "index.html").read_text() == "my edits"


def test_safety2_item01_report_rerun_never_deletes_a_users_files(cli, studies, tmp_path):
    rep = tmp_path / "rep"
    code, _, err = cli("report", "--from", studies, "--out", rep)
    assert code == 0, err
    (rep / "NOTES.txt").write_text("mine\n")
    (rep / "figures" / "my-sketch.png").write_bytes(b"\x89PNG")
    before = _listing(tmp_path)
    code, _, err = cli("report", "--from", studies, "--out", rep)
    assert code == 2
    _one_line(err, "NOTES.txt", "figures/my-sketch.png")
    assert _listing(tmp_path) == before
    # study all --report: checked before any game
    code, _, err = cli("study", "all", "-o", tmp_path / "new", "--report", rep, "--scale",
                       "0.2", "-q")
    assert code == 2
    _one_line(err, "NOTES.txt")
    assert _listing(tmp_path) == before


def test_safety2_item01_other_outputs_are_refused_inside_a_study_or_report(
        cli, studies, tmp_path, decisions_run):
    rep = tmp_path / "rep"
    build_report(studies, rep)
    study = studies / "seats"
    before = _listing(tmp_path), _listing(studies)
    for args in (
        ("replay", "ass", "--seed", "1", "--index", "0", "--html", study / "game1.html"),
        ("replay", "ass", "--seed", "1", "--index", "0", "--html", rep / "game1.html"),
        ("export", "ass", "--seed", "1", "--games", "2", "--out", rep / "data" / "g.jsonl"),
        ("export", "ass", "--seed", "1", "--games", "2", "--out", study / "g.jsonl"),
        (*SIM, "--out", rep / "run"),
        ("report", "--from", studies, "--out", study / "rep"),
        ("report", "--from", studies, "--out", rep / "inner"),
        ("train", "ass", "--from", decisions_run, "--out", study / "t", "-q"),
        ("train", "ass", "--from", decisions_run, "--out", tmp_path / "t", "--weights",
         rep / "learned.json", "-q"),
        ("decisions", "ass", "--games", "1", "--searcher", "pimc:worlds=2", "--out",
         rep / "dec", "-q"),
        ("tune", "ass", "--start", "heuristic", "--games", "10", "--confirm", "2", "--out",
         study / "s.toml"),
    ):
        code, out, err = cli(*args)
        assert code == 2, (args, out, err)
        _one_line(err, "inside")
    assert (_listing(tmp_path), _listing(studies)) == before
    assert not (tmp_path / "t").exists()


# ----------------------------------------------------------------------------- item 2


def test_safety2_item02_force_never_writes_into_a_run_folder(cli, run, decisions_run, tmp_path):
    part = sorted(run.glob("part-*.parquet"))[0]
    before = _listing(run), _listing(decisions_run)
    for args in (
        ("replay", "--from", run, "--index", "1", "--html", run / "_run.json", "--force"),
        ("replay", "--from", run, "--index", "1", "--html", part, "--force"),
        ("replay", "--from", run, "--index", "1", "--html", run / "new.html"),
        ("replay", "ass", "--index", "1", "--html", decisions_run / "_run.json", "--force"),
        ("export", "ass", "--games", "2", "--out", run / "_manifest.json", "--force"),
        ("train", "ass", "--from", decisions_run, "--out", tmp_path / "t",
         "--weights", run / "_run.json", "--force", "-q"),
        ("train", "ass", "--from", decisions_run, "--out", tmp_path / "t",
         "--weights", decisions_run / "_manifest.json", "--force", "-q"),
    ):
        code, out, err = cli(*args)
        assert code == 2, (args, out, err)
        _one_line(err, "inside")
    assert (_listing(run), _listing(decisions_run)) == before
    assert not (tmp_path / "t").exists()
    code, _, err = cli("summarize", run)
    assert code == 0, err


def test_safety2_item02_force_never_writes_into_a_training_folder(cli, decisions_run, tmp_path):
    train = tmp_path / "t"
    code, _, err = cli("train", "ass", "--from", decisions_run, "--out", train, "-q")
    assert code == 0, err
    before = _listing(train)
    for args in (
        ("replay", "ass", "--index", "1", "--html", train / "learned.json", "--force"),
        ("replay", "ass", "--index", "1", "--html", train / "_train.json", "--force"),
        ("export", "ass", "--games", "2", "--out", train / "x.jsonl"),
        (*SIM, "--out", train / "run"),
        ("train", "ass", "--from", decisions_run, "--out", tmp_path / "t2", "--weights",
         train / "_train.json", "--force", "-q"),
    ):
        code, out, err = cli(*args)
        assert code == 2, (args, out, err)
        _one_line(err, "inside")
    assert _listing(train) == before and not (tmp_path / "t2").exists()


# ----------------------------------------------------------------------------- item 3


def test_safety2_item03_a_refused_training_leaves_nothing(cli, tmp_path, decisions_run):
    jass = tmp_path / "jass-dec"  # a decisions run of the other game
    shutil.copytree(decisions_run, jass)
    plan = json.loads((jass / "_run.json").read_text())
    (jass / "_run.json").write_text(json.dumps({**plan, "game": "jass"}))
    new = tmp_path / "deep" / "NEW"
    code, _, err = cli("train", "ass", "--from", jass, "--out", new, "-q")
    assert code == 2
    _one_line(err, "is not a")
    assert not (tmp_path / "deep").exists()
    # the corrected command then works (nothing of the refused one is in its way)
    code, _, err = cli("train", "ass", "--from", decisions_run, "--out", new, "-q")
    assert code == 0, err
    assert (new / "learned.json").is_file()


def test_safety2_item03_resume_into_a_missing_folder_creates_nothing(cli, tmp_path,
                                                                     decisions_run):
    code, _, err = cli("train", "ass", "--from", decisions_run, "--out", tmp_path / "a" / "b",
                       "--resume", "-q")
    assert code == 2
    _one_line(err, "--resume")
    code, _, err = cli("decisions", "ass", "--games", "1", "--searcher", "pimc:worlds=2",
                       "--out", tmp_path / "a" / "c", "--resume", "-q")
    assert code == 2
    _one_line(err, "--resume")
    assert list(tmp_path.iterdir()) == []


def test_safety2_item03_failed_outputs_leave_no_parent_folders(cli, studies, tmp_path, run,
                                                              monkeypatch):
    code, _, err = cli(*COMPARE, "--metric", "nosuch", "-o", tmp_path / "x" / "y")
    assert code == 2
    code, _, err = cli(*SIM, "--out", tmp_path / "a" / "b", "--resume")
    assert code == 2
    import reports.build

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(reports.build, "page_html", full)
    code, _, err = cli("report", "--from", studies, "--out", tmp_path / "r" / "s")
    assert code != 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


# ----------------------------------------------------------------------------- item 16


def _full_disk(monkeypatch):
    """Every fsync and every write to a file cardlab opens reports a full disk."""
    def no_space(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)


def test_safety2_item16_train_weights_on_a_full_disk_exit_1_naming_the_file(
        cli, tmp_path, decisions_run, monkeypatch):
    weights = tmp_path / "w.json"
    _full_disk(monkeypatch)
    code, _, err = cli("train", "ass", "--from", decisions_run, "--out", tmp_path / "t",
                       "--weights", weights, "-q")
    assert code == 1, err
    _one_line(err, str(weights), "No space left on device")
    assert not weights.exists()


def test_safety2_item16_decisions_on_a_full_disk_exit_1_naming_the_path(cli, tmp_path,
                                                                        monkeypatch):
    import analyzer.runner.folder as folder

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    out = tmp_path / "dec"
    with monkeypatch.context() as patch:  # the disk fills up while a part is written
        patch.setattr(folder.pq, "write_table", full)
        code, _, err = cli("decisions", "ass", "--games", "1", "--searcher", "pimc:worlds=2",
                           "--out", out, "-q")
    assert code == 1, err
    _one_line(err, str(out / "part-"), "No space left on device")
    out = tmp_path / "dec2"
    _full_disk(monkeypatch)  # full from the start: its plan cannot be written
    code, _, err = cli("decisions", "ass", "--games", "1", "--searcher", "pimc:worlds=2",
                       "--out", out, "-q")
    assert code == 1, err
    _one_line(err, str(out), "No space left on device")


def test_safety2_item16_folder_outputs_on_a_full_disk_exit_1(cli, studies, tmp_path,
                                                              monkeypatch):
    import reports.build

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(reports.build, "page_html", full)
    code, _, err = cli("report", "--from", studies, "--out", tmp_path / "rep")
    assert code == 1, err
    _one_line(err, str(tmp_path / "rep"), "No space left on device")
    assert list(tmp_path.iterdir()) == []
    code, _, err = cli("export", "ass", "--games", "2", "--out", "/dev/full/x.jsonl")
    assert code == 2  # a path under a device is bad input, not an I/O error


def test_safety2_item16_export_to_a_full_disk_exit_1(cli, tmp_path, monkeypatch):
    real_open = os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def write(self, _text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

    monkeypatch.setattr(os, "fdopen", lambda *a, **k: Full(real_open(*a, **k)))
    out = tmp_path / "g.jsonl"
    code, _, err = cli("export", "ass", "--games", "2", "--out", out)
    assert code == 1, err
    _one_line(err, str(out), "No space left on device")
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------- item 17


def _start(args, cwd):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-c", MAIN, *map(str, args)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_until(check, proc, seconds=180):
    deadline = time.time() + seconds
    while time.time() < deadline and not check():
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    assert check(), "the first writer did not start"


def _stop(proc):
    proc.terminate()
    try:
        proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


def test_safety2_item17_a_study_being_written_refuses_a_second_writer(cli, tmp_path):
    import analyzer.outputs as outputs
    from analyzer.outputs import folder_in_use

    out = tmp_path / "S"
    first = _start([*COMPARE[:-3], "--games", "2000000", "--workers", "1", "-q", "-o", out],
                   tmp_path)
    try:
        _wait_until(lambda: folder_in_use(out / "compare"), first)
        code, stdout, err = cli(*COMPARE, "-o", out)
        assert code == 2 and "saved" not in stdout + err, (stdout, err)
        _one_line(err, "in use", str(out / "compare"))
        # a command that ends, refused or not, holds no lock of this process any more
        code, _, _ = cli(*COMPARE, "--metric", "nosuch", "-o", tmp_path / "other")
        assert code == 2 and not outputs._HELD
    finally:
        _stop(first)
    assert not (out / "compare").exists()


def test_safety2_item17_the_second_decisions_writer_is_told_the_folder_is_in_use(
        cli, tmp_path):
    import fcntl

    out = tmp_path / "dec"
    out.mkdir()
    with open(out / ".lock", "a") as handle:  # a writer in another process, as flock shows it
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, _, err = cli("decisions", "ass", "--games", "1", "--searcher", "pimc:worlds=2",
                           "--out", out, "-q")
    assert code == 2
    _one_line(err, "in use")
    assert "something other than a cardlab run" not in err


def test_safety2_item17_decisions_into_a_folder_being_written(cli, tmp_path):
    from analyzer.runner.folder import RunFolder

    out = tmp_path / "dec"
    first = _start(["decisions", "ass", "--games", "100000", "--searcher", "pimc:worlds=2",
                    "--out", out, "-q"], tmp_path)
    try:
        _wait_until(lambda: out.is_dir() and RunFolder(out).is_locked(), first)
        for extra in ((), ("--resume",)):
            code, _, err = cli("decisions", "ass", "--games", "100000", "--searcher",
                               "pimc:worlds=2", "--out", out, "-q", *extra)
            assert code == 2
            _one_line(err, "in use")
    finally:
        _stop(first)


def test_safety2_item17_a_second_training_into_one_folder_is_refused(cli, tmp_path,
                                                                     decisions_run):
    out = tmp_path / "t"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from analyzer.outputs import claim_folder; "
         f"claim_folder({str(out)!r}); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1])))
    try:
        assert holder.stdout.readline().strip() == "held"
        code, _, err = cli("train", "ass", "--from", decisions_run, "--out", out, "-q")
        assert code == 2
        _one_line(err, "in use")
    finally:
        _stop(holder)
    assert not out.exists()


def test_safety2_item01_a_run_never_deletes_a_users_temporary_file(cli, run):
    (run / "_manifest.json").unlink()
    (run / ".mine.tmp").write_text("mine")
    (run / "._run.json.1-2.tmp").write_text("{")  # what a killed writer leaves: cleaned up
    code, _, err = cli(*SIM, "--out", run, "--resume")
    assert code == 0, err
    assert (run / ".mine.tmp").read_text() == "mine"
    assert not (run / "._run.json.1-2.tmp").exists()

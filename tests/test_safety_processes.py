"""Issue 8, reproductions 4 and 6: no orphan workers after kill -9, bounded resources."""

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from typer.testing import CliRunner

from analyzer.cli import app

MAIN = "from analyzer.cli import main; main()"


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_for(predicate, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("game,count", [("ass", ["--games", "300000000"]),
                                        ("jass", ["--matches", "30000000"])])
def test_repro4_kill_9_leaves_no_descendant_alive(tmp_path, game, count):
    out = tmp_path / "run"
    # compile (or load) the kernel once, so that the workers below start in seconds
    subprocess.run([sys.executable, "-c", MAIN, "simulate", game, count[0], "10", "--backend",
                    "serial", "--quiet"], capture_output=True, timeout=600, check=True)
    parent = subprocess.Popen(
        [sys.executable, "-c", MAIN, "simulate", game, *count, "--workers", "2",
         "--chunk-size", "2000", "--out", str(out), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    me = psutil.Process(parent.pid)
    try:
        assert _wait_for(lambda: len(list(out.glob("part-*.parquet"))) >= 2, 120), \
            "the run did not start"
        family = me.children(recursive=True)
        assert len(family) >= 2  # the two workers (and multiprocessing's resource tracker)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        assert _wait_for(lambda: not any(_alive(p) for p in family), 10), [
            p.pid for p in family if _alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()
        for p in psutil.Process(os.getpid()).children(recursive=True):
            if p.pid != parent.pid and _alive(p) and p.ppid() == parent.pid:
                p.kill()


def test_repro6_a_huge_count_starts_at_once_with_flat_memory(tmp_path):
    out = tmp_path / "huge"
    proc = subprocess.Popen(
        [sys.executable, "-c", MAIN, "simulate", "ass", "--games", "100000000000000",
         "--backend", "serial", "--out", str(out), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_for(lambda: len(list(out.glob("part-*.parquet"))) >= 1, 120)
        rss = psutil.Process(proc.pid).memory_info().rss
        assert rss < 1 << 30, f"{rss / 2**20:.0f} MiB"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and "finished chunks are kept" in err
    assert "Traceback" not in err


def test_repro6_index_ranges_past_2_63_are_refused():
    res = CliRunner().invoke(app, ["simulate", "ass", "--start", "9223372036854775000",
                                   "--games", "10000"], catch_exceptions=False)
    assert res.exit_code == 2 and "indices must stay below 2**63" in res.output


def test_repro6_workers_above_the_cores_are_capped_and_absurd_counts_refused(monkeypatch):
    monkeypatch.setattr("analyzer.runner.backends.cpu_count", lambda: 2)
    runner = CliRunner()
    res = runner.invoke(app, ["simulate", "ass", "--games", "40", "--workers", "64",
                              "--backend", "threads", "--quiet"], catch_exceptions=False)
    assert res.exit_code == 0
    assert "notice: --workers 64 is more than the 2 cores here; using 2" in res.output
    assert "threads, 2 workers" in res.output
    res = runner.invoke(app, ["simulate", "ass", "--games", "40", "--workers", "1000000"],
                        catch_exceptions=False)
    assert res.exit_code == 2 and "--workers must be at most 1024" in res.output

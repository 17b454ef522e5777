"""Exactness of the runner with the real games, on every backend including a Dask cluster.

For a fixed seed the rows are identical, row for row, whatever the backend (serial, local
processes, threads, Dask), worker count, chunk size or resume point. The Dask cluster (2 worker
processes on loopback) is started once for this module.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from fake_kernel import install as install_dice  # tests/ is on sys.path

from analyzer.engines.kernel import RunSpec, kernel_path
from analyzer.runner import RunOptions, collect, execute, summarize_folder
from analyzer.runner.backends import shared_pool
from analyzer.runner.folder import RunFolder

CARDLAB = str(Path(sys.executable).with_name("cardlab"))

SPECS = {
    "ass": (RunSpec("ass", 5, ("basic",) * 5, seed=7), 4000, 10),
    "ass-matches": (RunSpec("ass", 4, ("basic", "chaser", "random", "careful"), seed=5,
                            mode="matches", rules={"games_per_match": 3}), 900, 7),
    "jass-matches": (RunSpec("jass", 4, ("basic",) * 4, seed=3, mode="matches"), 600, 0),
    "jass-deals": (
        RunSpec("jass", 3, ("basic",) * 3, seed=3, mode="deals", rules={"ruleset": "swiss"}),
        3000, 123,
    ),
}


@pytest.fixture(scope="module")
def dask_backend():
    """A local Dask cluster of 2 single-threaded workers on loopback, started by the test."""
    pytest.importorskip("distributed")
    from analyzer.runner.dask_backend import DaskBackend

    backend = DaskBackend(2, (kernel_path("ass"), kernel_path("jass")))
    yield backend
    backend.close()


def _numba_threads() -> tuple[str | None, int]:
    import numba

    return os.environ.get("NUMBA_NUM_THREADS"), numba.get_num_threads()


def _warm_kernels() -> list[str]:
    from analyzer.runner import tasks

    return sorted(tasks._KERNELS)


def test_dask_workers_are_single_threaded_and_warm_before_the_first_chunk(dask_backend):
    client = dask_backend.client
    assert set(client.run(_numba_threads).values()) == {("1", 1)}
    warm = sorted([kernel_path("ass"), kernel_path("jass")])
    assert list(client.run(_warm_kernels).values()) == [warm, warm]


@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")  # the module's cluster has it
def test_starting_a_local_cluster_leaves_this_process_environment_alone():
    """Dask's nanny writes pre-spawn-environ into the parent's os.environ; a changed
    NUMBA_NUM_THREADS there made numba's next compile in this process fail."""
    from analyzer.runner.dask_backend import DaskBackend

    before = os.environ.get("NUMBA_NUM_THREADS")
    backend = DaskBackend(1, ())
    try:
        assert os.environ.get("NUMBA_NUM_THREADS") == before
    finally:
        backend.close()
    assert os.environ.get("NUMBA_NUM_THREADS") == before


def _serial(spec, count, start):
    opts = RunOptions(backend="serial", chunk_size=count)
    return execute(spec, count, start, opts, collect_rows=True).rows


@pytest.mark.parametrize("name", list(SPECS))
def test_rows_identical_on_every_backend(name, dask_backend, tmp_path):
    spec, count, start = SPECS[name]
    base = _serial(spec, count, start)
    assert len(base) == count * spec.players
    variants = {
        "local-2": execute(spec, count, start, RunOptions(chunk_size=count // 3 + 1),
                           collect_rows=True, backend=shared_pool(2)).rows,
        "threads-3": execute(spec, count, start,
                             RunOptions(backend="threads", workers=3, chunk_size=count // 7),
                             collect_rows=True).rows,
        "dask-2": execute(spec, count, start, RunOptions(chunk_size=count // 5 + 3),
                          collect_rows=True, backend=dask_backend).rows,
        "collect": collect(spec, count, start=start, workers=2),
    }
    for label, rows in variants.items():
        pd.testing.assert_frame_equal(rows, base, check_exact=True, obj=label)
    # the same run written by Dask workers into a folder reads back identically
    out = tmp_path / "run"
    execute(spec, count, start, RunOptions(chunk_size=count // 4), out=out, backend=dask_backend)
    pd.testing.assert_frame_equal(pd.read_parquet(out), base, check_exact=True)


@pytest.mark.parametrize("name", ["ass", "ass-matches", "jass-deals"])
def test_aggregate_run_gives_the_seat_tables_of_the_rows(name, tmp_path):
    from analyzer.runner.aggregate import moments_from_histogram
    from analyzer.runner.manifest import mode_metrics
    from analyzer.summary import seat_moments, seat_table

    spec, count, start = SPECS[name]
    execute(spec, count, start, RunOptions(backend="serial", chunk_size=count // 3),
            out=tmp_path / "rows")
    execute(spec, count, start, RunOptions(backend="threads", workers=2,
                                           chunk_size=count // 5), out=tmp_path / "agg",
            aggregate=True)
    rows, agg = summarize_folder(tmp_path / "rows"), summarize_folder(tmp_path / "agg")
    pd.testing.assert_frame_equal(agg.moments, rows.moments, check_exact=True)
    metrics = mode_metrics(spec.game, agg.plan["mode"])
    pd.testing.assert_frame_equal(seat_table(agg.moments, metrics),
                                  seat_table(rows.moments, metrics), check_exact=True)
    # every per-seat distribution too: the histograms are the rows' value counts per seat
    table = pd.read_parquet(tmp_path / "rows")
    for column in rows.moments.columns.get_level_values(0).unique():
        counts = table.groupby(["seat", column]).size()
        expected = {(int(s), int(v)): int(n) for (s, v), n in counts.items()}
        hist = agg.hist[(agg.hist["column"] == column) & (agg.hist["given"] == "")]
        got = {(int(s), int(v)): int(n)
               for s, v, n in zip(hist["seat"], hist["value"], hist["count"], strict=True)}
        assert got == expected, column
    # ... and per outcome: each boolean column splits every other column's statistics
    outcomes = [c for c in table.columns[2:] if table[c].dtype == bool]
    assert outcomes
    columns = list(rows.moments.columns.get_level_values(0).unique())
    for given in outcomes:
        chosen = table[table[given]]
        if chosen["seat"].nunique() < spec.players:
            continue  # some seat never had this outcome: seat_moments would drop its row
        others = [c for c in columns if c != given]
        pd.testing.assert_frame_equal(
            moments_from_histogram(agg.hist, columns, given=given, given_value=1),
            seat_moments(chosen, others), check_exact=True, obj=given,
        )


def test_dask_scheduler_address_and_client_side_writing(dask_backend, tmp_path):
    """--scheduler: connect to a running cluster; results come back and the client writes."""
    spec, count, start = SPECS["jass-matches"]
    address = dask_backend.cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    out = tmp_path / "run"
    result = execute(spec, count, start, RunOptions(backend="dask", scheduler=address,
                                                    chunk_size=150), out=out, aggregate=True)
    assert "dask (tcp://127.0.0.1" in result.backend
    rows_run = tmp_path / "rows"
    execute(spec, count, start, RunOptions(backend="serial", chunk_size=250), out=rows_run)
    a, b = summarize_folder(out), summarize_folder(rows_run)
    pd.testing.assert_frame_equal(a.moments, b.moments, check_exact=True)
    # per-game rows through the borrowed cluster, written by this process
    dask_rows = tmp_path / "dask-rows"
    execute(spec, count, start, RunOptions(backend="dask", scheduler=address, chunk_size=111),
            out=dask_rows)
    pd.testing.assert_frame_equal(pd.read_parquet(dask_rows), pd.read_parquet(rows_run),
                                  check_exact=True)
    pd.testing.assert_frame_equal(summarize_folder(dask_rows).moments, b.moments,
                                  check_exact=True)


def test_dask_worker_death_costs_only_its_chunk(dask_backend, tmp_path, monkeypatch):
    install_dice(monkeypatch)
    spec = RunSpec("dice", 3, ("basic",) * 3, seed=5)
    base = _serial(spec, 2000, 0)
    marker = tmp_path / "died"
    dying = RunSpec("dice", 3, ("basic",) * 3, seed=5,
                    rules={"fail_at": [[1500, f"exit-once:{marker}"]]})
    rows = execute(dying, 2000, 0, RunOptions(chunk_size=250), collect_rows=True,
                   backend=dask_backend).rows
    assert marker.exists()  # the worker holding index 1500 really died
    pd.testing.assert_frame_equal(rows, base, check_exact=True)


def _wait_for_parts(folder: Path, proc: subprocess.Popen, parts: int) -> None:
    deadline = time.time() + 60
    while time.time() < deadline:
        if len(list(folder.glob("part-*.parquet"))) >= parts:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError("the run wrote no parts in time")


def _cli(*args):
    from typer.testing import CliRunner

    from analyzer.cli import app

    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_killed_run_resumes_to_the_same_rows(tmp_path):
    """SIGKILL (a killed process: no cleanup at all), then --resume with other workers."""
    out = tmp_path / "run.parquet"
    args = ["simulate", "ass", "--players", "4", "--games", "120000", "--seed", "9",
            "-s", "basic", "-s", "random", "-s", "basic", "-s", "careful", "--out", str(out)]
    proc = subprocess.Popen([CARDLAB, *args, "--backend", "serial", "--chunk-size", "600"],
                            start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    _wait_for_parts(out, proc, 3)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    folder = RunFolder(out)
    assert not folder.is_complete()
    done = folder.done_units()
    assert 0 < done < 120_000
    partial = summarize_folder(out)
    assert not partial.complete and partial.done == done
    resumed = _cli(*args, "--resume", "--backend", "threads", "--workers", "2", "-q")
    assert resumed.exit_code == 0, resumed.output
    assert f"{120_000 - done:,} games in" in resumed.output
    assert "already done (resumed)" in resumed.output
    assert folder.is_complete()
    rows = pd.read_parquet(out)
    spec = RunSpec("ass", 4, ("basic", "random", "basic", "careful"), seed=9)
    pd.testing.assert_frame_equal(rows, collect(spec, 120_000, workers=2), check_exact=True)


def test_sigterm_stops_cleanly_and_resume_completes(tmp_path):
    out = tmp_path / "jass"
    args = ["simulate", "jass", "--matches", "12000", "--seed", "4", "--out", str(out)]
    proc = subprocess.Popen([CARDLAB, *args, "--backend", "serial", "--chunk-size", "150"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_parts(out, proc, 2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "continue with --resume" in err
    folder = RunFolder(out)
    assert not folder.is_complete() and not list(out.glob(".*.tmp"))
    done = folder.done_units()
    resumed = _cli(*args, "--resume", "-q", "--backend", "serial", "--chunk-size", "1000")
    assert resumed.exit_code == 0, resumed.output
    assert f"{12000 - done:,} matches in" in resumed.output
    spec = RunSpec("jass", 4, ("basic",) * 4, seed=4, mode="matches")
    pd.testing.assert_frame_equal(pd.read_parquet(out), collect(spec, 12000, workers=2),
                                  check_exact=True)


def test_collect_many_gives_each_runs_rows_as_collect_does():
    """Many small runs in one pass through the pool (the ladder's seatings, a study's
    policies): each job's rows are exactly its own collect's, whatever game, mode or strategy,
    slow search seats included (those are split across the workers)."""
    from analyzer.runner.api import _pool_for, collect_many

    pimc = RunSpec("ass", 4, ("pimc:worlds=2", "basic", "careful", "basic"), seed=4)
    jobs = [
        (RunSpec("ass", 4, ("basic", "chaser", "random", "careful"), seed=5), 7, 3),
        (pimc, 5, 11),
        (RunSpec("jass", 3, ("basic", "aim-low", "learned"), seed=2, mode="matches"), 3, 0),
        (RunSpec("ass", 4, ("basic", "chaser", "random", "careful"), seed=5), 4, 3),
    ]
    many = collect_many(jobs, workers=2)
    assert len(many) == len(jobs)
    for (spec, count, start), rows in zip(jobs, many, strict=True):
        pd.testing.assert_frame_equal(rows, collect(spec, count, start=start, workers=1),
                                      check_exact=True)
    # a handful of games of a slow seat is worth the pool; of fast seats it is not
    assert _pool_for(2, 5, pimc) is not None
    assert _pool_for(2, 5, jobs[0][0]) is None

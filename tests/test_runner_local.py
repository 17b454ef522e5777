"""The runner on a small fake game (tests/fake_kernel.py): exactness, streaming, resume.

The dice game is cheap, so these tests exercise every path of the runner - serial, threads,
local processes, output folders, aggregates, interruption, resume, dead workers, full disks -
in a few seconds. tests/test_runner_games.py repeats the key checks with the real games.
"""

import errno
import json
import time

import pandas as pd
import pyarrow.parquet as pq
import pytest
from fake_kernel import install as install_dice  # tests/ is on sys.path

import analyzer
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError
from analyzer.runner import (
    RunOptions,
    collect,
    collect_moments,
    execute,
    load_rows,
    summarize_folder,
)
from analyzer.runner import tasks as tasks_module
from analyzer.runner.backends import shared_pool
from analyzer.runner.folder import RunFolder
from analyzer.runner.results import part_moments
from analyzer.summary import seat_moments

SPEC = RunSpec("dice", 3, ("basic", "basic:dice=3", "basic"), seed=11)
COUNT, START = 3000, 5


@pytest.fixture(autouse=True)
def dice(monkeypatch):
    install_dice(monkeypatch)


@pytest.fixture
def baseline():
    """All rows of the reference run, played serially in one chunk."""
    rows = execute(SPEC, COUNT, START, RunOptions(backend="serial", chunk_size=COUNT),
                   collect_rows=True).rows
    assert len(rows) == COUNT * 3
    return rows


@pytest.mark.parametrize(
    "options",
    [
        RunOptions(backend="serial", chunk_size=97),
        RunOptions(backend="threads", workers=3, chunk_size=333),
        RunOptions(backend="local", workers=2, chunk_size=700),
    ],
    ids=["serial", "threads", "processes"],
)
def test_rows_are_identical_whatever_backend_workers_and_chunk_size(options, baseline):
    # the local backend starts its own pool of 2 processes (the other tests share one)
    rows = execute(SPEC, COUNT, START, options, collect_rows=True).rows
    pd.testing.assert_frame_equal(rows, baseline, check_exact=True)


def _numba_threads():
    import os

    import numba

    return os.environ.get("NUMBA_NUM_THREADS"), numba.get_num_threads()


def test_local_worker_processes_run_numba_on_one_thread():
    # the shared pool of 2 processes is a PoolBackend(2) like any other (the same
    # initializer): its workers, started once for the other tests too, are the ones checked
    pool = shared_pool(2)
    futures = [pool._pool().submit(_numba_threads) for _ in range(4)]
    # One thread either way: NUMBA_NUM_THREADS=1 when the worker set it before importing
    # numba, numba.set_num_threads(1) when numba came first.
    assert {f.result()[1] for f in futures} == {1}


def test_collect_api_orders_rows_by_index_then_seat(baseline):
    rows = collect(SPEC, COUNT, start=START, workers=2)
    pd.testing.assert_frame_equal(rows, baseline, check_exact=True)
    assert rows["index"].is_monotonic_increasing
    assert list(rows["seat"][:6]) == [0, 1, 2, 0, 1, 2]
    # a single game replays on its own: its rows depend on (seed, index) alone
    one = collect(SPEC, 1, start=START + 1234).reset_index(drop=True)
    part = baseline[baseline["index"] == START + 1234].reset_index(drop=True)
    pd.testing.assert_frame_equal(one, part, check_exact=True)


def test_collect_moments_matches_the_rows(baseline):
    moments = collect_moments(SPEC, COUNT, start=START, workers=2)
    expected = seat_moments(baseline, ["score", "won", "winner"])
    pd.testing.assert_frame_equal(moments, expected, check_exact=True)


def test_output_folder_is_a_parquet_dataset_with_manifest(tmp_path, baseline):
    out = tmp_path / "run.parquet"
    result = execute(SPEC, COUNT, START, RunOptions(chunk_size=500), out=out,
                     backend=shared_pool(2))
    pd.testing.assert_frame_equal(pd.read_parquet(out), baseline, check_exact=True)
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["complete"] is True and manifest["parts"] == 6
    assert manifest["seed"] == 11 and manifest["games"] == COUNT and manifest["start"] == START
    assert manifest["players"] == 3 and manifest["rules"] == {"dice": [2, 3, 2]}
    assert manifest["strategies"][1]["params"] == {"dice": "3"}
    assert manifest["version"] == analyzer.__version__ and manifest["kind"] == "rows"
    # every part file carries the plan in its key-value metadata
    part = sorted(out.glob("part-*.parquet"))[0]
    meta = json.loads(pq.read_schema(part).metadata[b"cardlab.manifest"])
    assert meta["seed"] == 11 and meta["strategies"] == manifest["strategies"]
    pd.testing.assert_frame_equal(
        result.moments, seat_moments(baseline, ["score", "won", "winner"]), check_exact=True
    )
    # ... and its own per-seat moments, so summaries read footers instead of rows
    footer = part_moments(part)
    pd.testing.assert_frame_equal(
        footer, seat_moments(pd.read_parquet(part), ["score", "won", "winner"]),
        check_exact=True,
    )


def test_interrupted_run_resumes_without_repeating_or_losing_a_game(tmp_path, baseline):
    out = tmp_path / "run"
    seen = []

    def stop_after_three(result):
        seen.append(result.start)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(SPEC, COUNT, START, RunOptions(chunk_size=250), out=out,
                on_chunk=stop_after_three, backend=shared_pool(2))
    folder = RunFolder(out)
    assert not folder.is_complete()
    done = folder.done_units()
    assert 3 * 250 <= done < COUNT
    partial = summarize_folder(out)
    assert not partial.complete and partial.done == done
    assert int(partial.moments[("score", "n")].iloc[0]) == done
    # resume with other workers, chunk size and backend: only the missing games are played
    result = execute(SPEC, COUNT, START, RunOptions(backend="threads", workers=3,
                                                    chunk_size=170), out=out, resume=True)
    assert result.played == COUNT - done
    assert folder.is_complete()
    pd.testing.assert_frame_equal(pd.read_parquet(out), baseline, check_exact=True)
    pd.testing.assert_frame_equal(
        result.moments, seat_moments(baseline, ["score", "won", "winner"]), check_exact=True
    )
    # resuming a finished run plays nothing
    again = execute(SPEC, COUNT, START, RunOptions(backend="serial"), out=out, resume=True)
    assert again.played == 0


def test_existing_folders_are_refused_unless_resuming_the_same_plan(tmp_path):
    out = tmp_path / "run"
    opts = RunOptions(backend="serial", chunk_size=400)
    with pytest.raises(KeyboardInterrupt):
        execute(SPEC, 1000, 0, opts, out=out, on_chunk=_interrupt)
    with pytest.raises(CardlabError, match="unfinished run: add --resume"):
        execute(SPEC, 1000, 0, opts, out=out)
    other = RunSpec("dice", 3, SPEC.strategies, seed=12)
    with pytest.raises(CardlabError, match=r"other parameters \(seed: 11 -> 12\)"):
        execute(other, 1000, 0, opts, out=out, resume=True)
    with pytest.raises(CardlabError, match="count: 1000 -> 999"):
        execute(SPEC, 999, 0, opts, out=out, resume=True)
    with pytest.raises(CardlabError, match="kind"):
        execute(SPEC, 1000, 0, opts, out=out, resume=True, aggregate=True)
    execute(SPEC, 1000, 0, opts, out=out, resume=True)
    with pytest.raises(CardlabError, match="already holds a finished run"):
        execute(SPEC, 1000, 0, opts, out=out)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(CardlabError, match="holds something other than a cardlab run"):
        execute(SPEC, 10, 0, opts, out=foreign, resume=True)
    with pytest.raises(CardlabError, match="is not a folder"):
        execute(SPEC, 10, 0, opts, out=foreign / "notes.txt")
    with pytest.raises(CardlabError, match="not a cardlab run folder"):
        summarize_folder(foreign)


def _interrupt(result):
    raise KeyboardInterrupt


def test_aggregate_run_gives_the_same_tables_as_the_rows(tmp_path, baseline):
    rows_run = tmp_path / "rows"
    agg_run = tmp_path / "agg"
    execute(SPEC, COUNT, START, RunOptions(chunk_size=600), out=rows_run,
            backend=shared_pool(2))
    result = execute(SPEC, COUNT, START, RunOptions(backend="threads", workers=2,
                                                    chunk_size=450), out=agg_run,
                     aggregate=True)
    a, b = summarize_folder(rows_run), summarize_folder(agg_run)
    pd.testing.assert_frame_equal(load_rows(rows_run), baseline, check_exact=True)
    with pytest.raises(CardlabError, match="holds aggregates"):
        load_rows(agg_run)
    assert a.complete and b.complete and b.plan["kind"] == "aggregate"
    pd.testing.assert_frame_equal(a.moments, b.moments, check_exact=True)
    pd.testing.assert_frame_equal(result.moments, a.moments, check_exact=True)
    # the stored histograms are the per-seat value counts of the rows
    for col in ("score", "won", "winner"):
        counts = baseline.groupby(["seat", col]).size()
        hist = b.hist[(b.hist["column"] == col) & (b.hist["given"] == "")]
        hist = hist.set_index(["seat", "value"])["count"]
        expected = {(int(s), int(v)): int(n) for (s, v), n in counts.items()}
        got = {(int(s), int(v)): int(n) for (s, v), n in hist.items()}
        assert got == expected


def test_full_disk_keeps_finished_chunks_and_resume_completes(tmp_path, monkeypatch, baseline):
    out = tmp_path / "run"
    real_write = tasks_module.write_part
    calls = []

    def failing_write(folder, chunk, *args):
        calls.append(chunk)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(folder, chunk, *args)

    monkeypatch.setattr(tasks_module, "write_part", failing_write)
    with pytest.raises(CardlabError, match="No space left on device.*--resume"):
        execute(SPEC, COUNT, START, RunOptions(backend="serial", chunk_size=500), out=out)
    folder = RunFolder(out)
    assert folder.done_units() == 1000 and not folder.is_complete()
    assert not list(out.glob(".*.tmp"))
    monkeypatch.setattr(tasks_module, "write_part", real_write)
    execute(SPEC, COUNT, START, RunOptions(backend="serial", chunk_size=500), out=out,
            resume=True)
    pd.testing.assert_frame_equal(pd.read_parquet(out), baseline, check_exact=True)


def test_a_dead_worker_process_costs_only_its_chunk(tmp_path, baseline):
    marker = tmp_path / "died"
    failing = RunSpec("dice", 3, SPEC.strategies, seed=11,
                      rules={"fail_at": [[START + 1700, f"exit-once:{marker}"]]})
    rows = execute(failing, COUNT, START, RunOptions(chunk_size=300), collect_rows=True,
                   backend=shared_pool(2)).rows
    assert marker.exists()  # a worker really died
    pd.testing.assert_frame_equal(rows, baseline, check_exact=True)


def test_kernel_errors_propagate_and_leave_the_run_unfinished(tmp_path):
    failing = RunSpec("dice", 3, SPEC.strategies, seed=11, rules={"fail_at": [[50, "raise"]]})
    with pytest.raises(RuntimeError, match="fake kernel failure"):
        execute(failing, 200, 0, RunOptions(backend="serial", chunk_size=40), out=tmp_path / "r")
    assert not RunFolder(tmp_path / "r").is_complete()


def test_second_writer_of_a_run_folder_is_refused(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        execute(SPEC, 100, 0, RunOptions(backend="serial", chunk_size=40), out=out,
                on_chunk=_interrupt)
    with RunFolder(out).locked(), pytest.raises(CardlabError, match="another cardlab process"):
        execute(SPEC, 100, 0, RunOptions(backend="serial"), out=out, resume=True)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"count": 0}, "positive integer"),
        ({"start": -1}, "--start"),
        ({"options": RunOptions(workers=0)}, "--workers"),
        ({"options": RunOptions(chunk_size=0)}, "--chunk-size"),
        ({"options": RunOptions(backend="mpi")}, "unknown backend"),
        ({"options": RunOptions(scheduler="tcp://x:1")}, "--scheduler needs --backend dask"),
    ],
)
def test_bad_requests_get_one_line_errors(kwargs, message):
    args = {"count": 10, "start": 0, "options": RunOptions(backend="serial"), **kwargs}
    with pytest.raises(CardlabError, match=message) as info:
        execute(SPEC, **args)
    assert "\n" not in str(info.value)


def test_progress_bar_only_on_a_terminal():
    import io

    from rich.console import Console

    from analyzer.runner.progress import RunProgress

    assert not RunProgress(100, 0, "match", enabled=True).enabled  # captured: not a terminal
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=120)
    assert not RunProgress(100, 0, "match", enabled=False, console=console).enabled  # --quiet
    with RunProgress(100, 40, "match", enabled=True, console=console) as bar:
        bar.advance(30, 70)
        time.sleep(0.6)
        bar.advance(10, 80)
    text = buffer.getvalue()
    assert "matches" in text and "80/100" in text and "matches/s" in text


def test_progress_clocks_read_elapsed_then_left_and_move_between_chunks():
    """The time left is there after the first chunk (not only once rich's own speed estimate
    has two samples), counts down between chunks, and each time carries its label first."""
    import io

    from rich.console import Console

    from analyzer.runner.progress import RunProgress, clock_text

    now = [100.0]
    console = Console(file=io.StringIO(), force_terminal=True, width=160)
    bar = RunProgress(3000, 0, "game", enabled=True, console=console, clock=lambda: now[0])
    assert bar.left() is None and clock_text(bar.left()) == "-:--:--"
    now[0] = 102.0
    bar.advance(500, 500)  # the first chunk: 250 games/s since the start
    assert bar.elapsed() == 2.0 and bar.left() == 10.0
    now[0] = 105.0  # no chunk for 3 s: the clocks run on
    assert bar.elapsed() == 5.0 and bar.left() == 7.0
    now[0] = 106.0
    bar.advance(1000, 1500)
    assert bar.left() == 6.0  # 1,500 left at 250/s
    with bar:
        pass
    text = console.file.getvalue()
    assert "1,500/3,000" in text or "1500/3000" in text
    assert "elapsed 0:00:06" in text and "left 0:00:06" in text
    assert text.index("elapsed") < text.index("left")
    assert clock_text(3725.4) == "1:02:05"

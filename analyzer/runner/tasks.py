"""The worker side of a run: play one chunk and reduce or write it.

This module is what every backend calls - in process, in a pool of processes or threads, or on
a Dask worker - so all of them compute exactly the same thing. It imports no numba: the kernel
module is imported lazily by name, after the worker has fixed numba's thread count, and warmed
once per process (``kernel.warmup()``, which loads the compiled code from numba's cache).
Workers call the installed package's module-level jitted functions; nothing jitted is pickled
(a pickled dispatcher arrives without its cache and recompiles).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd

from analyzer.engines.kernel import RunSpec
from analyzer.runner.aggregate import chunk_moments, histogram, moments_to_json, value_columns
from analyzer.runner.chunks import Chunk
from analyzer.runner.folder import write_part
from strategies.registry import pinned

# What a task hands back.
COLLECT = "collect"  # the rows themselves (analyzer.runner.collect)
MOMENTS = "moments"  # per-seat moments only (nothing written)
ROWS = "rows"  # write the rows as a part file; hand back moments (and rows if not written)
AGGREGATE = "aggregate"  # write a histogram part; hand back the histogram
# hand back the table ``ChunkTask.table`` ("module:function", called as f(spec, start, count))
# computes for the chunk's units: studies' per-unit tables other than rows (the Jass trump
# counterfactual), spread over the workers like rows
TABLE = "table"
KINDS = (COLLECT, MOMENTS, ROWS, AGGREGATE)


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of a run, as sent to a worker (small and picklable)."""

    module: str  # the kernel module's import name
    spec: RunSpec  # validated
    start: int
    count: int
    kind: str
    out_dir: str | None = None  # the worker writes the part file here; None: hand rows back
    metadata: bytes | None = None  # the plan, for the part file's key-value metadata
    # Worker processes and threads run the kernel on one numba thread; the serial backend,
    # which runs in the caller's process, leaves the caller's setting alone.
    single_thread: bool = True
    # (strategy text, resolved definition) of each seat's text, as the parent resolved them
    # (manifest.resolved_strategies): the worker plays these, never re-reading the catalogue
    # or a strategies file, so every process plays exactly what the parent recorded.
    strategies: tuple[tuple[str, dict], ...] = ()
    # which run of several played in one pass (runner.api.collect_many) the chunk belongs to;
    # handed back in ChunkResult.tag
    tag: int = 0
    table: str = ""  # kind TABLE: the function that computes the chunk's table

    @property
    def chunk(self) -> Chunk:
        return Chunk(self.start, self.count)


@dataclass
class ChunkResult:
    """What came back: moments and/or a histogram and/or rows, with the time the chunk took."""

    start: int
    count: int
    seconds: float
    moments: pd.DataFrame | None = None
    hist: dict[str, np.ndarray] | None = None
    rows: dict[str, np.ndarray] | None = None
    written: bool = False
    tag: int = 0  # the task's tag


_KERNELS: dict[str, ModuleType] = {}
_LOCK = threading.Lock()


def limit_numba_threads() -> None:
    """One level of parallelism: a worker runs the kernels on one numba thread.

    In a worker process we own, the environment variable does it before numba is imported.
    Elsewhere (a thread of the caller's process, a Dask worker on a cluster we did not start)
    numba.set_num_threads(1) does it for the calling thread only, which is the task's thread.
    """
    if "numba" not in sys.modules:
        os.environ["NUMBA_NUM_THREADS"] = "1"
        return
    import numba

    if numba.get_num_threads() > 1:
        numba.set_num_threads(1)


def init_worker(modules: tuple[str, ...] = (), own_process: bool = False,
                parent: int | None = None) -> None:
    """Worker initializer: one numba thread (set before numba is imported), then import and
    warm the kernels. In a process of our own pool, Ctrl-C is left to the parent (which stops
    the run between chunks and then ends the workers), and the worker watches ``parent``: when
    the parent dies, by any signal including SIGKILL, the worker exits within a second instead
    of waiting forever on its task pipe."""
    if own_process:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if parent is not None:
            watch_parent(parent)
    limit_numba_threads()
    for name in modules:
        load_kernel(name)


PARENT_POLL_S = 0.5


def watch_parent(parent: int) -> threading.Thread:
    """A daemon thread that ends this process when ``parent`` is no longer its parent (the
    orphan is adopted by init or a subreaper, so getppid changes)."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)  # no cleanup to do: finished chunks are on disk, the rest is lost
            time.sleep(PARENT_POLL_S)

    thread = threading.Thread(target=watch, name="cardlab-parent-watch", daemon=True)
    thread.start()
    return thread


def load_kernel(module: str) -> ModuleType:
    """Import a kernel module and run its warmup() once per process."""
    kernel = _KERNELS.get(module)
    if kernel is None:
        with _LOCK:
            kernel = _KERNELS.get(module)
            if kernel is None:
                kernel = importlib.import_module(module)
                kernel.warmup()
                _KERNELS[module] = kernel
    return kernel


def play(task: ChunkTask) -> dict[str, np.ndarray]:
    """The chunk's rows from the kernel, checked against the contract."""
    kernel = load_kernel(task.module)
    rows = kernel.play_chunk(task.spec, task.start, task.count)
    index = rows["index"]
    expected = task.count * task.spec.players
    if len(index) != expected or (
        expected and (index[0] != task.start or index[-1] != task.start + task.count - 1)
    ):
        raise RuntimeError(
            f"kernel {task.module} returned rows for the wrong games: chunk {task.start}+"
            f"{task.count}, {len(index)} rows from index {index[0] if len(index) else '-'}"
        )
    return rows


def table_function(table: str):
    """The function a TABLE task names ("module:function")."""
    module, name = table.split(":")
    return getattr(importlib.import_module(module), name)


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play one chunk and reduce, write or return it as ``task.kind`` says."""
    t0 = time.perf_counter()
    load_kernel(task.module)  # imports numba, so the thread limit below is per thread
    if task.single_thread:
        limit_numba_threads()
    result = ChunkResult(task.start, task.count, 0.0, tag=task.tag)
    if task.kind == TABLE:
        with pinned(task.spec.game, dict(task.strategies)):
            result.rows = table_function(task.table)(task.spec, task.start, task.count)
        result.seconds = time.perf_counter() - t0
        return result
    with pinned(task.spec.game, dict(task.strategies)):
        rows = play(task)
    columns = value_columns(list(rows))
    if task.kind == COLLECT:
        result.rows = rows
    elif task.kind in (MOMENTS, ROWS):
        result.moments = chunk_moments(rows, columns)
        if task.kind == ROWS:
            if task.out_dir is not None:
                write_part(Path(task.out_dir), task.chunk, rows, task.metadata,
                           moments_to_json(result.moments))
                result.written = True
            else:
                result.rows = rows
    elif task.kind == AGGREGATE:
        result.hist = histogram(rows, columns)
        if task.out_dir is not None:
            write_part(Path(task.out_dir), task.chunk, result.hist, task.metadata)
            result.written = True
    else:
        raise ValueError(f"unknown task kind {task.kind!r}")
    result.seconds = time.perf_counter() - t0
    return result

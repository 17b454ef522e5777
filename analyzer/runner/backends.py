"""Where chunks run: in process (serial), in a local pool of processes or threads.

Every backend takes the same :class:`~analyzer.runner.tasks.ChunkTask` list and hands each
:class:`~analyzer.runner.tasks.ChunkResult` to a callback as it arrives (in any order: results
are keyed by their chunk, never by arrival). At most two chunks per worker are in flight, so
memory stays flat however many chunks a run has.

Local processes start with the ``spawn`` method (forking a process that already runs numba or
threads is unsafe), run serial kernels on one numba thread each (one level of parallelism), and
warm their kernels before the first chunk. When a worker process dies, the chunks that were in
flight are rerun on a fresh pool; finished chunks are kept.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool

from analyzer.errors import CardlabError
from analyzer.runner.tasks import ChunkResult, ChunkTask, init_worker, run_chunk

OnResult = Callable[[ChunkResult], None]
IN_FLIGHT_PER_WORKER = 2
MAX_POOL_RESTARTS = 3
BACKENDS = ("local", "threads", "serial", "dask")


MAX_WORKERS = 1024  # more local workers than this is refused outright


def cap_workers(workers: int | None, backend: str = "local",
                scheduler: str | None = None) -> int | None:
    """``workers`` for a local backend, capped at the cores with a one-line notice on stderr;
    more than MAX_WORKERS is refused (a remote Dask scheduler is not capped)."""
    if workers is None:
        return None
    if workers < 1:
        raise CardlabError(f"--workers must be at least 1; got {workers}")
    if backend == "dask" and scheduler:
        return workers
    if workers > MAX_WORKERS:
        raise CardlabError(f"--workers must be at most {MAX_WORKERS}; got {workers}")
    cores = cpu_count()
    if workers > cores and backend in ("local", "threads", "dask"):
        import sys

        print(f"notice: --workers {workers} is more than the {cores} cores here; using {cores}",
              file=sys.stderr)
        return cores
    return workers


def cpu_count() -> int:
    """Cores this process may use (respects CPU affinity, e.g. under taskset or a container)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class Backend:
    """Runs chunk tasks somewhere; subclasses say where."""

    name = "backend"
    workers = 1
    single_thread = True  # whether tasks should pin numba to one thread
    shares_files = True  # whether workers can write part files into the run folder

    def run(self, tasks: Iterable[ChunkTask], on_result: OnResult) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Release workers (a no-op where there are none)."""

    def describe(self) -> str:
        return f"{self.name}, {self.workers} worker{'s' if self.workers != 1 else ''}"

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SerialBackend(Backend):
    """Every chunk in the calling process, one after another."""

    name = "serial"
    single_thread = False

    def run(self, tasks: Iterable[ChunkTask], on_result: OnResult) -> None:
        for task in tasks:
            on_result(run_chunk(task))


class PoolBackend(Backend):
    """A local pool of ``workers`` processes (``kind='processes'``) or threads."""

    def __init__(self, workers: int, kind: str = "processes", modules: tuple[str, ...] = ()):
        if kind not in ("processes", "threads"):
            raise ValueError(f"unknown pool kind {kind!r}")
        self.workers = workers
        self.kind = kind
        self.name = "local" if kind == "processes" else "threads"
        self.modules = tuple(modules)
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.kind == "processes":
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=init_worker,
                    initargs=(self.modules, True, os.getpid()),
                )
            else:
                self._executor = ThreadPoolExecutor(
                    max_workers=self.workers, thread_name_prefix="cardlab"
                )
        return self._executor

    def run(self, tasks: Iterable[ChunkTask], on_result: OnResult) -> None:
        source = iter(tasks)  # planned lazily: only the chunks in flight exist at a time
        retry: deque[ChunkTask] = deque()  # chunks a dead pool lost, run again first
        inflight: dict[Future, ChunkTask] = {}
        restarts = 0
        limit = IN_FLIGHT_PER_WORKER * self.workers
        try:
            while True:
                pool = self._pool()
                while len(inflight) < limit:
                    task = retry.popleft() if retry else next(source, None)
                    if task is None:
                        break
                    inflight[pool.submit(run_chunk, task)] = task
                if not inflight:
                    break
                done, _ = wait(inflight, return_when=FIRST_COMPLETED)
                broken = False
                for future in sorted(done, key=lambda f: inflight[f].start):
                    task = inflight.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        broken = True
                        retry.appendleft(task)
                        continue
                    on_result(result)
                if broken:
                    # A worker process died (killed, out of memory): the pool is unusable.
                    # Rerun every chunk that was in flight on a fresh pool.
                    restarts += 1
                    if restarts > MAX_POOL_RESTARTS:
                        raise CardlabError(
                            f"worker processes died {restarts} times; giving up (finished "
                            "chunks are kept: rerun with --resume; a script that starts runs "
                            "needs an `if __name__ == '__main__':` guard)"
                        )
                    retry.extendleft(sorted(inflight.values(), reverse=True,
                                            key=lambda t: t.start))
                    inflight.clear()
                    self._shutdown(kill=True)
        except BaseException:
            self._shutdown(kill=True)
            raise

    def _shutdown(self, kill: bool) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        procs = getattr(executor, "_processes", None)  # private, but the only handle on them
        processes = list(procs.values()) if isinstance(procs, dict) else []
        executor.shutdown(wait=not kill, cancel_futures=True)
        if kill:
            # Stop chunks still running (an interrupted run must not keep the cores busy).
            for proc in processes:
                with contextlib.suppress(Exception):
                    proc.terminate()
            for proc in processes:
                with contextlib.suppress(Exception):
                    proc.join(timeout=5)

    def close(self) -> None:
        self._shutdown(kill=False)


_SHARED: dict[tuple[str, int], PoolBackend] = {}


def shared_pool(workers: int, kind: str = "processes") -> PoolBackend:
    """A pool kept for the life of the process, so repeated calls (studies sweeping a knob
    through many small runs) pay the worker start-up and kernel warmup once."""
    key = (kind, workers)
    pool = _SHARED.get(key)
    if pool is None:
        pool = _SHARED[key] = PoolBackend(workers, kind)
    return pool


@atexit.register
def _close_shared() -> None:
    for pool in _SHARED.values():
        pool.close()
    _SHARED.clear()

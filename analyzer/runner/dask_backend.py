"""The Dask backend: the same chunk tasks on a Dask cluster (``pip install 'cardlab[dask]'``).

With ``--scheduler tcp://host:port`` the run uses that cluster; without, a local cluster of
``workers`` single-threaded worker processes is started on the loopback interface for the
run and closed after it.

Workers import the installed package and call :func:`analyzer.runner.tasks.run_chunk`, which
calls the kernels' module-level jitted functions: nothing jitted travels in a pickle (a pickled
dispatcher arrives without its cache and recompiles, 2.8 s per worker). Workers of a local
cluster get ``NUMBA_NUM_THREADS=1`` through ``distributed.nanny.pre-spawn-environ`` (passing
``env=`` to LocalCluster does not reach numba in time); on a foreign cluster each task pins its
own thread with numba.set_num_threads(1). A worker plugin warms the kernels on every worker,
including workers that join or are restarted later, before their first chunk.

A worker that dies mid-run costs only its chunk: the scheduler reruns the chunks that were on
it (up to ``distributed.scheduler.allowed-failures`` times per chunk).
"""

from __future__ import annotations

import contextlib
import logging
import os
import uuid
from collections.abc import Iterable

import dask
from distributed import Client, LocalCluster, as_completed
from distributed.diagnostics.plugin import WorkerPlugin

from analyzer.errors import CardlabError
from analyzer.runner.backends import IN_FLIGHT_PER_WORKER, Backend, OnResult
from analyzer.runner.tasks import ChunkTask, init_worker, run_chunk


class WarmupPlugin(WorkerPlugin):
    """Import and warm the kernel modules on each worker as it starts."""

    def __init__(self, modules: tuple[str, ...]) -> None:
        self.modules = tuple(modules)

    def setup(self, worker) -> None:  # noqa: D401 - Dask's hook
        init_worker(self.modules)


class DaskBackend(Backend):
    """Chunks as Dask tasks on an existing cluster or on a local one started for the run."""

    name = "dask"

    def __init__(
        self, workers: int, modules: tuple[str, ...] = (), scheduler: str | None = None
    ) -> None:
        self.cluster: LocalCluster | None = None
        self.scheduler = scheduler
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="15s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise CardlabError(
                    f"cannot reach the Dask scheduler at {scheduler}: {exc}"
                ) from None
            self.workers = max(1, sum(w["nthreads"] for w in self._worker_info()))
            # A cluster elsewhere may not see our disk: results come back and we write them.
            self.shares_files = False
        else:
            env = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}))
            env["NUMBA_NUM_THREADS"] = "1"
            # Dask's default MALLOC_TRIM_THRESHOLD_ also freezes glibc's mmap threshold, so
            # every chunk's arrays are mapped and faulted in afresh: measured 20% slower
            # chunks (twice the page faults). Our workers' memory is bounded by one chunk.
            env.pop("MALLOC_TRIM_THRESHOLD_", None)
            settings = {
                "distributed.nanny.pre-spawn-environ": env,
                # Our tasks are long, jitted and hold the GIL: the statistical profiler
                # (a thread sampling every 10 ms) and 20 ms event-loop ticks only cost CPU
                # that the kernels need on a small machine.
                "distributed.worker.profile.enabled": False,
                "distributed.admin.tick.interval": "200ms",
            }
            # Dask's nanny applies pre-spawn-environ to *this* process's os.environ (and
            # leaves it there): a NUMBA_NUM_THREADS changed under numba makes its next
            # compile fail ("Cannot set NUMBA_NUM_THREADS to a different value once the
            # threads have been launched"). Put our environment back after each start.
            self._saved_environ = {k: os.environ.get(k) for k in (*env, "PYTHONHASHSEED")}
            try:
                with dask.config.set(settings):
                    self.cluster = LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",
                        dashboard_address=None,
                        silence_logs=logging.ERROR,
                    )
            except (OSError, TimeoutError) as exc:
                raise CardlabError(f"could not start a local Dask cluster: {exc}") from None
            finally:
                self._restore_environ()
            self.client = Client(self.cluster)
            self.workers = workers
            self.shares_files = True
        self._plugin = None
        if modules:
            self._plugin = f"cardlab-warmup-{uuid.uuid4().hex[:8]}"
            self.client.register_plugin(WarmupPlugin(modules), name=self._plugin)

    def _worker_info(self) -> list[dict]:
        return list(self.client.scheduler_info().get("workers", {}).values())

    def describe(self) -> str:
        where = self.scheduler or "local cluster"
        return f"dask ({where}), {self.workers} worker{'s' if self.workers != 1 else ''}"

    def run(self, tasks: Iterable[ChunkTask], on_result: OnResult) -> None:
        source = iter(tasks)  # planned lazily
        run_id = uuid.uuid4().hex[:8]
        futures = as_completed()
        submitted: set = set()

        def submit() -> bool:
            task = next(source, None)
            if task is None:
                return False
            fut = self.client.submit(
                run_chunk, task, pure=False, key=f"cardlab-{run_id}-{task.start}-{task.count}"
            )
            submitted.add(fut)
            futures.add(fut)
            return True

        try:
            for _ in range(IN_FLIGHT_PER_WORKER * self.workers):
                if not submit():
                    break
            for fut in futures:
                result = fut.result()  # re-raises a chunk's error (or KilledWorker)
                submitted.discard(fut)
                fut.release()
                on_result(result)
                submit()
        except BaseException:
            self.client.cancel([f for f in submitted if not f.done()])
            raise

    def close(self) -> None:
        client, self.client = getattr(self, "client", None), None
        if client is not None:
            if self.cluster is None and self._plugin:
                # a cluster we only borrowed: leave it without our plugin
                with contextlib.suppress(Exception):
                    client.unregister_worker_plugin(self._plugin)
            client.close()
        cluster, self.cluster = self.cluster, None
        if cluster is not None:
            cluster.close()
            self._restore_environ()  # a worker restarted during the run set it again

    def _restore_environ(self) -> None:
        """Undo what the nanny wrote into this process's environment."""
        for key, value in getattr(self, "_saved_environ", {}).items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

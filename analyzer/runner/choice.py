"""The backend a run asks for by name: local, threads, serial or dask.

The choice sits above every backend module (:mod:`analyzer.runner.backends` and the optional
:mod:`analyzer.runner.dask_backend`, which builds on it), so neither imports the other back.
"""

from __future__ import annotations

from analyzer.errors import CardlabError
from analyzer.runner.backends import BACKENDS, Backend, PoolBackend, SerialBackend


def make_backend(
    name: str, workers: int, modules: tuple[str, ...] = (), scheduler: str | None = None
) -> Backend:
    """The backend called ``name`` (local, threads, serial, dask) with ``workers`` workers."""
    if name == "serial":
        return SerialBackend()
    if name == "local":
        return PoolBackend(workers, "processes", modules)
    if name == "threads":
        return PoolBackend(workers, "threads", modules)
    if name == "dask":
        try:
            from analyzer.runner.dask_backend import DaskBackend
        except ImportError as exc:
            if exc.name and exc.name.split(".")[0] in ("dask", "distributed"):
                raise CardlabError(
                    "--backend dask needs Dask, an optional extra: pip install 'cardlab[dask]'"
                ) from None
            raise
        return DaskBackend(workers, modules, scheduler)
    raise CardlabError(f"unknown backend {name!r}; backends: {', '.join(BACKENDS)}")

"""The Python API the studies use: rows or per-seat moments of a range of games, in memory."""

from __future__ import annotations

import pandas as pd

from analyzer.engines.kernel import RunSpec
from analyzer.runner.backends import Backend, cap_workers, cpu_count, shared_pool
from analyzer.runner.engine import RunOptions, execute

MIN_PARALLEL = 1000  # fewer units than this run in the calling process


def _pool_for(workers: int | None, count: int) -> Backend | None:
    """The process-wide pool for collect()/collect_moments(), or None for a small run."""
    workers = cap_workers(workers) or cpu_count()
    if workers == 1 or count < MIN_PARALLEL:
        return None
    return shared_pool(workers)


def collect(
    spec: RunSpec, count: int, start: int = 0, workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """All per-seat rows of units start..start+count-1 in memory, ordered by index, seat.

    ``spec`` is validated by its game's kernel. Chunks run on ``workers`` local processes (all
    cores by default) of a pool kept for the life of the process, so repeated calls pay the
    start-up once; runs of fewer than MIN_PARALLEL units, or with ``workers=1``, run in this
    process. A script that calls this with several workers needs an
    ``if __name__ == "__main__":`` guard (workers are started with ``spawn``).
    """
    backend = _pool_for(workers, count)
    opts = RunOptions(workers=workers, progress=progress,
                      backend="serial" if backend is None else "local")
    return execute(spec, count, start, opts, collect_rows=True, backend=backend).rows


def collect_moments(
    spec: RunSpec, count: int, start: int = 0, workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Per-seat moments (analyzer.summary.seat_moments format: n, sum, sum of squares of every
    result column) without keeping any row: memory stays flat for any ``count``."""
    backend = _pool_for(workers, count)
    opts = RunOptions(workers=workers, progress=progress,
                      backend="serial" if backend is None else "local")
    return execute(spec, count, start, opts, backend=backend).moments

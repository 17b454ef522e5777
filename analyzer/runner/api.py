"""The Python API the studies use: rows or per-seat moments of a range of games, in memory."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from analyzer.engines.kernel import RunSpec
from analyzer.runner import manifest as mf
from analyzer.runner.backends import Backend, cap_workers, cpu_count, shared_pool
from analyzer.runner.chunks import default_chunk_size, iter_split
from analyzer.runner.engine import Plan, RunOptions, check_request, concat_rows, execute
from analyzer.runner.tasks import COLLECT, TABLE, ChunkResult, ChunkTask, table_function

MIN_PARALLEL = 1000  # fewer units than this run in the calling process
# ... unless a seat plays a strategy tagged slow (a search: milliseconds per unit, where the
# others take microseconds): from this many units such a run goes to the pool too. Before,
# every slow run of a study under 1,000 units (pimc's shares of jokers, seats, the ladder)
# kept one core of two idle.
MIN_PARALLEL_SLOW = 2


def _slow(spec: RunSpec) -> bool:
    """Whether a seat of ``spec`` plays a strategy tagged slow."""
    from strategies.registry import is_slow

    return any(is_slow(spec.game, text) for text in set(spec.strategies))


def _pool_for(workers: int | None, count: int, spec: RunSpec) -> Backend | None:
    """The process-wide pool for collect()/collect_moments(), or None for a small run (fewer
    than MIN_PARALLEL units, or MIN_PARALLEL_SLOW with a slow strategy in a seat)."""
    workers = cap_workers(workers) or cpu_count()
    if workers == 1 or count < (MIN_PARALLEL_SLOW if _slow(spec) else MIN_PARALLEL):
        return None
    return shared_pool(workers)


def collect(
    spec: RunSpec, count: int, start: int = 0, workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """All per-seat rows of units start..start+count-1 in memory, ordered by index, seat.

    ``spec`` is validated by its game's kernel. Chunks run on ``workers`` local processes (all
    cores by default) of a pool kept for the life of the process, so repeated calls pay the
    start-up once; small runs (:func:`_pool_for`), or with ``workers=1``, run in this
    process. A script that calls this with several workers needs an
    ``if __name__ == "__main__":`` guard (workers are started with ``spawn``).
    """
    backend = _pool_for(workers, count, spec)
    opts = RunOptions(workers=workers, progress=progress,
                      backend="serial" if backend is None else "local")
    return execute(spec, count, start, opts, collect_rows=True, backend=backend).rows


def collect_moments(
    spec: RunSpec, count: int, start: int = 0, workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Per-seat moments (analyzer.summary.seat_moments format: n, sum, sum of squares of every
    result column) without keeping any row: memory stays flat for any ``count``."""
    backend = _pool_for(workers, count, spec)
    opts = RunOptions(workers=workers, progress=progress,
                      backend="serial" if backend is None else "local")
    return execute(spec, count, start, opts, backend=backend).moments


def collect_many(
    jobs: Sequence[tuple[RunSpec, int, int]], workers: int | None = None,
    concat: bool = False,
) -> list[pd.DataFrame] | pd.DataFrame:
    """:func:`collect` of several runs, ``(spec, count, start)`` each: the same rows, in the
    same order, as one ``collect`` per job (with ``concat``, all of them in one table, job
    after job: cheaper than thousands of small tables).

    The chunks of every job go through the pool in one pass, so that many small runs (a
    ladder's seatings, a study's policies in every seat) keep every worker busy; one by one,
    each would run alone in this process (under MIN_PARALLEL units) or wait for its own
    slowest chunk. A job of a fast strategy is one chunk up to its game's preferred size; a
    job with a slow strategy in a seat is split so that every worker gets a share. Jobs that
    share a spec object are validated once.
    """
    n = cap_workers(workers) or cpu_count()
    if n == 1 or sum(count for _, count, _ in jobs) < MIN_PARALLEL and not any(
            _slow(spec) for spec, _, _ in jobs):
        frames = [collect(spec, count, start, workers=workers) for spec, count, start in jobs]
        return pd.concat(frames, ignore_index=True) if concat else frames
    options = RunOptions(workers=workers, backend="local")
    known: dict[int, tuple[Plan, tuple, bool]] = {}  # id(spec): plan, resolved, slow
    tasks = []
    for tag, (spec, count, start) in enumerate(jobs):
        if id(spec) not in known:
            plan = Plan.make(spec, count, start, options, COLLECT)
            known[id(spec)] = (plan, tuple(mf.resolved_strategies(plan.spec).items()),
                               _slow(plan.spec))
        plan, resolved, slow = known[id(spec)]
        check_request(spec, count, start, options, plan.unit)
        size = default_chunk_size(count, n, plan.preferred) if slow else plan.preferred
        tasks.extend(ChunkTask(plan.module, plan.spec, c.start, c.count, COLLECT,
                               strategies=resolved, tag=tag)
                     for c in iter_split(start, count, size))
    rows: list[dict[int, dict]] = [{} for _ in jobs]

    def keep(result: ChunkResult) -> None:
        rows[result.tag][result.start] = result.rows

    shared_pool(n).run(tasks, keep)
    if concat:  # every job's chunks in order, one after the other (one game's columns)
        ordered = [parts[s] for parts in rows for s in sorted(parts)]
        return concat_rows(dict(enumerate(ordered)), list(ordered[0]))
    return [concat_rows(parts, list(next(iter(parts.values())))) for parts in rows]


def unit_table(table: str, spec: RunSpec, count: int, start: int = 0,
               workers: int | None = None) -> pd.DataFrame:
    """The table that ``table`` ("module:function", called as ``f(spec, start, count)``,
    one table per range of units, each unit's rows depending on its (seed, index) alone)
    computes for units start..start+count-1, in chunks on the pool's workers when there are
    several (the same table, in the same order, as one call here)."""
    n = cap_workers(workers) or cpu_count()
    if n == 1 or count < 2:
        return table_function(table)(spec, start, count)
    plan = Plan.make(spec, count, start, RunOptions(workers=workers, backend="local"), TABLE)
    resolved = tuple(mf.resolved_strategies(plan.spec).items())
    tasks = [ChunkTask(plan.module, plan.spec, c.start, c.count, TABLE, strategies=resolved,
                       table=table)
             for c in iter_split(start, count, default_chunk_size(count, n, plan.preferred))]
    parts: dict[int, pd.DataFrame] = {}

    def keep(result: ChunkResult) -> None:
        parts[result.start] = result.rows

    shared_pool(n).run(tasks, keep)
    return pd.concat([parts[s] for s in sorted(parts)], ignore_index=True)

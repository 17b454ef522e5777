"""Running a spec over a range of game indices: chunk, dispatch, reduce, write, resume.

:func:`execute` is the one path every run takes - the command line, and
:func:`~analyzer.runner.api.collect` / :func:`~analyzer.runner.api.collect_moments` for the
studies - whatever the backend. Results depend on (spec, index) alone (the kernel contract),
so rows are identical whatever the worker count, chunk size, backend or resume point; per-seat
statistics are folded from integer-valued chunk statistics, which add up exactly in any order,
so tables are identical too.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.engines.kernel import RunSpec, kernel_module, kernel_path
from analyzer.errors import CardlabError, CardlabIOError
from analyzer.runner import manifest as mf
from analyzer.runner.aggregate import (
    merge_histograms,
    moments_from_histogram,
    moments_to_json,
    value_columns,
)
from analyzer.runner.backends import (
    BACKENDS,
    Backend,
    SerialBackend,
    cap_workers,
    cpu_count,
)
from analyzer.runner.choice import make_backend
from analyzer.runner.chunks import (
    DEFAULT_CHUNK_SIZE,
    Chunk,
    count_chunks,
    default_chunk_size,
    gaps,
    iter_missing,
    preferred_chunk_size,
)
from analyzer.runner.folder import RunFolder, damaged_error, prepare, write_part
from analyzer.runner.interrupts import StopRequest, graceful_interrupts
from analyzer.runner.progress import RunProgress
from analyzer.runner.results import part_moments, read_part
from analyzer.runner.tasks import AGGREGATE, COLLECT, MOMENTS, ROWS, ChunkResult, ChunkTask
from analyzer.seeds import MAX_SEED
from analyzer.summary import merge_moments

# Fold accumulated chunk statistics this often. A chunk's moments are a few rows, its
# histograms some thousands (a 100-million-game --aggregate run peaked at 420 MiB in the
# parent folding every 256 chunks).
MOMENTS_EVERY = 256
HISTOGRAMS_EVERY = 16


@dataclass
class RunOptions:
    """How to run (never what: nothing here changes a result)."""

    workers: int | None = None  # default: every core
    chunk_size: int | None = None  # default: see chunks.default_chunk_size
    backend: str = "local"  # local (processes), threads, serial, dask
    scheduler: str | None = None  # dask only: tcp://host:port of an existing cluster
    progress: bool = False


@dataclass
class RunResult:
    """What a run gives back: the whole run's per-seat statistics and this call's timing."""

    spec: RunSpec
    start: int
    count: int
    unit: str
    moments: pd.DataFrame
    hist: pd.DataFrame | None = None
    played: int = 0  # units played by this call (a resumed run counts only the rest)
    seconds: float = 0.0  # playing time (local worker processes start within it)
    startup: float = 0.0  # starting the backend before playing (a Dask cluster)
    backend: str = ""
    folder: RunFolder | None = None
    plan: dict | None = None
    rows: pd.DataFrame | None = field(default=None, repr=False)

    @property
    def rate(self) -> float:
        """Units per second in this call."""
        return self.played / self.seconds if self.seconds > 0 else float("nan")


class _Accumulator:
    """Per-chunk moments or histograms, folded every ``every`` chunks (memory stays flat)."""

    def __init__(
        self, merge: Callable[[list[pd.DataFrame]], pd.DataFrame], every: int
    ) -> None:
        self.merge = merge
        self.every = every
        self.frames: list[pd.DataFrame] = []

    def add(self, frame: pd.DataFrame) -> None:
        self.frames.append(frame)
        if len(self.frames) >= self.every:
            self.frames = [self.merge(self.frames)]

    def result(self) -> pd.DataFrame | None:
        return self.merge(self.frames) if self.frames else None


def check_request(spec: RunSpec, count: int, start: int, options: RunOptions, unit: str) -> None:
    """One-line CardlabErrors for a request the runner cannot run."""
    if not isinstance(count, (int, np.integer)) or count < 1:
        raise CardlabError(
            f"the number of {mf.plural(unit)} must be a positive integer; got {count}"
        )
    if not isinstance(start, (int, np.integer)) or start < 0:
        raise CardlabError(f"the first index (--start) must be 0 or more; got {start}")
    if start > MAX_SEED or count - 1 > MAX_SEED - start:
        raise CardlabError(
            f"indices must stay below 2**63: --start {start} with {count:,} "
            f"{mf.plural(unit)} passes 2**63-1"
        )
    if not isinstance(spec.seed, (int, np.integer)) or not 0 <= spec.seed <= MAX_SEED:
        raise CardlabError(f"the seed must be between 0 and 2**63-1; got {spec.seed}")
    if options.workers is not None and options.workers < 1:
        raise CardlabError(f"--workers must be at least 1; got {options.workers}")
    if options.chunk_size is not None and options.chunk_size < 1:
        raise CardlabError(f"--chunk-size must be at least 1; got {options.chunk_size}")
    if options.backend not in BACKENDS:
        raise CardlabError(
            f"unknown backend {options.backend!r}; backends: {', '.join(BACKENDS)}"
        )
    if options.scheduler and options.backend != "dask":
        raise CardlabError("--scheduler needs --backend dask")


def prepare_spec(spec: RunSpec) -> tuple[RunSpec, str]:
    """The kernel-validated spec and the kernel module's import name."""
    kernel = kernel_module(spec.game)
    return kernel.validate(spec), kernel_path(spec.game)


@dataclass
class Plan:
    """What a run will do: the validated spec, its range, and the chunks still to play,
    planned lazily (any count up to the index space starts at once, memory flat)."""

    spec: RunSpec
    module: str
    kernel: object
    start: int
    count: int
    unit: str
    kind: str  # a task kind: MOMENTS, COLLECT, ROWS, AGGREGATE
    preferred: int = DEFAULT_CHUNK_SIZE

    @classmethod
    def make(cls, spec: RunSpec, count: int, start: int, options: RunOptions,
             kind: str) -> Plan:
        kernel = kernel_module(spec.game)
        if spec.mode and spec.mode not in kernel.UNIT:
            raise CardlabError(
                f"unknown mode {spec.mode!r} for {spec.game}; modes: {', '.join(kernel.MODES)}"
            )
        check_request(spec, count, start, options, kernel.UNIT[spec.mode or kernel.MODES[0]])
        spec, module = prepare_spec(spec)
        preferred = preferred_chunk_size(spec.game, spec.mode)
        return cls(spec, module, kernel, start, count, kernel.UNIT[spec.mode], kind, preferred)

    def todo(self, done: list[Chunk], chunk_size: int) -> tuple[Iterator[Chunk], int]:
        """The chunks still to play (lazily) and how many there are."""
        ranges = gaps(self.start, self.count, done)
        return iter_missing(self.start, self.count, done, chunk_size), count_chunks(
            ranges, chunk_size)

    @property
    def columns(self) -> list[str]:
        return value_columns(list(mf.mode_columns(self.spec.game, self.spec.mode)))


class Sink:
    """Where a run's chunk results go; one per output kind. Each owns its resume (the chunks
    already done and their statistics), its add (one chunk result) and its finish."""

    folder: RunFolder | None = None
    manifest: dict | None = None
    metadata: bytes | None = None

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.moments = _Accumulator(merge_moments, MOMENTS_EVERY)

    def open(self, stack: contextlib.ExitStack) -> list[Chunk]:
        """Claim the output (lock, verify, repair); return the chunks already done."""
        return []

    def out_dir(self, backend: Backend) -> str | None:
        return None

    def add(self, result: ChunkResult) -> None:
        if result.moments is not None:
            self.moments.add(result.moments)

    def finish(self, result: RunResult) -> None:
        result.moments = self.moments.result()


class CollectSink(Sink):
    """Rows kept in memory (the studies' collect())."""

    def __init__(self, plan: Plan) -> None:
        super().__init__(plan)
        self.rows: dict[int, dict[str, np.ndarray]] = {}
        self.names: list[str] = []

    def add(self, result: ChunkResult) -> None:
        super().add(result)
        if result.rows is not None:
            self.rows[result.start] = result.rows
            if not self.names:
                self.names.extend(result.rows)

    def finish(self, result: RunResult) -> None:
        super().finish(result)
        result.rows = concat_rows(self.rows, self.names)


class HistogramSink(Sink):
    """Exact histograms in memory (aggregate without a folder)."""

    def __init__(self, plan: Plan) -> None:
        super().__init__(plan)
        self.hists = _Accumulator(merge_histograms, HISTOGRAMS_EVERY)

    def add(self, result: ChunkResult) -> None:
        if result.hist is not None:
            self.hists.add(pd.DataFrame(result.hist))

    def finish(self, result: RunResult) -> None:
        result.hist = self.hists.result()
        result.moments = moments_from_histogram(result.hist, self.plan.columns)


class FolderSink(Sink):
    """A run folder of part files (rows or histograms): verified before it is read or
    continued, repaired on request, finished with a manifest once every part is there."""

    def __init__(self, plan: Plan, out: str | Path, resume: bool, repair: bool) -> None:
        super().__init__(plan)
        self.aggregate = plan.kind == AGGREGATE
        self.hists = _Accumulator(merge_histograms, HISTOGRAMS_EVERY)
        self.manifest = mf.build_plan(plan.spec, plan.kernel, plan.start, plan.count,
                                      "aggregate" if self.aggregate else "rows")
        self.metadata = mf.to_bytes(self.manifest)
        self.folder = prepare(out, self.manifest, resume)
        self.repair = repair

    def open(self, stack: contextlib.ExitStack) -> list[Chunk]:
        folder = self.folder
        stack.enter_context(folder.locked())
        folder.remove_temporaries()
        check = folder.verify(self.manifest)
        if check.damage:
            if not self.repair:
                raise damaged_error(folder, check, "nothing was played")
            folder.repair(check)
            check = folder.verify(self.manifest)
            if check.damage:
                raise damaged_error(folder, check, "the repair did not fix it")
        # Chunks finished by an earlier, interrupted call: their statistics come from disk.
        for _, path in check.parts:
            if self.aggregate:
                self.hists.add(read_part(path))
            else:
                self.moments.add(part_moments(path))
        return [c for c, _ in check.parts]

    def out_dir(self, backend: Backend) -> str | None:
        return str(self.folder.path) if backend.shares_files else None

    def add(self, result: ChunkResult) -> None:
        if not result.written:
            chunk = Chunk(result.start, result.count)
            if self.aggregate:
                write_part(self.folder.path, chunk, result.hist, self.metadata)
            else:
                write_part(self.folder.path, chunk, result.rows, self.metadata,
                           moments_to_json(result.moments))
        super().add(result)
        if result.hist is not None:
            self.hists.add(pd.DataFrame(result.hist))

    def finish(self, result: RunResult) -> None:
        if self.aggregate:
            result.hist = self.hists.result()
            result.moments = moments_from_histogram(result.hist, self.plan.columns)
        else:
            result.moments = self.moments.result()
        result.folder, result.plan = self.folder, self.manifest
        if not self.folder.is_complete():
            _finish(self.folder, self.manifest, self.plan.spec, not self.aggregate)


def execute(
    spec: RunSpec,
    count: int,
    start: int = 0,
    options: RunOptions | None = None,
    out: str | Path | None = None,
    aggregate: bool = False,
    resume: bool = False,
    on_chunk: Callable[[ChunkResult], None] | None = None,
    collect_rows: bool = False,
    backend: Backend | None = None,
    repair: bool = False,
) -> RunResult:
    """Play units ``start .. start+count-1`` of ``spec``.

    Without ``out`` the rows are reduced to per-seat moments (or, with ``collect_rows``, kept
    and returned in ``RunResult.rows``). With ``out`` they stream into a run folder, part file
    by part file, as rows or (``aggregate``) as exact histograms; ``resume`` continues an
    unfinished run of the same plan after verifying the folder, and ``repair`` first moves
    damaged pieces into ``_damaged/`` so that exactly their ranges are played again.
    ``on_chunk`` is called after each chunk (progress hooks, tests). ``backend`` overrides
    ``options.backend`` with a backend the caller keeps.
    """
    options = options or RunOptions()
    if collect_rows and out is not None:
        raise ValueError("collect_rows keeps rows in memory; it cannot write an output folder")
    if repair and not resume:
        raise CardlabError("--repair needs --resume (it repairs the run it continues)")
    if collect_rows:
        kind = COLLECT
    elif out is None:
        kind = AGGREGATE if aggregate else MOMENTS
    else:
        kind = AGGREGATE if aggregate else ROWS
    plan = Plan.make(spec, count, start, options, kind)
    spec = plan.spec
    if out is not None:
        sink: Sink = FolderSink(plan, out, resume, repair)
    elif kind == COLLECT:
        sink = CollectSink(plan)
    elif kind == AGGREGATE:
        sink = HistogramSink(plan)
    else:
        sink = Sink(plan)

    with contextlib.ExitStack() as stack:
        done_chunks = sink.open(stack)
        workers = cap_workers(options.workers, options.backend, options.scheduler) or cpu_count()
        chunk_size = options.chunk_size or default_chunk_size(count, workers, plan.preferred)
        todo, n_todo = plan.todo(done_chunks, chunk_size)

        t_start = time.perf_counter()
        if backend is None:
            # A run smaller than one preferred chunk takes a few tenths of a second on one
            # core, less than starting worker processes: play it in process unless the user
            # asked for workers.
            small = options.workers is None and count <= plan.preferred
            backend = stack.enter_context(
                _choose_backend(options, n_todo, workers, plan.module, small)
            )
        out_dir = sink.out_dir(backend)
        resolved = tuple(mf.resolved_strategies(spec).items())
        tasks = (
            ChunkTask(plan.module, spec, c.start, c.count, kind, out_dir, sink.metadata,
                      backend.single_thread, resolved)
            for c in todo
        )
        done_before = done_units = sum(c.count for c in done_chunks)
        progress = stack.enter_context(
            RunProgress(count, done_units, plan.unit, options.progress)
        )
        stop = StopRequest()
        stack.enter_context(graceful_interrupts(stop))

        def on_result(result: ChunkResult) -> None:
            nonlocal done_units
            sink.add(result)
            done_units += result.count
            progress.advance(result.count, done_units)
            if on_chunk is not None:
                on_chunk(result)
            if stop.signum is not None:
                raise KeyboardInterrupt  # asked to stop: every finished chunk is on disk

        t0 = time.perf_counter()
        startup = t0 - t_start
        try:
            backend.run(tasks, on_result)
        except OSError as exc:
            where = f" in {sink.folder.path}" if sink.folder is not None else ""
            raise CardlabIOError(
                f"could not write results{where}: {exc.strerror or exc}; finished chunks are "
                "kept: rerun with --resume to continue"
            ) from None
        seconds = time.perf_counter() - t0

        result = RunResult(spec, start, count, plan.unit, pd.DataFrame(),
                           played=count - done_before, seconds=seconds, startup=startup,
                           backend=backend.describe())
        sink.finish(result)
    return result


def _choose_backend(
    options: RunOptions, chunks: int, workers: int, module: str, small: bool = False
) -> Backend:
    """The backend ``options`` ask for; in process when a local backend has at most one chunk
    or only a ``small`` run to play (starting a pool would only cost time)."""
    local = options.backend in ("local", "threads")
    if chunks == 0 or (local and (chunks == 1 or small)):
        return SerialBackend()
    return make_backend(options.backend, workers, (module,), options.scheduler)


def _finish(folder: RunFolder, plan: dict, spec: RunSpec, rows: bool) -> None:
    """Verify that the parts tile the whole run, then write the manifest: the run is complete."""
    check = folder.verify(plan)
    if check.damage:
        raise damaged_error(folder, check, "it stays unfinished")
    count = plan["count"]
    if check.done != count:
        raise CardlabError(
            f"run folder {folder.path} covers {check.done} of {count} "
            f"{mf.plural(plan['unit'])} after the run; it stays unfinished"
        )
    manifest = {**plan, "complete": True, "parts": len(check.parts),
                "rows": count * spec.players if rows else None}
    try:
        folder.write_manifest(manifest)
    except OSError as exc:
        raise CardlabIOError(
            f"could not write the manifest of {folder.path}: {exc.strerror or exc}; "
            "every chunk is done: rerun with --resume to finish"
        ) from None


def concat_rows(rows: dict[int, dict[str, np.ndarray]], columns: list[str]) -> pd.DataFrame:
    """All collected chunks as one table, ordered by index then seat."""
    ordered = [rows[s] for s in sorted(rows)]
    data = {c: np.concatenate([r[c] for r in ordered]) for c in columns}
    return pd.DataFrame(data)

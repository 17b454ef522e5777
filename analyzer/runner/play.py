"""How studies get games played: a small backend interface over the kernels and the runner.

Studies never call the engines directly. They ask a :class:`Backend` to validate a
:class:`~analyzer.engines.kernel.RunSpec` and to collect per-seat result rows, so that the
statistics and reports can be tested on synthetic games whose answer is known, and the real
backend (:class:`KernelBackend`: the game kernels through ``analyzer.runner``) is only loaded
when a study really plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pandas as pd

from analyzer.engines.kernel import RunSpec
from analyzer.stats.duplicate import label_games
from analyzer.summary import merge_moments, seat_moments

# Games per call when a study only needs per-seat moments: bounds memory on big budgets.
MOMENT_CHUNK = 200_000


class Backend(Protocol):
    """What a study needs from the engines."""

    def validate(self, spec: RunSpec) -> RunSpec:
        """The spec with every rules option filled in, or raise CardlabError."""

    def canonical(self, game: str, text: str) -> str:
        """The strategy's canonical label (``name`` or ``name:key=value``), or raise."""

    def collect(self, spec: RunSpec, count: int, start: int = 0) -> pd.DataFrame:
        """Per-seat result rows of units start..start+count-1, ordered by index, seat."""

    def table(self, name: str, spec: RunSpec, start: int, count: int) -> pd.DataFrame:
        """Extra table ``name`` of units start..start+count-1 that the game's adapter declares
        (GameParts.tables; e.g. Plus-Minus Jass's ``trump``: its trump counterfactual rows,
        one per decision and candidate suit)."""


def collect_all(backend: Backend, jobs: Sequence[tuple[RunSpec, int, int]],
                concat: bool = False) -> list[pd.DataFrame] | pd.DataFrame:
    """``backend.collect(spec, count, start)`` for each job, in one pass where the backend
    can (``collect_many``: every worker busy on many small runs), else one by one; with
    ``concat``, the rows of all jobs in one table, job after job."""
    many = getattr(backend, "collect_many", None)
    if many is not None:
        return many(jobs, concat=concat)
    frames = [backend.collect(spec, count, start) for spec, count, start in jobs]
    return pd.concat(frames, ignore_index=True) if concat else frames


class KernelBackend:
    """The real engines: each game's kernel (its adapter's ``kernel``, analyzer.games.registry
    GameParts) through ``analyzer.runner``."""

    def __init__(self, workers: int | None = None, progress: bool = False):
        self.workers = workers
        self.progress = progress

    def validate(self, spec: RunSpec) -> RunSpec:
        """Validate with the game's kernel module (imported lazily)."""
        from analyzer.engines.kernel import kernel_module

        return kernel_module(spec.game).validate(spec)

    def canonical(self, game: str, text: str) -> str:
        """Parse through the strategy registry, so that aliases compare equal."""
        from strategies.registry import parse_strategy

        return parse_strategy(game, text).label()

    def identity(self, game: str, text: str) -> str:
        """What the strategy plays, exactly (registry ``Strategy.identity``)."""
        from strategies.registry import parse_strategy

        return parse_strategy(game, text).identity()

    def collect(self, spec: RunSpec, count: int, start: int = 0) -> pd.DataFrame:
        """Play with the runner (worker processes as configured)."""
        from analyzer.runner import collect

        return collect(spec, count, start=start, workers=self.workers, progress=self.progress)

    def collect_many(self, jobs: Sequence[tuple[RunSpec, int, int]], concat: bool = False
                     ) -> list[pd.DataFrame] | pd.DataFrame:
        """:meth:`collect` of each ``(spec, count, start)``, all chunks in one pass
        (:func:`analyzer.runner.api.collect_many`)."""
        from analyzer.runner.api import collect_many

        return collect_many(jobs, workers=self.workers, concat=concat)

    def table(self, name: str, spec: RunSpec, start: int, count: int) -> pd.DataFrame:
        """Extra table ``name`` (the game's adapter's ``tables``) of units start..start+count-1,
        spread over the workers like rows."""
        from analyzer.games import registry
        from analyzer.runner.api import unit_table

        parts = registry.get(spec.game).parts
        if parts is None:
            from analyzer.errors import CardlabError

            raise CardlabError(f"no table {name!r} for {spec.game}; tables: none")
        return unit_table(parts.table(name), spec, count, start, workers=self.workers)


def make_spec(
    backend: Backend,
    game: str,
    players: int,
    strategies: Sequence[str],
    seed: int,
    mode: str = "",
    rules: dict[str, Any] | None = None,
) -> RunSpec:
    """A validated RunSpec with one strategy label per seat."""
    spec = RunSpec(game=game, players=players, strategies=tuple(strategies), seed=seed,
                   mode=mode, rules=dict(rules or {}))
    return backend.validate(spec)


def seat_field(labels: Sequence[str], players: int) -> list[str]:
    """One label per seat: a field of several strategies is repeated around the table."""
    labels = list(labels) or ["basic"]
    return [labels[s % len(labels)] for s in range(players)]


def play_arrangements(
    backend: Backend,
    spec: RunSpec,
    arrangements: Sequence[Sequence[str]],
    count: int,
    start: int = 0,
) -> tuple[pd.DataFrame, list[RunSpec]]:
    """Play deals start..start+count-1 once per arrangement of strategies to seats.

    Returns the long games table (columns of the game plus ``arrangement`` and ``strategy``)
    and the specs that were run (for the manifest). Every arrangement uses ``spec``'s seed,
    so all of them see the same deals.
    """
    specs = [backend.validate(RunSpec(spec.game, spec.players, tuple(seats), spec.seed,
                                      spec.mode, dict(spec.rules))) for seats in arrangements]
    rows = collect_all(backend, [(run, count, start) for run in specs])
    frames = [label_games(games, r, seats)
              for r, (games, seats) in enumerate(zip(rows, arrangements, strict=True))]
    return pd.concat(frames, ignore_index=True), specs


def collect_seat_moments(
    backend: Backend,
    spec: RunSpec,
    count: int,
    columns: list[str],
    start: int = 0,
    derive: Callable[[pd.DataFrame], pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """Per-seat n / sum / sum of squares of ``columns``, collected in bounded chunks.

    ``derive`` may add columns computed from a chunk's rows (e.g. a seat's result minus its
    game's mean) before the moments are taken.
    """
    parts = []
    for lo in range(start, start + count, MOMENT_CHUNK):
        n = min(MOMENT_CHUNK, start + count - lo)
        rows = backend.collect(spec, n, lo)
        if derive is not None:
            rows = derive(rows)
        parts.append(seat_moments(rows, columns))
    return merge_moments(parts)

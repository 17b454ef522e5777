"""A rich progress bar: units done, units per second, time left; silent when asked or piped."""

from __future__ import annotations

import time
from collections import deque

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from analyzer.runner.manifest import plural

WINDOW_S = 10.0  # the rate shown is over the last WINDOW_S seconds ...
MIN_SPAN_S = 0.5  # ... once results span at least this long (chunks finish in bursts)


class RateColumn(ProgressColumn):
    """Units per second over the last few seconds, so that worker start-up does not drag the
    figure down for the whole run."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.units = plural(unit)

    def render(self, task: Task) -> Text:
        rate = task.fields.get("rate")
        return Text("" if rate is None else f"{rate:,.0f} {self.units}/s", style="cyan")


class RunProgress:
    """Progress of one run; a no-op unless ``enabled`` and the console is a terminal."""

    def __init__(
        self, total: int, done: int, unit: str, enabled: bool, console: Console | None = None
    ) -> None:
        self.console = console or Console()
        if console is None and not 20 <= self.console.width <= 10_000:
            # rich takes COLUMNS as it is (COLUMNS=0: a bar of no width); held as the
            # tables' width is (analyzer/cli/console.py)
            self.console = Console(width=min(max(self.console.width, 20), 10_000))
        self.enabled = enabled and self.console.is_terminal
        self.unit = unit
        self._progress: Progress | None = None
        if self.enabled:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                RateColumn(unit),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=self.console,
                transient=False,
            )
            self._task = self._progress.add_task(
                plural(unit), total=total, completed=done, rate=None
            )
        self._samples: deque[tuple[float, int]] = deque()

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def advance(self, units: int, done: int) -> None:
        """``units`` more finished; ``done`` in all (resumed units included)."""
        if self._progress is None:
            return
        now = time.perf_counter()
        self._samples.append((now, done))
        while len(self._samples) > 2 and now - self._samples[1][0] >= WINDOW_S:
            self._samples.popleft()
        t_first, d_first = self._samples[0]
        rate = (done - d_first) / (now - t_first) if now - t_first >= MIN_SPAN_S else None
        fields = {"rate": rate} if rate is not None else {}
        self._progress.update(self._task, completed=done, **fields)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

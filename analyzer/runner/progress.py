"""A rich progress bar: units done, units per second, time elapsed and time left; silent when
asked or piped.

It reads ``matches  ━━━━━━━━━╸━━━━━━━━━  1,500/3,000  50%  249 matches/s  elapsed 0:00:06
left 0:00:06``. Units finish in chunks, so between two chunks the bar would stand still:
rich redraws it ten times a second, the elapsed time runs on, and the time left counts down
from the last estimate (the remaining units at the rate of the last few seconds, measured from
the run's start until a few seconds have passed, so the first chunk already gives one).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
)
from rich.text import Text

from analyzer.runner.manifest import plural

WINDOW_S = 10.0  # the rate shown is over the last WINDOW_S seconds ...
MIN_SPAN_S = 0.5  # ... once results span at least this long (chunks finish in bursts)
REFRESH_PER_S = 10  # redraws a second: the clocks move between chunks


def clock_text(seconds: float | None) -> str:
    """``H:MM:SS`` (``-:--:--`` when unknown), as rich writes times."""
    if seconds is None:
        return "-:--:--"
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


class RateColumn(ProgressColumn):
    """Units per second over the last few seconds, so that worker start-up does not drag the
    figure down for the whole run."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.units = plural(unit)

    def render(self, task: Task) -> Text:
        rate = task.fields.get("rate")
        return Text("" if rate is None else f"{rate:,.0f} {self.units}/s", style="cyan")


class ClockColumn(ProgressColumn):
    """``elapsed H:MM:SS`` or ``left H:MM:SS``, the label before the time it names, read at
    every redraw from the bar's own clock."""

    max_refresh = None

    def __init__(self, label: str, seconds: Callable[[], float | None]) -> None:
        super().__init__()
        self.label, self.seconds = label, seconds

    def render(self, task: Task) -> Text:
        return Text(f"{self.label} {clock_text(self.seconds())}", style="yellow")


class RunProgress:
    """Progress of one run; a no-op unless ``enabled`` and the console is a terminal.
    ``clock`` (seconds, monotonic) is ``time.perf_counter`` but for tests."""

    def __init__(
        self, total: int, done: int, unit: str, enabled: bool, console: Console | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.console = console or Console()
        if console is None and not 20 <= self.console.width <= 10_000:
            # rich takes COLUMNS as it is (COLUMNS=0: a bar of no width); held as the
            # tables' width is (analyzer/cli/console.py)
            self.console = Console(width=min(max(self.console.width, 20), 10_000))
        self.enabled = enabled and self.console.is_terminal
        self.unit = unit
        self.total = total
        self.clock = clock
        self._start = clock()
        self._samples: deque[tuple[float, int]] = deque([(self._start, done)])
        self._finish_at: float | None = None  # the clock's time at which the run should end
        self._progress: Progress | None = None
        if self.enabled:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                RateColumn(unit),
                ClockColumn("elapsed", self.elapsed),
                ClockColumn("left", self.left),
                console=self.console,
                transient=False,
                refresh_per_second=REFRESH_PER_S,
            )
            self._task = self._progress.add_task(
                plural(unit), total=total, completed=done, rate=None
            )

    def elapsed(self) -> float:
        """Seconds since the bar was made."""
        return self.clock() - self._start

    def left(self) -> float | None:
        """Seconds left by the last estimate, counting down between chunks; None before the
        first chunk of this run has finished."""
        if self._finish_at is None:
            return None
        return max(0.0, self._finish_at - self.clock())

    def advance(self, units: int, done: int) -> None:
        """``units`` more finished; ``done`` in all (resumed units included)."""
        now = self.clock()
        self._samples.append((now, done))
        while len(self._samples) > 2 and now - self._samples[1][0] >= WINDOW_S:
            self._samples.popleft()
        t_first, d_first = self._samples[0]
        span = now - t_first
        rate = (done - d_first) / span if span > 0 and done > d_first else None
        if rate:
            self._finish_at = now + max(0, self.total - done) / rate
        if self._progress is None:
            return
        shown = {"rate": rate} if rate is not None and span >= MIN_SPAN_S else {}
        self._progress.update(self._task, completed=done, **shown)

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

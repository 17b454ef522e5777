"""Measuring helpers shared by the benchmark scripts (rates, compile probes, peak memory)."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def in_chunks(play: Callable[[int, int], object], count: int, chunk: int | None, *,
              game: str, mode: str) -> Callable[[], None]:
    """A function that plays units 0..count-1 as ``play(start, n)`` calls of at most ``chunk``
    units each, the way the runner calls a kernel. ``chunk`` None: the size the runner uses
    for a long run of ``game`` and ``mode`` (its description's chunk size,
    analyzer.runner.chunks.preferred_chunk_size: for Jass 150,000 deals or 20,000 matches);
    0: one call of all ``count``. Very large single calls also time the system's page faults
    on their fresh result arrays (one 200,000-deal Jass call: 2 to 4% of its time on this
    VM), which the runner's smaller chunks see less of or not at all."""
    if chunk is None:
        from analyzer.runner.chunks import preferred_chunk_size

        chunk = preferred_chunk_size(game, mode)
    step = chunk if chunk > 0 else max(count, 1)

    def run() -> None:
        for start in range(0, count, step):
            play(start, min(step, count - start))

    return run


def chunk_units(text: str) -> int:
    """argparse type of the benchmarks' ``--chunk``: a whole number, 0 or more (argparse turns
    the errors into its one-line usage error and exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of units, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"0 (one call) or more, got {value}")
    return value


def rate(fn: Callable[[], object], units: int, repeats: int) -> tuple[float, float]:
    """Best units/second over ``repeats`` calls, by process CPU time and by wall time.

    CPU time is the steadier figure on a machine shared with other work: other load slows
    the wall clock but barely the process's own CPU seconds.
    """
    best_cpu = best_wall = 0.0
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        c1, w1 = time.process_time(), time.perf_counter()
        best_cpu = max(best_cpu, units / max(c1 - c0, 1e-9))
        best_wall = max(best_wall, units / max(w1 - w0, 1e-9))
    return best_cpu, best_wall


def probe_compile(probe: str, cache_dir: str) -> dict[str, float]:
    """Run ``probe`` (Python code printing one JSON line) in a fresh interpreter whose numba
    cache is ``cache_dir``: an empty folder times a cold compile, a used one a warm load."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

"""Splitting a range of game indices into chunks, and finding what a resumed run still lacks.

A chunk is the unit of work and of output: one task on a worker, one part file on disk. Its
results depend on the game indices alone (the kernel contract), so the chunk size is free to
change between runs and even within a resumed run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

# A chunk should keep a worker busy for about a second (design-notes: tasks of 0.5 s or more)
# yet leave every worker several chunks, so that the last one does not idle long.
DEFAULT_CHUNK_SIZE = 20_000
CHUNKS_PER_WORKER = 4
# Units per chunk for about 0.2 to 0.3 s on one core here (measured with the basic strategies,
# runner included: ass ~1.1M games/s, jass ~72k matches/s and ~650k deals/s); Dask's
# per-task cost (about 10 ms) is then a few percent (measured: +1.5% with 0.4 s chunks).
# Bigger chunks cost memory (a worker holds one chunk's rows), smaller ones per-chunk overhead.
PREFERRED_CHUNK_SIZE = {
    ("ass", "games"): 200_000,
    ("ass", "matches"): 50_000,  # of 4 games at the default K for 4 players
    ("jass", "matches"): 20_000,
    ("jass", "deals"): 150_000,
}


@dataclass(frozen=True, order=True)
class Chunk:
    """Units ``start .. start+count-1``."""

    start: int
    count: int

    @property
    def stop(self) -> int:
        return self.start + self.count


def default_chunk_size(count: int, workers: int, preferred: int = DEFAULT_CHUNK_SIZE) -> int:
    """``preferred``, but small enough that every worker gets a few chunks."""
    per_worker = math.ceil(count / max(1, workers * CHUNKS_PER_WORKER))
    return max(1, min(preferred, per_worker))


def split(start: int, count: int, chunk_size: int) -> list[Chunk]:
    """Consecutive chunks of ``chunk_size`` (the last one shorter) covering start..start+count."""
    return [
        Chunk(s, min(chunk_size, start + count - s))
        for s in range(start, start + count, chunk_size)
    ]


def missing(start: int, count: int, done: Iterable[Chunk], chunk_size: int) -> list[Chunk]:
    """Chunks covering every index of start..start+count that no chunk in ``done`` covers."""
    todo: list[Chunk] = []
    pos = start
    for c in sorted(done):
        if c.start > pos:
            todo.extend(split(pos, c.start - pos, chunk_size))
        pos = max(pos, c.stop)
    if pos < start + count:
        todo.extend(split(pos, start + count - pos, chunk_size))
    return todo

"""Splitting a range of game indices into chunks, and finding what a resumed run still lacks.

A chunk is the unit of work and of output: one task on a worker, one part file on disk. Its
results depend on the game indices alone (the kernel contract), so the chunk size is free to
change between runs and even within a resumed run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# A chunk should keep a worker busy for about a second (design-notes: tasks of 0.5 s or more)
# yet leave every worker several chunks, so that the last one does not idle long.
DEFAULT_CHUNK_SIZE = 20_000
CHUNKS_PER_WORKER = 4
# Units per chunk: each game's description says (analyzer.games.registry: Mode.chunk_size),
# sized for about 0.2 to 0.3 s on one core; Dask's per-task cost (about 10 ms) is then a few
# percent. Bigger chunks cost memory (a worker holds one chunk's rows), smaller ones
# per-chunk overhead.


def preferred_chunk_size(game: str, mode: str) -> int:
    """The chunk size the game's description prefers for ``mode`` (else the default)."""
    from analyzer.errors import CardlabError
    from analyzer.games import registry

    try:
        return registry.get(game).mode(mode).chunk_size
    except CardlabError:
        return DEFAULT_CHUNK_SIZE


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
    return list(iter_split(start, count, chunk_size))


def iter_split(start: int, count: int, chunk_size: int) -> Iterator[Chunk]:
    """:func:`split`, one chunk at a time (memory stays flat for any count)."""
    stop = start + count
    for s in range(start, stop, chunk_size):
        yield Chunk(s, min(chunk_size, stop - s))


def gaps(start: int, count: int, done: Iterable[Chunk]) -> list[Chunk]:
    """The ranges of start..start+count that no chunk in ``done`` covers (at most one more
    than there are done chunks)."""
    out: list[Chunk] = []
    pos = start
    for c in sorted(done):
        if c.start > pos:
            out.append(Chunk(pos, c.start - pos))
        pos = max(pos, c.stop)
    if pos < start + count:
        out.append(Chunk(pos, start + count - pos))
    return out


def iter_missing(start: int, count: int, done: Iterable[Chunk],
                 chunk_size: int) -> Iterator[Chunk]:
    """Chunks covering every index of start..start+count that no chunk in ``done`` covers,
    planned lazily: a run of any size starts at once."""
    for gap in gaps(start, count, done):
        yield from iter_split(gap.start, gap.count, chunk_size)


def count_chunks(ranges: Iterable[Chunk], chunk_size: int) -> int:
    """How many chunks :func:`iter_missing` yields for these gaps."""
    return sum(-(-r.count // chunk_size) for r in ranges)


def missing(start: int, count: int, done: Iterable[Chunk], chunk_size: int) -> list[Chunk]:
    """Chunks covering every index of start..start+count that no chunk in ``done`` covers."""
    return list(iter_missing(start, count, done, chunk_size))

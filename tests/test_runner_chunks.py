"""Chunking and resume bookkeeping of analyzer.runner.chunks."""

from hypothesis import given
from hypothesis import strategies as st

from analyzer.runner.chunks import Chunk, default_chunk_size, missing, split


def test_split_covers_the_range_in_order():
    chunks = split(10, 25, 10)
    assert chunks == [Chunk(10, 10), Chunk(20, 10), Chunk(30, 5)]
    assert chunks[-1].stop == 35


def test_default_chunk_size_gives_every_worker_several_chunks():
    assert default_chunk_size(1_000_000, 2) == 20_000
    assert default_chunk_size(80, 2) == 10
    assert default_chunk_size(1, 16) == 1


@given(
    start=st.integers(0, 1000),
    count=st.integers(1, 500),
    size=st.integers(1, 60),
    cuts=st.lists(st.integers(0, 499), max_size=8),
)
def test_missing_is_exactly_the_complement_of_done(start, count, size, cuts):
    # "done" chunks: every other piece between sorted cut points
    points = sorted({0, count, *[c % count for c in cuts]})
    pieces = [Chunk(start + a, b - a) for a, b in zip(points, points[1:], strict=False) if b > a]
    done = pieces[::2]
    todo = missing(start, count, done, size)
    covered = sorted(i for c in [*done, *todo] for i in range(c.start, c.stop))
    assert covered == list(range(start, start + count))  # nothing lost, nothing twice
    assert all(1 <= c.count <= size for c in todo)

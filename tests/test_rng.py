"""The random-number contract of analyzer/rng.py: jitted and Python twins agree."""

import numpy as np
import pytest

from analyzer.rng import (
    PyRng,
    new_state,
    next_u64,
    py_stream_start,
    randbelow,
    seed_state,
    stream_start,
)


@pytest.mark.parametrize("seed,index,stream", [(0, 0, 0), (7, 3, 0), (2**63 - 1, 10**12, 5)])
def test_jitted_and_python_streams_are_identical(seed, index, stream):
    state = new_state()
    seed_state(state, seed, index, stream)
    assert int(state[0]) == py_stream_start(seed, index, stream) == int(
        stream_start(seed, index, stream)
    )
    rng = PyRng(seed, index, stream)
    for n in (1, 2, 3, 39, 109, 1000):
        assert randbelow(state, n) == rng.randbelow(n)
    assert int(next_u64(state)) == rng.next_u64()


def test_randbelow_is_uniform():
    state = new_state()
    seed_state(state, 1, 2, 0)
    counts = np.bincount([randbelow(state, 7) for _ in range(70_000)], minlength=7)
    expected = 10_000
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 22.46  # 99.9% quantile of chi-square with 6 degrees of freedom


def test_distinct_games_get_distinct_streams():
    starts = {py_stream_start(7, i) for i in range(10_000)}
    assert len(starts) == 10_000
    assert py_stream_start(7, 0, 0) != py_stream_start(7, 0, 1)

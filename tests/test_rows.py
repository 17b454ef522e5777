"""analyzer/rows.py: the networks' row updates, eight hidden units at a time, give every unit
the sums a scalar loop gives it, to the bit."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from analyzer.rows import add_row, add_scaled_row, relu_layer_finish, relu_layer_start
from analyzer.stack import stack_float64


@njit(cache=False)
def _vector(acc, w, starts, scales):
    out = acc.copy()
    for k in range(starts.size):
        if scales[k] == 0.0:
            add_row(out, w, starts[k], 32)
        else:
            add_scaled_row(out, w, starts[k], 32, scales[k])
    return out


@njit(cache=False)
def _scalar(acc, w, starts, scales):
    out = acc.copy()
    flat = w.reshape(-1)
    for k in range(starts.size):
        for j in range(32):
            if scales[k] == 0.0:
                out[j] += flat[starts[k] + j]
            else:
                out[j] += flat[starts[k] + j] * scales[k]
    return out


@njit(cache=False)
def _on_the_stack(w):
    acc = stack_float64(32)
    for j in range(32):
        acc[j] = 0.5
    add_scaled_row(acc, w, 3, 32, 2.0)
    total = 0.0
    for j in range(32):
        total += acc[j]
    return total


def test_row_updates_match_the_scalar_loop_bit_for_bit():
    rnd = np.random.default_rng(9)
    for shape in ((7, 40), (2, 295, 32)):  # a flat row and a row of a 3-d array
        w = rnd.normal(size=shape) * 10.0 ** rnd.integers(-8, 8, size=shape)
        acc = rnd.normal(size=32)
        starts = rnd.integers(0, w.size - 32, size=200)  # any start, aligned or not
        scales = np.where(rnd.random(200) < 0.3, 0.0, rnd.normal(size=200))
        a = _vector(acc, w, starts, scales)
        b = _scalar(acc, w, starts, scales)
        assert np.array_equal(a.view(np.int64), b.view(np.int64))
        assert not np.array_equal(a, acc)
    w = np.arange(40, dtype=np.float64)
    assert _on_the_stack(w) == 32 * 0.5 + 2.0 * sum(range(3, 35))


def test_only_literal_multiples_of_eight_and_float64_arrays_are_accepted():
    @njit(cache=False)
    def odd(acc, w):
        add_row(acc, w, 0, 12)

    @njit(cache=False)
    def ints(acc, w):
        add_row(acc, w, 0, 8)

    with pytest.raises(TypingError):
        odd(np.zeros(16), np.zeros(16))
    with pytest.raises(TypingError):
        ints(np.zeros(16, np.int64), np.zeros(16, np.int64))


@njit(cache=False)
def _split(w, at, x_card, x_shared, zero):
    start = stack_float64(32)
    acc = stack_float64(32)
    relu_layer_start(start, w, at, 32, 18, x_shared, 10)
    return relu_layer_finish(start, acc, w, at, 32, x_card, 18, 28, zero)


def test_a_score_split_into_shared_and_own_inputs_sums_in_the_twins_order():
    """relu_layer_start + relu_layer_finish: each unit sums its bias, the shared inputs
    (the last), then the card's own (the first), skipping only inputs that are 0.0; the same
    score to the bit as a plain loop in that order, and not the whole-vector order's."""
    rnd = np.random.default_rng(12)
    differ = 0
    for k in range(300):
        w = rnd.normal(size=3 * (28 * 32 + 64)) * 10.0 ** rnd.integers(-3, 3)
        at = int(rnd.integers(0, 3)) * (28 * 32 + 64)
        x = rnd.normal(size=28) * (rnd.random(28) < 0.6)
        zero = sum(1 << d for d in range(18) if x[d] == 0.0 and rnd.random() < 0.7)
        got = _split(w, at, tuple(x[:18]), tuple(x[18:]), zero)
        rows = w[at:at + 28 * 32].reshape(28, 32)
        bias, out = w[at + 28 * 32:at + 28 * 32 + 32], w[at + 28 * 32 + 32:at + 28 * 32 + 64]
        total = whole = 0.0
        for h in range(32):
            a = b = float(bias[h])
            for d in list(range(18, 28)) + list(range(18)):
                a += float(rows[d, h]) * float(x[d])
            for d in range(28):
                b += float(rows[d, h]) * float(x[d])
            total += float(out[h]) * max(a, 0.0)
            whole += float(out[h]) * max(b, 0.0)
        assert got == total, k
        differ += whole != total
    assert differ > 0  # the order is the test's point: another order rounds differently

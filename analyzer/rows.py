"""Row updates of the small networks' hidden units, eight at a time, and the score of one
hidden layer built on them, in two parts: what a decision's moves share
(:data:`relu_layer_start`) and each move's own (:data:`relu_layer_finish`), both games'
``learned``.

``add_row(acc, w, start, N)``: ``acc[k] += w.flat[start + k]`` for k < N;
``add_scaled_row(acc, w, start, N, x)``: ``acc[k] += w.flat[start + k] * x`` (the product
rounded, then the sum: never fused). N is a literal multiple of 8 (the networks' 32 hidden
units). Each element gets exactly the additions, in the order, that a scalar loop gives it,
so the results are the same to the bit; the compiled code makes eight at a time (LLVM vectors;
numba does not vectorise a loop of 32 it unrolls). Nothing is checked: the arrays must be
C-contiguous float64 and hold the elements named. Under ``NUMBA_DISABLE_JIT=1`` plain loops
take their place.

The intrinsic is built on numba internals, kept in :mod:`analyzer.numba_compat`.
"""

from __future__ import annotations

import numba

from analyzer.numba_compat import njit_no_runtime, row_update_intrinsic

if numba.config.DISABLE_JIT:

    def add_row(acc, w, start, count):
        """``acc[k] += w.flat[start + k]`` for k < ``count``."""
        flat = w.reshape(-1)
        for k in range(count):
            acc[k] += flat[start + k]

    def add_scaled_row(acc, w, start, count, x):
        """``acc[k] += w.flat[start + k] * x`` for k < ``count``."""
        flat = w.reshape(-1)
        for k in range(count):
            acc[k] += flat[start + k] * x

else:
    add_row = row_update_intrinsic(False)
    add_scaled_row = row_update_intrinsic(True)


def _relu_layer_start(start, weights, at, hidden, first, x, count):
    """The part of one hidden layer of ``hidden`` rectified units that a decision's moves
    share, with the weights from ``weights[at]`` in the transposed layout
    (strategies/learned_file.py ``transposed_layout``: one row of ``hidden`` weights per
    input, then ``hidden`` biases, then ``hidden`` output weights; ``first + count`` inputs):
    ``start[h]`` = bias[h], then in[h, first + d] * x[d] for d < ``count`` added in order. A
    policy whose last ``count`` inputs are the same for every move (Plus-Minus Jass: the facts
    of the deal) adds them once per decision, then :func:`relu_layer_finish` each move's
    own; with ``count`` 0, the biases alone (Who's the Ass?). ``hidden``: a literal multiple
    of 8, at most 32 (the callers' work arrays)."""
    bias = at + hidden * (first + count)
    for h in range(hidden):
        start[h] = weights[bias + h]
    for d in range(count):
        add_scaled_row(start, weights, at + (first + d) * hidden, hidden, x[d])


def _relu_layer_finish(start, acc, weights, at, hidden, x, count, inputs, zero):
    """The score of one move: ``start`` (:func:`relu_layer_start`, left as it is) plus
    in[h, d] * x[d] for d < ``count`` (the move's own inputs, the first of ``inputs``), in
    order, into the work array ``acc``; then sum over h of out[h] * max(0, acc[h]). So each
    unit sums its bias, the shared inputs, then the move's, eight units side by side: the
    order the plain-Python twins follow. A unit at or below zero adds out[h] * 0.0, which
    leaves the sum as the twins' ``if a > 0`` does. The inputs whose bit is set in ``zero``
    are skipped: the caller knows them to be 0.0 in this decision, and adding a weight times
    0.0 leaves a sum as it is."""
    for h in range(hidden):
        acc[h] = start[h]
    for d in range(count):
        if not (zero >> d) & 1:
            add_scaled_row(acc, weights, at + d * hidden, hidden, x[d])
    out = at + hidden * inputs + hidden
    total = 0.0
    for h in range(hidden):
        total += weights[out + h] * max(acc[h], 0.0)
    return total


relu_layer_start = njit_no_runtime(inline="always")(_relu_layer_start)
relu_layer_finish = njit_no_runtime(inline="always")(_relu_layer_finish)

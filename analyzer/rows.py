"""Row updates of the small networks' hidden units, eight at a time.

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

from analyzer.numba_compat import row_update_intrinsic

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

"""Work arrays on the stack, for jitted code that runs without numba's runtime (``_nrt=False``).

The engines' play loops are compiled with ``_nrt=False`` (no allocation, no reference counting
of array arguments: measured about 20 ns per call). numba compiles every function they call
under the same flags, so a policy called from the play loop cannot allocate arrays. A search
policy needs work space of its own (the worlds it samples, a view for its rollouts):
``stack_int64(N)`` and ``stack_uint64(N)`` give an array of N elements (N a literal integer)
in the calling function's stack frame, uninitialised, alive until that function returns (the
array has no owner, so it must not outlive it). Each call site is one ``alloca`` in the
function's entry block, so calling it in a loop does not grow the stack.

The intrinsic is built on numba internals, kept in :mod:`analyzer.numba_compat`. Under
``NUMBA_DISABLE_JIT=1`` plain numpy arrays take their place.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types

from analyzer.numba_compat import stack_array_intrinsic

if numba.config.DISABLE_JIT:

    def stack_int64(size):
        """An uninitialised int64 work array of ``size`` elements."""
        return np.empty(size, dtype=np.int64)

    def stack_uint64(size):
        """An uninitialised uint64 work array of ``size`` elements."""
        return np.empty(size, dtype=np.uint64)

    def stack_float64(size):
        """An uninitialised float64 work array of ``size`` elements."""
        return np.empty(size, dtype=np.float64)

else:
    stack_int64 = stack_array_intrinsic(types.int64)
    stack_uint64 = stack_array_intrinsic(types.uint64)
    stack_float64 = stack_array_intrinsic(types.float64)

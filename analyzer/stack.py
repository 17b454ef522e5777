"""Work arrays on the stack, for jitted code that runs without numba's runtime (``_nrt=False``).

The engines' play loops are compiled with ``_nrt=False`` (no allocation, no reference counting
of array arguments: measured about 20 ns per call). numba compiles every function they call
under the same flags, so a policy called from the play loop cannot allocate arrays. A search
policy needs work space of its own (the worlds it samples, a view for its rollouts):
``stack_int64(N)`` and ``stack_uint64(N)`` give an array of N elements (N a literal integer)
in the calling function's stack frame, uninitialised, alive until that function returns (the
array has no owner, so it must not outlive it). Each call site is one ``alloca`` in the
function's entry block, so calling it in a loop does not grow the stack.

Under ``NUMBA_DISABLE_JIT=1`` plain numpy arrays take their place.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


def _stack_array(element):
    @intrinsic
    def stack_array(typingctx, count):
        if not isinstance(count, types.IntegerLiteral):
            return None
        size = count.literal_value
        aryty = types.Array(element, 1, "C")

        def codegen(context, builder, signature, args):
            ty = context.get_value_type(element)
            data = cgutils.alloca_once(builder, ty, size=size)
            ary = make_array(aryty)(context, builder)
            itemsize = context.get_abi_sizeof(ty)
            intp = context.get_value_type(types.intp)
            populate_array(
                ary,
                data=data,
                shape=[intp(size)],
                strides=[intp(itemsize)],
                itemsize=intp(itemsize),
                meminfo=None,
            )
            return ary._getvalue()

        return aryty(count), codegen

    return stack_array


if numba.config.DISABLE_JIT:

    def stack_int64(size):
        """An uninitialised int64 work array of ``size`` elements."""
        return np.empty(size, dtype=np.int64)

    def stack_uint64(size):
        """An uninitialised uint64 work array of ``size`` elements."""
        return np.empty(size, dtype=np.uint64)

else:
    stack_int64 = _stack_array(types.int64)
    stack_uint64 = _stack_array(types.uint64)

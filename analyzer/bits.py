"""Bit tricks on uint64 masks shared by both engines: population count and trailing zeros.

In compiled code each is one LLVM intrinsic (one instruction on current CPUs). Intrinsics
exist only in compiled code, so under ``NUMBA_DISABLE_JIT=1`` plain-Python twins with the
same results take their place.
"""

from __future__ import annotations

import numba
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from analyzer.numba_compat import llvm_function


@intrinsic
def _ctpop64(typingctx, x):
    """LLVM's population count."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = llvm_function(builder, fnty, "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return sig, codegen


@intrinsic
def _cttz64(typingctx, x):
    """LLVM's count of trailing zeros (undefined for 0: callers pass non-zero masks)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)])
        fn = llvm_function(builder, fnty, "llvm.cttz.i64")
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])

    return sig, codegen


if numba.config.DISABLE_JIT:

    def popcount(m):
        """Number of set bits of a uint64 mask."""
        return bin(int(m)).count("1")

    def trailing_zeros(m):
        """Position of the lowest set bit of a non-zero uint64 mask."""
        m = int(m)
        return (m & -m).bit_length() - 1

else:

    @njit(cache=True, inline="always")
    def popcount(m):
        """Number of set bits of a uint64 mask."""
        return _ctpop64(m)

    @njit(cache=True, inline="always")
    def trailing_zeros(m):
        """Position of the lowest set bit of a non-zero uint64 mask."""
        return _cttz64(m)

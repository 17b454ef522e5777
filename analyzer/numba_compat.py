"""Every use of numba beyond its documented API, in one place, for the numba versions tested.

cardlab relies on these things numba does not promise:

* the ``_nrt`` option of ``njit`` (undocumented): ``_nrt=False`` compiles a function without
  numba's runtime, so it neither allocates nor counts references to its array arguments on
  each call (about 20 ns a call on the engines' hot paths). A function compiled from one
  with ``_nrt=False`` that does not set the option itself inherits it; one that allocates
  sets ``_nrt=True``. Use :func:`njit_no_runtime` and :func:`njit_runtime`, never the option.
* arrays in the caller's stack frame (:func:`stack_array_intrinsic`, for analyzer.stack):
  built with numba's internal ``cgutils.alloca_once`` and ``arrayobj.populate_array``;
* LLVM intrinsics called from an ``@intrinsic`` (:func:`llvm_function`, for analyzer.bits):
  ``cgutils.get_or_insert_function``;
* LLVM vector instructions written by an ``@intrinsic`` (:func:`row_update_intrinsic`, for
  analyzer.rows): numba's ``make_array`` for the arrays' data pointers;
* a call into another dispatcher's compiled code through its address (:func:`call_compiled`,
  for the play loops' calls into the search, :func:`register_hook`): the compile result's
  ``library.get_pointer_to_function`` and ``fndesc.llvm_func_name``, numba's calling
  convention (``context.call_conv``), and a C function of this module's given to LLVM with
  ``llvmlite.binding.add_symbol``;
* a correction to numba's alias analysis (:func:`_close_argument_aliases`), installed when
  this module is imported (every module with kernels imports it). numba's dead-code
  elimination drops a store into an array when it finds the array variable dead and not
  an alias of an argument; its alias analysis (``ir_utils.find_potential_aliases``) walks
  the blocks once in order and counts ``b = a`` as an alias of an argument only when
  ``a = argument`` came earlier in that order. Inlined functions (``inline="always"``)
  add such chains, their blocks not always in that order, and the elimination runs
  after an ``@overload(inline="always")`` is inlined. So a store into an argument array as
  the last statement of a twice-inlined function was dropped: the deal's
  ``view[PUB_KNOWN + ass seat] = 1`` in every game of a Who's the Ass? loop that also
  asked ``_basic_alone(variant)`` (issue 20 item 13; docs/numba-notes.md has the
  reduction and a standalone reproduction).
* a saving in how numba types an ``@overload(inline="always")`` (:func:`_typing_only`),
  installed the same way: numba compiles the implementation to machine code once per
  signature "to make sure it can be fully compiled", then types it again for the inliner
  and never calls the compiled code. That compile links in and emits the whole play loop
  below it each time (docs/numba-notes.md has what it cost); cardlab's overloads are typed
  only, and the code that inlines them is unchanged.

pyproject.toml pins numba to :data:`TESTED_NUMBA` (and llvmlite to the range that numba
release requires); tests/test_safety_engine.py fails loudly when the installed numba no
longer honours any of these (the option accepted, no runtime call in a no-runtime function,
the stack array working, a cached caller calling through an address).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import inspect
import pickle
import sys
import threading
from types import FunctionType

from llvmlite import binding as llvm_binding
from llvmlite import ir as llvm_ir
from numba import njit, types
from numba.core import cgutils, ir_utils
from numba.core.typing import templates
from numba.extending import intrinsic, overload
from numba.np.arrayobj import make_array, populate_array

TESTED_NUMBA = ">=0.68,<0.69"  # the numba releases cardlab is tested with
TESTED_LLVMLITE = ">=0.50,<0.51"  # what numba 0.68 requires


def njit_no_runtime(**options):
    """``njit(cache=True, _nrt=False, **options)``: compiled without numba's runtime (no
    allocation, no reference counting of array arguments); callees that do not set the
    option themselves are compiled the same way."""
    return njit(**{"cache": True, **options, "_nrt": False})


def njit_runtime(**options):
    """``njit(cache=True, _nrt=True, **options)``: with numba's runtime even when called from
    a function compiled without it (for a function that allocates)."""
    return njit(**{"cache": True, **options, "_nrt": True})


def twin(func, name, **replaced):
    """A copy of the plain function ``func`` (or of a dispatcher's, its ``py_func``) named
    ``name``: the same code for a dispatcher of its own. A play loop's variants with search
    need their own (strategies/ass/loop.py, strategies/jass/loop.py): the search they ask
    rolls out through the same loop, and numba cannot cache a function that, while it
    compiles, has itself compiled for other arguments (the cached code misses a symbol;
    docs/numba-notes.md). Under NUMBA_DISABLE_JIT ``njit`` gives back plain functions. The
    globals named in ``replaced`` are replaced in a copy of the module's globals (a test's
    stand-ins)."""
    func = getattr(func, "py_func", func)
    space = {**func.__globals__, **replaced} if replaced else func.__globals__
    copy = FunctionType(func.__code__, space, name, func.__defaults__, func.__closure__)
    copy.__qualname__ = name
    copy.__doc__ = func.__doc__
    return copy


def register_hook(hook, registry: list, callee) -> None:
    """Give the stub ``hook`` (a play loop's call into code that cannot be imported below it,
    e.g. the search, which rolls out through that loop) its implementation ``callee`` (a
    dispatcher taking the hook's arguments), once per process: into ``registry`` for plain
    Python (NUMBA_DISABLE_JIT), where the stub calls :func:`registered`, and as the hook's
    overload for compiled code, which calls ``callee``'s own compiled code through its
    address (:func:`call_compiled`) instead of linking it in."""
    if registry:
        return
    registry.append(callee)
    names = list(inspect.signature(hook).parameters)
    params = ", ".join(names)
    space = {"call": call_compiled(lambda: registry[0], names)}
    exec(f"def typed({params}):\n"  # noqa: S102 (the hook's own parameter names)
         f"    def impl({params}):\n"
         f"        return call({params})\n"
         f"    return impl\n", space)
    overload(hook, inline="always")(space["typed"])


# --- calling a compiled function through its address ---------------------------------------

_RESOLVE_SYMBOL = "cardlab_resolve_compiled"
_RESOLVE_TYPE = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
_ADDRESSES: dict[bytes, int] = {}  # key -> address, for the functions compiled in this process
_RESOLVE_LOCK = threading.RLock()


def _compiled(callee, argtypes):
    """``callee``'s compile result for ``argtypes`` (compiled, or loaded from numba's cache,
    now if not yet) and the address of its code."""
    callee.compile(argtypes)
    cres = callee.overloads[argtypes]
    return cres, cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)


def _resolve(data, size):
    """The address for a key (:func:`call_compiled`), asked by compiled code the first time it
    calls through that key in this process; 0 (None), with the reason on stderr, when the
    function cannot be found or compiled."""
    key = ctypes.string_at(data, size)
    with _RESOLVE_LOCK:
        try:
            if key not in _ADDRESSES:
                module, qualname, argtypes = pickle.loads(key)  # noqa: S301 (our own code's)
                callee = importlib.import_module(module)
                for part in qualname.split("."):
                    callee = getattr(callee, part)
                _ADDRESSES[key] = _compiled(callee, argtypes)[1]
            return _ADDRESSES[key]
        except Exception as exc:  # noqa: BLE001 (a C caller cannot take a Python exception)
            print(f"cardlab: cannot call {key[:200]!r}: {exc!r}", file=sys.stderr)
            return None


_RESOLVE = _RESOLVE_TYPE(_resolve)
llvm_binding.add_symbol(_RESOLVE_SYMBOL, ctypes.cast(_RESOLVE, ctypes.c_void_p).value)


def call_compiled(get_callee, names):
    """An ``@intrinsic`` ``call(<names>)`` (parameters named ``names``) that calls the compiled
    code of the dispatcher ``get_callee()`` (asked when a caller is typed) for the arguments'
    types through its address, with numba's calling convention (its return value, its
    exceptions raised on), so that the calling function's module holds no copy of it: numba
    links a callee into every caller and optimises and emits it there again, which for the
    search cost seconds of compiling per kernel that reached it (docs/numba-notes.md,
    "Calling a compiled function without linking it").

    The address differs from process to process and a caller may come from numba's cache,
    so the caller keeps it in a variable of its own, null when loaded, and fills it on its
    first call from ``cardlab_resolve_compiled`` (:func:`_resolve`, registered with LLVM when
    this module is imported, which every module with kernels does before any of them is
    loaded), given a key naming the callee (its module and qualified name) and the types.
    RuntimeError when no address can be had. The callee is compiled (or loaded) when the
    caller is typed, as a linked callee would be; functions compiled in this process are
    found by key first, so a callee need not be importable by name (e.g. a test's)."""

    def typer(typingctx, *args):
        argtypes = tuple(types.unliteral(a) for a in args)
        callee = get_callee()
        cres, address = _compiled(callee, argtypes)
        restype = cres.signature.return_type
        fn = getattr(callee, "py_func", callee)
        key = pickle.dumps((fn.__module__, fn.__qualname__, argtypes))
        _ADDRESSES.setdefault(key, address)

        def codegen(context, builder, signature, llargs):
            module = builder.module
            i8p = llvm_ir.IntType(8).as_pointer()
            name = "cardlab.compiled." + hashlib.sha1(key).hexdigest()[:20]
            slot = module.globals.get(name)
            if slot is None:
                slot = llvm_ir.GlobalVariable(module, i8p, name)
                slot.linkage = "internal"
                slot.initializer = llvm_ir.Constant(i8p, None)
            with builder.if_then(cgutils.is_null(builder, builder.load(slot)), likely=False):
                resolve = cgutils.get_or_insert_function(
                    module, llvm_ir.FunctionType(i8p, [i8p, llvm_ir.IntType(64)]),
                    _RESOLVE_SYMBOL)
                data = context.insert_const_bytes(module, key)
                builder.store(builder.call(resolve, [data, context.get_constant(types.int64,
                                                                               len(key))]),
                              slot)
            pointer = builder.load(slot)
            with builder.if_then(cgutils.is_null(builder, pointer), likely=False):
                context.call_conv.return_user_exc(
                    builder, RuntimeError, (f"cardlab cannot call {fn.__qualname__} "
                                            "(compiled code; its error is on stderr)",))
            fnty = context.call_conv.get_function_type(restype, argtypes)
            status, result = context.call_conv.call_function(
                builder, builder.bitcast(pointer, fnty.as_pointer()), restype, argtypes,
                llargs)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result

        return restype(*args), codegen

    params = ", ".join(names)
    space = {"typer": typer}
    exec(f"def call(typingctx, {params}):\n"  # noqa: S102 (named parameters for numba)
         f"    return typer(typingctx, {params})\n", space)
    return intrinsic(space["call"])


def registered(registry: list, by: str):
    """The plain implementation in ``registry`` (:func:`register_hook`); NotImplementedError
    naming the module ``by`` that registers it when none is."""
    if not registry:
        raise NotImplementedError(f"the search is registered by {by}")
    return registry[0]


def stack_array_intrinsic(element):
    """An ``@intrinsic`` ``f(N)`` (N a literal integer) giving a 1-d C array of N ``element``
    items in the calling function's stack frame: uninitialised, no owner (no meminfo), alive
    until that function returns; one ``alloca`` in the function's entry block per call site."""

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


def llvm_function(builder, fnty, name):
    """The LLVM function ``name`` of type ``fnty`` in the module being built (declared when
    absent), for an ``@intrinsic``'s codegen to call."""
    return cgutils.get_or_insert_function(builder.module, fnty, name)


def _close_argument_aliases(find_potential_aliases):
    """``find_potential_aliases`` whose argument aliases are closed under aliasing: every
    variable that aliases (through any chain of copies) an argument alias is one, whatever
    the order in which numba met the copies."""

    def closed(blocks, args, typemap, func_ir, alias_map=None, arg_aliases=None):
        alias_map, arg_aliases = find_potential_aliases(blocks, args, typemap, func_ir,
                                                        alias_map, arg_aliases)
        grown = True
        while grown:
            grown = False
            for name, group in alias_map.items():
                members = group | {name}
                if members & arg_aliases and not members <= arg_aliases:
                    arg_aliases |= members
                    grown = True
        return alias_map, arg_aliases

    closed.cardlab_closes_argument_aliases = True
    closed.__wrapped__ = find_potential_aliases
    return closed


def _wrap_once(owner, name: str, where: str, wrap, marker: str) -> None:
    """Replace ``owner.<name>`` (numba's ``where``) by ``wrap(current)`` unless it is already
    wrapped (it carries ``marker``); ImportError when the installed numba lacks it."""
    current = getattr(owner, name, None)
    if current is None:
        raise ImportError(f"cardlab wraps numba's {where}, which this numba lacks; install "
                          f"numba{TESTED_NUMBA}")
    if not getattr(current, marker, False):
        setattr(owner, name, wrap(current))


def install_alias_fix() -> None:
    """Install :func:`_close_argument_aliases` into numba's dead-code elimination (idempotent).
    Raises ImportError when the installed numba has no such function to correct."""
    _wrap_once(ir_utils, "find_potential_aliases", "ir_utils.find_potential_aliases",
               _close_argument_aliases, "cardlab_closes_argument_aliases")


def _typing_only(get_jit_decorator):
    """``_OverloadFunctionTemplate._get_jit_decorator`` (numba calls it only in
    ``_build_impl``, to wrap an overload's implementation in a dispatcher) that, for an
    always-inlined overload, makes a dispatcher that never compiles: numba's "make sure that
    the implementation can be fully compiled" (``get_call_type``) and the call in ``generic``
    (``get_call_template``) then only fold the argument types. numba types the
    implementation's IR in ``generic`` whatever this does (``_inline_overloads``, which the
    inliner reads), and lowering never asks for an always-inlined overload's compiled code
    (``_EmptyImplementationEntry``). Overloads inlined by a cost model, or never, compile as
    before."""

    def typed_only(self):
        jitter = get_jit_decorator(self)
        return _uncompiled(jitter) if self._inline.is_always_inline else jitter

    typed_only.cardlab_typing_only = True
    typed_only.__wrapped__ = get_jit_decorator
    return typed_only


def _uncompiled(jitter):
    """``jitter`` (numba's jit decorator for a target), making dispatchers that never compile;
    ``disable_compile()`` would insist on a compiled signature first."""

    def decorator(**options):
        def make(pyfunc):
            disp = jitter(**options)(pyfunc)
            disp._can_compile = False
            return disp
        return make
    return decorator


def install_typing_only() -> None:
    """Install :func:`_typing_only` into numba's overload templates (idempotent). Raises
    ImportError when the installed numba has no such method to wrap."""
    _wrap_once(getattr(templates, "_OverloadFunctionTemplate", None), "_get_jit_decorator",
               "_OverloadFunctionTemplate._get_jit_decorator", _typing_only,
               "cardlab_typing_only")


install_alias_fix()
install_typing_only()



def row_update_intrinsic(scaled):
    """An ``@intrinsic`` ``f(acc, w, start, N)`` (or, ``scaled``, ``f(acc, w, start, N, x)``;
    N a literal multiple of 8): ``acc[k] += w.flat[start + k]`` (times ``x``: the product,
    then the sum, never fused) for k < N, as LLVM vectors of 8 doubles. Each ``acc[k]`` gets
    the same additions, in the same order, as from a scalar loop; only several are made at
    once (numba leaves LLVM's SLP vectoriser off, and the loop vectoriser does not take a
    loop of 32 that LLVM unrolls). The arrays must be C-contiguous float64 and hold the
    elements named: nothing is checked."""

    def typed(acc, w, start, count, scale):
        floats = all(isinstance(a, types.Array) and a.dtype == types.float64
                     and a.layout == "C" for a in (acc, w))
        return (floats and isinstance(start, types.Integer)
                and isinstance(count, types.IntegerLiteral) and count.literal_value % 8 == 0
                and (scale is None or isinstance(scale, types.Float)))

    def make(acc, w, start, count, scale):
        size = count.literal_value

        def codegen(context, builder, signature, args):
            i64 = llvm_ir.IntType(64)
            vty = llvm_ir.VectorType(llvm_ir.DoubleType(), 8)
            a = make_array(acc)(context, builder, args[0]).data
            first = context.cast(builder, args[2], start, types.int64)
            base = builder.gep(make_array(w)(context, builder, args[1]).data, [first])
            xv = None
            if scale is not None:
                x = context.cast(builder, args[4], scale, types.float64)
                xv = builder.insert_element(llvm_ir.Constant(vty, None), x, i64(0))
                xv = builder.shuffle_vector(xv, llvm_ir.Constant(vty, None), llvm_ir.Constant(
                    llvm_ir.VectorType(llvm_ir.IntType(32), 8), [0] * 8))
            for k in range(0, size, 8):
                ap = builder.bitcast(builder.gep(a, [i64(k)]), vty.as_pointer())
                wv = builder.load(builder.bitcast(builder.gep(base, [i64(k)]), vty.as_pointer()),
                                  align=8)
                if xv is not None:
                    wv = builder.fmul(wv, xv)
                builder.store(builder.fadd(builder.load(ap, align=8), wv), ap, align=8)
            return context.get_dummy_value()

        if scale is None:
            return types.void(acc, w, start, count), codegen
        return types.void(acc, w, start, count, scale), codegen

    if scaled:
        @intrinsic
        def add_scaled_row(typingctx, acc, w, start, count, x):
            return make(acc, w, start, count, x) if typed(acc, w, start, count, x) else None

        return add_scaled_row

    @intrinsic
    def add_row(typingctx, acc, w, start, count):
        return make(acc, w, start, count, None) if typed(acc, w, start, count, None) else None

    return add_row

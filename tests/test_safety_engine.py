"""Issue 20 items 13 and 14: the engines' numba risks.

Item 13: numba's dead-code elimination dropped a store into an array argument (the deal's
``view[PUB_KNOWN + ass seat] = 1``) where twice-inlined code met an inlined @overload, so a
Who's the Ass? table with pimc and peek seats played other games in the no-runtime loop;
analyzer.numba_compat corrects numba's alias analysis. Item 14: every numba internal cardlab
uses is behind analyzer.numba_compat, numba is pinned to the tested range, and these tests
fail loudly when the installed numba stops honouring what cardlab relies on.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit, types
from numba.extending import overload

from analyzer import numba_compat
from analyzer.engines.ass.engine import _basic_alone, start_stream
from analyzer.numba_compat import njit_no_runtime, njit_runtime

ROOT = Path(__file__).resolve().parent.parent

# --- item 13: the store numba dropped ------------------------------------------------------


def _alone(variant):
    return variant[0] is None


@overload(_alone, inline="always")
def _alone_typed(variant):
    if isinstance(variant[0], types.NoneType):
        return lambda variant: True
    return lambda variant: False


@njit(inline="always")
def _fill(a, k):
    for i in range(a.size):
        a[i] = 0
    a[k] = 1  # the last statement before return: a store into an argument
    return k


@njit(inline="always")
def _wrapper(a, k, reset=True):
    if reset:
        for i in range(a.size):
            a[i] = 5
    return _fill(a, k)


@njit
def _store_after_overload(a, k, variant):
    return _wrapper(a, k, not _alone(variant))


def test_item13_store_into_an_argument_survives_inlining():
    """The reduction of the engine's pattern (docs/numba-notes.md): numba 0.68 without the
    correction leaves a == [0, 0, 0, 0]."""
    a = np.full(4, 7)
    _store_after_overload(a, 2, (True, True))
    assert a.tolist() == [0, 0, 1, 0]


@njit
def _deal_as_the_loop_does(seed, index, n, per_player, small, deck, packed, view, rng, taken,
                           variant):
    return start_stream(seed, index, 0, n, per_player, small, deck, packed, view, rng, taken,
                        not _basic_alone(variant))


@pytest.mark.parametrize("variant", [(True, True), (None, None)])
def test_item13_every_deal_marks_the_ass_holder_known(variant):
    """A-11: the ass's holder is public from the deal on (PUB_KNOWN), in the run loop's own
    inlining of the deal too (it was missing in every game)."""
    from analyzer.engines.ass.engine import canonical_deck
    from analyzer.games.ass.cards import DECK_SIZE, PUB_KNOWN, VIEW_LEN

    n = 4
    for index in range(20):
        view = np.zeros(VIEW_LEN, dtype=np.int64)
        seat = _deal_as_the_loop_does(17, index, n, 13, canonical_deck().astype(np.uint8),
                                      np.empty(DECK_SIZE, np.uint8), np.zeros(n, np.uint64),
                                      view, np.zeros(1, np.uint64), np.zeros(n, np.int64),
                                      variant)
        known = view[PUB_KNOWN:PUB_KNOWN + n].tolist()
        assert known == [1 if s == seat else 0 for s in range(n)], (index, known)


def test_item13_search_table_plays_the_same_games_in_the_no_runtime_loop():
    """The loop puzzle itself: pimc and peek seats in engine._basic_alone_games, the loop
    run_chunk keeps for tables of basic alone, play exactly run_chunk's games (games 8, 13,
    14, 21, ... of seed 17 differed)."""
    from analyzer.engines.ass import engine
    from analyzer.engines.ass.kernel import DTYPES, engine_inputs, play_chunk, validate
    from analyzer.engines.kernel import RunSpec
    from analyzer.games.ass.cards import DECK_SIZE, VIEW_LEN

    count = 24
    spec = validate(RunSpec("ass", 4, ("pimc", "basic", "peek", "basic"), 17))
    expected = play_chunk(spec, 0, count)
    families, params = engine_inputs(spec)
    n = spec.players
    out = {k: np.empty(count * n, dtype=dt) for k, dt in DTYPES.items()}
    bad = engine._basic_alone_games(
        spec.seed, 0, count, n, spec.rules["per_player"], families, params,
        engine.canonical_deck().astype(np.uint8), np.empty(DECK_SIZE, np.uint8),
        np.zeros(n, np.uint64), np.zeros(VIEW_LEN, np.int64), np.zeros(1, np.uint64),
        np.empty((engine.MAX_ROUNDS, engine.TRACE_WIDTH), np.int64), True,
        np.zeros(n, np.int64), tuple(out.values()), engine.variant_for(families))
    assert bad == -1
    for name in DTYPES:
        assert np.array_equal(out[name], expected[name]), name


# --- item 14: numba behind one module, pinned ------------------------------------------------


def _dependency(name: str) -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(rf'^\s*"{name}([^";]*)"', text, re.MULTILINE)
    assert found, f"pyproject.toml lists no {name}"
    return found.group(1).replace(" ", "")


def test_item14_numba_is_pinned_to_the_tested_range_and_installed_within_it():
    import llvmlite
    import numba
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    assert _dependency("numba") == numba_compat.TESTED_NUMBA
    assert _dependency("llvmlite") == numba_compat.TESTED_LLVMLITE
    assert Version(numba.__version__) in SpecifierSet(numba_compat.TESTED_NUMBA), (
        f"numba {numba.__version__} is outside the tested {numba_compat.TESTED_NUMBA}")
    assert Version(llvmlite.__version__) in SpecifierSet(numba_compat.TESTED_LLVMLITE)


def test_item14_numba_internals_are_used_in_numba_compat_only():
    allowed = {ROOT / "analyzer" / "numba_compat.py"}
    internal = re.compile(r"_nrt\s*=|numba\.(?:core|np|parfors|typed\.typedobjectutils)\b|"
                          r"from numba\.(?:core|np)\b|cgutils")
    offenders = []
    for package in ("analyzer", "strategies"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path in allowed:
                continue
            for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                if internal.search(code) and "``" not in code:
                    offenders.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    assert not offenders, "numba internals outside analyzer/numba_compat.py:\n" + "\n".join(
        offenders)


def _runtime_calls(dispatcher) -> set[str]:
    llvm = dispatcher.inspect_llvm(dispatcher.signatures[0])
    return set(re.findall(r"call[^\n]*@(NRT_\w+)", llvm))


def test_item14_no_runtime_kernels_really_run_without_numba_runtime():
    """``_nrt=False`` is accepted, compiles a function and its plain callees without a single
    runtime call (no reference counting, no allocation), and refuses to allocate."""

    @njit(cache=False)
    def callee(a):
        return a[0] + a[-1]

    @njit_no_runtime(cache=False)
    def lean(a, b):
        return callee(a) + callee(b)

    @njit_runtime(cache=False)
    def counting(a, b):
        return callee(a) + callee(b)

    a = np.arange(5, dtype=np.int64)
    assert lean(a, a) == counting(a, a) == 8
    assert _runtime_calls(lean) == set()
    assert _runtime_calls(callee) == set(), "callee did not inherit _nrt=False"
    assert _runtime_calls(counting), "njit_runtime made no runtime call: the test says nothing"

    @njit_no_runtime(cache=False)
    def allocates(n):
        return np.zeros(n).sum()

    with pytest.raises(Exception, match="(?i)returning of array|nrt|runtime"):
        allocates(3)


def test_item14_stack_arrays_work_without_the_runtime():
    from analyzer.stack import stack_int64, stack_uint64

    @njit_no_runtime(cache=False)
    def total(a):  # a callee that receives the stack array
        return a.sum()

    @njit_no_runtime(cache=False)
    def use_stack(x):
        a = stack_int64(16)
        b = stack_uint64(3)
        for i in range(16):
            a[i] = i * x
        b[2] = np.uint64(7)
        return total(a) + np.int64(b[2]) + a.size

    assert use_stack(2) == 2 * 120 + 7 + 16
    assert use_stack(3) == 3 * 120 + 7 + 16
    assert _runtime_calls(use_stack) == set()


def test_item14_alias_fix_is_installed_in_numba():
    from numba.core import ir_utils

    assert getattr(ir_utils.find_potential_aliases, "cardlab_closes_argument_aliases", False)
    numba_compat.install_alias_fix()  # idempotent: wraps once
    assert not getattr(ir_utils.find_potential_aliases.__wrapped__,
                       "cardlab_closes_argument_aliases", False)
    assert "analyzer.numba_compat" in sys.modules


# --- always-inlined overloads are typed, not compiled (analyzer.numba_compat) --------------


def _twice(x):
    return 2 * x


_TWICE_IMPLS = []


@overload(_twice, inline="always")
def _twice_typed(x):
    def impl(x):
        return x + x

    _TWICE_IMPLS.append(impl)
    return impl


def _halve(x):
    return x // 2


@overload(_halve)  # inlined never: compiled and called as numba always did
def _halve_typed(x):
    return lambda x: x // 2


def test_item14_an_always_inlined_overload_is_inlined_and_never_compiled():
    from numba.core import event
    from numba.core.typing import templates

    assert getattr(templates._OverloadFunctionTemplate._get_jit_decorator, "cardlab_typing_only",
                   False)
    numba_compat.install_typing_only()  # idempotent: wraps once
    assert not getattr(templates._OverloadFunctionTemplate._get_jit_decorator.__wrapped__,
                       "cardlab_typing_only", False)

    @njit(cache=False)
    def use(x):
        return _twice(x) + _halve(x)

    compiled = []

    class Compiles(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func)

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Compiles()):
        assert use(21) == 42 + 10
        assert use(2.5) == 5.0 + 1.0  # a second signature types the implementation again
    assert _TWICE_IMPLS  # numba built the implementation (and typed it) ...
    assert not set(_TWICE_IMPLS) & set(compiled)  # ... and never compiled
    assert sum(f.__qualname__.startswith("_halve_typed") for f in compiled) == 2  # as before
    # the inlined code is the caller's own: no call to a compiled implementation in it
    llvm = use.inspect_llvm(use.signatures[0])
    assert "_twice" not in llvm and "_halve" in llvm


_HOOKED = '''
import os

import numpy as np
from numba import njit

from analyzer.numba_compat import call_compiled


@njit(cache=True)
def callee(a, k):
    if k < 0:
        raise ValueError("a negative count")
    total = 0.0
    for i in range(k):
        total += a[i]
    return total, np.arange(k)  # allocates


if os.environ.get("HOOKED_RENAME"):  # the callee no longer where the caller's key names it
    moved, callee = callee, None

call = call_compiled(lambda: moved if os.environ.get("HOOKED_RENAME") else callee, ["a", "k"])


@njit(cache=True)
def caller(a, k):
    total, counted = call(a, k)
    return total + counted.sum()
'''

_RUN_HOOKED = '''
import sys
import numpy as np
import hooked
a = np.ones(5)
try:
    value = hooked.caller(a, 3)
    try:
        hooked.caller(a, -1)
        raised = "nothing"
    except ValueError as exc:
        raised = str(exc)
except RuntimeError as exc:
    value, raised = None, str(exc)
stats = hooked.caller.stats
print(value, raised, len(stats.cache_hits), len(stats.cache_misses), sep="|")
'''


def test_item14_a_cached_caller_calls_a_compiled_function_through_its_address(tmp_path):
    """call_compiled (the play loops' call into the search) in a new process each time: a
    caller compiled here, then loaded from numba's cache, calls the callee through an
    address it looks up on its first call (return value, allocation and exceptions intact),
    with no copy of the callee in its own code; when the callee cannot be found by the name
    its key gives, the caller raises RuntimeError instead of crashing."""
    import os
    import subprocess

    (tmp_path / "hooked.py").write_text(_HOOKED, encoding="utf-8")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}

    def run(**extra):
        done = subprocess.run([sys.executable, "-c", _RUN_HOOKED], env={**env, **extra},
                              capture_output=True, text=True, timeout=300, check=True)
        return done.stdout.strip().split("|"), done.stderr

    first, _ = run()
    assert first == ["6.0", "a negative count", "0", "1"]  # compiled
    again, _ = run()
    assert again == ["6.0", "a negative count", "1", "0"]  # loaded from the cache
    lost, stderr = run(HOOKED_RENAME="1")
    assert lost[0] == "None" and "cardlab cannot call callee" in lost[1]
    assert lost[2:] == ["1", "0"] and "cannot call" in stderr

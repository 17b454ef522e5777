"""Issue 20 item 14: the engines' numba risks.

Every numba internal cardlab uses is behind analyzer.numba_compat, numba is pinned to the
tested range, and these tests fail loudly when the installed numba stops honouring what
cardlab relies on.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from analyzer import numba_compat
from analyzer.numba_compat import njit_no_runtime, njit_runtime

ROOT = Path(__file__).resolve().parent.parent

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

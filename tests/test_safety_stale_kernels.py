"""Issue 8, reproduction 10: an edit to a module a cached kernel calls into is compiled afresh
(numba alone checks only the kernel's own source file, numba/numba#1833). Tested on a
temporary copy of the package."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """
from numba import njit

from analyzer._probe_dep import value


@njit(cache=True)
def kernel():
    return value() + 1
"""
DEP = """
from numba import njit


@njit
def value():
    return {}
"""
PROBE = ("import analyzer, analyzer._probe as p, os; "
         "print(analyzer.__file__, p.kernel(), os.environ['NUMBA_CACHE_DIR'])")


def _run(pkg: Path) -> tuple[str, int, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "CARDLAB_NUMBA_CACHE", "PYTHONPATH")}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=pkg, env=env, capture_output=True,
                         text=True, timeout=300, check=True).stdout.split()
    return out[0], int(out[1]), out[2]


def test_an_edited_callee_is_compiled_afresh(tmp_path):
    pkg = tmp_path / "pkg"
    for name in ("analyzer", "strategies"):
        shutil.copytree(ROOT / name, pkg / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (pkg / "analyzer" / "_probe.py").write_text(KERNEL)
    (pkg / "analyzer" / "_probe_dep.py").write_text(DEP.format(1))
    where, first, cache1 = _run(pkg)
    assert where.startswith(str(pkg)) and first == 2
    assert _run(pkg) == (where, 2, cache1)  # unchanged sources: the same cache folder
    assert any(Path(cache1).rglob("*.nbi"))  # ...which holds the compiled kernel
    (pkg / "analyzer" / "_probe_dep.py").write_text(DEP.format(41))
    _, second, cache2 = _run(pkg)
    assert second == 42 and cache2 != cache1

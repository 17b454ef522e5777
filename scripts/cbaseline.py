"""Hand-written C engines as a same-run yardstick for the numba engines (issue 13).

Issue 13's speed targets are stated against a careful hand-written C engine of the same
rules, measured on the same machine (Who's the Ass? at least 0.75x its speed, Plus-Minus
Jass 0.95x). Absolute nanoseconds depend on the machine and its load, so the benchmarks
build such engines here (``scripts/cbase/*.c``), check that they play exactly the games the
numba engine plays for the same (seed, index), and time both in the same run.

:func:`build` compiles one source with the system C compiler (``CC``, default ``gcc``;
flags ``-O3 -march=native``, as numba also compiles for the host CPU) into a temporary
folder and loads it with :mod:`ctypes`. Nothing here is part of the package: the C engines
exist only to be measured against.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCES = Path(__file__).resolve().parent / "cbase"
OPTIMISE = ("-O3", "-march=native")  # what a comparison of builds may replace
SHARED = ("-shared", "-fPIC", "-std=c11")  # what every build needs
FLAGS = OPTIMISE + SHARED


class NoCompiler(RuntimeError):
    """No C compiler on this machine (the C yardstick is then left out, with a line)."""


def compiler() -> str:
    """The C compiler to use: ``$CC`` or gcc; raise :class:`NoCompiler` when absent."""
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        raise NoCompiler(f"no C compiler {cc!r} found (set CC to one)")
    return cc


def build(name: str, optimise: tuple[str, ...] = OPTIMISE) -> ctypes.CDLL:
    """Compile ``scripts/cbase/<name>.c`` into a shared library and load it (``optimise``
    replaces the optimisation flags, to compare builds)."""
    source = SOURCES / f"{name}.c"
    cmd = [compiler(), *optimise, *SHARED]
    # the library is built in a temporary folder of its own and loaded; the folder is removed
    # at once (the loaded library stays mapped), so no run leaves files behind
    with tempfile.TemporaryDirectory(prefix=f"cardlab-cbase-{name}-") as folder:
        target = Path(folder) / f"{name}.so"
        cmd += ["-o", str(target), str(source)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr}")
        return ctypes.CDLL(str(target))


def pointer(array, ctype=ctypes.c_int64):
    """A ctypes pointer to a contiguous numpy array's data."""
    return array.ctypes.data_as(ctypes.POINTER(ctype))

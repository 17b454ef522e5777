"""Which test compiles which kernel, and for how long: the test suite's cold-cache profile.

``CARDLAB_COMPILE_LOG=PATH make test`` (or ``pytest``) logs every numba compile that a test
process does itself (a cache miss: numba's ``numba:compile`` event; a kernel loaded from the
cache is not a compile) as one JSON line ``{"test", "kernel", "cpu_s"}``, counting only the
outermost compile (its callees' compiles are inside its time). Each process writes a file of
its own in a temporary folder the controller makes (``CARDLAB_COMPILE_PARTS``); at the end
the controller appends them to ``PATH``, removes the folder, and prints this run's costliest
compiles and their total. The kernels the conftest's prewarm compiles
(``analyzer/studies/suite.py``) and what a test's subprocesses compile are not in it: with a
cold cache this is what the tests compile beyond the prewarm, the part to look at when the
suite's cold time grows.

    CARDLAB_COMPILE_LOG=/tmp/compiles make clean-cache test
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

ENV = "CARDLAB_COMPILE_LOG"
PARTS_ENV = "CARDLAB_COMPILE_PARTS"  # the run's folder of per-process files


class CompileLog:
    """Writes each outermost compile to ``path`` (one line); :func:`install` makes it a
    ``numba.core.event.Listener``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.test = "(collection)"
        self._depth = 0
        self._start = 0.0

    def on_start(self, event) -> None:
        if self._depth == 0:
            self._start = time.process_time()
        self._depth += 1

    def on_end(self, event) -> None:
        self._depth -= 1
        if self._depth:
            return
        func = event.data["dispatcher"].py_func
        line = {"test": self.test, "kernel": f"{func.__module__}.{func.__qualname__}",
                "cpu_s": round(time.process_time() - self._start, 3)}
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")


def new_parts() -> str:
    """A fresh temporary folder for a run's per-process files."""
    return tempfile.mkdtemp(prefix="cardlab-compiles-")


def install(parts: str | Path) -> CompileLog:
    """Log this process's compiles to ``<parts>/<pid>.jsonl``; returns the log (set
    ``.test``)."""
    from numba.core import event

    class Log(CompileLog, event.Listener):
        pass

    log = Log(Path(parts) / f"{os.getpid()}.jsonl")
    event.register("numba:compile", log)
    return log


def uninstall(log: CompileLog) -> None:
    """Stop ``log`` (from :func:`install`)."""
    from numba.core import event

    event.unregister("numba:compile", log)


def gather(parts: str | Path, path: str | Path) -> list[dict]:
    """Append the per-process files in ``parts`` to ``path`` (JSON lines), remove the folder
    ``parts`` (:func:`new_parts`) and return this run's records."""
    text = "".join(f.read_text(encoding="utf-8") for f in sorted(Path(parts).glob("*.jsonl")))
    with Path(path).open("a", encoding="utf-8") as out:
        out.write(text)
    shutil.rmtree(parts, ignore_errors=True)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def summary(records: list[dict], top: int = 15) -> list[str]:
    """The lines the controller prints: the total, then the ``top`` costliest compiles."""
    total = sum(r["cpu_s"] for r in records)
    lines = [f"numba compiles in the test processes: {len(records)}, {total:.1f} s of CPU "
             "(the prewarm's and subprocesses' not counted)"]
    for r in sorted(records, key=lambda r: -r["cpu_s"])[:top]:
        lines.append(f"{r['cpu_s']:7.2f}s  {r['kernel']}  ({r['test']})")
    return lines

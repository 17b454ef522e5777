"""Which test compiles which kernel, and for how long: the test suite's cold-cache profile.

``CARDLAB_COMPILE_LOG=PATH make test`` (or ``pytest``) logs every numba compile that a test
process does itself (a cache miss: numba's ``numba:compile`` event; a kernel loaded from the
cache is not a compile) as one JSON line ``{"test", "kernel", "cpu_s"}`` in ``PATH.<pid>``,
counting only the outermost compile (its callees' compiles are inside its time). At the end
the controller gathers the files into ``PATH`` and prints the costliest compiles and the
total. The kernels the conftest's prewarm compiles (``analyzer/studies/suite.py``) and what a
test's subprocesses compile are not in it: with a cold cache this is what the tests compile
beyond the prewarm, the part to look at when the suite's cold time grows.

    CARDLAB_COMPILE_LOG=/tmp/compiles make clean-cache test
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

ENV = "CARDLAB_COMPILE_LOG"


class CompileLog:
    """A numba event listener that writes each outermost compile to ``path`` (one line)."""

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

    def listener(self):
        """This log as a ``numba.core.event.Listener``."""
        from numba.core import event

        log = self

        class _Listener(event.Listener):
            def on_start(self, ev) -> None:
                log.on_start(ev)

            def on_end(self, ev) -> None:
                log.on_end(ev)

        return _Listener()


def install(base: str | Path) -> CompileLog:
    """Log this process's compiles to ``<base>.<pid>``; returns the log (set ``.test``)."""
    from numba.core import event

    log = CompileLog(f"{base}.{os.getpid()}")
    log.registered = log.listener()
    event.register("numba:compile", log.registered)
    return log


def uninstall(log: CompileLog) -> None:
    """Stop ``log`` (from :func:`install`)."""
    from numba.core import event

    event.unregister("numba:compile", log.registered)


def gather(base: str | Path) -> list[dict]:
    """Merge the per-process files ``<base>.<pid>`` into ``base`` (JSON lines, appended to
    what is there) and return all its records."""
    base = Path(base)
    parts = sorted(base.parent.glob(base.name + ".*"))
    with base.open("a", encoding="utf-8") as out:
        for part in parts:
            if part.suffix[1:].isdigit():
                out.write(part.read_text(encoding="utf-8"))
                part.unlink()
    if not base.exists():
        return []
    return [json.loads(line) for line in base.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def summary(records: list[dict], top: int = 15) -> list[str]:
    """The lines the controller prints: the total, then the ``top`` costliest compiles."""
    total = sum(r["cpu_s"] for r in records)
    lines = [f"numba compiles in the test processes: {len(records)}, {total:.1f} s of CPU "
             "(the prewarm's and subprocesses' not counted)"]
    for r in sorted(records, key=lambda r: -r["cpu_s"])[:top]:
        lines.append(f"{r['cpu_s']:7.2f}s  {r['kernel']}  ({r['test']})")
    return lines

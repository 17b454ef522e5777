"""The test suite's compile log (tests/compile_log.py): one line per outermost compile, with
the test that caused it; a kernel loaded from the cache or compiled before is not logged."""

from __future__ import annotations

import json

import numpy as np
from compile_log import gather, install, summary, uninstall


def test_each_outermost_compile_is_one_line_with_its_test(tmp_path):
    from numba import njit

    @njit
    def inner(x):
        return x + 1

    @njit
    def outer(x):
        return inner(x) * 2

    base = tmp_path / "compiles"
    parts = tmp_path / "parts"
    parts.mkdir()
    log = install(parts)
    try:
        log.test = "tests/x.py::first"
        assert outer(np.int64(3)) == 8
        assert outer(np.int64(4)) == 10  # compiled already: nothing logged
        log.test = "tests/x.py::second"
        assert inner(np.float64(1.5)) == 2.5  # a new signature of the callee alone
    finally:
        uninstall(log)
    assert outer(np.float64(1.0)) == 4.0  # after uninstall: not logged
    records = gather(parts, base)
    assert [(r["test"], r["kernel"].rsplit(".", 1)[-1]) for r in records] == [
        ("tests/x.py::first", "outer"), ("tests/x.py::second", "inner")]
    assert all(r["cpu_s"] >= 0 for r in records)
    assert not parts.exists()  # the per-process files merged and their folder removed
    assert [json.loads(line) for line in base.read_text().splitlines()] == records
    again = tmp_path / "again"  # a later run into the same file: appended, counted apart
    again.mkdir()
    (again / "1.jsonl").write_text(json.dumps(records[0]) + "\n")
    assert gather(again, base) == records[:1]
    assert len(base.read_text().splitlines()) == 3
    lines = summary(records, top=1)
    assert lines[0].startswith("numba compiles in the test processes: 2, ")
    assert len(lines) == 2 and "(tests/x.py::" in lines[1]

"""Test-session set-up: compile the kernels side by side before the first test.

On a cold numba cache (CI's clean checkout, or any edit to the sources, which changes the
cache folder: analyzer/numba_env.py) most of the suite's time is compiling, one kernel after
the other as the tests first call them. ``suite.prewarm`` compiles the big parts in two
processes (parts that share kernels one after the other in the same one), so both cores
compile at once and nothing twice; the tests, in one process per core (``make test`` runs
pytest-xdist), then load the machine code from the cache. With a warm cache it costs the
few seconds of loading. ``CARDLAB_TEST_PREWARM=0`` skips it (e.g. to time a single test's
cold compile). The summary at the end gives each lane's seconds; with
``CARDLAB_COMPILE_LOG=PATH`` also what the tests compiled beyond it (tests/compile_log.py).
"""

from __future__ import annotations

import os

# One BLAS thread per test process (and its subprocesses, which inherit the variable): the
# suite already runs one process per core, and OpenBLAS's own threads then only contend for
# the same cores (a 3000x64 by 64x32 product 3,000 times: 3.5 s of CPU with its threads on
# the 2-core machine, 1.0 s with one; the learned player's network fit 3.7 s against 0.9 s).
# Set before numpy is imported, which reads it once.
for _blas in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas, "1")

import pytest  # noqa: E402

PARTS = ("jass-trump", "ass-search", "jass-search", "ass", "jass", "jass-3")

# Under CI=true the property tests draw the same examples every run (a red CI is then
# reproducible, never a fluke of the draw); locally they keep exploring new ones.
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, print_blob=True)
    settings.load_profile("ci")


TERMINAL = ("COLUMNS", "LINES")
# pytest -n (xdist): the controller hands its own terminal size to the workers here, since a
# worker process starts with COLUMNS=80 and LINES=24 of its own, and the command line's tables
# would be wrapped differently under -n than without it.
SIZE_ENV = "CARDLAB_TEST_TERMINAL"


LANES: dict[tuple[str, ...], float] = {}  # the prewarm's lanes and their seconds
COMPILES = {}  # this process's compile log (CARDLAB_COMPILE_LOG), under "log"


def pytest_sessionstart(session) -> None:
    from compile_log import ENV, PARTS_ENV, install, new_parts  # tests/ is on sys.path

    if os.environ.get(ENV):
        if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controller: the run's folder
            os.environ[PARTS_ENV] = new_parts()
        COMPILES["log"] = install(os.environ[PARTS_ENV])
    if os.environ.get("PYTEST_XDIST_WORKER"):  # pytest -n: the controller prewarmed already
        for name, value in zip(TERMINAL, os.environ.get(SIZE_ENV, ",").split(","), strict=True):
            if value:
                os.environ[name] = value
            else:
                os.environ.pop(name, None)
        return
    os.environ[SIZE_ENV] = ",".join(os.environ.get(name, "") for name in TERMINAL)
    if os.environ.get("CARDLAB_TEST_PREWARM", "1") == "0":
        return
    from analyzer.studies.suite import prewarm

    LANES.update(prewarm(None, PARTS))


def pytest_runtest_setup(item) -> None:
    if "log" in COMPILES:
        COMPILES["log"].test = item.nodeid


def pytest_terminal_summary(terminalreporter) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    for lane, seconds in LANES.items():
        terminalreporter.write_line(f"prewarm lane {', '.join(lane)}: {seconds:.1f} s")
    from compile_log import ENV, PARTS_ENV, gather, summary

    if os.environ.get(ENV):
        for line in summary(gather(os.environ[PARTS_ENV], os.environ[ENV])):
            terminalreporter.write_line(line)


@pytest.fixture
def cli(capsys):
    """``cli("simulate", "ass", ...)`` -> (exit code, stdout, stderr) of that command."""
    from cli_check import run_cli  # tests/ is on sys.path

    return lambda *args: run_cli(capsys, *args)


@pytest.fixture
def fresh_cli(capsys, monkeypatch):
    """``fresh_cli("tune", "ass", ..., env={...})`` -> (exit code, stdout, stderr) of the
    console script, each call run in this process as a new process would run it (every
    strategies file and preset of earlier calls forgotten): ``cli_check.as_new_process``."""
    from cli_check import as_new_process  # tests/ is on sys.path

    return as_new_process(capsys, monkeypatch)

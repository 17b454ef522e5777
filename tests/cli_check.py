"""The command line as a user runs it, for the tests: ``run_cli`` gives (exit code, stdout,
stderr) of ``cardlab ARGS`` run in this process, ``one_error`` checks that stderr is the one
line ``error: ...`` (and at most a ``hint:`` line) that bad input must get. The ``cli`` fixture
(tests/conftest.py) wraps ``run_cli``."""

from __future__ import annotations

import pytest


def run_cli(capsys, *args) -> tuple[int, str, str]:
    from analyzer.cli.app import run_app

    with pytest.raises(SystemExit) as stop:
        run_app([str(a) for a in args])
    captured = capsys.readouterr()
    return stop.value.code, captured.out, captured.err


def one_error(err: str, text: str, hint: bool = True) -> None:
    """``err`` is one line ``error: ...`` holding ``text`` (plus a ``hint:`` line when
    ``hint``), never a traceback or a framed box."""
    lines = err.strip().splitlines()
    assert lines and lines[0].startswith("error: ") and text in lines[0], err
    extra = lines[1:]
    assert not extra or (hint and len(extra) == 1 and extra[0].startswith("hint: ")), err
    assert "Traceback" not in err and "╭" not in err

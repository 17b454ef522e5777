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


def strategies_forgetter(monkeypatch):
    """A function that forgets every strategies file read and every preset registered so far,
    and unsets ``CARDLAB_STRATEGIES``, as a new process starts; the built-in catalogues, the
    file caches and the variable are restored after the test."""
    from strategies import files
    from strategies.files import ENV
    from strategies.registry import _CATALOGS, parse_strategy

    for game in ("ass", "jass"):
        parse_strategy(game, "basic")  # the catalogues are built
    built_in = {game: dict(_CATALOGS[game]) for game in ("ass", "jass")}
    # recorded, so that the undo also removes a CARDLAB_STRATEGIES a command sets
    # (--strategies): delenv of an unset variable records nothing to undo
    monkeypatch.setenv(ENV, "")

    def forget() -> None:
        for game, catalog in built_in.items():
            monkeypatch.setitem(_CATALOGS, game, dict(catalog))
        monkeypatch.setattr(files, "_READ", {})
        monkeypatch.setattr(files, "_REGISTERED", set())
        monkeypatch.delenv(ENV, raising=False)

    forget()
    return forget


def as_new_process(capture, monkeypatch):
    """``run(*ARGS, env=None)`` -> (exit code, stdout, stderr) of the console script
    ``cardlab ARGS`` (its ``main()``: ``sys.argv``, ``--strategies`` moved to the front) run
    in this process, each call as a new process would run it: every strategies file and
    preset of earlier calls forgotten, ``CARDLAB_STRATEGIES`` unset, then ``env`` set.
    ``capture`` is ``capsys``, or ``capfd`` where the command's worker processes' output
    counts too. A test that is about the process itself (signals, a fresh environment,
    imports) starts a real one instead."""
    import sys

    from analyzer.cli import main

    forget = strategies_forgetter(monkeypatch)

    def run(*args, env=None) -> tuple[int, str, str]:
        forget()
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(sys, "argv", ["cardlab", *map(str, args)])
        with pytest.raises(SystemExit) as stop:
            main()
        captured = capture.readouterr()
        return stop.value.code, captured.out, captured.err

    return run

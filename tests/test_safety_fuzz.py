"""Issue 8: random option names and values for every command (short runs) exit 0 or 2, print
no traceback, and leave no file outside their --out."""

import os
import tempfile
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli import app
from analyzer.cli.app import run_app

COUNTS = {"--games", "-n", "--matches", "--deals", "--batch", "--chunk-size", "--deal-cap"}
BIG = {"--seed", "--start", "--index"}
FLOATS = {"--alpha", "--margin", "--scale"}
PATHS = {"--out", "-o", "--from", "--report", "--html"}
BAD = ["", "x", "nan", "inf", "-inf", "2.5", "-1", "\u0663", "１", "1e3", "0x10", " 3"]
POOLS = {
    "count": ["1", "2", "3", "0", *BAD, "99999999999999999999999"],
    "big": ["0", "1", "7", "9223372036854775807", "9223372036854775808",
            "18446744073709551616", *BAD],
    "float": ["0.05", "0.5", "1", "0", "1e-300", "1e308", *BAD],
    "--workers": ["1", "2", "64", "0", "1000000", *BAD],
    "-w": ["1", "2", "64", "0", "1000000", *BAD],
    "--backend": ["serial", "threads", "local", "nosuch", ""],
    "--scheduler": ["tcp://127.0.0.1:1", ""],
    "strategy": ["basic", "random", "careful", "hold-jokers:keep=2", "hold-jokers:keep=nan",
                 "hold-jokers:keep=2,keep=3", "adaptive:fight=0.5", "adaptive:gap=inf",
                 "nosuch", "basic:x=1", ":", "", "basic:", "hold-jokers:keep=\u0663"],
    "--players": ["3", "4", "2", "13", "3-4", "4,3", "x", "\u0663", "-1", ""],
    "-p": ["3", "4", "2", "13", "x", ""],
    "--mode": ["matches", "deals", "games", "nosuch", ""],
    "--ruleset": ["seed", "swiss", "seed,swiss", "nosuch", ""],
    "--keep": ["0,2", "1", "0-2", "x", "\u0663", ""],
    "--rule": ["ruleset=swiss", "deal_cap=3", "x", "=", "a=b"],
    "--metric": ["minus_points", "won", "sticks", "nosuch", "index", ""],
    "--better": ["lower", "higher", "sideways", ""],
    # issue 42 item 12: values past int64 overflowed numpy (OverflowError tracebacks)
    "--totals": ["0,0,0,0", "1,2,3,99999999999999999999999", "１,0,0,0", "1_0,0,0,0"],
    "--sticks": ["0,0,0,0", "99999999999999999999,0,0,0", "100,0,0,0", "0,0,0"],
    "--sizes": ["3,4,5,6", "3,4,5,6_0", "99999999999999999999,1,1,1"],
    "--game": ["ass", "jass", "poker", "", "2/4", "２/4", "1/99999999999999999999"],
}
POSITIONAL = ["ass", "jass", "poker", "-", "x"]


def _commands():
    """(path, click command) for every leaf command of the app."""
    out = []

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*path, name])
        else:
            out.append((tuple(path), cmd))

    walk(typer.main.get_command(app), [])
    return out


COMMANDS = _commands()


def _pool(name: str) -> list[str]:
    if name in COUNTS:
        return POOLS["count"]
    if name in BIG:
        return POOLS["big"]
    if name in FLOATS:
        return POOLS["float"]
    if name in ("--strategy", "-s", "--field", "-f"):
        return POOLS["strategy"]
    return POOLS.get(name, ["1", "x", ""])


def _forced(path: tuple[str, ...], names: set[str], out: Path) -> list[str]:
    """Options that keep every run short and every file under ``out``."""
    args = []
    if "--out" in names:
        args += ["--out", str(out / "o")]
    if "--seed" in names:
        args += ["--seed", "1"]
    if "--index" in names:
        args += ["--index", "0"]
    if "--from" in names:
        args += ["--from", str(out / "nothing")]
    for count in ("--games", "--matches", "--deals"):
        if count in names:
            args += [count, "3"]
            break
    if path == ("study", "compare"):
        args += ["--game", "ass", "-s", "basic", "-s", "random", "--players", "3"]
    if path[0] == "study" and path[-1] in ("seats", "jokers", "trump"):
        args += ["--players", "3" if path[-1] != "trump" else "4"]
    if path[0] == "study":
        args += ["--no-progress"]
    # the strong (search) fields play hundreds of times slower: the fuzz is about exit codes,
    # and tests/test_study_*.py cover the strong fields themselves
    if "--strong-field" in names:
        args += ["--strong-field", "none"]
    if "--strong" in names:
        args += ["--strong", "none"]
    if path == ("study", "fields"):  # its trump and seat parts have budgets of their own
        args += ["--trump-deals", "10", "--seats-games", "10"]
    return args


@st.composite
def invocations(draw):
    path, cmd = draw(st.sampled_from(COMMANDS))
    options = [(opt, p) for p in cmd.params for opt in getattr(p, "opts", [])]
    names = {opt for opt, _ in options}
    extra = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            extra.append(draw(st.sampled_from(["--bogus", "--game", "--gamez", "-x", "--"])))
        elif kind == 1:
            extra.append(draw(st.sampled_from(POSITIONAL)))
        elif options:
            opt, param = draw(st.sampled_from(options))
            if getattr(param, "is_flag", False):
                extra.append(opt)
            elif opt in PATHS:
                extra += [opt, draw(st.sampled_from(["-", "{out}/f", "{out}", "{out}/d/x"]))]
            else:
                extra += [opt, draw(st.sampled_from(_pool(opt)))]
    if path == ("study", "all"):  # a whole suite is never short: only refusals here
        extra += ["--scale", draw(st.sampled_from(["0", "-1", "nan", "inf", "x"]))]
    return list(path), names, extra


def _exit_code_in(root: Path, args: list[str]) -> int:
    """Run the app on ``args`` with ``root`` as the working folder; its exit status."""
    here = os.getcwd()
    os.chdir(root)
    try:
        with pytest.raises(SystemExit) as stop:
            run_app(args)
    finally:
        os.chdir(here)
    return stop.value.code


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(invocations())
def test_random_command_lines_exit_0_or_2_cleanly(capsys, call):
    path, names, extra = call
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        out = root / "out"
        out.mkdir()
        args = [*path, *_forced(tuple(path), names, out),
                *[a.replace("{out}", str(out)) for a in extra]]
        code = _exit_code_in(root, args)
        captured = capsys.readouterr()
        assert code in (0, 2), (args, code, captured.err)
        assert "Traceback" not in captured.err and "╭" not in captured.err, args
        if code == 2:
            errors = [x for x in captured.err.splitlines() if x.startswith("error: ")]
            assert len(errors) == 1, (args, captured.err)
        outside = [p for p in root.rglob("*") if p != out and out not in p.parents]
        assert outside == [], (args, outside)


HUGE = "99999999999999999999999"
COUNTED = [(path, opt) for path, cmd in COMMANDS
           for opt in ("--games", "--matches", "--deals")
           if any(opt in getattr(p, "opts", []) and not getattr(p, "is_flag", False)
                  for p in cmd.params)]  # replay's --matches/--deals are flags


@pytest.mark.parametrize(("path", "opt"), COUNTED, ids=[" ".join([*p, o]) for p, o in COUNTED])
def test_a_count_past_the_index_space_is_one_line_before_any_work(capsys, path, opt):
    """A count above 2**63 (every index is below it) exits 2 with one error line at once: the
    fuzz above once drew 99999999999999999999999 games for study ladder and best-response,
    which sized arrays on it (a memory error) or, for study seats, started playing them."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        out = root / "out"
        out.mkdir()
        names = {o for p in dict(COMMANDS)[path].params for o in getattr(p, "opts", [])}
        args = [*path, *_forced(path, names, out), opt, HUGE]
        code = _exit_code_in(root, args)
        err = capsys.readouterr().err
        assert code == 2, (args, err)
        assert [x for x in err.splitlines() if x.startswith("error: ")] == [
            x for x in err.splitlines() if "2**63" in x], (args, err)
        assert not (out / "o").exists() or not any((out / "o").rglob("*")), args


DEEP_TOML = "[ass.deep]\nbase = \"basic\"\nx = " + "[" * 3000 + "]" * 3000 + "\n"
HAND = ["analyze", "ass", "--hand", "1 2 3", "--sizes", "3,4,5,6"]
JASS_HAND = ["analyze", "jass", "--hand", "B6 B7 B8 B9 B10 BU BO BK BA"]


@pytest.fixture(scope="module")
def decisions_run(tmp_path_factory):
    """A decisions run folder (one game of pimc with two worlds)."""
    from analyzer.learn.ass_decisions import run_decisions
    from strategies.registry import parse_strategy

    out = tmp_path_factory.mktemp("dec") / "run"
    run_decisions(out, 1, 1, 3, parse_strategy("ass", "pimc:worlds=2"), resume=False,
                  progress=False)
    return out


def _case(name, root, decisions_run):
    """The command line (and files it needs, under ``root``) of one issue-42 item-12 case."""
    if name == "totals":
        return [*HAND, "--game", "2/4", "--totals", "1,2,3,99999999999999999999999"]
    if name == "sticks":
        return [*JASS_HAND, "--sticks", "99999999999999999999,0,0,0"]
    if name == "summarize-decisions":
        return ["summarize", str(decisions_run)]
    if name == "replay-decisions":
        return ["replay", "--from", str(decisions_run), "--index", "0"]
    if name == "train-resume":
        (root / "t").mkdir()
        (root / "t" / "_train.json").write_text('{"game": "ass", "seed": ')
        return ["train", "ass", "--out", str(root / "t"), "--resume", "-q"]
    if name == "deep-toml":
        (root / "deep.toml").write_text(DEEP_TOML)
        return ["--strategies", str(root / "deep.toml"), "simulate", "ass", "-n", "2", "-s",
                "deep", "-q"]
    raise AssertionError(name)


WORDS = {"totals": "--totals", "sticks": "--sticks", "summarize-decisions": "decisions",
         "replay-decisions": "search decisions", "train-resume": "_train.json",
         "deep-toml": "too deeply"}
ITEM12 = ["totals", "sticks", "summarize-decisions", "replay-decisions", "train-resume",
          "deep-toml"]


@pytest.mark.parametrize("name", ITEM12)
def test_safety2_item12_former_tracebacks_are_one_line(capsys, monkeypatch, tmp_path,
                                                      decisions_run, name):
    """Issue 42 item 12: each of these printed a traceback (OverflowError, KeyError 'spec',
    JSONDecodeError, RecursionError); each is one ``error:`` line and exit 2."""
    from cli_check import strategies_forgetter

    strategies_forgetter(monkeypatch)
    args = _case(name, tmp_path, decisions_run)
    code = _exit_code_in(tmp_path, args)
    err = capsys.readouterr().err
    assert code == 2, (args, err)
    assert "Traceback" not in err
    errors = [x for x in err.splitlines() if x.startswith("error: ")]
    assert len(errors) == 1 and WORDS[name] in errors[0], err

"""One command-line vocabulary (issue 11): every command spells the shared options alike.

The test walks the whole typer application, so a new command that spells an option its own
way (``--field`` instead of ``-s/--strategy``, ``--progress`` instead of ``-q/--quiet``, a
seed default of its own) fails here.
"""

import json

import pytest
import typer.main
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.cli import options as opt

ROOT = typer.main.get_command(app)

# The shared options each command must accept (more are allowed where they make sense).
EXPECTED = {
    "simulate ass": {"players", "games", "matches", "strategy", "out", "workers", "quiet",
                     "seed"},
    "simulate jass": {"players", "matches", "deals", "strategy", "out", "workers", "quiet",
                      "seed", "ruleset"},
    "replay ass": {"players", "strategy", "seed", "matches"},
    "replay jass": {"players", "strategy", "seed", "ruleset", "matches", "deals"},
    "export ass": {"players", "games", "matches", "strategy", "out", "seed"},
    "export jass": {"players", "matches", "deals", "strategy", "out", "seed", "ruleset"},
    "study seats": {"players", "games", "strategy", "out", "workers", "quiet", "seed"},
    "study jokers": {"players", "games", "matches", "strategy", "out", "workers", "quiet",
                     "seed"},
    "study trump": {"players", "deals", "strategy", "out", "workers", "quiet", "seed",
                    "ruleset"},
    "study compare": {"players", "games", "matches", "deals", "strategy", "out", "workers",
                      "quiet", "seed", "ruleset"},
    "study ladder": {"players", "games", "strategy", "out", "workers", "quiet", "seed",
                     "ruleset"},
    "study best-response": {"players", "games", "strategy", "out", "workers", "quiet", "seed"},
    "study fields": {"players", "games", "strategy", "out", "workers", "quiet", "seed"},
    "tune": {"players", "games", "strategy", "out", "workers", "quiet", "seed", "ruleset"},
    "study all": {"out", "workers", "quiet", "seed"},
    "study replicate": {"out", "workers", "seed"},
    "report": {"out"},
    "analyze ass": {"players", "seed"},
    "analyze jass": {"players", "seed", "ruleset"},
    "decisions": {"players", "games", "out", "quiet", "seed", "strategy"},
    "train": {"players", "games", "out", "quiet", "seed"},
    "learn-strength": {"games", "out", "seed"},  # the player count: the game's measure
    "board": set(),  # a server: the page sets the players and seeds
}


def commands(group=ROOT, prefix=""):
    for name, cmd in group.commands.items():
        path = f"{prefix} {name}".strip()
        if hasattr(cmd, "commands"):
            yield from commands(cmd, path)
        else:
            yield path, cmd


def test_every_command_is_checked():
    paths = {p for p, _ in commands()}
    # summarize and strategies take no shared option; every other command is listed above
    assert paths - {"summarize", "strategies"} == set(EXPECTED)


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_shared_options_have_one_spelling(path):
    cmd = dict(commands())[path]
    visible = {o: p for p in cmd.params if not getattr(p, "hidden", False) for o in p.opts}
    for name in EXPECTED[path]:
        long, short = opt.SHARED[name]
        assert long in visible, f"{path} lacks {long}"
        if short and not (path.startswith("replay") and name in ("matches", "deals")):
            assert short in visible[long].opts, f"{path}: {long} without {short}"
    for p in cmd.params:
        if "--seed" in p.opts and not p.required:  # replicate: a seed must be given
            assert p.default == opt.SEED_DEFAULT, f"{path}: --seed default {p.default}"
    # the old spellings are gone from the help: no --progress, --field or --mode shown
    for old in ("--progress", "--field", "--mode"):
        assert old not in visible, f"{path} still shows {old}"


def test_no_shared_short_flag_means_something_else():
    shorts = {short: long for long, short in opt.SHARED.values() if short}
    for path, cmd in commands():
        for p in cmd.params:
            for o in p.opts:
                if o in shorts:
                    assert shorts[o] in p.opts, f"{path}: {o} is not {shorts[o]}"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_knob_values_take_either_spelling():
    from strategies.registry import parse_strategy

    a = parse_strategy("jass", "heuristic:trump=most-points")
    b = parse_strategy("jass", "heuristic:trump=most_points")
    assert a.values == b.values
    assert a.label() == "heuristic:trump=most-points"  # shown with hyphens only
    listing = run("strategies", "jass")
    assert "under-nine" in listing.output and "under_nine" not in listing.output


def test_old_spellings_still_work(tmp_path):
    new = run("replay", "jass", "--seed", 3, "--index", 1, "-p", 3, "--deals")
    old = run("replay", "jass", "--seed", 3, "--index", 1, "--players", 3, "--mode", "deals")
    assert new.exit_code == 0, new.output
    assert new.output == old.output
    assert json.loads(new.output)["mode"] == "deals"


def test_replay_from_a_run_folder(cli, tmp_path):
    run_dir = tmp_path / "run"
    code, _, err = cli("simulate", "ass", "-p", 3, "-n", 50, "--seed", 9, "-s", "careful", "-o",
                       run_dir, "-w", 1, "-q", "--backend", "serial", "--start", 10)
    assert code == 0, err
    code, from_run, err = cli("replay", "--from", run_dir, "--index", 12)
    assert code == 0, err
    assert from_run == cli("replay", "ass", "--seed", 9, "--index", 12, "-p", 3,
                           "-s", "careful")[1]
    code, _, err = cli("replay", "--from", run_dir, "--index", 3)
    assert code == 2
    assert err.startswith("error: --index 3 is outside the run")


@pytest.mark.parametrize("path,args", [
    ("study jokers", ["--field", "careful", "--no-progress"]),
    ("study seats", ["--progress", "-p", "4,5"]),
    ("study compare", ["--game", "jass", "-s", "a", "-s", "b", "--mode", "deals",
                       "--rule", "ruleset=swiss"]),
    ("export jass", ["--matches", "3", "--mode", "deals", "-o", "x.jsonl"]),
])
def test_hidden_old_spellings_still_parse(path, args):
    cmd = dict(commands())[path]
    ctx = cmd.make_context(path.split()[-1], list(args))
    assert ctx.params  # parsed, not run


def test_field_and_strategy_together_is_one_line_error(tmp_path):
    res = run("study", "jokers", "-s", "basic", "--field", "careful", "-o", tmp_path)
    assert res.exit_code != 0
    assert "give --strategy or its old spelling --field, not both" in str(res.exception or
                                                                          res.output)

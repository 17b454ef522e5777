"""Issue 42, runs, replays and processes: each test is named after the item it proves.

4: a replay or analysis of a run plays what the run recorded (or refuses); 8: standard output
carries only the requested format; 9: any terminal width prints the results; 10: bounded
match length, Ctrl-C stops an analysis; 11: no child outlives ``train``; 13: a damaged
decisions run has a repair that works; 15: children use the cache the parent chose; 19: the
evaluation seed never overlaps a data seed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_check import one_error

MAIN = "from analyzer.cli import main; main()"
ROOT = Path(__file__).resolve().parents[1]


# --- item 9: any terminal width prints the results -------------------------------------------


WIDTHS = ["0", "1", "-3", "abc", "", " 7 ", str(10**9), "9" * 30, "１２０"]


@pytest.mark.parametrize("width", WIDTHS)
def test_safety2_item09_any_terminal_width_prints_the_results(tmp_path, fresh_cli, width,
                                                               monkeypatch):
    run = tmp_path / "run"
    code, _, err = fresh_cli("simulate", "ass", "--games", "20", "--seed", "1", "--backend",
                             "serial", "--out", run, "-q")
    assert code == 0, err
    monkeypatch.setenv("COLUMNS", width)
    for args in (("simulate", "ass", "--games", "20", "--seed", "1", "--backend", "serial",
                  "-q"), ("summarize", run)):
        code, out, err = fresh_cli(*args)
        assert code == 0, err
        seats = [line for line in out.splitlines() if "basic" in line]
        assert len(seats) == 4, (width, args, out)  # one row per seat
        assert all(len(line) <= 10_000 for line in out.splitlines())


# --- item 19: the evaluation seed never overlaps a data seed -----------------------------------


@pytest.mark.parametrize("args,seed", [
    ((), 1004),  # round 1, 4 players (ass defaults: players 4,6; rounds 2)
    ((), 2006),  # round 2, 6 players
    (("--players", "5", "--rounds", "3"), 3005),
    (("--seed", "7"), 7 + 1006),
])
def test_safety2_item19_eval_seed_overlapping_a_data_seed_is_refused(tmp_path, fresh_cli, args,
                                                                     seed):
    out = tmp_path / "train"
    full = ["train", "ass", "--out", out, "--eval-seed", str(seed), "--games", "2",
            "--eval-games", "2", "--worlds", "2", "-q"]
    if "--seed" not in args:
        full += ["--seed", "0"]
    code, stdout, err = fresh_cli(*full, *args)
    assert code == 2, err
    one_error(err, "--eval-seed")
    assert str(seed) in err
    assert not out.exists()


# --- item 8: standard output carries only the requested format --------------------------------


def _commands_with_format() -> set[str]:
    """Every command (its words, e.g. "simulate ass"; "replay" for its --from callback) that
    takes ``--format``, read from the command line's own definition."""
    import typer.main

    from analyzer.cli import app

    found = set()

    def walk(command, words):
        if any("--format" in getattr(p, "opts", ()) for p in command.params):
            found.add(" ".join(words))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*words, name])

    walk(typer.main.get_command(app), [])
    return found


def _json_invocations(tmp_path: Path, fresh_cli) -> dict[str, list[list]]:
    """For each command with --format: invocations with --format json and every option that
    writes something besides (--out, --html), which then must say so on standard error."""
    run = tmp_path / "run"
    code, _, err = fresh_cli("simulate", "ass", "--games", "6", "--seed", "3", "--backend",
                             "serial", "--out", run, "-q")
    assert code == 0, err
    page = iter(tmp_path / f"page{i}.html" for i in range(100))
    few = ["--worlds", "8"]
    return {
        "simulate ass": [["simulate", "ass", "--games", "5", "--backend", "serial",
                          "--out", tmp_path / "a", "-s", "peek", "-s", "basic", "-s", "basic",
                          "-s", "basic"]],
        "simulate jass": [["simulate", "jass", "--deals", "5", "--backend", "serial",
                           "--out", tmp_path / "j"]],
        "summarize": [["summarize", run]],
        "analyze ass": [["analyze", "ass", "--from", run, "--index", "1", "--move", "0",
                         *few]],
        "analyze jass": [["analyze", "jass", "--hand", "B6 B9 S10 RU AA B7 B8 S6 S7",
                          *few]],
        "replay": [["replay", "--from", run, "--index", "2", "--analyze", "--html",
                    next(page), *few]],
        "replay ass": [["replay", "ass", "--index", "2", "--analyze", "--html", next(page),
                        *few]],
        "replay jass": [["replay", "jass", "--index", "0", "--deals", "--analyze", "--html",
                         next(page), *few]],
        "study compare": [["study", "compare", "--game", "ass", "-s", "basic", "-s", "careful",
                           "--games", "8", "-o", tmp_path / "study", "-q"]],
    }


def test_safety2_item08_standard_output_is_only_the_json_asked_for(tmp_path, fresh_cli):
    invocations = _json_invocations(tmp_path, fresh_cli)
    assert set(invocations) == _commands_with_format()  # a new --format command joins here
    for name, runs in invocations.items():
        for args in runs:
            code, out, err = fresh_cli(*args, "--format", "json")
            assert code == 0, (name, err)
            json.loads(out)  # one JSON document, nothing else
            assert out.strip().count("\n") == 0, (name, out)
            for target in args:
                if isinstance(target, Path) and target.suffix == ".html":
                    assert target.is_file() and str(target) in err, (name, err)


# --- item 15: children use the cache the parent chose ------------------------------------------


def test_safety2_item15_train_children_compile_into_the_users_numba_cache(tmp_path,
                                                                           monkeypatch):
    """A training's children (decisions, learn-strength) compile with other weights, so they
    hash a folder of their own, but inside the NUMBA_CACHE_DIR the user gave, never in the
    package's own cache."""
    from analyzer import numba_env
    from analyzer.learn import ass_decisions, train

    user = tmp_path / "user-cache"
    parent = numba_env.choose_cache_dir(numba_env.PACKAGE_ROOT,
                                        {**os.environ, "NUMBA_CACHE_DIR": str(user)})
    # the parent process as analyzer/__init__.py configures it under NUMBA_CACHE_DIR=user
    monkeypatch.setenv("NUMBA_CACHE_DIR", parent)
    monkeypatch.setenv(numba_env.OWN_ENV, f"{numba_env.PACKAGE_ROOT}{os.pathsep}{parent}")
    weights = tmp_path / "w.json"
    weights.write_text((ROOT / "strategies/ass/learned.json").read_text() + "\n")
    seen = []
    real_run = subprocess.run

    def child(args, env):  # the child process as far as choosing its cache
        probe = "import analyzer, os; print(os.environ['NUMBA_CACHE_DIR'])"
        done = real_run([sys.executable, "-c", probe], env=env, capture_output=True,
                              text=True, cwd=ROOT, check=True)
        seen.append(done.stdout.strip())
        return subprocess.CompletedProcess(args, 0)

    monkeypatch.setattr(train.subprocess, "run", child)
    train._cardlab(["learn-strength", "ass"], weights, ass_decisions)  # other weights
    train._cardlab(["decisions", "ass"], None, ass_decisions)  # the shipped weights
    assert len(seen) == 2
    for folder in seen:
        assert Path(folder).parent == user, (folder, user)
    assert seen[0] != seen[1]  # other weights: another folder (they are frozen into kernels)

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
import signal
import subprocess
import sys
import time
from functools import partial
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


def test_safety2_item19_data_seeds_past_2_63_are_refused_before_any_work(tmp_path, fresh_cli):
    out = tmp_path / "train"
    code, _, err = fresh_cli("train", "ass", "--out", out, "--seed", str(2**63 - 1000), "-q")
    assert code == 2
    one_error(err, "--seed")
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


def test_safety2_item08_summarize_of_a_run_with_nothing_finished_prints_json(tmp_path,
                                                                           fresh_cli):
    run = tmp_path / "run"
    code, _, err = fresh_cli("simulate", "ass", "--games", "6", "--backend", "serial", "--out",
                             run, "-q")
    assert code == 0, err
    for piece in [*run.glob("part-*"), run / "_manifest.json"]:  # as if stopped at once
        piece.unlink()
    code, out, err = fresh_cli("summarize", run, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["seats"] == [] and doc["complete"] is False and "no game finished" in err
    code, out, err = fresh_cli("summarize", run, "--format", "csv")
    assert code == 0 and out == "" and "no game finished" in err


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

    class Children:  # runs the child as far as choosing its cache
        def run(self, argv, env):
            probe = "import analyzer, os; print(os.environ['NUMBA_CACHE_DIR'])"
            done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                                  text=True, cwd=ROOT, check=True)
            seen.append(done.stdout.strip())
            return 0

    train._cardlab(Children(), ["learn-strength", "ass"], weights, ass_decisions)  # others
    train._cardlab(Children(), ["decisions", "ass"], None, ass_decisions)  # shipped weights
    assert len(seen) == 2
    for folder in seen:
        assert Path(folder).parent == user, (folder, user)
    assert seen[0] != seen[1]  # other weights: another folder (they are frozen into kernels)


# --- item 4: what the run recorded is what replays ---------------------------------------------


def _other_weights(path: Path, game: str = "ass") -> Path:
    """A valid weights file of ``game`` with other weights than the shipped ones."""
    import importlib

    model = importlib.import_module(f"strategies.{game}.learned_weights").MODEL
    weights, doc = model.load(model.default)
    weights = weights.reshape(model.phases, -1).copy()
    weights[0, 0] += 1.0
    path.write_text(model.text(weights, doc["provenance"]))
    return path


def _cardlab(*args, env=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", MAIN, *map(str, args)], cwd=ROOT,
                          env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=timeout)


def test_safety2_item04_replay_and_analyze_refuse_other_weights_than_the_run_played(
        tmp_path, fresh_cli):
    run = tmp_path / "run"
    code, _, err = fresh_cli("simulate", "ass", "--games", "6", "--seed", "5", "-s", "learned",
                             "-s", "basic", "-s", "careful", "-s", "basic", "--backend",
                             "serial", "--out", run, "-q")
    assert code == 0, err
    # the weights the run played: it replays and analyzes
    code, same, err = fresh_cli("replay", "--from", run, "--index", "3")
    assert code == 0, err
    other = {"CARDLAB_LEARNED_ASS": str(_other_weights(tmp_path / "other.json"))}
    for args in (("replay", "--from", run, "--index", "3"),
                 ("replay", "--from", run, "--index", "3", "--analyze", "--worlds", "4"),
                 ("analyze", "ass", "--from", run, "--index", "3", "--move", "0", "--worlds",
                  "4")):
        done = _cardlab(*args, env=other)
        assert done.returncode == 2, (args, done.stdout[-500:], done.stderr[-2000:])
        one_error(done.stderr, "weights")
        assert "CARDLAB_LEARNED_ASS" in done.stderr and done.stdout == ""


def test_safety2_item04_a_rollout_by_learned_records_its_weights(tmp_path):
    """pimc:rollout=learned reads the weights too, though its knobs do not say which: the
    plan records them, and a replay under other weights is refused."""
    from analyzer.cli.runs import check_recorded_weights
    from analyzer.engines.kernel import RunSpec
    from analyzer.errors import CardlabError
    from analyzer.runner.manifest import build_plan
    from strategies.ass.learned_weights import MODEL, WEIGHTS

    spec = RunSpec("ass", 4, ("pimc:worlds=2,rollout=learned", "basic", "basic", "basic"), 1)
    import analyzer.engines.ass.kernel as kernel

    plan = build_plan(spec, kernel, 0, 10, "rows")
    assert plan["weights"] == {"ass": MODEL.digest(WEIGHTS)}
    check_recorded_weights(plan, tmp_path)  # the weights in use: fine
    for edited in ({**plan, "weights": {"ass": "0" * 64}}, {k: v for k, v in plan.items()
                                                           if k != "weights"}):
        with pytest.raises(CardlabError, match="weights"):
            check_recorded_weights(edited, tmp_path)
    plain = build_plan(RunSpec("ass", 4, ("basic",) * 4, 1), kernel, 0, 10, "rows")
    assert "weights" not in plain  # runs that read no weights: plans as before


def test_the_linear_model_pimc_finishes_rounds_with_is_recorded_and_checked(tmp_path):
    """Who's the Ass?'s pimc (rollout=value) finishes its leaves' rounds with learned's
    linear model (learned-linear.json), not the network: the plan records the linear weights
    (and not the network's), a replay under others is refused, and a plan from before the
    linear model had a key of its own (its digest under ``weights``) still replays."""
    import analyzer.engines.ass.kernel as kernel
    from analyzer.cli.runs import check_recorded_weights
    from analyzer.engines.kernel import RunSpec
    from analyzer.errors import CardlabError
    from analyzer.runner.manifest import build_plan
    from strategies.ass.learned_weights import LINEAR, LINEAR_WEIGHTS

    linear = LINEAR.digest(LINEAR_WEIGHTS)
    for seats in (("pimc", "basic", "basic", "basic"),
                  ("pimc:worlds=2,rollout=learned-linear", "basic", "basic", "basic")):
        plan = build_plan(RunSpec("ass", 4, seats, 1), kernel, 0, 10, "rows")
        assert plan["linear_weights"] == {"ass": linear} and "weights" not in plan, seats
        check_recorded_weights(plan, tmp_path)
        with pytest.raises(CardlabError, match="linear learned weights"):
            check_recorded_weights({**plan, "linear_weights": {"ass": "0" * 64}}, tmp_path)
        old = {k: v for k, v in plan.items() if k != "linear_weights"}
        check_recorded_weights({**old, "weights": {"ass": linear}}, tmp_path)
        with pytest.raises(CardlabError, match="weights"):
            check_recorded_weights(old, tmp_path)
    seat = build_plan(RunSpec("ass", 4, ("learned-linear",) + ("basic",) * 3, 1), kernel, 0,
                      10, "rows")
    assert "linear_weights" not in seat  # its description names them


def test_a_knob_that_follows_the_player_count_is_recorded_as_it_played(tmp_path):
    """Jass pimc's worlds=0 plays the player count's worlds, a value of the code's (it went
    from 18 to 24 at 4 players): the plan records it as it played at the run's count, a replay
    that would play another value is refused with one line, and a resume sees the change;
    strategies without such a knob record nothing more."""
    import analyzer.engines.jass.kernel as kernel
    from analyzer.cli.runs import check_recorded_player_counts
    from analyzer.engines.kernel import RunSpec
    from analyzer.errors import CardlabError
    from analyzer.runner.manifest import build_plan, differences
    from strategies.jass.knobs import WORLDS_AT_4

    seats = ("pimc", "aim-low", "pimc:worlds=6", "aim-low")
    plan = build_plan(RunSpec("jass", 4, seats, 1), kernel, 0, 10, "rows")
    at = [entry.get("at_players") for entry in plan["strategies"]]
    assert at == [{"worlds": repr(float(WORLDS_AT_4))}, None, None, None]
    check_recorded_player_counts(plan, tmp_path)  # as it plays now: fine
    entries = [dict(e) for e in plan["strategies"]]
    entries[0]["at_players"] = {"worlds": "18.0"}
    older = {**plan, "strategies": entries}
    with pytest.raises(CardlabError, match=r"played worlds=18\.0 at 4 players") as err:
        check_recorded_player_counts(older, tmp_path)
    assert "\n" not in str(err.value)
    assert any("at_players.worlds" in d for d in differences(older, plan))


# --- item 10: a bounded match, and Ctrl-C stops an analysis -------------------------------------


ASS_POSITION = ["--hand", "3 3 8 J", "--players", "4", "--sizes", "4,6,5,9", "--gone", "1 1 2",
                "--known", "3:A", "--totals", "10,20,30,40"]


@pytest.mark.parametrize("k", ["1001", "1000000", "99999999999999999999"])
def test_safety2_item10_match_length_is_bounded_as_simulate_bounds_it(fresh_cli, k):
    code, out, err = fresh_cli("analyze", "ass", *ASS_POSITION, "--game", f"2/{k}",
                               "--worlds", "2")
    assert code == 2 and out == ""
    one_error(err, "at most 1,000 games")


def _interrupted(args, warm, again=None, timeout=60
                 ) -> tuple[float, subprocess.CompletedProcess]:
    """Start ``cardlab ARGS`` (a long analysis) once ``cardlab WARM`` (the same, short) has
    compiled its kernels, send SIGINT when it is surely inside them (twice as long as WARM
    takes with its kernels compiled), and return how long it took to stop and its result."""
    done = _cardlab(*warm, timeout=900)  # compiles (a cold numba cache: minutes)
    assert done.returncode == 0, done.stderr[-2000:]
    began = time.monotonic()
    done = _cardlab(*(again or warm), timeout=900)  # as long as the long one takes to reach
    # its kernels
    assert done.returncode == 0, done.stderr[-2000:]
    short = time.monotonic() - began
    proc = subprocess.Popen([sys.executable, "-c", MAIN, *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(max(2 * short, short + 3))  # past the imports and the worlds' drawing
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=timeout)
        return time.monotonic() - sent, subprocess.CompletedProcess(args, proc.returncode,
                                                                    out, err)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("kind", ["analyze", "replay", "decisions"])
def test_safety2_item10_ctrl_c_stops_an_analysis_within_seconds(kind, tmp_path):
    if kind == "decisions":
        base = ["decisions", "jass", "--searcher", "pimc:worlds=64", "-q"]
        args = [*base, "--out", tmp_path / "long", "--games", "100000"]
        warm = [*base, "--out", tmp_path / "short", "--games", "2"]
        again = [*base, "--out", tmp_path / "again", "--games", "2"]
    elif kind == "analyze":
        args = ["analyze", "ass", *ASS_POSITION, "--game", "2/1000", "--worlds", "20000"]
        warm = ["analyze", "ass", *ASS_POSITION, "--game", "2/1000", "--worlds", "1"]
    else:
        base = ["replay", "ass", "--matches", "--games-per-match", "1000", "--index", "0",
                "--analyze", "--seat", "0"]
        args = [*base, "--worlds", "20000"]
        warm = ["replay", "ass", "--matches", "--games-per-match", "2", "--index", "0",
                "--analyze", "--seat", "0", "--worlds", "1"]
    took, done = _interrupted(args, warm, again if kind == "decisions" else None)
    assert done.returncode == 130, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Error" not in done.stderr
    assert took < 4, took  # within a chunk of worlds (about 0.25 s) plus the exit


# --- item 11: no process outlives the command that started it -----------------------------------


def _alive(proc) -> bool:
    import psutil

    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _cmdline(proc) -> str:
    """The process's command line, "" once it has ended (it may end, or become a zombie,
    between any two looks at it)."""
    import psutil

    try:
        return " ".join(proc.cmdline())
    except psutil.Error:
        return ""


def _running(parent, kind: str) -> bool:
    """Whether a descendant of ``parent`` runs ``cardlab KIND``."""
    import psutil

    try:
        children = parent.children(recursive=True)
    except psutil.Error:
        return False
    return any(kind in _cmdline(p) for p in children if _alive(p))


def _all_gone(family) -> bool:
    return not any(_alive(p) for p in family)


def test_safety2_item11_signals_to_train_leave_no_child_running(tmp_path):
    """SIGTERM and SIGINT to `cardlab train` alone (not to its process group), while its
    decisions child runs and while its learn-strength child runs: it stops within seconds,
    with 128 + the signal, and no process it started is left; --resume then continues. After
    SIGKILL of train its child exits too."""
    import psutil

    out = tmp_path / "train"
    command = [sys.executable, "-c", MAIN, "train", "ass", "--out", str(out), "--games", "3",
               "--players", "4", "--rounds", "1", "--worlds", "2", "--eval-games", "2", "-q"]
    points = [("decisions", signal.SIGTERM), ("decisions", signal.SIGINT),
              ("decisions", signal.SIGKILL),  # no handler at all: the child watches
              ("learn-strength", signal.SIGTERM), ("learn-strength", signal.SIGINT)]
    for number, (child_kind, signum) in enumerate(points):
        parent = subprocess.Popen(command + (["--resume"] if number else []), cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        me = psutil.Process(parent.pid)
        try:
            assert _wait_for(partial(_running, me, child_kind), 600), (
                child_kind, parent.poll(), parent.stderr.read() if parent.poll() is not None
                else "")
            family = me.children(recursive=True)
            parent.send_signal(signum)
            _, err = parent.communicate(timeout=30)
            if signum == signal.SIGKILL:
                assert parent.returncode == -signum
            else:
                assert parent.returncode == 128 + signum, (child_kind, signum, err)
                assert "Traceback" not in err and "--resume" in err, err
            assert _wait_for(partial(_all_gone, family), 5), [
                _cmdline(p) for p in family if _alive(p)]
        finally:
            for p in [*me.children(recursive=True), me] if _alive(me) else []:
                p.kill()
            parent.wait()


# --- item 13: a damaged decisions run has a repair that works ----------------------------------


DECISIONS = ["--games", "3", "--seed", "4", "--players", "4", "--searcher", "pimc:worlds=2"]


def _damage_a_part(folder: Path) -> Path:
    part = sorted(folder.glob("part-*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    return part


def _suggested(err: str) -> list[str]:
    """The command a refusal suggests ("repair it with `cardlab ...`"), as arguments."""
    import re
    import shlex

    found = re.search(r"repair it with `([^`]+)`", err)
    assert found, err
    words = shlex.split(found.group(1))
    assert words[0] == "cardlab", words
    return words[1:]


def test_safety2_item13_a_damaged_decisions_run_is_repaired_by_the_command_suggested(
        tmp_path, fresh_cli):
    run = tmp_path / "data"
    code, _, err = fresh_cli("decisions", "ass", "--out", run, *DECISIONS, "-q")
    assert code == 0, err
    rows = len(__import__("pandas").read_parquet(run))
    part = _damage_a_part(run)
    code, _, err = fresh_cli("decisions", "ass", "--out", run, *DECISIONS, "--resume", "-q")
    assert code == 2
    command = _suggested(err)
    assert "simulate" not in command and "--repair" in command
    code, _, err = fresh_cli("summarize", run)  # names the command that wrote the folder
    assert code == 2 and "the same decisions command plus --resume --repair" in err, err
    code, _, err = fresh_cli(*command)
    assert code == 0, err
    assert (run / "_damaged" / part.name).is_file()
    # train --from names the same command for a damaged run it is given
    _damage_a_part(run)
    code, _, err = fresh_cli("train", "ass", "--from", run, "--out", tmp_path / "fit", "-q")
    assert code == 2
    assert _suggested(err) == command
    code, _, err = fresh_cli(*command)
    assert code == 0, err
    code, _, err = fresh_cli("train", "ass", "--from", run, "--out", tmp_path / "fit2", "-q")
    assert code == 0, err
    assert len(__import__("pandas").read_parquet(run)) == rows
    # --repair without --resume: one line
    code, _, err = fresh_cli("decisions", "ass", "--out", run, *DECISIONS, "--repair")
    assert code == 2
    one_error(err, "--repair needs --resume")


def test_safety2_item13_train_repairs_its_own_damaged_decision_data(tmp_path, fresh_cli):
    """A training whose round-1 data were damaged after it finished: --resume refuses and
    names `cardlab train ... --resume --repair`, which repairs them and trains again."""
    from analyzer.learn.train import TrainPlan

    out = tmp_path / "train"
    args = ["--out", out, "--seed", "0", "--games", "3", "--players", "4", "--rounds", "1",
            "--worlds", "2", "--eval-games", "2", "-q"]
    plan = TrainPlan("ass", 0, 3, (4,), 2, 1, 2, 9923)
    (out / "round-1").mkdir(parents=True)
    (out / "_train.json").write_text(json.dumps(plan.to_dict(), indent=1) + "\n")
    # the round's strength as if measured (the measurement is not what this test is about)
    (out / "round-1" / "strength.json").write_text(json.dumps(
        {"learned": 20.0, "careful": 21.0, "tuned": 22.0, "basic": 23.0}))
    code, _, err = fresh_cli("train", "ass", *args, "--resume")
    assert code == 0, err
    weights = (out / "learned.json").read_text()
    part = _damage_a_part(out / "round-1" / "decisions-4")
    code, _, err = fresh_cli("train", "ass", *args, "--resume")
    assert code == 2
    command = _suggested(err)
    assert command[:2] == ["train", "ass"] and command[-2:] == ["--resume", "--repair"]
    code, _, err = fresh_cli(*command)
    assert code == 0, err
    assert (out / "round-1" / "decisions-4" / "_damaged" / part.name).is_file()
    assert (out / "learned.json").read_text() == weights  # the same data, the same weights

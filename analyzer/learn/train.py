"""Training the ``learned`` family of a game from ``pimc``'s decision data.

A game's decisions module (analyzer/learn/<game>_decisions.py, :data:`GAMES`) says what is
game-specific: its model's weights file (``WEIGHTS_FILE``), the defaults of ``cardlab train``,
how a round's weights are measured (``strength``, ``describe``, ``LOWER_IS_BETTER``). The rest
is every game's.

The model (strategies/<game>/learned.py) scores a candidate from its features with the
weights of the decision's phase; the game's ``fit_weights`` finds the weights whose scores
best predict pimc's values *relative to the decision's other candidates* (both games: a
small network, analyzer/learn/mlp.py; Who's the Ass?'s linear model of before,
``learned-linear``, was fitted by analyzer/learn/ridge.py). The fit is deterministic: the
same data and seed give the same weights, bit for bit, on one machine.

Expert iteration (:func:`train`): round 1's data come from ``pimc`` (the game's
``FIRST_ROLLOUT``) in every seat; each later round's, with the previous round's weights,
from the learned player itself in one seat against a field, pimc valuing its every decision
(DAgger, :func:`later_searcher`, the game's ``LATER_ROLLOUT``): the plan's field mix
(``--field-mix``, default the game's ``DEFAULTS["field_mix"]``: each other seat of each game
drawn from presets, ``learned`` with the weights of the round before, and ``pimc``), or, as
the shipped weights were made, ``--field-mix none`` (the searcher in every seat, with the
game's ``NO_FIELD_ROLLOUT``: Who's the Ass?) or the game's ``LATER_FIELD`` alone (``aim-
low``, Plus-Minus Jass); each round is fitted on the data of every round so far. Every
round's weights are measured on held-out deals (:func:`strength`, in a process of their own:
numba freezes the weights into the kernels) and the best round is the result. Each step
leaves its files in the work folder (round-N/decisions-P: a verified run folder;
round-N/learned.json; round-N/strength.json), so an interrupted training, run again with the
same arguments and ``--resume``, continues where it stopped.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.games import registry as games_registry

# {game: its decisions module}: the games with a learned family (their adapter's ``learn``)
GAMES = games_registry.ByGame(lambda d: games_registry.load(d.parts.learn), part="learn")


def read_decisions(paths: list[Path], game, how: str | None = None) -> pd.DataFrame:
    """The rows of finished, verified decision run folders of ``game`` (its decisions
    module), each tagged with its ``run``. A damaged folder is refused with the command that
    repairs it: ``how`` (the training's own) or the folder's ``cardlab decisions``."""
    from analyzer.learn.decisions import damaged
    from analyzer.runner.folder import RunFolder

    model = game.WEIGHTS_FILE
    frames = []
    for number, path in enumerate(paths):
        folder = RunFolder(path)
        plan = folder.read_plan()
        if plan.get("kind") != "decisions" or plan.get("game") != game.GAME:
            raise CardlabError(f"{path} is not a {model.title} decisions run "
                               f"(made by `cardlab decisions {game.GAME}`)")
        if plan.get("features") != model.feature_set:
            raise CardlabError(f"{path} holds features {plan.get('features')!r}; this cardlab "
                               f"trains on {model.feature_set!r}: make the data again")
        check = folder.verify(plan)
        if check.damage:
            raise damaged(folder, check, plan, "training refused", how)
        if check.manifest is None:
            raise CardlabError(f"{path} is an unfinished decisions run: finish it with "
                               f"`cardlab decisions {game.GAME} ... --resume` first")
        frame = pd.concat([pd.read_parquet(p) for _, p in check.parts], ignore_index=True)
        frame["run"] = number
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def git_commit() -> str:
    """The commit of the source tree (with "+changes" when it has uncommitted edits)."""
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--",
                                "analyzer", "strategies"], capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


@dataclass(frozen=True)
class TrainPlan:
    """What fixes the trained weights (recorded in the work folder and the provenance)."""

    game: str
    seed: int
    games: int  # games of decision data per round and player count
    players: tuple[int, ...]
    worlds: int
    rounds: int
    eval_games: int
    eval_seed: int
    later_games: int | None = None  # games of decision data in rounds 2.. (None: games)
    # the field of rounds 2.. (analyzer/learn/decisions.py parse_mix's text; None: the
    # game's LATER_FIELD, the one field of the trainings before the mix)
    field_mix: str | None = None
    # the searcher's rollout in every round (pimc's rollout knob; None: the game's own, those
    # the shipped weights were searched with: FIRST_ROLLOUT, LATER_ROLLOUT)
    rollout: str | None = None

    @property
    def round_games(self) -> tuple[int, int]:
        """(games of round 1, games of each later round)."""
        return self.games, self.games if self.later_games is None else self.later_games

    def to_dict(self) -> dict:
        doc = {"seed": self.seed, "games": self.games, "players": list(self.players),
               "worlds": self.worlds, "rounds": self.rounds, "eval_games": self.eval_games,
               "eval_seed": self.eval_seed,
               "features": GAMES[self.game].WEIGHTS_FILE.feature_set,
               **GAMES[self.game].FIT_PLAN}
        if GAMES[self.game].PLAN_NAMES_GAME:  # else the game's plans read as before the field
            doc["game"] = self.game
        if self.later_games is not None and self.later_games != self.games:
            doc["later_games"] = self.later_games
        if (self.rounds > 1 and self.field_mix is not None
                and self.field_mix != legacy_field(GAMES[self.game])):
            # (one round, or the field of the trainings before the mix: the plan reads as
            # before)
            doc["field_mix"] = self.field_mix
        if self.rollout is not None:  # (the game's own rollouts: the plan reads as before)
            doc["rollout"] = self.rollout
        return doc


def data_seed(seed: int, r: int, players: int) -> int:
    """The seed of round ``r``'s decision data at ``players`` players (``cardlab train``'s
    evaluation seed must be none of them)."""
    return seed + 1000 * r + players


NO_FIELD = "none"  # --field-mix none: the searcher in every seat, rolling out with learned


def legacy_field(game) -> str:
    """The ``--field-mix`` of the trainings before the mix: the game's ``LATER_FIELD``, or
    :data:`NO_FIELD` (a plan with it reads as before: no ``field_mix``)."""
    return game.LATER_FIELD or NO_FIELD


def later_searcher(game, worlds: int, r: int, mix: str | None = None,
                   rollout: str | None = None) -> tuple[str, str | None]:
    """The searcher and the field (None: the searcher in every seat) of round ``r``'s data:
    round 1 ``pimc:worlds=W`` (rollout: the game's ``FIRST_ROLLOUT``) in every seat; later
    rounds, with the previous round's weights, either pimc in every seat (``mix``
    :data:`NO_FIELD`, or None with no ``game.LATER_FIELD``; rollout: the game's
    ``NO_FIELD_ROLLOUT``, default learned) or learned in one seat against the field mix
    ``mix`` (None: ``game.LATER_FIELD``), pimc valuing its decisions (DAgger; rollout: the
    game's ``LATER_ROLLOUT``). ``rollout`` (``cardlab train --rollout``): the searcher's
    rollout in every round instead (e.g. ``value``, pimc's value model: expert iteration on
    the default player's values); with :data:`NO_FIELD` the searcher is then in every seat."""
    # the game may pin knobs the searcher's defaults no longer have (Who's the Ass?:
    # infer=policy, pimc's default when its first weights were made)
    pinned = getattr(game, "SEARCHER_KNOBS", "")
    base = f"pimc:worlds={worlds}" + (f",{pinned}" if pinned else "")
    if r == 1:
        first = rollout or getattr(game, "FIRST_ROLLOUT", "")
        return base + (f",rollout={first}" if first else ""), None
    field = mix if mix is not None else game.LATER_FIELD
    if field is None or field == NO_FIELD:
        every = rollout or getattr(game, "NO_FIELD_ROLLOUT", "learned")
        return base + f",rollout={every}", None
    later = rollout or getattr(game, "LATER_ROLLOUT", None)
    return base + (f",rollout={later}" if later else ""), field


def field_args(game, field: str) -> list[str]:
    """The options of ``cardlab decisions`` for a round's field: ``--strategy`` for the
    game's ``LATER_FIELD`` alone (its data read as before the mix), else ``--field-mix``."""
    return ["--strategy", field] if field == game.LATER_FIELD else ["--field-mix", field]


def _cardlab(children, args: list[str], env_weights: Path | None, game,
             training: Path | None = None) -> None:
    """Run a cardlab command in a process of its own (with ``env_weights`` as ``game``'s
    weights; ``training``: the training folder its output may lie inside), through
    ``children`` (analyzer/runner/interrupts.py ``Children``: a signal to this process is
    handed on to it, and it never outlives this one)."""
    from analyzer.numba_env import child_env
    from analyzer.outputs import TRAINING_ENV

    env_name = game.WEIGHTS_FILE.env
    env = child_env(dict(os.environ))  # the child hashes its own weights, in the same base
    env.pop(TRAINING_ENV, None)
    if training is not None:
        env[TRAINING_ENV] = os.path.abspath(training)
    if env_weights is not None:  # the learner; LEARNER_ALSO: jass_decisions.py
        for name in (env_name, *getattr(game, "LEARNER_ALSO", ())):
            env[name] = str(env_weights)
    else:  # the shipped weights (LEARNER_ALSO as this process has them)
        env.pop(env_name, None)
    code = children.run([sys.executable, "-c", "from analyzer.cli import main; main()", *args],
                        env)
    if code != 0:
        raise CardlabError(f"`cardlab {' '.join(args)}` failed (exit {code})")


def train(out: Path, plan: TrainPlan, resume: bool, progress: bool, weights_out: Path,
          from_runs: list[Path] | None = None, say=print, repair: bool = False) -> dict:
    """Expert iteration (module docstring) in work folder ``out``; the best round's weights
    go to ``weights_out``. With ``from_runs``: one fit of those decision runs, no rounds.
    With ``repair`` (and ``resume``): a damaged decisions folder of the training is repaired
    (``cardlab decisions ... --resume --repair``) before it is read.

    SIGINT and SIGTERM stop it (analyzer/runner/interrupts.py ``Stopped``, after the child
    process in hand has stopped: none outlives it); the finished steps stay in ``out``."""
    from analyzer.runner.interrupts import stopping_children

    with stopping_children() as children:
        return _train(children, out, plan, resume, progress, weights_out, from_runs, say,
                      repair)


def _damaged(data: Path) -> bool:
    """Whether the decisions run folder ``data`` fails verification."""
    from analyzer.runner.folder import RunFolder

    folder = RunFolder(data)
    try:
        return bool(folder.verify(folder.read_plan()).damage)
    except CardlabError:
        return True


def _train(children, out: Path, plan: TrainPlan, resume: bool, progress: bool,
           weights_out: Path, from_runs: list[Path] | None, say, repair: bool) -> dict:
    game = GAMES[plan.game]
    model = game.WEIGHTS_FILE
    plan_file = out / "_train.json"
    doc = plan.to_dict()
    if plan_file.exists():
        try:
            old = json.loads(plan_file.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise CardlabError(f"{plan_file} is damaged (not the JSON `cardlab train` writes): "
                               "the training cannot be continued; start a new --out") from None
        if old != doc:
            raise CardlabError(f"{out} holds a training with other parameters; use a new --out")
        if not resume:
            raise CardlabError(f"{out} holds a training already: add --resume to continue it, "
                               "or choose a new --out")
    elif resume:
        raise CardlabError(f"--resume: {out} holds no training to continue")
    # --from runs are read (and refused) before anything is created
    frame = read_decisions(from_runs, game) if from_runs else None
    out.mkdir(parents=True, exist_ok=True)
    plan_file.write_text(json.dumps(doc, indent=1) + "\n")
    command = f"cardlab train {game.GAME} " + " ".join(
        [f"--seed {plan.seed}", f"--games {plan.games}",
         f"--players {','.join(map(str, plan.players))}", f"--worlds {plan.worlds}",
         f"--rounds {plan.rounds}", f"--eval-games {plan.eval_games}",
         f"--eval-seed {plan.eval_seed}"]
        + ([f"--later-games {plan.later_games}"] if "later_games" in doc else [])
        # (the field of rounds 2.. as given, also the legacy one the plan leaves out: the
        # command must remake the weights as it stands)
        + ([f"--field-mix {plan.field_mix}"]
           if plan.rounds > 1 and plan.field_mix is not None else [])
        + ([f"--rollout {plan.rollout}"] if "rollout" in doc else []))
    # (--force: the weights file this training wrote may be there by then)
    where = ["--out", str(out)] + ([] if weights_out == out / "learned.json"
                                   else ["--weights", str(weights_out), "--force"])
    how = f"`{command} {shlex.join(where)} --resume --repair`"  # repairs the training's data
    if frame is not None:
        w = game.fit_weights(frame, plan.seed)
        prov = {"command": command + " --from " + " ".join(map(str, from_runs)),
                "seed": plan.seed, "decisions": int(frame.groupby(["run", "index",
                                                                  "decision"]).ngroups),
                "rows": len(frame), "commit": git_commit()}
        _write(weights_out, w, prov, model)
        return {"weights": str(weights_out), "rounds": []}
    runs: list[Path] = []
    results = []
    previous: Path | None = None
    for r in range(1, plan.rounds + 1):
        folder = out / f"round-{r}"
        folder.mkdir(exist_ok=True)
        searcher, field = later_searcher(game, plan.worlds, r, plan.field_mix, plan.rollout)
        for players in plan.players:
            data = folder / f"decisions-{players}"
            count = plan.round_games[0 if r == 1 else 1]
            args = ["decisions", game.GAME, "--out", str(data), "--games", str(count),
                    "--seed", str(data_seed(plan.seed, r, players)), "--players", str(players),
                    "--searcher", searcher] + (field_args(game, field) if field else [])
            started = (data / "_run.json").exists()
            if not (data / "_manifest.json").exists() or (repair and _damaged(data)):
                say(f"round {r}: decision data at {players} players ({searcher}"
                    + (f"; learned against {field}" if field else "") + ")")
                _cardlab(children, args + (["--resume"] if started else [])
                         + (["--repair"] if started and repair else [])
                         + ([] if progress else ["--quiet"]), previous, game, out)
            runs.append(data)
        children.check()
        weights_file = folder / "learned.json"
        frame = read_decisions(runs, game, how)
        w = game.fit_weights(frame, plan.seed)
        prov = {"command": command, "seed": plan.seed, "round": r,
                "decisions": int(frame.groupby(["run", "index", "decision"]).ngroups),
                "rows": len(frame),
                "games": (plan.round_games[0] + plan.round_games[1] * (r - 1)) * len(plan.players),
                "searchers": sorted({later_searcher(game, plan.worlds, k, plan.field_mix,
                                                    plan.rollout)[0] for k in range(1, r + 1)}),
                **({"fields": [field]} if r > 1 and field else {}),
                "commit": git_commit()}
        children.check()
        _write(weights_file, w, prov, model)
        strength_file = folder / "strength.json"
        if not strength_file.exists():
            say(f"round {r}: measuring on {plan.eval_games} held-out {game.EVAL_UNIT} x every "
                "seating")
            _cardlab(children, ["learn-strength", game.GAME, "--games", str(plan.eval_games),
                                "--seed", str(plan.eval_seed), "--out", str(strength_file)],
                     weights_file, game, out)
        measured = json.loads(strength_file.read_text())
        say(f"round {r}: {game.describe(measured)}")
        results.append({"round": r, **measured})
        previous = weights_file
    sign = 1 if game.LOWER_IS_BETTER else -1
    best = min(results, key=lambda x: (sign * x["learned"], x["round"]))
    chosen = out / f"round-{best['round']}" / "learned.json"
    doc = json.loads(chosen.read_text())
    doc["provenance"]["rounds"] = results
    doc["provenance"]["best_round"] = best["round"]
    _write(weights_out, np.array(doc["weights"]), doc["provenance"], model)
    return {"weights": str(weights_out), "rounds": results, "best": best["round"]}


def _write(path: Path, weights: np.ndarray, provenance: dict, model) -> None:
    from analyzer.runner.folder import atomic_write_bytes

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, model.text(weights, provenance).encode())

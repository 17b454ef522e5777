"""Training the ``learned`` family of Who's the Ass? from ``pimc``'s decision data.

The model (strategies/ass/learned.py) scores a candidate by a dot product of its features
with the weights of the decision's phase. :func:`fit` finds, per phase, the weights whose
scores best predict pimc's values *relative to the decision's other candidates*: within each
decision the features and the values are centred on their means (only differences between
candidates decide a move), and the weights solve the ridge least-squares problem
``(X'X + ridge * rows * I) w = X'y`` in float64. Nothing is drawn: the same data give the same
weights, bit for bit, on one machine.

Expert iteration (:func:`train`): round 1's data come from ``pimc`` with ``basic`` rollouts;
each later round's from ``pimc:rollout=learned`` with the previous round's weights, and each
round is fitted on the data of every round so far. Every round's weights are measured on
held-out deals (:func:`strength`, in a process of their own: numba freezes the weights into
the kernels) and the best round is the result. Each step leaves its files in the work folder
(round-N/decisions-P: a verified run folder; round-N/learned.json; round-N/strength.json), so
an interrupted training, run again with the same arguments and ``--resume``, continues
where it stopped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.learn.ass_decisions import FEATURE_COLUMNS
from strategies.ass import learned_weights as lw

RIDGE = 1e-4
EVAL_FIELD = ("careful", "tuned", "basic")  # the learned seat's opponents when measuring


def fit(frame: pd.DataFrame, ridge: float = RIDGE) -> np.ndarray:
    """Weights (PHASES x N_FEATURES) fitted to the decision rows of ``frame`` (module
    docstring). Decisions are told apart by (``run``, ``index``, ``decision``); ``run`` is
    optional (one data set)."""
    keys = ["index", "decision"] + (["run"] if "run" in frame.columns else [])
    weights = np.zeros((lw.PHASES, lw.N_FEATURES))
    for phase in range(lw.PHASES):
        part = frame[frame["phase"] == phase]
        if len(part) == 0:
            continue
        group = part.groupby(keys, sort=True).ngroup().to_numpy()
        x = part[list(FEATURE_COLUMNS)].to_numpy(dtype=np.float64)
        y = part["value"].to_numpy(dtype=np.float64)
        count = np.bincount(group).astype(np.float64)
        xm = np.zeros((len(count), x.shape[1]))
        np.add.at(xm, group, x)
        xm /= count[:, None]
        ym = np.bincount(group, weights=y) / count
        xc = x - xm[group]
        yc = y - ym[group]
        a = xc.T @ xc + ridge * len(part) * np.eye(x.shape[1])
        weights[phase] = np.linalg.solve(a, xc.T @ yc)
    return weights


def read_decisions(paths: list[Path]) -> pd.DataFrame:
    """The rows of finished, verified decision run folders, each tagged with its ``run``."""
    from analyzer.runner.folder import RunFolder, damaged_error

    frames = []
    for number, path in enumerate(paths):
        folder = RunFolder(path)
        plan = folder.read_plan()
        if plan.get("kind") != "decisions" or plan.get("game") != "ass":
            raise CardlabError(f"{path} is not a Who's the Ass? decisions run "
                               "(made by `cardlab decisions ass`)")
        if plan.get("features") != lw.FEATURE_SET:
            raise CardlabError(f"{path} holds features {plan.get('features')!r}; this cardlab "
                               f"trains on {lw.FEATURE_SET!r}: make the data again")
        check = folder.verify(plan)
        if check.damage:
            raise damaged_error(folder, check, "training refused")
        if check.manifest is None:
            raise CardlabError(f"{path} is an unfinished decisions run: finish it with "
                               "`cardlab decisions ass ... --resume` first")
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

    seed: int
    games: int  # games of decision data per round and player count
    players: tuple[int, ...]
    worlds: int
    rounds: int
    eval_games: int
    eval_seed: int

    def to_dict(self) -> dict:
        return {"seed": self.seed, "games": self.games, "players": list(self.players),
                "worlds": self.worlds, "rounds": self.rounds, "eval_games": self.eval_games,
                "eval_seed": self.eval_seed, "features": lw.FEATURE_SET, "ridge": RIDGE}


def _cardlab(args: list[str], env_weights: Path | None) -> None:
    """Run a cardlab command in a process of its own (with ``env_weights`` as the weights)."""
    env = dict(os.environ)
    if env.pop("CARDLAB_NUMBA_CACHE", None):  # chosen here: the child hashes its own weights
        env.pop("NUMBA_CACHE_DIR", None)
    if env_weights is not None:
        env[lw.WEIGHTS_ENV] = str(env_weights)
    else:
        env.pop(lw.WEIGHTS_ENV, None)
    done = subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()",
                           *args], env=env)
    if done.returncode != 0:
        raise CardlabError(f"`cardlab {' '.join(args)}` failed (exit {done.returncode})")


def strength(games: int, seed: int, players: int = 4) -> dict:
    """Mean minus points per game of ``learned`` (the weights this process loaded) and of
    each of :data:`EVAL_FIELD`, on ``games`` deals of ``seed``, duplicate: the four
    strategies in every cyclic order of the seats on the same deals (one core)."""
    from analyzer.engines.kernel import RunSpec
    from analyzer.runner.api import collect

    names = ("learned",) + EVAL_FIELD
    names = names + ("basic",) * (players - len(names))
    sums: dict[str, list[float]] = {}
    for shift in range(players):
        seats = tuple(names[(s - shift) % players] for s in range(players))
        rows = collect(RunSpec("ass", players, seats, seed), games, workers=1)
        per_seat = rows.groupby("seat")["minus_points"].mean()
        for s, name in enumerate(seats):
            sums.setdefault(name, []).append(float(per_seat[s]))
    return {name: float(np.mean(v)) for name, v in sums.items()}


def train(out: Path, plan: TrainPlan, resume: bool, progress: bool, weights_out: Path,
          from_runs: list[Path] | None = None, say=print) -> dict:
    """Expert iteration (module docstring) in work folder ``out``; the best round's weights
    go to ``weights_out``. With ``from_runs``: one fit of those decision runs, no rounds."""
    out.mkdir(parents=True, exist_ok=True)
    plan_file = out / "_train.json"
    doc = plan.to_dict()
    if plan_file.exists():
        old = json.loads(plan_file.read_text())
        if old != doc:
            raise CardlabError(f"{out} holds a training with other parameters; use a new --out")
        if not resume:
            raise CardlabError(f"{out} holds a training already: add --resume to continue it, "
                               "or choose a new --out")
    elif resume:
        raise CardlabError(f"--resume: {out} holds no training to continue")
    plan_file.write_text(json.dumps(doc, indent=1) + "\n")
    command = "cardlab train ass " + " ".join(
        [f"--seed {plan.seed}", f"--games {plan.games}",
         f"--players {','.join(map(str, plan.players))}", f"--worlds {plan.worlds}",
         f"--rounds {plan.rounds}", f"--eval-games {plan.eval_games}",
         f"--eval-seed {plan.eval_seed}"])
    if from_runs:
        frame = read_decisions(from_runs)
        w = fit(frame)
        prov = {"command": command + " --from " + " ".join(map(str, from_runs)),
                "seed": plan.seed, "decisions": int(frame.groupby(["run", "index",
                                                                  "decision"]).ngroups),
                "rows": len(frame), "commit": git_commit()}
        _write(weights_out, w, prov)
        return {"weights": str(weights_out), "rounds": []}
    runs: list[Path] = []
    results = []
    previous: Path | None = None
    for r in range(1, plan.rounds + 1):
        folder = out / f"round-{r}"
        folder.mkdir(exist_ok=True)
        searcher = f"pimc:worlds={plan.worlds}" + (",rollout=learned" if r > 1 else "")
        for players in plan.players:
            data = folder / f"decisions-{players}"
            args = ["decisions", "ass", "--out", str(data), "--games", str(plan.games),
                    "--seed", str(plan.seed + 1000 * r + players), "--players", str(players),
                    "--searcher", searcher]
            if not (data / "_manifest.json").exists():
                say(f"round {r}: decision data at {players} players ({searcher})")
                _cardlab(args + (["--resume"] if (data / "_run.json").exists() else [])
                         + ([] if progress else ["--quiet"]), previous)
            runs.append(data)
        weights_file = folder / "learned.json"
        frame = read_decisions(runs)
        w = fit(frame)
        prov = {"command": command, "seed": plan.seed, "round": r,
                "decisions": int(frame.groupby(["run", "index", "decision"]).ngroups),
                "rows": len(frame), "games": plan.games * len(plan.players) * r,
                "searchers": sorted({f"pimc:worlds={plan.worlds}"}
                                    | ({f"pimc:worlds={plan.worlds},rollout=learned"}
                                       if r > 1 else set())),
                "commit": git_commit()}
        _write(weights_file, w, prov)
        strength_file = folder / "strength.json"
        if not strength_file.exists():
            say(f"round {r}: measuring on {plan.eval_games} held-out deals x 4 seatings")
            _cardlab(["learn-strength", "--games", str(plan.eval_games), "--seed",
                      str(plan.eval_seed), "--out", str(strength_file)], weights_file)
        measured = json.loads(strength_file.read_text())
        say(f"round {r}: learned {measured['learned']:.2f} minus points per game "
            f"(careful {measured['careful']:.2f}, tuned {measured['tuned']:.2f}, "
            f"basic {measured['basic']:.2f})")
        results.append({"round": r, **measured})
        previous = weights_file
    best = min(results, key=lambda x: (x["learned"], x["round"]))
    chosen = out / f"round-{best['round']}" / "learned.json"
    doc = json.loads(chosen.read_text())
    doc["provenance"]["rounds"] = results
    doc["provenance"]["best_round"] = best["round"]
    _write(weights_out, np.array(doc["weights"]), doc["provenance"])
    return {"weights": str(weights_out), "rounds": results, "best": best["round"]}


def _write(path: Path, weights: np.ndarray, provenance: dict) -> None:
    from analyzer.runner.folder import atomic_write_bytes

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, lw.weights_text(weights, provenance).encode())

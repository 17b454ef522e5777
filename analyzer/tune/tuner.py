"""Tune the knobs of a strategy family for one seat against a field, in the duplicate format.

A candidate is judged by its mean result when it takes each seat in turn against the field
on the same deals (:func:`analyzer.stats.duplicate.seat_swaps`): seat luck cancels, and all
candidates of one step play the very same deals (common random numbers), so their ranking
within a step is sharp. Every step plays *fresh* deals (the tuning seed's indices are used
once, in order), so the result cannot overfit a fixed deal set.

Two stages share the budget of games:

1. **Discrete knobs** (named choices, small integer ranges) by successive halving: every
   combination plays the same fresh deals, the better half goes on to the next round with
   more deals each, until one is left. Combinations whose games were identical on every deal
   played so far make the same decisions (e.g. ``keep`` when jokers are not kept): they are
   merged into one (the first in order, the start's combination first) and never compared
   with each other.
2. **Continuous knobs** by CMA-ES (``cma``, on the unit cube, the discrete winner fixed). Each
   generation's candidates play the same fresh deals. The answer is the distribution's mean
   (``xfavorite``), the estimate that the noise of single evaluations does not pull around.

The run's state (stage, survivors and sums, the pickled CMA-ES object, deals used) is saved
after every round or generation to a JSON state file, so an interrupted run continues where
it stopped, with the same deals, giving the same answer as an uninterrupted one.
``confirm`` then plays held-out deals (another seed) until the sequential test
(:mod:`analyzer.stats.sequential`) decides the tuned strategy against the start preset.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import pickle
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import CardlabError, CardlabIOError
from analyzer.runner.play import Backend, make_spec
from analyzer.stats.duplicate import seat_swaps
from analyzer.stats.sequential import SequentialResult, run_sequential_many
from analyzer.tune.space import Space

STATE_FORMAT = "cardlab-tune/1"
PROBE_DEALS = 200  # held-out deals on which two candidates' games are compared
MIN_DEALS = 16  # fewest deals per candidate in one step
MERGE_MIN_DEALS = 100  # candidates merged only when identical on at least this many deals
IN_PROCESS_GAMES = 20_000  # steps up to this many games per table skip the worker pool
CONFIRM_SEED_OFFSET = 1  # held-out deals: the tuning seed + 1, which tuning never plays
PROBE_SEED_OFFSET = 2  # deals that check whether continuous knobs matter at all


@dataclass(frozen=True)
class TuneSettings:
    """Everything that fixes a tuning run's answer (a resumed run must match it)."""

    game: str
    players: int
    field: tuple[str, ...]
    start: str
    knobs: tuple[str, ...]
    budget: int
    seed: int
    metric: str
    lower: bool
    mode: str = ""
    rules: tuple[tuple[str, Any], ...] = ()
    deals_per_step: int = 0  # 0: sized from the budget
    discrete_share: float = 0.5  # of the budget, when there are continuous knobs too
    sigma0: float = 0.3

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["field"] = list(self.field)
        d["knobs"] = list(self.knobs)
        d["rules"] = [list(r) for r in self.rules]
        return d


@dataclass
class TuneOutcome:
    """The tuned candidate and how the run got there."""

    label: str
    values: dict[str, str]
    start: str
    games: int
    history: list[dict[str, Any]] = field(default_factory=list)
    merged: list[list[str]] = field(default_factory=list)
    inert: list[str] = field(default_factory=list)  # knobs that change no game here


def discrete_budget(budget: int, space: Space,
                    share: float = TuneSettings.discrete_share) -> int:
    """The games of ``budget`` that go to the discrete knobs (stage 1)."""
    if not space.continuous:
        return budget
    if len(space.combos()) <= 1:
        return 0
    return int(budget * share)


def check_budget(budget: int, players: int, space: Space,
                 share: float = TuneSettings.discrete_share) -> None:
    """One line (CardlabError) when ``budget`` cannot pay the first round of the discrete
    knobs: each combination on ``MIN_DEALS`` deals in every seat. Callers check it before any
    game is played."""
    combos = len(space.combos())
    need = combos * players * MIN_DEALS
    if combos > 1 and need > discrete_budget(budget, space, share):
        raise CardlabError(
            f"a budget of {budget:,} games is too small for {combos} "
            f"combinations of {', '.join(k.name for k in space.discrete)}: the first "
            f"round alone needs {need:,} for the discrete knobs; raise --games or tune "
            "fewer knobs (--knob)")


class Tuner:
    """One tuning run; ``run()`` goes to the end (or to where the budget stops it)."""

    def __init__(self, backend: Backend, settings: TuneSettings, space: Space,
                 state_path: str | Path | None = None,
                 on_games: Callable[[int, int], None] | None = None):
        if settings.budget < 1:
            raise CardlabError(f"the budget must be a positive number of games, got "
                               f"{settings.budget}")
        self.backend = backend
        self.s = settings
        self.space = space
        self.state_path = Path(state_path) if state_path else None
        self.on_games = on_games or (lambda done, total: None)
        self.base_spec = make_spec(backend, settings.game, settings.players,
                                   [settings.field[0]] * settings.players, settings.seed,
                                   settings.mode, dict(settings.rules))
        self.field = list(settings.field)
        seat_swaps("x", self.field, settings.players)  # checks the field's size now
        self.state = self._load_or_new()

    # ----------------------------------------------------------------------- state
    def _new_state(self) -> dict[str, Any]:
        return {"format": STATE_FORMAT, "settings": self.s.to_dict(), "stage": "discrete",
                "games": 0, "next_deal": 0, "history": [], "merged": [],
                "arms": None, "sums": None, "deals": 0, "round": 0,
                "combo": list(self.space.start_point()[0]), "cma": None}

    def _load_or_new(self) -> dict[str, Any]:
        if self.state_path is None or not self.state_path.exists():
            return self._new_state()
        try:
            state = json.loads(self.state_path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CardlabError(f"state file {self.state_path} is not readable: {exc}") from None
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            raise CardlabError(f"{self.state_path} is not a cardlab tune state file; choose "
                               "another --state")
        if state.get("settings") != json.loads(json.dumps(self.s.to_dict())):
            raise CardlabError(f"state file {self.state_path} belongs to a run with other "
                               "settings; repeat that run's options or choose another --state")
        problem = self._state_problem(state)
        if problem:
            raise CardlabError(f"state file {self.state_path} is damaged: {problem}; delete it "
                               "to start over, or choose another --state")
        return state

    def _state_problem(self, st: dict[str, Any]) -> str | None:
        """What is wrong with a loaded state (a field named), or None."""
        def count(v: Any) -> bool:
            return isinstance(v, int) and not isinstance(v, bool) and v >= 0

        def number(v: Any) -> bool:
            return (isinstance(v, (int, float)) and not isinstance(v, bool)
                    and math.isfinite(v))

        discrete = self.space.discrete

        def combo(v: Any) -> bool:
            return (isinstance(v, list) and len(v) == len(discrete)
                    and all(number(x) and float(x) in k.values
                            for x, k in zip(v, discrete, strict=True)))

        def strings(v: Any, n: int | None = None) -> bool:
            return (isinstance(v, list) and all(isinstance(x, str) for x in v)
                    and (n is None or len(v) == n))

        if st.get("stage") not in ("discrete", "cma", "done"):
            return f"'stage' must be discrete, cma or done; got {st.get('stage')!r}"
        for key in ("games", "next_deal", "deals", "round"):
            if not count(st.get(key)):
                return f"{key!r} must be a whole number >= 0; got {st.get(key)!r}"
        if not isinstance(st.get("history"), list) or not all(
                isinstance(h, dict) for h in st["history"]):
            return f"'history' must be a list of steps; got {_short(st.get('history'))}"
        if not isinstance(st.get("merged"), list) or not all(
                strings(m, 2) for m in st["merged"]):
            return f"'merged' must be a list of label pairs; got {_short(st.get('merged'))}"
        if not combo(st.get("combo")):
            return (f"'combo' must hold one value of each discrete knob "
                    f"({', '.join(k.name for k in discrete) or 'none'}); got "
                    f"{_short(st.get('combo'))}")
        arms = st.get("arms")
        if arms is not None:
            if not isinstance(arms, list) or not arms or not all(combo(a) for a in arms):
                return f"'arms' must be a list of knob combinations; got {_short(arms)}"
            sums = st.get("sums")
            if not isinstance(sums, list) or len(sums) != len(arms) or not all(
                    number(x) for x in sums):
                return f"'sums' must hold one number per arm; got {_short(sums)}"
            if not strings(st.get("prints"), len(arms)):
                return f"'prints' must hold one text per arm; got {_short(st.get('prints'))}"
        if "inert" in st and not strings(st["inert"]):
            return f"'inert' must be a list of knob names; got {_short(st['inert'])}"
        if st.get("cma") is not None:
            try:
                pickle.loads(base64.b64decode(st["cma"], validate=True))
            except Exception:  # noqa: BLE001 - any failure to unpickle means a damaged field
                return "'cma' is not a saved CMA-ES state"
        return None

    def _save(self) -> None:
        """Write the state to a temporary name and rename it (the previous state is kept when
        the disk is full; no temporary file is left)."""
        if self.state_path is None:
            return
        tmp = self.state_path.with_name(f".{self.state_path.name}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps(self.state, indent=1) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.state_path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise CardlabIOError(f"cannot save the tuning state to {self.state_path}: "
                               f"{exc.strerror or exc}; the state saved before is kept") from None

    # ------------------------------------------------------------------ evaluation
    def _rows(self, spec, start: int, count: int) -> dict[str, np.ndarray]:
        """Result rows (ordered by index, seat) as arrays. Small steps on the real engines
        call the kernel in this process: the runner's set-up would cost more than the games."""
        from analyzer.runner.play import KernelBackend

        if isinstance(self.backend, KernelBackend) and count * spec.players <= IN_PROCESS_GAMES:
            from analyzer.engines.kernel import kernel_module

            kernel = kernel_module(spec.game)
            return kernel.play_chunk(kernel.validate(spec), start, count)
        rows = self.backend.collect(self.backend.validate(spec), count, start)
        return {c: rows[c].to_numpy() for c in rows.columns}

    def _rows_many(self, specs: list, start: int, count: int) -> list[dict[str, np.ndarray]]:
        """:meth:`_rows` of each spec. With worker processes to use, every table of the step
        goes through the pool in one pass (runner ``collect_many``): one table at a time, each
        small step played in this process and left the other cores idle."""
        from analyzer.runner.backends import cpu_count
        from analyzer.runner.play import KernelBackend, collect_all

        if type(self.backend) is KernelBackend and (self.backend.workers or cpu_count()) > 1:
            frames = collect_all(self.backend, [(self.backend.validate(spec), count, start)
                                                for spec in specs])
            return [{c: rows[c].to_numpy() for c in rows.columns} for rows in frames]
        return [self._rows(spec, start, count) for spec in specs]

    def evaluate(self, labels: list[str], start: int, count: int, seed: int | None = None):
        """Per-deal mean result of each candidate (rows: candidates, columns: deals) and a
        fingerprint of its games, on deals start..start+count-1 of ``seed``."""
        from dataclasses import replace

        base = self.base_spec if seed is None else replace(self.base_spec, seed=seed)
        n = self.s.players
        specs = [replace(base, strategies=tuple(seats))
                 for label in labels for seats in seat_swaps(label, self.field, n)]
        tables = iter(self._rows_many(specs, start, count))
        means, prints = [], []
        for _ in labels:
            total = np.zeros(count)
            digest = hashlib.sha1()
            for seat in range(n):  # seat by seat
                rows = next(tables)
                mine = rows["seat"] == seat
                value = rows[self.s.metric][mine].astype(np.float64)
                total += value
                for col in sorted(rows):
                    if col not in ("index", "seat") and rows[col].dtype.kind in "biuf":
                        digest.update(np.ascontiguousarray(rows[col][mine],
                                                           dtype=np.float64).tobytes())
            means.append(total / n)
            prints.append(digest.hexdigest())
        return np.array(means), prints

    def _spend(self, count: int, candidates: int, step: dict[str, Any]) -> None:
        self.state["games"] += count * candidates * self.s.players
        self.state["next_deal"] += count
        self.state["history"].append(step)
        self._save()
        self.on_games(self.state["games"], self.s.budget)

    def _score(self, means: np.ndarray) -> np.ndarray:
        """Smaller is better (CMA-ES minimises)."""
        return means if self.s.lower else -means

    # -------------------------------------------------------------------- stage 1
    def _discrete_budget(self) -> int:
        return discrete_budget(self.s.budget, self.space, self.s.discrete_share)

    def _discrete(self) -> None:
        st = self.state
        combos = [tuple(c) for c in self.space.combos()]
        cont = self.space.start_point()[1]
        if len(combos) <= 1:
            st["combo"] = list(combos[0]) if combos else []
            st["stage"] = "cma"
            return
        if st["arms"] is None:
            st["arms"] = [list(c) for c in combos]
            st["sums"] = [0.0] * len(combos)
            st["prints"] = [""] * len(combos)
        check_budget(self.s.budget, self.s.players, self.space, self.s.discrete_share)
        rounds = max(1, math.ceil(math.log2(len(combos))))
        per_round = self._discrete_budget() / rounds
        while len(st["arms"]) > 1:
            arms = [tuple(a) for a in st["arms"]]
            spent = st["games"]
            if spent >= self._discrete_budget() and st["deals"] > 0:
                break
            count = self.s.deals_per_step or int(per_round / (len(arms) * self.s.players))
            count = max(MIN_DEALS, count)
            labels = [self.space.label(a, cont) for a in arms]
            means, prints = self.evaluate(labels, st["next_deal"], count)
            sums = np.array(st["sums"]) + self._score(means).sum(axis=1)
            chain = [hashlib.sha1((old + new).encode()).hexdigest()
                     for old, new in zip(st["prints"], prints, strict=True)]
            # merge candidates whose games were identical on every deal so far (from
            # MERGE_MIN_DEALS on: a few deals do not show that two candidates never differ)
            keep, seen = [], {}
            merging = st["deals"] + count >= MERGE_MIN_DEALS
            for i, h in enumerate(chain):
                if merging and h in seen:
                    st["merged"].append([labels[seen[h]], labels[i]])
                else:
                    seen.setdefault(h, i)
                    keep.append(i)
            deals = st["deals"] + count
            order = sorted(keep, key=lambda i: (sums[i], i))
            survivors = order[: max(1, math.ceil(len(order) / 2))]
            survivors.sort()
            st["arms"] = [list(arms[i]) for i in survivors]
            st["sums"] = [float(sums[i]) for i in survivors]
            st["prints"] = [chain[i] for i in survivors]
            st["deals"] = deals
            st["round"] += 1
            best = order[0]
            self._spend(count, len(arms), {
                "stage": "discrete", "round": st["round"], "candidates": len(arms),
                "distinct": len(keep), "deals": count, "best": labels[best],
                "best_mean": float(sums[best] / deals * (1 if self.s.lower else -1))})
        scores = np.array(st["sums"])
        st["combo"] = st["arms"][int(np.argmin(scores))]
        st["stage"] = "cma"
        self._save()

    # -------------------------------------------------------------------- stage 2
    def _cma(self) -> None:
        import cma

        st = self.state
        knobs = self.space.continuous
        combo = tuple(st["combo"])
        if not knobs:
            st["stage"] = "done"
            self._save()
            return
        if st["cma"] is None and not self._continuous_matters(combo):
            st["inert"] = [k.name for k in knobs]
            st["stage"] = "done"
            self._save()
            return
        # cma needs two coordinates at least; a lone knob gets an inert second one
        dims = max(2, len(knobs))
        if st["cma"] is None:
            x0 = [k.to_unit(k.start) for k in knobs] + [0.5] * (dims - len(knobs))
            opts = {"bounds": [0.0, 1.0], "verbose": -9, "seed": self.s.seed % 2**31 + 1}
            es = cma.CMAEvolutionStrategy(x0, self.s.sigma0, opts)
            st["cma"] = base64.b64encode(pickle.dumps(es)).decode()
        es = pickle.loads(base64.b64decode(st["cma"]))
        lam = es.popsize
        left = self.s.budget - self._discrete_budget()
        count = self.s.deals_per_step or int(left / (lam * self.s.players * 12))
        count = max(MIN_DEALS, count)
        while st["games"] + count * lam * self.s.players <= self.s.budget or es.countiter == 0:
            saved = np.random.get_state()
            # cma samples from numpy's global generator: seed it per generation, so that a
            # resumed run draws exactly what an uninterrupted one would
            np.random.seed((self.s.seed * 1_000_003 + es.countiter) % 2**32)
            try:
                xs = es.ask()
            finally:
                np.random.set_state(saved)
            labels = [self.space.label(combo, tuple(k.from_unit(x[i])
                                                    for i, k in enumerate(knobs)))
                      for x in xs]
            means, _ = self.evaluate(labels, st["next_deal"], count)
            f = self._score(means).mean(axis=1)
            es.tell(xs, f.tolist())
            st["cma"] = base64.b64encode(pickle.dumps(es)).decode()
            # go on from the saved copy, exactly as a resumed run does
            es = pickle.loads(base64.b64decode(st["cma"]))
            best = int(np.argmin(f))
            self._spend(count, lam, {"stage": "cma", "generation": es.countiter,
                                     "candidates": lam, "deals": count,
                                     "best": labels[best], "best_mean": float(means[best].mean()),
                                     "mean": self._label_at(combo, es.result.xfavorite)})
        st["stage"] = "done"
        self._save()

    def _continuous_matters(self, combo: tuple) -> bool:
        """Whether the continuous knobs change any game with this discrete combination: the
        start's values against each knob at 0.1 and 0.9 of its range, on probe deals."""
        knobs = self.space.continuous
        start = self.space.start_point()[1]
        points = [start]
        for i, k in enumerate(knobs):
            for u in (0.1, 0.9):
                points.append(tuple(k.from_unit(u) if j == i else v
                                    for j, v in enumerate(start)))
        labels = [self.space.label(combo, p) for p in points]
        _, prints = self.evaluate(labels, 0, PROBE_DEALS, seed=self.s.seed + PROBE_SEED_OFFSET)
        return len(set(prints)) > 1

    def _label_at(self, combo: tuple, x) -> str:
        knobs = self.space.continuous
        return self.space.label(combo, tuple(k.from_unit(x[i]) for i, k in enumerate(knobs)))

    # ------------------------------------------------------------------- the run
    def run(self) -> TuneOutcome:
        """Tune until the budget is spent (or continue a saved run); return the answer."""
        st = self.state
        self.on_games(st["games"], self.s.budget)
        if st["stage"] == "discrete":
            self._discrete()
        if st["stage"] == "cma":
            self._cma()
        combo = tuple(st["combo"])
        if st["cma"] is not None:
            es = pickle.loads(base64.b64decode(st["cma"]))
            text = self._label_at(combo, es.result.xfavorite)
        else:
            text = self.space.label(combo, self.space.start_point()[1])
        label = self.backend.canonical(self.s.game, text)
        values = dict(item.split("=", 1) for item in text.partition(":")[2].split(",") if item)
        return TuneOutcome(label, values, self.s.start, st["games"], list(st["history"]),
                           list(st["merged"]), list(st.get("inert", [])))


def _short(value: Any) -> str:
    """A field's value for an error line, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def distinct_play(tuner: Tuner, labels: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """``labels`` without those that play exactly as an earlier one (identical games on
    PROBE_DEALS held-out deals in every seat), and the (kept, dropped) pairs."""
    if len(labels) < 2:
        return list(labels), []
    _, prints = tuner.evaluate(labels, 0, PROBE_DEALS, seed=tuner.s.seed + CONFIRM_SEED_OFFSET)
    kept, same, first = [], [], {}
    for label, h in zip(labels, prints, strict=True):
        if h in first:
            same.append((first[h], label))
        else:
            first[h] = label
            kept.append(label)
    return kept, same


def confirm(tuner: Tuner, tuned: str, baselines: list[str], budget: int, alpha: float = 0.05,
            batch: int = 500) -> list[SequentialResult]:
    """Tuned against each baseline, every one in every seat against the field, on held-out
    deals (seed + CONFIRM_SEED_OFFSET) until the sequential test decides or ``budget`` deals
    are played. Each result is for the difference tuned - baseline of the metric."""
    seed = tuner.s.seed + CONFIRM_SEED_OFFSET

    def next_batch(start: int, count: int) -> np.ndarray:
        means, _ = tuner.evaluate([tuned, *baselines], start, count, seed=seed)
        return np.column_stack([means[0] - means[j] for j in range(1, len(means))])

    return run_sequential_many(next_batch, len(baselines), budget, batch, alpha,
                               min_n=min(100, budget))


def gain_sentence(tuned: str, base: str, role: str, res: SequentialResult, metric: str,
                  lower: bool, unit: str) -> str:
    """The confirmed gain of ``tuned`` over ``base`` in words (positive: tuned is better)."""
    from analyzer.runner.manifest import plural
    from analyzer.text import metric_words, pm

    sign = -1.0 if lower else 1.0
    gain = sign * res.estimate
    lo, hi = sorted((sign * res.low, sign * res.high))
    half = (hi - lo) / 2
    verdict = {"a-lower": "tuned is better" if lower else "tuned is worse",
               "a-higher": "tuned is worse" if lower else "tuned is better",
               "equivalent": "no difference as large as the margin",
               "undecided": "not decided within the budget"}[res.decision]
    return (f"gain of {tuned} over {base} ({role}): {pm(gain, half)} {metric_words(metric)} "
            f"per {unit} ({'less' if lower else 'more'} is the gain; {verdict}; interval "
            f"[{lo:.4g}, {hi:.4g}] from a confidence sequence at error rate {res.alpha:.3g}, "
            f"valid at every look; {res.n:,} held-out {plural(unit)}, each candidate in every "
            "seat)")

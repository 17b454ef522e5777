"""Decision data of Who's the Ass?: what ``pimc`` thinks of every natural move.

Game ``index`` of a run (seed, players, searcher) is dealt and played as the reference engine
plays game (seed, index) (analyzer/engines/ass/reference.py: the same deal, the same stream),
with the searcher in every seat. At every decision with more than one natural move
(strategies/ass/learned.py ``candidates``) the searcher values each of them with ``pimc``'s
search (strategies/ass/pimc.py ``search_values``: the same worlds for every candidate, every
candidate rolled out in every world) and plays the one with the fewest expected minus
points (ties to the earlier). One row per candidate:

``index`` game, ``decision`` its number within the game, ``seat``, ``phase`` (0 leading, 1
following, 2 ass round), ``move`` (code, cards.py), ``chosen`` (played), ``value`` (mean
minus points of the decider at the end of the game over the worlds), ``spread`` (their
standard deviation), ``worlds`` (how many), ``f0``.. (the model's features, float32).

The features are computed from the decider's view only (A-11), by the very function the
``learned`` policy evaluates, so training sees exactly what play sees.

With a *field* (one strategy) or a *field mix* (a tuple: ``cardlab decisions ass --field-mix
careful+learned+pimc``, each other seat of game ``index`` drawn from it,
analyzer/learn/decisions.py ``draw_field``): the searcher values the decisions of one seat
only, seat ``index mod players``, and that seat plays the move of the ``learned`` weights in
use, not pimc's (``chosen`` still marks pimc's); the other seats play their strategies. The
searcher's labels draw their worlds from a stream of their own (``LABEL_STREAM``), so the game
is exactly the reference engine's game (seed, index) with those seats (DAgger, Ross et al.
2011: the positions the learned player reaches itself).
"""

from __future__ import annotations

import numpy as np

from analyzer.engines.ass.reference import (
    Player,
    Table,
    Turn,
    deal,
    dealt_known,
    play_from,
)
from analyzer.games.ass.cards import PASS, SCRATCH, decode
from analyzer.games.ass.rules import AssRules
from analyzer.learn import mlp
from analyzer.learn.decisions import LABEL_STREAM, columns, draw_field
from analyzer.rng import PyRng
from strategies.ass import learned, learned_weights
from strategies.ass.catalog import SEARCH_FAMILIES
from strategies.ass.pimc import search_values
from strategies.registry import Strategy, parse_strategy

FEATURE_COLUMNS = tuple(f"f{i}" for i in range(learned.N_FEATURES))
COLUMNS = ("index", "decision", "seat", "phase", "move", "chosen", "value", "spread",
           "worlds") + FEATURE_COLUMNS


class _Recorder(Player):
    """A search seat that records every decision with a choice into ``rows``; with
    ``labels`` (a stream of its own) the search draws from it and the seat plays
    ``learned``'s move (DAgger)."""

    def __init__(self, strategy: Strategy, rng: PyRng, rows: dict, game: int,
                 labels: PyRng | None = None) -> None:
        super().__init__(strategy, rng)
        self.rows = rows
        self.game = game
        self.labels = labels
        # the learner's knobs (DAgger): learned's defaults, its network (the round before's)
        self.learner = parse_strategy("ass", "learned").values if labels is not None else None

    def move(self, table: Table, turn: Turn, starter: int, high_seat: int, on_table: list[int]):
        view = table.view(turn, starter, high_seat, on_table)
        m = int(learned.candidates(view))
        cands = view[SCRATCH:SCRATCH + m].copy()
        if m == 1:
            code = int(cands[0])
            return None if code == PASS else decode(code)
        totals = np.zeros(m)
        squares = np.zeros(m)
        rng = self.rng if self.labels is None else self.labels
        state = rng.as_array()
        weight = float(search_values(self.strategy.family, tuple(self.strategy.values), view,
                                     state, table.record_array(), cands, m, totals, squares))
        rng.load_array(state)
        mean = totals / weight
        spread = np.sqrt(np.maximum(squares / weight - mean * mean, 0.0))
        best = int(np.argmin(mean))  # the first of equals
        feats = np.zeros(learned.N_FEATURES)
        rows = self.rows
        decision = rows["_decisions"]
        rows["_decisions"] = decision + 1
        phase = int(learned.phase_of(view))
        worlds = int(self.strategy.values[0])
        for i in range(m):
            learned.features(view, int(cands[i]), feats, 0)
            rows["index"].append(self.game)
            rows["decision"].append(decision)
            rows["seat"].append(turn.seat)
            rows["phase"].append(phase)
            rows["move"].append(int(cands[i]))
            rows["chosen"].append(i == best)
            rows["value"].append(float(mean[i]))
            rows["spread"].append(float(spread[i]))
            rows["worlds"].append(worlds)
            rows["features"].append(feats.astype(np.float32))
        code = int(cands[best])
        if self.labels is not None:  # the learner's own move (the reference's learned seat)
            code = int(learned.choose_model_py(self.learner,
                                               table.view(turn, starter, high_seat, on_table)))
        return None if code == PASS else decode(code)


def play_games(seed: int, start: int, count: int, players: int, searcher: Strategy,
               field: Strategy | tuple[Strategy, ...] | None = None,
               check=None) -> dict[str, np.ndarray]:
    """The decision rows (module docstring) of games ``start .. start+count-1``; ``check()``
    (analyzer/runner/interrupts.py) is called after each, to stop on Ctrl-C."""
    if searcher.family not in SEARCH_FAMILIES or searcher.spec.name == "peek":
        raise ValueError("the searcher must be pimc")
    if isinstance(field, Strategy) and field.family in SEARCH_FAMILIES:
        raise ValueError("the field must not search (a field mix may hold the searcher)")
    rows: dict = {name: [] for name in COLUMNS[:9]}
    rows["features"] = []
    rules = AssRules.for_players(players)
    for index in range(start, start + count):
        rows["_decisions"] = 0
        rng = PyRng(seed, index, 0)
        hands, ass_seat = deal(rules, rng)
        table = Table(rules, hands, known=dealt_known(players, ass_seat))
        if field is None:
            seats = [_Recorder(searcher, rng, rows, index) for _ in range(players)]
        else:  # DAgger: learned in seat index mod players, labelled; the field elsewhere
            others = (draw_field(field, seed, index, players) if isinstance(field, tuple)
                      else [field] * players)
            labels = PyRng(seed, index, LABEL_STREAM)
            seats = [_Recorder(searcher, rng, rows, index, labels) if s == index % players
                     else Player(others[s], rng) for s in range(players)]
        play_from(table, seats, ass_seat)
        if check is not None:
            check()
    return columns(rows, learned.N_FEATURES)


GAME = "ass"
# a training plan names no game: the plans of Who's the Ass? read as before (learn.train)
PLAN_NAMES_GAME = False
UNIT = "game"
CHUNK = 25  # games per part file
MODEL = learned


# --- training (analyzer/learn/train.py) --------------------------------------------------------

WEIGHTS_FILE = learned_weights.MODEL  # the weights file's shape, checks and writing
DEFAULTS = {"games": 1500, "players": "4,6", "worlds": 64, "rounds": 2, "eval_games": 3000,
            "eval_seed": 9923, "out": "runs/train-ass", "shipped_seed": 23,
            # rounds 2..: learned in one seat, each other seat drawn from this mix
            # (analyzer/learn/decisions.py), pimc (LATER_ROLLOUT) labelling its decisions
            # (pimc-rollouts: pimc as it was when the mix was measured, docs/learned.md)
            "field_mix": "pimc-rollouts+pimc-rollouts+learned+careful+tuned+basic+set-saver"
                         "+chaser"}
# Rounds 2 and on without a field mix: the searcher in every seat (the shipped weights).
LATER_FIELD = None
# The searcher of every round, as the shipped network was made: pimc with its value model at
# the leaves (rollout=value: learned-linear finishes a leaf's round, so the labels do not
# depend on the round before's network) and infer=policy, 64 worlds.
SEARCHER_KNOBS = "infer=policy"
FIRST_ROLLOUT = "value"
LATER_ROLLOUT = "value"
NO_FIELD_ROLLOUT = "value"  # rounds 2.. with --field-mix none (analyzer/learn/train.py)
EVAL_FIELD = ("careful", "tuned", "basic")  # the learned seat's opponents when measuring
EVAL_UNIT = "deals"  # what strength() plays
LOWER_IS_BETTER = True  # the strength is minus points
# what fixes the fit (in the training's plan)
FIT_PLAN = {"hidden": learned.HIDDEN, "epochs": mlp.EPOCHS, "batch": mlp.BATCH,
            "rate": mlp.RATE, "final_rate": mlp.FINAL_RATE, "decay": mlp.DECAY}


def fit_weights(frame, seed: int) -> np.ndarray:
    """The network's weights (analyzer/learn/mlp.py), its start drawn from ``seed``."""
    return mlp.fit(frame, learned.PHASES, learned.HIDDEN, seed)


def strength(games: int, seed: int) -> dict:
    """Mean minus points per game of ``learned`` (the weights this process loaded) and of
    each of :data:`EVAL_FIELD`, on ``games`` deals of ``seed`` at 4 players, duplicate: the
    four strategies in every cyclic order of the seats on the same deals (one core).
    ``learned`` is the figure training compares."""
    from analyzer.engines.kernel import RunSpec
    from analyzer.runner.api import collect

    players = 4
    names = ("learned",) + EVAL_FIELD
    sums: dict[str, list[float]] = {}
    for shift in range(players):
        seats = tuple(names[(s - shift) % players] for s in range(players))
        rows = collect(RunSpec(GAME, players, seats, seed), games, workers=1)
        per_seat = rows.groupby("seat")["minus_points"].mean()
        for s, name in enumerate(seats):
            sums.setdefault(name, []).append(float(per_seat[s]))
    return {name: float(np.mean(v)) for name, v in sums.items()}


def describe(measured: dict) -> str:
    """One line of a round's strength."""
    return (f"learned {measured['learned']:.2f} minus points per game (careful "
            f"{measured['careful']:.2f}, tuned {measured['tuned']:.2f}, basic "
            f"{measured['basic']:.2f})")


def run_decisions(out, seed: int, count: int, players: int, searcher: Strategy,
                  resume: bool, progress: bool, start: int = 0,
                  field: Strategy | tuple[Strategy, ...] | None = None,
                  repair: bool = False) -> dict:
    """Play games ``start .. start+count-1`` and write their decision rows to the run folder
    ``out`` (analyzer/learn/decisions.py). Returns the manifest."""
    import sys

    from analyzer.learn.decisions import run_decisions as run

    return run(sys.modules[__name__], out, seed, count, players, searcher, resume, progress,
               start, field, repair)

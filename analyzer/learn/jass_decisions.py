"""Decision data of Plus-Minus Jass: what ``pimc`` thinks of every legal card.

Deal ``index`` of a run (seed, players, searcher) is dealt and played as the reference engine
plays single deal (seed, index) (analyzer/engines/jass/reference.py: the same deal, the same
stream), with the searcher in every seat. At every decision with two or more legal cards the
searcher values each of them with ``pimc``'s search (strategies/jass/search.py
``search_values``: the same worlds for every card, every card rolled out in every world) and
plays the one of the best value (ties to the earlier in the search's prior order): exactly
the card ``pimc`` plays. One row per legal card:

``index`` deal, ``decision`` its number within the deal, ``seat``, ``phase`` (0 leading, 1
following with trump fixed, 2 following before trump is fixed), ``move`` (the card, 0..35),
``chosen`` (played), ``value`` (mean sticks the deal brings the decider over the worlds, as
the search's objective counts them), ``spread`` (their standard deviation), ``worlds`` (how
many), ``f0``.. (the model's features, float32).

The features are computed from the decider's hand and the public state only (J-11), by the
very function the ``learned`` policy evaluates, so training sees exactly what play sees.

With a *field* (``cardlab decisions jass --strategy aim-low``): the searcher values the
decisions of one seat only, seat ``index mod players``, and that seat plays the card of the
``learned`` weights in use, not pimc's (``chosen`` still marks pimc's); the other seats play
the field. These are the positions the learned player reaches itself against that field,
labelled by the search (DAgger, Ross et al. 2011): the later rounds of ``cardlab train jass``.
With a *field mix* (``--field-mix aim-low+learned+pimc``: a tuple of strategies) each other
seat of deal ``index`` is drawn from the mix (analyzer/learn/decisions.py ``draw_field``,
reproducibly from (seed, index), a stream of its own: the deal and every seat's draws stay
those of the reference engine); ``learned`` in the mix plays the weights in use, like the
searched seat, and ``pimc`` in the mix searches with its own knobs. The searcher's labels
then draw their worlds from a stream of their own (``LABEL_STREAM``), so the deal is played
exactly as the reference engine plays it with the drawn seats (a searching seat of the mix
draws from the deal's stream).
"""

from __future__ import annotations

import numpy as np

from analyzer.engines.jass.reference import ReferenceJass
from analyzer.games.jass.cards import cards_mask
from analyzer.games.jass.rules import make_rules
from analyzer.learn import mlp
from analyzer.learn.decisions import LABEL_STREAM, columns, draw_field
from analyzer.rng import PyRng
from strategies.jass import learned, learned_weights
from strategies.jass.knobs import FAM_PIMC
from strategies.jass.search import decision_worlds, search_values
from strategies.registry import Strategy, parse_strategy

GAME = "jass"
PLAN_NAMES_GAME = True  # a plan says its game (analyzer.learn.train)
UNIT = "deal"
CHUNK = 50  # deals per part file
MODEL = learned
FEATURE_COLUMNS = tuple(f"f{i}" for i in range(learned.N_FEATURES))
COLUMNS = ("index", "decision", "seat", "phase", "move", "chosen", "value", "spread",
           "worlds") + FEATURE_COLUMNS


class _Recorder(ReferenceJass):
    """The reference engine with the searcher in every seat, recording every decision with a
    choice into ``rows``; with a ``field``, the searcher in seat :meth:`searched` only, the
    field in the others, and the searched seat playing ``learned``'s card."""

    def __init__(self, rules, searcher: Strategy, rows: dict,
                 field: Strategy | tuple[Strategy, ...] | None = None) -> None:
        super().__init__(rules, [searcher] * rules.players)
        self.field = field
        self.labels: PyRng | None = None  # the labels' own stream (a field mix)
        self.learner = parse_strategy(GAME, "learned") if field is not None else None
        self.rows = rows
        self.index = 0
        self.prm = np.array(searcher.values, dtype=np.float64)
        self.feats = np.zeros(learned.N_FEATURES)
        self.cands = np.zeros(12, dtype=np.int64)
        self.scores = np.zeros(12)
        self.squares = np.zeros(12)

    def searched(self, index: int) -> int:
        """With a field: the seat the searcher values in deal ``index`` (turn by turn)."""
        return index % self.n

    def play_deal(self, seed: int, index: int) -> dict:
        """Play and record single deal (seed, index); its record."""
        self.index = index
        self.rows["_decisions"] = 0
        if self.field is not None:  # the learner in the searched seat, the field elsewhere
            mine = self.searched(index)
            mixed = isinstance(self.field, tuple)
            others = (draw_field(self.field, seed, index, self.n) if mixed
                      else [self.field] * self.n)
            self.labels = PyRng(seed, index, LABEL_STREAM) if mixed else None
            self.strategies = [self.learner if s == mine else others[s]
                               for s in range(self.n)]
        return self.play_single_deal(seed, index)

    def _strategy_card(self, seat, d, legal, rng, aim, sticks, deal_no):
        if self.field is None:
            return self._record(seat, d, legal, rng, sticks, deal_no)  # pimc's card
        if seat == self.searched(self.index):  # DAgger: pimc values the learner's decision
            self._record(seat, d, legal, rng if self.labels is None else self.labels, sticks,
                         deal_no)
        return ReferenceJass._strategy_card(self, seat, d, legal, rng, aim, sticks, deal_no)

    def _record(self, seat, d, legal, rng, sticks, deal_no):
        """Value every legal card with the search, write one row per card; pimc's card."""
        if len(legal) < 2:  # pimc plays a lone card without a draw
            return legal[0]
        n = self.n
        played = np.array([cards_mask(p) for p in d.played] + [0] * (4 - n), dtype=np.uint64)
        taken = np.array([cards_mask(t) for t in d.taken] + [0] * (4 - n), dtype=np.uint64)
        hand = np.uint64(cards_mask(d.hands[seat]))
        view = self._view(d, sticks, deal_no, self._pending, bans=True)
        state = rng.as_array()
        nothing = np.zeros(4, dtype=np.uint64)
        m, weight = search_values(self.prm, seat, hand, np.uint64(cards_mask(legal)), view,
                                  played, taken, state, nothing, False, self.cands,
                                  self.scores, self.squares)
        rng.load_array(state)
        if m < 0:
            raise RuntimeError("the search met an inconsistent state")
        best = 0
        for i in range(1, m):  # search_card's choice: the first of the best totals
            if self.scores[i] > self.scores[best]:
                best = i
        mean = self.scores[:m] / weight
        spread = np.sqrt(np.maximum(self.squares[:m] / weight - mean * mean, 0.0))
        rows = self.rows
        decision = rows["_decisions"]
        rows["_decisions"] = decision + 1
        phase = int(learned.phase_of(view))
        worlds = int(decision_worlds(self.prm, view))  # worlds=0: the player count's
        for i in range(m):
            card = int(self.cands[i])
            learned.features(seat, hand, view, played, taken, card, self.feats, 0)
            rows["index"].append(self.index)
            rows["decision"].append(decision)
            rows["seat"].append(seat)
            rows["phase"].append(phase)
            rows["move"].append(card)
            rows["chosen"].append(i == best)
            rows["value"].append(float(mean[i]))
            rows["spread"].append(float(spread[i]))
            rows["worlds"].append(worlds)
            rows["features"].append(self.feats.astype(np.float32))
        return int(self.cands[best])


def play_games(seed: int, start: int, count: int, players: int, searcher: Strategy,
               field: Strategy | tuple[Strategy, ...] | None = None,
               check=None) -> dict[str, np.ndarray]:
    """The decision rows (module docstring) of deals ``start .. start+count-1``; ``check()``
    (analyzer/runner/interrupts.py) is called after each, to stop on Ctrl-C."""
    if searcher.family != FAM_PIMC:
        raise ValueError("the searcher must be pimc")
    if isinstance(field, Strategy) and field.family == FAM_PIMC:
        raise ValueError("the field must not search (a field mix may hold the searcher)")
    rows: dict = {name: [] for name in COLUMNS[:9]}
    rows["features"] = []
    ref = _Recorder(make_rules(players, {}), searcher, rows, field)
    for index in range(start, start + count):
        ref.play_deal(seed, index)
        if check is not None:
            check()
    return columns(rows, learned.N_FEATURES)


# --- training (analyzer/learn/train.py) --------------------------------------------------------

WEIGHTS_FILE = learned_weights.MODEL  # the weights file's shape, checks and writing
# The training's learner also finishes the tricks of the labelling search's value leaves
# (pimc:rollout=value), as when those leaves read learned.json: the learned-leaf file is
# pinned for play, not for the training (scripts/train_jass_learned.sh remakes its weights)
LEARNER_ALSO = (learned_weights.LEAF_ENV,)
DEFAULTS = {"games": 3000, "players": "3,4", "worlds": 64, "rounds": 3,
            "eval_games": 3000, "eval_seed": 9925, "out": "runs/train-jass", "shipped_seed": 23,
            # rounds 2..: each other seat drawn from this mix (analyzer/learn/decisions.py)
            # (pimc-rollouts: pimc as it was when the shipped weights were made)
            "field_mix": "pimc-rollouts+pimc-rollouts+learned+aim-low+aim-high+adaptive+re-aim"
                         "+tuned"}
EVAL_FIELD = "aim-low"  # the learned seat's opponents when measuring
# Rounds 2 and on: the previous round's learned player in one seat against the field, the
# searcher valuing its every decision (DAgger): the positions learned itself reaches.
LATER_FIELD = EVAL_FIELD
# The searcher's rollouts as the shipped weights were made (pimc's default before its value
# model): aim-low to the end of the deal in every round, so `cardlab train jass` remakes them
# bit for bit.
FIRST_ROLLOUT = "aim-low"
LATER_ROLLOUT = "aim-low"
EVAL_UNIT = "matches"  # what strength() plays
LOWER_IS_BETTER = False  # the strength is a match win share
# what fixes the fit (in the training's plan)
FIT_PLAN = {"hidden": learned.HIDDEN, "epochs": mlp.EPOCHS, "batch": mlp.BATCH,
            "rate": mlp.RATE, "final_rate": mlp.FINAL_RATE, "decay": mlp.DECAY}


def fit_weights(frame, seed: int) -> np.ndarray:
    """The network's weights (analyzer/learn/mlp.py), its start drawn from ``seed``."""
    return mlp.fit(frame, learned.PHASES, learned.HIDDEN, seed)


def strength(games: int, seed: int) -> dict:
    """Match win share of one ``learned`` seat (the weights this process loaded) against
    :data:`EVAL_FIELD` in every other seat, at 3 and at 4 players, on ``games`` matches of
    ``seed``, the learned seat in every position of the same matches (one core). ``learned``,
    the figure training compares, is the mean of the two shares."""
    from analyzer.engines.kernel import RunSpec
    from analyzer.runner.api import collect

    out = {}
    for players in (3, 4):
        wins = []
        for seat in range(players):
            seats = tuple("learned" if s == seat else EVAL_FIELD for s in range(players))
            rows = collect(RunSpec(GAME, players, seats, seed), games, workers=1)
            wins.append(float(rows[rows["seat"] == seat]["won"].mean()))
        out[f"share_{players}"] = float(np.mean(wins))
    out["learned"] = (out["share_3"] + out["share_4"]) / 2
    return out


def describe(measured: dict) -> str:
    """One line of a round's strength."""
    return (f"learned wins {measured['share_4']:.3f} of the matches against three "
            f"{EVAL_FIELD} (fair 0.25), {measured['share_3']:.3f} against two (fair 0.333)")


def run_decisions(out, seed: int, count: int, players: int, searcher: Strategy,
                  resume: bool, progress: bool, start: int = 0,
                  field: Strategy | tuple[Strategy, ...] | None = None,
                  repair: bool = False) -> dict:
    """Play deals ``start .. start+count-1`` and write their decision rows to the run folder
    ``out`` (analyzer/learn/decisions.py). Returns the manifest."""
    import sys

    from analyzer.learn.decisions import run_decisions as run

    return run(sys.modules[__name__], out, seed, count, players, searcher, resume, progress,
               start, field, repair)

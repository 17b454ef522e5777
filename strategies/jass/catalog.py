"""The catalogue of Plus-Minus Jass strategies (names, descriptions, knobs). No numba here.

A strategy is a *family* (a jitted policy in :mod:`strategies.jass.policies`, selected by the
integer id in :mod:`strategies.jass.knobs`) plus a parameter vector; a name is a family with
some knobs preset.

Families
--------
``basic`` (0)      the yardstick of baseline-strategies.md, move by move.
``random`` (1)     uniform over the legal cards: ``randbelow(number of legal cards)`` from the
                   match's own stream on every move (also with one legal card).
``heuristic`` (2)  a parametric family. Knobs (slot in the parameter vector):

    aim (0)        what to play for, decided once per deal: high (many points: the most points
                   earns a stick when nobody reaches 100), low (few points: the fewest earns a
                   stick in both J-9 cases 2 and 3), hand (high when the hand's plain card points
                   reach ``strength`` x its fair share, 120 x hand size / 36, else low), standings
                   (high when trailing the stick leader by ``gap`` or more sticks, else low).
    strength (1)   the hand threshold of aim=hand (0..3).
    gap (2)        the stick deficit of aim=standings (0..7).
    fight (3)      how hard a high-aiming player fights for tricks (0..1): it tries to take a
                   trick that already holds at least (1 - fight) x 20 points; otherwise it throws
                   its cheapest card. Low-aiming players always duck with their strongest card
                   that does not take the lead.
    trump (4)      which suit to fix as trump when it is the first who cannot follow suit
                   (J-5): longest, under-nine (the suit holding its Under and/or 9), most-points,
                   shortest, fewest-points, random (from the match's stream), by-aim (under-nine
                   when aiming high, fewest-points when aiming low). Ties: see
                   policies.pick_trump_suit. It fixes trump with its lowest card of that suit.
    track (5)      off/on: read the public record (cards played, who showed out of which suit)
                   to lead and take tricks with provably sure winners (aim high) and to lead
                   cards that an unseen card can still beat (aim low).

    reaim (6)      off/on: once trump is fixed, re-judge the aim from the points won so far plus
                   the hand's points under the real trump (high from ``strength`` x 157 /
                   players), at every move.
    under100 (7)   off/on: aiming high, stop taking tricks once winning one could bring the seat
                   to 100 points (J-9 then gives the most points nothing).

``pimc`` (3)       search (strategies/jass/search.py): at each decision with two or more legal
                   cards, ``worlds`` deals of the unseen cards consistent with everything seen,
                   every candidate played in every world and valued by the ``rollout``: by
                   default ``value`` (``learned`` finishes the trick, then a value model of
                   ``learned`` play estimates the rest, or with two tricks left or fewer
                   ``learned`` plays them out; strategies/jass/value.py), or a preset that plays
                   the world to the end of the deal (``pimc-rollouts``: aim-low, pimc's default
                   before the value model); the best total for the decider wins. Knobs:
                   worlds (0; 0 = the player count's, knobs.py WORLDS_AT_3 and _4),
                   rollout (1), candidates (2, 0 = all), infer (3, voids: every inference of
                   the play; policy: also weigh each world by how likely the others' moves
                   so far were under the rollout policy), objective (4, deal or match), eps
                   (5) and oversample (6) (infer=policy: the weight per unlikely move, and how
                   many worlds are drawn per world searched, the most likely kept), focus (7).
``learned`` (5)    a small network over (information state, card) features, trained from
                   ``pimc``'s values of every legal card (strategies/jass/learned.py; the
                   weights ship in learned.json beside it; docs/learned.md). No aim, no
                   random draws; usable as ``pimc``'s rollout (``pimc:rollout=learned``).
                   Knobs: depth (0; for rollouts only: as a rollout it plays only the next
                   ``depth`` cards, then every seat plays aim-low; 0 = to the end; preset
                   ``learned-4``, a rollout choice; strategies/jass/loop.py; a seat plays
                   learned throughout), model (1; net: learned.json's network, or leaf:
                   learned-leaf.json's, the network pimc's value model was trained on and
                   its leaves finish tricks with, kept apart so that retraining learned
                   leaves pimc as it is; preset ``learned-leaf``).
``peek`` (4)       the same search on the true deal: NOT A LEGAL PLAYER (it sees every hand);
                   the upper bound that says what hidden information is worth.

Leading, aiming high: a sure winner if the record proves one (track=on), else its highest plain
card. Leading, aiming low: its lowest card (that can still be beaten, with track=on).

The tuned presets
-----------------
``tuned`` (4 players) is read from tuned.toml beside this file and ``tuned-3`` (3 players)
from tuned-3.toml; ``cardlab tune`` wrote both (each file's header holds the confirmation on
held-out matches). Remake them with (``cardlab tune`` only appends and refuses a name the
file already holds, so move the old file away first)::

    cardlab tune jass --start adaptive --field basic --players 4 --games 400000 \
      --seed 11 --against aim-low --against catch-up --name tuned \
      --out strategies/jass/tuned.toml
    cardlab tune jass --start adaptive --field basic --players 3 --games 400000 \
      --seed 11 --against tuned --against aim-low --name tuned-3 \
      --out strategies/jass/tuned-3.toml

How to add a strategy
---------------------
* A preset of the heuristic family: one ``register(StrategySpec(...))`` below with ``preset``.
* A new knob: a free slot (< 8) in knobs.py and ``HEURISTIC_PARAMS``; read ``prm[slot]`` in
  strategies/jass/policies.py.
* A new family: an id in knobs.py, a jitted policy in policies.py taking only what J-11 allows
  (see ``choose_card``), one more branch in ``begin_deal``/``choose_card``/``forced_trump_card``,
  and a call in analyzer/engines/jass/reference.py (``_strategy_card``). A family that plays
  deals out itself (a search) goes into strategies/jass/dispatch.py instead, so that the
  rollout player (``choose_card``) never reaches it, and into knobs.SEARCH_FAMILIES.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from strategies.files import register_file
from strategies.jass.knobs import (
    AIM_CHOICES,
    FAM_BASIC,
    FAM_HEURISTIC,
    FAM_LEARNED,
    FAM_PEEK,
    FAM_PIMC,
    FAM_RANDOM,
    INFER_CHOICES,
    MODEL_CHOICES,
    MODEL_LEAF,
    OBJECTIVE_CHOICES,
    ONOFF_CHOICES,
    P_AIM,
    P_CANDIDATES,
    P_DEPTH,
    P_EPS,
    P_FIGHT,
    P_FOCUS,
    P_GAP,
    P_INFER,
    P_MODEL,
    P_OBJECTIVE,
    P_OVERSAMPLE,
    P_REAIM,
    P_ROLLOUT,
    P_STRENGTH,
    P_TRACK,
    P_TRUMP,
    P_UNDER100,
    P_WORLDS,
    ROLLOUT_CHOICES,
    TRACK_CHOICES,
    TRUMP_RULES,
    VALUE_FINISHER,
    VALUE_ROLLOUT,
    WORLDS_AT_3,
    WORLDS_AT_4,
    WORLDS_BY_PLAYERS,
)
from strategies.registry import Param, StrategySpec, catalog_complete, register

HEURISTIC_PARAMS = (
    Param("aim", P_AIM, 2.0, "play for many points or few, per deal", choices=AIM_CHOICES),
    Param("strength", P_STRENGTH, 1.0, "aim=hand: aim high from this x fair share", low=0, high=3),
    Param("gap", P_GAP, 2.0, "aim=standings: aim high when this many sticks behind", low=0,
          high=7, integer=True),
    Param("fight", P_FIGHT, 0.5, "how hard to fight for tricks when aiming high", low=0, high=1),
    Param("trump", P_TRUMP, 0.0, "how to choose trump when first unable to follow",
          choices=TRUMP_RULES),
    Param("track", P_TRACK, 0.0, "use the public record (cards seen, voids)",
          choices=TRACK_CHOICES),
    Param("reaim", P_REAIM, 0.0, "re-aim once trump is fixed and as points come in",
          choices=ONOFF_CHOICES),
    Param("under100", P_UNDER100, 0.0, "aiming high, duck tricks that could reach 100 points",
          choices=ONOFF_CHOICES),
)

class RolloutParam(Param):
    """The ``rollout`` knob: one of ``ROLLOUT_CHOICES``. A rollout by ``learned`` needs its
    weights as much as a ``learned`` seat does: checked when the knob is read (a one-line
    error naming the file), never a search rolling out with unusable weights."""

    # what the knob takes besides strategies, and what each means after a move (the
    # analysis's model line)
    extras = {"value": "learned-leaf to the end of the trick, then the value model's estimate "
                       "of its play to the end of the deal (the last two tricks played out)"}

    def parse(self, text: str) -> float:
        value = super().parse(text)
        _check_rollout(value)
        return value


def _check_rollout(value: float) -> None:
    """A rollout by ``learned`` (``learned``, ``learned-4``) needs its weights, by
    ``learned-leaf`` and ``value`` (whose leaves' tricks learned-leaf finishes, and the
    analysis plays on for the card points) the leaf's, ``value`` also the value model's: the
    one-line error naming the unusable file."""
    from strategies.jass import learned_weights as model

    name = ROLLOUT_CHOICES[int(value)]
    if name in model.PINNED_READERS:
        model.check_leaf_weights()
    elif name.startswith("learned"):
        model.check_weights()
    if name == "value":
        from strategies.jass import value_weights

        value_weights.check_weights()


def _check_values(values) -> None:
    """pimc's knob check: its rollout's weights, also when the rollout is its default."""
    _check_rollout(values[P_ROLLOUT])


SEARCH_PARAMS = (
    Param("worlds", P_WORLDS, 0.0, "sampled deals of the unseen cards per decision (0: "
          f"{WORLDS_AT_3} at 3 players, {WORLDS_AT_4} at 4)", low=0, high=4096, integer=True,
          by_players=WORLDS_BY_PLAYERS),
    RolloutParam("rollout", P_ROLLOUT, float(VALUE_ROLLOUT),
                 "value (learned-leaf ends the trick, then a model of its play) or the "
                 "preset that plays every world to the end of the deal",
                 choices=ROLLOUT_CHOICES),
    Param("candidates", P_CANDIDATES, 0.0, "search only the first k cards of the prior (0: all)",
          low=0, high=12, integer=True),
    Param("infer", P_INFER, 0.0,
          "voids: worlds respect every inference of the play; policy: also weighted by how "
          "likely the others' moves were under the rollout policy", choices=INFER_CHOICES),
    Param("objective", P_OBJECTIVE, 0.0, "deal: own sticks from the deal; match: also the match",
          choices=OBJECTIVE_CHOICES),
    Param("eps", P_EPS, 0.3, "infer=policy: a world's weight per move of another seat the "
          "rollout policy would not have made", low=0, high=1),
    Param("oversample", P_OVERSAMPLE, 16.0, "infer=policy: draw this many worlds per world "
          "searched, keep the most likely", low=1, high=64, integer=True),
    Param("focus", P_FOCUS, 2.0, "after a third of the worlds, drop cards this many standard "
          "errors behind; the rest get their worlds (infer=voids; 0: off)", low=0, high=10),
)

register(StrategySpec("jass", "basic", FAM_BASIC, "the yardstick: always the cheapest legal card"))
register(StrategySpec("jass", "random", FAM_RANDOM, "uniform over the legal cards"))
register(
    StrategySpec(
        "jass", "heuristic", FAM_HEURISTIC,
        "tunable family: aim, fight, trump choice, record tracking", HEURISTIC_PARAMS,
    )
)
register(
    StrategySpec(
        "jass", "aim-high", FAM_HEURISTIC,
        "always plays for many points, fights hard, trumps with Under/9, tracks the record",
        HEURISTIC_PARAMS,
        preset={"aim": "high", "fight": "0.8", "trump": "under-nine", "track": "on"},
    )
)
register(
    StrategySpec(
        "jass", "aim-low", FAM_HEURISTIC,
        "always plays for few points, trumps with its poorest suit, tracks the record",
        HEURISTIC_PARAMS, preset={"aim": "low", "trump": "fewest-points", "track": "on"},
    )
)
register(
    StrategySpec(
        "jass", "adaptive", FAM_HEURISTIC,
        "aims high with a strong hand, low otherwise; trump by aim; tracks the record",
        HEURISTIC_PARAMS, preset={"aim": "hand", "trump": "by-aim", "track": "on"},
    )
)
register(
    StrategySpec(
        "jass", "catch-up", FAM_HEURISTIC,
        "aims high only when trailing the stick leader by 2 or more; trump by aim",
        HEURISTIC_PARAMS, preset={"aim": "standings", "trump": "by-aim", "track": "on"},
    )
)
register(
    StrategySpec(
        "jass", "re-aim", FAM_HEURISTIC,
        "adaptive, re-aiming once trump is fixed and as points come in; stays under 100",
        HEURISTIC_PARAMS,
        preset={"aim": "hand", "trump": "by_aim", "track": "on", "reaim": "on",
                "under100": "on"},
    )
)


LEARNED_PARAMS = (
    Param("depth", P_DEPTH, 0.0, "as a rollout (pimc:rollout=...): learned plays only the first "
          "N cards, then every seat plays aim-low (0 = learned to the end); a seat at the "
          "table always plays learned", low=0, high=36, integer=True, rollout_only=True),
    Param("model", P_MODEL, 0.0, "net (learned.json) or leaf (learned-leaf.json: what "
          "pimc's value leaves play)", choices=MODEL_CHOICES),
)


def _check_learned(values) -> None:
    """learned's knob check: the weights file its model reads (one line when unusable)."""
    from strategies.jass import learned_weights as model

    if values[P_MODEL] == MODEL_LEAF:
        model.check_leaf_weights()
    else:
        model.check_weights()


def _weights_tag(leaf: bool = False) -> str:
    """"(weights <first 12 hex digits of their sha256>)" of learned.json's or, with ``leaf``,
    learned-leaf.json's network: what a learned strategy's description names (replay checks
    it)."""
    from strategies.jass import learned_weights as model

    if leaf:
        return f"(weights {model.LEAF.digest(model.LEAF_WEIGHTS)[:12]})"
    return f"(weights {model.weights_digest(model.WEIGHTS)[:12]})"


def _learned_spec(leaf: bool = False) -> StrategySpec:
    """The ``learned`` strategy: its description names the weights in use (their sha256), so
    a run's plan changes with the weights and a run never resumes under other weights;
    ``leaf``: the description of ``model=leaf``, naming the leaf's weights."""
    from strategies.jass import learned_weights as model

    what = ("the network pimc's value leaves finish their tricks with" if leaf
            else "a small network of pimc's card values, evaluated without search")
    return StrategySpec(
        "jass", "learned", FAM_LEARNED,
        f"{what} {_weights_tag(leaf)}",
        LEARNED_PARAMS,
        check_values=_check_learned,
        about=model.about,
    )


register(_learned_spec())
register(replace(_learned_spec(), name="learned-4", preset={"depth": "4"},
                 description="learned; as pimc's rollout, learned for 4 cards, then aim-low "
                 + _weights_tag()))
register(replace(_learned_spec(leaf=True), name=VALUE_FINISHER,
                 preset={"model": MODEL_CHOICES[MODEL_LEAF]}))
_PIMC = register(
    StrategySpec(
        "jass", "pimc", FAM_PIMC,
        "search: each card played in sampled deals; learned-leaf ends the trick, a model "
        "of its play values the rest",
        SEARCH_PARAMS,
        tags=("slow",),
        check_values=_check_values,
    )
)
register(replace(_PIMC, name="pimc-rollouts", preset={"worlds": "16", "rollout": "aim-low",
                                                   "focus": "0"},
                 description="pimc before its value model: every card played to the end of "
                             "the deal by aim-low in 16 worlds"))
register(
    StrategySpec(
        "jass", "peek", FAM_PEEK,
        "NOT A LEGAL PLAYER (sees every hand): pimc's search on the true deal, for analysis",
        SEARCH_PARAMS,
        legal_player=False,
        tags=("slow", "not-a-player"),
        check_values=_check_values,
    )
)

# The shipped tuned presets (see the docstring), registered last.
for _path in sorted(Path(__file__).parent.glob("tuned*.toml")):
    register_file(_path, "jass")
catalog_complete("jass")  # last: strategies files may be loaded from now on

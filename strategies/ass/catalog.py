"""The catalogue of Who's the Ass? strategies (names, descriptions, knobs). No numba here.

A strategy is a *family* (a jitted policy in :mod:`strategies.ass.policies`, selected by the
integer id below) plus a parameter vector; a name is a family with some knobs preset.

Families
--------
``basic`` (0)      the yardstick of baseline-strategies.md, move by move.
``random`` (1)     uniform over the legal moves in canonical order (see analyzer.games.ass.cards:
                   a move is a distinct (value, number cards, jokers) triple, so e.g. leading
                   7,7 and leading 7,J are different moves, and in an ass round a joker as 1 and a
                   joker as 14 are two moves; passing is one move where allowed). It draws
                   ``randbelow(number of moves)`` from the game's own stream, only when it has
                   more than one legal move.
``heuristic`` (2)  a parametric family; with every knob at its default it plays exactly as
                   ``basic``. Knobs (slot in the parameter vector):

    jokers (0)     as-needed: like basic, a joker only to make a raise possible;
                   keep: never use a joker while number cards remain;
                   finish: a joker only in a play that empties the hand;
                   dump: add every joker to each lead, otherwise as-needed;
                   keep-until: as keep while more than ``keep`` cards are in hand, then as-needed.
                   Except under as-needed, a lead that can empty the hand with its jokers does.
    keep (1)       the hand size for keep-until (0..13).
    lead_ass (2)   now: lead the ass whenever allowed; hold: lead it only when it is the last card.
    ass_throw (3)  lowest: like basic (a joker as 1 if the joker knob allows, else the lowest
                   number card); safe-high: the most expensive card that provably cannot be the
                   highest of the round, because a higher card is already on the table (a joker
                   as 1, else the highest number below it), else as lowest.
    pass (4)       never: raise whenever the joker knob allows; save-sets: never split a value
                   (raise only with a value held exactly k times or with all of a value plus
                   jokers), pass instead.
    lead (5)       low: lead all cards of the lowest value (as basic); safe: lead the lowest value
                   whose whole set provably wins the round from the public record (no other
                   player holds k cards, or too few cards of higher values and jokers are still
                   unaccounted for, given the cards gone and the own hand), else as low.
    chase (6)      matches only (A-12): in the last ``chase`` games of a match (0 = never),
                   while the player's running total is above the lowest of the others, it
                   races to go out: it leads its biggest set (most cards, the higher value on
                   ties) instead of what ``lead`` says; jokers as the joker knob says. Reads
                   the running totals and the game number that A-12 makes public.

    ass_jokers (7) whether to throw a joker (as 1) in an ass round, apart from the ``jokers``
                   knob, which then governs normal rounds only. same: as the ``jokers`` knob
                   says (the default; every preset plays as before); throw: always, while
                   holding one (as basic); keep: never while a number card is left. So
                   "holding jokers" and "using them" can be compared with all else equal:
                   ``joker-hoarder`` against ``joker-hoarder:ass_jokers=throw``.

``pimc`` (3)       searches (strategies/ass/pimc.py): at each decision with a choice it deals the
                   unseen cards ``worlds`` times consistently with its view (A-11), plays each
                   of at most ``candidates`` moves to the end of the game in every world with
                   the ``rollout`` strategy in every seat, and takes the move with the fewest
                   own minus points on average. Knobs: worlds (0), candidates (1), rollout (2:
                   the name of any strategy that does not search, carried encoded), infer (3:
                   voids, policy (the default) or sizes: which public facts the worlds
                   respect, pimc.py), oversample (4: with infer=policy, worlds drawn per world
                   kept), eps (5: with infer=policy, a kept world's weight per extra mismatch).
                   Defaults measured: docs/strategies.md, "Strong play in Who's the Ass?".
``learned`` (5)    a small network over (information state, move) features, trained from
                   ``pimc``'s values of every candidate (strategies/ass/learned.py; the
                   weights ship in learned.json beside it; docs/learned.md). No random
                   draws; usable as ``pimc``'s rollout (``pimc:rollout=learned``). Knobs:
                   depth (0; for rollouts only: as a rollout it makes only the first
                   ``depth`` decisions, then every seat plays basic; 0 = to the end; preset
                   ``learned-4``; strategies/ass/rollout.py; a seat plays learned
                   throughout), model (1: net, or linear: the linear model of before, in
                   learned-linear.json, the policy pimc's value model finishes rounds with;
                   preset ``learned-linear``).
``peek`` (4)       NOT A LEGAL PLAYER: pimc's search on the true deal (it sees every hand).
                   For analysis only: peek minus pimc is what the hidden cards are worth.

The tuned presets
-----------------
``tuned`` (4 players; also the answer at 3) is read from tuned.toml beside this file, and
``tuned-6`` (6 players) from tuned-6.toml; ``cardlab tune`` wrote both (each file's header
holds the confirmation on held-out deals). At 5 and 8 players the same command finds
``careful`` itself. Remake them with (``cardlab tune`` only appends and refuses a name the
file already holds, so move the old file away first)::

    cardlab tune ass --start heuristic --field basic --players 4 --games 1000000 \
      --seed 11 --against careful --name tuned --out strategies/ass/tuned.toml
    cardlab tune ass --start heuristic --field basic --players 6 --games 1000000 \
      --seed 11 --against tuned --against careful --name tuned-6 \
      --out strategies/ass/tuned-6.toml

How to add a strategy
---------------------
* A preset of an existing family (new knob values only): one ``register(StrategySpec(...))``
  call below with a ``preset``; nothing else. Every registered name is automatically part of
  the legality property test (tests/test_ass_moves.py,
  ``test_every_strategy_plays_only_legal_moves``), of the engine-vs-reference comparison
  (tests/test_ass_engine_vs_reference.py) and of tests/test_ass_strategies.py's lead check;
  add a test of its behaviour on a hand-built decision to tests/test_ass_strategies.py.
* A new knob: give it a free slot (< 8) in ``HEURISTIC_PARAMS`` and read ``params[slot]`` in
  ``heuristic`` in strategies/ass/policies.py.
* A new family: a new family id below; a jitted function in strategies/ass/policies.py with
  the signature ``(params, view, rng) -> move code``; one more ``elif`` in ``decide_other``
  there, the one list the engine, the rollout, the search and ``dispatch.decide`` all call (a
  family missing there makes every one of its moves illegal, so the tests fail at once); a
  test of
  its behaviour in tests/test_ass_strategies.py. If the reference engine should check it
  independently, add a readable twin to analyzer/engines/ass/reference.py (``Player.move``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from strategies.files import register_file
from strategies.registry import (
    Param,
    StrategyError,
    StrategySpec,
    catalog,
    catalog_complete,
    register,
    resolve_values,
    unknown_strategy,
)

BASIC = 0
RANDOM = 1
HEURISTIC = 2
PIMC = 3
PEEK = 4
LEARNED = 5
SEARCH_FAMILIES = (PIMC, PEEK)
VALUE = 6  # not a strategy: the search's evaluation by the value model (rollout=value)
VALUE_NAME = "value"
# rollout=value plays a leaf out to the end of the game (by the model's finisher) when the
# seat that leads next can go out with this many leads, where the network misjudges the end
# (value.py); rollout=value-only leaves the network at every leaf (pimc before commit a53bb9d)
VALUE_ONLY_NAME = "value-only"
VALUE_LATE_LEADS = 1

JOKERS = ("as-needed", "keep", "finish", "dump", "keep-until")
J_AS_NEEDED, J_KEEP, J_FINISH, J_DUMP, J_KEEP_UNTIL = range(5)
LEAD_ASS = ("now", "hold")
ASS_THROW = ("lowest", "safe-high")
PASS_MODES = ("never", "save-sets")
LEADS = ("low", "safe")
ASS_JOKERS = ("same", "throw", "keep")
AJ_SAME, AJ_THROW, AJ_KEEP = range(3)

SLOT_JOKERS, SLOT_KEEP, SLOT_LEAD_ASS, SLOT_ASS_THROW, SLOT_PASS, SLOT_LEAD, SLOT_CHASE = range(7)
SLOT_ASS_JOKERS = 7

HEURISTIC_PARAMS = (
    Param("jokers", SLOT_JOKERS, 0.0, "when to use jokers", choices=JOKERS),
    Param("keep", SLOT_KEEP, 2.0, "hand size from which keep-until uses jokers", low=0, high=13,
          integer=True),
    Param("lead_ass", SLOT_LEAD_ASS, 0.0, "lead the ass at once or hold it", choices=LEAD_ASS),
    Param("ass_throw", SLOT_ASS_THROW, 0.0, "card thrown in an ass round", choices=ASS_THROW),
    Param("pass", SLOT_PASS, 0.0, "deliberate passing", choices=PASS_MODES),
    Param("lead", SLOT_LEAD, 0.0, "which set to lead", choices=LEADS),
    Param("chase", SLOT_CHASE, 0.0,
          "in the last N games of a match, when behind, lead the biggest set (0 = never)",
          low=0, high=1000, integer=True),
    Param("ass_jokers", SLOT_ASS_JOKERS, 0.0, "throw a joker in an ass round: as the jokers "
          "knob says, always, or never while number cards remain", choices=ASS_JOKERS),
)

register(StrategySpec("ass", "basic", BASIC, "the yardstick: lowest lead, cheapest raise"))
register(StrategySpec("ass", "random", RANDOM, "uniform over the legal moves, passing included"))
register(
    StrategySpec(
        "ass", "heuristic", HEURISTIC, "tunable family (defaults play as basic)", HEURISTIC_PARAMS
    )
)
register(
    StrategySpec(
        "ass",
        "hold-jokers",
        HEURISTIC,
        "keeps jokers until few cards are left",
        HEURISTIC_PARAMS,
        preset={"jokers": "keep-until"},
    )
)
register(
    StrategySpec(
        "ass", "joker-hoarder", HEURISTIC, "never uses a joker while number cards remain",
        HEURISTIC_PARAMS, preset={"jokers": "keep"},
    )
)
register(
    StrategySpec(
        "ass", "joker-dumper", HEURISTIC, "adds all its jokers to every lead",
        HEURISTIC_PARAMS, preset={"jokers": "dump"},
    )
)
register(
    StrategySpec(
        "ass", "finisher", HEURISTIC, "uses jokers only to play out its hand",
        HEURISTIC_PARAMS, preset={"jokers": "finish"},
    )
)
register(
    StrategySpec(
        "ass", "ass-holder", HEURISTIC, "holds the ass until it is its last card",
        HEURISTIC_PARAMS, preset={"lead_ass": "hold"},
    )
)
register(
    StrategySpec(
        "ass", "set-saver", HEURISTIC, "passes rather than split a value",
        HEURISTIC_PARAMS, preset={"pass": "save-sets"},
    )
)
register(
    StrategySpec(
        "ass", "chaser", HEURISTIC,
        "in a match's last game, when behind, leads its biggest set to race out",
        HEURISTIC_PARAMS, preset={"chase": "1"},
    )
)
register(
    StrategySpec(
        "ass", "careful", HEURISTIC,
        "reads the record: leads sets that cannot be beaten, throws safe high cards",
        HEURISTIC_PARAMS, preset={"lead": "safe", "ass_throw": "safe-high"},
    )
)




SLOT_DEPTH = 0  # learned's knobs
SLOT_MODEL = 1  # (strategies/ass/learned.py reads it: 0 the network, 1 the linear model)
SLOT_HOLD = 2
MODELS = ("net", "linear")
HOLD = 2.0  # learned's default hold (docs/learned.md, "Passing": measured)
LEARNED_PARAMS = (
    Param("depth", SLOT_DEPTH, 0.0, "as a rollout (pimc:rollout=...): learned makes only the "
          "first N decisions, then every seat plays basic (0 = learned to the end); a seat "
          "at the table always plays learned", low=0, high=63, integer=True, rollout_only=True),
    Param("model", SLOT_MODEL, 0.0, "the network, or the linear model of before (the one "
          "pimc's value model plays)", choices=MODELS),
    Param("hold", SLOT_HOLD, HOLD, "minus points added to passing's score (63: practically "
          "never passes while a raise is legal)", low=0, high=63, integer=True),
)


def _check_learned(values) -> None:
    """learned's knob check: the weights file its model reads (one line when unusable)."""
    from strategies.ass import learned_weights as model

    if int(values[SLOT_MODEL]) == MODELS.index("linear"):
        model.check_linear_weights()
    else:
        model.check_weights()


def _weights_tag(linear: bool = False) -> str:
    """"(weights <first 12 hex digits of their sha256>)" of the network or the linear model in
    use: what a learned strategy's description names (replay checks it)."""
    from strategies.ass import learned_weights as model

    if linear:
        return f"(weights {model.LINEAR.digest(model.LINEAR_WEIGHTS)[:12]})"
    return f"(weights {model.weights_digest(model.WEIGHTS)[:12]})"


def _learned_spec(linear: bool = False) -> StrategySpec:
    """The ``learned`` strategy: its description names the weights in use (their sha256), so
    a run's plan changes with the weights and a run never resumes under other weights;
    ``linear``: the description of ``model=linear``, naming the linear model's."""
    from strategies.ass import learned_weights as model

    what = ("learned's linear model of before the network" if linear
            else "a small network of pimc's move values, evaluated without search")
    return StrategySpec(
        "ass", "learned", LEARNED,
        f"{what} {_weights_tag(linear)}",
        LEARNED_PARAMS,
        check_values=_check_learned,
        about=model.about,
    )


register(_learned_spec())
register(replace(_learned_spec(), name="learned-4", preset={"depth": "4"},
                 description="learned; as pimc's rollout, learned for 4 decisions, then basic "
                 + _weights_tag()))
register(replace(_learned_spec(linear=True), name="learned-linear",
                 preset={"model": "linear", "hold": "0"}))


# --- the search families (strategies/ass/pimc.py) ----------------------------------------------

SLOT_WORLDS, SLOT_CANDIDATES, SLOT_ROLLOUT, SLOT_INFER, SLOT_OVERSAMPLE, SLOT_EPS = range(6)
INFER = ("voids", "policy", "sizes")
INFER_VOIDS, INFER_POLICY, INFER_SIZES = range(3)
ROLLOUT_FAMILY_SHIFT = 48  # a rollout strategy as one float: family * 2**48 + knobs, 6 bits each
ROLLOUT_KNOB_BITS = 6
# the value model's evaluations as rollout codes: its family, the late-leads rule in the knobs
VALUE_CODES = {VALUE_NAME: float((VALUE << ROLLOUT_FAMILY_SHIFT) + VALUE_LATE_LEADS),
               VALUE_ONLY_NAME: float(VALUE << ROLLOUT_FAMILY_SHIFT)}


def encode_rollout(name: str) -> float:
    """A non-search strategy of this catalogue as one float (exact: below 2**53).

    The search families carry their rollout strategy in one slot of their own parameter
    vector: its family id times 2**48 plus its 8 parameters, 6 bits each. Every knob of the
    non-search families is a whole number below 64, so the encoding is exact.
    """
    if name in VALUE_CODES:  # the value model at the leaves (strategies/ass/value.py)
        _check_value_model()
        return VALUE_CODES[name]
    book = catalog("ass")
    if name not in book:
        raise StrategyError(unknown_strategy("ass", name, book, " for rollout")
                            + f" (or {VALUE_NAME!r}: the value model, or {VALUE_ONLY_NAME!r})")
    spec = book[name]
    if spec.check is not None:
        spec.check()
    if spec.check_values is not None:
        spec.check_values(resolve_values(spec, {}))
    if spec.family in SEARCH_FAMILIES:
        raise StrategyError(f"rollout must be a strategy that does not search "
                          f"(or {VALUE_NAME!r}: the value model); got {name!r}")
    code = spec.family << ROLLOUT_FAMILY_SHIFT
    for slot, value in enumerate(resolve_values(spec, {})):
        if value != int(value) or not 0 <= value < (1 << ROLLOUT_KNOB_BITS):
            raise StrategyError(f"strategy {name!r} has a knob that a rollout cannot carry")
        code += int(value) << (ROLLOUT_KNOB_BITS * slot)
    return float(code)


_VALUE_LEAF = ("learned-linear to the end of the round, then the value model's estimate of its "
               "play to the end")


class RolloutParam(Param):
    """The ``rollout`` knob: the name of any non-search strategy, stored encoded, or
    ``value`` (:data:`EXTRAS`: an evaluation that is no strategy)."""

    # what the knob takes besides strategies, and what each means after a move (the
    # analysis's model line)
    extras = {VALUE_NAME: _VALUE_LEAF + " (played out when the next to lead can go out)",
              VALUE_ONLY_NAME: _VALUE_LEAF}

    def parse(self, text: str) -> float:
        return encode_rollout(text)

    def show(self, value: float) -> str:
        for name, code in VALUE_CODES.items():
            if value == code:
                return name
        for name, spec in catalog("ass").items():
            if spec.family in SEARCH_FAMILIES:
                continue
            try:
                if encode_rollout(name) == value:
                    return name
            except StrategyError:  # a strategy with a knob no rollout can carry
                continue
        return f"{value:g}"


def _check_value_model() -> None:
    """rollout=value's files: the value model's weights and, when the model's rounds are
    finished by learned, learned-linear's (one line if either is unusable)."""
    from strategies.ass.learned_weights import check_linear_weights
    from strategies.ass.value_weights import FINISHER_NAME, check_weights

    check_weights()
    if FINISHER_NAME == "learned":
        check_linear_weights()


def _check_value(values) -> None:
    """pimc's knob check, also when the rollout is its default: rollout=value needs the value
    model's weights and those of the linear learned that finishes its rounds, a rollout by
    learned those of its model (one line if not)."""
    code = int(values[SLOT_ROLLOUT])
    family = code >> ROLLOUT_FAMILY_SHIFT
    if family == VALUE:
        _check_value_model()
    elif family == LEARNED:
        knobs = [(code >> (ROLLOUT_KNOB_BITS * slot)) & ((1 << ROLLOUT_KNOB_BITS) - 1)
                 for slot in range(len(LEARNED_PARAMS))]
        _check_learned(knobs)


VALUE_CODE = VALUE_CODES[VALUE_NAME]
_SEARCH_PARAMS = (
    Param("worlds", SLOT_WORLDS, 48.0, "deals of the unseen cards drawn per decision",
          low=1, high=256, integer=True),
    Param("candidates", SLOT_CANDIDATES, 10.0,
          "moves searched: the top k of a cheap prior (the rollout's own move first)",
          low=1, high=64, integer=True),
    RolloutParam("rollout", SLOT_ROLLOUT, VALUE_CODE,
                 "the strategy every seat plays in the rollouts (any that does not search), "
                 "or value: learned-linear plays out the round, then a model of its play "
                 "values the rest (near the end, when the next to lead can go out with one "
                 "lead, learned-linear plays it out; value-only: the model there too)"),
    Param("infer", SLOT_INFER, float(INFER_VOIDS),
          "worlds respect: voids = every public fact, policy = also the opponents' past "
          "moves, sizes = not the known holdings", choices=INFER),
    Param("oversample", SLOT_OVERSAMPLE, 2.0,
          "infer=policy: worlds drawn per world kept", low=1, high=16, integer=True),
    Param("eps", SLOT_EPS, 1.0, "infer=policy: a kept world's weight per extra mismatch",
          low=0.0, high=1.0),
)
_PIMC = register(
    StrategySpec(
        "ass", "pimc", PIMC,
        "searches: plays each candidate move in sampled deals of the unseen cards, the round "
        "out by learned-linear, the rest valued by a model of its play, near the end played "
        "out (rollout=value)",
        _SEARCH_PARAMS,
        tags=("slow",),
        check_values=_check_value,
    )
)
register(replace(_PIMC, name="pimc-rollouts",
                 preset={"worlds": "128", "rollout": "basic", "infer": "policy"},
                 description="pimc before its value model: every candidate played to the end "
                             "by basic in 128 worlds that also weigh the opponents' moves"))
register(
    StrategySpec(
        "ass", "peek", PEEK,
        "NOT A LEGAL PLAYER (sees every hand): pimc's search on the true deal, an upper bound",
        _SEARCH_PARAMS,
        check_values=_check_value,
        legal_player=False,
        tags=("slow", "not-a-player"),
    )
)


# The shipped tuned presets (see the docstring), registered last.
for _path in sorted(Path(__file__).parent.glob("tuned*.toml")):
    register_file(_path, "ass")
catalog_complete("ass")  # last: strategies files may be loaded from now on

"""The registry of studies: one :class:`StudyDescription` per study, found by name.

The result folders (analyzer.studies.results), the report (its key findings, the order of
its sections, "reproduce this") and ``cardlab study all`` ask it which studies exist and
what each asks, instead of keeping lists of their own. ``docs/adding-a-study.md`` says what a
new study provides; :func:`register` adds one (the toy study in the tests does).
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import CardlabError
from analyzer.studies.defaults import (
    FIELDS,
    LADDER_SLOW_SHARE,
    TRUMP_CHOOSERS,
    TRUMP_FIELDS,
    words,
)
from analyzer.studies.params import (
    Param,
    commas,
    each,
    has,
    run_options,
    seed,
    span,
    text,
    when,
)


@dataclass(frozen=True)
class StudyDescription:
    """A study, declared once: its name (the ``cardlab study NAME`` command and result
    subfolder), the game it plays ("" for any), the question it answers for players, its
    parameters (:class:`analyzer.studies.params.Param`, in the order of the command's
    options, the run options last), ``command``: the parameters in the order the reproduce
    command writes them (default: the declared order), ``report``: the module of its report
    parts (figures, views, key finding, alerts, sample drawing: reports/studies/__init__.py),
    ``run``: ``"module:function"`` called as ``function(backend, **values)`` with the
    declared values (not the run options) for a command with no body of its own, and
    ``sample``: ``"module:function"`` that finds the sample game the report draws (it plays
    games, so it lives below the report: analyzer/studies/samples.py), and ``suite``:
    ``"module:function"`` called as ``function(backend, scale, **at)`` that plays the study on
    its default budget times ``scale`` in ``cardlab study all`` (``at``: the suite's seed, if
    given); the studies with a ``suite``, in the order registered, are the suite's studies
    (analyzer/studies/suite.py), the one list of them."""

    name: str
    game: str
    question: str
    params: tuple[Param, ...] = ()
    command: tuple[str, ...] = ()
    report: str | None = None
    run: str | None = None
    sample: str | None = None
    suite: str | None = None

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def reproduce(self, manifest: dict) -> list[str] | None:
        """The ``cardlab ...`` arguments that run the study of ``manifest`` again, from the
        declared parameters (None for a study without any)."""
        if not self.params:
            return None
        order = self.command or tuple(p.name for p in self.params)
        return ["study", self.name, *[w for n in order for w in self.param(n).words(manifest)]]

    def manifest_fields(self, values: dict) -> dict:
        """The manifest fields of the declared parameters: each value under its ``key``."""
        return {p.key: values[p.name] for p in self.params if p.key and p.name in values}


_STUDIES: dict[str, StudyDescription] = {}


def register(description: StudyDescription) -> StudyDescription:
    """Add a study (a second description under the same name replaces the first)."""
    _STUDIES[description.name] = description
    return description


def study_game(name: str) -> str:
    """The game study ``name`` plays ("" for a study of any game)."""
    return get(name).game


# --- the built-in studies --------------------------------------------------------------------

PLAYERS = ("--players", "-p")
STRATEGY = ("--strategy", "-s")
GAMES = ("--games", "-n")
FIELD_ALIAS = ("--field", "-f")  # the old spelling of -s, hidden
STRONG_FIELD_NONE = "none: no strong field."


def _game_words(m: dict) -> str:
    return m["game"] if isinstance(m["game"], str) else ",".join(m["game"])


def _compare_mode(m: dict) -> str:
    from analyzer.games.registry import get as game_description

    return m.get("mode") or game_description(str(m["game"])).default_mode


def _in_mode(flag: str, m: dict) -> list[str]:
    """compare's count, under the mode's own name: --games, --matches or --deals."""
    return [flag, str(m["games"])] if flag == f"--{_compare_mode(m)}" else []


def _ruleset(flag: str, m: dict) -> list[str]:
    rules = next(iter((m.get("rules") or {}).values()), {})
    return [flag, str(rules["ruleset"])] if rules.get("ruleset", "seed") != "seed" else []


def _sure(m: dict) -> dict:
    seq = m.get("sequential") or {}
    return seq if seq.get("until_sure") else {}


def _budget(m: dict) -> str:
    budget = m["games"]
    return (",".join(f"{g}={int(n)}" for g, n in budget.items()) if isinstance(budget, dict)
            else str(budget))


def _margins() -> str:
    """Each game's declared margin of its default metric, for the help (the descriptions)."""
    from analyzer.games import registry

    out = []
    for name in registry.names():
        game = registry.get(name)
        metric = game.mode("").default_metric
        measure = game.measure(metric)
        out.append(f"{name} {measure.margin if measure else 0:g} of {metric}")
    return ", ".join(out)


_SEATS = StudyDescription(
    "seats", "ass", "Does your seat matter in Who's the Ass?",
    params=(
        Param("players", str, "3-12", "Player counts, e.g. 3-12 or 4,5,8.", PLAYERS,
              key="players", write=text("players", span)),
        Param("strategy", list[str], None, "Field: one for all seats, or several repeated "
              "around the table (default basic).", STRATEGY, key="strategies"),
        Param("games", int, 20_000, "Games per player count.", GAMES, key="games"),
        Param("strong_field", list[str], [], "A strong field (every seat plays it) also "
              "tabulated at 4 and 6 players; repeat. Default: learned (on --games) and pimc "
              "(on --slow-games); " + STRONG_FIELD_NONE, key="strong_fields",
              write=when(has("strong_fields"), each("strong_fields", none=True))),
        Param("slow_games", int, None, "Games per player count of a strong field tagged slow "
              "(pimc, a few hundred games/s). Default: --games / 50, at least 100.",
              at_least=2, key="slow_games",
              write=when(has("strong_fields"), text("slow_games"))),
        seed(), *run_options()),
    command=("players", "games", "seed", "strategy", "strong_field", "slow_games"),
    report="reports.studies.seats",
    suite="analyzer.studies.suite:suite_seats")

_JOKERS = StudyDescription(
    "jokers", "ass", "Is it worth holding jokers? (Who's the Ass?)",
    params=(
        Param("players", str, "3,4,5,6,8", "Player counts, e.g. 3-8.", PLAYERS,
              key="players", write=text("players", span)),
        Param("strategy", list[str], None, "The field (the opponents): one for all seats or "
              "one per seat (default basic).", STRATEGY, key="field"),
        Param("field", list[str], None, flags=FIELD_ALIAS, hidden=True),
        Param("keep", str, "0,1,2,3,4,6,8,13",
              "Sweep of k for 'keep jokers until k cards are left'.", key="keep",
              write=text("keep", span)),
        Param("games", int, 4_000, "Deals per player count (each policy plays each deal once "
              "in every seat).", GAMES, key="games"),
        Param("matches", int, None, "Matches per player count for the chance to win a match "
              "(K = players games each; default games / 20; 0 to skip).", ("--matches",)),
        Param("strong_field", list[str], [], "Strong opponents the joker policies also meet "
              "(the keep-until sweep and the two hoarders; a slow field plays keep-until 4 "
              "and 8 only), one seat per deal; repeat. Default: learned (on --games) and pimc "
              "(on --slow-games); " + STRONG_FIELD_NONE, key="strong_fields",
              write=when(has("strong_fields"), each("strong_fields", none=True))),
        Param("slow_games", int, None, "Deals per player count against a field tagged slow "
              "(pimc, a few hundred games/s). Default: --games / 20, at least 10.",
              at_least=2, key="slow_games",
              write=when(has("strong_fields"), text("slow_games"))),
        Param("habit_games", int, None, "Traced games per player count of pimc and careful "
              "(one seat against the field) for what they do with their jokers. Default: "
              "--slow-games; 0 to skip.", ("--habit-games",), at_least=0, key="habit_games",
              write=when(has("strong_fields"),
                         lambda flag, m: [flag, str(m.get("habit_games", 0))])),
        seed(), *run_options()),
    command=("players", "keep", "games", "seed", "strategy", "strong_field", "slow_games",
             "habit_games"),
    report="reports.studies.jokers", sample="analyzer.studies.samples:jokers_sample",
    suite="analyzer.studies.suite:suite_jokers")

_TRUMP = StudyDescription(
    "trump", "jass", "Which suit should you fix as trump? (Plus-Minus Jass)",
    params=(
        Param("players", str, "3,4", "Player counts (3 and/or 4).", PLAYERS, key="players",
              write=text("players", span)),
        Param("ruleset", str, "seed,swiss", "Rule sets, comma-separated: seed (the seed text) "
              "and/or swiss (common Swiss practice).", ("--ruleset",), key="rules_sets",
              write=text("rules_sets", ",".join)),
        Param("strategy", list[str], None, "The players: one for all seats or several "
              "repeated around the table (default adaptive).", STRATEGY, key="strategies"),
        Param("deals", int, 20_000, "Deals per (player count, rule set).", ("--deals",),
              key="deals"),
        Param("chooser", list[str], [], lambda: "A chooser on a table of its own, its trump "
              "choice against the best suit in hindsight; repeat. Default: "
              f"{words(TRUMP_CHOOSERS)}; none: no choosers.", ("--chooser",), key="choosers",
              write=when(has("choosers"), each("choosers", none=True))),
        Param("slow_deals", int, None, "Deals per (player count, rule set) for choosers "
              "tagged slow (pimc, about 25-40 deals/s). Default: --deals / 20.",
              ("--slow-deals",), key="slow_deals",
              write=when(has("choosers"), text("slow_deals"))),
        seed(), *run_options()),
    command=("players", "ruleset", "deals", "seed", "strategy", "chooser", "slow_deals"),
    report="reports.studies.trump", sample="analyzer.studies.samples:trump_sample",
    suite="analyzer.studies.suite:suite_trump")

_COMPARE = StudyDescription(
    "compare", "", "Which strategy wins?",
    params=(
        Param("game", str, ..., "ass or jass.", key="game"),
        Param("strategy", list[str], ..., "Two or more strategies (repeat the option); one is "
              "enough with --table.", STRATEGY, key="strategies"),
        Param("table", str, None, "Play each strategy in one seat at a table of this one "
              "(every other seat), e.g. -s learned --table aim-low: each in every seat, all "
              "against the same company.", ("--table",)),
        Param("players", str, "4", "Player counts, e.g. 4 or 3,4.", PLAYERS, key="players",
              write=text("players", span)),
        Param("games", int, None, "Games (Who's the Ass?) per player count; the budget with "
              "--until-sure (default 2000).", GAMES, key="games", write=_in_mode),
        Param("matches", int, None, "Compare whole matches, this many per player count "
              "(Jass's default mode; Who's the Ass?: by share of match wins).",
              ("--matches",), write=_in_mode),
        Param("deals", int, None, "Jass: compare single deals, this many per player count.",
              ("--deals",), write=_in_mode),
        seed(),
        Param("mode", str, "", "Game mode (old spelling: use --matches or --deals).",
              hidden=True),
        Param("ruleset", str, None, "Jass rule set: seed (default) or swiss.", ("--ruleset",),
              key="rules", write=_ruleset),
        Param("rule", list[str], [], "Rules option key=value, e.g. deal_cap=100.",
              ("--rule",)),
        Param("metric", str, None, "Result column to compare (default: minus_points for ass, "
              "won for jass matches, sticks for deals).", key="metric",
              write=when(lambda m: m.get("metric"), text("metric"))),
        # the game's direction for the metric (reports/reproduce.py reads it from the game)
        Param("better", str, None, "lower or higher (needed for other columns).",
              key="better", write=when(lambda m: m.get("metric"), text("better"))),
        Param("until_sure", bool, False, "Stop as soon as every pair is decided (confidence "
              "sequence) or the budget is spent.", ("--until-sure",), key="sequential",
              write=when(lambda m: _sure(m), lambda flag, m: [flag])),
        Param("alpha", float, 0.05, "Error rate of --until-sure, over all pairs.",
              write=when(_sure, lambda flag, m: [flag, f"{_sure(m).get('alpha', 0.05):g}"])),
        Param("margin", float, None, "With --until-sure: also stop when a difference is "
              "surely smaller than this.",
              write=when(lambda m: _sure(m).get("margin") is not None,
                         lambda flag, m: [flag, f"{_sure(m)['margin']:g}"])),
        Param("batch", int, None, "Deals per look with --until-sure.", at_least=1,
              write=when(lambda m: _sure(m).get("batch") is not None,
                         lambda flag, m: [flag, str(_sure(m)["batch"])])),
        *run_options(),
        Param("fmt", str, "table", "table (the answers as sentences), csv (the ranking) or "
              "json (every table and the sentences).", ("--format",))),
    report="reports.studies.compare",
    suite="analyzer.studies.suite:suite_compare")

_LADDER = StudyDescription(
    "ladder", "", "Which strategy is strongest overall?",
    params=(
        Param("game", str, "ass,jass", "ass, jass, or both (ass,jass).", key="game",
              write=text("game", lambda g: g if isinstance(g, str) else ",".join(g))),
        Param("strategy", list[str], [], "Strategies to rate (default: every registered one "
              "but those tagged not-a-player; slow ones, pimc, play 1/--slow-share of the "
              "deals).", STRATEGY),
        Param("include", list[str], [], "Add a strategy tagged not-a-player.", ("--include",)),
        Param("players", str, "4", "Player counts, e.g. 4 or 3-6.", PLAYERS, key="players",
              write=text("players", commas)),
        Param("games", int, 2_000, "Deals (Jass: matches) per player count; each is played "
              "once per rotation of the strategies.", GAMES, key="games"),
        seed(),
        Param("mode", str, "", "jass: matches or deals.", ("--mode",), hidden=True),
        Param("ruleset", str, None, None, ("--ruleset",)),  # the shared option's help
        Param("rule", list[str], [], "Rules option key=value.", ("--rule",), hidden=True),
        Param("metric", str, None, "Result column (default: minus_points for ass, won for "
              "jass matches, sticks for deals)."),
        Param("better", str, None, "lower or higher (needed for other columns)."),
        Param("slow_share", int, LADDER_SLOW_SHARE, "A strategy tagged slow (pimc) enters on "
              "1/this of the deals, at tables of the others.", ("--slow-share",), at_least=1,
              key="slow_share", write=when(lambda m: m.get("slow_share"), text("slow_share"))),
        Param("margin", str, None, lambda: "The smallest difference the groups count, per "
              "deal (match) in the metric's unit (a rate as a fraction): default each game's "
              f"({_margins()}); 0: any clear difference; with both games give game=value "
              "pairs, e.g. ass=0.5,jass=0.02.", ("--margin",)),
        *run_options("No progress bar.")),
    command=("game", "players", "games", "seed", "slow_share"),
    report="reports.studies.ladder",
    suite="analyzer.studies.suite:suite_ladder")

_BEST_RESPONSE = StudyDescription(
    "best-response", "", "How much could one seat gain by playing differently?",
    params=(
        Param("game", str, "ass", "ass, jass, or both (ass,jass: each game's default "
              "fields).", key="game", write=text("game", lambda g: g if isinstance(g, str)
                                                 else ",".join(g))),
        Param("strategy", list[str], [], "A field (its strategy in every other seat); repeat. "
              "Default: basic, the strongest hand-made preset, tuned, learned.", STRATEGY,
              key="field",  # several games: each game's default fields
              write=when(lambda m: isinstance(m["game"], str), each("field"))),
        Param("field", list[str], [], flags=FIELD_ALIAS, hidden=True),
        Param("players", str, "4", "Player counts, e.g. 4 or 3-6.", PLAYERS, key="players",
              write=text("players", commas)),
        Param("games", str, "400000", "Tuning budget per field (games or matches); with both "
              "games one each, e.g. ass=100000,jass=10000.", GAMES, key="games",
              write=lambda flag, m: [flag, _budget(m)]),
        Param("confirm", int, 4_000, "Held-out deals (matches) for the gain.", key="confirm"),
        Param("start", str, "heuristic", "The family to tune, by a strategy of it.",
              key="start"),
        Param("knob", list[str], [], "Knob to tune (repeat; default: every knob). With both "
              "games each tunes the knobs its family has.", ("--knob", "-k"), key="knobs"),
        Param("strong", str, "pimc", "The strong player whose gain in one seat against each "
              "field is the exploitability measure ('none' to skip).", ("--strong",),
              key="strong", write=lambda flag, m: [flag, str(m.get("strong") or "none")]),
        Param("slow_share", int, 10, "The strong player plays 1/this of the held-out deals "
              "(it is about 1,000 times slower).", ("--slow-share",), at_least=1,
              key="slow_share", write=when(lambda m: m.get("slow_share"), text("slow_share"))),
        seed(),
        Param("mode", str, "", "jass: matches or deals.", ("--mode",), hidden=True),
        *run_options("No progress bar.")),
    command=("game", "players", "games", "confirm", "start", "seed", "knob", "strong",
             "slow_share", "strategy"),
    report="reports.studies.best_response",
    suite="analyzer.studies.suite:suite_best_response")

_FIELDS = StudyDescription(
    "fields", "", "Do the answers hold whatever the opponents?",
    params=(
        Param("strategy", list[str], [], lambda: "A field (its strategy in every other seat); "
              f"repeat. Default: {words(FIELDS)}.", STRATEGY, key="field"),
        Param("field", list[str], [], flags=FIELD_ALIAS, hidden=True),
        Param("players", str, "3,4,5,6,8", "Player counts, e.g. 3-8.", PLAYERS, key="players",
              write=text("players", commas)),
        Param("games", int, 2_000, "Deals per field and player count.", GAMES, key="games"),
        Param("trump_field", list[str], [], lambda: "Jass players of the trump question; "
              f"repeat. Default: {words(TRUMP_FIELDS)}.", ("--trump-field",), key="trump",
              write=lambda flag, m: each("fields")(flag, m.get("trump") or {})),
        Param("trump_deals", int, 10_000, "Deals per trump field, player count (3, 4) and the "
              "seed rule set; 0 skips the trump question.", key="trump",
              write=lambda flag, m: [flag, str((m.get("trump") or {}).get("deals", 0))]),
        Param("seats_games", int, 20_000, "Games per field at 4 and 6 players for the seat "
              "effects; 0 skips them.", key="seats",
              write=lambda flag, m: [flag, str((m.get("seats") or {}).get("games", 0))]),
        Param("add_field", list[str], [], "Add a field to the defaults (or to -s and "
              "--trump-field) of each game that has it, e.g. pimc; repeat.", ("--add-field",)),
        Param("slow_share", int, 10, "A field tagged slow (pimc) plays 1/this of each "
              "budget.", ("--slow-share",), at_least=1, key="slow_share",
              write=when(has("slow_share"), text("slow_share"))),
        seed(), *run_options("No progress bar.")),
    command=("players", "games", "seed", "strategy", "trump_deals", "trump_field",
             "seats_games", "slow_share"),
    report="reports.studies.fields",
    suite="analyzer.studies.suite:suite_fields")

for _d in (_SEATS, _JOKERS, _TRUMP, _COMPARE, _LADDER, _BEST_RESPONSE, _FIELDS):
    register(_d)


def names() -> tuple[str, ...]:
    """Every study, in the order the report shows them."""
    return tuple(_STUDIES)


def get(name: str) -> StudyDescription:
    """The description of study ``name``, or a one-line error naming the studies."""
    if name not in _STUDIES:
        raise CardlabError(f"unknown study {name!r}; studies: {', '.join(_STUDIES)}")
    return _STUDIES[name]


def question(name: str) -> str:
    """The question study ``name`` answers for players."""
    return get(name).question

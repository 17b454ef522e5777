"""The registry of studies: one :class:`StudyDescription` per study, found by name.

The result folders (analyzer.studies.results), the report (its key findings, the order of
its sections, "reproduce this") and ``cardlab study all`` ask it which studies exist and
what each asks, instead of keeping lists of their own. ``docs/adding-a-study.md`` says what a
new study provides; :func:`register` adds one (the toy study in the tests does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from analyzer.errors import CardlabError


@dataclass(frozen=True)
class StudyDescription:
    """A study: its name (the ``cardlab study NAME`` command and result subfolder), the game
    it plays, the question it answers for players, and - for a study without a built-in
    command - ``reproduce``: manifest -> the ``cardlab ...`` arguments that run it again."""

    name: str
    game: str
    question: str
    reproduce: Callable[[dict], list[str]] | None = None


_STUDIES: dict[str, StudyDescription] = {}


def register(description: StudyDescription) -> StudyDescription:
    """Add a study (a second description under the same name replaces the first)."""
    _STUDIES[description.name] = description
    return description


def study_game(name: str) -> str:
    """The game study ``name`` plays ("" for a study of any game)."""
    return get(name).game


def _ints(values) -> str:
    return ",".join(str(int(v)) for v in values)


def _strategies(values) -> list[str]:
    return [x for v in values for x in ("--strategy", str(v))]


def _ladder_args(m: dict) -> list[str]:
    game = m["game"] if isinstance(m["game"], str) else ",".join(m["game"])
    return ["study", "ladder", "--game", game, "--players", _ints(m["players"]),
            "--games", str(m["games"]), "--seed", str(m["seed"]),
            *(["--slow-share", str(m["slow_share"])] if m.get("slow_share") else [])]


def _fields_args(m: dict) -> list[str]:
    trump, seats = m.get("trump") or {}, m.get("seats") or {}
    return ["study", "fields", "--players", _ints(m["players"]), "--games", str(m["games"]),
            "--seed", str(m["seed"]), *_strategies(m["field"]),
            "--trump-deals", str(trump.get("deals", 0)),
            *[x for f in trump.get("fields", []) for x in ("--trump-field", str(f))],
            "--seats-games", str(seats.get("games", 0)),
            *(["--slow-share", str(m["slow_share"])] if "slow_share" in m else [])]


def _best_response_args(m: dict) -> list[str]:
    several = not isinstance(m["game"], str)  # several games: each game's default fields
    game = ",".join(m["game"]) if several else str(m["game"])
    budget = m["games"]
    budget = (",".join(f"{g}={int(n)}" for g, n in budget.items()) if isinstance(budget, dict)
              else str(budget))
    return ["study", "best-response", "--game", game, "--players",
            _ints(m["players"]), "--games", budget, "--confirm", str(m["confirm"]),
            "--start", str(m["start"]), "--seed", str(m["seed"]),
            *[x for k in m.get("knobs") or [] for x in ("--knob", str(k))],
            "--strong", str(m.get("strong") or "none"),
            *(["--slow-share", str(m["slow_share"])] if m.get("slow_share") else []),
            *([] if several else _strategies(m["field"]))]


for _d in (
    StudyDescription("seats", "ass", "Does your seat matter in Who's the Ass?"),
    StudyDescription("jokers", "ass", "Is it worth holding jokers? (Who's the Ass?)"),
    StudyDescription("trump", "jass", "Which suit should you fix as trump? (Plus-Minus Jass)"),
    StudyDescription("compare", "", "Which strategy wins?"),
    StudyDescription("ladder", "", "Which strategy is strongest overall?", _ladder_args),
    StudyDescription("best-response", "", "How much could one seat gain by playing "
                     "differently?", _best_response_args),
    StudyDescription("fields", "", "Do the answers hold whatever the opponents?",
                     _fields_args),
):
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

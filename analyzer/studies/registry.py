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


for _d in (
    StudyDescription("seats", "ass", "Does your seat matter in Who's the Ass?"),
    StudyDescription("jokers", "ass", "Is it worth holding jokers? (Who's the Ass?)"),
    StudyDescription("trump", "jass", "Which suit should you fix as trump? (Plus-Minus Jass)"),
    StudyDescription("compare", "", "Which strategy wins?"),
    StudyDescription("ladder", "", "Which strategy is strongest overall?"),
    StudyDescription("best-response", "", "How much could one seat gain by playing differently?"),
    StudyDescription("fields", "", "Do the answers hold whatever the opponents?"),
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

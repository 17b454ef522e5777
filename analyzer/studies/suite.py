"""Every study with its default budget: what ``cardlab study all`` and ``make demo`` run.

The defaults are sized so that the whole suite, numba compilation included, finishes in a
few minutes on two cores; ``scale`` multiplies every budget for tighter intervals.
"""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.studies.compare import run_compare
from analyzer.studies.fields import run_fields
from analyzer.studies.jokers import run_jokers
from analyzer.studies.ladder import run_ladder
from analyzer.studies.play import Backend
from analyzer.studies.results import StudyResult
from analyzer.studies.seats import run_seats
from analyzer.studies.trump import run_trump

# Games (deals, matches) per player count at scale 1.
BUDGETS = {"seats": 50_000, "jokers": 4_000, "trump": 20_000, "compare": 10_000,
           "ladder": 2_000, "fields": 1_000, "trump-fields": 5_000, "seats-fields": 10_000}
COMPARE = {"game": "jass", "strategies": ("basic", "aim-high", "aim-low", "adaptive"),
           "players": (4,)}


def budget(study: str, scale: float) -> int:
    """The study's default budget times ``scale`` (at least 100)."""
    return max(100, int(round(BUDGETS[study] * scale)))


def run_all(backend: Backend, scale: float = 1.0) -> Iterator[StudyResult]:
    """Run seats, jokers, trump, compare, the ladder (both games) and the joker answer across
    fields in turn, yielding each result when done."""
    yield run_seats(backend, games=budget("seats", scale))
    yield run_jokers(backend, games=budget("jokers", scale))
    yield run_trump(backend, deals=budget("trump", scale))
    yield run_compare(backend, COMPARE["game"], COMPARE["strategies"], COMPARE["players"],
                      games=budget("compare", scale), until_sure=True)
    yield run_ladder(backend, ("ass", "jass"), games=budget("ladder", scale))
    yield run_fields(backend, games=budget("fields", scale),
                     trump_deals=budget("trump-fields", scale),
                     seats_games=budget("seats-fields", scale))

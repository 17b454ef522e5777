"""Sample games that show a study's finding, picked from the study's own runs.

* Who's the Ass? (jokers study): a game in which the joker hoarder ends with jokers in hand.
* Plus-Minus Jass (trump study): a deal in which the player who fixed trump went past 100
  card points (so, by J-9, the stick goes to the player with the fewest).

A sample is the game record (docs/game-records.md) replayed from the study's manifest (seed,
index, one strategy per seat) by the engines' trace mode, plus the seat it is about. The
report draws it (reports/samples.py); the command line hands this finder to the report, so
that the report itself never imports the engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.studies.results import StudyResult

SEARCH = 300  # games (deals) looked at for one that shows the finding


@dataclass(frozen=True)
class Sample:
    """A game record chosen for a study, the seat it is about, and its index in the run."""

    study: str
    record: dict[str, Any]
    seat: int
    index: int


def _spec(run: dict):
    from analyzer.engines.kernel import RunSpec

    return RunSpec(run["game"], int(run["players"]), tuple(run["strategies"]), int(run["seed"]),
                   run.get("mode", ""), dict(run.get("rules") or {}))


def jokers_sample(result: StudyResult) -> Sample | None:
    """A game in which the joker hoarder ends with jokers in hand (and the most points)."""
    from analyzer.engines.ass.records import Tracer

    hoarder = (result.manifest.get("policies") or {}).get("hoard", "joker-hoarder")
    runs = [r for r in result.manifest.get("runs") or [] if hoarder in r.get("strategies", [])]
    if not runs:
        return None
    run = ([r for r in runs if r["players"] == 4] or runs)[0]
    seat = run["strategies"].index(hoarder)
    tracer = Tracer(_spec(run))
    fallback = None
    for index in range(SEARCH):
        record, status = tracer.record(index)
        if status >= 0:
            continue
        if fallback is None or record["penalties"][seat] > fallback.record["penalties"][seat]:
            fallback = Sample("jokers", record, seat, index)
        if "J" in record["final_hands"][seat] and (
                record["penalties"][seat] == max(record["penalties"])):
            return Sample("jokers", record, seat, index)
    return fallback


def trump_sample(result: StudyResult) -> Sample | None:
    """A deal (seed rules where studied) in which the trump fixer went past 100 points."""
    from analyzer.engines.jass.records import trace_record

    runs = result.manifest.get("runs") or []
    seed_rules = [r for r in runs if (r.get("rules") or {}).get("ruleset") == "seed"]
    runs = seed_rules or runs
    run = ([r for r in runs if r.get("players") == 4] or runs or [None])[0]
    if run is None:
        return None
    spec = _spec(run)
    fallback = None
    for index in range(SEARCH):
        record = trace_record(spec, index)
        deal = record["deals"][0]
        fixer = deal.get("fixer")
        if fixer is None:
            continue
        if fallback is None:
            fallback = Sample("trump", record, fixer, index)
        if deal["points"][fixer] >= 100:
            return Sample("trump", record, fixer, index)
    return fallback


def find_sample(result: StudyResult) -> Sample | None:
    """The sample game of ``result``'s study (its declared ``sample`` finder,
    analyzer/studies/registry.py), or None when the study has none."""
    import importlib

    from analyzer.studies import registry

    if result.study not in registry.names() or not registry.get(result.study).sample:
        return None
    module, _, function = registry.get(result.study).sample.partition(":")
    return getattr(importlib.import_module(module), function)(result)

"""The glossary: every strategy a report names, in words, from the strategy registry.

Each entry is the name as typed on the command line, the game, the registry's one-line
description, and the knobs it sets (a preset's own values plus any given in the name, such
as ``hold-jokers:keep=3``). The registry imports no numba.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import CardlabError
from analyzer.games.registry import title as game_title
from analyzer.studies.results import StudyResult
from strategies.registry import catalog, parse_strategy


@dataclass(frozen=True)
class Entry:
    """One strategy as the glossary shows it."""

    name: str
    game: str
    description: str
    settings: str


def _labels(result: StudyResult) -> tuple[str, list[str]]:
    m = result.manifest
    game = str(m.get("game", "ass"))
    names: list[str] = []
    for key in ("strategies", "field"):
        names += [str(s) for s in m.get(key) or []]
    names += [str(s) for s in (m.get("policies") or {}).values()]
    for run in m.get("runs") or []:
        names += [str(s) for s in run.get("strategies", [])]
    return game, list(dict.fromkeys(names))


def entry(game: str, label: str) -> Entry:
    """The glossary entry of one strategy label of ``game``."""
    strategy = parse_strategy(game, label)
    spec = strategy.spec
    family = next((s for s in catalog(game).values()
                   if s.family == spec.family and not s.preset), spec)
    settings = []
    for p in spec.params:
        value = p.show(strategy.values[p.slot])
        if value != p.show(p.default) or p.name in spec.preset or f"{p.name}=" in label:
            settings.append(f"{p.name} = {value} ({p.description})")
    base = "" if family.name == spec.name else f"the {family.name} family; "
    return Entry(label, game_title(game), spec.description,
                 base + ("; ".join(settings) if settings else "no knobs changed"))


SWEEP = 2  # this many labels differing in one knob only become one entry


def _sweeps(labels: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Labels with sweeps (``name:key=v`` for several v) folded into ``name:key=k``."""
    groups: dict[str, list[str]] = {}
    for label in labels:
        name, _, rest = label.partition(":")
        if rest and "," not in rest and "=" in rest:
            groups.setdefault(f"{name}:{rest.split('=')[0]}=k", []).append(label)
    sweeps = {k: v for k, v in groups.items() if len(v) >= SWEEP}
    members = {m for v in sweeps.values() for m in v}
    out: list[str] = []
    for label in labels:
        if label in members:
            key = next(k for k, v in sweeps.items() if label in v)
            if key not in out:
                out.append(key)
        else:
            out.append(label)
    return out, sweeps


def _sweep_entry(game: str, key: str, labels: list[str]) -> Entry:
    first = entry(game, labels[0])
    knob = key.split(":", 1)[1].split("=")[0]
    values = ", ".join(lab.split("=", 1)[1] for lab in labels)
    settings = "; ".join(part for part in first.settings.split("; ")
                         if not part.startswith(f"{knob} = "))
    return Entry(key, first.game, first.description, f"{settings}; {knob} = k, one strategy "
                 f"for each k in {values}")


def glossary(results: list[StudyResult]) -> list[Entry]:
    """One entry per strategy named by any of ``results``, in order of first mention; a
    sweep over one knob (``hold-jokers:keep=0`` .. ``=13``) is one entry."""
    seen: dict[tuple[str, str], Entry] = {}
    for result in results:
        game, labels = _labels(result)
        labels, sweeps = _sweeps(labels)
        for label in labels:
            if label in sweeps:
                seen.setdefault((game, label), _sweep_entry(game, label, sweeps[label]))
                continue
            if (game, label) in seen:
                continue
            try:
                seen[(game, label)] = entry(game, label)
            except CardlabError:  # a name from a synthetic or older run: say so, do not fail
                seen[(game, label)] = Entry(label, game_title(game),
                                            "not a registered strategy", "")
    return list(seen.values())

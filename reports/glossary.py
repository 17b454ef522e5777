"""The glossary: every strategy a report names, in words, as the study played it.

Each entry is the name as typed on the command line, the game, the one-line description, and
the knobs it sets (a preset's own values plus any given in the name, such as
``hold-jokers:keep=3``). A study records each strategy's resolved definition when it is saved
(analyzer.studies.results.strategy_record); the glossary reads that, so a preset of a
strategies file is described as it was played, whatever file is loaded now. Older studies
without definitions are described from the registry. The registry imports no numba.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import CardlabError
from analyzer.games.registry import title as game_title
from analyzer.studies.results import StudyResult, definition_key, named_strategies
from strategies.registry import Strategy, from_definition, parse_strategy


@dataclass(frozen=True)
class Entry:
    """One strategy as the glossary shows it."""

    name: str
    game: str
    description: str
    settings: str


def _strategy(game: str, label: str, definitions: dict | None = None) -> Strategy:
    """The strategy ``label`` names: as the study recorded it, else from the registry."""
    recorded = (definitions or {}).get(definition_key(game, label))
    if isinstance(recorded, dict):
        return from_definition(game, recorded)
    return parse_strategy(game, label)


def entry(game: str, label: str, definitions: dict | None = None) -> Entry:
    """The glossary entry of one strategy label of ``game`` (``definitions``: the study's
    recorded label -> definition)."""
    strategy = _strategy(game, label, definitions)
    spec = strategy.spec
    family = strategy.family_name()
    own = strategy.spec.values
    settings = []
    for p in spec.params:
        value = p.show(strategy.values[p.slot])
        preset = p.name in spec.preset or (own is not None and own[p.slot] != p.default)
        if value != p.show(p.default) or preset or f"{p.name}=" in label:
            settings.append(f"{p.name} = {value} ({p.description})")
    base = "" if family == spec.name else f"the {family} family; "
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


def _sweep_entry(game: str, key: str, labels: list[str],
                 definitions: dict | None = None) -> Entry:
    first = entry(game, labels[0], definitions)
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
        definitions = result.manifest.get("definitions")
        definitions = definitions if isinstance(definitions, dict) else {}
        for game, named in named_strategies(result.manifest).items():
            labels, sweeps = _sweeps(named)
            for label in labels:
                if (game, label) in seen:
                    continue
                try:
                    seen[(game, label)] = (
                        _sweep_entry(game, label, sweeps[label], definitions)
                        if label in sweeps else entry(game, label, definitions))
                except CardlabError:  # a name from a synthetic or older run: say so
                    seen[(game, label)] = Entry(label, game_title(game),
                                                "not a registered strategy", "")
    return list(seen.values())

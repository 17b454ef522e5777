"""The registry that names every strategy of both games.

A strategy is a *family* (one jitted policy, selected in the engines by an integer id) plus a
*parameter vector* of ``N_PARAMS`` floats. A named strategy is a family with some parameters
fixed (a preset). On the command line a strategy is written ``name`` or ``name:key=value,...``,
e.g. ``hold-jokers:keep=2``. Parameters with named choices take the choice's name
(``jokers=dump``); the engines receive its position in ``choices``.

This module imports no numba: listing strategies and parsing options stays instant. Each
game's catalogue (``strategies/<game>/catalog.py``) registers its strategies here.
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import CardlabError
from analyzer.games import registry as games

N_PARAMS = 8
# A knob value: ASCII digits only (float() would also read "٣" or "１"), no nan/inf.
NUMBER_RE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


class StrategyError(CardlabError, ValueError):
    """A strategy name or parameter that does not exist or is out of range."""


@dataclass(frozen=True)
class Param:
    """One knob of a strategy family, stored at ``slot`` in the parameter vector."""

    name: str
    slot: int
    default: float
    description: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    integer: bool = False  # whole numbers only (a count, a hand size)

    @property
    def spellings(self) -> tuple[str, ...]:
        """The choices as the command line writes them: hyphens (``under-nine``)."""
        return tuple(c.replace("_", "-") for c in self.choices)

    def parse(self, text: str) -> float:
        if self.choices:
            # one spelling (hyphens); the underscore spelling is still accepted
            key = text.replace("_", "-")
            if key not in self.spellings:
                raise StrategyError(
                    f"parameter {self.name!r} must be one of {', '.join(self.spellings)}; "
                    f"got {text!r}"
                )
            return float(self.spellings.index(key))
        kind = "a number (a whole number)" if self.integer else "a number"
        if not NUMBER_RE.fullmatch(text):
            raise StrategyError(f"parameter {self.name!r} needs {kind}, got {text!r}")
        value = float(text)
        if not math.isfinite(value):
            raise StrategyError(f"parameter {self.name!r} needs a finite number, got {text!r}")
        if self.integer and value != int(value):
            raise StrategyError(f"parameter {self.name!r} needs {kind}, got {text!r}")
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise StrategyError(
                f"parameter {self.name!r} must be in [{self.low}, {self.high}], got {text}"
            )
        return value

    def show(self, value: float) -> str:
        if self.choices:
            return self.spellings[int(value)]
        return f"{value:g}"


@dataclass(frozen=True)
class StrategySpec:
    """A named strategy: a family id, its parameters, and the values this name fixes."""

    game: str
    name: str
    family: int
    description: str
    params: tuple[Param, ...] = ()
    preset: dict[str, str] = field(default_factory=dict)
    # "slow" (too slow for a full ladder) or "not-a-player" (e.g. an oracle): the ladder
    # leaves such strategies out unless asked for by name.
    tags: tuple[str, ...] = ()
    # False for an analysis tool that sees what the rules hide (A-11, J-11), e.g. ``peek``:
    # studies say so wherever it appears
    legal_player: bool = True

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        allowed = ", ".join(p.name for p in self.params) or "none"
        raise StrategyError(
            f"strategy {self.name!r} has no parameter {name!r} (parameters: {allowed})"
        )


@dataclass(frozen=True)
class Strategy:
    """A strategy ready for the engines: family id and full parameter vector."""

    spec: StrategySpec
    values: tuple[float, ...]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def family(self) -> int:
        return self.spec.family

    def label(self) -> str:
        """``name`` plus the parameters that differ from the name's own preset."""
        base = resolve_values(self.spec, {})
        changed = [
            f"{p.name}={p.show(self.values[p.slot])}"
            for p in self.spec.params
            if self.values[p.slot] != base[p.slot]
        ]
        return self.spec.name + (":" + ",".join(changed) if changed else "")

    def describe_params(self) -> dict[str, str]:
        return {p.name: p.show(self.values[p.slot]) for p in self.spec.params}


_CATALOGS: dict[str, dict[str, StrategySpec]] = {}


def register(spec: StrategySpec) -> StrategySpec:
    """Add a strategy to its game's catalogue (called by the catalogue modules)."""
    if spec.game not in games.names():
        raise ValueError(f"unknown game {spec.game!r}")
    book = _CATALOGS.setdefault(spec.game, {})
    if spec.name in book:
        raise ValueError(f"strategy {spec.name!r} registered twice for {spec.game}")
    slots = [p.slot for p in spec.params]
    if len(set(slots)) != len(slots) or any(not 0 <= s < N_PARAMS for s in slots):
        raise ValueError(f"strategy {spec.name!r}: parameter slots must be distinct, 0..7")
    book[spec.name] = spec
    return spec


def catalog(game: str, with_files: bool = True) -> dict[str, StrategySpec]:
    """All strategies of ``game`` by name, in registration order.

    Presets of the strategies files in ``CARDLAB_STRATEGIES`` come last (strategies/files.py).
    """
    if game not in games.names():
        raise StrategyError(f"unknown game {game!r}; games: {', '.join(games.names())}")
    if game not in _CATALOGS:
        importlib.import_module(games.get(game).strategies)
    if with_files and game in _CATALOGS:
        from strategies.files import load_for

        load_for(game)
    return _CATALOGS.get(game, {})


def resolve_values(spec: StrategySpec, overrides: dict[str, str]) -> tuple[float, ...]:
    values = np.zeros(N_PARAMS)
    for p in spec.params:
        values[p.slot] = p.default
    for key, text in {**spec.preset, **overrides}.items():
        p = spec.param(key)
        values[p.slot] = p.parse(text)
    return tuple(float(v) for v in values)


def parse_strategy(game: str, text: str) -> Strategy:
    """Parse ``name`` or ``name:key=value,key=value`` into a :class:`Strategy`."""
    name, _, rest = text.strip().partition(":")
    book = catalog(game)
    if name not in book:
        raise StrategyError(
            f"unknown {game} strategy {name!r}; known: {', '.join(book)}"
        )
    overrides: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise StrategyError(
                    f"bad strategy parameter {item!r} in {text!r}; write key=value"
                )
            if key.strip() in overrides:
                raise StrategyError(
                    f"parameter {key.strip()!r} is given twice in {text!r}; give it once"
                )
            overrides[key.strip()] = value.strip()
    spec = book[name]
    return Strategy(spec, resolve_values(spec, overrides))


def parse_strategies(game: str, texts: Sequence[str]) -> list[Strategy]:
    """:func:`parse_strategy` of each text, each distinct text parsed once: a table usually
    repeats one strategy in every seat, and the kernels parse a chunk's seats twice (to check
    the run, then for the engine's arrays), which cost a Jass chunk about 0.2 ms (11 ns a
    deal in the runner's 20,000-deal chunks) before this."""
    parsed: dict[str, Strategy] = {}
    for text in texts:
        if text not in parsed:
            parsed[text] = parse_strategy(game, text)
    return [parsed[text] for text in texts]


def seat_strategies(game: str, texts: list[str], players: int) -> list[Strategy]:
    """One strategy per seat: a single text applies to every seat, else one per seat."""
    if not texts:
        texts = ["basic"]
    if len(texts) == 1:
        texts = texts * players
    if len(texts) != players:
        raise StrategyError(
            f"give one --strategy for all seats or exactly {players} (one per seat); "
            f"got {len(texts)}"
        )
    return parse_strategies(game, texts)


def engine_arrays(field_: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    """Family ids (int64[n]) and parameter matrix (float64[n, N_PARAMS]) for the engines."""
    families = np.array([s.family for s in field_], dtype=np.int64)
    params = np.array([s.values for s in field_], dtype=np.float64).reshape(len(field_), N_PARAMS)
    return families, params


def illegal_players(game: str, texts: list[str]) -> list[str]:
    """The strategies among ``texts`` that are not legal players (they see hidden cards)."""
    out = []
    for text in texts:
        try:
            strategy = parse_strategy(game, text)
        except StrategyError:
            continue
        if not strategy.spec.legal_player:
            out.append(text)
    return out

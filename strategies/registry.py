"""The registry that names every strategy of both games.

A strategy is a *family* (one jitted policy, selected in the engines by an integer id) plus a
*parameter vector* of ``N_PARAMS`` floats. A named strategy is a family with some parameters
fixed (a preset). On the command line a strategy is written ``name`` or ``name:key=value,...``,
e.g. ``hold-jokers:keep=2``. Parameters with named choices take the choice's name
(``jokers=dump``); the engines receive its position in ``choices``.

A strategy's *identity* is what it plays: its family and every knob value as the exact float
(:meth:`Strategy.identity`); its *definition* (:meth:`Strategy.definition`) adds the name and
description, and :func:`from_definition` turns it back into the same Strategy without any
strategies file. Runs record definitions, compare and resume compare identities, and knob
values are shown exactly (``strength=1.0000001``, never rounded to ``1``). Knobs declared
``integer`` accept whole numbers only.

This module imports no numba: listing strategies and parsing options stays instant. Each
game's catalogue (``strategies/<game>/catalog.py``) registers its strategies here and ends
with :func:`catalog_complete`.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import math
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import CardlabError
from analyzer.games import registry as games
from analyzer.numbers import NumberError, parse_float

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
    # a knob that acts only when the strategy is another's rollout (learned's depth): a seat
    # plays the same whatever its value, so the strategy's identity leaves it out
    rollout_only: bool = False
    # (players, value) pairs: the value 0 stands for the player count's (Jass pimc's worlds);
    # :meth:`Strategy.values_at` resolves it where the player count is known
    by_players: tuple[tuple[int, float], ...] = ()

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
        try:  # the command line's one number parser: 1e-400 is not silently 0
            value = parse_float(text, f"parameter {self.name!r}")
        except NumberError as exc:
            raise StrategyError(str(exc)) from None
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
        """The value as the command line writes it, exactly: ``parse(show(v)) == v``."""
        if self.choices:
            return self.spellings[int(value)]
        return exact_number(value)


def exact_number(value: float) -> str:
    """``value`` in the shortest text that reads back as exactly the same float (``1``,
    ``0.5``, ``1.0000001``): never rounded, so two different knob values never print alike."""
    short = f"{value:g}"
    if float(short) == value:
        return short
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


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
    # The name's own parameter vector, exactly, when it is known resolved (a strategies file's
    # preset, or a spec rebuilt from a recorded definition); else defaults plus ``preset``.
    values: tuple[float, ...] | None = None
    # The strategies file a preset was read from ("" for a strategy registered in code); not
    # part of what the strategy is (the same preset read from two files is one strategy).
    source: str = field(default="", compare=False)
    # Called before the strategy is used (parsed, rebuilt from a definition): raises a
    # one-line StrategyError when what the family needs is unusable (a learned family's
    # weights file missing or corrupt); None for the families that need nothing.
    check: Any = field(default=None, compare=False)
    # Called with the resolved parameter vector, after ``check``: raises a one-line
    # StrategyError when what these knob values need is unusable (pimc's rollout=value needs
    # its value weights); None when nothing depends on the knobs.
    check_values: Any = field(default=None, compare=False)
    # A paragraph for ``cardlab strategies NAME`` (what the strategy sees, how it was made);
    # a callable is called then (it may read files).
    about: Any = field(default="", compare=False)

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

    def family_name(self) -> str:
        """The built-in strategy that declares this family's knobs (``heuristic``, ``pimc``)."""
        return family_root(self.spec).name

    def values_at(self, players: int) -> tuple[float, ...]:
        """The knob values as they play at ``players`` players: a knob's 0 that stands for
        the player count's value (``Param.by_players``) replaced by that value."""
        values = list(self.values)
        for p in self.spec.params:
            if p.by_players and values[p.slot] == 0:
                values[p.slot] = dict(p.by_players).get(players, 0.0)
        return tuple(values)

    def by_players_at(self, players: int) -> dict[str, str]:
        """The knobs whose 0 stands for the player count's value (:meth:`values_at`), as they
        play at ``players`` players, each as its exact float's ``repr``: a run records them
        beside the definition, since the count's value is the code's and may change (Jass
        ``pimc``'s worlds at 4 players went from 18 to 24)."""
        at = self.values_at(players)
        return {p.name: repr(float(at[p.slot])) for p in self.spec.params
                if p.by_players and self.values[p.slot] == 0}

    def identity(self) -> str:
        """What this strategy plays, exactly: the family and every knob value as the exact
        float (``heuristic:jokers=0.0,keep=2.0,...``). Two strategies play alike if their
        identities are equal, whatever they are called, and only if so but for a knob whose 0
        stands for the player count's value (:meth:`values_at` compares at one count); run
        manifests, resume, compare's "the same strategy" and cache keys compare this."""
        knobs = ",".join(f"{p.name}={self.values[p.slot]!r}" for p in self.spec.params
                         if not p.rollout_only)
        return self.family_name() + (":" + knobs if knobs else "")

    def definition(self) -> dict[str, Any]:
        """The fully resolved strategy as JSON-able data: name, description, family, the
        name's own knob values and this strategy's knob values, every float exact (its
        ``repr``). :func:`from_definition` turns it back into this very Strategy without any
        strategies file, so a run folder stands alone."""
        own = resolve_values(self.spec, {})
        return {
            "name": self.name,
            "description": self.spec.description,
            "family": self.family_name(),
            "preset": {p.name: repr(own[p.slot]) for p in self.spec.params},
            "knobs": {p.name: repr(self.values[p.slot]) for p in self.spec.params},
            "identity": self.identity(),
        }


_CATALOGS: dict[str, dict[str, StrategySpec]] = {}
# Games whose catalogue module has run to its end (:func:`catalog_complete`). Strategies files
# are loaded only after that, in every process alike: a file preset may name any built-in
# strategy as its base, whichever module first asked for the catalogue.
_COMPLETE: set[str] = set()


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


def catalog_complete(game: str) -> None:
    """Called by a game's catalogue module as its last statement: every built-in strategy is
    registered, so strategies files (whose presets build on them) may be loaded now."""
    _COMPLETE.add(game)


def catalog(game: str, with_files: bool = True) -> dict[str, StrategySpec]:
    """All strategies of ``game`` by name, in registration order.

    Presets of the strategies files in ``CARDLAB_STRATEGIES`` come last (strategies/files.py),
    and only once the built-in catalogue is complete: a look-up made while the catalogue module
    itself runs (e.g. to encode a default knob) sees the built-ins registered so far.
    """
    if game not in games.names():
        raise StrategyError(f"unknown game {game!r}; games: {', '.join(games.names())}")
    if game not in _CATALOGS:
        importlib.import_module(catalog_module(game))
    if with_files and game in _COMPLETE:
        for load in _FILE_LOADERS:
            load(game)
    return _CATALOGS.get(game, {})


def catalog_module(game: str) -> str:
    """The module that registers ``game``'s strategies: its adapter's ``catalog``
    (GameParts), ``strategies.<game>.catalog`` for a description without an adapter."""
    parts = games.get(game).parts
    return parts.catalog if parts is not None else f"strategies.{game}.catalog"


# Loaders of the presets in strategies files (strategies/files.py adds its own when imported,
# which every catalogue module does): called with a game once its catalogue is complete.
_FILE_LOADERS: list = []


def add_file_loader(load) -> None:
    """Call ``load(game)`` whenever a complete catalogue is asked for (strategies files)."""
    if load not in _FILE_LOADERS:
        _FILE_LOADERS.append(load)


def family_root(spec: StrategySpec) -> StrategySpec:
    """The built-in strategy registered first with ``spec``'s family and knobs (the family's
    own name: ``heuristic``, ``pimc``)."""
    for other in catalog(spec.game, with_files=False).values():
        if other.family == spec.family and other.params == spec.params:
            return other
    raise StrategyError(f"{spec.game} strategy {spec.name!r}: no built-in strategy declares "
                        f"its family {spec.family}")


def user_file(spec: StrategySpec) -> str:
    """The strategies file that a command must be given (``--strategies FILE``) for ``spec``
    to exist: its source, unless that ships with cardlab (``strategies/<game>/tuned*.toml``,
    loaded by every process)."""
    if not spec.source:
        return ""
    shipped = Path(__file__).resolve().parent
    return "" if Path(spec.source).resolve().is_relative_to(shipped) else spec.source


def unknown_strategy(game: str, name: str, book: Mapping[str, Any], what: str = "") -> str:
    """The one-line message for an unknown strategy name: the closest names first ("did you
    mean careful?"), then every known name."""
    close = difflib.get_close_matches(name, list(book), n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    return f"unknown {game} strategy {name!r}{what}; {hint}known: {', '.join(book)}"


def resolve_values(spec: StrategySpec, overrides: dict[str, str]) -> tuple[float, ...]:
    """The parameter vector of ``spec`` with ``overrides`` (knob -> text) on top."""
    if spec.values is not None:
        values = np.array(spec.values, dtype=np.float64)
        todo = dict(overrides)
    else:
        values = np.zeros(N_PARAMS)
        for p in spec.params:
            values[p.slot] = p.default
        todo = {**spec.preset, **overrides}
    for key, text in todo.items():
        p = spec.param(key)
        values[p.slot] = p.parse(text)
    return tuple(float(v) for v in values)


def _exact_float(text: Any, where: str) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise StrategyError(f"{where}: not a number: {text!r}") from None
    if not math.isfinite(value):
        raise StrategyError(f"{where}: not a finite number: {text!r}")
    return value


def from_definition(game: str, definition: Mapping[str, Any]) -> Strategy:
    """The Strategy a :meth:`Strategy.definition` describes, from the definition alone (the
    family's built-in declaration supplies the knobs; no strategies file is read). Knob values
    are checked against the declaration (range, whole numbers, choices)."""
    where = f"recorded {game} strategy"
    try:
        name = str(definition["name"])
        family_name = str(definition["family"])
        knobs = dict(definition["knobs"])
        preset = dict(definition["preset"])
        description = str(definition.get("description", ""))
    except (KeyError, TypeError, ValueError):
        raise StrategyError(f"{where} {definition!r}: needs name, family, preset and knobs"
                            ) from None
    book = catalog(game, with_files=False)
    root = book.get(family_name)
    if root is None or family_root(root) is not root:
        raise StrategyError(f"{where} {name!r}: unknown family {family_name!r}")
    if root.check is not None:
        root.check()
    declared = {p.name for p in root.params}
    if set(knobs) != declared or set(preset) != declared:
        raise StrategyError(f"{where} {name!r}: its knobs must be exactly those of "
                            f"{family_name} ({', '.join(sorted(declared)) or 'none'})")

    def vector(texts: dict[str, Any]) -> tuple[float, ...]:
        values = [0.0] * N_PARAMS
        for p in root.params:
            value = _exact_float(texts[p.name], f"{where} {name!r} knob {p.name}")
            if p.choices and value not in range(len(p.choices)):
                raise StrategyError(f"{where} {name!r}: knob {p.name} is no choice: {value!r}")
            if type(p) is Param and not p.choices:  # checked as if typed: range, whole
                p.parse(p.show(value))
            values[p.slot] = value
        return tuple(values)

    own = vector(preset)
    knob_values = vector(knobs)
    if root.check_values is not None:
        root.check_values(knob_values)
    spec = StrategySpec(game, name, root.family, description, root.params,
                        preset={p.name: p.show(own[p.slot]) if type(p) is Param
                                else exact_number(own[p.slot])
                                for p in root.params if own[p.slot] != p.default},
                        tags=root.tags, legal_player=root.legal_player, values=own,
                        check_values=root.check_values)
    return Strategy(spec, knob_values)


# Strategies pinned to their texts for the duration of a task (:func:`pinned`), per thread:
# (game, text) -> the definition, replaced by its Strategy when first looked up.
_PINS = threading.local()


@contextlib.contextmanager
def pinned(game: str, definitions: Mapping[str, Mapping[str, Any]]) -> Iterator[None]:
    """While inside, :func:`parse_strategy` of ``game`` reads each text of ``definitions``
    (text -> :meth:`Strategy.definition`) as that recorded definition, never from the
    catalogue or a strategies file: a worker plays exactly what its parent resolved, and a
    replay exactly what its run recorded. A definition is read when its text is first parsed
    (a bad one raises StrategyError then)."""
    saved = getattr(_PINS, "pins", {})
    _PINS.pins = {**saved, **{(game, text): d for text, d in definitions.items()}}
    try:
        yield
    finally:
        _PINS.pins = saved


def parse_strategy(game: str, text: str) -> Strategy:
    """Parse ``name`` or ``name:key=value,key=value`` into a :class:`Strategy`."""
    pins = getattr(_PINS, "pins", {})
    pin = pins.get((game, text))
    if pin is not None:
        if not isinstance(pin, Strategy):
            pin = pins[(game, text)] = from_definition(game, pin)
        return pin
    name, _, rest = text.strip().partition(":")
    book = catalog(game)
    if name not in book:
        raise StrategyError(unknown_strategy(game, name, book))
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
    if spec.check is not None:
        spec.check()
    values = resolve_values(spec, overrides)
    if spec.check_values is not None:
        spec.check_values(values)
    return Strategy(spec, values)


def parse_strategies(game: str, texts: Sequence[str]) -> list[Strategy]:
    """:func:`parse_strategy` of each text, each distinct text parsed once: a table usually
    repeats one strategy in every seat. A kernel's ``play_chunk`` parses its seats once
    (``checked``), for both the run's check and the engine's arrays."""
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


def is_slow(game: str, text: str) -> bool:
    """Whether strategy ``text`` of ``game`` is tagged ``slow`` (a search: the studies give it
    a share of their budget); an unknown name is not."""
    try:
        return "slow" in parse_strategy(game, text).spec.tags
    except StrategyError:
        return False

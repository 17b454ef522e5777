"""The registry of games: one :class:`GameDescription` per game, found by name.

Each game exports ``DESCRIPTION`` from ``analyzer.games.<game>.description`` (plain data, no
numba: importing it compiles nothing). The runner, the studies, the command line, the
strategy registry and the reports ask this registry for names, titles, player ranges,
modes, units and chunk sizes instead of keeping lists of their own. ``docs/adding-a-game.md``
says what a new game provides; :func:`register` adds one (the toy game in the tests does).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from analyzer.errors import CardlabError

# The games cardlab ships: the only list of them (others come in through register()).
BUILTIN = ("analyzer.games.ass.description", "analyzer.games.jass.description")


@dataclass(frozen=True)
class Column:
    """A result column, declared once: name, numpy dtype, meaning, whether it describes the
    whole unit (the same value repeated on every seat's row) rather than the seat, its unit
    and the range the rules allow (``low`` to ``high``; ``high`` None where the rules set no
    upper bound, e.g. a count of rounds), which every interval of it respects.
    docs/data-dictionary.md is generated from these (:mod:`analyzer.games.dictionary`)."""

    name: str
    dtype: str
    description: str
    per_unit: bool = False
    unit: str = ""
    low: int | None = None
    high: int | None = None

    def range_text(self) -> str:
        """The allowed values in words: "0 to 157", "1 or more", "0 or 1 (false, true)"."""
        if self.dtype == "bool":
            return "false or true"
        if self.low is None:
            return "any"
        if self.high is None:
            return f"{self.low:,} or more"
        return f"{self.low:,} to {self.high:,}"


@dataclass(frozen=True)
class Mode:
    """A way to play a game: what one index identifies (``unit``), the preferred chunk
    size (units per runner chunk, about 0.2-0.3 s on one core) and the result column a
    comparison ranks by when none is given."""

    name: str
    unit: str
    chunk_size: int
    default_metric: str
    description: str = ""
    columns: tuple[Column, ...] = ()
    row_name: str = "seat"  # what a row's ``seat`` stands for ("player" in ass matches)
    metrics: tuple = ()  # analyzer.metrics.Metric: the per-seat table's columns
    # on request, one row per seat of each part of a unit (a deal of a Jass match, a game of
    # an evening), from the unit's record (cardlab.match_details)
    details: tuple[Column, ...] = ()
    detail_unit: str = ""

    def column_descriptions(self) -> dict[str, str]:
        """{column: description}, in the order play_chunk returns them."""
        return {c.name: c.description for c in self.columns}

    def dtypes(self) -> dict[str, str]:
        """{column: numpy dtype name}."""
        return {c.name: c.dtype for c in self.columns}

    def unit_columns(self) -> tuple[str, ...]:
        """The columns that describe the whole unit, not the seat."""
        return tuple(c.name for c in self.columns if c.per_unit)


@dataclass(frozen=True)
class Measure:
    """A result column that can rank strategies: which way is better, the factor that turns
    its stored whole units into its natural unit (e.g. a share of a match win), and
    ``margin``, the smallest difference per unit, in the natural unit, that the ladder counts
    as a difference between two strategies (its groups are cut only where the strategies
    above are clearly more than ``margin`` ahead of those below; 0: any clear difference)."""

    column: str
    better: str  # "lower" or "higher"
    scale: float = 1.0
    margin: float = 0.0


@dataclass(frozen=True)
class RuleOption:
    """A rules option of a game (RunSpec.rules key), with its default and meaning."""

    name: str
    default: object
    description: str


@dataclass(frozen=True)
class Labels:
    """The labels of a move's loss in the analysis (docs/analyzing.md): the smallest loss of
    an inaccuracy, a mistake and a blunder in the game's unit, the unit in words and the
    result column of the description that an analysed value is (its direction and range)."""

    inaccuracy: float
    mistake: float
    blunder: float
    unit: str
    column: str


@dataclass(frozen=True)
class WarmPart:
    """A part of what ``study all`` compiles before its studies (analyzer.studies.suite):
    ``call`` (``"module:function"``, no arguments) compiles it, or "" for the generic parts
    every game has (``<game>-search``: its play loops with a ``pimc`` seat); ``after``: the
    part it shares most kernels with, compiled first in the same process."""

    name: str
    call: str = ""
    after: str = ""


@dataclass(frozen=True)
class GameParts:
    """Where a game's parts live above the rules: the one adapter each layer reads.

    Every module is named by its dotted path (``"module"`` or ``"module:attribute"``) and
    imported only when used (:func:`load`), so that the rules layer imports nothing above
    it. Every module named here is the game's own code (tests/test_game_facts.py): it alone
    may branch on the game; nothing else does. Only ``kernel`` and ``catalog`` are required;
    a game without an entry has no such part (e.g. no ``analysis``: ``cardlab analyze``
    says it is not available for the game).

    ``kernel``    the runner contract (analyzer/engines/kernel.py); its package holds the
                  ``records`` module (``match_records``, ``detail_rows``, ``trace_record``).
    ``catalog``   registers the game's strategies (strategies.registry.register).
    ``cli``       the command-line module (``show_record``; adds ``replay <game>`` etc.).
    ``analysis``  the analysis of a position (``analyze``, ``from_record``, ``record_plays``).
    ``learn``     the decision data of the learned player (analyzer.learn.train).
    ``board``     the analysis board's part (analyzer.board: ``FIELDS``, ``typed``, ``line``,
                  ``parts``, ``position``, ``warm``).
    ``viewer``    ``"module:function"``: a record -> the game viewer's data (reports.viewer).
    ``python``    the Python state for bots (cardlab.games): ``play_game``, ``game_rows``,
                  ``resample_hands``, ``PYTHON_MODE``.
    ``labels``    the analysis labels' thresholds (:class:`Labels`).
    ``worlds``    the analysis's worlds per position by default (a position in about a second
                  or less on one core with pimc's default evaluation: scripts/bench_advice.py).
    ``warm``      what ``study all`` compiles before the studies (:class:`WarmPart`).
    ``default_fields``  the fields (tables of strategies) a best response plays against.
    ``tables``    extra tables of a run beside its rows: ``(name, "module:function")``,
                  each ``function(spec, start, count)`` -> pandas DataFrame.
    ``own``       further modules that are the game's own code (engines, strategies).
    """

    kernel: str
    catalog: str
    cli: str = ""
    analysis: str = ""
    learn: str = ""
    board: str = ""
    viewer: str = ""
    python: str = ""
    labels: Labels | None = None
    worlds: int = 1000
    warm: tuple[WarmPart, ...] = ()
    default_fields: tuple[str, ...] = ()
    tables: tuple[tuple[str, str], ...] = ()
    own: tuple[str, ...] = ()

    def modules(self) -> tuple[str, ...]:
        """Every module this adapter names (the game's own code), without attributes."""
        paths = (self.kernel, self.catalog, self.cli, self.analysis, self.learn, self.board,
                 self.viewer,
                 self.python, *(w.call for w in self.warm), *(t for _, t in self.tables),
                 *self.own)
        return tuple(dict.fromkeys(p.partition(":")[0] for p in paths if p))

    def table(self, name: str) -> str:
        """The ``"module:function"`` of extra table ``name``, or a one-line error."""
        for key, path in self.tables:
            if key == name:
                return path
        have = ", ".join(k for k, _ in self.tables) or "none"
        raise CardlabError(f"no table {name!r} for this game; tables: {have}")


def load(path: str):
    """The module ``"module"`` or the attribute ``"module:attribute"`` a dotted path names."""
    module, _, attribute = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


@dataclass(frozen=True)
class GameDescription:
    """Everything downstream needs to know about a game, in one place.

    The rules layer names nothing above it: each layer finds its own part of a game through
    the game's adapter (``parts``, :class:`GameParts`: dotted paths, imported when used) by
    the game's name (the kernel: ``analyzer.engines.kernel.kernel_path``; the strategies:
    ``strategies.registry.catalog_module``; the record printer: ``analyzer.cli``).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    modes: tuple[Mode, ...]
    rules: tuple[RuleOption, ...] = field(default_factory=tuple)
    measures: tuple[Measure, ...] = field(default_factory=tuple)
    parts: GameParts | None = None

    def part(self, name: str, what: str = "") -> str:
        """The dotted path of adapter entry ``name`` (``"analysis"``), or a one-line error
        saying that ``what`` (default the entry's name) is not available for this game."""
        path = getattr(self.parts, name, "") if self.parts is not None else ""
        if not path:
            raise CardlabError(f"{what or name} is not available for {self.name} "
                               f"({self.title})")
        return path

    def has(self, name: str) -> bool:
        """Whether the game's adapter names part ``name``."""
        return bool(getattr(self.parts, name, "")) if self.parts is not None else False

    @property
    def default_mode(self) -> str:
        return self.modes[0].name

    def mode(self, name: str) -> Mode:
        """Mode ``name`` (the default mode for an empty name)."""
        name = name or self.default_mode
        for m in self.modes:
            if m.name == name:
                return m
        raise CardlabError(f"unknown mode {name!r} for {self.name}; modes: "
                           f"{', '.join(m.name for m in self.modes)}")

    def measure(self, column: str) -> Measure | None:
        """The ranking facts of result ``column``, None for a column without a direction."""
        return next((m for m in self.measures if m.column == column), None)

    def columns(self) -> dict[str, str]:
        """Every mode's columns, the default mode's first: {column: description}."""
        out: dict[str, str] = {}
        for m in self.modes:
            for name, text in m.column_descriptions().items():
                out.setdefault(name, text)
        return out

    def units(self) -> dict[str, str]:
        """{mode: unit}, e.g. {"matches": "match", "deals": "deal"}."""
        return {m.name: m.unit for m in self.modes}


_GAMES: dict[str, GameDescription] = {}


def register(description: GameDescription) -> GameDescription:
    """Add a game (a second description under the same name replaces the first)."""
    _GAMES[description.name] = description
    return description


def _load_builtin() -> None:
    if not all(path.rsplit(".", 2)[-2] in _GAMES for path in BUILTIN):
        for path in BUILTIN:
            register(importlib.import_module(path).DESCRIPTION)


def names() -> tuple[str, ...]:
    """The names of every game, the built-in ones first."""
    _load_builtin()
    return tuple(_GAMES)


def get(name: str) -> GameDescription:
    """The description of game ``name``, or a one-line error naming the games."""
    _load_builtin()
    if name not in _GAMES:
        raise CardlabError(f"unknown game {name!r}; games: {', '.join(_GAMES)}")
    return _GAMES[name]


def title(name: str) -> str:
    """The game's title for people ("Who's the Ass?"), or the name of an unknown game."""
    _load_builtin()
    return _GAMES[name].title if name in _GAMES else name


class ByGame(Mapping):
    """``{game: read(description)}`` for every game registered now, read when asked: a
    table of one fact per game taken from each game's description (its adapter), where a
    module would otherwise keep a dict keyed by games' names."""

    def __init__(self, read: Callable[[GameDescription], Any], part: str = "") -> None:
        self._read = read
        self._part = part  # only the games whose adapter names this part (e.g. "learn")

    def _games(self) -> tuple[str, ...]:
        return tuple(g for g in names() if not self._part or _GAMES[g].has(self._part))

    def __getitem__(self, game: str) -> Any:
        if game not in self._games():
            raise KeyError(game)
        return self._read(_GAMES[game])

    def __iter__(self) -> Iterator[str]:
        return iter(self._games())

    def __len__(self) -> int:
        return len(self._games())

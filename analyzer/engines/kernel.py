"""The contract between the games and everything downstream (runner, studies, reports).

A run is described by a :class:`RunSpec` (plain, JSON-able data: it is also the core of the
manifest). Each game has one description (analyzer/games/registry.py: modes, units, result
columns with dtypes, metrics, chunk sizes) and a *kernel module*, named by the description,
that provides (the tables below are views of the description, never a second list):

``UNIT``                 what one index identifies for each mode: {"games": "game"} for ass,
                         {"matches": "match", "deals": "deal"} for jass.
``MODES``                the modes the game supports (first = default).
``COLUMNS``              {column name: one-line description} of the per-seat result rows.
``UNIT_COLUMNS``         names in COLUMNS that describe the whole game/match/deal (the same
                         value repeated on every seat's row).
``SEAT_METRICS``         list[analyzer.metrics.Metric] printed in the per-seat table.
``validate(spec)``       -> RunSpec with every rules option filled in (e.g. per_player), or
                         raise analyzer.errors.CardlabError with a one-line message.
``play_chunk(spec, start, count)``
                         -> dict[str, numpy array]: rows for units start..start+count-1, one
                         row per (index, seat), ordered by index then seat, always with
                         columns "index" (int64) and "seat" (int16) first. Results depend on
                         (spec, index) alone, never on start/count: that is the reproducibility
                         contract the runner's tests check.
``warmup()``             compile (or load from cache) every kernel a run needs.

Per-seat rows in a long table are what pandas users expect (``df.groupby("seat")``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any

from analyzer.errors import CardlabError
from analyzer.seeds import MAX_SEED


@dataclass(frozen=True)
class RunSpec:
    """What to play: game, mode, players, rules options, one strategy per seat, master seed."""

    game: str
    players: int
    strategies: tuple[str, ...]
    seed: int
    mode: str = ""
    rules: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["strategies"] = list(self.strategies)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunSpec:
        return cls(
            game=d["game"],
            players=int(d["players"]),
            strategies=tuple(d["strategies"]),
            seed=int(d["seed"]),
            mode=d.get("mode", ""),
            rules=dict(d.get("rules", {})),
        )


def kernel_module(game: str) -> ModuleType:
    """Import the kernel module of ``game`` (lazily: a run compiles only what it uses)."""
    return importlib.import_module(kernel_path(game))


# Kernels of games that do not live at the conventional path (a game added by a plug-in or
# a test registers its module here with :func:`register_kernel`).
_KERNELS: dict[str, str] = {}


def register_kernel(game: str, module_path: str) -> None:
    """Name the kernel module of ``game`` when it is not ``analyzer.engines.<game>.kernel``."""
    _KERNELS[game] = module_path


def kernel_path(game: str) -> str:
    """The module path of ``game``'s kernel: its adapter's ``kernel`` (GameParts), unless one
    was registered here; ``analyzer.engines.<game>.kernel`` for a description without an
    adapter; a one-line error for an unknown game."""
    from analyzer.games import registry

    description = registry.get(game)
    if game in _KERNELS:
        return _KERNELS[game]
    if description.parts is not None:
        return description.parts.kernel
    return f"analyzer.engines.{game}.kernel"


def records_module(game: str) -> ModuleType:
    """``game``'s records module, beside its kernel (``analyzer.engines.<game>.records``):
    ``match_records(spec, start, count)``, ``detail_rows(records)``, ``first_illegal(record)``
    and ``unit_record(spec, index)`` (the record of one unit, traced by the engine)."""
    return importlib.import_module(kernel_path(game).rsplit(".", 1)[0] + ".records")


class IllegalStep(Exception):
    """The first step of a game record that the rules do not allow: ``where`` (the step),
    ``what`` is wrong and the ruling (docs/rulings.md) that forbids it."""

    def __init__(self, where: str, what: str, ruling: str) -> None:
        super().__init__(f"{where}: {what} ({ruling})")


def first_illegal_step(check: Callable[[dict[str, Any]], None], record: dict[str, Any]
                       ) -> str | None:
    """``"where: what (ruling)"`` of the first :class:`IllegalStep` that ``check`` (a game's
    replay of ``record`` through its rules) raises, a line saying the record is not of the
    documented shape when it is malformed, or None when every step is legal."""
    try:
        check(record)
    except IllegalStep as exc:
        return str(exc)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        return (f"not a game record as docs/game-records.md describes it ({type(exc).__name__}:"
                f" {what})")
    return None


def check_game_and_mode(spec: RunSpec, game: str, modes: tuple[str, ...]) -> str:
    """Check that ``spec`` is for ``game`` and return its mode (the first of ``modes`` when
    none is given)."""
    if spec.game != game:
        raise CardlabError(f"this kernel plays {game!r}, not {spec.game!r}")
    mode = spec.mode or modes[0]
    if mode not in modes:
        raise CardlabError(f"unknown mode {mode!r} for {game}; modes: {', '.join(modes)}")
    return mode


def check_seed_and_strategies(spec: RunSpec) -> tuple[str, ...]:
    """Check the seed and the strategies of ``spec``; return one strategy text per seat.

    No strategy means ``basic`` everywhere; one strategy applies to every seat; otherwise
    there must be exactly one per seat, and every one must parse (the registry raises a
    one-line error naming what is allowed).
    """
    return parse_seed_and_strategies(spec)[0]


def parse_seed_and_strategies(spec: RunSpec) -> tuple[tuple[str, ...], list]:
    """:func:`check_seed_and_strategies`, with the parsed strategies (one
    ``strategies.registry.Strategy`` per seat) beside the texts: a kernel's ``play_chunk``
    builds the engine's arrays from these rather than parsing the seats again."""
    from strategies.registry import parse_strategies

    if not 0 <= spec.seed <= MAX_SEED:
        raise CardlabError(f"seed must be between 0 and {MAX_SEED}; got {spec.seed}")
    strategies = tuple(spec.strategies) or ("basic",)
    if len(strategies) == 1:
        strategies = strategies * spec.players
    if len(strategies) != spec.players:
        raise CardlabError(
            f"give one strategy for all seats or exactly {spec.players} (one per seat); "
            f"got {len(strategies)}"
        )
    return strategies, parse_strategies(spec.game, strategies)

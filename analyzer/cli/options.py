"""The command-line vocabulary, defined once: every command builds its shared options here.

One name, one short flag and one default per idea, whatever the command:

``-p/--players``   how many players (a study takes a list: ``3-12`` or ``3,4,8``)
``-n/--games``     how many games; Jass counts ``--matches`` or ``--deals`` (Who's the Ass?
                   also ``--matches``)
``-s/--strategy``  a strategy for every seat, or one per seat (a study's field too)
``-o/--out``       where results go
``-w/--workers``   worker processes
``-q/--quiet``     no progress bar
``--seed``         the master seed, default :data:`SEED_DEFAULT` everywhere
``--ruleset``      Jass's rule set (seed or swiss)

Typer reads an option from a function's default, so each helper returns a fresh
``typer.Option``; the help text may differ per command, the spelling may not.
Old spellings that still work (``study jokers --field``, ``--progress/--no-progress``,
``replay jass --mode``) are hidden options, merged by :func:`merge_alias`.
"""

from __future__ import annotations

from typing import Any

import typer

from analyzer.errors import CardlabError
from analyzer.seeds import DEFAULT_SEED, MAX_SEED

SEED_DEFAULT = DEFAULT_SEED
RULESETS = ("seed", "swiss")
RULESET_HELP = ("Rule set: seed (default, the rules as the seed text reads them) or swiss "
                "(common Swiss practice); docs/rulings.md J-6 lists the differences.")

# Every shared option: its long name and short flag (a test checks every command uses these).
SHARED = {
    "players": ("--players", "-p"),
    "games": ("--games", "-n"),
    "matches": ("--matches", None),
    "deals": ("--deals", None),
    "strategy": ("--strategy", "-s"),
    "out": ("--out", "-o"),
    "workers": ("--workers", "-w"),
    "quiet": ("--quiet", "-q"),
    "seed": ("--seed", None),
    "ruleset": ("--ruleset", None),
}


SHARED_FLAGS = {name: (long, *([short] if short else []))
                for name, (long, short) in SHARED.items()}


def _flags(name: str) -> tuple[str, ...]:
    return SHARED_FLAGS[name]


def players(default: Any = 4, help: str = "Players.") -> Any:
    return typer.Option(default, *_flags("players"), help=help)


def players_of(game: str, default: Any = 4) -> Any:
    """``-p/--players`` of one game, its help naming the counts the game's description allows
    ("Players, 3 to 12." / "Players, 3 or 4.")."""
    from analyzer.games.registry import get

    d = get(game)
    span = (f"{d.min_players} or {d.max_players}" if d.max_players == d.min_players + 1 else
            f"{d.min_players} to {d.max_players}")
    return players(default, f"Players, {span}.")


def check_count_bound(value: Any, what: str = "--games") -> Any:
    """A count no run can reach: every game, deal or match has an index below 2**63, so a
    count above 2**63 is refused in one line before any work (a study handed
    99999999999999999999999 games sized arrays or looped on it). Smaller bounds (>= 1, a
    start plus a count) are each command's own checks; non-integers pass through."""
    if isinstance(value, int) and value > MAX_SEED + 1:
        raise CardlabError(f"indices must stay below 2**63: {what} {value:,} passes 2**63-1")
    return value


# A chunk's rows are held in memory while they are played, reduced and written: the kernel's
# arrays, the Arrow table and Parquet's buffers (measured: about 1.6 times the rows' own bytes
# per chunk; ROW_COPIES leaves room). CHUNK_MEMORY is what one chunk may take; every worker
# holds one.
CHUNK_MEMORY = 1 << 30
ROW_COPIES = 4


def row_bytes(game: str, mode: str) -> int:
    """Bytes of one result row of ``game`` in ``mode``: its declared columns' dtypes."""
    import numpy as np

    from analyzer.games import registry

    return sum(np.dtype(c.dtype).itemsize for c in registry.get(game).mode(mode).columns)


def max_chunk_size(game: str, mode: str, players: int) -> int:
    """The largest --chunk-size whose rows (one per seat and unit) fit in CHUNK_MEMORY."""
    per_unit = row_bytes(game, mode) * max(int(players), 1) * ROW_COPIES
    return max(1, CHUNK_MEMORY // per_unit)


def check_chunk_size(value: int | None, game: str, mode: str, players: int,
                     count: int) -> None:
    """Refuse, in one line before any work, a --chunk-size whose rows would not fit in
    memory (the chunk played is at most the whole run, ``count`` units)."""
    if value is None or not isinstance(value, int) or not isinstance(count, int):
        return
    from analyzer.games import registry

    largest = max_chunk_size(game, mode, players)
    if min(value, count) > largest:
        unit = registry.get(game).mode(mode).unit
        need = min(value, count) * row_bytes(game, mode) * max(players, 1) * ROW_COPIES
        raise CardlabError(
            f"--chunk-size {value:,} needs about {need / (1 << 30):,.1f} GiB for one chunk's "
            f"rows ({row_bytes(game, mode)} bytes per row, {players} rows per {unit}, held "
            f"about {ROW_COPIES} times); the largest allowed is {largest:,}"
        )


def chunk_size(help: str = "Games (matches, deals) per chunk (default: automatic).") -> Any:
    """--chunk-size: a count like any other (below 2**63); its memory bound needs the game,
    mode and players, so the command checks it with :func:`check_chunk_size`."""
    return typer.Option(None, "--chunk-size", help=help,
                        callback=lambda v: check_count_bound(v, "--chunk-size"))


def games(default: Any = None, help: str = "Games to play.") -> Any:
    return typer.Option(default, *_flags("games"), help=help,
                        callback=lambda v: check_count_bound(v, "--games"))


def matches(default: Any = None, help: str = "Matches to play.") -> Any:
    return typer.Option(default, *_flags("matches"), help=help,
                        callback=lambda v: check_count_bound(v, "--matches"))


def deals(default: Any = None, help: str = "Play single deals instead of matches.") -> Any:
    return typer.Option(default, *_flags("deals"), help=help,
                        callback=lambda v: check_count_bound(v, "--deals"))


STRATEGY_HELP = ("Strategy for every seat, or repeat once per seat (seat 0 first); "
                 "NAME or NAME:key=value,key=value (see `cardlab strategies`).")


def strategy(default: Any = None, help: str = STRATEGY_HELP) -> Any:
    return typer.Option(default, *_flags("strategy"), help=help)


def out(default: Any = None, help: str = "Output folder.") -> Any:
    return typer.Option(default, *_flags("out"), help=help)


def workers(default: Any = None, help: str = "Worker processes (default: every core).") -> Any:
    return typer.Option(default, *_flags("workers"), help=help)


def quiet(help: str = "No progress bar.") -> Any:
    return typer.Option(False, *_flags("quiet"), help=help)


def seed(help: str = "Master seed (0..2**63-1): with the index it fixes a game.") -> Any:
    return typer.Option(SEED_DEFAULT, *_flags("seed"), help=help)


def ruleset(default: Any = "seed", help: str = RULESET_HELP) -> Any:
    return typer.Option(default, *_flags("ruleset"), help=help)


def strong_field(help: str) -> Any:
    """``--strong-field NAME`` (repeat; ``none`` for no strong field): see :func:`strong_fields`."""
    return typer.Option([], "--strong-field", help=help)


def slow_games(help: str) -> Any:
    """``--slow-games N``: the budget of a field tagged slow (pimc)."""
    return typer.Option(None, "--slow-games", help=help)


def strong_fields(given: list[str], default: tuple[str, ...]) -> list[str]:
    """The strong fields a study meets: ``default`` when none is given, [] for ``none``."""
    if [s.strip().lower() for s in given] == ["none"]:
        return []
    return list(given) or list(default)


def check_slow_games(value: int | None) -> None:
    """One line for a ``--slow-games`` below 2 (None: the study's default)."""
    if value is not None and value < 2:
        raise CardlabError(f"--slow-games must be at least 2; got {value}")


def progress_alias() -> Any:
    """The old ``--progress/--no-progress`` of the studies, hidden (``-q/--quiet`` now)."""
    return typer.Option(None, "--progress/--no-progress", hidden=True)


def show_progress(quiet_: bool, progress: bool | None) -> bool:
    """Progress bars unless -q or the old --no-progress was given."""
    return not quiet_ and progress is not False


def merge_alias(value: Any, alias: Any, name: str, old: str) -> Any:
    """``value`` of a shared option, or the value given under its hidden old spelling
    (both at once is a one-line error)."""
    from analyzer.errors import CardlabError

    if alias:
        if value:
            raise CardlabError(f"give {name} or its old spelling {old}, not both")
        return alias
    return value


# --- numbers: every numeric option is read by analyzer.numbers ------------------------------


def _strict_int(value: Any) -> Any:
    from analyzer.numbers import parse_int

    return value if value is None else parse_int(value, "")


def _strict_float(value: Any) -> Any:
    from analyzer.numbers import parse_float

    return value if value is None else parse_float(value, "")


def _number_kind(annotation: Any) -> type | None:
    """int or float when a parameter's annotation is one (or an Optional or list of one)."""
    import typing

    if annotation in (int, float):
        return annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (list, tuple, typing.Union) or args:
        kinds = {_number_kind(a) for a in args}
        if len(kinds) == 1:
            return kinds.pop()
    return None


def strict_numbers(typer_app: Any) -> list[str]:
    """Make every int and float option and argument of ``typer_app`` (its sub-apps too) read
    its value with :func:`analyzer.numbers.parse_int` / ``parse_float``: typer reads numbers
    the lenient way of Python's int() (``1_0`` is 10, a full-width ``１`` is 1) and float()
    (``1e-400`` is 0). Run once, after every command is registered (analyzer.cli does);
    returns the ``command:parameter`` names it changed (for the tests)."""
    import inspect
    import typing

    from typer.models import ParameterInfo

    changed: list[str] = []

    def visit(t: Any, path: str) -> None:
        for info in t.registered_commands:
            fn = info.callback
            hints = typing.get_type_hints(fn)
            for name, param in inspect.signature(fn).parameters.items():
                default = param.default
                if not isinstance(default, ParameterInfo) or default.parser is not None:
                    continue
                kind = _number_kind(hints.get(name))
                if kind is None:
                    continue
                default.parser = _strict_int if kind is int else _strict_float
                changed.append(f"{path} {info.name or fn.__name__}:{name}".strip())
        for group in t.registered_groups:
            visit(group.typer_instance, f"{path} {group.name}".strip())

    visit(typer_app, "")
    return changed

"""Strategies files: named presets kept in a TOML file and loaded by every command.

A strategies file names presets of registered strategies, per game::

    # written by: cardlab tune ass --players 4 --games 400000 --seed 11
    [ass.my-tuned]
    base = "heuristic"                     # a registered strategy whose knobs these are
    description = "tuned against basic at 4 players"
    params = { jokers = "keep-until", keep = 3 }

Each ``[GAME.NAME]`` table becomes a strategy ``NAME`` of ``GAME``: the family of ``base``
with ``base``'s own preset, then ``params`` on top (values as on the command line: a choice's
name or a number). A name may not shadow a built-in strategy or a preset of another file.

Files are loaded from ``CARDLAB_STRATEGIES`` (one path, or several separated by the
platform's path separator, ``:`` on Linux). ``cardlab --strategies FILE`` (the option may
stand anywhere on the command line) puts FILE there. :func:`strategies.registry.catalog`
calls :func:`load_for` on every look-up once the game's built-in catalogue is complete (the
same order in every process); each file is read once per process. A preset is resolved when
it is read (``StrategySpec.values``, every knob as the exact float the file holds), and runs
record and hand to their worker processes that resolved definition (registry
``Strategy.definition``), so neither a worker nor a later replay reads the file again.

``tomllib`` (``tomli`` before Python 3.11) reads TOML; writing needs only strings and numbers, so
:func:`write_presets` formats the file itself.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from analyzer.games import registry as games_registry
from strategies.registry import (
    StrategyError,
    StrategySpec,
    exact_number,
    register,
    resolve_values,
    unknown_strategy,
)

ENV = "CARDLAB_STRATEGIES"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_KEYS = {"base", "description", "params"}

# path -> {game: [specs]} for files already read; (path, game) pairs already registered.
_READ: dict[str, dict[str, list[StrategySpec]]] = {}
_REGISTERED: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Preset:
    """A preset to write: game, name, base strategy, knob values (as text), description."""

    game: str
    name: str
    base: str
    params: dict[str, str]
    description: str = ""


def env_paths() -> list[str]:
    """The strategies files named by ``CARDLAB_STRATEGIES`` (absolute paths)."""
    text = os.environ.get(ENV, "")
    return [str(Path(p).expanduser().resolve()) for p in text.split(os.pathsep) if p.strip()]


def add_to_env(path: str | Path) -> str:
    """Check ``path`` now (one-line error if bad) and add it to ``CARDLAB_STRATEGIES``."""
    full = str(Path(path).expanduser().resolve())
    read_file(full)
    paths = env_paths()
    if full not in paths:
        os.environ[ENV] = os.pathsep.join([*paths, full])
    return full


def _text(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise StrategyError(f"{where}: a knob value must be a string or a number, got {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise StrategyError(f"{where}: a knob value must be finite, got {value!r}")
        return exact_number(value)  # the file's float exactly, never rounded
    return str(value)


def _spec_from(game: str, name: str, table: Any, path: str) -> StrategySpec:
    """One ``[game.name]`` table as a StrategySpec (every knob value checked now)."""
    from strategies.registry import catalog

    where = f"{path}: [{game}.{name}]"
    if not isinstance(table, dict):
        raise StrategyError(f"{where} must be a table with base, description and params")
    if not _NAME.match(name):
        raise StrategyError(f"{where}: a name is lower-case letters, digits, '-', '_' or '.'")
    unknown = set(table) - _KEYS
    if unknown:
        raise StrategyError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
                            f"allowed: {', '.join(sorted(_KEYS))}")
    base_name = table.get("base")
    if not isinstance(base_name, str):
        raise StrategyError(f"{where} needs base = \"<registered strategy>\"")
    book = catalog(game, with_files=False)
    if base_name not in book:
        raise StrategyError(f"{where}: {unknown_strategy(game, base_name, book, ' as base')}")
    base = book[base_name]
    params = table.get("params", {})
    if not isinstance(params, dict):
        raise StrategyError(f"{where}: params must be a table of knob = value")
    texts = {str(k): _text(v, f"{where} {k}") for k, v in params.items()}
    try:
        values = resolve_values(base, texts)  # unknown knobs, bad values fail here, with the file
    except StrategyError as exc:
        raise StrategyError(f"{where}: {exc}") from None
    description = table.get("description", f"preset of {base_name} from {Path(path).name}")
    if not isinstance(description, str):
        raise StrategyError(f"{where}: description must be a string")
    # Resolved now, exactly: the preset plays what the file said when it was read, and it
    # sees hidden cards (peek) or is slow (pimc) exactly when its base does.
    return StrategySpec(game, name, base.family, description, base.params,
                        {**base.preset, **texts}, tags=base.tags,
                        legal_player=base.legal_player, values=values, source=path)


def read_file(path: str | Path) -> dict[str, list[StrategySpec]]:
    """The presets of a strategies file by game, checked; cached per process."""
    full = str(Path(path).expanduser().resolve())
    if full in _READ:
        return _READ[full]
    p = Path(full)
    if not p.is_file():
        raise StrategyError(f"strategies file {path} does not exist")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise StrategyError(f"strategies file {path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"strategies file {path} is not valid TOML: {exc}") from None
    out: dict[str, list[StrategySpec]] = {}
    for game, presets in data.items():
        known = games_registry.names()
        if game not in known:
            raise StrategyError(f"{path}: unknown game [{game}]; games: {', '.join(known)}")
        if not isinstance(presets, dict):
            raise StrategyError(f"{path}: [{game}] must hold tables [{game}.NAME]")
        out[game] = [_spec_from(game, name, t, full) for name, t in presets.items()]
    _READ[full] = out
    return out


def register_file(path: str | Path, game: str) -> None:
    """Register ``game``'s presets of one file (once per process)."""
    from strategies.registry import catalog

    full = str(Path(path).expanduser().resolve())
    if (full, game) in _REGISTERED:
        return
    specs = read_file(full).get(game, [])
    book = catalog(game, with_files=False)
    for spec in specs:
        old = book.get(spec.name)
        if old is not None:
            if old == spec:  # the same preset from another file: harmless
                continue
            raise StrategyError(f"strategies file {path}: {game} strategy {spec.name!r} "
                                "already exists; choose another name")
        register(spec)
    _REGISTERED.add((full, game))


def load_for(game: str) -> None:
    """Register ``game``'s presets of every file in ``CARDLAB_STRATEGIES`` not yet loaded."""
    for path in env_paths():
        if (path, game) not in _REGISTERED:
            register_file(path, game)


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _toml_value(text: str) -> str:
    try:
        value = float(text)
    except ValueError:
        return _toml_string(text)
    if math.isfinite(value):
        return str(int(value)) if value == int(value) else f"{value:.10g}"
    return _toml_string(text)


def presets_toml(presets: list[Preset], comment: str = "") -> str:
    """The TOML text of a strategies file holding ``presets``."""
    lines = [f"# {line}" for line in comment.splitlines()]
    for p in presets:
        if not _NAME.match(p.name):
            raise StrategyError(f"preset name {p.name!r}: use lower-case letters, digits, "
                                "'-', '_' or '.'")
        items = ", ".join(f"{k} = {_toml_value(v)}" for k, v in p.params.items())
        lines += ["", f"[{p.game}.{p.name}]", f"base = {_toml_string(p.base)}",
                  f"description = {_toml_string(p.description)}", f"params = {{ {items} }}"]
    return "\n".join(lines).lstrip("\n") + "\n"


def write_presets(path: str | Path, presets: list[Preset], comment: str = "") -> Path:
    """Add ``presets`` to the strategies file ``path`` (created if missing).

    Presets of the file with other names are kept; one with the same game and name is
    replaced. The file is written to a temporary name and renamed, so it is never half
    written. Returns the path.
    """
    path = Path(path)
    kept: list[Preset] = []
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise StrategyError(f"{path} exists and is not a strategies file ({exc}); "
                                "it is left as it is") from None
        new = {(p.game, p.name) for p in presets}
        for game, tables in data.items():
            if not isinstance(tables, dict):
                raise StrategyError(f"{path} exists and is not a strategies file")
            for name, t in tables.items():
                if (game, name) in new:
                    continue
                if not isinstance(t, dict) or not isinstance(t.get("base"), str):
                    raise StrategyError(f"{path}: [{game}.{name}] is not a preset; the file "
                                        "is left as it is")
                kept.append(Preset(game, name, t["base"],
                                   {k: _text(v, f"{path} {k}")
                                    for k, v in (t.get("params") or {}).items()},
                                   str(t.get("description", ""))))
    text = presets_toml(kept + list(presets), comment)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    _READ.pop(str(path.resolve()), None)
    return path

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
:func:`write_presets` formats the new presets itself. It only ever *appends* to an existing
file: every byte already there (comments, earlier provenance headers, escapes, the exact digits
of a value) stays as it is, and the appended file is checked to parse before it is written.
:func:`check_append` runs the same checks before any work (``cardlab tune`` calls it first).
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
    add_file_loader,
    exact_number,
    register,
    resolve_values,
    unknown_strategy,
)

ENV = "CARDLAB_STRATEGIES"
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*")  # whole name: fullmatch (``$`` passes "x\\n")
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


def full_path(path: str | Path, where: str = "strategies file") -> str:
    """The absolute path of a strategies file, or a one-line error: an empty path, a path with
    the separator of ``CARDLAB_STRATEGIES`` (it would reach worker processes split in two), a
    symlink loop."""
    text = str(path)
    if not text.strip():
        raise StrategyError(f"{where} is empty: give the path of a TOML strategies file")
    if os.pathsep in text:
        raise StrategyError(
            f"{where} {text!r} contains {os.pathsep!r}, which separates files in {ENV}, so "
            f"it would be read as {' and '.join(repr(t) for t in text.split(os.pathsep))}; "
            f"rename the file or link it under a name without {os.pathsep!r}")
    try:
        return str(Path(text).expanduser().resolve())
    except (RuntimeError, OSError) as exc:  # a symlink loop: RuntimeError before Python 3.13
        raise StrategyError(f"{where} {text} cannot be resolved: {exc}") from None


def env_paths() -> list[str]:
    """The strategies files named by ``CARDLAB_STRATEGIES`` (absolute paths)."""
    text = os.environ.get(ENV, "")
    return [full_path(p, f"{ENV} entry") for p in text.split(os.pathsep) if p.strip()]


def add_to_env(path: str | Path) -> str:
    """Check ``path`` now (one-line error if bad) and add it to ``CARDLAB_STRATEGIES``."""
    full = full_path(path)
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
    if not _NAME.fullmatch(name):
        raise StrategyError(f"{path}: [{game}.{name!r}]: a name is lower-case letters, digits, "
                            "'-', '_' or '.'")
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
    full = full_path(path)
    if full in _READ:
        return _READ[full]
    p = Path(full)
    if p.is_dir():
        raise StrategyError(f"strategies file {path} is a folder; give a TOML file")
    if not p.is_file():
        raise StrategyError(f"strategies file {path} does not exist")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise StrategyError(f"strategies file {path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"strategies file {path} is not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses per nested array or inline table
        raise StrategyError(f"strategies file {path} nests arrays or tables too deeply to "
                            "read (a strategies file is tables of key = value)") from None
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

    full = full_path(path)
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


add_file_loader(load_for)


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _toml_string(text: str) -> str:
    """A TOML basic string that reads back as exactly ``text`` (control characters escaped)."""
    return '"' + "".join(_ESCAPES.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F
                                            else c) for c in text) + '"'


def _toml_value(text: str) -> str:
    """A knob value: a TOML number when ``text`` is a finite number (every digit of the double
    kept), else a string."""
    try:
        value = float(text)
    except ValueError:
        return _toml_string(text)
    if not math.isfinite(value):
        return _toml_string(text)
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def _comment(text: str) -> list[str]:
    """``text`` as TOML comment lines (a comment may hold no control character but tab)."""
    return ["# " + "".join(c if c == "\t" or c.isprintable() else f"\\u{ord(c):04x}"
                           for c in line) for line in text.splitlines()]


def presets_toml(presets: list[Preset], comment: str = "") -> str:
    """The TOML text of ``presets``, ``comment`` (e.g. the provenance) as comment lines above
    them."""
    lines = _comment(comment)
    for p in presets:
        check_name(p.name)
        items = ", ".join(f"{k} = {_toml_value(v)}" for k, v in p.params.items())
        lines += ["", f"[{p.game}.{p.name}]", f"base = {_toml_string(p.base)}",
                  f"description = {_toml_string(p.description)}", f"params = {{ {items} }}"]
    return "\n".join(lines).lstrip("\n") + "\n"


def check_name(name: str) -> None:
    """One line for a preset name a strategies file may not hold."""
    if not _NAME.fullmatch(name):
        raise StrategyError(f"preset name {name!r}: use lower-case letters, digits, '-', '_' "
                            "or '.', starting with a letter or digit")


def _appended(path: Path, presets: list[Preset], comment: str) -> tuple[bytes, bytes]:
    """(what ``path`` holds now, the text to append), checked: the file is a readable
    strategies file that does not yet define any of ``presets``, and the appended whole parses
    to the old tables plus exactly the new presets."""
    old = b""
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise StrategyError(f"{path} exists and is not a regular file; it is left as it is")
        try:
            old = path.read_bytes()
            before = tomllib.loads(old.decode("utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise StrategyError(f"{path} exists and is not a strategies file ({exc}); it is "
                                "left as it is") from None
        except RecursionError:
            raise StrategyError(f"{path} exists and is not a strategies file (arrays or tables "
                                "nested too deeply to read); it is left as it is") from None
    else:
        before = {}
    for p in presets:
        tables = before.get(p.game, {})
        if not isinstance(tables, dict):
            raise StrategyError(f"{path}: {p.game} is not a table of presets; the file is left "
                                "as it is")
        if p.name in tables:
            raise StrategyError(f"{path} already has a preset [{p.game}.{p.name}]; choose "
                                "another name (presets are only ever added, never rewritten)")
    lead = b"" if not old else (b"\n" if old.endswith(b"\n") else b"\n\n")
    new = lead + presets_toml(presets, comment).encode("utf-8")
    try:
        after = tomllib.loads((old + new).decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{path}: adding [{presets[0].game}.{presets[0].name}] would not "
                            f"parse ({exc}); the file is left as it is") from None
    for p in presets:
        if not _reads_back(after.get(p.game, {}).pop(p.name, None), p):
            raise StrategyError(f"{path}: [{p.game}.{p.name}] would not read back as written; "
                                "the file is left as it is")
        if not after.get(p.game) and p.game not in before:
            after.pop(p.game, None)
    if after != before:
        raise StrategyError(f"{path}: appending would change its other presets; the file is "
                            "left as it is")
    return old, new


def _reads_back(table: Any, p: Preset) -> bool:
    """Whether a parsed table is the preset ``p`` (numbers compared as numbers)."""
    if not isinstance(table, dict) or (table.get("base"), table.get("description")) != (
            p.base, p.description):
        return False
    params = table.get("params")
    if not isinstance(params, dict) or set(params) != set(p.params):
        return False
    for key, text in p.params.items():
        value = params[key]
        if isinstance(value, str) != (_toml_value(text).startswith('"')):
            return False
        if value != text if isinstance(value, str) else value != float(text):
            return False
    return True


def check_append(path: str | Path, presets: list[Preset]) -> None:
    """Check now, before any work, that :func:`write_presets` can add ``presets`` to ``path``:
    valid names, a strategies file (or none yet) that will still parse after the append, and
    a file (or folder) this process may write."""
    path = Path(path)
    _appended(path, presets, "")
    if path.exists():
        try:
            with open(path, "ab"):  # opened for appending, nothing written: the content stays
                pass
        except OSError as exc:
            raise StrategyError(f"{path} cannot be written: {exc.strerror or exc}") from None
    else:
        folder = path.parent if str(path.parent) else Path(".")
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            raise StrategyError(f"{path} cannot be created: {folder} is not a writable folder")


class PresetWriteError(StrategyError):
    """Writing the strategies file failed (a full or read-only disk): an I/O error, exit 1."""

    exit_code = 1


def write_presets(path: str | Path, presets: list[Preset], comment: str = "") -> Path:
    """Add ``presets`` to the end of the strategies file ``path`` (created if missing).

    Nothing already in the file changes: the new presets (``comment`` above them) are
    appended after the checks of :func:`check_append`; a preset of the same game and name is
    refused, not replaced. A new file is written to a temporary name and renamed; an append
    that fails (a full disk) is cut back to the old length. Returns the path.
    """
    path = Path(path)
    old, new = _appended(path, presets, comment)
    if not old and not path.exists():
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            tmp.write_bytes(new)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise PresetWriteError(f"{path} could not be written ({exc.strerror or exc}); "
                                "nothing was written") from None
    else:
        with open(path, "ab") as f:
            size = f.tell()
            if size != len(old):
                raise StrategyError(f"{path} changed while it was being checked; it is left "
                                    "as it is")
            try:
                f.write(new)
                f.flush()
                os.fsync(f.fileno())
            except BaseException as exc:  # a full disk, or Ctrl-C: cut back to the old file
                f.truncate(size)
                if not isinstance(exc, OSError):
                    raise
                raise PresetWriteError(f"{path}: the preset could not be added "
                                    f"({exc.strerror or exc}); the file is left as it "
                                    "was") from None
    _READ.pop(full_path(path), None)
    return path

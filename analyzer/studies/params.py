"""A study's parameters, declared once: name, type, default, help, the smallest value allowed,
the manifest field that records it and how the reproduce command writes it.

From these declarations (:class:`analyzer.studies.registry.StudyDescription` ``params``)
follow the ``cardlab study NAME`` options (analyzer/cli/study_commands.py builds them; the
names in ``analyzer.cli.options.SHARED`` keep their shared flags), the manifest fields
(:meth:`StudyDescription.manifest_fields`) and the command that runs the study again
(:meth:`StudyDescription.reproduce`, read by reports/reproduce.py).

A writer turns a manifest into the option's words in the reproduce command: ``[]`` when the
manifest does not call for the option. Without one, a parameter with a manifest ``key``
writes ``--flag VALUE`` (``--flag V`` once per value for a list).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer.errors import CardlabError
from analyzer.seeds import DEFAULT_SEED

Writer = Callable[[str, dict], list[str]]  # (the option's flag, manifest) -> its words


@dataclass(frozen=True)
class Param:
    """One parameter of a study: ``name`` (the Python name; the option is ``--name`` with
    dashes unless ``flags`` says otherwise), its ``type`` (int, float, str, bool, Path or
    list[str]), ``default`` (``...``: required), ``help`` (text, or a function that writes it
    when the command is built), ``at_least`` (the range: smaller values are refused in one
    line before any work), ``key`` (the manifest field that records it) and ``write`` (its
    words in the reproduce command; see the module's doc)."""

    name: str
    type: Any
    default: Any = None
    help: str | Callable[[], str] | None = None
    flags: tuple[str, ...] = ()
    hidden: bool = False
    at_least: int | float | None = None
    key: str | None = None
    write: Writer | None = None

    @property
    def flag(self) -> str:
        """The option's long name, as the reproduce command writes it."""
        return next((f for f in self.flags if f.startswith("--")),
                    "--" + self.name.replace("_", "-"))

    def help_text(self) -> str | None:
        return self.help() if callable(self.help) else self.help

    def words(self, manifest: dict) -> list[str]:
        """This option in the command that reproduces ``manifest``."""
        if self.write is not None:
            return self.write(self.flag, manifest)
        if self.key is None or self.key not in manifest:
            return []
        value = manifest[self.key]
        if isinstance(value, list | tuple):
            return each(self.key)(self.flag, manifest)
        if isinstance(value, bool):
            return [self.flag] if value else []
        return [self.flag, str(value)]

    def check(self, value: Any) -> None:
        """One line for a value below the declared range (None: the study's default)."""
        if self.at_least is None or value is None or value >= self.at_least:
            return
        allowed = "0 or more" if self.at_least == 0 else f"at least {self.at_least}"
        raise CardlabError(f"{self.flag} must be {allowed}; got {value}")


# --- the options every study command ends with (where results go, how it runs) ------------

OUT_HELP = "Study results folder (each study writes its own subfolder)."
DEFAULT_OUT = Path("runs/studies")
QUIET_HELP = "No progress bars (they show only on a terminal anyway)."
RUN_OPTIONS = ("out", "workers", "quiet", "progress")  # not the study's: never in a manifest


def run_options(quiet_help: str = QUIET_HELP) -> tuple[Param, ...]:
    """``-o/--out``, ``-w/--workers``, ``-q/--quiet`` and the hidden old ``--progress``."""
    return (Param("out", Path, DEFAULT_OUT, OUT_HELP),
            Param("workers", int, None, "Worker processes (default: every core)."),
            Param("quiet", bool, False, quiet_help),
            Param("progress", bool, None, flags=("--progress/--no-progress",), hidden=True))


def seed(key: str = "seed") -> Param:
    """``--seed``: the master seed, recorded and reproduced as given."""
    return Param("seed", int, DEFAULT_SEED, "Master seed (0..2**63-1): with the index it "
                 "fixes a game.", key=key)


# --- writers: how an option reads its value from a manifest ----------------------------------


def span(values) -> str:
    """'3-12' for a run of consecutive numbers, else '3,4,8'."""
    values = [int(v) for v in values]
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


def commas(values) -> str:
    """'3,4,5': every number, comma-separated."""
    return ",".join(str(int(v)) for v in values)


def text(key: str, form: Callable[[Any], str] = str) -> Writer:
    """``--flag VALUE``, the manifest's ``key`` written by ``form``."""
    return lambda flag, m: [flag, form(m[key])]


def each(key: str, none: bool = False) -> Writer:
    """``--flag V`` once per value of the manifest's list ``key``; an empty list writes
    ``--flag none`` when ``none``."""
    def write(flag: str, m: dict) -> list[str]:
        values = m.get(key) or []
        if not values and none:
            return [flag, "none"]
        return [x for v in values for x in (flag, str(v))]
    return write


def when(holds: Callable[[dict], Any], write: Writer) -> Writer:
    """``write``, only for a manifest where ``holds`` (e.g. a field older results lack)."""
    return lambda flag, m: write(flag, m) if holds(m) else []


def has(key: str) -> Callable[[dict], bool]:
    """The manifest records ``key`` (older results lack fields added since)."""
    return lambda m: key in m

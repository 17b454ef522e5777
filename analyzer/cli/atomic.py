"""Helpers the export and replay commands share: safe output files and index checks.

The rules for output files live in :mod:`analyzer.outputs`: an existing file is replaced only
with ``--force``, never anything that is not a regular file, ``-`` streams to stdout, and a
file appears under its name only when complete.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import typer

from analyzer.errors import CardlabError
from analyzer.outputs import STDOUT, check_file_target, write_lines
from analyzer.seeds import MAX_SEED

FORCE_HELP = "Replace an existing --out file (never anything but a regular file)."
OUT_HELP = "The JSON Lines file to write, or - for stdout."
HTML_HELP = ("Write a page that steps through the game (every hand, the table, the scores; "
             "buttons and arrow keys) to this new file: one HTML file, no network needed.")
HTML_FORCE_HELP = "With --html: replace an existing file (never anything but a regular file)."

__all__ = ["FORCE_HELP", "HTML_FORCE_HELP", "HTML_HELP", "OUT_HELP", "check_file_target",
           "check_html", "check_index", "check_range", "export_lines", "write_html",
           "write_lines_atomically"]


def check_range(start: int, count: int, what: str = "--games") -> None:
    """One line for a first index and a count that do not fit the index space 0..2**63-1."""
    if count < 1:
        raise CardlabError(f"{what} must be >= 1; got {count}")
    if start < 0:
        raise CardlabError(f"--start must be >= 0; got {start}")
    if start > MAX_SEED or count - 1 > MAX_SEED - start:
        raise CardlabError(
            f"indices must stay below 2**63: --start {start} with {what} {count} passes "
            f"{MAX_SEED}"
        )


def check_index(index: int) -> None:
    """One line for an index no run can contain."""
    if not 0 <= index <= MAX_SEED:
        raise CardlabError(f"--index must be between 0 and 2**63-1; got {index}")


def check_seed(seed: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise CardlabError(f"--seed must be between 0 and 2**63-1; got {seed}")


def export_lines(out: Path, lines: Iterable[str], force: bool, what: str) -> int:
    """Write an export (to ``out`` or, for ``-``, to stdout) and say so on the right stream.

    The target is checked before the first line is made (``lines`` is consumed lazily)."""
    try:
        written = write_lines(out, lines, force)
    except KeyboardInterrupt:
        kept = "" if str(out) == STDOUT else f"; nothing was written to {out}"
        typer.echo(f"interrupted{kept}", err=True)
        raise typer.Exit(130) from None
    typer.echo(f"wrote {written} {what} to {'stdout' if str(out) == STDOUT else out}",
               err=str(out) == STDOUT)
    return written


def write_lines_atomically(out: Path, lines: Iterable[str], force: bool = False) -> int:
    """Write ``lines`` to ``out`` so that it appears only when complete (see write_lines)."""
    return write_lines(out, lines, force)


def check_html(html: Path | None, force: bool) -> None:
    """One line for a --html target cardlab may not write (before any game is played), and
    for --force without --html."""
    if html is None:
        if force:
            raise CardlabError("--force applies to --html FILE (replace an existing page)")
        return
    check_file_target(html, force, "--html")


def write_html(html: Path, record: dict, force: bool, annotations: dict | None = None,
               err: bool = False) -> None:
    """Write the viewer page of ``record`` to ``html`` (atomically) and say so (on standard
    error with ``err``: where standard output carries JSON)."""
    from reports.viewer import write_viewer

    write_viewer(html, record, annotations, force)
    if str(html) != STDOUT:
        typer.echo(f"wrote the game viewer to {html} (open it in any browser)", err=err)

"""The terminal as cardlab writes to it: width, colour, and tables that fit.

* Width: the terminal's, or ``COLUMNS`` when set; output that goes to a pipe or a file with
  no ``COLUMNS`` is not wrapped at all (200 columns), so scripts get whole lines. A width
  that is no positive whole number (``COLUMNS=0``, ``-3``, ``abc``) is ignored, and any
  width is held to 20..10,000 columns (:func:`env_columns`): every width prints the results.
* Colour: none when ``NO_COLOR`` is set (https://no-color.org), and never on a pipe.
* Tables: the columns that say whose numbers these are (seat, strategy, n) are never
  squeezed or cut with "…"; long headers wrap onto two lines instead, numbers never do.
* Encoding: a stream that cannot encode cardlab's symbols (``PYTHONIOENCODING=ascii``, a
  latin-1 terminal) gets ASCII stand-ins (``+/-`` for ``±``) instead of an error
  (:func:`ascii_fallback`).
"""

from __future__ import annotations

import codecs
import os
import sys
import textwrap
import unicodedata

from rich import box
from rich.console import Console
from rich.table import Table

PIPE_WIDTH = 200
MIN_WIDTH, MAX_WIDTH = 20, 10_000  # any width (COLUMNS=1, 10**9) is held to these

# ASCII stand-ins for the symbols cardlab prints; other characters lose their accents
# (NFKD) or become "?".
ASCII = {"±": "+/-", "…": "...", "—": "--", "–": "-", "×": "x", "≤": "<=", "≥": ">=",
         "≠": "!=", "≈": "~", "→": "->", "←": "<-", "·": ".", "•": "*", "─": "-", "━": "-",
         "│": "|", "┃": "|", "°": " deg", "µ": "u", "‘": "'", "’": "'", "“": '"', "”": '"',
         "√": "sqrt", "∞": "inf", " ": " "}
ERRORS = "cardlab-ascii"


def _ascii(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    out = "".join(ASCII.get(c) or unicodedata.normalize("NFKD", c).encode("ascii", "ignore")
                  .decode() or "?" for c in text)
    return out, exc.end


codecs.register_error(ERRORS, _ascii)


def ascii_fallback(streams=None) -> None:
    """Give stdout and stderr ASCII stand-ins for the characters their encoding lacks."""
    for stream in streams or (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if not encoding or not hasattr(stream, "reconfigure"):
            continue
        try:
            "".join(ASCII).encode(encoding)
        except UnicodeEncodeError:
            stream.reconfigure(errors=ERRORS)
        except LookupError:
            continue


def stdout_closed() -> bool:
    """Whether standard output is closed (``>&-``): everything printed would be lost."""
    if sys.stdout is None:
        return True
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # io.UnsupportedOperation: in memory
        return False
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _held(width: int) -> int:
    return min(max(width, MIN_WIDTH), MAX_WIDTH)


def env_columns() -> int | None:
    """``COLUMNS`` as a width (held to MIN_WIDTH..MAX_WIDTH), or None when it is unset or is
    no positive whole number in ASCII digits (``0``, ``-3``, ``abc``: then ignored)."""
    text = os.environ.get("COLUMNS", "").strip()
    if not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0")
    if not digits:  # 0
        return None
    return MAX_WIDTH if len(digits) > 6 else _held(int(digits))


def _terminal_width(stderr: bool) -> int | None:
    """The width of the terminal standard output (error) is, None when it is none."""
    stream = sys.stderr if stderr else sys.stdout
    try:
        if stream is None or not stream.isatty():
            return None
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return None
    return _held(columns) if columns > 0 else None


def console(stderr: bool = False) -> Console:
    """A rich Console honouring COLUMNS and NO_COLOR, always with a usable width."""
    probe = Console(stderr=stderr, width=PIPE_WIDTH)
    width = env_columns()
    if width is None:
        width = (_terminal_width(stderr) or 80) if probe.is_terminal else PIPE_WIDTH
    no_color = os.environ.get("NO_COLOR", "") != ""
    return Console(stderr=stderr, width=width, no_color=no_color, highlight=False,
                   color_system=None if no_color else "auto")


def prose_width() -> int | None:
    """The width to wrap sentences to: COLUMNS when set, else the terminal's; None when
    standard output is not a terminal (a pipe or a file keeps one line per sentence)."""
    width = env_columns()
    if width is not None:
        return width
    return _terminal_width(False)


def wrap_prose(text: str, first: str = "", rest: str = "", width: int | None = None) -> str:
    """``text`` wrapped at word boundaries to ``width`` (default :func:`prose_width`), the
    first line starting with ``first``, the others with ``rest``; a long word (a path, a
    command) stays whole on its own line rather than being cut."""
    width = prose_width() if width is None else width
    if not width:
        return first + text
    return textwrap.fill(text, width=width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def _width(cell: str) -> int:
    return max((len(line) for line in cell.split("\n")), default=0)


def fitted_table(title: str, header: list[str], rows: list[list[str]],
                 left: set[int] = frozenset(), width: int | None = None,
                 caption: str | None = None) -> Table:
    """A table whose cells are never cut or squeezed away at the console's ``width``.

    Every column is at least as wide as its widest cell. When the table does not fit, headers
    wrap at word boundaries, and if that is not enough intervals are stacked (``27.169`` over
    ``± 0.027``), and then long header words are cut, so that seat, strategy and n stay
    whole on an 80-column terminal. Narrower still (``COLUMNS=20``), the cells keep their
    width and the table is wider than the
    terminal: print it with ``crop=False`` and the lines run on (the terminal wraps or
    scrolls them) rather than lose a column. ``left`` are the left-aligned columns (names).
    """
    width = width or console().width
    gaps = 2 * (len(header) - 1)

    def widths(cells: list[list[str]], headers: str) -> list[int]:
        """Column widths: headers whole, or cut only between words, or anywhere (a one-word
        header, such as seat, strategy or n, is never cut)."""
        out = []
        for i, name in enumerate(header):
            words = name.split()
            head = {"whole": len(name), "words": max((len(w) for w in words), default=1),
                    "fold": 1 if len(words) > 1 else len(name)}[headers]
            out.append(max([_width(r[i]) for r in cells] + [head, 1]))
        return out

    sizes = widths(rows, "whole")
    if sum(sizes) + gaps > width:
        sizes = widths(rows, "words")
    stacked = sum(sizes) + gaps > width
    if stacked:
        rows = [[c.replace(" ± ", "\n± ") for c in r] for r in rows]
        sizes = widths(rows, "words")
        if sum(sizes) + gaps > width:
            sizes = widths(rows, "fold")
    needed = sum(sizes) + gaps
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left",
                  box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0, 0, 1),
                  show_lines=stacked, width=needed if needed > width else None)
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i in left else "right", width=sizes[i],
                         overflow="fold")
    for r in rows:
        table.add_row(*r)
    return table


# How --help names the value an option takes (typer would print <int>, <list[str]>, <bool>).
_VALUE_NAMES = {"int": "N", "float": "NUMBER", "str": "TEXT", "path": "PATH", "file": "FILE",
                "directory": "FOLDER", "list[str]": "TEXT", "list[int]": "N",
                "list[float]": "NUMBER"}


def plain_help_types() -> None:
    """Make --help show N, TEXT, PATH for an option's value and nothing for a yes/no flag.

    typer offers no setting for this, so its one method that names the type is wrapped.
    """
    from typer.core import _TyperParameter

    original = _TyperParameter.display_type
    if getattr(original, "_cardlab", False):
        return

    def display_type(self, ctx):
        if getattr(self, "is_flag", False):
            return None
        label = original(self, ctx)
        bare = label[1:-1] if label.startswith("<") and label.endswith(">") else label
        return _VALUE_NAMES.get(bare, bare.upper() if bare.isidentifier() else bare)

    display_type._cardlab = True
    _TyperParameter.display_type = display_type


def fill_lines(lines: list[str], width: int) -> str:
    """Lines wrapped at word boundaries to ``width`` (0: as they are); a wrapped line goes on
    under its own text, four columns in (the readable records of ``replay --pretty``)."""
    out = []
    for line in lines:
        body = line.lstrip(" ")
        indent = " " * (len(line) - len(body))
        out.append(wrap_prose(body, indent, indent + "    ", width=width))
    return "\n".join(out)


def width_or_terminal(width: int | None) -> int:
    """``width``, or the terminal's prose width when None (0: a pipe, unwrapped)."""
    return (prose_width() or 0) if width is None else width

"""Writing an output file so that it appears under its name only when complete."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from analyzer.errors import CardlabError


def write_lines_atomically(out: Path, lines: Iterable[str]) -> int:
    """Write ``lines`` (each without its newline) to ``out``; return how many were written.

    The lines go to a hidden temporary file in the same folder, which is renamed to ``out``
    only after the last line: an interrupted or failed export leaves no partial file that
    looks complete. The folder must exist.
    """
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise CardlabError(f"folder {str(folder)!r} of --out does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".part", dir=folder)
    written = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")
                written += 1
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a normal file is wanted
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return written

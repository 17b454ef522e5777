"""Writing outputs without destroying anything cardlab did not write.

Two kinds of output, two rules:

- **Folders** (a report, a study's result folder) are written only where the target is
  missing, empty, or was written by cardlab: such a folder holds a marker file, ``MARKER``,
  saying what wrote it. Anything else is refused with one line naming the path. The new
  folder is built beside the target (a hidden temporary folder in the same parent), marked,
  and only then swapped in, so a failure midway - a full or read-only disk, Ctrl-C - leaves
  the previous output intact and no partial folder behind.
- **Files** (``cardlab export``) are never written over an existing file unless the user says
  ``--force``, never over anything that is not a regular file (a device, a folder, a FIFO, a
  symbolic link), and the target is checked before any game is played. ``-`` streams to
  stdout. The lines go to a hidden temporary file that is renamed into place after the last
  one; SIGTERM and Ctrl-C remove it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from analyzer.errors import CardlabError

MARKER = ".cardlab-output.json"
STDOUT = "-"


# ----------------------------------------------------------------------------- folders


def read_marker(folder: Path) -> dict | None:
    """The marker of a folder cardlab wrote, or None."""
    try:
        doc = json.loads((folder / MARKER).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return doc if isinstance(doc, dict) and doc.get("written_by") == "cardlab" else None


def _write_marker(folder: Path, kind: str) -> None:
    from analyzer import __version__

    doc = {"written_by": "cardlab", "kind": kind, "version": __version__, "pid": os.getpid()}
    (folder / MARKER).write_text(json.dumps(doc) + "\n")


def check_folder_target(target: Path, kind: str, what: str = "--out",
                        accept: Callable[[Path], bool] | None = None) -> None:
    """Refuse (one line) a target that cardlab may not replace by a ``kind`` folder.

    Allowed: a missing path, an empty folder, a folder whose marker says ``kind`` (or that
    ``accept`` recognises, e.g. a study folder written before markers existed).
    """
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise CardlabError(f"{what} {target} exists and is not a folder; choose a folder")
    if not target.exists():
        return
    try:
        empty = not any(target.iterdir())
    except OSError as exc:
        raise CardlabError(f"cannot read {what} {target}: {exc.strerror or exc}") from None
    if empty:
        return
    marker = read_marker(target)
    if marker is not None and marker.get("kind") == kind:
        return
    if marker is None and accept is not None and accept(target):
        return
    if marker is not None:
        raise CardlabError(
            f"{what} {target} holds a cardlab {marker.get('kind')}, not a {kind}; "
            "choose another folder"
        )
    raise CardlabError(
        f"{what} {target} is not empty and was not written by cardlab; refusing to replace "
        f"it: choose a new or empty folder"
    )


def refuse_stdout(target: str | os.PathLike, what: str = "--out") -> None:
    """``-`` means stdout, which only a file output (export) can be; never a folder named -."""
    if str(target) == STDOUT:
        raise CardlabError(f"{what} - (stdout) is for export only; this command writes a "
                           "folder: give its path")


def cardlab_folder_around(path: str | os.PathLike) -> tuple[Path, dict] | None:
    """The folder cardlab wrote (a study, a report: it holds cardlab's marker) that is
    ``path`` or holds it, with its marker; None when there is none."""
    p = Path(os.path.abspath(path))
    for folder in (p, *p.parents):
        marker = read_marker(folder)
        if marker is not None:
            return folder, marker
    return None


def _remove_stale_builds(parent: Path, name: str) -> None:
    """Hidden build folders of ``name`` left by a killed cardlab process."""
    for entry in parent.glob(f".{name}.*.cardlab-tmp"):
        marker = read_marker(entry)
        if marker is None or _alive(marker.get("pid")):
            continue
        shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def replace_folder(target: str | os.PathLike, kind: str, build: Callable[[Path], None],
                   what: str = "--out", accept: Callable[[Path], bool] | None = None) -> Path:
    """Build a ``kind`` folder with ``build(tmp)`` and swap it in at ``target``.

    ``target`` is checked first (:func:`check_folder_target`). A failure while building
    (OSError: read-only, full disk) becomes one CardlabError line; whatever was at ``target``
    stays as it was and the temporary folder is removed.
    """
    refuse_stdout(target, what)
    target = Path(os.path.abspath(target))
    check_folder_target(target, kind, what, accept)
    here = Path(os.path.abspath(os.getcwd()))
    if target == here or target in here.parents:
        raise CardlabError(f"{what} {target} is the current folder or holds it; choose "
                           "another folder")
    parent = target.parent
    tmp: Path | None = None
    try:
        parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_builds(parent, target.name)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".cardlab-tmp",
                                    dir=parent))
        _write_marker(tmp, kind)  # first: a killed build is recognised and cleaned up later
        build(tmp)
        _write_marker(tmp, kind)
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes it private; a normal folder is wanted
        _swap(tmp, target)
        tmp = None
    except OSError as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        raise CardlabError(
            f"could not write {what} {target}: {exc.strerror or exc}{where}; nothing was "
            "changed there"
        ) from None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _swap(new: Path, target: Path) -> None:
    """Put ``new`` at ``target``; an earlier folder there is moved aside, then removed."""
    if not target.exists():
        os.rename(new, target)
        return
    old = target.parent / f".{target.name}.{uuid.uuid4().hex[:8]}.cardlab-old"
    os.rename(target, old)
    try:
        os.rename(new, target)
    except OSError:
        os.rename(old, target)  # put the previous one back
        raise
    shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ----------------------------------------------------------------------------- files


def check_file_target(out: Path, force: bool = False, what: str = "--out") -> None:
    """Refuse (one line) an export target before any game is played."""
    if str(out) == STDOUT:
        return
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise CardlabError(f"cannot use {what} {out}: {exc.strerror or exc}") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise CardlabError(f"{what} {out} is a folder; give a file name")
        if not stat.S_ISREG(st.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
            raise CardlabError(
                f"{what} {out} is {kind}; cardlab writes regular files only (use --out - "
                "to stream to stdout)"
            )
        if not force:
            raise CardlabError(f"{what} {out} already exists; add --force to replace it")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise CardlabError(f"folder {str(folder)!r} of {what} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CardlabError(f"cannot write into folder {str(folder)!r} of {what}")


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[list[int]]:
    """SIGTERM/SIGINT within the block: recorded, acted on between lines (a second one
    stops at once)."""
    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield got
        return

    def handler(signum, frame):  # noqa: ARG001
        got.append(signum)
        if len(got) > 1:
            raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield got
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def write_lines(out: Path, lines: Iterable[str], force: bool = False,
                what: str = "--out") -> int:
    """Write ``lines`` (each without its newline) to ``out`` or, for ``-``, to stdout; return
    how many were written.

    A file appears under its name only when complete: the lines go to a hidden temporary
    file in the same folder, renamed to ``out`` after the last line. An error, Ctrl-C or
    SIGTERM removes the temporary file (KeyboardInterrupt is raised after the line in hand).
    ``what`` names the option in messages.
    """
    if str(out) == STDOUT:
        return _write_stdout(lines)
    check_file_target(out, force, what)
    folder = out.parent if str(out.parent) else Path(".")
    tmp = None
    written = 0
    try:
        with _stop_on_signals() as got:
            fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".part", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                for line in lines:
                    fh.write(line + "\n")
                    written += 1
                    if got:
                        raise KeyboardInterrupt
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private
            check_file_target(out, force, what)  # still nothing else there (a race)
            os.replace(tmp, out)
            tmp = None
    except OSError as exc:
        raise CardlabError(f"could not write {what} {out}: {exc.strerror or exc}; nothing "
                           "was written") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
    return written


def _write_stdout(lines: Iterable[str]) -> int:
    """The lines on stdout (a reader that goes away, ``| head``, raises BrokenPipeError, which
    the command line ends quietly)."""
    written = 0
    with _stop_on_signals() as got:
        for line in lines:
            sys.stdout.write(line + "\n")
            written += 1
            if got:
                raise KeyboardInterrupt
        sys.stdout.flush()
    return written

"""Writing outputs without destroying anything cardlab did not write.

Every output path of every command goes through one check first, :func:`check_output_path`:
nothing is written into a folder another cardlab command made (a run, a decisions run, a
study, a report, a training), whatever ``--force`` says; the command's own kind of folder
may be the target itself (a study replaces its earlier result, a run resumes). Then two kinds
of output, two rules:

- **Folders** (a report, a study's result folder) are written only where the target is
  missing, empty, or was written by cardlab: such a folder holds a marker file, ``MARKER``,
  saying what wrote it and listing every file written with its SHA-256. A file that is not
  listed, or that changed since, is the user's: the folder is then not replaced, and the one
  line names those files. Anything else is refused with one line naming the path. The new
  folder is built beside the target (a hidden temporary folder in the same parent), marked,
  and only then swapped in, so a failure midway - a full or read-only disk, Ctrl-C - leaves
  the previous output intact and no partial folder behind. From the check before the first
  game to the swap, the target is locked (``flock``, as run folders are): a second cardlab
  process writing it is refused with one line saying the folder is in use.
- **Files** (``cardlab export``, ``--html``, ``train --weights``) are never written over an
  existing file unless the user says ``--force``, never over anything that is not a regular
  file (a device, a folder, a FIFO, a symbolic link), and the target is checked before any
  game is played. ``-`` streams to stdout. The lines go to a hidden temporary file that is
  renamed into place after the last one; SIGTERM and Ctrl-C remove it.

A failure to write (a full or read-only disk) is a :class:`CardlabIOError` (exit 1) that
names the path; a refused target is a :class:`CardlabError` (exit 2).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from analyzer.errors import CardlabError, CardlabIOError

MARKER = ".cardlab-output.json"
STDOUT = "-"
RUN_FILE = "_run.json"  # a run folder (analyzer/runner/folder.py): simulate's or decisions'
TRAIN_FILE = "_train.json"  # a training's work folder (analyzer/learn/train.py)
STUDY_MANIFEST = "manifest.json"  # a study folder (analyzer/studies/results.py)
STUDY_FORMAT = "cardlab-study/1"
# Set by `cardlab train` for the `cardlab decisions` it runs: the training folder those
# decisions runs may be written inside (round-N/decisions-P).
TRAINING_ENV = "CARDLAB_TRAINING_FOLDER"
INSIDE_ADVICE = ("cardlab never writes into a folder another cardlab command made, whatever "
                 "--force says: choose a path outside it")
SHOWN = 5  # foreign files named in a refusal


def io_error(what: str, path: str | os.PathLike, exc: OSError, tail: str = "") -> CardlabIOError:
    """The one-line I/O error (exit 1) for ``exc`` while writing ``path``."""
    other = getattr(exc, "filename", None)
    where = f" ({other})" if other and str(other) != str(path) else ""
    return CardlabIOError(f"could not write {what} {path}: {exc.strerror or exc}{where}"
                          + (f"; {tail}" if tail else ""))


# ----------------------------------------------------------------------------- cardlab folders


def read_marker(folder: Path) -> dict | None:
    """The marker of a folder cardlab wrote, or None."""
    try:
        doc = json.loads((folder / MARKER).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return doc if isinstance(doc, dict) and doc.get("written_by") == "cardlab" else None


def _read_json(path: Path) -> dict | None:
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def legacy_study_files(folder: Path) -> set[str] | None:
    """The files a study folder's manifest says its study wrote (manifest.json, each table's
    Parquet and CSV), or None when ``folder`` holds no study manifest."""
    manifest = _read_json(folder / STUDY_MANIFEST)
    if manifest is None or manifest.get("format") != STUDY_FORMAT:
        return None
    ours = {STUDY_MANIFEST}
    for info in (manifest.get("tables") or {}).values():
        if isinstance(info, dict):
            ours.update(str(info[k]) for k in ("parquet", "csv") if info.get(k))
    return ours


def folder_kind(folder: Path) -> str | None:
    """What cardlab made ``folder`` for: "run", "decisions run", "training", "study",
    "report" (the kind its marker names), or None when cardlab did not make it."""
    try:
        if (folder / RUN_FILE).is_file():
            plan = _read_json(folder / RUN_FILE) or {}
            return "decisions run" if plan.get("kind") == "decisions" else "run"
        if (folder / TRAIN_FILE).is_file():
            return "training"
        marker = read_marker(folder)
        if marker is not None:
            return str(marker.get("kind"))
        if legacy_study_files(folder) is not None:
            return "study"
    except OSError:
        return None
    return None


def cardlab_folders_holding(path: str | os.PathLike) -> list[tuple[Path, str]]:
    """Every cardlab folder that is ``path`` or holds it, with its kind, outermost first (the
    path as given and with its symbolic links resolved)."""
    given = Path(os.path.abspath(path))
    real = Path(os.path.realpath(path))
    found: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for chain in ((given, *given.parents), (real, *real.parents)):
        for folder in reversed(chain):
            if folder in seen:
                continue
            seen.add(folder)
            kind = folder_kind(folder)
            if kind is not None:
                found.append((folder, kind))
    return found


def cardlab_folder_around(path: str | os.PathLike) -> tuple[Path, str] | None:
    """The outermost cardlab folder that is ``path`` or holds it, with its kind; or None."""
    found = cardlab_folders_holding(path)
    return found[0] if found else None


def check_output_path(path: str | os.PathLike, what: str = "--out", own: tuple[str, ...] = (),
                      advice: str = INSIDE_ADVICE, within: Path | None = None) -> None:
    """The check every output path goes through before any work, whatever ``--force`` says.

    Refused (one line, exit 2): a path that is, or lies inside, a folder cardlab made for
    another output (a run, a decisions run, a study, a report, a training); ``path`` itself
    may be a folder of a kind in ``own`` (the command's own earlier output), and ``within``
    (a training folder) may hold it. Refused too: a path below a file.
    """
    target = Path(os.path.abspath(path))
    itself = (target, Path(os.path.realpath(target)))
    allowed = () if within is None else (Path(os.path.abspath(within)),
                                         Path(os.path.realpath(within)))
    for folder, kind in cardlab_folders_holding(target):
        if folder in itself and kind in own:
            continue
        if kind == "training" and folder in allowed:
            continue
        if folder in itself:
            raise CardlabError(f"{what} {path} is a cardlab {kind} folder; {advice}")
        raise CardlabError(f"{what} {path} is inside the {kind} folder {folder}; {advice}")
    for parent in target.parents:
        if os.path.lexists(parent):
            if not parent.is_dir():
                raise CardlabError(f"cannot write to {what} {path}: {parent} is not a "
                                   "writable folder (it is a file)")
            break


def refuse_stdout(target: str | os.PathLike, what: str = "--out") -> None:
    """``-`` means stdout, which only a file output (export) can be; never a folder named -."""
    if str(target) == STDOUT:
        raise CardlabError(f"{what} - (stdout) is for export only; this command writes a "
                           "folder: give its path")


# ----------------------------------------------------------------------------- locks


_HELD: dict[str, int] = {}  # lock file -> its descriptor, for the folders this process holds


def _lock_file(target: str | os.PathLike) -> Path:
    """The lock file of output folder ``target``: in a folder of the system's temporary
    directory, named by a hash of the target's real path (the target itself is swapped as a
    whole, and its parent may not exist yet)."""
    key = hashlib.sha256(os.fsencode(os.path.realpath(target))).hexdigest()[:32]
    base = Path(tempfile.gettempdir()) / f"cardlab-locks-{getattr(os, 'getuid', int)()}"
    return base / f"{key}.lock"


def claim_folder(target: str | os.PathLike, what: str = "--out") -> None:
    """Hold the lock of output folder ``target`` until :func:`release_folder` (or until this
    process ends: the kernel drops a dead process's ``flock``). A folder another process
    holds is refused with one line: it is in use."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, the rest works the same
        return
    lock = _lock_file(target)
    if str(lock) in _HELD:
        return
    try:
        lock.parent.mkdir(mode=0o700, exist_ok=True)
        while True:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise CardlabError(
                    f"{what} {target} is in use: another cardlab process is writing it right "
                    "now; wait for it to finish (or stop it), then run this again") from None
            try:
                same = os.fstat(fd).st_ino == os.stat(lock).st_ino
            except FileNotFoundError:
                same = False
            if same:  # not a lock file its last holder removed as we opened it
                break
            os.close(fd)
    except OSError as exc:
        raise io_error("the lock of", target, exc) from None
    _HELD[str(lock)] = fd


def release_folder(target: str | os.PathLike) -> None:
    """Let go of the lock :func:`claim_folder` took (nothing when this process holds none)."""
    lock = _lock_file(target)
    fd = _HELD.pop(str(lock), None)
    if fd is None:
        return
    with contextlib.suppress(OSError):
        os.unlink(lock)  # while still held: a waiting opener sees another inode and retries
    os.close(fd)


def release_all() -> None:
    """Let go of every output folder lock this process holds (a command has ended)."""
    for lock in list(_HELD):
        fd = _HELD.pop(lock)
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)


def folder_in_use(target: str | os.PathLike) -> bool:
    """Whether another process holds the lock of output folder ``target``."""
    try:
        import fcntl
    except ImportError:
        return False
    lock = _lock_file(target)
    if str(lock) in _HELD:
        return False
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


# ----------------------------------------------------------------------------- folders


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _inventory(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (but the marker), by path relative to it, with its SHA-256."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.name != MARKER:
            files[path.relative_to(folder).as_posix()] = _sha256(path)
    return files


def _write_marker(folder: Path, kind: str, files: dict[str, str] | None = None) -> None:
    from analyzer import __version__

    doc = {"written_by": "cardlab", "kind": kind, "version": __version__, "pid": os.getpid()}
    if files is not None:
        doc["files"] = files
    (folder / MARKER).write_text(json.dumps(doc) + "\n")


# What a report folder written before markers listed their files holds (reports/build.py).
_REPORT_FILE = re.compile(r"index\.html|figures/[^/]+\.png|data/findings\.json|"
                          r"data/[^/]+/[^/]+\.(csv|json)|games/[^/]+\.html")
_REPORT_DIR = re.compile(r"figures|data|games|data/[^/]+")


def _ours(target: Path, kind: str) -> tuple[Callable[[str], str | None],
                                               Callable[[str], bool]]:
    """Whether cardlab wrote a file (relative path -> None: yes; else what is wrong) and a
    folder (relative path -> bool) of output folder ``target``."""
    marker = read_marker(target) or {}
    listed = marker.get("files")
    if isinstance(listed, dict):
        folders = {p.as_posix() for rel in listed for p in Path(rel).parents} - {"."}

        def file_ok(rel: str) -> str | None:
            if rel not in listed:
                return ""
            if _sha256(target / rel) != listed[rel]:
                return " (changed since cardlab wrote it)"
            return None

        return file_ok, folders.__contains__
    if kind == "report":  # a report of a cardlab that did not list its files
        return (lambda rel: None if _REPORT_FILE.fullmatch(rel) else "",
                lambda rel: bool(_REPORT_DIR.fullmatch(rel)))
    study = legacy_study_files(target) or set()
    return (lambda rel: None if rel in study else ""), (lambda rel: False)


def foreign_files(target: Path, kind: str) -> list[str]:
    """What cardlab did not write in its output folder ``target``: each file it did not
    write, or that changed since (named so), and each folder it did not make (named with
    ``/``, its contents not listed), by path relative to ``target``."""
    file_ok, folder_ok = _ours(target, kind)
    found = []
    for root, dirs, files in os.walk(target):
        here = Path(root)
        for name in sorted(dirs):
            rel = (here / name).relative_to(target).as_posix()
            if (here / name).is_symlink() or not folder_ok(rel):
                found.append(rel + "/")
                dirs.remove(name)
        dirs.sort()
        for name in sorted(files):
            path = here / name
            rel = path.relative_to(target).as_posix()
            if rel == MARKER:
                continue
            problem = "" if path.is_symlink() or not path.is_file() else file_ok(rel)
            if problem is not None:
                found.append(rel + problem)
    return found


def check_folder_target(target: Path, kind: str, what: str = "--out",
                        accept: Callable[[Path], bool] | None = None) -> None:
    """Refuse (one line) a target that cardlab may not replace by a ``kind`` folder.

    Allowed: a missing path, an empty folder, a folder whose marker says ``kind`` (or that
    ``accept`` recognises, e.g. a study folder written before markers existed) holding only
    what cardlab wrote there, unchanged (:func:`foreign_files`).
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
    if (marker is not None and marker.get("kind") == kind) or (
            marker is None and accept is not None and accept(target)):
        try:
            foreign = foreign_files(target, kind)
        except OSError as exc:
            raise CardlabError(f"cannot read {what} {target}: {exc.strerror or exc}") from None
        if foreign:
            shown = ", ".join(foreign[:SHOWN]) + (f" and {len(foreign) - SHOWN} more"
                                                  if len(foreign) > SHOWN else "")
            raise CardlabError(
                f"{what} {target} holds {len(foreign)} file{'s' if len(foreign) != 1 else ''} "
                f"cardlab did not write: {shown}; replacing the folder would lose them: move "
                "them out of it (or choose another --out), then run this again")
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


def claim_output_folder(target: str | os.PathLike, kind: str, what: str = "--out",
                        accept: Callable[[Path], bool] | None = None) -> Path:
    """Every check of a ``kind`` folder's target before any work (:func:`check_output_path`,
    :func:`check_folder_target`), then its lock (:func:`claim_folder`) until it is replaced
    (:func:`replace_folder`) or this process ends. Returns the absolute target."""
    refuse_stdout(target, what)
    target = Path(os.path.abspath(target))
    check_output_path(target, what, own=(kind,))
    check_folder_target(target, kind, what, accept)
    here = Path(os.path.abspath(os.getcwd()))
    if target == here or target in here.parents:
        raise CardlabError(f"{what} {target} is the current folder or holds it; choose "
                           "another folder")
    claim_folder(target, what)
    return target


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


def missing_folders(folder: Path) -> list[Path]:
    """``folder`` and its ancestors that do not exist yet, deepest first."""
    missing = []
    for f in (folder, *folder.parents):
        if os.path.lexists(f):
            break
        missing.append(f)
    return missing


def remove_empty(folders: list[Path]) -> None:
    """Remove the folders a failed command created (deepest first) that are still empty."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def replace_folder(target: str | os.PathLike, kind: str, build: Callable[[Path], None],
                   what: str = "--out", accept: Callable[[Path], bool] | None = None) -> Path:
    """Build a ``kind`` folder with ``build(tmp)`` and swap it in at ``target``.

    ``target`` is checked and locked first (:func:`claim_output_folder`; a study claims it
    before its first game) and checked again before the swap (a file the user put there
    while it was built is never lost). A failure while building (OSError: read-only, full
    disk) becomes one CardlabIOError line naming the path; whatever was at ``target`` stays
    as it was, and the temporary folder and the parent folders made for it are removed.
    """
    target = claim_output_folder(target, kind, what, accept)
    parent = target.parent
    created = missing_folders(parent)
    tmp: Path | None = None
    try:
        parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_builds(parent, target.name)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".cardlab-tmp",
                                    dir=parent))
        _write_marker(tmp, kind)  # first: a killed build is recognised and cleaned up later
        build(tmp)
        _write_marker(tmp, kind, _inventory(tmp))
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes it private; a normal folder is wanted
        check_folder_target(target, kind, what, accept)  # nothing of the user's came meanwhile
        _swap(tmp, target, kind)
        tmp = None
        created = []
    except OSError as exc:
        raise io_error(what, target, exc, "nothing was changed there") from None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        remove_empty(created)
        release_folder(target)
    return target


def _swap(new: Path, target: Path, kind: str) -> None:
    """Put ``new`` at ``target``; an earlier folder there is moved aside, then removed (kept,
    under a visible name beside it, if a file cardlab did not write appeared in it at the
    last moment)."""
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
    try:
        foreign = foreign_files(old, kind)
    except OSError:
        foreign = ["?"]
    if foreign:
        with contextlib.suppress(OSError):
            os.rename(old, target.parent / f"{target.name}.previous-{uuid.uuid4().hex[:8]}")
        return
    shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ----------------------------------------------------------------------------- files


def check_file_target(out: Path, force: bool = False, what: str = "--out") -> None:
    """Refuse (one line) a file target (an export, a viewer page, weights) before any game
    is played: one inside a folder cardlab made (:func:`check_output_path`, whatever
    ``force`` says), an existing file without ``force``, anything but a regular file."""
    if str(out) == STDOUT:
        return
    check_output_path(out, what)
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
        raise io_error(what, out, exc, "nothing was written") from None
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

"""A run folder on disk: a Parquet dataset of part files, the plan, the manifest, a lock.

Layout::

    RUN/_run.json                 the plan, written first (the folder is a cardlab run)
    RUN/part-<start>-<stop>.parquet   one per finished chunk, units start..stop-1
    RUN/_manifest.json            plan + completion facts, written last: the run is complete
    RUN/.lock                     held (flock) while a process writes the run
    RUN/_damaged/                 parts and manifests ``--resume --repair`` moved aside

Every file is written to a hidden temporary name and renamed into place (atomic on POSIX), so
an interrupted run - Ctrl-C, SIGTERM, a killed process, a full disk - leaves only finished
parts behind, never a truncated one, and never a manifest. Names that start with ``.`` or
``_`` are skipped by ``pandas.read_parquet(RUN)``, which loads the parts in index order.

:meth:`RunFolder.verify` checks a folder against itself before anything reads or continues
it: the parts tile the plan's index range without overlap, each part holds the rows its range
implies, each part's rows and metadata match the checksum written with them, and each part's
embedded plan, ``_run.json`` and ``_manifest.json`` agree. Whatever fails is reported as
damaged, one line per file, and never counted as complete; :meth:`RunFolder.repair` moves
damaged pieces into ``_damaged/`` (nothing is deleted) so that a resumed run replays exactly
their ranges.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.errors import CardlabError, CardlabIOError
from analyzer.runner import manifest as mf
from analyzer.runner.chunks import Chunk

PART_RE = re.compile(r"^part-(\d{19})-(\d{19})\.parquet$")
LOCK_FILE = ".lock"
DAMAGED_DIR = "_damaged"
# A part's checksum: its rows (every column's values, in order) and its cardlab metadata (plan,
# range, moments), hashed when the part is written and again whenever it is verified, so that
# an edited row or an edited footer summary is damage, not a result.
CHECKSUM_KEY = b"cardlab.checksum"
CHECKSUM_ALGORITHM = "sha256"


class DamagedRunError(CardlabError):
    """A run folder that fails verification; ``details`` holds one line per damaged file."""

    def __init__(self, message: str, details: list[str]) -> None:
        super().__init__(message)
        self.details = details


@dataclass
class Damage:
    """One damaged piece of a run folder: the file, what is wrong, and whether moving it
    aside and replaying its range repairs it."""

    name: str
    what: str
    movable: bool = True

    def line(self, folder: Path) -> str:
        return f"{folder / self.name}: {self.what}"


@dataclass
class FolderCheck:
    """What :meth:`RunFolder.verify` found."""

    plan: dict
    parts: list[tuple[Chunk, Path]]  # the valid parts, in index order
    damage: list[Damage] = field(default_factory=list)
    manifest: dict | None = None  # the manifest, when present and valid

    @property
    def done(self) -> int:
        return sum(c.count for c, _ in self.parts)

    @property
    def complete(self) -> bool:
        return not self.damage and self.manifest is not None


def part_name(chunk: Chunk) -> str:
    """File name of a chunk's part; zero-padded so that name order is index order."""
    return f"part-{chunk.start:019d}-{chunk.stop:019d}.parquet"


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")


# The temporary files of _temporary() in a run folder (a writer killed midway leaves one).
TEMPORARY_RE = re.compile(r"^\.(_run\.json|_manifest\.json|part-\d{19}-\d{19}\.parquet)"
                          r"\.\d+-\d+\.tmp$")


def atomic_write(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Let ``write`` fill a temporary file beside ``path``, fsync it, then rename it to
    ``path``: a reader sees the old file or the whole new one, never a partial one."""
    tmp = _temporary(path)
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:  # named by the file meant, not by its temporary name (or none)
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_write`)."""
    atomic_write(path, lambda f: f.write(data))


def write_part(
    folder: Path, chunk: Chunk, columns: dict, metadata: bytes | None = None,
    moments: bytes | None = None,
) -> Path:
    """Write one chunk's table (dict of equal-length arrays) as a part file, atomically.

    ``metadata`` (the run's plan as JSON) goes into the file's key-value metadata, so a part
    file copied out of its folder still says where it came from; ``moments`` (the chunk's
    per-seat moments as JSON) too, so that summaries and resumes read footers, not rows.
    """
    table = pa.table({name: pa.array(values) for name, values in columns.items()})
    meta = {mf.RANGE_KEY: f"{chunk.start}-{chunk.stop}".encode()}
    if metadata is not None:
        meta[mf.METADATA_KEY] = metadata
    if moments is not None:
        meta[mf.MOMENTS_KEY] = moments
    meta[CHECKSUM_KEY] = part_checksum(table, meta).encode()
    table = table.replace_schema_metadata(meta)
    path = Path(folder) / part_name(chunk)
    atomic_write(path, lambda f: pq.write_table(table, f))
    return path


def part_checksum(table: pa.Table, metadata: dict[bytes, bytes]) -> str:
    """``sha256:<hex>`` of a part's rows and its cardlab metadata (all but the checksum).

    Each column contributes its name, numpy dtype, length and values (numbers and booleans as
    their bytes, text as length-prefixed UTF-8), so the digest is the same for the table
    written and the table read back, whatever Parquet's encoding. SHA-256 runs at well over
    1 GB/s on CPUs with SHA instructions: a small fraction of the time reading and decoding
    the part takes (about 0.1 s against 0.5 s for four million rows)."""
    digest = hashlib.sha256()
    for key in sorted(k for k in metadata if k.startswith(b"cardlab.") and k != CHECKSUM_KEY):
        value = metadata[key]
        digest.update(len(key).to_bytes(8, "little") + key)
        digest.update(len(value).to_bytes(8, "little") + value)
    for name, column in zip(table.column_names, table.columns, strict=True):
        values = column.to_numpy()
        head = f"{name}\0{values.dtype.str if values.dtype.kind != 'O' else 'text'}\0"
        digest.update(head.encode() + len(values).to_bytes(8, "little"))
        if values.dtype.kind == "O":
            for item in values:
                data = str(item).encode()
                digest.update(len(data).to_bytes(8, "little") + data)
        else:
            digest.update(np.ascontiguousarray(values).data)
    return f"{CHECKSUM_ALGORITHM}:{digest.hexdigest()}"


class RunFolder:
    """A results folder: read its plan, manifest and finished parts; write them."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._lock: BinaryIO | None = None  # the open lock file while this object holds it

    def __repr__(self) -> str:
        return f"RunFolder({str(self.path)!r})"

    @property
    def run_file(self) -> Path:
        return self.path / mf.RUN_FILE

    @property
    def manifest_file(self) -> Path:
        return self.path / mf.MANIFEST_FILE

    def is_run(self) -> bool:
        return self.run_file.is_file()

    def read_plan(self) -> dict:
        """The plan; CardlabError when the folder is not a (readable) cardlab run."""
        if not self.path.is_dir():
            raise CardlabError(f"{self.path} is not a folder of cardlab results")
        if not self.is_run():
            raise CardlabError(
                f"{self.path} is not a cardlab run folder (it has no {mf.RUN_FILE})"
            )
        plan = _read_json(self.run_file)
        if plan.get("format") != mf.FORMAT or plan.get("kind") not in mf.KINDS:
            raise CardlabError(f"{self.run_file} is not a cardlab run plan")
        if plan.get("format_version", 0) > mf.FORMAT_VERSION:
            raise CardlabError(
                f"{self.path} was written by a newer cardlab (format "
                f"{plan['format_version']}); upgrade cardlab to read it"
            )
        return plan

    def read_manifest(self) -> dict | None:
        """The manifest of a complete run, or None while the run is unfinished."""
        if not self.manifest_file.exists():
            return None
        return _read_json(self.manifest_file)

    def is_complete(self) -> bool:
        return self.manifest_file.exists()

    def parts(self, plan: dict | None = None) -> list[tuple[Chunk, Path]]:
        """Part files by name, in index order (unchecked: see :meth:`verify`)."""
        plan = plan if plan is not None else self.read_plan()
        found = []
        for entry in self.path.iterdir():
            m = PART_RE.match(entry.name)
            if m:
                start, stop = int(m.group(1)), int(m.group(2))
                found.append((Chunk(start, stop - start), entry))
        found.sort()
        return found

    def verify(self, plan: dict | None = None) -> FolderCheck:
        """Check every piece of the folder against the plan in ``_run.json`` (see the module
        docstring); never raises for damage, only for a folder that is no run at all."""
        plan = plan if plan is not None else self.read_plan()
        check = FolderCheck(plan, [])
        lo, hi = plan["start"], plan["start"] + plan["count"]
        prev_stop = lo
        embedded: list[tuple[str, dict]] = []
        for chunk, entry in self.parts(plan):
            if chunk.count <= 0 or chunk.stop > hi or chunk.start < lo:
                check.damage.append(Damage(entry.name, f"lies outside the run's range "
                                                       f"{lo}..{hi - 1}"))
                continue
            if chunk.start < prev_stop:
                check.damage.append(Damage(entry.name, "overlaps another part"))
                continue
            problem, meta = _check_part(entry, chunk, plan)
            if meta is not None:
                embedded.append((entry.name, meta))
            if problem:
                check.damage.append(Damage(entry.name, problem))
                continue
            check.parts.append((chunk, entry))
            prev_stop = chunk.stop
        _check_plan_against_parts(plan, embedded, check)
        self._check_manifest(plan, check)
        return check

    def _check_manifest(self, plan: dict, check: FolderCheck) -> None:
        if not self.manifest_file.exists():
            return
        name = mf.MANIFEST_FILE
        try:
            manifest = _read_json(self.manifest_file)
        except CardlabError:
            check.damage.append(Damage(name, "is not readable JSON"))
            return
        diffs = mf.differences(plan, {k: manifest.get(k) for k in plan})
        if diffs:
            check.damage.append(Damage(name, "differs from _run.json and the parts ("
                                       + "; ".join(diffs) + ")"))
            return
        rows = plan["count"] * plan["players"] if plan["kind"] == "rows" else None
        if manifest.get("complete") is not True or manifest.get("rows") != rows:
            check.damage.append(Damage(name, "does not record a complete run of this plan"))
            return
        covered = check.done
        if covered != plan["count"]:
            check.damage.append(Damage(
                name, f"says the run is complete, but the valid parts cover {covered} of "
                f"{plan['count']} {mf.plural(plan['unit'])}"))
            return
        if manifest.get("parts") != len(check.parts):
            check.damage.append(Damage(name, f"says {manifest.get('parts')} parts; the folder "
                                             f"holds {len(check.parts)}"))
            return
        check.manifest = manifest

    def repair(self, check: FolderCheck) -> list[Path]:
        """Move every damaged piece into ``_damaged/``; return where they went.

        Refused when ``_run.json`` itself is what differs (the parts cannot be replayed under
        a plan they disagree with)."""
        fixed = [d for d in check.damage if not d.movable]
        if fixed:
            raise DamagedRunError(
                f"cannot repair {self.path}: {fixed[0].what}; restore {fixed[0].name} or "
                "choose a new --out", [d.line(self.path) for d in check.damage])
        target = self.path / DAMAGED_DIR
        moved = []
        target.mkdir(exist_ok=True)
        for d in check.damage:
            src = self.path / d.name
            if not src.exists():
                continue
            dst = target / d.name
            n = 1
            while dst.exists():
                dst = target / f"{d.name}.{n}"
                n += 1
            os.replace(src, dst)
            moved.append(dst)
        return moved

    def is_locked(self) -> bool:
        """Whether another process holds the folder's lock (is writing the run now)."""
        try:
            import fcntl
        except ImportError:
            return False
        try:
            handle = open(self.path / LOCK_FILE)  # noqa: SIM115
        except OSError:
            return False
        with handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            except OSError:
                return False
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        return False

    def done_units(self, plan: dict | None = None) -> int:
        return self.verify(plan).done

    def write_plan(self, plan: dict) -> None:
        atomic_write_bytes(self.run_file, mf.to_bytes(plan))

    def write_manifest(self, manifest: dict) -> None:
        atomic_write_bytes(self.manifest_file, mf.to_bytes(manifest))

    def remove_temporaries(self) -> None:
        """Delete temporary files an interrupted writer left (only called under the lock)."""
        for entry in self.path.glob(".*.tmp"):
            if TEMPORARY_RE.match(entry.name):  # cardlab's own, never a user's .x.tmp
                with contextlib.suppress(FileNotFoundError):
                    entry.unlink()

    def hold(self) -> None:
        """Take the folder's lock (kept until :meth:`release`); a folder another writer holds
        (another process, or another RunFolder of this one) is refused with one line: it is
        in use. flock is released by the kernel when the process dies, so a killed run never
        leaves a stale lock behind."""
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock, the rest works the same
            return
        if self._lock is not None:
            return
        try:
            handle = open(self.path / LOCK_FILE, "ab")  # noqa: SIM115
        except OSError as exc:
            raise CardlabIOError(
                f"cannot write to {self.path}: {exc.strerror or exc}"
            ) from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise CardlabError(
                f"{self.path} is in use: it is being written by another cardlab process "
                "right now; wait for it to finish (or stop it), then resume"
            ) from None
        self._lock = handle

    def release(self) -> None:
        """Let go of the lock :meth:`hold` took (nothing when this object holds none)."""
        handle, self._lock = self._lock, None
        if handle is not None:
            handle.close()  # closing the last descriptor drops the flock

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the folder's lock in this block: a second process writing the same run is
        refused. A lock :func:`prepare` took is adopted (and released at the end)."""
        self.hold()
        try:
            yield
        finally:
            self.release()


def _check_part(path: Path, chunk: Chunk, plan: dict) -> tuple[str | None, dict | None]:
    """What is wrong with one part file (None: nothing), and its embedded plan."""
    try:
        meta = pq.read_metadata(path)
    except (OSError, ValueError) as exc:
        return f"is not a readable Parquet file ({exc})", None
    kv = meta.metadata or {}
    if mf.METADATA_KEY not in kv:
        return "carries no cardlab plan in its metadata (not written by this run)", None
    try:
        embedded = json.loads(kv[mf.METADATA_KEY])
    except (UnicodeDecodeError, json.JSONDecodeError):
        return "carries an unreadable plan in its metadata", None
    diffs = mf.differences(plan, embedded)
    if diffs:
        return ("belongs to another run: its embedded plan differs from _run.json ("
                + "; ".join(diffs) + ")"), embedded
    table = None
    if plan["kind"] == "rows":
        expected = chunk.count * plan["players"]
        if meta.num_rows != expected:
            return (f"holds {meta.num_rows} rows; its range {chunk.start}..{chunk.stop - 1} "
                    f"implies {expected}"), embedded
        span = _index_span(meta)
        if span is not None and span != (chunk.start, chunk.stop - 1):
            return (f"holds indices {span[0]}..{span[1]}, not its range "
                    f"{chunk.start}..{chunk.stop - 1}"), embedded
    elif plan["kind"] == "decisions":  # rows per decision (analyzer/learn): any number
        span = _index_span(meta)
        if span is not None and (span[0] < chunk.start or span[1] >= chunk.stop):
            return (f"holds indices {span[0]}..{span[1]}, outside its range "
                    f"{chunk.start}..{chunk.stop - 1}"), embedded
    else:
        try:
            table = pq.read_table(path)
        except (OSError, ValueError) as exc:
            return f"has unreadable rows ({exc})", embedded
        units = _histogram_units(table, plan)
        if units != chunk.count:
            return (f"counts {units} {mf.plural(plan['unit'])}; its range "
                    f"{chunk.start}..{chunk.stop - 1} implies {chunk.count}"), embedded
    written_for = kv.get(mf.RANGE_KEY, b"").decode(errors="replace")
    if written_for and written_for != f"{chunk.start}-{chunk.stop}":
        lo, _, hi = written_for.partition("-")
        return (f"was written for units {lo}..{int(hi) - 1 if hi.isdigit() else hi}, not "
                f"its name's range {chunk.start}..{chunk.stop - 1}"), embedded
    return _check_checksum(path, kv, table), embedded


def _check_checksum(path: Path, kv: dict[bytes, bytes], table: pa.Table | None) -> str | None:
    """What is wrong with a part's rows against the checksum written with them (None: they
    match)."""
    stored = kv.get(CHECKSUM_KEY)
    if stored is None:
        return ("carries no checksum of its rows (written by a cardlab that did not record "
                "one): its rows cannot be verified")
    try:
        table = table if table is not None else pq.read_table(path)
    except (OSError, ValueError) as exc:
        return f"has unreadable rows ({exc})"
    if part_checksum(table, kv).encode() != stored:
        return ("does not match the checksum written with it: its rows or its metadata were "
                "changed after it was written")
    return None


def _index_span(meta: pq.FileMetaData) -> tuple[int, int] | None:
    """(min, max) of the ``index`` column from the row-group statistics, when present."""
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    if "index" not in names:
        return None
    col = names.index("index")
    lo = hi = None
    for g in range(meta.num_row_groups):
        stats = meta.row_group(g).column(col).statistics
        if stats is None or not stats.has_min_max:
            return None
        lo = stats.min if lo is None else min(lo, stats.min)
        hi = stats.max if hi is None else max(hi, stats.max)
    return None if lo is None else (int(lo), int(hi))


def _histogram_units(table: pa.Table, plan: dict) -> int | None:
    """Units an aggregate part counts: the overall histogram of seat 0's first column."""
    columns = [c for c in plan["columns"] if c not in ("index", "seat")]
    try:
        frame = table.to_pandas()
        rows = frame[(frame["given"] == "") & (frame["seat"] == 0)
                     & (frame["column"] == columns[0])]
        return int(rows["count"].sum())
    except (ValueError, KeyError, IndexError):
        return None


def _check_plan_against_parts(plan: dict, embedded: list[tuple[str, dict]],
                              check: FolderCheck) -> None:
    """Every part disagrees with _run.json the same way: _run.json is what was edited."""
    if not embedded or len(check.damage) != len(embedded):
        return
    first = embedded[0][1]
    if any(meta != first for _, meta in embedded) or first == plan:
        return
    diffs = mf.differences(first, plan)
    check.damage.insert(0, Damage(
        mf.RUN_FILE, f"differs from the plan all {len(embedded)} parts carry ("
        + "; ".join(diffs) + ")", movable=False))


def _read_json(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CardlabError(f"cannot read {path}: {exc}") from None
    if not isinstance(doc, dict):
        raise CardlabError(f"cannot read {path}: not a JSON object")
    return doc


def run_folder_around(path: str | os.PathLike) -> Path | None:
    """The run folder (it holds ``_run.json``) that is ``path`` or holds it; None if none."""
    p = Path(os.path.abspath(path))
    return next((folder for folder in (p, *p.parents) if RunFolder(folder).is_run()), None)


def _occupied(p: Path) -> bool:
    """Whether folder ``p`` holds anything but a lock file and writers' temporary files."""
    return any(e.name != LOCK_FILE and not TEMPORARY_RE.match(e.name) for e in p.iterdir())


def prepare(path: str | os.PathLike, plan: dict, resume: bool) -> RunFolder:
    """Create the run folder for ``plan``, or reopen it when resuming the very same plan, and
    hold its lock (the writer's :meth:`RunFolder.locked` block keeps it).

    Refused with a one-line CardlabError, before anything is created: a path that is a file
    or lies below one, a non-empty folder that is not a cardlab run, a study's, report's or
    training's folder or one inside it, a folder inside another run (a decisions run may lie
    inside the training folder ``cardlab train`` names in ``CARDLAB_TRAINING_FOLDER``), a
    folder another process is writing (it is in use), an existing run without ``resume``, a
    run with a different plan, or ``resume`` where there is no run to continue.
    """
    from analyzer.outputs import (
        TRAINING_ENV,
        check_output_path,
        missing_folders,
        refuse_stdout,
        remove_empty,
    )

    refuse_stdout(path)
    folder = RunFolder(path)
    p = folder.path
    within = os.environ.get(TRAINING_ENV)
    check_output_path(p, "--out", own=("run", "decisions run"),
                      advice="a run needs a folder of its own: choose a new --out outside it",
                      within=Path(within) if within else None)
    if (p.is_symlink() and not p.is_dir()) or (p.exists() and not p.is_dir()):
        raise CardlabError(f"--out {p} exists and is not a folder; choose a new --out")
    try:
        occupied = p.is_dir() and _occupied(p)
    except OSError as exc:
        raise CardlabError(f"cannot read --out {p}: {exc.strerror or exc}") from None
    if p.is_dir() and folder.is_locked():  # another writer, whatever it has written yet
        raise CardlabError(f"--out {p} is in use: it is being written by another cardlab "
                           "process right now; wait for it to finish (or stop it)")
    if not occupied and resume:
        raise CardlabError(
            f"--resume: {p} holds no run to continue (is the path right? without --resume "
            "a new run starts there)"
        )
    if occupied and not folder.is_run():
        raise CardlabError(
            f"--out {p} exists and holds something other than a cardlab run; choose a "
            "new --out"
        )
    created = missing_folders(p)
    lock_existed = (p / LOCK_FILE).exists()
    try:
        p.mkdir(parents=True, exist_ok=True)
        folder.hold()
        _open_run(folder, plan, resume)
    except BaseException as exc:
        folder.release()
        if not lock_existed:  # refused or failed: nothing of this call is left there
            with contextlib.suppress(OSError):
                (p / LOCK_FILE).unlink()
        remove_empty(created)
        if isinstance(exc, OSError):
            raise CardlabIOError(f"cannot write to --out {p}: {exc.strerror or exc}") from None
        raise
    return folder


def _open_run(folder: RunFolder, plan: dict, resume: bool) -> None:
    """Under the folder's lock: continue the run there (``resume``: the very same plan) or
    start a new one in the empty folder (its plan written first)."""
    p = folder.path
    if not folder.is_run():
        if resume:
            raise CardlabError(f"--resume: {p} holds no run to continue")
        if _occupied(p):
            raise CardlabError(f"--out {p} exists and holds something other than a cardlab "
                               "run; choose a new --out")
        folder.write_plan(plan)
        return
    old = folder.read_plan()
    if not resume:
        if folder.is_complete():
            raise CardlabError(f"--out {p} already holds a finished run; choose a new --out")
        raise CardlabError(
            f"--out {p} holds an unfinished run: add --resume to continue it, or choose a "
            "new --out"
        )
    diffs = mf.differences(old, plan)
    if diffs:
        raise CardlabError(
            f"cannot resume {p}: it was started with other parameters ("
            + "; ".join(diffs)
            + "); use a new --out"
        )


def damaged_error(folder: RunFolder, check: FolderCheck, action: str) -> DamagedRunError:
    """The error for a damaged folder: one detail line per damaged file, and how to repair."""
    n = len(check.damage)
    movable = all(d.movable for d in check.damage)
    try:  # the command that wrote the folder takes the repair (decisions too)
        command = "decisions" if folder.read_plan().get("kind") == "decisions" else "simulate"
    except (CardlabError, OSError, AttributeError):
        command = "simulate"
    how = (f"repair it with the same {command} command plus --resume --repair (damaged files "
           f"move to {folder.path / DAMAGED_DIR} and exactly their ranges are played again)"
           if movable else "restore the edited file or start a new --out")
    return DamagedRunError(
        f"run folder {folder.path} is damaged ({n} file{'s' if n != 1 else ''}); {action}; "
        + how, [d.line(folder.path) for d in check.damage])

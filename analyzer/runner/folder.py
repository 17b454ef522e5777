"""A run folder on disk: a Parquet dataset of part files, the plan, the manifest, a lock.

Layout::

    RUN/_run.json                 the plan, written first (the folder is a cardlab run)
    RUN/part-<start>-<stop>.parquet   one per finished chunk, units start..stop-1
    RUN/_manifest.json            plan + completion facts, written last: the run is complete
    RUN/.lock                     held (flock) while a process writes the run

Every file is written to a hidden temporary name and renamed into place (atomic on POSIX), so
an interrupted run - Ctrl-C, SIGTERM, a killed process, a full disk - leaves only finished
parts behind, never a truncated one, and never a manifest. Names that start with ``.`` or
``_`` are skipped by ``pandas.read_parquet(RUN)``, which loads the parts in index order.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.errors import CardlabError
from analyzer.runner import manifest as mf
from analyzer.runner.chunks import Chunk

PART_RE = re.compile(r"^part-(\d{19})-(\d{19})\.parquet$")
LOCK_FILE = ".lock"


def part_name(chunk: Chunk) -> str:
    """File name of a chunk's part; zero-padded so that name order is index order."""
    return f"part-{chunk.start:019d}-{chunk.stop:019d}.parquet"


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")


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
    meta = {}
    if metadata is not None:
        meta[mf.METADATA_KEY] = metadata
    if moments is not None:
        meta[mf.MOMENTS_KEY] = moments
    if meta:
        table = table.replace_schema_metadata(meta)
    path = Path(folder) / part_name(chunk)
    atomic_write(path, lambda f: pq.write_table(table, f))
    return path


class RunFolder:
    """A results folder: read its plan, manifest and finished parts; write them."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)

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
        """Finished parts in index order, checked to lie inside the run and not to overlap."""
        plan = plan if plan is not None else self.read_plan()
        lo, hi = plan["start"], plan["start"] + plan["count"]
        found = []
        for entry in self.path.iterdir():
            m = PART_RE.match(entry.name)
            if m:
                start, stop = int(m.group(1)), int(m.group(2))
                found.append((Chunk(start, stop - start), entry))
        found.sort()
        prev_stop = lo
        for chunk, entry in found:
            if chunk.count <= 0 or chunk.start < prev_stop or chunk.stop > hi:
                raise CardlabError(
                    f"corrupt run folder {self.path}: part {entry.name} overlaps another part "
                    f"or lies outside the run's range {lo}..{hi - 1}"
                )
            prev_stop = chunk.stop
        return found

    def done_units(self, plan: dict | None = None) -> int:
        return sum(c.count for c, _ in self.parts(plan))

    def write_plan(self, plan: dict) -> None:
        atomic_write_bytes(self.run_file, mf.to_bytes(plan))

    def write_manifest(self, manifest: dict) -> None:
        atomic_write_bytes(self.manifest_file, mf.to_bytes(manifest))

    def remove_temporaries(self) -> None:
        """Delete temporary files an interrupted writer left (only called under the lock)."""
        for entry in self.path.glob(".*.tmp"):
            with contextlib.suppress(FileNotFoundError):
                entry.unlink()

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the folder's lock: a second process writing the same run is refused.

        flock is released by the kernel when the process dies, so a killed run never leaves
        a stale lock behind.
        """
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock, the rest works the same
            yield
            return
        with open(self.path / LOCK_FILE, "a") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise CardlabError(
                    f"{self.path} is being written by another cardlab process; wait for it "
                    "to finish"
                ) from None
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _read_json(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CardlabError(f"cannot read {path}: {exc}") from None
    if not isinstance(doc, dict):
        raise CardlabError(f"cannot read {path}: not a JSON object")
    return doc


def prepare(path: str | os.PathLike, plan: dict, resume: bool) -> RunFolder:
    """Create the run folder for ``plan``, or reopen it when resuming the very same plan.

    Refused with a one-line CardlabError: a path that is a file, a non-empty folder that is not
    a cardlab run, an existing run without ``resume``, or a run with a different plan.
    """
    folder = RunFolder(path)
    p = folder.path
    if p.exists() and not p.is_dir():
        raise CardlabError(f"--out {p} exists and is not a folder; choose a new --out")
    if p.is_dir() and any(p.iterdir()):
        if not folder.is_run():
            raise CardlabError(
                f"--out {p} exists and holds something other than a cardlab run; choose a "
                "new --out"
            )
        old = folder.read_plan()
        finished = folder.is_complete()
        if not resume:
            if finished:
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
        return folder
    try:
        p.mkdir(parents=True, exist_ok=True)
        folder.write_plan(plan)
    except OSError as exc:
        raise CardlabError(f"cannot write to --out {p}: {exc.strerror or exc}") from None
    return folder

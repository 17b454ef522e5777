"""Reading a run folder back: its plan, its per-seat statistics, its rows.

Works on finished and unfinished runs alike (an unfinished run's statistics cover the chunks
it finished). Rows runs are read one part file at a time, so memory stays flat.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd
import pyarrow.parquet as pq

from analyzer.errors import CardlabError
from analyzer.runner.aggregate import (
    merge_histograms,
    moments_from_histogram,
    moments_from_json,
    value_columns,
)
from analyzer.runner.folder import RunFolder, damaged_error
from analyzer.runner.manifest import MOMENTS_KEY
from analyzer.summary import merge_moments, seat_moments

COMPACT_EVERY = 256  # fold per-part moments this often
HISTOGRAMS_EVERY = 16  # and per-part histograms (thousands of rows each) this often


@dataclass
class RunSummary:
    """A run folder's plan, how far it got, and its per-seat statistics."""

    folder: RunFolder
    plan: dict
    complete: bool  # finished and verified: every part there, nothing damaged
    done: int  # units finished
    moments: pd.DataFrame | None  # None while no chunk is finished
    hist: pd.DataFrame | None = None  # aggregate runs only
    busy: bool = False  # another process is writing the folder now

    @property
    def count(self) -> int:
        return int(self.plan["count"])


def read_part(path: os.PathLike) -> pd.DataFrame:
    """A part file's table (CardlabError when it is not readable Parquet)."""
    try:
        return pq.read_table(path).to_pandas()
    except (OSError, ValueError) as exc:
        raise CardlabError(f"cannot read part file {path}: {exc}") from None


def part_moments(path: os.PathLike, columns: list[str] | None = None) -> pd.DataFrame:
    """Per-seat moments of a rows part: from its footer when stored there, else its rows."""
    try:
        meta = pq.read_schema(path).metadata or {}
    except (OSError, ValueError) as exc:
        raise CardlabError(f"cannot read part file {path}: {exc}") from None
    if MOMENTS_KEY in meta:
        return moments_from_json(meta[MOMENTS_KEY])
    table = read_part(path)
    columns = columns if columns is not None else value_columns(list(table.columns))
    missing = sorted(set(columns) - set(table.columns))
    if missing:
        raise CardlabError(f"part file {path} lacks columns {', '.join(missing)}")
    return seat_moments(table, columns)


def summarize_folder(path: str | os.PathLike) -> RunSummary:
    """Per-seat moments of everything a run folder holds (CardlabError if not a run).

    The folder is verified first (:meth:`RunFolder.verify`): a damaged folder raises
    DamagedRunError, one detail line per damaged file, and is never summarized as complete.
    """
    folder = RunFolder(path)
    plan = folder.read_plan()
    busy = folder.is_locked()
    check = folder.verify(plan)
    if check.damage and not busy:
        raise damaged_error(folder, check, "it is not summarized")
    if busy:  # parts appear while we read: count only what verified
        check.damage = []
    parts = check.parts
    columns = value_columns(list(plan["columns"]))
    summary = RunSummary(folder, plan, check.complete and not busy, check.done, None,
                         busy=busy)
    if not parts:
        return summary
    if plan["kind"] == "aggregate":
        hists: list[pd.DataFrame] = []
        for _, p in parts:
            hists.append(read_part(p))
            if len(hists) >= HISTOGRAMS_EVERY:  # memory stays flat for any number of parts
                hists = [merge_histograms(hists)]
        hist = merge_histograms(hists)
        summary.hist = hist
        summary.moments = moments_from_histogram(hist, columns)
    else:
        frames = []
        for _, p in parts:
            frames.append(part_moments(p, columns))
            if len(frames) >= COMPACT_EVERY:
                frames = [merge_moments(frames)]
        summary.moments = merge_moments(frames)
    return summary


def load_rows(path: str | os.PathLike) -> pd.DataFrame:
    """All per-seat rows of a rows run folder (what ``pandas.read_parquet(path)`` gives),
    after verifying the folder (DamagedRunError when a piece is damaged)."""
    folder = RunFolder(path)
    plan = folder.read_plan()
    if plan["kind"] != "rows":
        raise CardlabError(f"{folder.path} holds aggregates, not per-game rows")
    check = folder.verify(plan)
    if check.damage:
        raise damaged_error(folder, check, "its rows are not loaded")
    return pd.read_parquet(folder.path)

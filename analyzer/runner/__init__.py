"""Runs at scale: chunks on every core or a Dask cluster, streamed to Parquet, resumable.

Public API:

- :func:`collect` - all per-seat rows of a range of games, in memory (studies).
- :func:`collect_moments` - per-seat moments of a range of games, without keeping rows.
- :func:`execute` with :class:`RunOptions` - the full runner (output folder, aggregates,
  resume, backends, progress), as the ``cardlab simulate`` commands use it.
- :func:`summarize_folder`, :func:`load_rows` - read a run folder back.

The names load lazily: a worker process imports ``analyzer.runner.tasks`` and must not pull in
numba (through the engine) before it has fixed numba's thread count.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "RunOptions": "analyzer.runner.engine",
    "RunResult": "analyzer.runner.engine",
    "collect": "analyzer.runner.api",
    "collect_moments": "analyzer.runner.api",
    "execute": "analyzer.runner.engine",
    "RunSummary": "analyzer.runner.results",
    "load_rows": "analyzer.runner.results",
    "summarize_folder": "analyzer.runner.results",
}

__all__ = [
    "RunOptions",
    "RunResult",
    "RunSummary",
    "collect",
    "collect_moments",
    "execute",
    "load_rows",
    "summarize_folder",
]

if TYPE_CHECKING:  # pragma: no cover
    from analyzer.runner.api import collect, collect_moments
    from analyzer.runner.engine import RunOptions, RunResult, execute
    from analyzer.runner.results import RunSummary, load_rows, summarize_folder


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'analyzer.runner' has no attribute {name!r}")

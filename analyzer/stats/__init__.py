"""Statistics for studies: intervals, paired and duplicate comparisons, sequential stopping.

Pure numpy/pandas; nothing here knows about the games or numba. The names below are loaded
from their modules when first used, so importing one module (``analyzer.stats.intervals``,
as ``cardlab analyze`` does) does not load pandas with the others.
"""

from __future__ import annotations

import importlib

_HOMES = {
    "analyzer.stats.duplicate": ("duplicate_pairs", "duplicate_ranking", "label_games",
                                 "rotations", "seat_swaps", "unit_means"),
    "analyzer.stats.intervals": ("Estimate", "mean_interval", "mean_interval_from_moments",
                                 "proportion_interval", "t_quantile", "wald_interval",
                                 "wilson_interval", "z_quantile"),
    "analyzer.stats.paired": ("PairedComparison", "paired_difference", "unpaired_variance"),
    "analyzer.stats.sequential": ("ConfidenceSequence", "SequentialResult", "run_sequential",
                                  "run_sequential_many"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_HOME_OF)


def __getattr__(name: str):
    """``analyzer.stats.NAME``: the name from its module, imported on first use."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'analyzer.stats' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

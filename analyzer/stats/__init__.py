"""Statistics for studies: intervals, paired and duplicate comparisons, sequential stopping.

Pure numpy/pandas; nothing here knows about the games or numba.
"""

from analyzer.stats.duplicate import (
    duplicate_pairs,
    duplicate_ranking,
    label_games,
    rotations,
    seat_swaps,
    unit_means,
)
from analyzer.stats.intervals import (
    Estimate,
    mean_interval,
    mean_interval_from_moments,
    proportion_interval,
    t_quantile,
    wald_interval,
    wilson_interval,
    z_quantile,
)
from analyzer.stats.paired import PairedComparison, paired_difference, unpaired_variance
from analyzer.stats.sequential import (
    ConfidenceSequence,
    SequentialResult,
    run_sequential,
    run_sequential_many,
)

__all__ = [
    "ConfidenceSequence", "Estimate", "PairedComparison", "SequentialResult",
    "duplicate_pairs", "duplicate_ranking", "label_games", "mean_interval",
    "mean_interval_from_moments", "paired_difference", "proportion_interval", "rotations",
    "run_sequential", "run_sequential_many", "seat_swaps", "t_quantile", "unit_means",
    "unpaired_variance", "wald_interval", "wilson_interval", "z_quantile",
]

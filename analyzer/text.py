"""Numbers and names in sentences: ``value ± half`` rounded to what the interval supports.

The rounding itself lives in :mod:`analyzer.numbers`, shared with the command line's tables
and the report; this module adds the words: metric names, which metrics are rates (shown in
percent), and human names for strategies and rules.
"""

from __future__ import annotations

from analyzer.numbers import decimals_for, interval

__all__ = ["RATES", "decimals_for", "is_rate", "metric_words", "pm"]



METRIC_WORDS = {
    "minus_points": "minus points", "cards_left": "cards left", "jokers_left": "jokers left",
    "ended_with_ass": "chance to end with the ass", "won": "match win rate",
    "sticks": "sticks", "points": "card points", "tricks": "tricks",
    "win_share": "share of match wins", "total": "total minus points",
    "dealt_ass": "chance to be dealt the ass", "went_out": "chance to go out",
    "fixed_trump": "chance to fix trump",
}
# Yes/no result columns: their means are rates, always shown in percent.
RATES = frozenset({"ended_with_ass", "dealt_ass", "won", "went_out", "fixed_trump"})


def pm(value: float, half: float, percent: bool = False) -> str:
    """``value ± half`` rounded to the interval (``percent``: a rate shown in percent)."""
    return interval(value, half, percent=percent)


def is_rate(metric: str) -> bool:
    """Whether ``metric`` is a yes/no column whose mean is a rate."""
    return metric in RATES


def metric_words(metric: str) -> str:
    """A column name as words for sentences."""
    return METRIC_WORDS.get(metric, metric.replace("_", " "))

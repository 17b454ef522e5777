"""Numbers in sentences: ``value +/- half`` rounded to what the interval supports."""

from __future__ import annotations

import math

METRIC_WORDS = {
    "minus_points": "minus points", "cards_left": "cards left", "jokers_left": "jokers left",
    "ended_with_ass": "chance to end with the ass", "won": "match win rate",
    "sticks": "sticks", "points": "card points", "tricks": "tricks",
    "win_share": "share of match wins", "total": "total minus points",
}


def decimals_for(half: float) -> int:
    """Decimals that show the half-width with two significant digits (0..6)."""
    if not math.isfinite(half) or half <= 0:
        return 3
    return int(min(6, max(0, 1 - math.floor(math.log10(half)))))


def pm(value: float, half: float) -> str:
    """``value +/- half`` with both rounded to the half-width's two significant digits."""
    d = decimals_for(half)
    if not math.isfinite(half):
        return f"{value:.{d}f}"
    return f"{value:.{d}f} +/- {half:.{d}f}"


def metric_words(metric: str) -> str:
    """A column name as words for sentences."""
    return METRIC_WORDS.get(metric, metric.replace("_", " "))

"""What a per-seat table shows of a result column: :class:`Metric`, declared by each game's
description (analyzer/games/) and summarised by :mod:`analyzer.summary`.

It lives apart from the summary's pandas code so that the games' descriptions, which the
command line reads for its help and its checks of the options, import neither pandas nor numba.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

PERCENT = 100.0  # a Metric's scale that shows a rate (a proportion) in percent


@dataclass(frozen=True)
class Metric:
    """A per-seat column to summarise: ``column`` of the results, shown as ``label``.

    ``scale`` turns the natural value into the table's (``PERCENT`` shows a rate, a
    proportion in [0, 1], in percent); ``unit`` turns the stored value into the natural one
    and is the game's ``Measure.scale`` (:meth:`in_units`), never declared twice.
    """

    column: str
    label: str
    scale: float = 1.0
    unit: float = 1.0

    @property
    def rate(self) -> bool:
        """A proportion: its natural values lie in [0, 1] and its interval is Wilson's."""
        return self.scale == PERCENT

    def in_units(self, measure: Any) -> Metric:
        """This metric with its stored-to-natural factor taken from ``measure`` (the game's
        analyzer.games.registry.Measure of the column; None: stored units are natural)."""
        return replace(self, unit=1.0 if measure is None else float(measure.scale))

"""A synthetic tuning problem with a planted optimum, for testing the tuner quickly.

Candidates are texts ``toy:mode=a,inert=on,x=0.42,y=0.1``. The backend fakes Who's the Ass?
rows (:class:`analyzer.runner.synthetic.SyntheticAssBackend`) whose strategy effect on minus
points is ``(mode b: -BONUS) + CURVE * ((x - X_BEST)^2 + (y - Y_BEST)^2)``, so the best
candidate is mode=b, x=X_BEST, y=Y_BEST. The knob ``inert`` changes nothing: candidates that
differ only there play identical games, as two strategies with the same decisions do.
"""

from __future__ import annotations

from dataclasses import replace

from analyzer.engines.kernel import RunSpec
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.tune.space import Knob, Space

X_BEST, Y_BEST = 0.3, 0.7
BONUS, CURVE = 3.0, 20.0


def toy_space() -> Space:
    """The search space of the toy family; the start is mode=a, inert=off, x=y=0.5."""
    return Space("ass", "toy", (
        Knob("mode", 0.0, (0.0, 1.0, 2.0), choices=("a", "b", "c")),
        Knob("inert", 0.0, (0.0, 1.0), choices=("off", "on")),
        Knob("x", 0.5, low=0.0, high=1.0),
        Knob("y", 0.5, low=0.0, high=1.0),
    ))


def knobs_of(label: str) -> dict[str, str]:
    """The ``key=value`` items of a strategy text."""
    rest = label.partition(":")[2]
    return dict(item.split("=", 1) for item in rest.split(",") if "=" in item)


class PlantedBackend(SyntheticAssBackend):
    """Rows with a known best toy candidate (see the module docstring)."""

    def behaviour(self, label: str) -> str:
        """The label without the inert knob: what decides how the candidate plays."""
        if not label.startswith("toy"):
            return label
        knobs = knobs_of(label)
        knobs.pop("inert", None)
        return "toy:" + ",".join(f"{k}={v}" for k, v in sorted(knobs.items()))

    def effect(self, label: str) -> float:
        if not label.startswith("toy"):
            return super().effect(label)
        k = knobs_of(label)
        x, y = float(k.get("x", 0.5)), float(k.get("y", 0.5))
        bonus = -BONUS if k.get("mode") == "b" else 0.0
        return bonus + CURVE * ((x - X_BEST) ** 2 + (y - Y_BEST) ** 2)

    def collect(self, spec: RunSpec, count: int, start: int = 0):
        same = replace(spec, strategies=tuple(self.behaviour(s) for s in spec.strategies))
        return super().collect(same, count, start)

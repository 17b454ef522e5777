"""What a tuning run searches: the knobs of one strategy family, discrete and continuous.

A knob with named choices, or a whole-number knob (declared ``Param(..., integer=True)`` in
its catalogue, strategies/<game>/catalog.py) with few values (e.g. ``keep`` of Who's the
Ass?, 0..13), is *discrete*: the tuner enumerates its values. Every other knob with bounds is
*continuous* and searched by CMA-ES on the unit interval (``low + u (high - low)``); a
whole-number knob searched so (``worlds``, 1..256) is rounded to a whole number, so a
candidate is always a value the knob accepts. Knobs left out of the search keep the start
preset's value.

A candidate is written as a strategy text ``base:knob=value,...`` naming every searched knob,
so that the engines, the manifests and the strategies file all read the same thing.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from analyzer.errors import CardlabError
from strategies.registry import Param

MAX_DISCRETE_VALUES = 16  # an integer knob with more values than this is searched by CMA-ES


@dataclass(frozen=True)
class Knob:
    """One searched knob: its values (discrete) or bounds (continuous), and the start value."""

    name: str
    start: float
    values: tuple[float, ...] = ()  # discrete values (choice positions for named choices)
    low: float = 0.0
    high: float = 1.0
    choices: tuple[str, ...] = ()
    integer: bool = False  # whole numbers only (the registry's Param.integer)

    @property
    def discrete(self) -> bool:
        return bool(self.values)

    def show(self, value: float) -> str:
        """The value as the command line writes it."""
        if self.choices:
            return self.choices[int(value)]
        if self.discrete or self.integer:
            return f"{int(round(value))}"
        return f"{value:.4g}"

    def from_unit(self, u: float) -> float:
        """A continuous knob's value at ``u`` in [0, 1] (a whole number for an integer knob)."""
        u = min(1.0, max(0.0, float(u)))
        value = self.low + u * (self.high - self.low)
        return float(round(value)) if self.integer else value

    def to_unit(self, value: float) -> float:
        return 0.0 if self.high == self.low else (value - self.low) / (self.high - self.low)


@dataclass(frozen=True)
class Space:
    """The knobs searched for strategy ``base`` (a registered name) of ``game``."""

    game: str
    base: str
    knobs: tuple[Knob, ...]
    fixed: tuple[tuple[str, str], ...] = ()  # knobs not searched that differ from base's preset

    @property
    def discrete(self) -> tuple[Knob, ...]:
        return tuple(k for k in self.knobs if k.discrete)

    @property
    def continuous(self) -> tuple[Knob, ...]:
        return tuple(k for k in self.knobs if not k.discrete)

    def start_point(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(discrete values, continuous values) of the start preset."""
        return (tuple(k.start for k in self.discrete), tuple(k.start for k in self.continuous))

    def combos(self) -> list[tuple[float, ...]]:
        """Every combination of the discrete knobs' values (the start's combination first)."""
        every = list(itertools.product(*(k.values for k in self.discrete)))
        start = self.start_point()[0]
        return [start] + [c for c in every if c != start]

    def values(self, combo: tuple[float, ...], cont: tuple[float, ...]) -> dict[str, str]:
        """Knob name -> value text for a discrete combination and continuous values."""
        out = {k.name: k.show(v) for k, v in zip(self.discrete, combo, strict=True)}
        out.update({k.name: k.show(v) for k, v in zip(self.continuous, cont, strict=True)})
        return {k.name: out[k.name] for k in self.knobs}

    def label(self, combo: tuple[float, ...], cont: tuple[float, ...]) -> str:
        """The strategy text of a candidate."""
        pairs = list(self.fixed) + list(self.values(combo, cont).items())
        items = ",".join(f"{k}={v}" for k, v in pairs)
        return f"{self.base}:{items}" if items else self.base


def make_knob(game: str, p: Param, start: float) -> Knob:
    """A searched knob from a registry parameter and the start preset's value."""
    if p.choices:
        return Knob(p.name, start, tuple(float(i) for i in range(len(p.choices))),
                    choices=p.choices)
    if p.low is None or p.high is None:
        raise CardlabError(f"knob {p.name!r} has no bounds and cannot be tuned")
    if p.integer:
        lo, hi = int(p.low), int(p.high)
        if hi - lo + 1 <= MAX_DISCRETE_VALUES:
            return Knob(p.name, float(round(start)), tuple(float(v) for v in range(lo, hi + 1)),
                        low=lo, high=hi, integer=True)
    return Knob(p.name, start, low=float(p.low), high=float(p.high), integer=p.integer)


def space_for(game: str, start: str, knobs: list[str] | None = None) -> Space:
    """The search space of the family of strategy ``start`` (registered), over ``knobs``
    (default: every knob of the family)."""
    from strategies.registry import parse_strategy

    s = parse_strategy(game, start)
    if not s.spec.params:
        raise CardlabError(f"{game} strategy {s.name!r} has no knobs to tune; start from a "
                           "strategy of a family with knobs, e.g. heuristic")
    names = [p.name for p in s.spec.params]
    wanted = knobs or names
    unknown = [k for k in wanted if k not in names]
    if unknown:
        raise CardlabError(f"{s.name!r} has no knob {unknown[0]!r}; knobs: {', '.join(names)}")
    chosen = tuple(make_knob(game, p, s.values[p.slot]) for p in s.spec.params
                   if p.name in wanted)
    base = parse_strategy(game, s.name).values
    fixed = tuple((p.name, p.show(s.values[p.slot])) for p in s.spec.params
                  if p.name not in wanted and s.values[p.slot] != base[p.slot])
    return Space(game, s.name, chosen, fixed)

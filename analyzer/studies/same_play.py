"""Strategies that play alike: found before a study compares them, so that identical play is
never compared with itself (two names for one strategy would differ only by chance, or by
the seats the design gives each).

Two strategies play alike when they have the same family and knob values
(:func:`decision_key`), or when their games are identical on ``PROBE_DEALS`` probe deals,
each seat by seat against every probe field (:func:`merge_same`; ``basic = heuristic`` in
Who's the Ass?).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from analyzer.errors import CardlabError
from analyzer.runner.play import Backend, play_arrangements
from analyzer.stats.duplicate import seat_swaps

PROBE_FIELDS = ("basic", "random")
PROBE_DEALS = 200
PROBE_SEED_OFFSET = 7_919  # probe deals come from another seed than the study's


def decision_key(game: str, label: str, players: int | None = None) -> Any:
    """What fixes a strategy's decisions at ``players`` players: (family, knob values as they
    play there: registry ``Strategy.values_at``; None: as written), or the label itself for
    strategies the registry does not know (synthetic backends)."""
    from strategies.registry import StrategyError, parse_strategy

    try:
        s = parse_strategy(game, label)
    except StrategyError:  # a label the registry does not know: the label itself
        return label
    return (s.family, s.values if players is None else s.values_at(players))


def probe_prints(backend: Backend, base, labels: list[str], deals: int) -> dict[str, bytes]:
    """A fingerprint per strategy of its games seat by seat against each probe field."""
    prints = {}
    spec = replace(base, seed=base.seed + PROBE_SEED_OFFSET)
    for label in labels:
        parts = []
        for probe in PROBE_FIELDS:
            try:
                backend.canonical(base.game, probe)
            except CardlabError:
                continue
            arrangements = seat_swaps(label, [probe], base.players)
            games, _ = play_arrangements(backend, spec, arrangements, deals)
            mine = games[games["seat"] == games["arrangement"]].drop(
                columns=["strategy", "arrangement"]).select_dtypes("number")
            parts.append(np.ascontiguousarray(mine.to_numpy(np.float64)).tobytes())
        prints[label] = b"".join(parts)
    return prints


def merge_same(backend: Backend, base, labels: list[str], probe_deals: int = PROBE_DEALS,
               unprobed: Sequence[str] = ()) -> tuple[list[str], list[dict[str, Any]]]:
    """The strategies to rate (one per group of identical play) and the merges made.

    Strategies in ``unprobed`` (the slow ones: probing them would cost more than the ladder)
    are merged by their family and knobs only."""
    merged: list[dict[str, Any]] = []
    by_key: dict[Any, str] = {}
    first: list[str] = []
    for label in labels:
        key = decision_key(base.game, label, base.players)
        if key in by_key:
            merged.append({"kept": by_key[key], "merged": label,
                           "reason": "same family and knob values"})
        else:
            by_key[key] = label
            first.append(label)
    probed = [x for x in first if x not in unprobed]
    prints = probe_prints(backend, base, probed, probe_deals) if probe_deals else {}
    kept, seen = [], {}
    for label in first:
        fp = prints.get(label)
        if fp is not None and fp in seen:
            merged.append({"kept": seen[fp], "merged": label,
                           "reason": f"identical games on {probe_deals} probe deals, seat by "
                                     f"seat against {' and against '.join(PROBE_FIELDS)}"})
        else:
            if fp is not None:
                seen[fp] = label
            kept.append(label)
    return kept, merged

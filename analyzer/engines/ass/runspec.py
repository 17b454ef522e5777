"""A Who's the Ass? run checked and turned into engine inputs (the kernel's ``validate``).

Kept apart from the kernel so that records, which replay one game of a run, can check its
spec without importing the kernel (which reports an illegal move by replaying the record).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from analyzer.engines.kernel import RunSpec, check_game_and_mode, parse_seed_and_strategies
from analyzer.games.ass.description import DESCRIPTION
from analyzer.games.ass.rules import check_players, games_per_match, rules_from_options
from strategies.registry import engine_arrays, parse_strategies

MODES = tuple(m.name for m in DESCRIPTION.modes)


def validate(spec: RunSpec) -> RunSpec:
    """Check a run of Who's the Ass? and return it with mode and rules filled in.

    Raises CardlabError for a wrong game, mode, player count, seed, rules option or strategy.
    A single strategy is applied to every seat.
    """
    return checked(spec)[0]


def checked(spec: RunSpec) -> tuple[RunSpec, list]:
    """:func:`validate`, with the seats' parsed strategies for :func:`engine_inputs` (a
    chunk's spec is parsed once)."""
    mode = check_game_and_mode(spec, "ass", MODES)
    check_players(spec.players)
    matches = mode == "matches"
    options = rules_from_options(spec.players, spec.rules, matches).options()
    if matches:
        options["games_per_match"] = games_per_match(spec.players, spec.rules)
    strategies, parsed = parse_seed_and_strategies(spec)
    return replace(spec, mode=mode, rules=options, strategies=strategies), parsed


def engine_inputs(spec: RunSpec, strategies: list | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Family ids and parameter matrix of a validated spec's seats (from ``strategies``, the
    seats' parsed strategies :func:`checked` gives, else parsed from the spec)."""
    if strategies is None:
        strategies = parse_strategies("ass", spec.strategies)
    return engine_arrays(strategies)

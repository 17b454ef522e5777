"""The toy game's kernel: the runner contract of analyzer/engines/kernel.py (step 4), in
numpy alone. Results depend on (seed, index) only."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from analyzer.engines.kernel import RunSpec, check_game_and_mode, check_seed_and_strategies
from strategies.registry import parse_strategy
from toy_game.description import DESCRIPTION, GAME

UNIT = DESCRIPTION.units()
MODES = tuple(m.name for m in DESCRIPTION.modes)
COLUMNS = DESCRIPTION.columns()
UNIT_COLUMNS = list(DESCRIPTION.modes[0].unit_columns())
SEAT_METRICS = list(DESCRIPTION.modes[0].metrics)


def validate(spec: RunSpec) -> RunSpec:
    """The spec with its mode and every seat's coins filled in, or one line."""
    mode = check_game_and_mode(spec, GAME, MODES)
    strategies = check_seed_and_strategies(spec)
    coins = [int(parse_strategy(GAME, s).values[0]) for s in strategies]
    return replace(spec, mode=mode, strategies=strategies, rules={**spec.rules, "coins": coins})


def play_chunk(spec: RunSpec, start: int, count: int) -> dict[str, np.ndarray]:
    """Rows for games start..start+count-1, ordered by index then seat."""
    spec = validate(spec)
    n = spec.players
    coins = np.array(spec.rules["coins"])
    index = np.arange(start, start + count, dtype=np.int64)
    heads = np.empty((count, n), np.int16)
    for g, i in enumerate(index):  # one generator per game: (seed, index) alone
        rng = np.random.default_rng([spec.seed, int(i)])
        heads[g] = rng.binomial(coins, 0.5)
    winner = heads.argmax(axis=1).astype(np.int16)  # the first of the best: the lowest seat
    return {
        "index": np.repeat(index, n),
        "seat": np.tile(np.arange(n, dtype=np.int16), count),
        "heads": heads.ravel(),
        "won": (np.arange(n)[None, :] == winner[:, None]).ravel(),
        "winner": np.repeat(winner, n),
    }


def warmup() -> None:
    """Nothing to compile."""

"""A tiny dice game that implements the kernel contract (analyzer/engines/kernel.py).

The runner's tests use it where the real games would cost compile time or were not written yet:
every seat rolls ``dice`` six-sided dice (its strategy's parameter), the highest total wins
(ties go to the lowest seat). Randomness comes from analyzer.rng alone, so results depend on
(seed, index) only, exactly as the contract asks of a real game.

Register it with :func:`install` (a pytest ``monkeypatch``): game name ``dice``. Worker
processes import it by module name (``fake_kernel``), so the tests folder must be on their
``sys.path`` (spawned processes inherit the parent's path).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.errors import CardlabError
from analyzer.games.registry import Column, GameDescription, Measure, Mode
from analyzer.rng import next_u64, randbelow, seed_state
from analyzer.summary import Metric

GAME = "dice"
# The toy game's one description (docs/adding-a-game.md, step 1).
DESCRIPTION = GameDescription(
    name=GAME, title="Dice", min_players=2, max_players=6,
    modes=(Mode("games", "game", 1_000, "won", "single games", columns=(
        Column("index", "int64", "game index"),
        Column("seat", "int16", "seat number"),
        Column("score", "int16", "total of the seat's dice"),
        Column("won", "bool", "the seat had the highest total (ties: lowest seat)"),
        Column("winner", "int16", "the winning seat", per_unit=True),
    ), metrics=(Metric("score", "mean score"), Metric("won", "win %", 100.0))),),
    measures=(Measure("won", "higher"), Measure("score", "higher")),
)
UNIT = DESCRIPTION.units()
MODES = tuple(m.name for m in DESCRIPTION.modes)
COLUMNS = DESCRIPTION.columns()
UNIT_COLUMNS = list(DESCRIPTION.modes[0].unit_columns())
SEAT_METRICS = list(DESCRIPTION.modes[0].metrics)


def strategy_spec():
    """The dice game's one strategy family, for tests that register it in the registry."""
    from strategies.registry import Param, StrategySpec

    return StrategySpec(
        game=GAME,
        name="basic",
        family=0,
        description="roll some dice",
        params=(Param("dice", 0, 2.0, "dice rolled", low=1, high=6),),
    )


def install(monkeypatch) -> None:
    """Register the dice game as game ``dice`` (kernel module and strategy catalogue)."""
    from analyzer.engines import kernel
    from analyzer.games import registry as games
    from strategies import registry

    games.names()  # the built-in games first
    monkeypatch.setitem(games._GAMES, GAME, DESCRIPTION)
    monkeypatch.setitem(kernel._KERNELS, GAME, "fake_kernel")
    monkeypatch.setitem(registry._CATALOGS, GAME, {"basic": strategy_spec()})


def validate(spec):
    """Fill rules['dice'] (dice per seat) from the strategies; check the player count."""
    from dataclasses import replace

    from strategies.registry import parse_strategy

    if not 2 <= spec.players <= 6:
        raise CardlabError(f"dice needs 2 to 6 players; got {spec.players}")
    if len(spec.strategies) != spec.players:
        raise CardlabError(f"give {spec.players} strategies; got {len(spec.strategies)}")
    dice = [int(parse_strategy(GAME, s).values[0]) for s in spec.strategies]
    return replace(spec, mode=spec.mode or MODES[0], rules={**spec.rules, "dice": dice})


@njit(cache=True)
def _play(seed, start, count, dice, index, seat, score, won, winner):
    n = dice.shape[0]
    state = np.zeros(1, dtype=np.uint64)
    for g in range(count):
        gi = start + g
        seed_state(state, seed, gi, 0)
        next_u64(state)
        best = -1
        best_seat = 0
        for s in range(n):
            total = 0
            for _ in range(dice[s]):
                total += randbelow(state, 6) + 1
            row = g * n + s
            index[row] = gi
            seat[row] = s
            score[row] = total
            if total > best:
                best = total
                best_seat = s
        for s in range(n):
            row = g * n + s
            won[row] = s == best_seat
            winner[row] = best_seat


def play_chunk(spec, start: int, count: int) -> dict[str, np.ndarray]:
    """Rows for games start..start+count-1, ordered by index then seat."""
    # Tests that need a failing kernel put [[index, action], ...] in rules["fail_at"]: the
    # spec travels to worker processes, module globals would not.
    for i, action in spec.rules.get("fail_at", []):
        if start <= i < start + count:
            _fail(action)
    n = spec.players
    rows = count * n
    out = {
        "index": np.empty(rows, np.int64),
        "seat": np.empty(rows, np.int16),
        "score": np.empty(rows, np.int16),
        "won": np.empty(rows, np.bool_),
        "winner": np.empty(rows, np.int16),
    }
    dice = np.array(spec.rules["dice"], dtype=np.int64)
    _play(spec.seed, start, count, dice, *out.values())
    return out


def _fail(action: str) -> None:
    import os

    if action == "raise":
        raise RuntimeError("fake kernel failure")
    if action.startswith("exit-once:"):
        # Die (like a killed worker) the first time only: the marker file remembers.
        marker = action.split(":", 1)[1]
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(9)


def warmup() -> None:
    """Compile (or load) the jitted game."""
    z = np.zeros(2, np.int16)
    _play(0, 0, 1, np.array([1, 1]), np.zeros(2, np.int64), z, z.copy(), np.zeros(2, np.bool_),
          z.copy())

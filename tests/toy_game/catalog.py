"""The toy game's strategies (docs/adding-a-game.md, step 5)."""

from strategies.registry import Param, StrategySpec, catalog_complete, register
from toy_game.description import GAME

COINS = (Param("coins", 0, 3.0, "coins tossed", low=1, high=9, integer=True),)
register(StrategySpec(GAME, "basic", 0, "toss three coins", COINS))
register(StrategySpec(GAME, "bold", 0, "toss six coins", COINS, preset={"coins": "6"}))
catalog_complete(GAME)  # last: strategies files may be loaded from now on

"""The toy game's description and adapter (docs/adding-a-game.md, steps 1 and 2)."""

from analyzer.games.registry import Column, GameDescription, GameParts, Measure, Mode
from analyzer.metrics import Metric

GAME = "coins"
DESCRIPTION = GameDescription(
    name=GAME, title="Coins", min_players=2, max_players=5,
    modes=(Mode("games", "game", 5_000, "won", "single games", columns=(
        Column("index", "int64", "game index", low=0),
        Column("seat", "int16", "seat number", low=0, high=4),
        Column("heads", "int16", "heads the seat tossed", low=0, high=9),
        Column("won", "bool", "the seat tossed the most heads (ties: the lowest seat)"),
        Column("winner", "int16", "the winning seat", per_unit=True, low=0, high=4),
    ), metrics=(Metric("heads", "mean heads"), Metric("won", "win %", 100.0))),),
    measures=(Measure("won", "higher"), Measure("heads", "higher")),
    # the parts above the rules: only the kernel and the strategies are required
    parts=GameParts(kernel="toy_game.kernel", catalog="toy_game.catalog"),
)

"""Who's the Ass?: the game's one description (analyzer/games/registry.py)."""

from analyzer.games.ass.cards import WIN_SHARE_UNIT
from analyzer.games.registry import GameDescription, Measure, Mode, RuleOption

DESCRIPTION = GameDescription(
    name="ass",
    title="Who's the Ass?",
    min_players=3,
    max_players=12,
    modes=(
        # chunk sizes: about 0.2-0.3 s on one core (ass ~1.1M games/s with the runner)
        Mode("games", "game", 200_000, "minus_points", "single games, per seat"),
        Mode("matches", "match", 50_000, "win_share", "matches of K games (A-12), per player"),
    ),
    kernel="analyzer.games.ass.kernel",
    strategies="strategies.ass.catalog",
    cli="analyzer.cli.ass_commands",
    rules=(
        RuleOption("games_per_match", None, "K, games per match (default: the number of "
                   "players)"),
    ),
    measures=(
        Measure("minus_points", "lower"), Measure("cards_left", "lower"),
        Measure("jokers_left", "lower"), Measure("ended_with_ass", "lower"),
        Measure("ass_taken", "lower"), Measure("went_out", "higher"),
        Measure("total", "lower"), Measure("won", "higher"), Measure("tied", "higher"),
        # stored in whole 1/WIN_SHARE_UNIT so that aggregates stay exact
        Measure("win_share", "higher", 1 / WIN_SHARE_UNIT),
    ),
)

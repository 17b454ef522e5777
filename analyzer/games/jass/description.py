"""Plus-Minus Jass: the game's one description (analyzer/games/registry.py)."""

from analyzer.games.registry import GameDescription, Measure, Mode, RuleOption

DESCRIPTION = GameDescription(
    name="jass",
    title="Plus-Minus Jass",
    min_players=3,
    max_players=4,
    modes=(
        # chunk sizes: about 0.2-0.3 s on one core (~72k matches/s, ~650k deals/s)
        Mode("matches", "match", 20_000, "won", "whole matches (J-10)"),
        Mode("deals", "deal", 150_000, "sticks", "single deals, seat n-1 deals"),
    ),
    kernel="analyzer.games.jass.kernel",
    strategies="strategies.jass.catalog",
    cli="analyzer.cli.jass_commands",
    rules=(
        RuleOption("ruleset", "seed", "seed (the rules as the seed text reads them) or swiss "
                   "(J-6)"),
        RuleOption("deal_cap", 200, "most deals a match may last"),
    ),
    measures=(
        Measure("won", "higher"), Measure("sticks", "higher"),
        Measure("bonus_sticks", "higher"), Measure("tricks", "higher"),
    ),
)

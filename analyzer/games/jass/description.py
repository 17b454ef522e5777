"""Plus-Minus Jass: the game's one description (analyzer/games/registry.py)."""

from analyzer.games.jass.cards import DEAL_TOTAL
from analyzer.games.jass.rules import DEFAULT_DEAL_CAP
from analyzer.games.registry import Column, GameDescription, Measure, Mode, RuleOption
from analyzer.metrics import Metric

# The result columns, declared once (the kernel's play_chunk returns exactly these, in order).
MATCH_COLUMNS = (
    Column("index", "int64", "match number within the run (with the seed it identifies the "
           "match)"),
    Column("seat", "int16", "the player's seat, fixed for the whole match, in playing order "
           "(J-3)"),
    Column("sticks", "int16", "final stick total (J-9, bonus sticks included)"),
    Column("won", "bool", "the seat won the match (J-10)"),
    Column("bonus_sticks", "int16", "extra sticks from remembered ties, over the match (J-9)"),
    Column("deals", "int16", "deals played in the match", per_unit=True),
    Column("capped", "bool", "the match hit the deal cap without a winner", per_unit=True),
    Column("winner", "int16", "the winning seat, -1 if capped", per_unit=True),
    Column("first_dealer", "int16", "the seat drawn to deal first", per_unit=True),
)
DEAL_COLUMNS = (
    Column("index", "int64", "deal number within the run (with the seed it identifies the "
           "deal)"),
    Column("seat", "int16", "position relative to the dealer: 0 plays first, n-1 deals (J-3)"),
    Column("points", "int16", "card points won, last trick included (J-8; a deal totals 157)",
           low=0, high=DEAL_TOTAL),
    Column("tricks", "int16", "tricks won"),
    Column("sticks", "int16", "sticks for this deal alone (J-9 without remembered ties)",
           low=0),
    Column("fixed_trump", "bool", "the seat played the card that fixed trump (J-5)"),
    Column("trump", "int8", "trump suit: -1 none, 0..3 = bells, shields, roses, acorns",
           per_unit=True),
    Column("last_trick", "bool", "the seat won the last trick (+5)"),
)
MATCH_METRICS = (
    Metric("sticks", "mean final sticks"),
    Metric("won", "P(win) %", 100.0),
)
DEAL_METRICS = (
    Metric("points", "mean points"),
    Metric("sticks", "mean sticks"),
    Metric("fixed_trump", "P(fixed trump) %", 100.0),
)

DESCRIPTION = GameDescription(
    name="jass",
    title="Plus-Minus Jass",
    min_players=3,
    max_players=4,
    modes=(
        # chunk sizes: about 0.2-0.3 s on one core (~72k matches/s, ~650k deals/s)
        Mode("matches", "match", 20_000, "won", "whole matches (J-10)",
             columns=MATCH_COLUMNS, metrics=MATCH_METRICS),
        Mode("deals", "deal", 150_000, "sticks", "single deals, seat n-1 deals",
             columns=DEAL_COLUMNS, metrics=DEAL_METRICS),
    ),
    rules=(
        RuleOption("ruleset", "seed", "seed (the rules as the seed text reads them) or swiss "
                   "(J-6)"),
        RuleOption("deal_cap", DEFAULT_DEAL_CAP, "most deals a match may last"),
    ),
    measures=(
        # margins: one percentage point of match wins, a hundredth of a stick per deal
        Measure("won", "higher", margin=0.01), Measure("sticks", "higher", margin=0.01),
        Measure("bonus_sticks", "higher"), Measure("tricks", "higher"),
    ),
)

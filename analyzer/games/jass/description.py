"""Plus-Minus Jass: the game's one description (analyzer/games/registry.py)."""

from analyzer.games.jass.cards import DEAL_TOTAL, N_CARDS
from analyzer.games.jass.rules import DEFAULT_DEAL_CAP, MAX_DEAL_CAP, PLAYERS
from analyzer.games.registry import (
    Column,
    GameDescription,
    GameParts,
    Labels,
    Measure,
    Mode,
    RuleOption,
    WarmPart,
)
from analyzer.metrics import Metric

LAST_SEAT = max(PLAYERS) - 1
MOST_TRICKS = N_CARDS // min(PLAYERS)  # a deal has N_CARDS / n tricks
MOST_DEAL_STICKS = 2  # J-9 case 1; the other cases give a player at most 1

# The result columns, declared once (the kernel's play_chunk returns exactly these, in order).
MATCH_COLUMNS = (
    Column("index", "int64", "match number within the run (with the seed it identifies the "
           "match)",
           unit="match", low=0),
    Column("seat", "int16", "the player's seat, fixed for the whole match, in playing order "
           "(J-3)",
           unit="seat", low=0, high=LAST_SEAT),
    Column("sticks", "int16", "final stick total (J-9, bonus sticks included)",
           unit="sticks", low=0),
    Column("won", "bool", "the seat won the match (J-10)",
           unit="yes/no"),
    Column("bonus_sticks", "int16", "extra sticks from remembered ties, over the match (J-9)",
           unit="sticks", low=0),
    Column("deals", "int16", "deals played in the match", per_unit=True,
           unit="deals", low=1, high=MAX_DEAL_CAP),
    Column("capped", "bool", "the match hit the deal cap without a winner", per_unit=True,
           unit="yes/no"),
    Column("winner", "int16", "the winning seat, -1 if capped", per_unit=True,
           unit="seat", low=-1, high=LAST_SEAT),
    Column("first_dealer", "int16", "the seat drawn to deal first", per_unit=True,
           unit="seat", low=0, high=LAST_SEAT),
)
DEAL_COLUMNS = (
    Column("index", "int64", "deal number within the run (with the seed it identifies the "
           "deal)",
           unit="deal", low=0),
    Column("seat", "int16", "position relative to the dealer: 0 plays first, n-1 deals (J-3)",
           unit="seat", low=0, high=LAST_SEAT),
    Column("points", "int16", "card points won, last trick included (J-8; a deal totals 157)",
           unit="card points", low=0, high=DEAL_TOTAL),
    Column("tricks", "int16", "tricks won",
           unit="tricks", low=0, high=MOST_TRICKS),
    Column("sticks", "int16", "sticks for this deal alone (J-9 without remembered ties)",
           unit="sticks", low=0, high=MOST_DEAL_STICKS),
    Column("fixed_trump", "bool", "the seat played the card that fixed trump (J-5)",
           unit="yes/no"),
    Column("trump", "int8", "trump suit: -1 none, 0..3 = bells, shields, roses, acorns",
           per_unit=True,
           unit="suit", low=-1, high=3),
    Column("last_trick", "bool", "the seat won the last trick (+5)",
           unit="yes/no"),
)
# One row per seat of each deal of a match, on request (cardlab.match_details), from the
# match's record (game-records.md).
MATCH_DEAL_COLUMNS = (
    Column("index", "int64", "match number within the run", unit="match", low=0),
    Column("deal", "int16", "the deal's number within the match, from 1", unit="deal", low=1,
           high=MAX_DEAL_CAP),
    Column("seat", "int16", "the player's seat, fixed for the whole match (J-3)", unit="seat",
           low=0, high=LAST_SEAT),
    Column("dealer", "int16", "the seat that dealt this deal (J-3)", per_unit=True,
           unit="seat", low=0, high=LAST_SEAT),
    Column("trump", "int8", "trump suit: -1 none, 0..3 = bells, shields, roses, acorns",
           per_unit=True, unit="suit", low=-1, high=3),
    Column("fixed_trump", "bool", "the seat played the card that fixed trump (J-5)",
           unit="yes/no"),
    Column("points", "int16", "card points won in this deal, last trick included (J-8)",
           unit="card points", low=0, high=DEAL_TOTAL),
    Column("tricks", "int16", "tricks won in this deal", unit="tricks", low=0,
           high=MOST_TRICKS),
    Column("last_trick", "bool", "the seat won the deal's last trick (+5)", unit="yes/no"),
    Column("sticks", "int16", "sticks awarded in this deal, bonus sticks included (J-9)",
           unit="sticks", low=0),
    Column("bonus_sticks", "int16", "of them, extra sticks from remembered ties (J-9)",
           unit="sticks", low=0),
    Column("total", "int16", "the seat's running stick total after this deal (J-10)",
           unit="sticks", low=0),
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
             columns=MATCH_COLUMNS, metrics=MATCH_METRICS, details=MATCH_DEAL_COLUMNS,
             detail_unit="deal"),
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
    # the game's parts above the rules, by dotted path (imported when used)
    parts=GameParts(
        kernel="analyzer.engines.jass.kernel",
        catalog="strategies.jass.catalog",
        cli="analyzer.cli.jass_commands",
        analysis="analyzer.analysis.jass",
        learn="analyzer.learn.jass_decisions",
        board="analyzer.board.jass",
        viewer="reports.viewer:_jass_data",
        python="cardlab.games.jass",
        # sticks from the deal (docs/analyzing.md)
        labels=Labels(0.1, 0.25, 0.5, "sticks", "sticks"),
        worlds=500,  # a position under a second even with a learned evaluation (analyzing.md)
        warm=(WarmPart("jass", "analyzer.engines.jass.records:warm_studies"),
              WarmPart("jass-trump", "analyzer.engines.jass.trump_value:warm_trump",
                       after="jass"),
              WarmPart("jass-search", after="jass")),
        default_fields=("basic", "aim-low", "tuned", "learned"),
        tables=(("trump", "analyzer.engines.jass.trump_value:counterfactual_table"),),
        own=("analyzer.engines.jass", "strategies.jass", "analyzer.games.jass"),
    ),
)

"""Who's the Ass?: the game's one description (analyzer/games/registry.py)."""

from analyzer.games.ass.cards import (
    ASS_PENALTY,
    COPIES,
    DECK_SIZE,
    JOKER_PENALTY,
    N_JOKERS,
    N_VALUES,
    WIN_SHARE_UNIT,
)
from analyzer.games.ass.rules import MAX_GAMES_PER_MATCH, MAX_PLAYERS
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
from analyzer.metrics import PERCENT, Metric

# The most minus points one hand can hold: every card of the game.
ALL_MINUS_POINTS = COPIES * N_VALUES * (N_VALUES + 1) // 2 + N_JOKERS * JOKER_PENALTY + ASS_PENALTY
LAST_SEAT = MAX_PLAYERS - 1

# The result columns, declared once (the kernel's play_chunk returns exactly these, in order).
GAME_COLUMNS = (
    Column("index", "int64", "game number within the run (with the seed it identifies the "
           "game)",
           unit="game", low=0),
    Column("seat", "int16", "seat in dealing order, 0 gets the first card, n-1 deals (A-3)",
           unit="seat", low=0, high=LAST_SEAT),
    Column("minus_points", "int16", "minus points at the end: ass 20, joker 14, number its "
           "value (A-10)",
           unit="minus points", low=0, high=ALL_MINUS_POINTS),
    Column("ended_with_ass", "bool", "the seat held the ass at the end",
           unit="yes/no"),
    Column("dealt_ass", "bool", "the seat was dealt the ass (and so started the first round)",
           unit="yes/no"),
    Column("cards_left", "int16", "cards in hand at the end",
           unit="cards", low=0, high=DECK_SIZE + 1),
    Column("jokers_left", "int16", "jokers in hand at the end",
           unit="jokers", low=0, high=N_JOKERS),
    Column("ass_taken", "int16", "ass rounds in which the seat took the cards",
           unit="ass rounds", low=0),
    Column("went_out", "bool", "the seat had no cards at the end",
           unit="yes/no"),
    Column("rounds", "int16", "rounds in the game", per_unit=True,
           unit="rounds", low=1),
    Column("ass_rounds", "int16", "ass rounds in the game", per_unit=True,
           unit="ass rounds", low=0),
    Column("out_seat", "int16", "lowest seat number with no cards at the end (the game's "
           "first 'winner')", per_unit=True,
           unit="seat", low=0, high=LAST_SEAT),
)
# A share of a match win is stored as a whole number of 1/WIN_SHARE_UNIT (lcm(1..12) = 27720),
# so that --aggregate keeps it exactly: 27720 alone, 13860 in a two-way tie, 0 otherwise.
MATCH_COLUMNS = (
    Column("index", "int64", "match number within the run (with the seed it identifies the "
           "match)",
           unit="match", low=0),
    Column("seat", "int16", "the player (0..n-1), fixed for the match; in a game dealt by "
           "player d the player p sits in seat (p - d - 1) mod n (A-12)",
           unit="player", low=0, high=LAST_SEAT),
    Column("total", "int32", "total minus points over the match's games (A-10, A-12)",
           unit="minus points", low=0,
           high=MAX_GAMES_PER_MATCH * ALL_MINUS_POINTS),
    Column("won", "bool", "the player has the fewest total (alone or tied: a share of the "
           "win)",
           unit="yes/no"),
    Column("tied", "bool", "the player is tied for the fewest total with another player",
           unit="yes/no"),
    Column("win_share", "int32", f"share of the match win in units of 1/{WIN_SHARE_UNIT}: "
           f"{WIN_SHARE_UNIT}/k for each of k players tied for the fewest total, else 0 "
           "(A-12)",
           unit=f"1/{WIN_SHARE_UNIT} of a match win", low=0,
           high=WIN_SHARE_UNIT),
    Column("winners", "int16", "number of players tied for the fewest total (1 = a clear "
           "winner)", per_unit=True,
           unit="players", low=1, high=MAX_PLAYERS),
    Column("first_dealer", "int16", "the player drawn to deal the first game", per_unit=True,
           unit="player", low=0, high=LAST_SEAT),
)
# One row per player of each game of a match, on request (cardlab.match_details), from the
# match's record (game-records.md).
MATCH_GAME_COLUMNS = (
    Column("index", "int64", "match number within the run", unit="match", low=0),
    Column("game", "int16", "the game's number within the match, from 1 (A-12)", unit="game",
           low=1, high=MAX_GAMES_PER_MATCH),
    Column("player", "int16", "the player (0..n-1), fixed for the match (A-12)",
           unit="player", low=0, high=LAST_SEAT),
    Column("seat", "int16", "the player's seat in this game: (p - dealer - 1) mod n (A-3, A-12)",
           unit="seat", low=0, high=LAST_SEAT),
    Column("dealer", "int16", "the player who dealt this game (A-12)", per_unit=True,
           unit="player", low=0, high=LAST_SEAT),
    Column("minus_points", "int16", "minus points of this game (A-10)", unit="minus points",
           low=0, high=ALL_MINUS_POINTS),
    Column("total", "int32", "the player's running total after this game (A-12)",
           unit="minus points", low=0, high=MAX_GAMES_PER_MATCH * ALL_MINUS_POINTS),
)
GAME_METRICS = (
    Metric("minus_points", "mean minus points"),
    Metric("ended_with_ass", "P(end with ass) %", 100.0),
    Metric("dealt_ass", "P(dealt ass) %", 100.0),
)
MATCH_METRICS = (
    Metric("total", "mean total minus points"),
    # a rate: its stored 1/WIN_SHARE_UNIT become a fraction through the Measure's scale
    Metric("win_share", "P(win match) %", PERCENT),
    Metric("tied", "P(tie) %", 100.0),
)

DESCRIPTION = GameDescription(
    name="ass",
    title="Who's the Ass?",
    min_players=3,
    max_players=12,
    modes=(
        # chunk sizes: about 0.2-0.3 s on one core (ass ~1.1M games/s with the runner)
        Mode("games", "game", 200_000, "minus_points", "single games, per seat",
             columns=GAME_COLUMNS, metrics=GAME_METRICS),
        Mode("matches", "match", 50_000, "win_share", "matches of K games (A-12), per player",
             columns=MATCH_COLUMNS, row_name="player", metrics=MATCH_METRICS,
             details=MATCH_GAME_COLUMNS, detail_unit="game"),
    ),
    rules=(
        RuleOption("games_per_match", None, "K, games per match (default: the number of "
                   "players)"),
    ),
    measures=(
        # margins: one minus point per game (a twentieth of the ass), one point of match wins
        Measure("minus_points", "lower", margin=1.0), Measure("cards_left", "lower"),
        Measure("jokers_left", "lower"), Measure("ended_with_ass", "lower"),
        Measure("ass_taken", "lower"), Measure("went_out", "higher"),
        Measure("total", "lower"), Measure("won", "higher"), Measure("tied", "higher"),
        # stored in whole 1/WIN_SHARE_UNIT so that aggregates stay exact
        Measure("win_share", "higher", 1 / WIN_SHARE_UNIT, margin=0.01),
    ),
    # the game's parts above the rules, by dotted path (imported when used)
    parts=GameParts(
        kernel="analyzer.engines.ass.kernel",
        catalog="strategies.ass.catalog",
        cli="analyzer.cli.ass_commands",
        analysis="analyzer.analysis.ass",
        learn="analyzer.learn.ass_decisions",
        board="analyzer.board.ass",
        viewer="reports.viewer:_ass_data",
        python="cardlab.games.ass",
        # minus points at the end of the game (docs/analyzing.md)
        labels=Labels(2.0, 5.0, 10.0, "minus points", "minus_points"),
        warm=(WarmPart("ass", "analyzer.engines.ass.kernel:warm_studies"),
              WarmPart("ass-search", after="ass")),
        default_fields=("basic", "careful", "tuned", "learned"),
        own=("analyzer.engines.ass", "strategies.ass", "analyzer.games.ass"),
    ),
)

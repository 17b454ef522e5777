"""Who's the Ass?: the game's one description (analyzer/games/registry.py)."""

from analyzer.games.ass.cards import (
    ASS_PENALTY,
    COPIES,
    JOKER_PENALTY,
    N_JOKERS,
    N_VALUES,
    WIN_SHARE_UNIT,
)
from analyzer.games.registry import Column, GameDescription, Measure, Mode, RuleOption
from analyzer.metrics import PERCENT, Metric

# The most minus points one seat can hold at the end of a game: the whole deck.
DECK_MINUS_POINTS = COPIES * sum(range(1, N_VALUES + 1)) + N_JOKERS * JOKER_PENALTY + ASS_PENALTY

# The result columns, declared once (the kernel's play_chunk returns exactly these, in order).
GAME_COLUMNS = (
    Column("index", "int64", "game number within the run (with the seed it identifies the "
           "game)"),
    Column("seat", "int16", "seat in dealing order, 0 gets the first card, n-1 deals (A-3)"),
    Column("minus_points", "int16", "minus points at the end: ass 20, joker 14, number its "
           "value (A-10)", low=0, high=DECK_MINUS_POINTS),
    Column("ended_with_ass", "bool", "the seat held the ass at the end"),
    Column("dealt_ass", "bool", "the seat was dealt the ass (and so started the first round)"),
    Column("cards_left", "int16", "cards in hand at the end"),
    Column("jokers_left", "int16", "jokers in hand at the end"),
    Column("ass_taken", "int16", "ass rounds in which the seat took the cards"),
    Column("went_out", "bool", "the seat had no cards at the end"),
    Column("rounds", "int16", "rounds in the game", per_unit=True),
    Column("ass_rounds", "int16", "ass rounds in the game", per_unit=True),
    Column("out_seat", "int16", "lowest seat number with no cards at the end (the game's "
           "first 'winner')", per_unit=True),
)
# A share of a match win is stored as a whole number of 1/WIN_SHARE_UNIT (lcm(1..12) = 27720),
# so that --aggregate keeps it exactly: 27720 alone, 13860 in a two-way tie, 0 otherwise.
MATCH_COLUMNS = (
    Column("index", "int64", "match number within the run (with the seed it identifies the "
           "match)"),
    Column("seat", "int16", "the player (0..n-1), fixed for the match; in a game dealt by "
           "player d the player p sits in seat (p - d - 1) mod n (A-12)"),
    Column("total", "int32", "total minus points over the match's games (A-10, A-12)"),
    Column("won", "bool", "the player has the fewest total (alone or tied: a share of the "
           "win)"),
    Column("tied", "bool", "the player is tied for the fewest total with another player"),
    Column("win_share", "int32", f"share of the match win in units of 1/{WIN_SHARE_UNIT}: "
           f"{WIN_SHARE_UNIT}/k for each of k players tied for the fewest total, else 0 "
           "(A-12)"),
    Column("winners", "int16", "number of players tied for the fewest total (1 = a clear "
           "winner)", per_unit=True),
    Column("first_dealer", "int16", "the player drawn to deal the first game", per_unit=True),
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
             columns=MATCH_COLUMNS, row_name="player", metrics=MATCH_METRICS),
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
)

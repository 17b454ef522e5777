"""The numba engine and the pure-Python reference agree move for move (whole game records)."""

from __future__ import annotations

import pytest
from depth import cases  # tests/ is on sys.path

from analyzer.engines.ass.records import Tracer, verify_record
from analyzer.engines.ass.reference import play_record
from analyzer.engines.kernel import RunSpec
from strategies.registry import catalog, seat_strategies

EXTRA = [
    "hold-jokers:keep=5",
    "heuristic:lead=safe,pass=save-sets,jokers=finish",
    "heuristic:ass_throw=safe-high,lead_ass=hold,jokers=dump",
    "careful:jokers=keep-until,keep=0",
]
# x 10 player counts: 600 games in make test, 3,000 in make test-deep (tests/depth.py)
GAMES_PER_COUNT = cases(60, 300)


def field_for(players: int, game: int) -> list[str]:
    names = list(catalog("ass")) + EXTRA
    return [names[(game * 7 + seat * 3 + players) % len(names)] for seat in range(players)]


@pytest.mark.parametrize("players", range(3, 13))
def test_engine_matches_reference_game_by_game(players):
    """Mixed fields of every built-in strategy (and some knob settings), GAMES_PER_COUNT games
    each."""
    seed = 1000 + players
    for game in range(GAMES_PER_COUNT):
        texts = field_for(players, game)
        fast, status = Tracer(RunSpec("ass", players, tuple(texts), seed)).record(game)
        slow = play_record(seed, game, seat_strategies("ass", texts, players))
        assert status == -1
        assert fast == slow, f"players={players} game={game} strategies={texts}"


@pytest.mark.parametrize("players", [3, 7, 12])
def test_records_pass_the_independent_rules_check(players):
    for game in range(40):
        record, _ = Tracer(RunSpec("ass", players, tuple(field_for(players, game)), 5)).record(
            game
        )
        assert verify_record(record) == []


def test_uniform_fields_match_too():
    """Every strategy against copies of itself (random draws in long chains)."""
    for name in catalog("ass"):
        for game in range(15):
            fast, _ = Tracer(RunSpec("ass", 4, (name,), 77)).record(game)
            assert fast == play_record(77, game, seat_strategies("ass", [name], 4)), name

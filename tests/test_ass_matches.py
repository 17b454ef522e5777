"""Who's the Ass? matches (ruling A-12): seats, totals, shared wins, the first dealer's draw,
engine against reference move for move, records, chunking, and K = 1 against single games."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.engines.ass import kernel
from analyzer.engines.ass.engine import match_shares
from analyzer.engines.ass.records import (
    MatchTracer,
    replay_match_matches,
    trace_match_record,
    verify_match_record,
)
from analyzer.engines.ass.reference import DEALER_STREAM, match_winners, play_match_record
from analyzer.engines.kernel import RunSpec
from analyzer.games.ass.cards import (
    PUB_GAME,
    PUB_GAMES,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_SIZES,
    PUB_TOTALS,
    VIEW_LEN,
    WIN_SHARE_UNIT,
    card_kind,
    decode,
)
from analyzer.rng import PyRng, new_state
from strategies.ass.dispatch import decide
from strategies.registry import catalog, parse_strategy, seat_strategies

runner = CliRunner()

EXTRA = [
    "heuristic:chase=3,jokers=dump",
    "careful:chase=2",
    "hold-jokers:keep=5,chase=1",
    "heuristic:lead=safe,pass=save-sets,jokers=finish,chase=9",
]


def matches_spec(players=4, strategies=("basic",), seed=1, k=None):
    rules = {} if k is None else {"games_per_match": k}
    return RunSpec("ass", players, tuple(strategies), seed, mode="matches", rules=rules)


def field_for(players: int, match: int) -> list[str]:
    names = list(catalog("ass")) + EXTRA
    return [names[(match * 5 + p * 3 + players) % len(names)] for p in range(players)]


# --- A-12 by hand ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "totals,shares,k",
    [
        ([30, 12, 45, 20], [0, WIN_SHARE_UNIT, 0, 0], 1),
        ([30, 12, 12, 20], [0, WIN_SHARE_UNIT // 2, WIN_SHARE_UNIT // 2, 0], 2),
        ([7, 9, 7, 8, 7], [WIN_SHARE_UNIT // 3, 0, WIN_SHARE_UNIT // 3, 0, WIN_SHARE_UNIT // 3],
         3),
        ([0, 0, 0], [WIN_SHARE_UNIT // 3] * 3, 3),
    ],
)
def test_A12_ties_share_the_win_hand_built(totals, shares, k):
    """A-12: players tied for the fewest total get 1/k of a win each, in the engine and in the
    reference; the shares add up to one whole win."""
    out = np.zeros(len(totals), dtype=np.int64)
    assert match_shares(np.array(totals, dtype=np.int64), len(totals), out) == k
    assert list(out) == shares
    assert out.sum() == WIN_SHARE_UNIT
    assert len(match_winners(totals)) == k
    assert match_winners(totals) == [p for p, s in enumerate(shares) if s]


def test_A12_a_real_tie_is_shared_and_reported():
    """Ties happen in play too: every tied winner gets WIN_SHARE_UNIT / k and ``tied``."""
    out = kernel.play_chunk(matches_spec(3, seed=12, k=1), 0, 3000)
    m = {c: v.reshape(-1, 3) for c, v in out.items()}
    tied = np.flatnonzero(m["winners"][:, 0] > 1)
    assert len(tied) > 0
    for i in tied[:20]:
        k = m["winners"][i, 0]
        assert (m["win_share"][i][m["won"][i]] == WIN_SHARE_UNIT // k).all()
        assert m["tied"][i].sum() == k and (m["tied"][i] == m["won"][i]).all()
        low = m["total"][i].min()
        assert (m["won"][i] == (m["total"][i] == low)).all()


def test_A12_seat_rotation_and_every_player_deals_once():
    """A-12: the deal moves one player on each game; in a game dealt by d, seat s is player
    (d + 1 + s) mod n; with the default K = n every player deals once and sits in every
    seat once."""
    for n in (3, 5, 8):
        record, status = trace_match_record(matches_spec(n, seed=3), 2)
        assert status == -1 and record["rules"]["games_per_match"] == n
        games = record["games"]
        assert len(games) == n
        first = record["first_dealer"]
        for g, game in enumerate(games):
            d = (first + g) % n
            assert game["dealer"] == d
            assert game["seat_players"] == [(d + 1 + s) % n for s in range(n)]
            assert game["seat_players"][n - 1] == d  # the dealer sits in seat n-1
        assert sorted(g["dealer"] for g in games) == list(range(n))
        for p in range(n):
            assert sorted(g["seat_players"].index(p) for g in games) == list(range(n))


def test_A12_totals_add_up_by_player_and_match_the_chunk_rows():
    spec = matches_spec(5, ("basic", "careful", "random", "chaser", "joker-dumper"), seed=8,
                        k=3)
    out = kernel.play_chunk(spec, 10, 6)
    tracer = MatchTracer(spec)
    for m in range(6):
        record, _ = tracer.record(10 + m)
        totals = [0] * 5
        for game in record["games"]:
            for s, p in enumerate(game["seat_players"]):
                totals[p] += game["penalties"][s]
        assert record["totals"] == totals
        rows = slice(m * 5, m * 5 + 5)
        assert list(out["total"][rows]) == totals
        assert list(np.flatnonzero(out["won"][rows])) == record["winners"]
        assert set(out["first_dealer"][rows]) == {record["first_dealer"]}


def test_A12_first_dealer_is_drawn_from_the_match_stream():
    """The first dealer is randbelow(n) on the match's dealer stream; uniform over players."""
    n, count = 4, 4000
    out = kernel.play_chunk(matches_spec(n, seed=21, k=1), 0, count)
    first = out["first_dealer"][::n]
    assert [int(f) for f in first[:50]] == [
        PyRng(21, i, DEALER_STREAM).randbelow(n) for i in range(50)
    ]
    counts = np.bincount(first, minlength=n)
    chi2 = ((counts - count / n) ** 2 / (count / n)).sum()
    assert chi2 < 21.1  # 99.99% quantile of chi-square, 3 degrees of freedom


def test_A12_strategies_see_game_number_and_running_totals():
    """The chase knob reads the public totals and the game number (A-12): behind in one of
    the last games, it leads its biggest set; otherwise it plays as before."""
    s = parse_strategy("ass", "heuristic:chase=2")

    def lead(game, games, totals, seat=1):
        v = np.zeros(VIEW_LEN, dtype=np.int64)
        for name in ["2", "5", "5", "5", "9", "9"]:
            v[card_kind(name)] += 1
        v[PUB_POS], v[PUB_SEAT], v[PUB_PLAYERS] = 0, seat, 3
        v[PUB_SIZES : PUB_SIZES + 3] = 6
        v[PUB_GAME], v[PUB_GAMES] = game, games
        v[PUB_TOTALS : PUB_TOTALS + 3] = totals
        return decode(int(decide(s.family, tuple(s.values), v, new_state())))

    assert lead(3, 4, [10, 30, 20]) == (5, 3, 0)  # behind, last game: the biggest set
    assert lead(2, 4, [10, 30, 20]) == (5, 3, 0)  # behind, second-to-last game
    assert lead(1, 4, [10, 30, 20]) == (2, 1, 0)  # behind, but not late: lowest (basic)
    assert lead(3, 4, [30, 10, 20]) == (2, 1, 0)  # ahead
    assert lead(3, 4, [10, 10, 20]) == (2, 1, 0)  # tied for the lead is not behind
    assert lead(0, 0, [0, 0, 0]) == (2, 1, 0)  # a single game
    basic = parse_strategy("ass", "basic")
    v = np.zeros(VIEW_LEN, dtype=np.int64)
    v[5], v[2], v[PUB_SEAT], v[PUB_PLAYERS] = 3, 1, 1, 3
    v[PUB_GAME], v[PUB_GAMES], v[PUB_TOTALS + 0] = 3, 4, 99
    assert decode(int(decide(basic.family, tuple(basic.values), v, new_state()))) == (2, 1, 0)


# --- engine against reference, records ---------------------------------------------------------


@pytest.mark.parametrize("players,k,matches", [(3, 1, 12), (3, 4, 5), (4, 4, 6), (5, 2, 6),
                                               (8, 3, 3), (12, 2, 2)])
def test_A12_engine_matches_reference_move_for_move(players, k, matches):
    """Mixed fields of every built-in strategy and chase settings: whole match records."""
    seed = 500 + players
    for match in range(matches):
        texts = field_for(players, match)
        fast, status = trace_match_record(matches_spec(players, texts, seed, k), match)
        slow = play_match_record(seed, match, seat_strategies("ass", texts, players), k)
        assert status == -1
        assert fast == slow, f"players={players} k={k} match={match} strategies={texts}"
        assert verify_match_record(fast) == []


def test_A12_uniform_fields_match_the_reference_too():
    """Every strategy against copies of itself over a whole match (random draws chain across
    the games' streams; chase reads totals that differ from game to game)."""
    for name in [*catalog("ass"), "heuristic:chase=3"]:
        fast, _ = trace_match_record(matches_spec(4, (name,), seed=77, k=3), 1)
        assert fast == play_match_record(77, 1, seat_strategies("ass", [name], 4), 3), name


def test_A12_verify_match_record_catches_tampering():
    record, _ = trace_match_record(matches_spec(4, ("basic", "random") * 2, seed=2), 0)
    assert verify_match_record(record) == [] and replay_match_matches(record)
    bad = json.loads(json.dumps(record))
    bad["totals"][0] += 1
    assert any("totals" in p for p in verify_match_record(bad))
    bad = json.loads(json.dumps(record))
    bad["first_dealer"] = (bad["first_dealer"] + 1) % 4
    assert verify_match_record(bad) != []
    bad = json.loads(json.dumps(record))
    bad["games"][1]["seat_players"] = bad["games"][0]["seat_players"]
    assert verify_match_record(bad) != []
    bad = json.loads(json.dumps(record))
    bad["winners"] = [0, 1, 2, 3]
    assert any("winners" in p for p in verify_match_record(bad))
    assert not replay_match_matches(bad)


def test_A12_export_and_replay_round_trip(tmp_path):
    out = tmp_path / "matches.jsonl"
    args = ["--seed", "42", "--players", "4", "--strategy", "basic", "--strategy", "chaser",
            "--strategy", "random", "--strategy", "joker-hoarder", "--games-per-match", "3"]
    result = runner.invoke(app, ["export", "ass", "--matches", "3", "--start", "5", "--out",
                                 str(out), *args])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    for i, line in enumerate(lines):
        record = json.loads(line)
        assert {"game", "version", "mode", "seed", "index", "players", "strategies", "rules",
                "first_dealer", "games", "totals", "winners"} <= set(record)
        assert record["mode"] == "matches" and record["index"] == 5 + i
        assert record["rules"] == {"per_player": 13, "games_per_match": 3}
        for game in record["games"]:
            assert {"dealer", "seat_players", "hands", "rounds", "final_hands",
                    "penalties"} <= set(game)
        assert verify_match_record(record) == []
        assert replay_match_matches(record)
        again = runner.invoke(app, ["replay", "ass", "--mode", "matches", "--index",
                                    str(5 + i), *args])
        assert again.exit_code == 0 and again.stdout.strip() == line
    pretty = runner.invoke(app, ["replay", "ass", "--mode", "matches", "--index", "5", *args,
                                 "--pretty"])
    assert pretty.exit_code == 0 and "Game 3 of 3" in pretty.stdout
    assert "Result: player" in pretty.stdout


# --- the kernel: chunks, shares, K = 1 ---------------------------------------------------------


def test_A12_match_rows_do_not_depend_on_chunking():
    spec = matches_spec(4, ("careful", "random", "chaser", "basic"), seed=9, k=3)
    whole = kernel.play_chunk(spec, 0, 60)
    a, b = kernel.play_chunk(spec, 0, 23), kernel.play_chunk(spec, 23, 37)
    assert list(whole) == list(kernel.MODE_COLUMNS["matches"])
    for name, array in whole.items():
        assert array.dtype == kernel.MATCH_DTYPES[name], name
        assert (array == np.concatenate([a[name], b[name]])).all(), name


@pytest.mark.parametrize("players,k", [(3, 3), (4, 4), (6, 2), (12, 12)])
def test_A12_win_shares_sum_to_one_per_match(players, k):
    strategies = ("basic", "random") * (players // 2) if players % 2 == 0 else ("basic",)
    out = kernel.play_chunk(matches_spec(players, strategies, seed=4, k=k), 0, 300)
    m = {c: v.reshape(300, players) for c, v in out.items()}
    assert (m["win_share"].sum(axis=1) == WIN_SHARE_UNIT).all()
    assert (m["won"].sum(axis=1) == m["winners"][:, 0]).all()
    assert ((m["win_share"] > 0) == m["won"]).all()
    assert (m["tied"] == (m["won"] & (m["winners"] > 1))).all()
    for col in kernel.MODE_UNIT_COLUMNS["matches"]:
        assert (m[col] == m[col][:, :1]).all()


@pytest.mark.parametrize("players", [3, 4, 7])
def test_A12_one_game_match_equals_the_single_game_of_the_same_deal(players):
    """Game 0 of match i is dealt on single game i's stream, so with K = 1 a match is that
    game with player (d + 1 + s) mod n in seat s, d the drawn dealer."""
    texts = field_for(players, 1)
    count = 40
    out = kernel.play_chunk(matches_spec(players, texts, seed=17, k=1), 0, count)
    for i in range(count):
        d = int(out["first_dealer"][i * players])
        seat_players = [(d + 1 + s) % players for s in range(players)]
        single = kernel.play_chunk(
            RunSpec("ass", players, tuple(texts[p] for p in seat_players), 17), i, 1)
        for s, p in enumerate(seat_players):
            assert out["total"][i * players + p] == single["minus_points"][s], (i, s)


def test_simulate_ass_matches_prints_the_player_table():
    result = runner.invoke(app, ["simulate", "ass", "--matches", "300", "-p", "4", "-s", "basic",
                                 "-s", "joker-hoarder", "-s", "basic", "-s", "basic", "-q",
                                 "--backend", "serial"])
    assert result.exit_code == 0, result.output
    for text in ("player", "mean total minus points", "P(win match) %", "P(tie) %",
                 "joker-hoarder", "games_per_match=4", "300 matches"):
        assert text in result.stdout, text


@pytest.mark.parametrize(
    "args,message",
    [
        (["simulate", "ass", "--games", "10", "--matches", "10"], "not both"),
        (["simulate", "ass", "--matches", "10", "--games-per-match", "0"], "between 1 and"),
        (["replay", "ass", "--seed", "1", "--index", "0", "--games-per-match", "2"],
         "applies to matches"),
    ],
)
def test_bad_match_options_get_one_line_errors(cli, args, message):
    code, _, err = cli(*args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]

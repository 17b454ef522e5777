"""replay --analyze (issue 22 item 2): a move equal to the best is never labelled, a planted
bad move is, unanalysed seats keep their place, and the command's JSON shape."""

from __future__ import annotations

import copy
import json

import pytest

from analyzer.analysis import ass
from analyzer.analysis.annotate import annotate_game
from analyzer.engines.ass.positions import state_at
from analyzer.engines.ass.records import Tracer
from analyzer.engines.jass.records import trace_record
from analyzer.engines.kernel import RunSpec

KEYS = {"seat", "move", "best", "loss", "loss_low", "loss_high", "label"}


@pytest.fixture(scope="module")
def ass_records():
    tracer = Tracer(RunSpec("ass", 4, ("basic", "random", "careful", "random"), 21))
    return [tracer.record(i)[0] for i in range(4)]


def test_a_best_move_is_never_labelled_and_unanalysed_seats_are_null(ass_records):
    record = ass_records[0]
    ann = annotate_game("ass", record, seats=[1, 3], worlds=150, seed=2)
    assert len(ann["moves"]) == len(ass.plays_of(record))
    labelled = 0
    for m in ann["moves"]:
        assert set(m) >= KEYS
        if m["seat"] in (1, 3):
            assert m["analysed"] and m["loss"] >= 0
            if m["move"] == m["best"]:
                assert m["label"] is None and m["loss"] == 0
            labelled += m["label"] is not None
        else:
            assert not m["analysed"]
            assert m["best"] is m["loss"] is m["label"] is None
    assert labelled > 0  # random players make clear errors
    assert [p["seat"] for p in ann["players"]] == [1, 3]
    for p in ann["players"]:
        assert p["lost_low"] <= p["lost"] <= p["lost_high"]
        assert p["inaccuracy"] + p["mistake"] + p["blunder"] <= p["moves"]


def _planted(records):
    """A record cut just after a planted bad move: the last follower of an ass round, who
    holds a joker and a number card lower than the highest card on the table, throws the
    joker as 14 and so takes the ass and the round (A-7), where the low card would not."""
    for record in records:
        for k, (r, p) in enumerate(ass.plays_of(record)):
            rnd = record["rounds"][r]
            if not rnd["ass_round"] or p != record["players"] - 1:
                continue
            state = state_at(record, r, p)
            seat = rnd["plays"][p]["seat"]
            hand = state["hands"][seat]
            low = next((v for v in range(1, 14) if hand[v]), 99)
            if hand[14] == 0 or low >= state["high"]:
                continue
            cut = copy.deepcopy(record)
            cut["rounds"] = cut["rounds"][: r + 1]
            plays = cut["rounds"][r]["plays"][:p]
            cut["rounds"][r]["plays"] = plays + [{"seat": seat, "cards": ["J"],
                                                  "joker_value": 14}]
            return cut, k, seat
    raise AssertionError("no ass round with a joker to plant")


def test_a_planted_bad_move_is_labelled(ass_records):
    """Labelled under a continuation where the move is bad: with everybody playing on like
    basic, taking the ass round with the joker costs some 24 minus points. (Under strong play,
    pimc's value model and learned to the end, it is no worse than the 11, which takes the
    round as well, and not clearly worse than the 5.)"""
    record, k, seat = _planted(ass_records)
    ann = annotate_game("ass", record, seats=[seat], worlds=300, seed=1, continuation="basic")
    last = ann["moves"][-1]
    assert last["index"] == k and last["move"] == "J=14"
    assert last["label"] in ("mistake", "blunder"), last
    assert last["loss_low"] > 0 and last["best"] != "J=14"


def test_jass_annotation_labels_only_clear_losses():
    spec = RunSpec("jass", 3, ("random", "aim-low", "random"), 2, mode="deals",
                   rules={"ruleset": "seed", "deal_cap": 200})
    ann = annotate_game("jass", trace_record(spec, 0), seats=[0], worlds=150, seed=0)
    assert len(ann["moves"]) == 36
    mine = [m for m in ann["moves"] if m["analysed"]]
    assert len(mine) == 12
    for m in mine:
        if m["label"]:
            assert m["loss_low"] > 0 and m["loss"] >= ann["thresholds"]["inaccuracy"]
        if m["move"] == m["best"]:
            assert m["label"] is None


def test_replay_analyze_prints_the_issue_json(cli):
    code, out, _ = cli("replay", "ass", "--seed", "3", "--index", "0", "-s", "basic",
                       "--analyze", "--seat", "2", "--worlds", "100", "--format", "json")
    assert code == 0
    ann = json.loads(out)
    assert {"moves", "players"} <= set(ann)
    assert all(set(m) >= KEYS for m in ann["moves"])
    assert [p["seat"] for p in ann["players"]] == [2]
    code, out, err = cli("replay", "ass", "--seed", "3", "--index", "0", "--analyze",
                         "--seat", "7")
    assert code == 2 and "--seat must be 0 to 3" in err
    code, out, err = cli("replay", "ass", "--seed", "3", "--index", "0", "--seat", "1")
    assert code == 2 and "--seat applies with --analyze" in err


def test_a_match_is_annotated_game_after_game_and_summed_by_player():
    """A-12: in a Who's the Ass? match every game's moves are annotated in order, each with
    its game and player, and --seat names a player, whose seat changes from game to game."""
    from analyzer.engines.ass.records import MatchTracer

    record, _ = MatchTracer(RunSpec("ass", 3, ("basic", "random", "basic"), 4,
                                    mode="matches")).record(0)
    ann = annotate_game("ass", record, seats=[1], worlds=40, seed=0)
    games = record["games"]
    assert len(ann["moves"]) == sum(len(ass.plays_of({**g, "players": 3})) for g in games)
    assert [m["game"] for m in ann["moves"]] == sorted(m["game"] for m in ann["moves"])
    for m in ann["moves"]:
        assert m["player"] == games[m["game"]]["seat_players"][m["seat"]]
        assert m["analysed"] == (m["player"] == 1)
    assert [p["player"] for p in ann["players"]] == [1]

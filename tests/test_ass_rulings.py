"""One test (at least) per ruling A-1..A-11, on hand-built positions where possible.

Every position is played by both engines (numba: records.play_position, reference:
reference.play_position), which must agree; the ruling is then checked on the result.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from analyzer.engines.ass import reference
from analyzer.engines.ass.engine import canonical_deck, deal, new_view
from analyzer.engines.ass.records import play_position
from analyzer.games.ass.cards import (
    ASS,
    HAND_SLOTS,
    JOKER,
    PASS,
    VIEW_LEN,
    PublicView,
    card_kind,
    decode,
)
from analyzer.games.ass.rules import PER_PLAYER, AssRules
from analyzer.rng import PyRng, new_state, seed_state
from strategies.ass import policies


def both(hands, strategies, starter, blocked=-1, gone=None, seed=0):
    """Play a position in both engines, check they agree, return the result."""
    fast = play_position(hands, strategies, starter, blocked, gone, seed)
    slow = reference.play_position(hands, strategies, starter, blocked, gone, seed)
    assert fast == slow
    assert fast["status"] == -1
    return fast


def numba_deal(players, seed, index):
    rules = AssRules.for_players(players)
    rng = new_state()
    seed_state(rng, seed, index, 0)
    hands = np.zeros((players, HAND_SLOTS), dtype=np.int64)
    view = new_view()
    deck = np.empty(109, dtype=np.int64)
    ass_seat = deal(rng, players, rules.per_player, canonical_deck(), deck, hands, view)
    return hands, ass_seat, view


def test_A1_deck_has_110_cards_of_the_right_kinds():
    """A-1: with 10 players every card is dealt: 8 of each value 1..13, 5 jokers, 1 ass."""
    for index in range(20):
        hands, _, _ = numba_deal(10, 3, index)
        total = hands.sum(axis=0)
        assert total[ASS] == 1 and total[JOKER] == 5
        assert list(total[1:14]) == [8] * 13
        assert hands.sum() == 110


def test_A2_deal_follows_the_specified_shuffle_and_ass_insertion():
    """A-2: Fisher-Yates on the canonical 109 cards, the ass at randbelow(39), top cards dealt."""
    for players in (3, 4, 9, 12):
        for index in range(10):
            rng = PyRng(11, index)
            deck = [v for v in range(1, 14) for _ in range(8)] + [JOKER] * 5
            for i in range(108, 0, -1):
                j = rng.randbelow(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            p = rng.randbelow(39)
            stack = deck[:p] + [ASS] + deck[p:]
            expected = np.zeros((players, HAND_SLOTS), dtype=np.int64)
            for q in range(players * PER_PLAYER[players]):
                expected[q % players, stack[q]] += 1
            hands, ass_seat, view = numba_deal(players, 11, index)
            assert (hands == expected).all()
            assert ass_seat == p % players
            assert list(PublicView(view).sizes[:players]) == [PER_PLAYER[players]] * players


def test_A2_per_player_table_and_ass_always_dealt():
    """A-2: per_player from the rulebook table; the ass (among the first 39) is always dealt."""
    assert PER_PLAYER == {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10,
                          12: 9}
    for index in range(50):
        hands, ass_seat, _ = numba_deal(3, 5, index)
        assert hands[:, ASS].sum() == 1 and hands[ass_seat, ASS] == 1


def test_A3_seat_q_mod_n_gets_card_q_and_the_ass_holder_starts():
    """A-3: seats in dealing order; the holder of the ass starts the first round (A-8)."""
    from analyzer.engines.ass.records import trace_record
    from analyzer.engines.kernel import RunSpec

    for index in range(10):
        record, _ = trace_record(RunSpec("ass", 5, ("basic",), 2), index)
        holder = next(s for s, h in enumerate(record["hands"]) if "A" in h)
        assert record["rounds"][0]["starter"] == holder
        first = record["rounds"][0]["plays"]
        assert [p["seat"] for p in first] == [(holder + i) % 5 for i in range(5)]


def test_A4_a_set_is_one_value_plus_jokers_and_jokers_alone_are_14():
    """A-4: sets mix no values; a joker-only set is worth 14 and cannot be topped."""
    result = both([["J", "J", "3"], ["13", "13", "5"], ["12", "12", "J"]], ["random"] * 3,
                  starter=0, seed=8)
    for rnd in result["rounds"]:
        for play in rnd["plays"]:
            numbers = {c for c in play.get("cards", []) if c != "J"}
            assert len(numbers) <= 1
    second_hands = [["J", "J"], ["13", "13", "5"], ["12", "12", "J"]]
    res = both(second_hands, ["basic"] * 3, starter=0)
    lead = res["rounds"][0]["plays"][0]
    assert lead["cards"] == ["J", "J"]  # only jokers: a set of value 14
    assert all(p.get("pass") for p in res["rounds"][0]["plays"][1:])  # nothing tops 14
    turn = reference.Turn(seat=1, position=1, k=2, high=14)
    assert reference.legal_moves([0] * 14 + [3], turn) == [None]


def test_A5_the_starter_must_lead_and_k_fixes_every_play():
    """A-5: no pass at the lead; every play of the round has the lead's size."""
    turn = reference.Turn(seat=0, position=0)
    hand = [0] * 15
    hand[4] = 2
    moves = reference.legal_moves(hand, turn)
    assert None not in moves and moves
    res = both([["4", "4", "9"], ["6", "6", "7"], ["8", "8", "8", "2"]], ["basic"] * 3,
               starter=0)
    first = res["rounds"][0]
    assert first["plays"][0]["cards"] == ["4", "4"]
    assert [len(p["cards"]) for p in first["plays"] if "cards" in p] == [2, 2, 2]


def test_A6_passing_allowed_short_hands_pass_and_played_cards_leave():
    """A-6: passing is always allowed; fewer than k cards means a pass; one lap; winner."""
    turn = reference.Turn(seat=1, position=1, k=1, high=3)
    hand = [0] * 15
    hand[5] = 1
    assert reference.legal_moves(hand, turn) == [None, (5, 1, 0)]
    # seat 1 holds one card against a lead of two: it passes without being asked
    res = both([["3", "3", "9"], ["13"], ["5", "5", "2"]], ["basic"] * 3, starter=0)
    first = res["rounds"][0]
    assert first["plays"][1] == {"seat": 1, "pass": True}
    assert first["plays"][2]["cards"] == ["5", "5"]
    assert first["winner"] == 2  # the last raiser starts the next round
    # set-saver passes although it could raise (by splitting its three 6s)
    res = both([["2", "9"], ["6", "6", "6", "1"], ["7", "11"]], ["basic", "set-saver", "basic"],
               starter=0)
    assert res["rounds"][0]["plays"][1] == {"seat": 1, "pass": True}


def test_A7_ass_round_no_pass_joker_1_or_14_last_highest_takes():
    """A-7: every follower plays one card; ties go to the last; the taker takes them all."""
    hand = [0] * 15
    hand[JOKER] = 1
    hand[6] = 1
    moves = reference.legal_moves(hand, reference.Turn(seat=1, position=1, k=1,
                                                       ass_round=True))
    assert moves == [(1, 0, 1), (6, 1, 0), (14, 0, 1)]  # no pass; a joker as 1 or as 14
    res = both([["A", "2"], ["9", "3"], ["9", "4"], ["5", "6"]], ["basic"] * 4, starter=0)
    first = res["rounds"][0]
    assert first["ass_round"]
    assert [p["cards"] for p in first["plays"]] == [["A"], ["3"], ["4"], ["5"]]
    assert first["winner"] == 3
    res = both([["A", "2"], ["7", "3"], ["7", "4"], ["1", "6"]], ["random"] * 4, starter=0,
               seed=4)
    first = res["rounds"][0]
    values = [decode_value(p) for p in first["plays"][1:]]
    top = max(values)
    last_top = max(i for i, v in enumerate(values) if v == top) + 1
    assert first["winner"] == first["plays"][last_top]["seat"]
    taker = first["winner"]
    after = res["rounds"][1]
    assert after["starter"] == taker


def decode_value(play):
    if "joker_value" in play:
        return play["joker_value"]
    return card_kind(play["cards"][0])


def test_A8_taker_may_not_lead_the_ass_in_the_next_round_but_then_may():
    """A-8: only the starter, alone; the taker starts but leads a set first."""
    res = both([["A", "1", "1"], ["13", "12", "12"], ["2", "2", "2"]], ["basic"] * 3,
               starter=0)
    rounds = res["rounds"]
    assert rounds[0]["ass_round"] and rounds[0]["winner"] == 1  # 12 beats 2
    assert res["taken"][1] >= 1
    # round 2: seat 1 starts with the ass in hand but may not lead it: basic leads its 2
    assert rounds[1]["starter"] == 1 and not rounds[1]["ass_round"]
    assert rounds[1]["plays"][0]["cards"] == ["2"] and rounds[1]["winner"] == 1
    # round 3, the round after next: now it may, and basic leads the ass
    assert rounds[2]["starter"] == 1 and rounds[2]["ass_round"]
    # a follower never has the ass among its legal moves
    hand = [1] + [0] * 14
    hand[7] = 1
    follow = reference.legal_moves(hand, reference.Turn(seat=1, position=1, k=1, high=3))
    assert all(m is None or m[0] != ASS for m in follow)
    lead = reference.legal_moves(hand, reference.Turn(seat=1, position=0, may_lead_ass=False))
    assert (ASS, 1, 0) not in lead


def test_A8_blocked_starter_holding_ass_leads_a_set_then_the_ass():
    """A-8: with the ass blocked, basic (which leads the ass when it may) leads a set."""
    res = both([["A", "4", "8"], ["2", "3"], ["2", "5"]], ["basic"] * 3, starter=0, blocked=0)
    rounds = res["rounds"]
    assert rounds[0]["plays"][0]["cards"] == ["4"]
    # seat 0 led 4; seat 1 has nothing above 4 but passes; seat 2 raises with 5
    assert rounds[0]["winner"] == 2


def test_A9_game_ends_after_the_round_everyone_plays_and_ass_taker_is_not_out():
    """A-9: the round is finished after a hand empties; a taker with no cards is not out."""
    res = both([["3"], ["5", "6"], ["7", "8"]], ["basic"] * 3, starter=0)
    assert len(res["rounds"]) == 1
    assert [p.get("cards") for p in res["rounds"][0]["plays"]] == [["3"], ["5"], ["7"]]
    # seat 1 plays its last card in an ass round and takes: not out, the game goes on
    res = both([["A", "2", "2"], ["13"], ["4", "5"]], ["basic"] * 3, starter=0)
    first = res["rounds"][0]
    assert first["ass_round"] and first["winner"] == 1
    assert len(res["rounds"]) > 1


def test_A10_penalties_ass_20_joker_14_numbers_their_value():
    """A-10: minus points of the final hands."""
    assert reference.minus_points([1] + [0] * 13 + [2]) == 20 + 28
    hand = [0] * 15
    hand[7], hand[13] = 2, 1
    assert reference.minus_points(hand) == 27
    res = both([["2"], ["13", "13", "J"], ["A", "5", "5", "9"]], ["basic"] * 3, starter=0,
               blocked=2)
    for names, points in zip(res["final_hands"], res["penalties"], strict=True):
        expected = sum(20 if n == "A" else 14 if n == "J" else int(n) for n in names)
        assert points == expected


def test_A11_policies_see_only_their_own_hand_and_the_public_record():
    """A-11: a policy is given (params, view, rng); the view holds no other hand."""
    for fn in (policies.basic, policies.random_policy, policies.heuristic):
        assert list(inspect.signature(fn.py_func).parameters) == ["params", "view", "rng"]
    rules = AssRules(3, 13)
    views = []
    for other in ([0, 3, 3] + [0] * 12, [0, 0, 0, 6] + [0] * 11):  # same size, other cards
        hands = [[0, 1, 1, 1] + [0] * 11, other, [0] * 14 + [6]]
        table = reference.Table(rules, hands)
        turn = reference.Turn(seat=0, position=0)
        views.append(table.view(turn, 0, 0, [0] * 15))
    assert views[0].shape == (VIEW_LEN,)
    assert (views[0] == views[1]).all()


@pytest.mark.parametrize("strategy", ["basic", "random", "careful", "joker-dumper"])
def test_A11_engine_decisions_do_not_depend_on_hidden_cards(strategy):
    """A-11: swapping the hidden hands of two other seats (same sizes) leaves the first
    decision of the starter unchanged."""
    a = play_position([["2", "2", "9"], ["3", "4", "5"], ["6", "7", "8"]], [strategy] * 3, 0)
    b = play_position([["2", "2", "9"], ["6", "7", "8"], ["3", "4", "5"]], [strategy] * 3, 0)
    assert a["rounds"][0]["plays"][0] == b["rounds"][0]["plays"][0]
    assert PASS == -1 and decode(16) == (ASS, 1, 0)

"""The strategies of Who's the Ass?: catalogue, and each knob on hand-built decisions."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.games.ass.cards import (
    PASS,
    PUB_ASS_ROUND,
    PUB_GONE,
    PUB_HIGH,
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_SIZES,
    SCRATCH,
    VIEW_LEN,
    card_kind,
    move_cards,
)
from analyzer.games.ass.moves import legal_moves
from analyzer.rng import new_state, seed_state
from strategies.ass.dispatch import decide
from strategies.registry import catalog, parse_strategy


def view(hand, pos=0, k=0, high=0, ass_round=False, may_lead_ass=False, sizes=(9, 9, 9),
         gone=()):
    v = np.zeros(VIEW_LEN, dtype=np.int64)
    for name in hand:
        v[card_kind(name)] += 1
    v[PUB_POS], v[PUB_K], v[PUB_HIGH] = pos, k, high
    v[PUB_ASS_ROUND], v[PUB_MAY_LEAD_ASS] = int(ass_round), int(may_lead_ass)
    v[PUB_SEAT], v[PUB_PLAYERS] = 0, len(sizes)
    for s, size in enumerate(sizes):
        v[PUB_SIZES + s] = size
    v[PUB_SIZES] = len(hand)
    for name in gone:
        v[PUB_GONE + card_kind(name)] += 1
    return v


def play(name, hand, **kw):
    s = parse_strategy("ass", name)
    rng = new_state()
    move = int(decide(s.family, tuple(s.values), view(hand, **kw), rng))
    return "pass" if move == PASS else move_cards(move)


def test_catalog_names_parse_and_describe_themselves():
    book = catalog("ass")
    for required in ("basic", "random", "heuristic", "hold-jokers", "joker-hoarder",
                     "joker-dumper", "ass-holder", "careful"):
        assert required in book
    for name, spec in book.items():
        assert spec.description
        assert parse_strategy("ass", name).label() == name
    s = parse_strategy("ass", "hold-jokers:keep=2")
    assert s.describe_params()["jokers"] == "keep-until" and s.describe_params()["keep"] == "2"


def test_basic_follows_the_baseline_rules():
    assert play("basic", ["A", "3", "3", "9"], may_lead_ass=True) == ["A"]
    assert play("basic", ["A", "3", "3", "9"]) == ["3", "3"]
    assert play("basic", ["J", "J"]) == ["J", "J"]
    assert play("basic", ["5", "6", "6", "J"], pos=1, k=2, high=5) == ["6", "6"]
    assert play("basic", ["5", "7", "J"], pos=1, k=2, high=5) == ["7", "J"]
    assert play("basic", ["2", "J", "J"], pos=1, k=2, high=5) == ["J", "J"]
    assert play("basic", ["2", "J"], pos=1, k=2, high=5) == "pass"
    assert play("basic", ["9", "J"], pos=1, k=1, ass_round=True) == ["J"]
    assert play("basic", ["9", "4"], pos=1, k=1, ass_round=True) == ["4"]


def test_joker_knobs():
    follow = dict(pos=1, k=2, high=5)
    many = ["2", "3", "4", "7", "J"]
    assert play("basic", many, **follow) == ["7", "J"]
    assert play("joker-hoarder", many, **follow) == "pass"
    assert play("hold-jokers", many, **follow) == "pass"  # 5 cards > keep=2
    assert play("hold-jokers:keep=5", many, **follow) == ["7", "J"]
    assert play("finisher", many, **follow) == "pass"
    assert play("finisher", ["7", "J"], **follow) == ["7", "J"]  # empties the hand
    assert play("joker-dumper", ["3", "3", "8", "J"]) == ["3", "3", "J"]
    assert play("joker-hoarder", ["3", "3", "J"]) == ["3", "3", "J"]  # leads out
    assert play("joker-hoarder", ["J", "J"], **follow) == ["J", "J"]  # nothing else left


def test_ass_holder_holds_the_ass_until_it_is_the_last_card():
    assert play("ass-holder", ["A", "4"], may_lead_ass=True) == ["4"]
    assert play("ass-holder", ["A"], may_lead_ass=True) == ["A"]


def test_set_saver_does_not_split_a_value():
    assert play("basic", ["6", "6", "6", "9", "9"], pos=1, k=2, high=5) == ["6", "6"]
    assert play("set-saver", ["6", "6", "6", "9", "9"], pos=1, k=2, high=5) == ["9", "9"]
    assert play("set-saver", ["6", "6", "6"], pos=1, k=2, high=5) == "pass"


def test_careful_reads_the_record():
    # nothing above 11 is left unaccounted for except what it holds: 11 11 is safe to lead
    gone = ["12"] * 8 + ["13"] * 8 + ["J"] * 5
    hand = ["3", "11", "11"]
    assert play("basic", hand, gone=gone) == ["3"]
    assert play("careful", hand, gone=gone) == ["11", "11"]
    assert play("careful", hand) == ["3"]  # without that record it leads low
    # every other hand is smaller than 2: any pair is safe
    assert play("careful", ["3", "8", "8"], sizes=(3, 1, 1)) == ["8", "8"]
    # ass round: throw the highest card that is below the table's highest (9)
    assert play("careful", ["2", "8", "13"], pos=2, k=1, high=9, ass_round=True) == ["8"]
    assert play("careful", ["2", "J", "13"], pos=2, k=1, high=9, ass_round=True) == ["J"]
    assert play("careful", ["10", "13"], pos=2, k=1, high=9, ass_round=True) == ["10"]


def test_random_is_uniform_over_the_legal_moves():
    v = view(["3", "3", "7", "J"], pos=1, k=2, high=2)
    n = legal_moves(v)
    moves = list(v[SCRATCH : SCRATCH + n])
    assert len(moves) == 4  # pass, 3 3, 3 J, 7 J
    s = parse_strategy("ass", "random")
    rng = new_state()
    seed_state(rng, 5, 0, 0)
    draws = [int(decide(s.family, tuple(s.values), v, rng)) for _ in range(8000)]
    counts = np.array([draws.count(m) for m in moves])
    chi2 = ((counts - 2000) ** 2 / 2000).sum()
    assert chi2 < 21.1  # 99.99% quantile of chi-square, 3 degrees of freedom


def test_random_does_not_draw_without_a_choice():
    s = parse_strategy("ass", "random")
    rng = new_state()
    before = int(rng[0])
    assert int(decide(s.family, tuple(s.values), view(["2"], pos=1, k=1, high=9), rng)) == PASS
    assert int(rng[0]) == before


@pytest.mark.parametrize("name", sorted(catalog("ass")))
def test_strategy_leads_something_from_any_hand(name):
    for hand in (["A"], ["J"], ["A", "J"], ["1", "13", "J", "A"]):
        may = "A" in hand
        assert play(name, hand, may_lead_ass=may) != "pass"

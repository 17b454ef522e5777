"""Property tests (hypothesis) of legal-move generation, strategy legality, card conservation."""

from __future__ import annotations

from collections import Counter

import numpy as np
from depth import cases  # tests/ is on sys.path
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.engines.ass import reference
from analyzer.engines.ass.records import Tracer
from analyzer.engines.kernel import RunSpec
from analyzer.games.ass.cards import (
    ASS,
    JOKER,
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
    encode,
)
from analyzer.games.ass.moves import is_legal, legal_moves
from analyzer.rng import new_state
from strategies.ass.dispatch import decide
from strategies.registry import catalog, parse_strategy

hands = st.tuples(
    st.integers(0, 1), *[st.integers(0, 8) for _ in range(13)], st.integers(0, 5)
).map(list)


@st.composite
def positions(draw):
    """A hand and a turn as the engine could present them (engine invariants respected)."""
    hand = draw(hands)
    kind = draw(st.sampled_from(["lead", "follow", "ass"]))
    size = sum(hand)
    if kind == "lead":
        turn = reference.Turn(seat=0, position=0,
                              may_lead_ass=hand[ASS] > 0 and draw(st.booleans()))
        if size == 0 or (size == hand[ASS] and not turn.may_lead_ass):
            hand[5] += 1
    elif kind == "ass":
        hand[ASS] = 0  # the ass is on the table
        if sum(hand) == 0:
            hand[JOKER] = 1
        turn = reference.Turn(seat=1, position=draw(st.integers(1, 5)), k=1,
                              high=draw(st.integers(1, 14)), ass_round=True)
    else:
        k = draw(st.integers(1, 9))
        if size < k:
            hand[13] = min(8, hand[13] + k)
        turn = reference.Turn(seat=1, position=draw(st.integers(1, 5)), k=k,
                              high=draw(st.integers(1, 14)))
    return hand, turn


def view_of(hand, turn):
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    view[:15] = hand
    view[PUB_K] = turn.k
    view[PUB_HIGH] = turn.high
    view[PUB_ASS_ROUND] = int(turn.ass_round)
    view[PUB_MAY_LEAD_ASS] = int(turn.may_lead_ass)
    view[PUB_POS] = turn.position
    view[PUB_SEAT] = turn.seat
    view[PUB_PLAYERS] = 6
    for seat in range(6):
        view[PUB_SIZES + seat] = 7 + seat
    view[PUB_SIZES + turn.seat] = sum(hand)
    for v in range(1, 14):
        view[PUB_GONE + v] = (8 - hand[v]) // 2
    return view


def codes(moves):
    return [PASS if m is None else encode(*m) for m in moves]


@settings(max_examples=cases(150, 400), deadline=None)
@given(positions())
def test_jitted_legal_moves_equal_the_reference_generator(position):
    hand, turn = position
    view = view_of(hand, turn)
    n = legal_moves(view)
    expected = codes(reference.legal_moves(hand, turn))
    assert list(view[SCRATCH : SCRATCH + n]) == expected
    assert len(set(expected)) == len(expected)  # distinct moves
    assert expected == sorted(expected)  # canonical order: ascending code, pass first


@settings(max_examples=cases(80, 200), deadline=None)  # each example: all 3,842 codes
@given(positions())
def test_is_legal_agrees_with_the_list_on_every_code(position):
    hand, turn = position
    view = view_of(hand, turn)
    legal = set(codes(reference.legal_moves(hand, turn)))
    for code in [PASS, -7] + list(range(0, 15 * 256)):
        assert bool(is_legal(code, view)) == (code in legal), code


# every strategy that decides from its view; peek (no legal player) needs every hand:
# tests/test_ass_pimc.py plays it
VIEW_STRATEGIES = sorted(name for name, spec in catalog("ass").items() if spec.name != "peek")


@settings(max_examples=cases(100, 200), deadline=None)
@given(positions(), st.sampled_from(VIEW_STRATEGIES), st.integers(0, 2**32))
def test_every_strategy_plays_only_legal_moves(position, name, state):
    hand, turn = position
    strategy = parse_strategy("ass", name)
    view = view_of(hand, turn)
    rng = new_state()
    rng[0] = state
    move = int(decide(strategy.family, tuple(strategy.values), view, rng))
    assert move in codes(reference.legal_moves(hand, turn))


@settings(max_examples=cases(100, 200), deadline=None)
@given(positions())
def test_legal_moves_respect_the_hand(position):
    """No move uses cards the hand does not hold; following moves have exactly k cards."""
    hand, turn = position
    for move in reference.legal_moves(hand, turn):
        if move is None:
            continue
        v, c, j = move
        assert j <= hand[JOKER]
        assert c <= (hand[v] if v <= 13 else 0)
        if turn.position > 0:
            assert c + j == turn.k


@settings(max_examples=cases(25, 60), deadline=None)
@given(st.integers(3, 12), st.integers(0, 2**40), st.integers(0, 10**6),
       st.lists(st.sampled_from(sorted(catalog("ass"))), min_size=1, max_size=1))
def test_cards_are_conserved(players, seed, index, names):
    """Dealt cards = final hands + cards gone in normal rounds, kind by kind, every game."""
    record, status = Tracer(RunSpec("ass", players, tuple(names), seed)).record(index)
    assert status == -1
    dealt = Counter(c for h in record["hands"] for c in h)
    final = Counter(c for h in record["final_hands"] for c in h)
    gone: Counter = Counter()
    for rnd in record["rounds"]:
        if not rnd["ass_round"]:
            for play in rnd["plays"]:
                gone.update(play.get("cards", []))
    assert dealt == final + gone
    assert sum(dealt.values()) == players * record["rules"]["per_player"]
    assert final["A"] == 1  # the ass never leaves the game

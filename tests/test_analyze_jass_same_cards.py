"""Plus-Minus Jass cards that are the same card in effect (analysis.jass.same_in_effect): the
rules' reading (J-1, J-5, J-7, J-8), a property check that exchanging two such cards changes
nothing the rules count, and the analysis valuing them together."""

from __future__ import annotations

import re

import numpy as np
import pytest

from analyzer.analysis import jass
from analyzer.analysis.model import recommendation
from analyzer.engines.jass import engine
from analyzer.games.jass.cards import card_name, mask_cards
from analyzer.games.jass.primitives import S_LAST_WINNER, S_TRUMP, S_WON, legal_mask
from strategies.jass.play import deal_points, to_move

# trick 1: seat 2, out of roses, fixes shields as trump with the 6 and wins; seat 2 leads next
FIXED = "R10 RK S6 RA"


def sets(players, hand, tricks, seat):
    pos = jass.typed(players, hand, tricks, 0, seat, None, "seed", None, [])
    return sorted(sorted(card_name(c) for c in group)
                  for group in jass.same_in_effect(pos, jass.legal_cards(pos)))


def test_j8_before_trump_only_the_6_and_7_are_alike():
    """J-8 and J-5: while no trump is fixed the deal may end with this suit as trump (the 9
    counts 14) or with none (every 8 counts 8): only the 6 and the 7 score alike under every
    ending."""
    assert sets(4, "B6 B7 B8 B9 B10 A6 A7 AU S7", None, 0) == sorted([
        ["B6", "B7"], ["B8"], ["B9"], ["B10"], ["A6", "A7"], ["AU"], ["S7"]])


def test_j8_a_plain_suit_once_trump_is_fixed_has_four_blank_cards():
    """J-8: with another suit trump, the 6, 7, 8 and 9 of a plain suit all count 0 and are
    neighbours in the plain order (J-1): one card in effect; the Banner (10) is not."""
    assert sets(4, "B6 B7 B8 B9 B10 A6 A7 AU", FIXED, 2) == sorted([
        ["B6", "B7", "B8", "B9"], ["B10"], ["A6", "A7"], ["AU"]])


def test_j8_the_trump_9_is_never_blank():
    """J-1 and J-8: in the trump suit the 7 and 8 are alike (0 points, neighbours in the trump
    order 6 7 8 10 ...), the 9 counts 14."""
    assert sets(4, "S7 S8 S9 B6 B7 A6 A7 AU", FIXED, 2) == sorted([
        ["S7", "S8"], ["S9"], ["B6", "B7"], ["A6", "A7"], ["AU"]])


def test_j7_a_card_another_seat_may_hold_between_them_sets_them_apart():
    """J-7: with the 7 unseen, the 8 beats a 7 the 6 does not; once the 7 has been played in
    an earlier trick nothing lies between them; the 7 on the table in this trick still does
    (the 8 wins this trick, the 6 does not)."""
    assert ["B6"] in sets(4, "B6 B8 B10 A6 A7 AU AO AK", FIXED, 2)
    # seat 3, out of roses and of trumps, threw the B7 in trick 1
    assert ["B6", "B8"] in sets(4, "B6 B8 B10 A6 A7 AU AO AK", "R10 RK S6 B7", 2)
    on_table = sets(4, "B6 B8 B10 A6 A7 AU AO AK", FIXED + " / B7", 3)
    assert on_table == [["B10"], ["B6"], ["B8"]]


def _points_and_winners(hands, played, taken, st, first, order, rng):
    """Play ``first``, then the cards of ``order`` where given (each must be legal: False
    otherwise), random legal cards after it; the deal's points per seat, its tricks won per
    seat, the last trick's winner and the trump, and the cards played."""
    h, pl, tk, s = hands.copy(), played.copy(), taken.copy(), st.copy()
    engine.play_card(int(to_move(s)), first, h, pl, tk, s)
    seq = []
    while int(s[S_LAST_WINNER]) < 0:
        seat = int(to_move(s))
        legal = mask_cards(int(legal_mask(h[seat], s)))
        if len(seq) < len(order):
            card = order[len(seq)]
            if card not in legal:
                return False
        else:
            card = int(rng.choice(legal))
        seq.append(card)
        engine.play_card(seat, card, h, pl, tk, s)
    points = np.zeros(4, dtype=np.int64)
    deal_points(tk, s, points)
    n = int(s[0])
    return (tuple(points[:n]), tuple(s[S_WON: S_WON + n]), int(s[S_LAST_WINNER]),
            int(s[S_TRUMP]), seq)


def test_exchanging_two_cards_alike_changes_nothing_the_rules_count():
    """Property (J-5 to J-9): in random deals (both rule sets, 3 and 4 players), for every
    pair of the decider's cards said to be alike, a random continuation after one card,
    replayed with the two cards exchanged, stays legal card for card and gives every seat the
    same points, the same tricks and the same last trick; and a same-suit pair said to differ
    is told apart by some continuation in some deal (the reading is not too wide either)."""
    from test_jass_search import random_position

    rng = np.random.default_rng(44)
    pairs = apart = 0
    for trial in range(400):
        n = int(rng.choice([3, 4]))
        ruleset = str(rng.choice(["seed", "swiss"]))
        hands, played, taken, st, _ = random_position(int(rng.integers(1 << 40)), n, ruleset,
                                                      int(rng.integers(0, 30)))
        seat = int(to_move(st))
        pos = jass.Position(seat, int(hands[seat]), st.copy(), played.copy(), taken.copy())
        legal = jass.legal_cards(pos)
        for group in jass.same_in_effect(pos, legal):
            for a, b in zip(group, group[1:], strict=False):
                for k in range(4):
                    run = _points_and_winners(hands, played, taken, st, a, [],
                                              np.random.default_rng(trial * 10 + k))
                    swap = {a: b, b: a}
                    again = _points_and_winners(hands, played, taken, st, b,
                                                [swap.get(c, c) for c in run[4]], rng)
                    assert again is not False, (trial, card_name(a), card_name(b))
                    assert again[:4] == run[:4], (trial, card_name(a), card_name(b))
                pairs += 1
        if apart < 20:
            alike = {c: i for i, g in enumerate(jass.same_in_effect(pos, legal)) for c in g}
            for a in legal:
                for b in legal:
                    if a < b and a // 9 == b // 9 and alike[a] != alike[b]:
                        for k in range(30):
                            run = _points_and_winners(hands, played, taken, st, a, [],
                                                      np.random.default_rng(k))
                            swap = {a: b, b: a}
                            again = _points_and_winners(hands, played, taken, st, b,
                                                        [swap.get(c, c) for c in run[4]], rng)
                            if again is False or again[:4] != run[:4]:
                                apart += 1
                                break
    assert pairs >= 40 and apart >= 20


def test_the_analysis_values_cards_alike_together():
    """The analysis gives cards alike the numbers of the one of their set it values most, and
    names the others of a set ``same_as`` the first it lists."""
    pos = jass.typed(4, "B6 B7 B8 B9 B10 A6 A7 AU", FIXED, 0, 2, None, "seed", None, [])
    result = jass.analyze(pos, 200, 5)
    rows = {r["move"]: r for r in result["moves"]}
    for group in (["B6", "B7", "B8", "B9"], ["A6", "A7"]):
        first = next(card_name(c) for c in jass.prior_cards(pos) if card_name(c) in group)
        for m in group:
            assert rows[m]["value"] == rows[first]["value"]
            assert rows[m]["points"] == rows[first]["points"]
            assert rows[m].get("same_as") == (None if m == first else first)
    assert "same_as" not in rows["B10"] and "same_as" not in rows["AU"]


def test_the_advice_names_the_same_card():
    rows = [{"move": "R6", "diff": 0.0, "diff_low": 0.0, "diff_high": 0.0},
            {"move": "R7", "same_as": "R6", "diff": 0.0, "diff_low": 0.0, "diff_high": 0.0},
            {"move": "A8", "diff": -0.106, "diff_low": -0.16, "diff_high": -0.05}]
    assert recommendation("jass", rows) == ("Play R6 (R7 is the same card here). A8 costs "
                                            "about 0.11 sticks.")
    assert recommendation("jass", rows[:2]) == "Play R6 (R7 is the same card here)."


def test_the_command_prints_same_as(cli):
    """``cardlab analyze jass`` marks each card alike with the card it is the same as."""
    code, out, _ = cli("analyze", "jass", "--players", "4", "--hand", "B6 B7 B8 B9 B10 A6 A7 AU",
                       "--tricks", FIXED, "--seat", "2", "--worlds", "100", "--seed", "1")
    assert code == 0
    same = dict(re.findall(r"^\s+(\S+)\s.*\bsame as (\S+)", out, re.M))
    blank, low = {"B6", "B7", "B8", "B9"}, {"A6", "A7"}
    assert len(same) == 4
    assert all((m in blank and first in blank) or (m in low and first in low)
               for m, first in same.items())
    assert len(blank - set(same)) == 1 and len(low - set(same)) == 1


def test_the_timeline_values_a_card_alike_as_the_analysis_does():
    """The evaluation graph's point after a card alike others is the analysis's value of that
    card (the same worlds, the set's card valued most), for every card of a set."""
    pos = jass.typed(4, "B6 B7 B8 B9 B10 A6 A7 AU", FIXED, 0, 2, None, "seed", None, [])
    rows = {r["move"]: r for r in jass.analyze(pos, 120, 7, 3)["moves"]}
    for card in jass.prior_cards(pos):
        sticks, weights = jass.timeline_matrix(pos, card, 120, 7, 3)
        x = sticks[:, pos.seat]
        mean = x.mean() if np.all(weights == weights[0]) else (weights @ x) / weights.sum()
        assert mean == pytest.approx(rows[card_name(card)]["value"], abs=1e-12)

"""cardlab analyze ass (issue 22): no peeking (A-11), forced moves, exact values on an
enumerable endgame, and the typed notation against positions of real records."""

from __future__ import annotations

import copy
import itertools
import json
import shlex

import numpy as np
import pytest

from analyzer.analysis import ass
from analyzer.engines.ass.positions import record_at, state_at
from analyzer.engines.ass.records import Tracer
from analyzer.engines.kernel import RunSpec
from analyzer.games.ass.cards import (
    JOKER,
    PUB_GONE,
    PUB_KNOWN,
    PUB_ROUND,
    VIEW_LEN,
    PublicView,
)


@pytest.fixture(scope="module")
def records():
    tracer = Tracer(RunSpec("ass", 4, ("basic", "careful", "basic", "random"), 11))
    return [tracer.record(i)[0] for i in range(3)]


def _hidden_swap(state, me, rng):
    """The state with one hidden card swapped between two opponents (neither card known to
    be where it is), or None when no such pair exists."""
    n = state["n"]
    others = [s for s in range(n) if s != me]
    for a, b in itertools.permutations(others, 2):
        for x in range(1, JOKER + 1):
            for y in range(1, JOKER + 1):
                if x == y:
                    continue
                if (state["hands"][a][x] > state["known"][a][x]
                        and state["hands"][b][y] > state["known"][b][y] and rng.random() < 0.3):
                    other = copy.deepcopy(state)
                    other["hands"][a][x] -= 1
                    other["hands"][a][y] += 1
                    other["hands"][b][y] -= 1
                    other["hands"][b][x] += 1
                    return other
    return None


def test_no_peeking_the_same_knowledge_gives_the_same_analysis(records):
    """A-11: two positions that agree on everything the mover may know but deal the
    opponents' hidden cards differently give identical output for the same seed."""
    rng = np.random.default_rng(5)
    tried = 0
    for record in records:
        plays = ass.plays_of(record)
        for k in rng.choice(len(plays), size=4, replace=False):
            r, p = plays[int(k)]
            state = state_at(record, r, p)
            me = (state["starter"] + p) % state["n"]
            other = _hidden_swap(state, me, rng)
            if other is None:
                continue
            assert other["hands"] != state["hands"]
            trace = record_at(record, r, p)
            a = ass.analyze(ass.from_state(state, trace), 200, 9)
            b = ass.analyze(ass.from_state(other, trace), 200, 9)
            assert json.dumps(a) == json.dumps(b)
            tried += 1
    assert tried >= 6


def test_a_single_legal_move_is_returned_with_no_difference():
    """Into an ass round with one card in hand, the card is the only move (A-7)."""
    pos = ass.typed(4, 2, "9", "5,7,1,6", "A / 3", None, [], False, None, None)
    result = ass.analyze(pos, 100, 1)
    assert [m["move"] for m in result["moves"]] == ["9"]
    row = result["moves"][0]
    assert row["diff"] == 0 and row["best"]
    assert result["recommendation"] == "Play 9: it is the only legal move."


def _endgame():
    """3 players; seat 0 leads 12 13 J; seat 1 holds 1 card, seat 2 the ass and 1 more;
    only six cards are unseen (three 12s, two 13s, a joker), so the worlds can be listed."""
    gone = " ".join(["1 2 3 4 5 6 7 8 9 10 11"] * 8 + ["12"] * 4 + ["13"] * 5 + ["J"] * 3)
    return ass.typed(3, 0, "12 13 J", "3,1,2", None, gone, ["2:A"], False, None, None)


def test_values_agree_with_the_exact_expectation_on_an_enumerable_endgame():
    """Every ordered deal of the six unseen cards (one to seat 1, one more to seat 2, the
    rest out of play) is equally likely; basic rollouts draw nothing, so each move's exact
    value is the mean over the 30 deals, and analyze's intervals must hold it."""
    from strategies.ass.pimc import play_out, rollout_strategy

    pos = _endgame()
    _, params = ass.pimc_params()
    from strategies.ass.catalog import SLOT_ROLLOUT

    fam, pp = rollout_strategy(np.float64(params[SLOT_ROLLOUT]))
    moves = ass.legal_codes(pos)
    unseen = [12, 12, 12, 13, 13, JOKER]
    exact = np.zeros(len(moves))
    deals = list(itertools.permutations(range(6), 2))
    assert len(deals) == 30
    for i, j in deals:
        world = np.zeros(3, dtype=np.uint64)
        world[0] = sum(np.uint64(c) << np.uint64(4 * k) for k, c in enumerate(pos.view[:16]))
        world[1] = np.uint64(1) << np.uint64(4 * unseen[i])
        world[2] = (np.uint64(1) << np.uint64(4 * unseen[j])) + np.uint64(1)  # + the ass
        for m, move in enumerate(moves):
            rview = np.zeros(VIEW_LEN, dtype=np.int64)
            gone = sum(np.uint64(c) << np.uint64(4 * k)
                       for k, c in enumerate(pos.view[PUB_GONE:PUB_GONE + 16]))
            exact[m] += play_out(pos.view, world, 0, move, fam, pp, rview,
                                 np.zeros(1, np.uint64), np.zeros(16, np.uint64), gone,
                                 np.uint64(0)) / len(deals)
    result = ass.analyze(pos, 3000, 2)
    names = [ass.move_text(m, False, 0) for m in moves]
    assert len(set(exact)) > 1  # the moves differ: the check has teeth
    for row in result["moves"]:
        value = exact[names.index(row["move"])]
        if row["low"] == row["high"]:
            assert row["value"] == pytest.approx(value)
        else:
            assert row["low"] <= value <= row["high"], (row, value)


def _options(text):
    """{option: value} of a typed command line (repeated options as lists, flags True)."""
    words = shlex.split(text)
    out: dict = {}
    i = 0
    while i < len(words):
        name = words[i]
        if i + 1 < len(words) and not words[i + 1].startswith("--"):
            value = words[i + 1]
            i += 2
        else:
            value = True
            i += 1
        if name == "--known":
            out.setdefault(name, []).append(value)
        else:
            out[name] = value
    return out


def test_hand_notation_round_trips_from_records(records):
    """Every play of a record written in the notation parses back to its move code, and the
    typed form a recorded position prints (``typed``: hand, sizes, this round's plays, cards
    gone, known holdings) gives the mover the very same view."""
    for record in records:
        plays = ass.plays_of(record)
        for r, p in plays:
            rnd = record["rounds"][r]
            code = ass.record_move(rnd["plays"][p], rnd["ass_round"])
            text = ass.move_text(code, rnd["ass_round"], p)
            assert ass._play_of(text, rnd["ass_round"], p, "x") == code
        for k in range(0, len(plays), 3):
            pos = ass.from_record(record, k)
            o = _options(pos.info["typed"])
            typed = ass.typed(int(o["--players"]), int(o["--seat"]), o["--hand"],
                              o["--sizes"], o.get("--round"), o.get("--gone"),
                              o.get("--known", []), bool(o.get("--just-took-ass")),
                              o.get("--totals"), o.get("--game"))
            want = pos.view.copy()
            want[PUB_ROUND] = 0  # a typed position does not count rounds
            want[PUB_KNOWN + pos.seat] = 0  # nor what the mover knows of itself
            assert np.array_equal(typed.view, want), (k, np.nonzero(typed.view != want))
            shown = PublicView(typed.view)
            assert shown.seat == pos.seat and shown.players == 4


@pytest.mark.parametrize("totals,chance", [("0,300,300,300", 1.0), ("300,0,300,300", 0.0)])
def test_the_match_win_chance_in_the_last_game_follows_the_totals(totals, chance):
    """A-12: in the last game of a match a lead of 300 minus points is far more than one game
    of these hands moves, so every move's chance to win the match is 1 (or, 300 behind, 0);
    the seat of the totals is the decider's (seat 0)."""
    pos = ass.typed(4, 0, "3 3 8 J", "4,6,5,9", None, None, ["3:A"], False, totals, "4/4")
    result = ass.analyze(pos, 100, 0)
    assert result["position"]["game_of_match"] == "4/4"
    for row in result["moves"]:
        assert row["win"] == chance and row["win_low"] == row["win_high"] == chance


def test_the_match_win_chance_plays_the_games_left():
    """With games left and the totals level, the chance is neither 0 nor 1 and it is paired:
    every move has its difference to the best move's chance."""
    pos = ass.typed(4, 0, "3 3 8 J", "4,6,5,9", None, None, ["3:A"], False, "10,10,10,10",
                    "2/4")
    rows = ass.analyze(pos, 300, 0)["moves"]
    assert all(0 < row["win"] < 1 for row in rows)
    assert all("win_diff_low" in row for row in rows) and rows[0]["win_diff"] == 0

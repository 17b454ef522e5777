"""cardlab analyze in one voice (issue 44): the values are the strongest player's own (pimc's
worlds, its inference and its evaluation), one recommendation leads, one line names the
model, and ``--continuation`` asks a what-if."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_check import one_error

from analyzer.analysis import ass, jass
from analyzer.engines.ass.records import Tracer
from analyzer.engines.jass.records import trace_record
from analyzer.engines.kernel import RunSpec
from analyzer.rng import new_state, seed_state

ASS = ["analyze", "ass", "--players", "4", "--hand", "3 3 8 J", "--sizes", "4,6,5,9",
       "--known", "3:A", "--worlds", "200"]
JASS = ["analyze", "jass", "--players", "4", "--hand", "B6 B9 S10 SU R7 A6 AU AA",
        "--tricks", "R10 RK R6 RA", "--worlds", "200"]
STRONG = "Values assume strong play by everyone after this move (pimc's worlds and evaluation"


@pytest.mark.parametrize("args", [ASS, JASS], ids=["ass", "jass"])
def test_json_and_text_lead_with_one_recommendation_and_the_model(cli, args):
    code, out, _ = cli(*args, "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert list(result)[:2] == ["recommendation", "model"]
    advice = result["recommendation"]
    best = result["moves"][0]["move"]
    assert advice.startswith(f"Play {best}.") and advice.count("Play ") == 1
    assert result["model"].startswith(STRONG)
    assert all("pimc" not in row for row in result["moves"])  # no second voice
    code, text, _ = cli(*args)
    lines = text.splitlines()
    assert code == 0 and lines[0] == advice and lines[1] == result["model"]
    assert "pimc plays" not in text


def test_the_recommendation_names_the_ties_and_the_cost_of_the_rest():
    """A Who's the Ass? position with a pass: the moves within noise of the best are named
    as good, passing gets its cost, each number read from the rows."""
    from analyzer.analysis.model import recommendation

    rows = [{"move": "7 7", "diff": 0.0, "diff_low": 0.0, "diff_high": 0.0},
            {"move": "10 10", "diff": 0.5, "diff_low": -0.4, "diff_high": 1.4},
            {"move": "12 J", "diff": 1.0, "diff_low": -0.2, "diff_high": 2.2},
            {"move": "pass", "diff": 11.2, "diff_low": 8.0, "diff_high": 14.4}]
    assert recommendation("ass", rows) == ("Play 7 7. 10 10 and 12 J are as good within "
                                           "noise; passing costs about 11 minus points.")
    rows[1:3] = [{"move": "9", "diff": 2.5, "diff_low": 1.0, "diff_high": 4.0},
                 {"move": "J", "diff": 6.0, "diff_low": 4.0, "diff_high": 8.0}]
    assert recommendation("ass", rows) == ("Play 7 7. Passing costs about 11 minus points; "
                                           "the other 2 moves cost about 2.5 to 6.0 minus "
                                           "points.")
    jrows = [{"move": "B9", "diff": 0.0, "diff_low": 0.0, "diff_high": 0.0},
             {"move": "A8", "diff": -0.106, "diff_low": -0.16, "diff_high": -0.05}]
    assert recommendation("jass", jrows) == "Play B9. A8 costs about 0.11 sticks."


@pytest.mark.parametrize("args,words", [
    (ASS + ["--continuation", "nosuch"], "--continuation 'nosuch'"),
    (ASS + ["--continuation", "pimc"], "a strategy that does not search"),
    (JASS + ["--continuation", "pimc"], "one of basic, random, aim-high, aim-low"),
], ids=["ass-unknown", "ass-search", "jass-search"])
def test_a_bad_continuation_is_one_line_and_status_2(cli, args, words):
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    one_error(err, words, hint=False)
    assert "basic" in err  # the allowed ones are named


def test_a_continuation_without_analyze_is_refused(cli):
    code, out, err = cli("replay", "ass", "--index", "0", "--continuation", "basic")
    assert code == 2 and out == ""
    one_error(err, "--continuation applies with --analyze", hint=False)


@pytest.mark.parametrize("args,name", [(ASS, "random"), (JASS, "aim-high")],
                         ids=["ass", "jass"])
def test_a_what_if_continuation_changes_the_model_line_and_the_values(cli, args, name):
    strong = json.loads(cli(*args, "--format", "json")[1])
    code, out, _ = cli(*args, "--format", "json", "--continuation", name)
    what_if = json.loads(out)
    assert code == 0
    assert what_if["model"].startswith(f"Values assume {name} by everyone after this move")
    assert what_if["position"]["continuation"] == name
    assert [r["value"] for r in what_if["moves"]] != [r["value"] for r in strong["moves"]]


def _ass_record(seed=3, players=4):
    return Tracer(RunSpec("ass", players, ("pimc",) * players, seed)).record(0)[0]


def test_ass_values_are_pimcs_own_on_its_own_worlds():
    """The analysis draws pimc's worlds with pimc's own code (infer=policy, oversample, eps:
    here eps = 0.5, so the worlds weigh differently) and rolls them out with pimc's rollout:
    on the same stream its weighted means are exactly pimc's search_values."""
    from strategies.ass.catalog import INFER_POLICY, PIMC, SLOT_EPS, SLOT_INFER, SLOT_WORLDS
    from strategies.ass.pimc import search_values

    record = _ass_record()
    checked = unequal = 0
    for k in range(4, len(ass.plays_of(record)), 3):
        pos = ass.from_record(record, k)
        moves = ass.legal_codes(pos)
        if len(moves) < 2:
            continue
        _, params = ass.pimc_params()
        params = list(params)
        params[SLOT_EPS], params[SLOT_WORLDS] = 0.5, 64.0
        params[SLOT_INFER] = float(INFER_POLICY)  # (pimc's default is voids: equal weights)
        params = tuple(params)
        matrix, _, weights = ass.outcomes(pos, moves, 64, 11, k, params)
        rng = new_state()
        seed_state(rng, 11, k, ass.WORLD_STREAM)
        totals, squares = np.zeros(len(moves)), np.zeros(len(moves))
        weight = search_values(PIMC, params, pos.view.copy(), rng, pos.trace,
                               np.array(moves, dtype=np.int64), len(moves), totals, squares)
        w = weights.astype(np.float64)
        assert np.allclose((w @ matrix) / w.sum(), totals / weight, rtol=0, atol=1e-9)
        checked += 1
        unequal += len(set(weights)) > 1
    assert checked >= 4 and unequal >= 1, (checked, unequal)


def test_jass_values_are_pimcs_own_on_its_own_worlds():
    """The same for Plus-Minus Jass: draw_worlds with the bans the play proves, here with
    infer=policy (eps 0.3: unequal weights); the weighted means are pimc's search_values."""
    from strategies.jass.knobs import INFER_POLICY, P_INFER
    from strategies.jass.search import search_values

    spec = RunSpec("jass", 4, ("pimc",) * 4, 2, mode="deals",
                   rules={"ruleset": "seed", "deal_cap": 200})
    record = trace_record(spec, 0)
    checked = 0
    for k in range(5, 30, 4):
        pos = jass.from_record(record, 0, k)
        cards = jass.legal_cards(pos)
        if len(cards) < 2:
            continue
        prm = jass.pimc_prm(48)
        prm[P_INFER] = INFER_POLICY
        sticks, _, weights = jass.outcomes(pos, cards, 48, 5, k, tuple(prm))
        rng = new_state()
        seed_state(rng, 5, k, jass.WORLD_STREAM)
        cands = np.zeros(12, dtype=np.int64)
        scores, squares = np.zeros(12), np.zeros(12)
        legal = np.uint64(sum(1 << c for c in cards))
        nc, total = search_values(prm, pos.seat, np.uint64(pos.hand), legal, pos.st.copy(),
                                  pos.played.copy(), pos.taken.copy(), rng,
                                  np.zeros(4, np.uint64), False, cands, scores, squares)
        mine = (weights @ sticks) / weights.sum()
        for i in range(nc):
            assert mine[cards.index(int(cands[i]))] == pytest.approx(scores[i] / total,
                                                                     abs=1e-9)
        checked += 1
    assert checked >= 4


def test_where_pimcs_decision_is_clear_the_best_is_pimcs_move():
    """Positions of all-pimc games where the analysis finds one move clearly better than
    every other: the move pimc played there is that move."""
    from analyzer.analysis.values import loss_of

    clear = 0
    record = _ass_record(seed=5)
    for k, (r, p) in enumerate(ass.plays_of(record)):
        pos = ass.from_record(record, k)
        if ass.count_legal(pos) < 2:
            continue
        rows = ass.analyze(pos, 300, 1, k)["moves"]
        if all((loss_of("ass", row)[1] or 0) > 0 for row in rows[1:]):
            rnd = record["rounds"][r]
            played = ass.move_text(ass.record_move(rnd["plays"][p], rnd["ass_round"]),
                                   rnd["ass_round"], p)
            assert rows[0]["move"] == played, (k, rows[0]["move"], played)
            clear += 1
    assert clear >= 3


@pytest.mark.parametrize("game", ["ass", "jass"])
def test_the_results_are_the_same_whatever_the_chunks_of_worlds(monkeypatch, game):
    """The rollouts run in chunks of worlds (Ctrl-C is heard between them): one world per
    chunk and all worlds in one chunk give the same output, bit for bit (a match position
    in Who's the Ass?, with its future deals; a recorded Jass position with weighted
    worlds)."""
    from analyzer.analysis import kernels

    if game == "ass":
        pos = ass.typed(4, 0, "3 3 8 J", "4,6,5,9", None, None, ["3:A"], False,
                        "10,12,9,11", "2/4")
        run = lambda: ass.analyze(pos, 120, 3)  # noqa: E731
    else:
        spec = RunSpec("jass", 4, ("pimc",) * 4, 2, mode="deals",
                       rules={"ruleset": "seed", "deal_cap": 200})
        pos = jass.from_record(trace_record(spec, 0), 0, 13)
        run = lambda: jass.analyze(pos, 120, 3)  # noqa: E731

    def one_by_one(total, roll, check):
        for w in range(total):
            roll(w, w + 1)
            check()

    monkeypatch.setattr(kernels, "in_chunks", one_by_one)
    small = json.dumps(run())
    monkeypatch.setattr(kernels, "in_chunks", lambda total, roll, check: roll(0, total))
    assert json.dumps(run()) == small

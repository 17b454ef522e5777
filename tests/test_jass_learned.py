"""The ``learned`` family of Plus-Minus Jass: no peeking, the plain-Python twin, engine
against reference (learned seats and learned rollouts), the decision data's run folder,
training determinism, the weights file's checks, and (seed, index) reproducibility whatever
the chunking or backend."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from analyzer.engines.jass import engine
from analyzer.engines.jass.kernel import play_chunk
from analyzer.engines.jass.records import check_record, trace_record
from analyzer.engines.jass.reference import ReferenceJass
from analyzer.engines.kernel import RunSpec
from analyzer.games.jass.cards import mask_cards
from analyzer.games.jass.primitives import S_POS, legal_mask
from analyzer.games.jass.rules import make_rules
from analyzer.learn import mlp
from analyzer.learn.jass_decisions import play_games, run_decisions
from analyzer.runner import RunOptions, execute
from analyzer.runner.folder import RunFolder
from strategies.jass import learned, search
from strategies.jass import learned_weights as lw
from strategies.jass.dispatch import decide
from strategies.jass.knobs import FAM_LEARNED, P_MODEL
from strategies.jass.play import to_move
from strategies.registry import parse_strategy, seat_strategies


def _position(seed, n, ruleset, moves):
    """Deal ``seed`` and play ``moves`` random legal cards in the engine."""
    work = engine.new_work()
    rng, deck, hands, played, taken, st = work[:6]
    rng[0] = np.uint64(seed)
    engine.start_deal(rng, deck, hands, played, taken, st, np.zeros(4, np.int64), n,
                      ruleset == "swiss", n - 1, 0)
    py = np.random.default_rng(seed)
    for _ in range(moves):
        seat = to_move(st)
        card = int(py.choice(mask_cards(int(legal_mask(hands[seat], st)))))
        engine.play_card(seat, card, hands, played, taken, st)
    return hands, played, taken, st


def _positions(count, seed):
    rnd = np.random.default_rng(seed)
    for k in range(count):
        n = 3 + k % 2
        yield (*_position(int(rnd.integers(2**62)), n, ("seed", "swiss")[k % 4 // 2],
                          int(rnd.integers(0, 36 // n * n - 1))), n)


def _all_features(seat, hand, st, played, taken, legal):
    out = []
    for card in mask_cards(int(legal)):
        f = np.zeros(learned.N_FEATURES)
        learned.features(seat, np.uint64(hand), st, played, taken, card, f, 0)
        out.append(f)
    return np.array(out)


def test_no_peeking_deals_that_agree_on_the_deciders_information_give_the_same_decision():
    """J-11: two deals that agree on the decider's hand and everything public (the cards
    played, by whom, the tricks won, the voids shown) give the same features and card."""
    checked = differ = 0
    rnd = np.random.default_rng(4)
    weights = rnd.normal(size=lw.PHASES * lw.N_PARAMS)
    for k, (hands, played, taken, st, n) in enumerate(_positions(120, 7)):
        seat = to_move(st)
        legal = np.uint64(legal_mask(hands[seat], st))
        state = np.array([k + 1], dtype=np.uint64)
        other = np.zeros(4, np.uint64)
        assert search.sample_world(seat, np.uint64(hands[seat]), st, played, state, other,
                                   np.zeros(8, np.int64), np.zeros(4, np.uint64),
                                   np.zeros(4, np.int64), np.zeros(8, np.uint64))
        differ += any(int(other[p]) != int(hands[p]) for p in range(n))
        a = _all_features(seat, hands[seat], st, played, taken, legal)
        b = _all_features(seat, other[seat], st, played, taken, legal)
        assert np.array_equal(a, b)
        cards = [decide(FAM_LEARNED, np.zeros(8), seat, world.copy(), legal, st.copy(),
                        played.copy(), taken.copy(), np.zeros(1, np.uint64), -1)
                 for world in (hands, other)]
        assert cards[0] == cards[1] and int(legal) >> cards[0] & 1
        kernel = lw.kernel_layout(weights)
        assert learned.choose(seat, hands[seat], legal, st, played, taken, kernel) == \
            learned.choose(seat, other[seat], legal, st, played, taken, kernel)
        checked += 1
    assert checked == 120 and differ > 60  # the other deals really differ


def test_jitted_features_and_choice_agree_with_the_python_twin():
    rnd = np.random.default_rng(3)
    weights = rnd.normal(size=lw.PHASES * lw.N_PARAMS)  # any weights, not just the shipped
    for hands, played, taken, st, _ in _positions(80, 11):
        seat = to_move(st)
        legal = np.uint64(legal_mask(hands[seat], st))
        for card, f in zip(mask_cards(int(legal)),
                           _all_features(seat, hands[seat], st, played, taken, legal),
                           strict=True):
            twin = learned.features_py(seat, hands[seat], st, played, taken, card)
            assert np.allclose(f, twin, rtol=0, atol=1e-12), card
        assert learned.choose(seat, hands[seat], legal, st, played, taken,
                              lw.kernel_layout(weights)) == \
            learned.choose_py(seat, hands[seat], legal, st, played, taken, weights)


def test_the_inputs_choose_skips_are_zero_for_every_card_of_the_phase():
    """learned.ZERO_INPUTS: in a decision of each phase the base inputs it names are 0.0 for
    every legal card (so skipping them leaves every score as the twin's), in positions of
    both rule sets and player counts; and each phase's decisions occur."""
    seen = set()
    for hands, played, taken, st, _ in _positions(600, 21):
        seat = to_move(st)
        legal = np.uint64(legal_mask(hands[seat], st))
        phase = learned.phase_of(st)
        seen.add(phase)
        zero = [d for d in range(learned.BASE) if int(learned.ZERO_INPUTS[phase]) >> d & 1]
        for f in _all_features(seat, hands[seat], st, played, taken, legal):
            assert (f[zero] == 0.0).all(), (phase, zero)
    assert seen == {lw.LEAD, lw.FOLLOW, lw.OPEN}


def test_the_kernels_weights_zero_only_subnormals_and_choose_as_the_files_weights():
    """The kernels play with the file's weights less their subnormal entries
    (learned_file.kernel_weights: subnormal arithmetic is some hundred times slower); the
    shipped file has such entries, and the choices are the twin's under the file's own."""
    from strategies.learned_file import SMALLEST_NORMAL, kernel_weights

    w = np.array([0.0, -0.0, 5e-324, -2e-310, SMALLEST_NORMAL, -SMALLEST_NORMAL, 1e-300, 0.25])
    assert kernel_weights(w).tolist() == [0.0, 0.0, 0.0, 0.0, SMALLEST_NORMAL, -SMALLEST_NORMAL,
                                          1e-300, 0.25]
    assert w[2] == 5e-324  # a copy: the file's weights stay as read
    sub = (lw.WEIGHTS != 0) & (np.abs(lw.WEIGHTS) < SMALLEST_NORMAL)
    # the kernels' layout: in[h, d] (file: h * N_FEATURES + d) at d * HIDDEN + h in each phase
    cut = lw.HIDDEN * lw.N_FEATURES
    back = lw.KERNEL_WEIGHTS.reshape(lw.PHASES, lw.N_PARAMS).copy()
    back[:, :cut] = back[:, :cut].reshape(lw.PHASES, lw.N_FEATURES, lw.HIDDEN).transpose(
        0, 2, 1).reshape(lw.PHASES, cut)
    back = back.reshape(-1)
    assert sub.sum() > 0 and np.array_equal(back[~sub], lw.WEIGHTS[~sub])
    assert not back[sub].any()
    flat = np.random.default_rng(5).normal(size=lw.PHASES * lw.N_PARAMS)
    kernel = lw.kernel_layout(flat)
    for phase, h, d in ((0, 5, 3), (1, 31, 27), (2, 0, 17)):
        at = phase * lw.N_PARAMS
        assert kernel[at + d * lw.HIDDEN + h] == flat[at + h * lw.N_FEATURES + d]
    assert np.array_equal(kernel.reshape(lw.PHASES, -1)[:, cut:],
                          flat.reshape(lw.PHASES, -1)[:, cut:])
    compared = 0
    for hands, played, taken, st, _ in _positions(300, 23):
        seat = to_move(st)
        legal = np.uint64(legal_mask(hands[seat], st))
        if int(legal) & (int(legal) - 1) == 0:
            continue
        for model, weights in ((0.0, lw.WEIGHTS), (lw.MODEL_LEAF, lw.LEAF_WEIGHTS)):
            prm = np.zeros(8)
            prm[P_MODEL] = model
            assert learned.learned_card(prm, seat, hands[seat], legal, st, played, taken) == \
                learned.choose_py(seat, hands[seat], legal, st, played, taken, weights)
        compared += 1
    assert compared > 150


def test_pimcs_value_leaves_finish_their_tricks_with_the_pinned_leaf_network():
    """The value model's leaves (strategies/jass/value.py ``finish_trick``), the search's
    table for ``rollout=value`` and the value model's training play learned-leaf.json's
    network, not learned.json's: the cards finish_trick plays are the Python twin's under
    the leaf's weights, so retraining learned leaves pimc as it is."""
    from strategies.jass import value
    from strategies.jass.knobs import VALUE_ROLLOUT
    from strategies.jass.play import play_card_no_bans

    assert value.LEARNED_PRM[P_MODEL] == lw.MODEL_LEAF
    assert search.ROLLOUT_FAMS[VALUE_ROLLOUT] == FAM_LEARNED
    assert search.ROLLOUT_PRMS[VALUE_ROLLOUT][P_MODEL] == lw.MODEL_LEAF
    checked = 0
    for hands, played, taken, st, _ in _positions(120, 29):
        if st[S_POS] == 0:
            continue
        h, p, t, s = hands.copy(), played.copy(), taken.copy(), st.copy()
        while s[S_POS] != 0:  # the twin: learned-leaf's card, seat by seat, to the trick's end
            seat = to_move(s)
            legal = np.uint64(legal_mask(h[seat], s))
            card = learned.choose_py(seat, h[seat], legal, s, p, t, lw.LEAF_WEIGHTS)
            play_card_no_bans(seat, card, h, p, t, s)
        value.finish_trick(hands, played, taken, st, np.zeros(1, np.uint64))
        assert np.array_equal(hands, h) and np.array_equal(taken, t) and \
            np.array_equal(st, s)
        checked += 1
    assert checked > 60


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("ruleset", ["seed", "swiss"])
def test_engine_matches_reference_with_learned_seats(players, ruleset):
    field = ["learned", "aim-low", "learned-leaf", "re-aim"][:players]
    rules = {"ruleset": ruleset}
    ref = ReferenceJass(make_rules(players, rules), seat_strategies("jass", field, players))
    spec = RunSpec("jass", players, tuple(field), seed=61, rules=rules)
    for i in range(6):
        mine = trace_record(spec, i)
        assert mine == ref.play_match(61, i)
        assert check_record(mine) == []


def test_pimc_with_learned_rollouts_matches_the_reference():
    field = ["pimc:worlds=2,rollout=learned", "learned", "aim-low", "basic"]
    ref = ReferenceJass(make_rules(4, {}), seat_strategies("jass", field, 4))
    spec = RunSpec("jass", 4, tuple(field), seed=62, mode="deals")
    for i in range(3):
        assert trace_record(spec, i) == ref.play_single_deal(62, i)


@pytest.mark.parametrize("mode", ["matches", "deals"])
def test_runs_are_the_same_whatever_the_chunking_or_backend_and_replay_agrees(mode):
    spec = RunSpec("jass", 4, ("learned", "basic", "learned", "aim-low"), seed=12, mode=mode)
    count = 30 if mode == "matches" else 120
    whole = play_chunk(spec, 0, count)
    parts = [play_chunk(spec, s, c) for s, c in [(0, 7), (7, count - 7)]]
    for name in whole:
        assert np.array_equal(whole[name], np.concatenate([p[name] for p in parts])), name
    base = execute(spec, count, 0, RunOptions(backend="serial", chunk_size=count),
                   collect_rows=True).rows
    threads = execute(spec, count, 0, RunOptions(backend="threads", workers=2, chunk_size=9),
                      collect_rows=True).rows
    pd.testing.assert_frame_equal(threads, base, check_exact=True)
    record = trace_record(spec, 5)
    rows = base[base["index"] == 5].sort_values("seat")
    assert list(rows["sticks"]) == record["deals"][-1]["totals"]


def test_the_network_fit_is_deterministic_and_learns_a_ranking():
    """Synthetic decisions whose values are a function of the inputs (plus a per-decision
    offset the fit must ignore): the same data and seed give the same weights bit for bit,
    and the fitted network picks the best candidate far more often than chance."""
    rnd = np.random.default_rng(0)
    true = rnd.normal(size=lw.N_FEATURES)
    rows = []
    for d in range(600):
        offset = rnd.normal() * 5
        for _ in range(4):
            f = rnd.uniform(size=lw.N_FEATURES)
            rows.append({"index": d // 10, "decision": d, "phase": d % lw.PHASES,
                         "value": offset + float(f @ true) ** 2 / 10,
                         **{f"f{i}": f[i] for i in range(lw.N_FEATURES)}})
    frame = pd.DataFrame(rows)
    w = mlp.fit(frame, lw.PHASES, lw.HIDDEN, 5, epochs=150)
    assert w.shape == (lw.PHASES, lw.N_PARAMS)
    # bit for bit on shorter fits (every pass draws its shuffle: a stray draw shows at once)
    short = mlp.fit(frame, lw.PHASES, lw.HIDDEN, 5, epochs=20)
    assert short.tobytes() == mlp.fit(frame.copy(), lw.PHASES, lw.HIDDEN, 5, epochs=20).tobytes()
    assert short.tobytes() != mlp.fit(frame, lw.PHASES, lw.HIDDEN, 6, epochs=20).tobytes()
    hits = 0
    for _, d in frame.groupby("decision"):
        x = d[[f"f{i}" for i in range(lw.N_FEATURES)]].to_numpy()
        phase = int(d["phase"].iloc[0])
        h = lw.HIDDEN * lw.N_FEATURES
        win = w[phase, :h].reshape(lw.HIDDEN, lw.N_FEATURES)
        score = np.maximum(x @ win.T + w[phase, h:h + lw.HIDDEN], 0) @ w[phase, h + lw.HIDDEN:]
        hits += d["value"].to_numpy().argmax() == score.argmax()
    assert hits > 0.6 * 600  # chance: 0.25


def test_decision_data_of_a_tiny_run_are_reproducible_and_train_the_same_weights(tmp_path):
    searcher = parse_strategy("jass", "pimc:worlds=3")
    a = play_games(3, 0, 2, 4, searcher)
    b = play_games(3, 0, 2, 4, searcher)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    frame = pd.DataFrame(a)
    for _, d in frame.groupby(["index", "decision"]):  # one chosen card, of the best value
        assert d["chosen"].sum() == 1 and len(d) >= 2
        assert d.loc[d["chosen"], "value"].iloc[0] == d["value"].max()
    # the recorder plays exactly pimc's game: the reference engine's deal with pimc seats
    ref = ReferenceJass(make_rules(4, {}), seat_strategies("jass", ["pimc:worlds=3"], 4))
    record = ref.play_single_deal(3, 1)
    chosen = frame[(frame["index"] == 1) & frame["chosen"]]
    cards = [c for t in record["deals"][0]["tricks"] for c in t["cards"]]
    assert len(chosen) <= len(cards)
    out = tmp_path / "dec"
    run_decisions(out, 3, 2, 4, searcher, resume=False, progress=False)
    check = RunFolder(out).verify()
    assert not check.damage and check.manifest is not None
    on_disk = pd.concat([pd.read_parquet(p) for _, p in check.parts], ignore_index=True)
    assert np.array_equal(on_disk["value"].to_numpy(), a["value"])
    w1 = mlp.fit(on_disk, lw.PHASES, lw.HIDDEN, 23, epochs=30)
    w2 = mlp.fit(pd.DataFrame(b), lw.PHASES, lw.HIDDEN, 23, epochs=30)
    assert w1.tobytes() == w2.tobytes()


def test_the_shipped_weights_are_valid_small_and_say_where_they_came_from():
    w, doc = lw.load_weights(lw.WEIGHTS_FILE)
    assert lw.WEIGHTS_FILE.stat().st_size <= 2 * 1024 * 1024
    assert np.any(w != 0)
    for key in ("command", "seed", "decisions", "commit"):
        assert key in doc["provenance"], key


@pytest.mark.parametrize(("strategy", "variable"), [
    ("learned", lw.WEIGHTS_ENV), ("pimc:rollout=learned", lw.WEIGHTS_ENV),
    ("learned-leaf", lw.LEAF_ENV), ("pimc", lw.LEAF_ENV), ("learned:model=leaf", lw.LEAF_ENV)])
def test_a_command_naming_learned_with_a_bad_weights_file_stops_in_one_line(tmp_path,
                                                                           strategy, variable):
    """Naming learned, or a search that rolls out with it, stops before any play: never a
    search rolling out with unusable weights; the same for the leaf network pimc's value
    leaves finish their tricks with."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    env = {**os.environ, variable: str(bad)}
    env.pop("CARDLAB_NUMBA_CACHE", None)
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()",
                           "simulate", "jass", "--matches", "10", "-s", strategy],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and "corrupt" in lines[0]


def test_strategies_learned_explains_both_games():
    from typer.testing import CliRunner

    from analyzer.cli import app

    result = CliRunner().invoke(app, ["strategies", "learned"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "A-11" in text and "J-11" in text and "never another hand" in text
    assert text.count("least squares") >= 2 and "cardlab train jass" in text


def test_decision_data_against_a_field_value_one_seat_which_plays_learned(tmp_path):
    """--strategy (DAgger): the searcher values the decisions of seat index mod players only,
    that seat plays learned's card and the others the field's: the deal is the reference
    engine's with learned in that seat; the data are reproducible and the run's plan
    records the field (a run folder of another field is not resumed)."""
    from analyzer.learn.jass_decisions import _Recorder

    searcher = parse_strategy("jass", "pimc:worlds=3")
    field = parse_strategy("jass", "aim-low")
    a = play_games(5, 0, 3, 3, searcher, field)
    b = play_games(5, 0, 3, 3, searcher, field)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    frame = pd.DataFrame(a)
    assert set(frame["index"]) == {0, 1, 2}
    assert (frame["seat"] == frame["index"] % 3).all()
    rows: dict = {name: [] for name in frame.columns[:9]}
    rows["features"] = []
    recorder = _Recorder(make_rules(3, {}), searcher, rows, field)
    for index in range(3):
        seats = ["learned" if s == index % 3 else "aim-low" for s in range(3)]
        plain = ReferenceJass(make_rules(3, {}), seat_strategies("jass", seats, 3))
        assert recorder.play_deal(5, index)["deals"] == plain.play_single_deal(5, index)["deals"]
    assert (frame.groupby(["index", "decision"])["chosen"].sum() == 1).all()  # pimc's card
    run_decisions(tmp_path / "d", 5, 2, 3, searcher, resume=False, progress=False, field=field)
    assert RunFolder(tmp_path / "d").read_plan()["field"] == field.definition()
    with pytest.raises(Exception, match="other|differ|plan"):
        run_decisions(tmp_path / "d", 5, 2, 3, searcher, resume=True, progress=False,
                      field=parse_strategy("jass", "aim-high"))


def test_decisions_and_train_refuse_bad_jass_input_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from analyzer.cli import app

    runner = CliRunner()
    for args, words in (
        (["decisions", "jass", "--out", str(tmp_path / "a"), "--players", "5"], "--players"),
        (["decisions", "jass", "--out", str(tmp_path / "b"), "--searcher", "aim-low"],
         "--searcher must be pimc"),
        (["decisions", "jass", "--out", str(tmp_path / "a"), "-s", "pimc"],
         "--strategy must be a strategy that does not search"),
        (["decisions", "ass", "--out", str(tmp_path / "a"), "--strategy", "pimc"],
         "--strategy must be a strategy that does not search"),
        (["decisions", "jass", "--out", str(tmp_path / "a"), "-s", "nobody"],
         "nobody"),
        (["train", "jass", "--out", str(tmp_path / "c"), "--players", "3,6"], "--players"),
        (["train", "jass", "--out", str(tmp_path / "d"), "--seed", "9925"], "--eval-seed"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert words in result.output, (args, result.output)
        assert not any((tmp_path / x).exists() for x in "abcd")


def test_train_from_decision_runs_is_deterministic(tmp_path):
    from typer.testing import CliRunner

    from analyzer.cli import app

    run_decisions(tmp_path / "dec", 8, 3, 3, parse_strategy("jass", "pimc:worlds=3"),
                  resume=False, progress=False)
    runner = CliRunner()
    outs = []
    for name in ("a", "b"):
        result = runner.invoke(app, ["train", "jass", "--out", str(tmp_path / name), "-q",
                                     "--from", str(tmp_path / "dec")])
        assert result.exit_code == 0, result.output
        w, doc = lw.load_weights(tmp_path / name / "learned.json")
        assert "--from" in doc["provenance"]["command"] and doc["provenance"]["decisions"] > 10
        outs.append(w)
    assert outs[0].tobytes() == outs[1].tobytes()

"""Issue 42, items 5, 7, 12, 14, 18 and 20: hand-edited records, lenient numbers, tracebacks,
options that were silently ignored, value intervals outside their measure's range, and the
message of a damaged weights file. Each test names its item."""

from __future__ import annotations

import json
import shlex

import pytest
import typer
from cli_check import one_error


def _numeric_options():
    """(command path, option, kind) of every int or float option of every command, found
    by walking the click tree typer builds (so a command added later is walked too)."""
    from analyzer.cli import app

    out = []

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*path, name])
            return
        for p in cmd.params:
            td = getattr(p, "type_descriptor", None)
            text = str(getattr(td, "annotation", ""))
            if getattr(p, "is_flag", False) or not p.opts:
                continue
            if td is not None and (td.annotation in (int, float) or "int" in text
                                   or "float" in text):
                out.append((tuple(path), p.opts[0], "float" if "float" in text else "int"))

    walk(typer.main.get_command(app), [])
    return out


NUMERIC = _numeric_options()


def test_safety2_item07_the_walk_finds_the_numeric_options():
    found = {(" ".join(p), o) for p, o, _ in NUMERIC}
    assert ("simulate ass", "--games") in found and ("analyze ass", "--worlds") in found
    assert ("study compare", "--margin") in found and ("tune", "--alpha") in found
    assert len(found) > 60


@pytest.mark.parametrize("bad", ["1_0", "１", "٣", " 3", "3 "])
def test_safety2_item07_every_numeric_option_reads_ascii_digits_only(cli, bad):
    """Every int and float option of every command refuses underscores, full-width and other
    non-ASCII digits and spaces (Python's int() and float() read them all) in one line."""
    wrong = []
    for path, opt, _ in NUMERIC:
        code, out, err = cli(*path, opt, bad)
        lines = err.strip().splitlines()
        if code != 2 or not lines or not lines[0].startswith("error: ") or opt not in lines[0]:
            wrong.append((" ".join(path), opt, code, err.strip()[:200]))
    assert wrong == []


def test_safety2_item07_whole_number_options_refuse_fractions_and_floats_underflow(cli):
    code, _, err = cli("replay", "ass", "--seed", "1", "--index", "3.0")
    assert code == 2
    one_error(err, "--index")
    for value in ("1e-400", "1e400", "1_0.5", "０.5"):
        code, _, err = cli("study", "compare", "--game", "ass", "-s", "basic", "-s", "random",
                           "--alpha", value)
        assert code == 2, value
        one_error(err, "--alpha")
    code, _, err = cli("study", "compare", "--game", "ass", "-s", "basic", "-s", "random",
                       "--alpha", "1e-400")
    assert "too small" in err


@pytest.mark.parametrize(("args", "text"), [
    (["--sizes", "3,4,5,6_0"], "--sizes"),
    (["--sizes", "3,4,５,6"], "--sizes"),
    (["--sizes", "3,4,5,6", "--totals", "３,0,0,0", "--game", "2/4"], "--totals"),
    (["--sizes", "3,4,5,6", "--totals", "1_0,0,0,0", "--game", "2/4"], "--totals"),
    (["--sizes", "3,4,5,6", "--totals", "0,0,0,0", "--game", "２/4"], "--game"),
    (["--sizes", "3,4,5,6", "--totals", "0,0,0,0", "--game", "1/4_0"], "--game"),
    (["--sizes", "3,4,5,6", "--known", "２:A"], "--known"),
])
def test_safety2_item07_list_options_read_every_item_strictly(cli, args, text):
    code, _, err = cli("analyze", "ass", "--hand", "1 2 3", "--seat", "0", *args)
    assert code == 2, err
    one_error(err, text)


def test_safety2_item07_jass_sticks_and_ties_read_strictly(cli):
    hand = "B6 B7 B8 B9 B10 BU BO BK BA"
    for args in (["--sticks", "1,0,０,0"], ["--sticks", "1_0,0,0,0"], ["--ties", "０-1"]):
        code, _, err = cli("analyze", "jass", "--hand", hand, *args)
        assert code == 2, (args, err)
        one_error(err, args[0])


def test_safety2_item07_repeated_keys_are_refused(cli, tmp_path):
    code, _, err = cli("study", "ladder", "--game", "ass", "--margin", "ass=1,ass=2",
                       "-o", tmp_path / "o", "--no-progress")
    assert code == 2
    one_error(err, "given twice")
    code, _, err = cli("study", "ladder", "--game", "ass", "--margin", "1e-400",
                       "-o", tmp_path / "o", "--no-progress")
    assert code == 2
    one_error(err, "--margin")
    code, _, err = cli("study", "ladder", "--game", "ass", "--players", "3,1_0",
                       "-o", tmp_path / "o", "--no-progress")
    assert code == 2
    one_error(err, "--players")
    assert not (tmp_path / "o").exists()


def test_safety2_item07_the_number_parser():
    from analyzer.numbers import NumberError, parse_float, parse_int, parse_pairs

    assert parse_int("-12") == -12 and parse_int(7) == 7
    assert parse_float("1e-3") == 0.001 and parse_float(".5") == 0.5
    assert parse_float("0e-400") == 0.0  # a zero written as zero stays zero
    for bad in ("1_0", "１", "٣", "+", "", "0x10", "1.0", " 1", "1e3"):
        with pytest.raises(NumberError):
            parse_int(bad)
    for bad in ("1e-400", "1e400", "1_0", "１.5", "0x1p3", ""):
        with pytest.raises(NumberError):
            parse_float(bad)
    assert parse_pairs("a=1,b=2", "--x") == {"a": 1.0, "b": 2.0}
    with pytest.raises(NumberError, match="twice"):
        parse_pairs("a=1,a=2", "--x")


@pytest.mark.parametrize("game", ["ass", "jass"])
@pytest.mark.parametrize(("value", "word"), [(float("nan"), "NaN"), (float("inf"), "infinite")])
def test_safety2_item20_a_non_finite_weight_is_named_by_row_and_column(tmp_path, game, value,
                                                                       word):
    """A weights file with NaN in it said "holds weights of shape (3, 54), not (3, 54) finite
    numbers": the shape was right, what was wrong went unsaid."""
    import numpy as np

    from strategies.ass import learned_weights as ass_weights
    from strategies.jass import learned_weights as jass_weights

    model = {"ass": ass_weights.MODEL, "jass": jass_weights.MODEL}[game]
    doc = model.document(np.zeros(model.phases * model.n_features), {"command": "test"})
    doc["weights"][1][2] = value
    doc["weights"][1][4] = value
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError) as err:
        model.load(path)
    message = str(err.value)
    assert f"{word}" in message and "row 1, column 2" in message and "1 more" in message
    assert str(path) in message and "\n" not in message
    assert f"({model.phases}, {model.n_features})" not in message


@pytest.mark.parametrize(("args", "words"), [
    (["--hand", "1 2 3", "--sizes", "3,4,5,6", "--just-took-ass"], "--just-took-ass"),
    (["--hand", "1 2 A", "--sizes", "4,3,5,6", "--round", "5", "--seat", "1",
      "--just-took-ass"], "--just-took-ass"),
])
def test_safety2_item14_just_took_ass_needs_the_ass_and_the_lead(cli, args, words):
    code, _, err = cli("analyze", "ass", *args)
    assert code == 2, err
    one_error(err, words)


def test_safety2_item14_sticks_of_a_match_already_won_are_refused(cli):
    hand = "B6 B7 B8 B9 B10 BU BO BK BA"
    code, _, err = cli("analyze", "jass", "--hand", hand, "--sticks", "100,0,0,0")
    assert code == 2
    one_error(err, "already over")
    code, _, err = cli("analyze", "jass", "--hand", hand, "--sticks", "7,6,0,0")
    assert code == 2
    one_error(err, "J-10")


@pytest.mark.parametrize("game", ["ass", "jass"])
@pytest.mark.parametrize(("args", "words"), [
    (["--worlds", "5"], "--worlds applies with --analyze"),
    (["--analysis-seed", "3"], "--analysis-seed applies with --analyze"),
    (["--format", "json"], "--format applies with --analyze"),
    (["--seat", "1"], "--seat applies with --analyze"),
    (["--analyze", "--analysis-seed", "-3"], "--analysis-seed must be"),
])
def test_safety2_item14_analysis_options_without_analyze_are_refused_alike(cli, game, args,
                                                                            words):
    code, out, err = cli("replay", game, "--seed", "1", "--index", "0", *args)
    assert code == 2 and out == "", err
    one_error(err, words)


def test_safety2_item14_train_from_refuses_the_options_of_rounds(cli, tmp_path):
    (tmp_path / "dec").mkdir()
    for option, value in (("--rounds", "5"), ("--games", "10"), ("--worlds", "8"),
                          ("--eval-seed", "3")):
        code, _, err = cli("train", "ass", "--from", tmp_path / "dec", "--out",
                           tmp_path / "t", option, value)
        assert code == 2, err
        one_error(err, f"{option} applies to training rounds")
    assert not (tmp_path / "t").exists()


def test_safety2_item18_intervals_stay_inside_the_range_the_description_declares():
    """Minus points are never below 0 (``analyze --worlds 2`` showed -72..86), card points lie
    in [0, 157], a chance in [0, 1]; the ranges are read from the games' descriptions."""
    import numpy as np

    from analyzer.analysis.values import MIN_INTERVAL_WORLDS, move_rows, value_ranges
    from analyzer.games import registry

    ass_range = next(c for m in registry.get("ass").modes for c in m.columns
                     if c.name == "minus_points")
    assert value_ranges("ass")[""] == (ass_range.low, ass_range.high) == (0, 818)
    assert value_ranges("jass", {"points": None})["points"] == (0, 157)
    worlds = MIN_INTERVAL_WORLDS
    skewed = np.zeros((worlds, 2), dtype=np.int64)
    skewed[:3, 0] = 300  # mostly 0, a few very bad endings: a t interval reaches below 0
    skewed[:, 1] = 1
    wins = np.zeros((worlds, 2))
    wins[0, :] = 1.0
    rows = move_rows("ass", skewed, ["a", "b"], None, {"win": wins})
    for row in rows:
        assert row["low"] >= 0 and row["win_low"] >= 0 and row["win_high"] <= 1, row
    high_points = np.full((worlds, 2), 157, dtype=np.int64)
    high_points[:2, 0] = 0
    rows = move_rows("jass", np.zeros((worlds, 2)), ["x", "y"], None, {"points": high_points})
    assert all(r["points_high"] <= 157 and r["points_low"] >= 0 for r in rows), rows


def test_safety2_item18_too_few_worlds_give_no_interval():
    import numpy as np

    from analyzer.analysis.values import MIN_INTERVAL_WORLDS, move_rows

    same = np.full((2, 2), 5, dtype=np.int64)  # two worlds that agree: no zero-width interval
    rows = move_rows("ass", same, ["a", "b"], None)
    assert all(r["low"] is None and r["high"] is None and r["diff_low"] is None for r in rows)
    rows = move_rows("ass", np.full((MIN_INTERVAL_WORLDS, 2), 5), ["a", "b"], None)
    assert rows[0]["low"] == 5


def test_safety2_item18_analyze_says_too_few_worlds(cli):
    args = ("analyze", "ass", "--hand", "3 3 8 J", "--players", "4", "--sizes", "4,6,5,9",
            "--gone", "1 1 2", "--known", "3:A", "--worlds", "2")
    code, out, err = cli(*args)
    assert code == 0, err
    assert "too few worlds for an interval" in out
    code, out, err = cli(*args, "--format", "json")
    result = json.loads(out)
    assert "too few worlds" in result["position"]["intervals"]
    assert all(r["low"] is None for r in result["moves"])


# --- item 5: a record from a file is replayed through the rules before it is analyzed ------


def _ass_record(n=4, index=0):
    from analyzer.engines.ass.reference import play_record
    from strategies.registry import parse_strategy

    return play_record(1, index, [parse_strategy("ass", "basic")] * n)


def _jass_record():
    from analyzer.engines.jass.reference import ReferenceJass
    from analyzer.games.jass.rules import make_rules
    from strategies.registry import parse_strategy

    return ReferenceJass(make_rules(4, {}), [parse_strategy("jass", "basic")] * 4).play_match(1, 0)


def _under_the_high(record):
    """(round, play, seat, value, k): a play into a normal round by a seat that holds k cards
    of a value not above the round's high so far (a legal record never plays them there)."""
    from analyzer.engines.ass.positions import state_at

    for r, rnd in enumerate(record["rounds"]):
        if rnd["ass_round"]:
            continue
        for p, play in enumerate(rnd["plays"][1:], start=1):
            state = state_at(record, r, p)
            hand = state["hands"][play["seat"]]
            for v in range(1, state["high"] + 1):
                if v <= 13 and hand[v] >= state["k"]:
                    return r, p, play["seat"], v, state["k"]
    raise AssertionError("no such play")


def _edit(name):
    record = _ass_record()
    if name == "nine-jokers":
        record["hands"][0] = ["J"] * 9 + record["hands"][0][9:]
        return record, "hands", "A-1"
    if name == "low-on-high":
        r, p, seat, v, k = _under_the_high(record)
        record["rounds"][r]["plays"][p] = {"seat": seat, "cards": [str(v)] * k}
        return record, f"round {r}, play {p}", "A-6"
    if name == "never-held":
        rnd = record["rounds"][1]
        seat = rnd["plays"][0]["seat"]
        held = set(record["hands"][seat])
        missing = next(str(v) for v in range(13, 0, -1) if str(v) not in held)
        rnd["plays"][0] = {"seat": seat, "cards": [missing]}
        return record, "round 1, play 0", "A-2"
    if name == "seat-7":
        record["rounds"][1]["plays"][1]["seat"] = 7
        return record, "round 1, play 1", "A-3"
    if name == "wrong-starter":
        record["rounds"][0]["starter"] = (record["rounds"][0]["starter"] + 1) % 4
        return record, "round 0", "A-8"
    if name == "99-players":
        record["players"] = 99
        return record, "players", "A-2"
    raise AssertionError(name)


@pytest.mark.parametrize("name", ["nine-jokers", "low-on-high", "never-held", "seat-7",
                                  "wrong-starter", "99-players"])
def test_safety2_item05_an_illegal_ass_record_names_its_first_illegal_step(cli, tmp_path, name):
    record, step, ruling = _edit(name)
    path = tmp_path / "games.jsonl"
    path.write_text("\n" + json.dumps(record) + "\n")  # the record is on line 2
    code, out, err = cli("analyze", "ass", "--record", path, "--move", "40")
    assert code == 2 and out == "", err
    one_error(err, "line 2")
    assert step in err and f"({ruling})" in err, err


@pytest.mark.parametrize(("name", "step", "ruling"), [
    ("two-hands", "deal 0 hands", "J-1"), ("leader-9", "deal 0 trick 2", "J-4"),
    ("first-leader", "deal 0 trick 0", "J-3")])
def test_safety2_item05_an_illegal_jass_record_names_its_first_illegal_step(cli, tmp_path, name,
                                                                           step, ruling):
    record = _jass_record()
    deal = record["deals"][0]
    if name == "two-hands":
        deal["hands"][1][0] = deal["hands"][0][0]
    elif name == "leader-9":
        deal["tricks"][2]["leader"] = 9
    else:
        deal["tricks"][0]["leader"] = (deal["tricks"][0]["leader"] + 1) % 4
    path = tmp_path / "matches.jsonl"
    path.write_text(json.dumps(record) + "\n")
    code, out, err = cli("analyze", "jass", "--record", path, "--move", "20")
    assert code == 2 and out == "", err
    one_error(err, "line 1")
    assert step in err and f"({ruling})" in err, err


def test_safety2_item05_unreadable_record_files_are_one_line(cli, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps(_ass_record()).encode() + b"\n\xff\xfe{}\n")
    code, _, err = cli("analyze", "ass", "--record", path, "--move", "3")
    assert code == 2
    one_error(err, "line 2 is not UTF-8")
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    code, _, err = cli("analyze", "ass", "--record", path, "--move", "3")
    assert code == 2
    one_error(err, "line 1 is not JSON")
    record = _ass_record()
    del record["rounds"][2]["winner"]
    path.write_text(json.dumps(record) + "\n")
    code, _, err = cli("analyze", "ass", "--record", path, "--move", "3")
    assert code == 2
    one_error(err, "not a game record")


def test_safety2_item05_every_legal_reference_record_passes_the_replay():
    from analyzer.engines.ass.records import first_illegal
    from analyzer.engines.ass.reference import play_match_record
    from analyzer.engines.jass.records import first_illegal as jass_first
    from strategies.registry import parse_strategy

    for n in (3, 4, 9, 12):
        for i in range(3):
            assert first_illegal(_ass_record(n, i)) is None
            match = play_match_record(2, i, [parse_strategy("ass", "random")] * n)
            assert first_illegal(match) is None
    assert jass_first(_jass_record()) is None


def _typed_line(out: str, game: str) -> list[str]:
    line = next(x for x in out.splitlines() if x.startswith("Typed by hand: "))
    args = shlex.split(line[len("Typed by hand: "):])
    assert args[:3] == ["cardlab", "analyze", game]
    return args[1:]


@pytest.mark.parametrize("source", ["game", "match", "jass"])
def test_safety2_item05_the_typed_by_hand_line_is_accepted_when_typed(cli, tmp_path, source):
    """The "Typed by hand" line a recorded position prints runs as printed (a new ass round,
    the round after taking the ass, a match's totals, Jass sticks)."""
    from analyzer.engines.ass.reference import play_match_record
    from strategies.registry import parse_strategy

    path = tmp_path / "r.jsonl"
    if source == "jass":
        record, game, extra = _jass_record(), "jass", ["--deal", "1"]
        moves = [0, 5, 13, 30]
    else:
        record = _ass_record() if source == "game" else play_match_record(
            1, 0, [parse_strategy("ass", "basic")] * 4)
        game, extra = "ass", ([] if source == "game" else ["--game-in-match", "2"])
        rounds = record["rounds"] if source == "game" else record["games"][2]["rounds"]
        starts = [sum(len(r["plays"]) for r in rounds[:k]) for k in range(len(rounds))]
        after_ass = [starts[k + 1] for k in range(len(rounds) - 1) if rounds[k]["ass_round"]]
        assert after_ass  # the taker of the ass leads next (--just-took-ass)
        moves = [0, 1, 4, 9, *after_ass[:2]]
    path.write_text(json.dumps(record) + "\n")
    for move in moves:
        code, out, err = cli("analyze", game, "--record", path, "--move", str(move), *extra,
                             "--worlds", "2")
        assert code == 0, (move, err)
        typed = _typed_line(out, game)
        code, again, err = cli(*typed, "--worlds", "2")
        assert code == 0, (typed, err)
        # the position line, after the recommendation and the model line
        assert again.splitlines()[2] == out.splitlines()[2], (again, out)


def test_safety2_item07_rules_options_read_numbers_strictly_and_once(cli, tmp_path):
    """--rule values are numbers like any other: games_per_match=1_0 was 10, and
    deal_cap=3 was refused as the text '3'."""
    ass = ("study", "compare", "--game", "ass", "-s", "basic", "-s", "random", "--players",
           "4", "--matches", "2", "-o", tmp_path / "o", "--no-progress")
    for rules in (["--rule", "games_per_match=1_0"], ["--rule", "games_per_match=３"],
                  ["--rule", "games_per_match=3", "--rule", "games_per_match=4"]):
        code, _, err = cli(*ass, *rules)
        assert code == 2, (rules, err)
        one_error(err, "games_per_match")
    assert not (tmp_path / "o").exists()
    code, _, err = cli("study", "compare", "--game", "jass", "-s", "basic", "-s", "random",
                       "--players", "4", "--matches", "2", "-o", tmp_path / "j",
                       "--no-progress", "--rule", "deal_cap=3")
    assert code == 0, err


def test_safety2_item12_a_deeply_nested_weights_file_is_corrupt_not_a_recursion_error(tmp_path):
    from strategies.ass import learned_weights

    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="is corrupt"):
        learned_weights.MODEL.load(path)


@pytest.mark.parametrize("knob", ["heuristic:chase=1e-400", "heuristic:keep=1_0",
                                  "pimc:worlds=１６", "pimc:worlds=16,worlds=32"])
def test_safety2_item07_strategy_knobs_read_numbers_as_the_options_do(knob):
    """A knob's number on the command line goes through the same parser: 1e-400 is not 0."""
    from strategies.registry import StrategyError, parse_strategy

    with pytest.raises(StrategyError) as info:
        parse_strategy("ass", knob)
    assert "\n" not in str(info.value)

"""Issue 42, items 5, 7, 12, 14, 18 and 20: hand-edited records, lenient numbers, tracebacks,
options that were silently ignored, value intervals outside their measure's range, and the
message of a damaged weights file. Each test names its item."""

from __future__ import annotations

import json

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

"""cardlab analyze: every malformed typed position listed in docs/analyzing.md gets its one
line naming what is wrong, exit status 2, before any work; and the commands' output."""

from __future__ import annotations

import json

import pytest
from cli_check import one_error

ASS = ["analyze", "ass", "--players", "4"]
JASS = ["analyze", "jass", "--players", "4"]
HAND8 = "B6 B9 S10 SU R7 A6 AU AA"

# (arguments, the words the one line must hold): the list of docs/analyzing.md
BAD = [
    (ASS + ["--hand", "3 X", "--sizes", "2,5,5,5"], "unknown card 'X'"),
    (ASS + ["--hand", "7 7 7", "--sizes", "3,5,5,5", "--gone", "7 7 7 7 7 7"],
     "a card shown too often: 7s 9 times"),
    (ASS + ["--hand", "3 A", "--sizes", "2,5,5,5", "--known", "1:A"],
     "a card shown too often: the ass 2 times"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5"], "4 hand sizes (0 or more) are needed"),
    (ASS + ["--hand", "3 3", "--sizes", "3,5,5,5"], "gives seat 0 3 cards but --hand holds 2"),
    (ASS + ["--hand", "3 3", "--sizes", "2,60,40,10"], "hand sizes that cannot be"),
    (ASS + ["--hand", "3 3"], "give --sizes"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--known", "1:3 3 3", "--known", "2:x"],
     "unknown card 'x'"),
    (ASS + ["--hand", "3 3", "--sizes", "2,2,5,5", "--known", "1:5 5 5"],
     "seat 1 is known to hold 3 cards but holds 2"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--known", "0:A"], "another player's"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "7 8"], "mixes values"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "9 / 7"], "does not beat the 9"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "9 9 / 10"],
     "has 1 cards; the lead fixed 2"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "A / pass"],
     "nobody passes in an ass round"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "A / J=5"],
     "a joker is declared 1 or 14"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "pass"],
     "the starter must lead"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "5 / A"],
     "the ass is played alone, as the lead"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--round", "5 / 6 / 7 / 8"],
     "at most 3 before the player to move"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--gone", "A"],
     "the ass never leaves the game"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,0,5"], "the game is over (A-9)"),
    (["analyze", "ass", "--players", "13", "--hand", "3"], "--players must be 3 to 12"),
    (ASS + ["--seat", "4", "--hand", "3"], "--seat must be 0 to 3"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--game", "5/4"], "--game '5/4'"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--totals", "1,2"], "--totals '1,2'"),
    (ASS + ["--sizes", "2,5,5,5"], "--sizes describes a typed position: give --hand too"),
    (["analyze", "ass"], "give a position"),
    (["analyze", "ass", "--record", "nosuch.jsonl"], "--move K is needed"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--worlds", "0"], "--worlds must be 1 to"),
    (ASS + ["--hand", "3 3", "--sizes", "2,5,5,5", "--format", "xml"],
     "--format must be table or json"),
    (JASS + ["--hand", "Z9 B6"], "unknown card 'Z9'"),
    (JASS + ["--hand", "B6 B6"], "a card shown twice: B6"),
    (JASS + ["--hand", HAND8, "--tricks", "R10 RK R6 RA / R10"], "a card shown twice: R10"),
    (JASS + ["--hand", HAND8, "--tricks", "R10 AA"], "is in --hand and in --tricks"),
    (JASS + ["--hand", HAND8, "--tricks", "R10 RK / B6"], "every trick but the last has 4"),
    (JASS + ["--hand", "B6 B9 S10"], "--hand holds 3 cards"),
    (JASS + ["--hand", HAND8, "--tricks", "R10 RK R6 RA", "--seat", "2"],
     "seat 3 is to play, not --seat 2"),
    (JASS + ["--hand", HAND8, "--tricks", "R10 RK R6 RA", "--trump", "R"],
     "the tricks fix none as trump"),
    (JASS + ["--hand", HAND8, "--tricks", "R10 B7 R6 RA / RO"], "proved it does not hold"),
    (JASS + ["--hand", "B6 B9 S10 SU R7 AU AA", "--tricks", "R10 RK R6 RA / B7 A7 B8 B10"],
     "illegal for you"),
    (["analyze", "jass", "--players", "5", "--hand", "B6"], "--players must be 3 or 4"),
    (JASS + ["--hand", HAND8, "--ties", "0-0"], "--ties '0-0'"),
    (JASS + ["--hand", HAND8, "--sticks", "1,2"], "--sticks '1,2'"),
    (JASS + ["--hand", HAND8, "--ruleset", "french"], "--ruleset must be seed or swiss"),
    (JASS + ["--tricks", "R10"], "--tricks describes a typed position"),
]


@pytest.mark.parametrize("args,message", BAD, ids=[m for _, m in BAD])
def test_malformed_positions_get_one_line_and_status_2(cli, args, message):
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    one_error(err, message, hint=False)


def test_every_listed_error_is_in_the_docs():
    """docs/analyzing.md lists the checks these tests make."""
    from pathlib import Path

    text = " ".join((Path(__file__).parents[1] / "docs" / "analyzing.md").read_text().split())
    for words in ("unknown card", "a card shown too often", "hand sizes that cannot be",
                  "does not beat", "nobody passes in an ass round", "a card shown twice",
                  "proved it does not hold", "illegal for you", "is to play, not --seat"):
        assert words in text, words


def test_analyze_json_has_the_issue_shape(cli):
    code, out, _ = cli(*ASS, "--hand", "3 3 8 J", "--sizes", "4,6,5,9", "--known", "3:A",
                       "--worlds", "200", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"recommendation", "model", "position", "moves"}
    keys = {"move", "value", "low", "high", "diff", "diff_low", "diff_high", "best"}
    assert all(keys <= set(m) for m in result["moves"])
    assert sum(m["best"] for m in result["moves"]) == 1
    values = [m["value"] for m in result["moves"]]
    assert values == sorted(values)  # minus points: best (fewest) first
    code, out, _ = cli(*JASS, "--hand", HAND8, "--tricks", "R10 RK R6 RA", "--worlds", "200",
                       "--format", "json")
    values = [m["value"] for m in json.loads(out)["moves"]]
    assert code == 0 and values == sorted(values, reverse=True)  # sticks: most first


def test_positions_from_run_folders(cli, tmp_path):
    """--from RUN: the run's own game (its players, strategies, seed), checked first."""
    run = tmp_path / "ass"
    assert cli("simulate", "ass", "-p", "3", "--games", "4", "--seed", "5", "-s", "basic",
               "--out", run, "-q")[0] == 0
    code, out, _ = cli("analyze", "ass", "--from", run, "--index", "2", "--move", "4",
                       "--worlds", "100", "--format", "json")
    assert code == 0
    position = json.loads(out)["position"]
    assert position["record_index"] == 2 and position["move"] == 4
    assert position["players"] == 3 and position["record_seed"] == 5
    code, _, err = cli("analyze", "ass", "--from", run, "--index", "9", "--move", "4")
    assert code == 2 and "outside the run" in err
    code, _, err = cli("analyze", "jass", "--from", run, "--index", "1", "--move", "4")
    assert code == 2 and "is of ass, not jass" in err
    code, _, err = cli("analyze", "ass", "--from", run, "--index", "1", "--move", "999")
    assert code == 2 and "--move 999 is outside the game" in err
    code, out, _ = cli("replay", "--from", run, "--index", "1", "--analyze", "--worlds", "50",
                       "--seat", "1")
    assert code == 0 and "Summary (lost to clear errors):\n  seat 1:" in out


def test_a_broken_record_file_is_one_line(cli, tmp_path):
    f = tmp_path / "r.jsonl"
    f.write_text('{"game": "ass", "players": 4}\n')
    code, _, err = cli("analyze", "ass", "--record", f, "--move", "0")
    assert code == 2
    one_error(err, "not a game record as docs/game-records.md describes it", hint=False)
    f.write_text("not json\n")
    code, _, err = cli("analyze", "jass", "--record", f, "--move", "0")
    assert code == 2 and "line 1 is not JSON" in err


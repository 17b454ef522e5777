"""Plus-Minus Jass game records: shape, round trip through the CLI, and the rules check."""

import copy
import json

import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.engines.jass.records import (
    check_record,
    replays_identically,
    spec_of_record,
    trace_record,
)
from analyzer.engines.kernel import RunSpec

runner = CliRunner()


def test_record_has_the_documented_shape():
    rec = trace_record(RunSpec("jass", 4, ("adaptive", "basic", "random", "aim-low"), seed=7), 0)
    for key in ("game", "version", "seed", "index", "players", "strategies", "rules", "deals",
                "winner"):
        assert key in rec
    assert rec["game"] == "jass" and rec["version"] == 1 and rec["players"] == 4
    assert rec["rules"] == {"ruleset": "seed", "deal_cap": 200}
    deal = rec["deals"][0]
    for key in ("dealer", "hands", "tricks", "trump", "points", "sticks", "totals"):
        assert key in deal
    assert all(len(h) == 9 for h in deal["hands"])
    assert deal["hands"][0] == sorted(deal["hands"][0], key=lambda c: (
        "BSRA".index(c[0]), ["6", "7", "8", "9", "10", "U", "O", "K", "A"].index(c[1:])))
    trick = deal["tricks"][0]
    assert set(trick) == {"leader", "cards", "winner"} and len(trick["cards"]) == 4
    assert deal["trump"] in ("B", "S", "R", "A")
    assert rec["deals"][-1]["totals"][rec["winner"]] >= 7
    json.loads(json.dumps(rec))


def test_export_read_back_replay_round_trip(tmp_path):
    out = tmp_path / "m.jsonl"
    args = ["export", "jass", "--seed", "12", "--matches", "6", "--out", str(out),
            "--players", "3", "--ruleset", "swiss", "--start", "4",
            "--strategy", "aim-high", "--strategy", "random", "--strategy", "heuristic:fight=0"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind
    lines = out.read_text().splitlines()
    assert len(lines) == 6
    for k, line in enumerate(lines):
        rec = json.loads(line)
        assert rec["index"] == 4 + k and rec["rules"]["ruleset"] == "swiss"
        assert check_record(rec) == []
        assert replays_identically(rec)
        assert trace_record(spec_of_record(rec), rec["index"]) == rec
        shown = runner.invoke(app, ["replay", "jass", "--seed", "12", "--index", str(4 + k),
                                    "--players", "3", "--ruleset", "swiss",
                                    "--strategy", "aim-high", "--strategy", "random",
                                    "--strategy", "heuristic:fight=0"])
        assert shown.exit_code == 0 and json.loads(shown.output) == rec


def test_deals_mode_records(tmp_path):
    out = tmp_path / "d.jsonl"
    result = runner.invoke(app, ["export", "jass", "--seed", "3", "--matches", "4", "--out",
                                 str(out), "--mode", "deals"])
    assert result.exit_code == 0, result.output
    for line in out.read_text().splitlines():
        rec = json.loads(line)
        assert rec["mode"] == "deals" and len(rec["deals"]) == 1 and rec["winner"] is None
        assert rec["deals"][0]["dealer"] == 3 and check_record(rec) == []


def test_pretty_replay_reads_like_a_match():
    result = runner.invoke(app, ["replay", "jass", "--seed", "5", "--index", "2", "--pretty"])
    assert result.exit_code == 0
    text = result.output
    assert "Deal 1, seat" in text and "trick  1:" in text and "wins after" in text


def test_cli_rejects_bad_input(tmp_path):
    bad = [
        ["replay", "jass", "--seed", "1", "--index", "-1"],
        ["replay", "jass", "--seed", "1", "--index", "0", "--players", "5"],
        ["replay", "jass", "--seed", "1", "--index", "0", "--strategy", "nope"],
        ["export", "jass", "--seed", "1", "--matches", "0", "--out", str(tmp_path / "x")],
        ["export", "jass", "--seed", "1", "--matches", "1", "--out",
         str(tmp_path / "missing" / "x.jsonl")],
    ]
    for args in bad:
        result = runner.invoke(app, args)
        assert result.exit_code != 0, args


@pytest.mark.parametrize("damage", ["card", "winner", "points", "sticks", "totals", "trump",
                                    "match_winner"])
def test_check_record_finds_damage(damage):
    rec = trace_record(RunSpec("jass", 4, ("random",), seed=8), 1)
    assert check_record(rec) == []
    bad = copy.deepcopy(rec)
    deal = bad["deals"][0]
    if damage == "card":  # swap two cards of different suits within a later trick
        t = deal["tricks"][3]
        t["cards"][0], t["cards"][1] = t["cards"][1], t["cards"][0]
    elif damage == "winner":
        deal["tricks"][0]["winner"] = (deal["tricks"][0]["winner"] + 1) % 4
    elif damage == "points":
        deal["points"][0] += 1
        deal["points"][1] -= 1
    elif damage == "sticks":
        deal["sticks"][0] += 1
    elif damage == "totals":
        deal["totals"][2] += 1
    elif damage == "trump":
        deal["trump"] = "B" if deal["trump"] != "B" else "S"
    else:
        bad["winner"] = (bad["winner"] + 1) % 4
    assert check_record(bad) != [], damage

"""Game records: the replay and export commands, the records format, replay checks."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.engines.ass.records import replay_matches, verify_record
from analyzer.games.ass.cards import RECORD_ORDER, card_kind

runner = CliRunner()
KEYS = {"game", "version", "seed", "index", "players", "strategies", "rules", "hands",
        "rounds", "final_hands", "penalties"}


def invoke(*args):
    return runner.invoke(app, list(args), catch_exceptions=False)


def check_format(record):
    assert set(record) == KEYS
    assert record["game"] == "ass" and record["version"] == 1
    n = record["players"]
    assert "per_player" in record["rules"]
    order = {kind: i for i, kind in enumerate(RECORD_ORDER)}
    for hand in record["hands"] + record["final_hands"]:
        ranks = [order[card_kind(c)] for c in hand]
        assert ranks == sorted(ranks)
    for rnd in record["rounds"]:
        assert set(rnd) == {"starter", "ass_round", "plays", "winner"}
        assert len(rnd["plays"]) == n
        assert [p["seat"] for p in rnd["plays"]] == [(rnd["starter"] + i) % n for i in range(n)]
        for play in rnd["plays"]:
            if play.get("pass"):
                assert set(play) == {"seat", "pass"} and play["pass"] is True
                continue
            if "joker_value" in play:
                assert rnd["ass_round"] and play["cards"] == ["J"]
                assert play["joker_value"] in (1, 14)
            else:
                assert set(play) == {"seat", "cards"}
            ranks = [order[card_kind(c)] for c in play["cards"]]
            assert ranks == sorted(ranks)


def test_replay_prints_one_json_line_in_records_format():
    result = invoke("replay", "ass", "--seed", "42", "--index", "17")
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    check_format(record)
    assert record["seed"] == 42 and record["index"] == 17 and record["players"] == 4
    assert verify_record(record) == []
    assert replay_matches(record)


def test_replay_with_strategies_per_seat_and_pretty():
    args = ["replay", "ass", "--seed", "3", "--index", "5", "--players", "3",
            "--strategy", "careful", "--strategy", "random", "--strategy", "hold-jokers:keep=4"]
    record = json.loads(invoke(*args).stdout)
    assert record["strategies"] == ["careful", "random", "hold-jokers:keep=4"]
    check_format(record)
    pretty = invoke(*args, "--pretty").stdout
    assert "Round 1" in pretty and "minus points" in pretty
    assert len(pretty.splitlines()) > len(record["rounds"]) * 3


def test_export_read_back_replay(tmp_path):
    out = tmp_path / "games.jsonl"
    result = invoke("export", "ass", "--seed", "8", "--games", "40", "--out", str(out),
                    "--players", "6", "--strategy", "random", "--start", "100")
    assert result.exit_code == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 40
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind
    for i, line in enumerate(lines):
        record = json.loads(line)
        assert record["index"] == 100 + i
        check_format(record)
        assert verify_record(record) == []
        assert replay_matches(record)
    again = invoke("replay", "ass", "--seed", "8", "--index", "117", "--players", "6",
                   "--strategy", "random")
    assert json.loads(again.stdout) == json.loads(lines[17])


def test_export_with_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "x.jsonl"
    result = runner.invoke(app, ["export", "ass", "--seed", "1", "--games", "5", "--out",
                                 str(out), "--strategy", "nosuch"])
    assert result.exit_code != 0
    assert list(tmp_path.iterdir()) == []


def test_verify_record_finds_tampering():
    record = json.loads(invoke("replay", "ass", "--seed", "1", "--index", "2").stdout)
    record["penalties"][0] += 1
    assert any("penalties" in p for p in verify_record(record))
    record = json.loads(invoke("replay", "ass", "--seed", "1", "--index", "2").stdout)
    record["rounds"][0]["winner"] = (record["rounds"][0]["winner"] + 1) % 4
    assert verify_record(record)
    assert not replay_matches(record)

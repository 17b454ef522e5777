"""What the command line prints for people (80 columns, one number style, plain help) and for
programs (--format csv|json, --version)."""

import csv
import io
import json

import numpy as np
import pandas as pd
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from analyzer import __version__
from analyzer.cli import app
from analyzer.cli.console import console

runner = CliRunner()


def _run(*args, env=None):
    return runner.invoke(app, [str(a) for a in args], env=env, catch_exceptions=False)


def _moments(n: int, seats: int) -> pd.DataFrame:
    """Per-seat moments of a big run (what the table is drawn from), made up."""
    rng = np.random.default_rng(1)
    parts = {}
    for col, mean, sd in (("minus_points", 27.2, 20.0), ("ended_with_ass", 0.25, 0.43),
                          ("dealt_ass", 0.25, 0.43)):
        m = mean + rng.normal(0, 0.01, seats)
        parts[(col, "n")] = np.full(seats, n)
        parts[(col, "sum")] = m * n
        parts[(col, "sumsq")] = (sd**2 + m**2) * n
    return pd.DataFrame(parts, index=pd.RangeIndex(seats, name="seat"))


@pytest.mark.parametrize("columns", [80, 60])
def test_a_narrow_table_keeps_seat_strategy_and_n_whole(monkeypatch, capsys, columns):
    from analyzer.cli.run_commands import print_seat_table
    from analyzer.engines.ass.kernel import SEAT_METRICS

    monkeypatch.setenv("COLUMNS", str(columns))
    labels = ["basic", "hold-jokers:keep=4", "joker-hoarder", "careful"]
    print_seat_table("Who's the Ass?: 4 players, 2,000,000 games, seed 5",
                     _moments(2_000_000, 4), SEAT_METRICS, labels)
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= columns, text
    assert "…" not in text and "±" in text and "+/-" not in text
    for seat, label in enumerate(labels):
        row = next(line for line in lines if line.split()[:2] == [str(seat), label])
        assert "2,000,000" in row


def test_simulate_at_80_columns():
    res = _run("simulate", "jass", "-p", "3", "--deals", "2000", "--seed", "5", "-q",
               "--backend", "serial", "-s", "basic", "-s", "aim-high", "-s", "catch-up",
               env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, res.stdout
    for seat, label in enumerate(["basic", "aim-high", "catch-up"]):
        assert any(line.split()[:3] == [str(seat), label, "2,000"] for line in lines)


def test_format_json_and_csv_parse_and_agree(tmp_path):
    out = tmp_path / "run"
    res = _run("simulate", "ass", "-n", "3000", "--seed", "2", "-q", "--backend", "serial",
               "--out", out, "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)  # nothing else on standard output
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2, 3]
    first = data["seats"][0]
    assert first["strategy"] == "basic" and first["n"] == 3000
    assert first["minus_points_low"] < first["minus_points"] < first["minus_points_high"]
    assert 0 <= first["ended_with_ass"] <= 1  # rates as fractions for programs
    assert data["played"] == 3000 and data["seed"] == 2
    rows = list(csv.DictReader(io.StringIO(_run("summarize", out, "--format", "csv").stdout)))
    assert len(rows) == 4
    assert float(rows[0]["minus_points"]) == pytest.approx(first["minus_points"])
    again = json.loads(_run("summarize", out, "--format", "json").stdout)
    assert again["seats"] == data["seats"] and again["complete"] is True
    bad = _run("simulate", "ass", "-n", "10", "--format", "xml")
    assert bad.exit_code == 2 and "--format must be one of table, csv, json" in bad.output


def test_study_compare_prints_json(tmp_path):
    res = _run("study", "compare", "--game", "ass", "-s", "basic", "-s", "careful",
               "--games", "100", "--workers", "1", "--out", tmp_path, "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {r["strategy"] for r in data["tables"]["ranking"]} == {"basic", "careful"}
    assert data["tables"]["pairs"][0]["n_units"] == 100 and data["headlines"]


def test_version_prints_the_package_version():
    res = _run("--version")
    assert res.exit_code == 0 and res.stdout.strip() == f"cardlab {__version__}"


def test_no_color_is_honoured(monkeypatch):
    def printed() -> str:
        out = console()
        with out.capture() as cap:
            out.print("[red]red[/red]")
        return cap.get()

    monkeypatch.setenv("FORCE_COLOR", "1")  # a terminal that can show colour
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[" in printed()
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in printed()


def _commands(group, path=()):
    for name, cmd in group.commands.items():
        if getattr(cmd, "commands", None):
            yield from _commands(cmd, (*path, name))
        else:
            yield (*path, name)


def test_help_texts_name_values_plainly():
    paths = list(_commands(get_command(app)))
    assert len(paths) >= 12
    for path in paths:
        text = _run(*path, "--help", env={"COLUMNS": "100"}).stdout
        for bad in ("<bool>", "<list[", "<int>", "<str>", "<path>", "<float>"):
            assert bad not in text, (path, bad)
    jass = _run("simulate", "jass", "--help", env={"COLUMNS": "100"}).stdout
    assert "common Swiss practice" in jass and "capped" in jass  # rule options in words


def test_strategies_lists_each_knob_once_and_one_strategy_in_full():
    listing = _run("strategies", env={"COLUMNS": "80"}).stdout
    # two games, each family's knobs once (pimc and peek share theirs), presets one line or two
    # (119 lines with the search knobs infer, oversample and eps of both games; 133 with
    # learned's depth knob and its learned-4 preset in both; 140 with the pimc-rollouts preset
    # in both; 149 with Who's the Ass? learned's model and hold knobs and learned-linear; 152
    # with Plus-Minus Jass pimc's focus; 156 with its learned's model knob and learned-leaf)
    assert "…" not in listing and len(listing.splitlines()) < 160
    assert listing.count("deals of the unseen cards drawn per decision") == 1  # peek: as pimc
    assert listing.count("when to use jokers") == 1  # the family's knob, not per preset
    assert "keep-until" in listing and "most-points" in listing  # no choice list cut
    assert "careful" in listing and "lead=safe, ass_throw=safe-high" in listing
    one = _run("strategies", "hold-jokers:keep=3").stdout
    assert "keep = 3" in one and "jokers = keep-until" in one and "lead_ass = now" in one
    both = _run("strategies", "basic").stdout
    assert "Who's the Ass?" in both and "Plus-Minus Jass" in both
    bad = _run("strategies", "nosuch")
    assert bad.exit_code == 2 and bad.output.startswith("error: ")


def test_replay_jass_pretty_has_a_legend_and_no_noise():
    match = _run("replay", "jass", "--seed", "3", "--index", "0", "--pretty").stdout
    assert "match 0" in match and "matches 0" not in match
    assert "Suits B bells, S shields, R roses, A acorns" in match
    assert "aims n/a" not in match  # basic has no aim
    deal = _run("replay", "jass", "--seed", "3", "--index", "0", "--mode", "deals",
                "--pretty").stdout
    assert "deal 0" in deal

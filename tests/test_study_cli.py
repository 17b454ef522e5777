"""The `cardlab study` and `cardlab report` commands, end to end (in this process: the
``cli`` fixture runs ``cardlab ARGS`` as a user would, without a process's start-up)."""

import html as html_module
import re
import shlex

import pytest

from analyzer.cli.study_commands import parse_ints, parse_rules
from analyzer.errors import CardlabError


def test_parse_helpers():
    assert parse_ints("3-5,8", "--players") == [3, 4, 5, 8]
    assert parse_ints("4", "--players") == [4]
    with pytest.raises(CardlabError):
        parse_ints("three", "--players")
    assert parse_rules(["ruleset=swiss"]) == {"ruleset": "swiss"}
    with pytest.raises(CardlabError):
        parse_rules(["swiss"])


def test_seats_study_then_report(cli, tmp_path):
    code, out, err = cli("study", "seats", "--players", "3,4", "--games", "150",
                         "--workers", "1", "--out", tmp_path / "res")
    assert code == 0, err
    assert "saved seats study to" in out
    assert (tmp_path / "res" / "seats" / "manifest.json").is_file()
    code, _, err = cli("report", "--from", tmp_path / "res", "--out", tmp_path / "rep")
    assert code == 0, err
    assert (tmp_path / "rep" / "index.html").is_file()
    assert (tmp_path / "rep" / "figures" / "seats_heatmap.png").is_file()
    # the section's "reproduce this" command gives the very same table
    html = (tmp_path / "rep" / "index.html").read_text()
    command = re.search(r"(cardlab study seats [^\n<]*)", html).group(1)
    args = shlex.split(html_module.unescape(command))[1:]
    assert args[-2] == "--out"
    code, _, err = cli(*args[:-1], tmp_path / "again", "--workers", "1")
    assert code == 0, err
    first = (tmp_path / "res" / "seats" / "seats.csv").read_text()
    assert (tmp_path / "again" / "seats" / "seats.csv").read_text() == first


def test_errors_are_one_line_with_exit_code_2(cli, tmp_path):
    for args in (("report", "--from", tmp_path / "nothing", "--out", tmp_path / "r"),
                 ("study", "seats", "--players", "2", "--games", "10", "--out", tmp_path),
                 ("study", "compare", "--game", "ass", "-s", "basic", "--out", tmp_path),
                 ("study", "trump", "--chooser", "nosuch", "--out", tmp_path),
                 ("study", "trump", "--slow-deals", "1", "--out", tmp_path),
                 ("study", "fields", "--add-field", "nosuch", "--out", tmp_path),
                 ("study", "best-response", "--game", "ass,jass", "--knob", "aim",
                  "--out", tmp_path),
                 ("study", "ladder", "--margin", "-1", "--out", tmp_path),
                 ("study", "ladder", "--margin", "0.5", "--out", tmp_path),
                 ("study", "ladder", "--margin", "ass=1,poker=2", "--out", tmp_path)):
        code, _, err = cli(*args)
        assert code == 2, (args, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert list(tmp_path.iterdir()) == []  # refused before any work: nothing written


def test_ladder_margin_option_reads_per_game():
    from analyzer.cli.ladder_commands import parse_margin

    assert parse_margin(None, ["ass", "jass"]) is None
    assert parse_margin("0", ["ass", "jass"]) == 0.0
    assert parse_margin("0.5", ["ass"]) == 0.5
    assert parse_margin("ass=0.5,jass=0.02", ["ass", "jass"]) == {"ass": 0.5, "jass": 0.02}


def test_study_all_checks_its_scaled_budgets_before_the_first_study(cli, tmp_path):
    """A scale too small for the best response's tuning is refused at once (not after the
    other studies have played for minutes), naming the smallest scale that works."""
    code, out, err = cli("study", "all", "--scale", "0.02", "--out", str(tmp_path / "s"))
    assert code == 2 and err.strip().count("\n") == 0, err
    assert "--scale 0.02 is too small" in err and "the smallest that works: --scale 0.18" in err
    assert not (tmp_path / "s").exists()
    from analyzer.studies.suite import check

    check(0.18)  # the scale it names works

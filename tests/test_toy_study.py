"""A toy study added through docs/adding-a-study.md: its declaration and run function
(tests/toy_coin.py), its report module (tests/toy_coin_report.py) and one registration.
From the declaration alone it gets its command-line options (with their range checks), its
manifest fields and the command that reproduces it; from the report module its figure, its
table and its key finding in the report."""

from pathlib import Path

import pytest
from cli_check import one_error  # tests/ is on sys.path

from analyzer.studies import registry
from analyzer.studies.results import find_studies
from reports.build import build_report
from reports.reproduce import study_command

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def coin(monkeypatch):
    """The toy registered (the one registration), and its command added as the command line
    adds every registered study's when it starts (undone after the test)."""
    import toy_coin

    from analyzer.cli import study_commands
    from analyzer.cli.options import strict_numbers

    monkeypatch.setitem(registry._STUDIES, "coin", toy_coin.COIN)
    app = study_commands.study_app
    monkeypatch.setattr(app, "registered_commands", list(app.registered_commands))
    monkeypatch.setattr(study_commands, "_DECLARED", set(study_commands._DECLARED))
    assert study_commands.declare_the_rest() == ["coin"]
    strict_numbers(app)
    return toy_coin.COIN


def test_the_toy_study_gets_its_options_from_its_declaration(coin, cli):
    code, out, _ = cli("study", "coin", "--help")
    assert code == 0
    text = " ".join(out.split())
    for piece in ("--flips", "-n", "Coin flips.", "[default: 100]", "--side",
                  "The side counted.", "[default: heads]", "--seed", "--out", "--quiet"):
        assert piece in text, piece
    assert "Does the coin land heads?" in text  # the command's help: the question
    code, out, err = cli("study", "coin", "--flips", "0")  # below the declared range
    assert code == 2 and out == ""
    one_error(err, "--flips must be at least 1; got 0")
    code, _, err = cli("study", "coin", "--flips", "1_0")  # numbers are read strictly
    assert code == 2 and "Traceback" not in err


def test_the_toy_study_saves_its_declared_manifest_and_reproduces_from_it(coin, cli,
                                                                         tmp_path):
    code, out, err = cli("study", "coin", "--flips", "40", "--seed", "3", "-o",
                         tmp_path / "res", "-q")
    assert code == 0, err
    found = find_studies(tmp_path / "res")
    assert [r.study for r in found] == ["coin"]
    m = found[0].manifest
    assert (m["flips"], m["side"], m["seed"]) == (40, "heads", 3)  # each under its key
    command = study_command(found[0])
    assert command == "cardlab study coin --flips 40 --side heads --seed 3 --out runs/studies"
    again = command.split()[1:-1] + [str(tmp_path / "again"), "-q"]
    assert cli(*again)[0] == 0
    first, second = found[0].table("coin"), find_studies(tmp_path / "again")[0].table("coin")
    assert first.equals(second)


def test_the_toy_report_module_puts_its_figure_table_and_finding_in_the_report(coin, cli,
                                                                            tmp_path):
    assert cli("study", "coin", "--flips", "30", "-o", tmp_path / "res", "-q")[0] == 0
    html = build_report(tmp_path / "res", tmp_path / "rep").read_text()
    assert (tmp_path / "rep" / "figures" / "coin.png").is_file()
    for piece in ("Does the coin land heads?", "About half the time.",
                  "How often the coin shows the side", "cardlab study coin --flips 30"):
        assert piece in html, piece


def test_the_checklist_names_the_three_places_a_study_lives():
    text = (ROOT / "docs" / "adding-a-study.md").read_text()
    for place in ("analyzer/studies/registry.py", "analyzer/studies/params.py",
                  "reports/studies/<name>.py", "tests/test_toy_study.py"):
        assert place in text, place

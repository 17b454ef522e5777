"""Study `best-response` in the report: both games in one result, a figure of the gains."""

import pandas as pd

from analyzer.studies.registry import get
from analyzer.studies.results import StudyResult
from reports.reproduce import study_command
from reports.views import study_figures


def _two_games() -> StudyResult:
    gains = pd.DataFrame({
        "game": ["ass", "ass", "jass"], "field": ["basic", "tuned", "basic"],
        "players": [4, 4, 4], "response": ["heuristic:lead=safe", "tuned", "tuned"],
        "gain": [1.1, 0.0, 0.2], "low": [0.9, 0.0, 0.19], "high": [1.3, 0.0, 0.21],
        "half": [0.2, 0.0, 0.01], "identical": [False, True, False],
    })
    manifest = {"study": "best-response", "game": ["ass", "jass"], "players": [4],
                "games": {"ass": 50000, "jass": 5000}, "confirm": 300, "start": "heuristic",
                "seed": 13,
                "field": ["basic", "tuned", "basic"],
                "by_game": {"ass": {"metric": "minus_points", "better": "lower"},
                            "jass": {"metric": "won", "better": "higher"}}}
    return StudyResult("best-response", {"gains": gains}, manifest, [])


def test_the_gain_per_field_and_game_is_drawn_with_its_interval(tmp_path):
    figs = study_figures(_two_games(), tmp_path)
    assert [f.file for f in figs] == ["best_response_gains.png"]
    assert (tmp_path / "best_response_gains.png").stat().st_size > 5000
    assert "95% intervals" in figs[0].caption


def test_both_games_reproduce_with_their_default_fields():
    args = get("best-response").reproduce(_two_games().manifest)
    assert args[:4] == ["study", "best-response", "--game", "ass,jass"]
    assert "--strategy" not in args  # each game's own default fields
    assert args[args.index("--games") + 1] == "ass=50000,jass=5000"  # a budget per game
    assert "--game ass,jass" in study_command(_two_games())


def test_budgets_per_game_are_parsed_or_refused_in_one_line():
    import pytest

    from analyzer.cli.ladder_commands import parse_budgets
    from analyzer.errors import CardlabError

    assert parse_budgets("400000") == 400000
    assert parse_budgets("ass=100000, jass=10000") == {"ass": 100000, "jass": 10000}
    for bad in ("0", "x", "ass=", "=5", "ass=-1", "ass=1e5"):
        with pytest.raises(CardlabError):
            parse_budgets(bad)


def test_the_strong_players_gain_is_reported_beside_the_knob_search():
    """Issue 21 item 3: against each field the study reports, beside the best response within
    the tuned family's knobs, the paired gain of pimc in one seat (the exploitability by strong
    play), with its interval, on its own share of the held-out deals."""
    from analyzer.runner.play import KernelBackend
    from analyzer.studies.best_response import run_best_response

    result = run_best_response(KernelBackend(workers=1), "ass", ["basic"], players=[4],
                               games=400, confirm=40, knobs=["lead"], slow_share=2)
    row = result.table("gains").iloc[0]
    assert row["strong"] == "pimc" and row["strong_held_out"] == 20
    assert row["strong_gain_low"] <= row["strong_gain"] <= row["strong_gain_high"]
    assert row["strong_gain"] > 0  # pimc saves minus points against basic (about 20 a game)
    text = " ".join(result.headlines)
    assert "within the heuristic knobs" in text and "the search player pimc" in text
    args = get("best-response").reproduce(result.manifest)
    assert args[args.index("--strong") + 1] == "pimc"
    assert args[args.index("--slow-share") + 1] == "2"


def test_a_rate_is_said_in_percentage_points_and_a_lost_best_response_as_a_loss():
    """The Jass gain is a share of match wins: said in percentage points, as the ladder says
    it (not '0.141 match win rate'); a best response the field clearly beats is said to cost,
    not to 'save -21.8'."""
    from analyzer.studies.best_response import _amount, _claim

    assert _amount(0.1414, 0.0091, "won") == "14.1 ± 0.9 percentage points of"
    assert _amount(-21.83, 0.8, "minus_points") == "-21.8 ± 0.8"
    result = _two_games()
    gains = result.table("gains")
    gains.loc[2, ["gain", "low", "high", "half"]] = [-0.141, -0.15, -0.132, 0.009]
    gains["held_out"], gains["tuning_games"], gains["family"] = 1000, 9852, "heuristic"
    row = gains.iloc[2]
    sentence = _claim(result, row, "jass", "won", False, "match").sentence
    assert "learned" not in sentence and "basic plays better than any setting" in sentence
    assert "gets 14.1 ± 0.9 percentage points of match win rate less per match" in sentence

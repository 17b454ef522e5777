"""Issue 21 item 6: what the report shows reads right (rounding, labels, units, J-9)."""

import re

import pandas as pd

from analyzer.studies.results import StudyResult, base_manifest
from reports.findings import study_alerts
from reports.views import study_views


def test_tables_without_a_view_of_their_own_round_every_number():
    gains = pd.DataFrame({
        "game": ["ass"], "field": ["basic"], "players": [4], "response": ["heuristic"],
        "gain": [0.8235], "low": [0.5432671536887304], "high": [1.1037328463112697],
        "half": [0.28023284631126966], "identical": [False], "held_out": [1000],
        "field_mean": [27.30950000001]})
    result = StudyResult("best-response", {"gains": gains}, base_manifest("best-response"))
    view = study_views(result)[0].frame
    text = view.to_string()
    assert "0.82 ± 0.28" in text and "1,000" in text and "27.31" in text
    assert not re.search(r"\d\.\d{6,}", text), text
    assert "low" not in view.columns and "half" not in view.columns


def test_the_seat_axis_says_who_starts():
    from reports.figures import SEAT_AXIS

    assert "plays first" not in SEAT_AXIS and "ass holder starts" in SEAT_AXIS


def test_an_alert_names_the_count_option_of_the_studys_unit():
    pairs = pd.DataFrame({"a": ["x"], "b": ["y"], "players": [4], "difference": [0.1],
                          "low": [-0.1], "high": [0.3], "half": [0.2],
                          "variance_reduction": [2.0], "seq_stopped_by": ["budget"]})
    rank = pd.DataFrame({"players": [4, 4], "strategy": ["x", "y"], "rank": [1, 2],
                         "mean": [0.3, 0.2], "low": [0.2, 0.1], "high": [0.4, 0.3],
                         "half": [0.1, 0.1], "deals": [100, 100], "games": [400, 400]})
    for mode in ("matches", "deals", "games"):
        manifest = base_manifest("compare", game="jass", mode=mode, games=100)
        result = StudyResult("compare", {"pairs": pairs, "ranking": rank}, manifest)
        texts = " ".join(a.text for a in study_alerts(result))
        assert f"raise --{mode} to decide" in texts


def test_study_prose_wraps_at_word_boundaries_to_the_terminal_width(monkeypatch):
    """Issue 21 item 6: a study sentence never breaks inside a word ("usin/g") at 80 columns;
    each wrapped line fits, and a pipe (no COLUMNS, no terminal) keeps one line."""
    from analyzer.cli.console import wrap_prose

    text = ("At 4 players against basic opponents, hoarding jokers turns a 25% chance to win "
            "a 4-player evening of 4 games into 9.8 +/- 1.3%, costing 14.61 +/- 0.46 minus "
            "points per game against using jokers as needed, using cardlab study jokers.")
    monkeypatch.setenv("COLUMNS", "80")
    wrapped = wrap_prose(text, "- ", "  ")
    lines = wrapped.splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines)
    assert " ".join(line.strip().removeprefix("- ") for line in lines) == text
    assert lines[0].startswith("- ") and all(x.startswith("  ") for x in lines[1:])
    monkeypatch.delenv("COLUMNS")
    assert "\n" not in wrap_prose(text, "- ", "  ")  # pytest's stdout is not a terminal


def test_the_glossary_names_every_strategy_of_a_study_of_both_games():
    """Issue 21 item 6: the ladder's manifest names two games (``game`` is a list); the
    glossary describes each game's strategies (no "['ass', 'jass']" rows), pimc included."""
    from reports.glossary import glossary

    manifest = base_manifest(
        "ladder", game=["ass", "jass"],
        by_game={"ass": {"strategies": ["basic", "careful", "pimc"]},
                 "jass": {"strategies": ["basic", "tuned", "pimc"]}},
        runs=[{"game": "ass", "strategies": ["careful", "basic"]},
              {"game": "jass", "strategies": ["tuned", "basic"]}])
    entries = glossary([StudyResult("ladder", {}, manifest)])
    named = {(e.game, e.name) for e in entries}
    assert ("Who's the Ass?", "pimc") in named and ("Plus-Minus Jass", "pimc") in named
    assert ("Plus-Minus Jass", "tuned") in named and ("Who's the Ass?", "careful") in named
    assert all("not a registered strategy" not in e.description for e in entries)
    assert all("[" not in e.game for e in entries)


def test_the_jokers_reproduce_command_carries_the_strong_field_and_its_budget():
    from reports.reproduce import study_command

    manifest = base_manifest("jokers", game="ass", players=[4], keep=[0, 3], games=300, seed=2,
                             field=["basic"], strong_fields=["pimc"], slow_games=40,
                             habit_games=25)
    command = study_command(StudyResult("jokers", {}, manifest))
    assert "--strong-field pimc --slow-games 40 --habit-games 25" in command
    manifest["strong_fields"] = []
    assert "--strong-field none" in study_command(StudyResult("jokers", {}, manifest))


def test_a_saved_study_of_both_games_loads_back(tmp_path):
    """The ladder and best response of both games write ``game`` as a list: the manifest
    check of ``report`` (an edited manifest is one line) must accept what studies write."""
    from analyzer.studies.results import load_study, manifest_problem, save_study

    gains = pd.DataFrame({"game": ["ass", "jass"], "field": ["basic", "basic"],
                          "players": [4, 4], "gain": [1.0, 0.1], "low": [0.5, 0.05],
                          "high": [1.5, 0.15], "half": [0.5, 0.05]})
    manifest = base_manifest("best-response", game=["ass", "jass"], players=[4],
                             games={"ass": 100, "jass": 10}, seed=1)
    assert manifest_problem(manifest) is None
    folder = save_study(StudyResult("best-response", {"gains": gains}, manifest), tmp_path)
    assert load_study(folder).manifest["game"] == ["ass", "jass"]
    assert "field 'game'" in manifest_problem({**manifest, "game": ["ass", 3]})

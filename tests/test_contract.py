"""One game contract (issue 11): a toy game and a toy study go through the numbered steps of
docs/adding-a-game.md and docs/adding-a-study.md, and everything downstream finds them."""

import re
from pathlib import Path

import pandas as pd
import pytest
from fake_kernel import DESCRIPTION as DICE  # tests/ is on sys.path
from fake_kernel import install as install_dice

from analyzer.engines.kernel import RunSpec, kernel_module, kernel_path
from analyzer.games import registry as games
from analyzer.runner import RunOptions, execute
from analyzer.runner.chunks import preferred_chunk_size
from analyzer.studies import registry as studies
from analyzer.studies.compare import metric_for
from analyzer.studies.results import StudyResult, base_manifest, find_studies, save_study
from reports.build import build_report
from reports.reproduce import study_command
from strategies.registry import catalog

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("doc", ["adding-a-game.md", "adding-a-study.md"])
def test_checklists_are_numbered_and_name_real_files(doc):
    text = (ROOT / "docs" / doc).read_text()
    steps = [int(n) for n in re.findall(r"^(\d+)\. ", text, re.M)]
    assert steps == list(range(1, len(steps) + 1)) and len(steps) >= 5
    for path in re.findall(r"`((?:analyzer|strategies|reports|tests|docs)/[\w/.]+\.(?:py|md))`",
                           text):
        if "<" not in path:
            assert (ROOT / path).is_file(), f"{doc} names {path}, which does not exist"


def test_builtin_games_are_described_once():
    assert games.names()[:2] == ("ass", "jass")
    ass, jass = games.get("ass"), games.get("jass")
    assert ass.title == "Who's the Ass?" and (ass.min_players, ass.max_players) == (3, 12)
    assert jass.units() == {"matches": "match", "deals": "deal"}
    assert tuple(m.name for m in jass.modes) == kernel_module("jass").MODES
    assert ass.units() == kernel_module("ass").UNIT
    for d in (ass, jass):  # every measure is a result column of the kernel
        assert {m.column for m in d.measures} <= set(kernel_module(d.name).COLUMNS)
        for mode in d.modes:
            assert d.measure(mode.default_metric) is not None
    with pytest.raises(Exception, match="unknown game 'poker'; games: ass, jass"):
        games.get("poker")


def test_a_toy_game_registered_through_the_checklist_is_found_everywhere(monkeypatch):
    install_dice(monkeypatch)  # steps 1, 2 and 5: description, registry, strategies
    assert "dice" in games.names() and games.title("dice") == "Dice"
    assert kernel_path("dice") == "fake_kernel"
    assert preferred_chunk_size("dice", "games") == DICE.modes[0].chunk_size
    assert preferred_chunk_size("ass", "games") == games.get("ass").mode("games").chunk_size
    assert list(catalog("dice")) == ["basic"]
    assert metric_for("dice", "", None, None) == ("won", False)  # higher is better
    spec = RunSpec("dice", 3, ("basic",) * 3, 5, rules={})
    result = execute(spec, 40, 0, RunOptions(backend="serial"), collect_rows=True)
    assert result.unit == "game" and len(result.rows) == 120


def test_a_toy_study_registered_through_the_checklist_reaches_the_report(monkeypatch,
                                                                        tmp_path):
    from analyzer.studies.params import seed

    toy = studies.StudyDescription("coin", "ass", "Does the coin land heads?",
                                   params=(seed(),))
    monkeypatch.setitem(studies._STUDIES, "coin", toy)  # step 1
    table = pd.DataFrame({"side": ["heads", "tails"], "share": [0.5, 0.5]})
    result = StudyResult("coin", {"coin": table}, base_manifest("coin", seed=7),
                         ["heads and tails come up equally often"])
    save_study(result, tmp_path / "res")
    found = find_studies(tmp_path / "res")
    assert [r.study for r in found] == ["coin"]
    assert study_command(found[0]) == "cardlab study coin --seed 7 --out runs/studies"
    html = build_report(tmp_path / "res", tmp_path / "rep").read_text()
    assert "Does the coin land heads?" in html
    assert "heads and tails come up equally often" in html
    assert "cardlab study coin --seed 7" in html


@pytest.mark.parametrize("game", ["ass", "jass"])
def test_play_chunk_returns_exactly_the_declared_columns(game):
    description = games.get(game)
    for mode in description.modes:
        spec = RunSpec(game, 3, ("basic",), 1, mode=mode.name)
        out = kernel_module(game).play_chunk(spec, 0, 3)
        assert {n: str(a.dtype) for n, a in out.items()} == mode.dtypes(), mode.name
        for col in mode.unit_columns():  # the same value on every seat's row of a unit
            assert (out[col].reshape(3, 3) == out[col].reshape(3, 3)[:, :1]).all()
        assert {m.column for m in mode.metrics} <= set(mode.dtypes())

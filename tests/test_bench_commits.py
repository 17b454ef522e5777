"""scripts/bench_commits.py: the earlier commit's packages are imported under other names,
so its imports must point at them, and nothing else in its code may change."""

import pytest
from script_module import load


def test_imports_point_at_the_renamed_packages_and_nothing_else_changes():
    rename = load("bench_commits").rename
    source = '''import analyzer  # noqa: F401
import strategies.ass.rollout as rollout
from analyzer.games import registry
    from strategies.registry import parse_strategies
from cardlab.games.play import is_bot
strategies = tuple(spec.strategies) or ("basic",)
rows.strategies.append(analyzer_count)
module = importlib.import_module(f"strategies.{game}.catalog")
"""(analyzer.games.registry) in a docstring"""
'''
    assert rename(source).splitlines() == [
        "import base_analyzer as analyzer  # noqa: F401",
        "import base_strategies.ass.rollout as rollout",
        "from base_analyzer.games import registry",
        "    from base_strategies.registry import parse_strategies",
        "from base_cardlab.games.play import is_bot",
        'strategies = tuple(spec.strategies) or ("basic",)',
        "rows.strategies.append(analyzer_count)",
        'module = importlib.import_module(f"base_strategies.{game}.catalog")',
        '"""(analyzer.games.registry) in a docstring"""',
    ]


def test_a_base_that_is_no_commit_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        load("bench_commits").main(["--base", "no-such-commit-anywhere"])
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "--base no-such-commit-anywhere is no commit" in lines[0]


def test_a_table_this_checkout_refuses_is_one_line_before_any_export(capsys, monkeypatch):
    bench = load("bench_commits")
    monkeypatch.setattr(bench, "export", lambda rev: pytest.fail("exported before the check"))
    for argv, words in ((["-s", "bogus"], "unknown jass strategy 'bogus'"),
                        (["--players", "9"], "needs 3 or 4 players")):
        assert bench.main(["--base", "HEAD", *argv]) == 2
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and words in lines[0]

"""Issue 45 item 1: adding a game is one folder and one registration (docs/adding-a-game.md).

The toy game of tests/toy_game/ (description with its adapter, kernel, strategies) is
registered with one call and then plays through cardlab like a built-in game; every part it
leaves out of its adapter is refused in one line naming the part and the game.
"""

import sys

import pytest

from analyzer.errors import CardlabError
from analyzer.games import registry


@pytest.fixture
def coins():
    """The toy game, registered by its one call; everything it added is removed after."""
    from toy_game.description import DESCRIPTION

    from strategies import registry as strategies

    registry.register(DESCRIPTION)  # the one registration
    yield DESCRIPTION.name
    registry._GAMES.pop(DESCRIPTION.name, None)
    strategies._CATALOGS.pop(DESCRIPTION.name, None)
    strategies._COMPLETE.discard(DESCRIPTION.name)
    sys.modules.pop("toy_game.catalog", None)


def test_a_toy_game_in_one_folder_plays_after_one_registration(coins):
    import cardlab
    from analyzer.engines.kernel import kernel_path
    from analyzer.runner.chunks import preferred_chunk_size

    assert coins in registry.names() and registry.title(coins) == "Coins"
    assert kernel_path(coins) == "toy_game.kernel"  # from its adapter, nowhere else
    assert preferred_chunk_size(coins, "games") == 5_000
    assert cardlab.strategies(coins) == ["basic", "bold"]
    rows = cardlab.simulate(coins, 3, ["bold", "basic", "basic"], games=400, seed=4, workers=1)
    assert len(rows) == 1200 and list(rows.columns[:3]) == ["index", "seat", "strategy"]
    again = cardlab.simulate(coins, 3, ["bold", "basic", "basic"], games=100, seed=4,
                             start=300, workers=1)
    assert rows.iloc[900:].reset_index(drop=True).equals(again)  # (seed, index) alone
    table = cardlab.summarize(rows)
    assert list(table["strategy"]) == ["bold", "basic", "basic"]
    won = table.set_index("seat")["won"]
    assert won[0] > won[1] and won[0] > won[2]  # six coins beat three


def test_the_parts_a_toy_game_leaves_out_are_refused_in_one_line(coins):
    import cardlab
    from analyzer.analysis.annotate import annotate_game
    from analyzer.analysis.values import THRESHOLDS
    from analyzer.cli.common_commands import record_printer
    from analyzer.engines.kernel import RunSpec
    from analyzer.runner.play import KernelBackend
    from analyzer.studies.best_response import DEFAULT_FIELDS
    from analyzer.studies.suite import parts_of
    from reports.viewer import viewer_steps

    with pytest.raises(CardlabError, match=r"^the analysis is not available for coins "
                                           r"\(Coins\)$"):
        annotate_game(coins, {"game": coins})
    with pytest.raises(CardlabError, match=r"^the analysis is not available for coins"):
        THRESHOLDS[coins]
    with pytest.raises(CardlabError, match=r"^no analysis of typed positions for coins$"):
        cardlab.analyze(coins, "H T")
    with pytest.raises(CardlabError, match=r"^replay is not available for coins \(Coins\)$"):
        record_printer(coins)
    with pytest.raises(ValueError, match=r"^not a game record: game 'coins'; ass or jass$"):
        viewer_steps({"game": coins})
    with pytest.raises(CardlabError, match=r"^no table 'trump' for this game; tables: none$"):
        KernelBackend(workers=1).table("trump", RunSpec(coins, 3, ("basic",), 1), 0, 5)
    assert DEFAULT_FIELDS[coins] == ()  # a best response needs fields named
    assert "coins" not in {p for s in ("seats", "trump") for p in parts_of(s)}


def test_the_built_in_games_declare_every_part_in_their_adapter():
    for game in ("ass", "jass"):
        parts = registry.get(game).parts
        for name in ("kernel", "catalog", "cli", "analysis", "learn", "board", "viewer",
                     "python"):
            assert getattr(parts, name), f"{game} declares no {name}"
        assert parts.labels is not None and parts.warm and parts.default_fields
        calls = (parts.viewer, *(w.call for w in parts.warm if w.call),
                 *(path for _, path in parts.tables))
        for path in calls:  # every "module:function" the adapter names is there
            assert callable(registry.load(path)), path

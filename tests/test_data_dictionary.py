"""The data dictionary (docs/data-dictionary.md) documents every result column of every game
and mode with its meaning, unit and range, is generated from the game descriptions, and the
engines never write a value outside a declared range."""

import doctest

import numpy as np
import pytest

from analyzer.engines.kernel import RunSpec, kernel_module
from analyzer.games import dictionary, registry

# mixed tables: the general play loop, which the test prewarm compiles (analyzer/studies/suite.py)
TABLES = {"ass": ("basic", "random", "heuristic", "careful"),
          "jass": ("basic", "random", "aim-high", "adaptive")}


def test_the_page_is_generated_from_the_descriptions():
    assert dictionary.PAGE.read_text() == dictionary.markdown(), (
        "docs/data-dictionary.md is stale: python -m analyzer.games.dictionary --write")


def test_every_column_has_a_meaning_unit_and_range():
    assert dictionary.missing() == []
    for row in dictionary.rows():
        assert row["meaning"] and row["unit"] and row["range"] != "any", row


def test_a_column_without_a_unit_is_caught():
    game = registry.get("jass")
    mode = game.modes[0]
    bare = registry.Column("new_column", "int16", "a column someone forgot to document")
    broken = registry.GameDescription(game.name, game.title, game.min_players,
                                      game.max_players,
                                      (registry.Mode(mode.name, mode.unit, mode.chunk_size,
                                                     mode.default_metric, mode.description,
                                                     (*mode.columns, bare)), *game.modes[1:]),
                                      game.rules, game.measures)
    try:
        registry.register(broken)
        assert dictionary.missing() == [f"jass/{mode.name}/new_column"]
        assert "`new_column`" in dictionary.markdown()
        assert dictionary.PAGE.read_text() != dictionary.markdown()
    finally:
        registry.register(game)


def test_the_module_examples_run():
    failures, tried = doctest.testmod(dictionary)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("game", ["ass", "jass"])
def test_runs_write_only_values_the_dictionary_allows(game):
    description = registry.get(game)
    for players in (description.min_players, description.max_players):
        table = tuple(TABLES[game][s % len(TABLES[game])] for s in range(players))
        for mode in description.modes:
            kernel = kernel_module(game)
            rows = kernel.play_chunk(kernel.validate(
                RunSpec(game, players, table, seed=11, mode=mode.name)), 0, 300)
            assert list(rows) == [c.name for c in mode.columns]
            for c in mode.columns:
                values = np.asarray(rows[c.name])
                assert values.dtype == np.dtype(c.dtype), (mode.name, c.name)
                if c.dtype == "bool":
                    continue
                assert values.min() >= c.low, (players, mode.name, c.name, values.min())
                if c.high is not None:
                    assert values.max() <= c.high, (players, mode.name, c.name, values.max())
                if c.name == "seat":
                    assert values.max() == players - 1


@pytest.mark.parametrize("game", ["ass", "jass"])
def test_match_details_write_only_values_the_dictionary_allows(game):
    import cardlab

    mode = registry.get(game).mode("matches")
    for players in (registry.get(game).min_players, registry.get(game).max_players):
        table = [TABLES[game][s % len(TABLES[game])] for s in range(players)]
        rows = cardlab.match_details(game, players, table, matches=20, seed=2)
        assert [c for c in rows.columns if c != "strategy"] == [c.name for c in mode.details]
        for c in mode.details:
            assert rows[c.name].dtype == np.dtype(c.dtype), c.name
            if c.dtype != "bool":
                assert rows[c.name].min() >= c.low, (c.name, rows[c.name].min())
                assert c.high is None or rows[c.name].max() <= c.high, c.name

"""Issue 45, side doors: a chunk's spec is parsed once. Each kernel's ``play_chunk`` checks
the run and builds the engine's arrays from the same parsed strategies (``checked``, then
``engine_inputs(spec, strategies)``), instead of parsing every seat's text twice (once to
check the run, once more for the arrays)."""

import pytest

import strategies.registry as registry
from analyzer.engines.kernel import RunSpec


@pytest.mark.parametrize("game, players, mode, other", [
    ("ass", 4, "games", "careful"), ("ass", 3, "matches", "careful"),
    ("jass", 4, "deals", "heuristic"), ("jass", 4, "matches", "heuristic")])
def test_play_chunk_parses_each_strategy_once(monkeypatch, game, players, mode, other):
    from analyzer.engines.kernel import kernel_module

    kernel = kernel_module(game)
    spec = RunSpec(game, players, ("basic", other) + ("basic",) * (players - 2), 5,
                   mode=mode)
    expected = kernel.play_chunk(spec, 0, 2)  # compiled (or loaded) before counting
    calls = []
    parse = registry.parse_strategy

    def counted(game_name, text):
        calls.append(text)
        return parse(game_name, text)

    monkeypatch.setattr(registry, "parse_strategy", counted)
    rows = kernel.play_chunk(spec, 0, 2)
    assert sorted(calls) == sorted(["basic", other])  # each distinct text parsed once
    for name, column in expected.items():  # the same games
        assert (rows[name] == column).all(), name

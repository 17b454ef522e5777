"""strategies/registry.py: naming, parsing and validating strategies and their parameters."""

import numpy as np
import pytest

from strategies import registry
from strategies.registry import (
    N_PARAMS,
    Param,
    StrategyError,
    StrategySpec,
    engine_arrays,
    parse_strategy,
    seat_strategies,
)


@pytest.fixture()
def toy_catalog(monkeypatch):
    book = {
        "basic": StrategySpec("ass", "basic", 0, "the yardstick"),
        "hold": StrategySpec(
            "ass",
            "hold",
            2,
            "keeps jokers",
            params=(
                Param("jokers", 0, 0.0, "joker policy", choices=("keep", "dump", "until")),
                Param("keep", 1, 2.0, "cards left", low=0, high=13),
            ),
            preset={"jokers": "until"},
        ),
    }
    monkeypatch.setitem(registry._CATALOGS, "ass", book)
    return book


def test_parse_name_and_parameters(toy_catalog):
    s = parse_strategy("ass", "hold:keep=4")
    assert s.family == 2
    assert s.values[0] == 2.0  # preset jokers=until is choice 2
    assert s.values[1] == 4.0
    assert len(s.values) == N_PARAMS
    assert s.label() == "hold:keep=4"
    assert parse_strategy("ass", "hold").label() == "hold"
    assert s.describe_params() == {"jokers": "until", "keep": "4"}


@pytest.mark.parametrize(
    "text,message",
    [
        ("nosuch", "unknown ass strategy 'nosuch'; known: basic, hold"),
        ("hold:keep", "write key=value"),
        ("hold:speed=3", "has no parameter 'speed'"),
        ("hold:keep=99", "must be in [0, 13]"),
        ("hold:keep=x", "needs a number"),
        ("hold:jokers=never", "must be one of keep, dump, until"),
    ],
)
def test_bad_strategy_texts_say_what_is_allowed(toy_catalog, text, message):
    with pytest.raises(StrategyError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_strategy("ass", text)


def test_one_strategy_for_all_seats_or_one_per_seat(toy_catalog):
    assert [s.name for s in seat_strategies("ass", ["hold"], 3)] == ["hold"] * 3
    assert [s.name for s in seat_strategies("ass", [], 2)] == ["basic"] * 2
    with pytest.raises(StrategyError, match="exactly 3"):
        seat_strategies("ass", ["basic", "hold"], 3)
    families, params = engine_arrays(seat_strategies("ass", ["basic", "hold", "basic"], 3))
    assert families.tolist() == [0, 2, 0]
    assert params.shape == (3, N_PARAMS) and params.dtype == np.float64


def test_unknown_game_is_refused():
    with pytest.raises(StrategyError, match="unknown game"):
        registry.catalog("poker")


def test_a_knob_that_acts_only_in_rollouts_leaves_a_seats_identity_alone():
    """learned's depth changes only what learned does as pimc's rollout: at a seat learned-4
    plays as learned, so the two have one identity (as before the knob: compare refuses to
    pit them against each other, an old run with a learned seat still resumes), while
    pimc:rollout=learned-4 and pimc:rollout=learned are two strategies."""
    from strategies.registry import parse_strategy

    for game in ("ass", "jass"):
        learned = parse_strategy(game, "learned")
        # (learned also has knobs that act at a seat: model, and in Who's the Ass? hold)
        assert learned.identity() == ("learned:model=0.0,hold=2.0" if game == "ass"
                                      else "learned:model=0.0")
        assert parse_strategy(game, "learned-4").identity() == learned.identity()
        assert parse_strategy(game, "learned:depth=7").identity() == learned.identity()
        assert (parse_strategy(game, "pimc:rollout=learned-4").identity()
                != parse_strategy(game, "pimc:rollout=learned").identity())
    assert parse_strategy("ass", "learned-linear").identity() != parse_strategy(
        "ass", "learned").identity()  # another model: another player
    assert parse_strategy("jass", "learned-leaf").identity() != parse_strategy(
        "jass", "learned").identity()

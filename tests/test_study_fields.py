"""Study `fields`: the joker answer per field, and a robustness sentence that matches it."""

import re

from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.fields import hold_and_use, run_joker_fields

PAIRS = {"F1": ("h1", "u1"), "F2": ("h2", "u2")}


def test_the_robustness_sentence_gives_the_range_of_the_per_field_numbers():
    backend = SyntheticAssBackend(effects={"h1": 2.0, "h2": 5.0})
    result = run_joker_fields(backend, ["F1", "F2"], players=[3, 4], games=600, pairs=PAIRS)
    cells = result.table("cells")
    assert cells["clear"].all() and len(cells) == 4
    for _, row in cells.iterrows():
        true = 2.0 if row["field"] == "F1" else 5.0
        assert row["low"] <= true + 0.3 and row["high"] >= true - 0.3
    sentence = result.headlines[-1]
    assert sentence.startswith("In all 2 fields (F1, F2) and 2 player counts, holding jokers "
                               "costs between")
    lo, hi = (float(x) for x in re.findall(r"between ([\d.]+) and ([\d.]+)", sentence)[0])
    d = len(str(lo).split(".")[1])
    assert abs(lo - cells["difference"].min()) <= 10 ** -d
    assert abs(hi - cells["difference"].max()) <= 10 ** -d


def test_a_sign_that_flips_with_the_field_is_said_to_depend_on_it():
    backend = SyntheticAssBackend(effects={"h1": 2.0, "h2": -3.0})
    result = run_joker_fields(backend, ["F1", "F2"], players=[4], games=600, pairs=PAIRS)
    sentence = result.headlines[-1]
    assert sentence.startswith("Whether holding jokers pays depends on the field")
    assert "against F1 it costs at 4 players" in sentence
    assert "against F2 it saves at 4 players" in sentence


def test_identical_hold_and_use_are_not_compared():
    backend = SyntheticAssBackend(effects={})
    result = run_joker_fields(backend, ["F1"], players=[4], games=50,
                              pairs={"F1": ("same", "same")})
    assert result.table("cells")["identical"].all()
    assert "identical games in every cell" in result.headlines[-1]


def test_everything_else_equal():
    assert hold_and_use("careful") == ("careful:jokers=keep", "careful:jokers=as-needed")
    assert hold_and_use("basic") == ("heuristic:jokers=keep", "heuristic:jokers=as-needed")


def test_trump_answer_across_fields_names_the_rule_that_is_best_in_every_field():
    from analyzer.runner.synthetic import SyntheticTrumpBackend
    from analyzer.studies.fields import trump_across_fields

    class TwoFields(SyntheticTrumpBackend):
        """Field y plays other deals than x (same rules of the game, other numbers); z plays
        exactly as x."""

        def table(self, name, spec, start, count):
            from dataclasses import replace

            shift = 1 if spec.strategies[0] == "y" else 0
            return super().table(name, replace(spec, seed=spec.seed + shift), start, count)

    table, lines = trump_across_fields(TwoFields(), ["x", "y", "z"], players=[4], deals=400)
    assert set(table["field"]) == {"x", "y"}  # z merged into x
    assert lines[0].startswith("x = z: the trump rules lose exactly the same")
    high = next(x for x in lines if x.startswith("Choosers aiming high"))
    low = next(x for x in lines if x.startswith("Choosers aiming low"))
    assert "in all 2 fields" in high and "the longest suit" in high
    assert "in all 2 fields" in low and "the shortest suit" in low


def test_seat_effects_across_fields_are_judged_after_holm():
    from analyzer.studies.fields import seats_across_fields

    flat, lines = seats_across_fields(SyntheticAssBackend(seat_slope=0.0), ["F1", "F2"],
                                      games=400)
    assert set(flat["field"]) == {"F1", "F2"} and not flat["clear"].any()
    assert lines[0].startswith("In all 2 fields (F1, F2) at 4, 6 players, no seat pays clearly")
    steep, lines = seats_across_fields(SyntheticAssBackend(seat_slope=3.0), ["F1"], games=400)
    last = steep[(steep["players"] == 6) & (steep["seat"] == 5)].iloc[0]
    assert last["clear"] and last["seat_effect_low"] > 0
    assert "seat 5 at 6 players against F1" in lines[0]


def test_pimc_is_a_field_the_user_adds_and_plays_a_smaller_budget():
    import pytest

    from analyzer.errors import CardlabError
    from analyzer.studies.fields import DEFAULT_FIELDS, TRUMP_FIELDS, with_added

    assert "pimc" not in DEFAULT_FIELDS and "pimc" not in TRUMP_FIELDS
    ass, jass = with_added(list(DEFAULT_FIELDS), list(TRUMP_FIELDS), ["pimc", "careful"])
    assert ass == [*DEFAULT_FIELDS, "pimc"] and jass == [*TRUMP_FIELDS, "pimc"]
    with pytest.raises(CardlabError, match="neither game"):
        with_added([], [], ["nosuch"])
    backend = SyntheticAssBackend(effects={"h1": 2.0, "h2": 2.0})
    result = run_joker_fields(backend, ["F1", "pimc"], players=[4], games=400,
                              pairs={"F1": ("h1", "u1"), "pimc": ("h2", "u2")}, slow_share=8)
    cells = result.table("cells").set_index("field")
    assert cells.loc["F1", "deals"] == 400 and cells.loc["pimc", "deals"] == 50
    assert "(50 games per player count: a slow field)" in result.headlines[1]

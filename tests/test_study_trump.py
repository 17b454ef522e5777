"""Study `trump`: losses against the best suit in hindsight, on tables with a known answer."""

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import CardlabError
from analyzer.runner.synthetic import SyntheticTrumpBackend
from analyzer.studies.trump import AS_PLAYED, losses, run_trump


def _table(aim):
    # one decision, three candidate suits with known outcomes
    return pd.DataFrame({
        "index": [0, 0, 0], "deal": [0, 0, 0], "chooser": [1, 1, 1], "suit": [0, 1, 2],
        "chosen": [False, True, False], "points": [60.0, 40.0, 20.0], "sticks": [1, 0, 0],
        "aim": [aim] * 3, "length": [4, 3, 2], "suit_points": [30, 25, 10],
        "has_under": [True, False, False], "has_nine": [True, False, True],
        "pick_longest": [True, False, False], "pick_shortest": [False, False, True],
        "pick_random": [False, True, False],
    })


def test_losses_by_hand():
    loss = losses(_table("high")).set_index("rule")
    assert loss.loc["longest", "sticks_loss"] == 0 and loss.loc["longest", "points_loss"] == 0
    assert loss.loc["shortest", "sticks_loss"] == 1 and loss.loc["shortest", "points_loss"] == 40
    assert loss.loc[AS_PLAYED, "points_loss"] == 20
    assert (loss["longest"] == 4).all() and loss["under_nine"].all()
    low = losses(_table("low")).set_index("rule")
    assert low.loc["shortest", "points_loss"] == 0 and low.loc["longest", "points_loss"] == 40
    assert np.isnan(losses(_table("n/a")).set_index("rule").loc["longest", "points_loss"])


def test_a_rule_picking_two_suits_is_refused():
    t = _table("high")
    t["pick_longest"] = True
    with pytest.raises(CardlabError):
        losses(t)
    with pytest.raises(CardlabError):
        losses(t.iloc[0:0])


@pytest.fixture(scope="module")
def synthetic():
    return run_trump(SyntheticTrumpBackend(), players=[3, 4], rulesets=["seed"], deals=1500)


def test_the_known_best_rule_wins_for_each_aim(synthetic):
    rules = synthetic.table("rules")
    best = rules[rules["best"]].set_index(["players", "aim"])["rule"]
    for n in (3, 4):
        assert best[(n, "high")] == "longest"
        assert best[(n, "low")] == "shortest"
    assert (rules["sticks_loss"] >= 0).all() and (rules["points_loss"] >= 0).all()


def test_pairs_show_the_best_rule_clearly_ahead(synthetic):
    pairs = synthetic.table("pairs")
    high = pairs[(pairs["aim"] == "high") & (pairs["a"] == "shortest")].iloc[0]
    assert high["b"] == "longest" and high["low"] > 0.5
    assert "fixing the longest suit loses least" in synthetic.headlines[0]


def test_features_split_the_loss_by_hand(synthetic):
    feats = synthetic.table("features")
    assert set(feats["feature"]) == {"longest suit", "Under and Nine of one suit"}
    by_len = feats[(feats["feature"] == "longest suit") & (feats["rule"] == "random")]
    # random picks lose more points when the suits differ more (longer longest suit)
    loss = by_len.set_index(by_len["value"].astype(int))["points_loss"].sort_index()
    assert loss.iloc[-1] > loss.iloc[0]
    n = feats[(feats["feature"] == "longest suit")].groupby(["players", "rule"])["decisions"]
    assert (n.sum() == 1500).all()


def test_trump_study_on_real_deals():
    from analyzer.runner.play import KernelBackend

    result = run_trump(KernelBackend(workers=1), players=[4], rulesets=["seed", "swiss"],
                       deals=150, seed=6)
    rules = result.table("rules")
    assert set(rules["ruleset"]) == {"seed", "swiss"}
    assert {"longest", "under_nine", "most_points", "shortest", "fewest_points", "random",
            AS_PLAYED} == set(rules["rule"])
    assert (rules["sticks_loss"] >= 0).all()
    assert (rules[rules["aim"] != "n/a"]["points_loss"] >= 0).all()
    assert rules.groupby(["ruleset", "rule"])["decisions"].sum().max() <= 150
    assert result.manifest["runs"][1]["rules"]["ruleset"] == "swiss"
    assert result.headlines


@pytest.fixture(scope="module")
def with_choosers():
    return run_trump(SyntheticTrumpBackend(), players=[4], rulesets=["seed"], deals=1200,
                     choosers=["hindsight", "random", "x"], slow_deals=50)


def test_a_chooser_that_knows_the_best_suit_loses_nothing_and_is_clearly_better(with_choosers):
    c = with_choosers.table("choosers")
    # x plays exactly as the table's own players (adaptive): merged, named together
    assert set(c["chooser"]) == {"adaptive = x", "hindsight", "random"}
    own = c[(c["chooser"] == "hindsight") & (c["rule"] == AS_PLAYED)].iloc[0]
    assert own["sticks_loss"] == 0 and own["points_loss"] == 0 and own["picked_best"] == 1
    longest = c[(c["chooser"] == "hindsight") & (c["rule"] == "longest")].iloc[0]
    # paired on the same decisions: own minus rule is minus the rule's loss, clear after Holm
    assert longest["own_minus"] == pytest.approx(-longest["sticks_loss"])
    assert longest["clear"] and longest["own_minus_high"] < 0
    line = next(x for x in with_choosers.headlines if x.startswith("4 players, seed rules: "
                                                                   "hindsight's trump choice"))
    assert "loses 0 sticks per decision against the best suit in hindsight" in line
    assert "hindsight's choice loses clearly less" in line


def test_a_chooser_that_is_a_rule_is_not_clearly_different_from_it(with_choosers):
    c = with_choosers.table("choosers").set_index(["chooser", "rule"])
    same = c.loc[("random", "random")]
    assert same["own_minus"] == 0 and same["own_minus_half"] == 0 and not same["clear"]
    # the table's own players are in the table too, measured on their own decisions
    assert c.loc[("adaptive = x", AS_PLAYED), "decisions"] == 1200


def test_identical_choosers_are_merged_and_slow_ones_get_their_own_budget():
    res = run_trump(SyntheticTrumpBackend(), players=[4], rulesets=["seed"], deals=300,
                    choosers=["y", "pimc"], slow_deals=40)
    c = res.table("choosers")
    # y plays exactly as the table's players x: named together, measured once
    assert set(c["chooser"]) == {"adaptive = y", "pimc"}
    assert res.manifest["chooser_deals"] == {"adaptive": 300, "y": 300, "pimc": 40}
    assert (c[c["chooser"] == "pimc"]["decisions"] == 40).all()

"""Study `trump`: losses against the best suit in hindsight, on tables with a known answer."""

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import CardlabError
from analyzer.studies.synthetic import SyntheticTrumpBackend
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
    from analyzer.studies.play import KernelBackend

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

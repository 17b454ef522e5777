"""Paired and duplicate comparisons on synthetic data whose answer is known."""

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import CardlabError
from analyzer.stats.duplicate import (
    duplicate_pairs,
    duplicate_ranking,
    label_games,
    rotations,
    seat_swaps,
    unit_means,
)
from analyzer.stats.paired import paired_difference


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.8])
def test_variance_reduction_is_one_over_one_minus_correlation(rho):
    # equal variances and correlation rho: Var(a-b) = 2 s^2 (1 - rho), unpaired 2 s^2
    rng = np.random.default_rng(10)
    n = 200_000
    cov = [[1.0, rho], [rho, 1.0]]
    ab = rng.multivariate_normal([0.3, 0.0], cov, size=n)
    cmp = paired_difference(ab[:, 0], ab[:, 1])
    assert cmp.variance_reduction == pytest.approx(1 / (1 - rho), rel=0.03)
    assert cmp.correlation == pytest.approx(rho, abs=0.01)
    assert cmp.difference.contains(0.3)
    assert cmp.unpaired_half == pytest.approx(cmp.difference.half * np.sqrt(1 / (1 - rho)),
                                              rel=0.03)


def test_paired_difference_covers_a_known_difference():
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(400):
        luck = rng.normal(0, 5, size=50)
        a = luck + 1.0 + rng.normal(0, 1, size=50)
        b = luck + rng.normal(0, 1, size=50)
        hits += paired_difference(a, b).difference.contains(1.0)
    assert 0.91 <= hits / 400 <= 0.99


def test_paired_difference_rejects_mismatched_input():
    with pytest.raises(CardlabError):
        paired_difference(np.zeros(3), np.zeros(4))
    with pytest.raises(CardlabError):
        paired_difference(np.zeros(1), np.zeros(1))


def test_rotations_put_every_strategy_in_every_seat_once():
    for k, n in [(2, 5), (3, 4), (5, 3), (4, 4)]:
        names = [f"s{i}" for i in range(k)]
        arr = rotations(names, n)
        assert len(arr) == k
        for seat in range(n):
            assert sorted(a[seat] for a in arr) == sorted(names)


def test_seat_swaps_put_the_candidate_in_each_seat():
    arr = seat_swaps("hoard", ["basic"], 4)
    assert arr == [
        ("hoard", "basic", "basic", "basic"),
        ("basic", "hoard", "basic", "basic"),
        ("basic", "basic", "hoard", "basic"),
        ("basic", "basic", "basic", "hoard"),
    ]
    with pytest.raises(CardlabError):
        seat_swaps("hoard", ["basic", "random"], 4)


def _synthetic_duplicate(effects, players, deals, seed=0, seat_sd=3.0, deal_sd=4.0):
    """Games with value = strategy effect + seat effect + deal-seat luck + noise."""
    rng = np.random.default_rng(seed)
    names = list(effects)
    seat_effect = np.linspace(-seat_sd, seat_sd, players)
    luck = rng.normal(0, deal_sd, size=(deals, players))  # the deal favours some seats
    frames = []
    for r, seats in enumerate(rotations(names, players)):
        rows = pd.DataFrame({
            "index": np.repeat(np.arange(deals), players),
            "seat": np.tile(np.arange(players), deals),
        })
        eff = np.array([effects[s] for s in seats])
        noise = rng.normal(0, 1.0, size=deals * players)
        rows["value"] = (eff[rows["seat"]] + seat_effect[rows["seat"]]
                         + luck.ravel() + noise)
        frames.append(label_games(rows, r, seats))
    return pd.concat(frames, ignore_index=True)


def test_duplicate_estimator_recovers_known_effects_and_cancels_seat_luck():
    effects = {"a": 2.0, "b": 0.0, "c": -1.0}
    games = _synthetic_duplicate(effects, players=4, deals=3000)
    ranking = duplicate_ranking(games, "value", lower_is_better=True, order=list(effects))
    assert list(ranking["strategy"]) == ["c", "b", "a"]
    assert list(ranking["rank"]) == [1, 2, 3]
    pairs = duplicate_pairs(games, "value", order=list(effects))
    for _, row in pairs.iterrows():
        true = effects[row["a"]] - effects[row["b"]]
        # within ~3 standard errors (the 95% half-width is 1.96 of them)
        assert abs(row["difference"] - true) <= 1.6 * row["half"]
        assert row["half"] < 0.05
        # seat and deal luck (sd 3 and 4 against noise 1) cancel: pairing must save a lot
        assert row["variance_reduction"] > 5
    assert len(pairs) == 3


def test_duplicate_against_one_reference():
    games = _synthetic_duplicate({"x": 1.0, "y": 0.0, "z": 0.5}, players=3, deals=500, seed=4)
    pairs = duplicate_pairs(games, "value", against="y")
    assert set(zip(pairs["a"], pairs["b"], strict=True)) == {("x", "y"), ("z", "y")}


def test_unbalanced_tables_are_refused():
    games = _synthetic_duplicate({"a": 0.0, "b": 0.0}, players=3, deals=20)
    with pytest.raises(CardlabError):
        unit_means(games.iloc[1:], "value")

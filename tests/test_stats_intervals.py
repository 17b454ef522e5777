"""Intervals against textbook values and against simulated data with a known answer."""

import math

import numpy as np
import pytest

from analyzer.errors import CardlabError
from analyzer.stats.intervals import (
    clustered_share_interval,
    mean_interval,
    mean_interval_from_moments,
    proportion_interval,
    t_quantile,
    wald_interval,
    wilson_interval,
    z_quantile,
)


def test_normal_quantile_is_the_textbook_value():
    assert z_quantile(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_quantile(0.99) == pytest.approx(2.575829, abs=1e-6)


@pytest.mark.parametrize("df,expected", [(5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)])
def test_t_quantile_matches_the_t_table(df, expected):
    # two-sided 95% column of any t table
    assert t_quantile(0.95, df) == pytest.approx(expected, abs=2e-3)


# Newcombe (1998), Statistics in Medicine 17:857-872, Table I: methods 1 (Wald) and 3 (Wilson)
@pytest.mark.parametrize(
    "x,n,wilson,wald",
    [
        (81, 263, (0.2553, 0.3662), (0.2522, 0.3638)),
        (15, 148, (0.0624, 0.1605), (0.0527, 0.1500)),
        (0, 20, (0.0000, 0.1611), (0.0, 0.0)),
        (1, 29, (0.0061, 0.1718), (0.0, 0.1009)),
    ],
)
def test_wilson_and_wald_match_newcombe_table(x, n, wilson, wald):
    w = wilson_interval(x, n)
    assert (w.low, w.high) == pytest.approx(wilson, abs=1e-4)
    assert w.value == pytest.approx(x / n)
    d = wald_interval(x, n)
    assert (d.low, d.high) == pytest.approx(wald, abs=1e-4)


def test_wilson_covers_near_zero_where_wald_fails():
    # true p = 0.01 with n = 100: Wald's coverage is far below 95%, Wilson's is close to it
    rng = np.random.default_rng(1)
    xs = rng.binomial(100, 0.01, size=4000)
    wilson = np.mean([wilson_interval(x, 100).contains(0.01) for x in xs])
    wald = np.mean([wald_interval(x, 100).contains(0.01) for x in xs])
    assert wilson > 0.9
    assert wald < 0.7


def test_mean_interval_covers_the_known_mean_about_95_percent():
    rng = np.random.default_rng(2)
    data = rng.normal(3.0, 2.0, size=(2000, 12))
    covered = np.mean([mean_interval(row).contains(3.0) for row in data])
    # binomial sd of the coverage over 2000 runs is 0.005
    assert 0.93 < covered < 0.97


def test_mean_interval_matches_a_hand_computation():
    x = np.array([2.0, 4.0, 4.0, 5.0, 7.0, 8.0])
    est = mean_interval(x)
    half = 2.571 * np.std(x, ddof=1) / math.sqrt(6)  # t table, df = 5
    assert est.value == pytest.approx(5.0)
    assert est.half == pytest.approx(half, rel=1e-3)


def test_moments_and_raw_values_give_the_same_interval():
    rng = np.random.default_rng(3)
    x = rng.exponential(5.0, size=500)
    a = mean_interval(x)
    b = mean_interval_from_moments(x.size, x.sum(), (x * x).sum())
    assert (a.value, a.low, a.high) == pytest.approx((b.value, b.low, b.high), rel=1e-9)


def test_degenerate_inputs():
    assert math.isnan(mean_interval(np.array([1.0])).low)
    assert math.isnan(wilson_interval(0, 0).value)
    assert wilson_interval(20, 20).high == 1.0
    with pytest.raises(CardlabError):
        wilson_interval(5, 3)
    with pytest.raises(CardlabError):
        proportion_interval(1, 3, method="exact")
    with pytest.raises(CardlabError):
        z_quantile(1.5)


def test_scaled_estimate_is_a_penalty_in_points():
    est = wilson_interval(30, 100).scaled(20)
    assert est.value == pytest.approx(6.0)
    assert est.low < 6.0 < est.high


def test_a_clustered_share_is_wider_when_observations_come_alike_in_clusters():
    """clustered_share_interval: independent observations give about the Wilson interval;
    the same observations in clusters of identical values (ten copies of each) are worth
    one per cluster, so the interval is about that of the clusters alone; no spread falls
    back to the plain Wilson interval; mismatched or out-of-range input is refused."""
    rng = np.random.default_rng(5)
    y = (rng.random(400) < 0.95).astype(float)
    alone = clustered_share_interval(y, np.arange(400))
    plain = wilson_interval(y.sum(), 400)
    assert alone.value == pytest.approx(plain.value)
    assert alone.low == pytest.approx(plain.low, abs=0.004)
    assert alone.high == pytest.approx(plain.high, abs=0.004)
    copies = clustered_share_interval(np.repeat(y[:40], 10), np.repeat(np.arange(40), 10))
    few = wilson_interval(y[:40].sum(), 40)
    assert copies.value == pytest.approx(few.value)
    assert copies.high - copies.low == pytest.approx(few.high - few.low, rel=0.1)
    assert copies.high - copies.low > 2.5 * (alone.high - alone.low)
    every = clustered_share_interval(np.ones(50), np.arange(50) // 5)
    assert (every.low, every.high) == pytest.approx((wilson_interval(50, 50).low, 1.0))
    with pytest.raises(CardlabError):
        clustered_share_interval([1.0, 0.0], [0])
    with pytest.raises(CardlabError):
        clustered_share_interval([1.5], [0])

"""The sequential rule (confidence sequence + budget) on synthetic streams with known answers."""

import math

import numpy as np
import pytest

from analyzer.errors import CardlabError
from analyzer.stats.sequential import (
    ConfidenceSequence,
    RunningMoments,
    cs_radius,
    mixture_rho,
    run_sequential,
    run_sequential_many,
)


def _stream(mean, sd, seed):
    rng = np.random.default_rng(seed)
    return lambda start, count: rng.normal(mean, sd, size=count)


def test_running_moments_merge_batches_exactly():
    rng = np.random.default_rng(0)
    x = rng.normal(5, 2, size=1000)
    m = RunningMoments()
    for part in np.array_split(x, 7):
        m.add(part)
    assert m.n == 1000
    assert m.mean == pytest.approx(x.mean(), rel=1e-12)
    assert m.sd == pytest.approx(x.std(ddof=1), rel=1e-12)


def test_known_sd_boundary_is_time_uniform():
    # Gaussian data with known sd: the mixture boundary must cover the mean at all looks at
    # once in at least 95% of runs (Ville's inequality); vectorised over 2000 runs
    rng = np.random.default_rng(1)
    n = np.arange(1, 2001)
    x = rng.normal(0, 1, size=(2000, n.size))
    means = np.cumsum(x, axis=1) / n
    radius = cs_radius(n, 1.0, 0.05, mixture_rho(0.05, 500))
    ever_out = (np.abs(means) > radius).any(axis=1).mean()
    assert ever_out <= 0.05
    # ...while the fixed-sample 95% interval, checked at every n, is far too optimistic
    naive = (np.abs(means) > 1.96 / np.sqrt(n)).any(axis=1).mean()
    assert naive > 0.3


def test_no_difference_is_rarely_declared():
    # H0 true: the error rate over 300 streams stays at or below alpha = 0.05
    wrong = 0
    for seed in range(300):
        res = run_sequential(_stream(0.0, 3.0, seed), budget=3000, batch=200, alpha=0.05)
        wrong += res.decision != "undecided"
        assert (res.stopped_by == "budget") == (res.decision == "undecided")
    assert wrong / 300 <= 0.05


def test_a_clear_difference_stops_early_with_the_right_sign():
    res = run_sequential(_stream(-1.0, 3.0, 7), budget=100_000, batch=200, alpha=0.05)
    assert res.decision == "a-lower"
    assert res.stopped_by == "answer"
    assert res.n < 5_000
    assert res.low <= -1.0 <= res.high
    assert "below 0" in res.reason
    res = run_sequential(_stream(0.5, 3.0, 8), budget=100_000, batch=500, alpha=0.05)
    assert res.decision == "a-higher"


def test_a_tiny_difference_runs_into_the_budget():
    res = run_sequential(_stream(0.01, 3.0, 9), budget=2000, batch=500)
    assert res.decision == "undecided"
    assert res.stopped_by == "budget"
    assert res.n == 2000
    assert "budget" in res.reason
    assert len(res.looks) == 4


def test_equivalence_within_a_margin():
    res = run_sequential(_stream(0.0, 1.0, 10), budget=200_000, batch=1000, margin=0.1)
    assert res.decision == "equivalent"
    assert res.stopped_by == "answer"
    assert res.low > -0.1 and res.high < 0.1


def test_many_streams_stop_when_all_are_decided():
    rng = np.random.default_rng(11)

    def batch(start, count):
        return np.column_stack([rng.normal(-2, 3, count), rng.normal(1, 3, count)])

    res = run_sequential_many(batch, 2, budget=50_000, batch=100)
    assert [r.decision for r in res] == ["a-lower", "a-higher"]
    assert all(r.alpha == pytest.approx(0.025) for r in res)  # Bonferroni
    assert res[0].n <= res[1].n  # the larger effect is decided first


def test_no_look_before_min_n():
    cs = ConfidenceSequence(0.05, t_opt=1000, min_n=100)
    look = cs.update(np.full(50, 10.0))
    assert math.isinf(look.low) and math.isinf(look.high)


def test_bad_arguments_are_refused():
    with pytest.raises(CardlabError):
        run_sequential(_stream(0, 1, 0), budget=1)
    with pytest.raises(CardlabError):
        run_sequential(_stream(0, 1, 0), budget=100, margin=-1)
    with pytest.raises(CardlabError):
        ConfidenceSequence(alpha=2)
    with pytest.raises(CardlabError):
        run_sequential(lambda s, c: np.zeros(c + 1), budget=100, batch=10)

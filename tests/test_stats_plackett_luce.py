"""Plackett–Luce on finishing orders: agrees with choix, recovers planted strengths."""

import numpy as np
import pandas as pd
import pytest

from analyzer.stats.duplicate import rotations
from analyzer.stats.plackett_luce import choice_events, fit, plackett_luce

TRUE = {"a": -1.0, "b": -0.4, "c": 0.0, "d": 0.4, "e": 1.0}  # log-strengths, mean 0


def _games(deals: int, seed: int, players: int = 3, ties: bool = False) -> pd.DataFrame:
    """Ladder-shaped games: every rotation of the strategies on every deal; each table's
    finishing order drawn from the planted Plackett-Luce model (Gumbel trick)."""
    rng = np.random.default_rng(seed)
    tables = rotations(list(TRUE), players)
    seats = np.array(tables * deals, dtype=object)  # (deals x tables) x players, deal-major
    # one table after the other, as rng.gumbel(size=players) per table draws them
    key = np.vectorize(TRUE.get)(seats) + rng.gumbel(size=seats.shape)
    place = (-key).argsort(axis=1).argsort(axis=1)  # 0 = first
    if ties:  # only the winner is known (like Jass's `won`)
        place = np.minimum(place, 1)
    k = len(tables)
    return pd.DataFrame({
        "index": np.repeat(np.arange(deals), k * players),
        "arrangement": np.tile(np.repeat(np.arange(k), players), deals),
        "seat": np.tile(np.arange(players), deals * k),
        "strategy": seats.ravel(), "result": place.ravel().astype(float),
    })


def test_the_fit_is_the_maximum_likelihood_estimate_of_choix():
    choix = pytest.importorskip("choix")
    games = _games(150, seed=1)
    ev = choice_events(games, "result", lower=True)
    ours = fit(ev.sets, ev.winners, ev.counts.sum(axis=0), alpha=0.0)[0]
    # the same events one by one for choix (each seat of a set is a distinct strategy here)
    data = []
    for (w, s), c in zip(zip(ev.winners, ev.sets, strict=True), ev.counts.sum(axis=0),
                         strict=True):
        losers = [int(j) for j in np.flatnonzero(s) if j != w]
        data += [(int(w), losers)] * int(c)
    theirs = choix.ilsr_top1(len(ev.names), data, tol=1e-10)
    assert np.allclose(ours, theirs - theirs.mean(), atol=1e-5)


def test_events_count_each_place_and_only_the_winner_under_ties():
    games = _games(2, seed=2, ties=True)
    ev = choice_events(games, "result", lower=True)
    # one event per table: 2 deals x 5 rotations; each the winner against both others
    assert ev.counts.sum() == 10 and (ev.sets.sum(axis=1) == 3).all()
    strict = choice_events(_games(2, seed=2), "result", lower=True)
    assert strict.counts.sum() == 20  # first against two, second against one


@pytest.mark.parametrize("ties", [False, True])
def test_planted_strengths_are_recovered_with_correct_coverage(ties):
    truth = np.array(list(TRUE.values()))
    hits, total, errors = 0, 0, []
    for rep in range(25):
        pl = plackett_luce(_games(120, seed=100 + rep, ties=ties), "result", lower=True,
                           draws=200, seed=rep)
        est = pl.set_index("strategy").loc[list(TRUE)]
        hits += int(((est["pl_low"] <= truth) & (truth <= est["pl_high"])).sum())
        total += len(truth)
        errors.append(np.abs(est["pl"].to_numpy() - truth).max())
    assert 0.88 <= hits / total <= 1.0  # 95% intervals: about 119 of 125
    assert np.median(errors) < 0.35
    assert list(est.sort_values("pl_rank").index) == ["e", "d", "c", "b", "a"]

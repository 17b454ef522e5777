"""Issue 20 item 6: a tiny budget makes no false statement in ``study jokers``.

Two policies are merged as identical only when they are the same strategy or play identical
games on a probe of IDENTITY_PROBE deals (stated in the headline); a variance-reduction
figure is given only where its denominator rests on enough deals that differ.
"""

from dataclasses import replace

import numpy as np
import pandas as pd

from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.stats.duplicate import MIN_RATIO_UNITS, duplicate_pairs
from analyzer.studies.jokers import IDENTITY_PROBE, run_jokers

RARE = 97  # keep=4 plays otherwise than keep=3 on every RARE-th deal only


class RareTwins(SyntheticAssBackend):
    """keep=3 and keep=4 play the same games but on deals index % RARE == RARE - 1, where
    keep=4 loses one more point: identical on a handful of deals, different on hundreds."""

    def collect(self, spec, count, start=0):
        if spec.mode == "matches":
            return super().collect(spec, count, start)
        seats = [s == "hold-jokers:keep=4" for s in spec.strategies]
        same = tuple("hold-jokers:keep=3" if s == "hold-jokers:keep=4" else s
                     for s in spec.strategies)
        rows = super().collect(replace(spec, strategies=same), count, start)
        rare = (rows["index"].to_numpy() % RARE == RARE - 1) & np.asarray(seats)[rows["seat"]]
        rows.loc[rare, "minus_points"] += 1.0
        return rows


def test_item06_tiny_budget_does_not_merge_policies_that_differ_on_a_probe():
    result = run_jokers(RareTwins(), players=[3], keep=[3, 4], games=2, matches=0)
    pol = result.table("policies").set_index("strategy")
    assert pol.loc["keep-until-4", "same_as"] == "keep-until-4"  # not merged with keep=3
    pairs = result.table("differences")
    twin = pairs[(pairs["a"] == "keep-until-3") & (pairs["b"] == "keep-until-4")]
    assert not twin["identical"].any()
    assert not any("keeping jokers until 3 cards are left = keeping jokers until 4" in h
                   for h in result.headlines)
    assert str(IDENTITY_PROBE) in result.manifest["identity_probe"]


def test_item06_merges_state_the_probe_they_rest_on():
    class Twin(SyntheticAssBackend):  # keep=0 plays exactly as hoarding
        def collect(self, spec, count, start=0):
            same = tuple("joker-hoarder" if s == "hold-jokers:keep=0" else s
                         for s in spec.strategies)
            return super().collect(replace(spec, strategies=same), count, start)

    result = run_jokers(Twin(), players=[3], keep=[0, 4], games=2, matches=0)
    line = next(h for h in result.headlines if "merged and never compared" in h)
    assert f"in every seat of {IDENTITY_PROBE:,} deals" in line
    assert "hoarding jokers = keeping jokers until 0 cards are left" in line


def test_item06_no_variance_reduction_figure_from_two_deals():
    result = run_jokers(SyntheticAssBackend(), players=[3], keep=[3], games=2, matches=0)
    pairs = result.table("differences")
    assert pairs["variance_reduction"].isna().all()
    assert not any("times more precise" in h for h in result.headlines)
    assert any("figure needs at least" in h for h in result.headlines)


def test_item06_variance_reduction_needs_deals_that_differ():
    """Two strategies differing on one deal of 200 have a paired variance near zero: the
    ratio would be in the thousands and mean nothing."""
    n = 200
    rng = np.random.default_rng(3)
    luck = rng.normal(40, 8, n)
    rows = []
    for name, bump in (("a", 0.0), ("b", 1.0)):
        value = luck.copy()
        if bump:
            value[17] += bump
        rows.append(pd.DataFrame({"index": np.arange(n), "arrangement": 0, "seat": 0,
                                  "strategy": name, "minus_points": value}))
    games = pd.concat(rows, ignore_index=True)
    assert np.isnan(duplicate_pairs(games, "minus_points")["variance_reduction"].iloc[0])
    many = games.copy()
    many.loc[many["strategy"] == "b", "minus_points"] += rng.normal(0, 1, n)
    vr = duplicate_pairs(many, "minus_points")["variance_reduction"].iloc[0]
    assert np.isfinite(vr) and vr > 1 and n >= MIN_RATIO_UNITS


def test_item06_real_games_keep_until_3_and_4_are_not_merged_on_two_deals():
    """The issue's case, `study jokers -p 3 --games 2`: the two agree on the two deals and
    differ on the probe."""
    from analyzer.runner.play import KernelBackend

    result = run_jokers(KernelBackend(workers=1), players=[3], keep=[3, 4], games=2, matches=0)
    pol = result.table("policies").set_index("strategy")
    assert pol.loc["keep-until-4", "same_as"] == "keep-until-4"
    assert pol.loc["keep-until-3", "same_as"] == "keep-until-3"

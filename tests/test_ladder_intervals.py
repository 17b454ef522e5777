"""The ladder's intervals hold when a strategy's result depends on its company (issue 21,
items 2 and 3): the seating is the unit of randomisation, groups are transitive, no single
rank beside a tie, and a strategy tagged slow enters on its share of the deals."""

import itertools

import numpy as np
import pandas as pd

from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.stats.hygiene import ordered_groups, rank_ranges
from analyzer.studies.ladder import (
    SLOW_SHARE,
    design,
    ladder_strategies,
    left_out,
    run_ladder,
)
from analyzer.studies.ladder_coverage import coverage
from reports.claims import check
from reports.studies.ladder import ladder_finding

EFFECTS = {"s1": -3.0, "s2": -1.0, "s3": 0.0, "s4": 0.0, "s5": 2.0}
CENTRE = float(np.mean(list(EFFECTS.values())))


def test_ladder_intervals_cover_with_neighbour_effects():
    # 20 seeds x 7 strategies; the old design (8 blocks of one seating each, intervals over
    # deals) covered about a third of the true ratings here (scripts/ladder_coverage.py: 200
    # seeds for the 93-97% figure). 15 seatings of 6-7 deals (not 25 of 4): a quarter less CPU,
    # and more deals share each seating's neighbour effects (94% covered over 200 seeds)
    table = coverage(20, deals=100, seatings=15)
    assert len(table) == 20 * 7
    assert 0.88 <= table["covered"].mean() <= 0.99
    assert table.loc[table["entrant"], "covered"].mean() >= 0.8


def test_ladder_seating_is_drawn_afresh_per_group_and_every_seat_is_played():
    plan = design(list("abcdef"), ["e"], 4, deals=400, seed=3, seatings=200)
    assert len(plan) == 200 and sum(p.count for p in plan) == 400
    assert len({p.order for p in plan}) > 150  # a fresh order per group of two deals
    for p in plan[:20]:  # every strategy in every seat once per deal
        seats = np.array(p.tables(4))
        for name in "abcdef":
            assert sorted(np.nonzero(seats == name)[1]) == [0, 1, 2, 3]
    assert sum(p.entrant_deals for p in plan) == 400 // SLOW_SHARE  # the entrant's share
    assert all(t[s] == "e" for p in plan for s, t in enumerate(p.entrant_tables))
    # the regular strategies' seatings do not depend on whether an entrant plays
    alone = design(list("abcdef"), [], 4, deals=400, seed=3, seatings=200)
    assert [p.order for p in alone] == [p.order for p in plan]


def test_ladder_groups_are_transitive_and_no_single_rank_beside_a_tie():
    # a-b and b-c cannot be separated, a-c can: the old tiers put c a tier below b
    sep = {("a", "c"): True}
    assert ordered_groups(["a", "b", "c"], sep) == {"a": 1, "b": 1, "c": 1}
    assert rank_ranges(["a", "b", "c"], sep) == {"a": (1, 2), "b": (1, 3), "c": (2, 3)}
    rng = np.random.default_rng(4)
    names = list("abcdefg")
    for _ in range(200):
        sep = {pair: bool(rng.random() < 0.6) for pair in itertools.combinations(names, 2)}
        groups, ranges = ordered_groups(names, sep), rank_ranges(names, sep)
        for a, b in itertools.combinations(names, 2):
            if groups[a] != groups[b]:  # across groups: always clearly separated
                assert sep[(a, b)]
            if not sep[(a, b)]:  # a tie: neither gets a single rank
                assert ranges[a][0] < ranges[a][1] and ranges[b][0] < ranges[b][1]


def test_ladder_ties_print_rank_ranges():
    result = run_ladder(SyntheticAssBackend(effects=EFFECTS), "ass", list(EFFECTS),
                        players=[4], games=600, probe_deals=0, margin=0, seatings=50)
    r = result.table("ratings").set_index("strategy")
    assert r.loc["s3", "tier"] == r.loc["s4", "tier"]
    for name in ("s3", "s4"):
        assert r.loc[name, "rank_low"] < r.loc[name, "rank_high"]
    assert "(ranks 3-4)" in result.headlines[0] and "(rank 3)" not in result.headlines[0]


def test_ladder_slow_strategy_enters_on_its_share_and_leaves_the_others_unchanged():
    backend = SyntheticAssBackend(effects={**EFFECTS, "e": -6.0})
    with_e = run_ladder(backend, "ass", [*EFFECTS, "e"], players=[4], games=400,
                        probe_deals=0, slow=["e"], slow_share=10, seatings=50)
    without = run_ladder(backend, "ass", list(EFFECTS), players=[4], games=400,
                         probe_deals=0, seatings=50)
    r = with_e.table("ratings").set_index("strategy")
    assert bool(r.loc["e", "entrant"]) and r.loc["e", "deals"] == 40
    assert r.loc["e", "games"] == 40 * 4 and r.loc["e", "tier"] == 1
    assert r.loc["e", "low"] <= -6.0 - CENTRE <= r.loc["e", "high"]
    regular = r.drop(index="e")[["rating", "low", "high"]].sort_index()
    alone = without.table("ratings").set_index("strategy")[["rating", "low", "high"]]
    pd.testing.assert_frame_equal(regular, alone.sort_index())
    assert with_e.manifest["entrants"] == ["e"]
    assert any(h.startswith("e is tagged slow: it played 40 of the games (1/10")
               for h in with_e.headlines)


def test_ladder_finding_names_the_entrant_and_what_was_left_out():
    assert [x["strategy"] for x in left_out("ass", ladder_strategies("ass"))] == ["peek"]
    backend = SyntheticAssBackend(effects={**EFFECTS, "e": -6.0})
    result = run_ladder(backend, "ass", [*EFFECTS, "e"], players=[4], games=300,
                        probe_deals=0, slow=["e"], slow_share=10, seatings=50)
    result.manifest["left_out"] = left_out("ass", ladder_strategies("ass"))
    finding = ladder_finding(result)
    assert finding.verdict.startswith("Who's the Ass?, 4 players: e, then s1")
    without = [c for c in finding.claims if c.id.endswith("-without-slow")]
    assert [c.choice for c in without[0].cells] == ["s1"]
    assert "e (tagged slow) played 1/10 of the budget" in finding.detail
    assert "Not rated: peek (Who's the Ass?): not a player" in finding.detail
    assert all(check(claim, result) == [] for claim in finding.claims)


def test_ladder_groups_count_only_differences_beyond_the_margin():
    # s3 and s4 0.4 apart, s1 3 ahead of s2: with a tiny noise every difference is clear,
    # but with a margin of 1 minus point per game (the measure's own) only the big gaps cut
    effects = {"s1": -3.0, "s2": 0.0, "s3": 0.4, "s4": 4.0}
    backend = SyntheticAssBackend(effects=effects, luck_sd=0.5, noise_sd=0.3)
    # 50 seatings of 8 deals (the default 200 of 2 cost four times the runs): the same deals
    plain = run_ladder(backend, "ass", list(effects), players=[4], games=400, probe_deals=0,
                       margin=0, seatings=50)
    counted = run_ladder(backend, "ass", list(effects), players=[4], games=400,
                         probe_deals=0, seatings=50)
    tiers = plain.table("ratings").set_index("strategy")["tier"].to_dict()
    assert tiers == {"s1": 1, "s2": 2, "s3": 3, "s4": 4}
    r = counted.table("ratings").set_index("strategy")
    assert r["tier"].to_dict() == {"s1": 1, "s2": 2, "s3": 2, "s4": 3}
    assert (r.loc["s2", "rank_low"], r.loc["s2", "rank_high"]) == (2, 3)
    pairs = counted.table("pairs").set_index(["a", "b"])
    assert bool(pairs.loc[("s2", "s3"), "clear"]) and not pairs.loc[("s2", "s3"), "apart"]
    assert (pairs["margin"] == 1.0).all() and (pairs["p_apart"] >= pairs["p"]).all()
    assert counted.manifest["margin"] == 1.0
    assert any("clearly more than 1 minus point per game ahead of every one below" in h
               for h in counted.headlines)
    # margin 0 gives the plain tests back exactly
    same = plain.table("pairs")
    assert (same["apart"] == same["clear"]).all() and (same["p_apart"] == same["p"]).all()
    # a margin larger than every difference: one group, every strategy ranks 1-4
    wide = run_ladder(backend, "ass", list(effects), players=[4], games=400, probe_deals=0,
                      margin=10, seatings=50)
    w = wide.table("ratings")
    assert (w["tier"] == 1).all() and (w["rank_low"] == 1).all() and (w["rank_high"] == 4).all()
    finding = ladder_finding(counted)
    assert all(check(claim, counted) == [] for claim in finding.claims)
    assert "more than the margin (1 minus point per game in Who's the Ass?)" in finding.detail


def test_every_default_metric_declares_the_margin_the_ladder_counts():
    from analyzer.games.registry import get

    assert get("ass").measure("minus_points").margin == 1.0
    assert all(get(g).measure(get(g).mode(m.name).default_metric).margin > 0
               for g in ("ass", "jass") for m in get(g).modes)


def test_ladder_rates_a_win_share_as_a_fraction():
    # Who's the Ass? matches store win shares in whole 1/WIN_SHARE_UNIT (exact sums, A-12);
    # the ladder rated those raw units until it scaled them like compare does
    from analyzer.runner.play import KernelBackend

    result = run_ladder(KernelBackend(workers=1), "ass", ["basic", "random"], players=[3],
                        games=30, mode="matches", probe_deals=0, seatings=10)
    r = result.table("ratings").set_index("strategy")
    assert result.manifest["metric"] == "win_share" and result.manifest["margin"] == 0.01
    assert -1 <= r.loc["random", "rating"] < 0 < r.loc["basic", "rating"] <= 1
    assert r["mean"].min() >= 0 and r["mean"].max() <= 1

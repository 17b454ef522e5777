"""Study `ladder`: planted strengths recovered with the stated coverage; identical play merged."""

from dataclasses import replace

import numpy as np

from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.stats.hygiene import holm, ordered_groups
from analyzer.studies import ladder
from analyzer.studies.ladder import ladder_strategies, run_ladder
from analyzer.studies.same_play import decision_key

EFFECTS = {"s1": -3.0, "s2": -1.0, "s3": 0.0, "s4": 0.0, "s5": 2.0}
TRUE = {k: v - np.mean(list(EFFECTS.values())) for k, v in EFFECTS.items()}


class TwinBackend(SyntheticAssBackend):
    """'twin' plays exactly as s3 (same games), under another name."""

    def collect(self, spec, count, start=0):
        same = tuple("s3" if s == "twin" else s for s in spec.strategies)
        return super().collect(replace(spec, strategies=same), count, start)


def test_ladder_recovers_planted_strengths_and_ties():
    # 50 seatings of 30 deals (not 200 of 7.5): the same 1,500 deals, a quarter of the runs;
    # without neighbour effects the intervals are as narrow (+/- 0.08 here, the gaps 1 to 2)
    result = run_ladder(SyntheticAssBackend(effects=EFFECTS), "ass", list(EFFECTS),
                        players=[4], games=1500, probe_deals=0, margin=0, seatings=50)
    r = result.table("ratings").set_index("strategy")
    assert list(r.index[:2]) == ["s1", "s2"] and r.index[-1] == "s5"
    assert r.loc["s3", "tier"] == r.loc["s4", "tier"]  # equal strengths: one tier
    assert r.loc["s1", "tier"] < r.loc["s2", "tier"] < r.loc["s3", "tier"] < r.loc["s5", "tier"]
    assert (r.loc["s1", "rank_low"], r.loc["s1", "rank_high"]) == (1, 1)
    assert r.loc["s3", "rank_low"] <= 3 and r.loc["s4", "rank_high"] >= 4
    pairs = result.table("pairs")
    assert len(pairs) == 10 and (pairs["p_holm"] >= pairs["p"]).all()
    assert (pairs["sim_half"] > pairs["half"]).all()
    assert any("Best of 5: s1 leads s2" in h and "clearly ahead" in h
               for h in result.headlines)


def test_rating_and_difference_intervals_cover_the_planted_values(monkeypatch):
    # only the tables are counted here: the study's sentences (about half of each run's CPU)
    # are left unwritten; tests/test_study_claims.py checks them
    monkeypatch.setattr(ladder, "_claims", lambda *args, **kwargs: [])
    backend = SyntheticAssBackend(effects=EFFECTS)
    inside = cover_pairs = total = total_pairs = 0
    for seed in range(30):
        res = run_ladder(backend, "ass", list(EFFECTS), players=[4], games=120, seed=seed,
                         probe_deals=0, seatings=20)
        for _, row in res.table("ratings").iterrows():
            inside += row["low"] <= TRUE[row["strategy"]] <= row["high"]
            total += 1
        for _, row in res.table("pairs").iterrows():
            true = EFFECTS[row["a"]] - EFFECTS[row["b"]]
            cover_pairs += row["low"] <= true <= row["high"]
            total_pairs += 1
    assert 0.90 <= inside / total <= 0.99  # 150 intervals at 95%
    assert 0.90 <= cover_pairs / total_pairs <= 0.99  # 300 intervals at 95%


def test_identical_strategies_are_merged_and_named_together():
    backend = TwinBackend(effects=EFFECTS)
    result = run_ladder(backend, "ass", ["s1", "s3", "twin", "s5"], players=[4], games=200,
                        seatings=50)
    r = result.table("ratings")
    assert "twin" not in set(r["strategy"]) and len(r) == 3
    assert r.set_index("strategy").loc["s3", "members"] == "s3 = twin"
    merged = result.table("merged")
    assert list(merged[["kept", "merged"]].iloc[0]) == ["s3", "twin"]
    assert any("twin plays exactly as s3" in h for h in result.headlines)


def test_same_family_and_knobs_is_one_decision_key_and_tags_exclude():
    assert decision_key("ass", "hold-jokers:keep=2") == decision_key(
        "ass", "heuristic:jokers=keep-until,keep=2")
    assert decision_key("ass", "basic") != decision_key("ass", "careful")
    names = ladder_strategies("ass")
    assert "basic" in names and "careful" in names
    assert "pimc" in names and "peek" not in names  # slow plays (as an entrant); not a player


def test_holm_and_groups():
    assert np.allclose(holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    sep = {("a", "c"): True, ("a", "d"): True, ("b", "c"): True, ("b", "d"): True}
    assert ordered_groups(["a", "b", "c", "d"], sep) == {"a": 1, "b": 1, "c": 2, "d": 2}


def test_a_knob_whose_zero_is_the_player_counts_keys_as_it_plays():
    """Jass pimc's worlds=0 plays WORLDS_AT_3 worlds at 3 players and WORLDS_AT_4 at 4: at each
    count it is one decision key with the count named, and another than any other count of
    worlds named; with no player count it is its own key."""
    from strategies.jass.knobs import WORLDS_AT_3, WORLDS_AT_4

    for n, worlds in ((3, WORLDS_AT_3), (4, WORLDS_AT_4)):
        assert decision_key("jass", "pimc", n) == decision_key("jass", f"pimc:worlds={worlds}", n)
        for other in (worlds - 1, worlds + 1):
            assert decision_key("jass", "pimc", n) != \
                decision_key("jass", f"pimc:worlds={other}", n)
    assert decision_key("jass", "pimc") != decision_key("jass", f"pimc:worlds={WORLDS_AT_3}")

"""Study `jokers`: the duplicate one-seat-against-the-field design on known effects."""

import numpy as np
import pytest

from analyzer.errors import CardlabError
from analyzer.runner.play import KernelBackend
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.jokers import policies, run_jokers
from analyzer.text import pm

EFFECTS = {
    "joker-hoarder": 3.0, "joker-hoarder:ass_jokers=throw": 1.5, "joker-dumper": 0.0,
    "finisher": 1.0, "heuristic": 0.5,
    **{f"hold-jokers:keep={k}": abs(k - 4) * 0.5 for k in range(14)},
}


@pytest.fixture(scope="module")
def synthetic():
    backend = SyntheticAssBackend(effects=EFFECTS)
    return backend, run_jokers(backend, players=[4, 6], keep=[0, 4, 8], games=600)


def test_known_policy_differences_are_recovered(synthetic):
    _, result = synthetic
    pairs = result.table("differences")
    for _, row in pairs.iterrows():
        label = {p.name: p.label for p in policies([0, 4, 8])}
        true = EFFECTS[label[row["a"]]] - EFFECTS[label[row["b"]]]
        assert abs(row["difference"] - true) < 1.6 * row["half"], row.to_dict()
        # deal and seat luck (sd 6 and the seat slope) cancel; only the noise (sd 3) is left
        assert row["variance_reduction"] > 3


def test_every_policy_plays_every_seat_of_every_deal(synthetic):
    backend, result = synthetic
    pol = result.table("policies")
    assert set(pol["strategy"]) == {"hoard", "hoard-normal", "as-needed", "finish", "dump",
                                    "keep-until-0", "keep-until-4", "keep-until-8"}
    n4 = pol[pol["players"] == 4]
    assert (n4["games"] == 600 * 4).all() and (n4["deals"] == 600).all()
    # 8 policies x (4 + 6) seats, one run each, for games and for matches; against each strong
    # field the two hoarders, as-needed and the keep-until sweep, one run per seat: learned
    # the whole sweep (0, 4, 8), pimc (slow) the sweep's points in SLOW_KEEP (4, 8)
    assert backend.calls == 2 * 8 * 10 + (3 + 3) * 10 + (3 + 2) * 10 \
        == len(result.manifest["runs"])
    assert result.manifest["slow_keep"] == [4, 8]
    best = pol[pol["players"] == 6].sort_values("mean").iloc[0]
    assert best["strategy"] in ("dump", "keep-until-4")  # the two with effect 0


def test_headline_measures_hoarding_against_as_needed_like_its_figure(synthetic):
    _, result = synthetic
    pairs = result.table("differences")
    sentence = result.headlines[0]
    assert sentence.startswith("Against basic opponents, hoarding jokers (never playing one "
                               "while number cards remain, not even into an ass round) costs "
                               "minus points compared with using jokers as needed")
    for n in (4, 6):
        row = pairs[(pairs["players"] == n) & (pairs["a"] == "hoard")
                    & (pairs["b"] == "as-needed")]
        d, h = row["difference"].iloc[0], row["half"].iloc[0]
        assert f"{pm(abs(d), h)} at {n} players" in sentence
    assert "dumping" not in sentence
    # one line per finding (two hoarders, by jokers dealt, the strong field, match wins, best
    # policy, k sweep, precision, merged twins), not one per player count
    assert len(result.headlines) <= 9


def test_A12_match_wins_follow_the_known_effects(synthetic):
    """Matches of K = players games: the policy with the biggest cost in minus points wins the
    fewest matches; the policy equal to the field keeps the fair 1/n share; the headline puts
    the match chance next to the minus points per game."""
    _, result = synthetic
    wins = result.table("match_wins")
    assert set(wins["games_per_match"]) == {4, 6}
    for n, part in wins.groupby("players"):
        by = part.set_index("strategy")
        assert by.loc["hoard", "mean"] < by.loc["as-needed", "mean"]
        assert (part["matches"] == 30).all() and (part["games"] == 30 * n).all()
    versus = result.table("match_differences")
    assert set(versus["b"]) == {"as-needed"}
    line = next(h for h in result.headlines if "evening" in h)
    assert line.startswith("At 4 players against basic opponents, hoarding jokers turns a ")
    assert "chance to win a 4-player evening of 4 games into" in line
    assert "minus points per game" in line


def test_bad_sweep_is_refused():
    with pytest.raises(CardlabError):
        policies([14])


def test_jokers_study_with_real_games():
    result = run_jokers(KernelBackend(workers=1), players=[4], keep=[1], games=60, seed=9)
    pol = result.table("policies")
    assert len(pol) == 6
    assert np.isfinite(pol["mean"]).all()
    assert result.manifest["policies"]["hoard"] == "joker-hoarder"
    specs = result.manifest["runs"]
    assert specs[0]["strategies"] == ["joker-hoarder", "basic", "basic", "basic"]
    assert specs[1]["strategies"] == ["basic", "joker-hoarder", "basic", "basic"]
    wins = result.table("match_wins").set_index("strategy")
    # as-needed plays as the basic field: on every match its places share exactly 1/n
    assert wins.loc["as-needed", "mean"] == pytest.approx(0.25, abs=1e-12)
    assert wins["mean"].between(0, 1).all()


def test_identical_policies_are_merged_and_best_of_k_is_corrected():
    # keep-until-0 plays exactly as hoarding in the synthetic backend when they share a label
    effects = {**EFFECTS, "hold-jokers:keep=0": EFFECTS["joker-hoarder"]}

    class Twin(SyntheticAssBackend):
        def collect(self, spec, count, start=0):
            from dataclasses import replace

            same = tuple("joker-hoarder" if s == "hold-jokers:keep=0" else s
                         for s in spec.strategies)
            return super().collect(replace(spec, strategies=same), count, start)

    result = run_jokers(Twin(effects=effects), players=[4], keep=[0, 4], games=300)
    pol = result.table("policies").set_index("strategy")
    assert pol.loc["keep-until-0", "same_as"] == "hoard"
    pairs = result.table("differences")
    twin = pairs[(pairs["a"] == "hoard") & (pairs["b"] == "keep-until-0")]
    assert twin["identical"].all() and (twin["p_holm"] == 1).all()
    assert (pairs["p_holm"] >= 0).all() and (pairs[~pairs["identical"]]["p_holm"] <= 1).all()
    assert any("merged and never compared" in h and "hoarding jokers = keeping jokers until 0"
               in h for h in result.headlines)
    assert any("Holm's correction" in h for h in result.headlines)
    assert not any("0.000 +/- 0.000" in h for h in result.headlines)

"""scripts/bench_strongest.py: its head-to-head says which side is which, whatever the order in
which a strategy's knobs are written, and it refuses sizes that measure nothing."""

import pytest
from script_module import load

import cardlab


def _module():
    return load("bench_strongest")


def test_head_to_head_is_the_first_strategy_minus_the_second():
    """Knobs written out of the catalogue's order (the compare labels them in its order):
    the difference is still a's mean minus b's, from the ranking of the same comparison."""
    a, b = "heuristic:lead=safe,jokers=keep", "basic"
    row = _module().head_to_head("ass", 4, a, b, 20, 3, "")
    ranking = cardlab.compare("ass", [a, b], players=4, games=20, seed=3, workers=1).ranking
    means = dict(zip(ranking["strategy"], ranking["mean"], strict=True))
    mean_a = means["heuristic:jokers=keep,lead=safe"]
    assert row["difference"] == pytest.approx(mean_a - means["basic"])
    assert row["low"] < row["difference"] < row["high"]
    assert row["difference"] != 0


def test_sizes_that_measure_nothing_are_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        _module().main(["--games", "1"])
    assert stop.value.code == 2
    assert "--games must be at least 2" in capsys.readouterr().err


def test_speeds_are_medians_over_rounds_and_a_slow_round_leaves_the_ratios(monkeypatch):
    """Each round times every table on the same units; a round in which the machine runs at
    half speed (every timing of it alike) moves no ratio, and a rate is the median."""
    bench = _module()
    base = {"basic": 1000.0, "pimc-rollouts": 10.0, "strong": 1.0, "pimc": 12.0}
    calls = []

    def fake_speed(game, players, player, units, mode):
        calls.append(player)
        slow = 0.5 if len(calls) in range(5, 9) else 1.0  # the second round, all four tables
        return base[player] * slow, None

    monkeypatch.setattr(bench, "speed", fake_speed)
    row = bench.speeds("ass", 4, {"pimc": "pimc-rollouts", "strong": "strong",
                                  "candidate": "pimc"}, 20, "deals", 3)
    assert calls == ["basic", "pimc-rollouts", "strong", "pimc"] * 3
    assert row["speed_ratio"] == pytest.approx(1.2)
    assert row["candidate_ratio"] == pytest.approx(12.0 / 1000.0)
    assert row["candidate_rate"] == 12.0 and row["cheap_rate"] == 1000.0
    assert row["deal_speed_ratio"] is None and row["rounds"] == 3
    with pytest.raises(SystemExit) as stop:
        bench.main(["--speed-rounds", "0"])
    assert stop.value.code == 2

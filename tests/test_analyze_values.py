"""The analysis' differences to the best move are read against a pick (the best of k moves
on the same worlds): their intervals are widened for the selection, so moves that are all
worth the same are not called clearly worse than the one that happened to look best."""

import numpy as np

from analyzer.analysis.values import label, loss_of, move_rows


def _equal_moves(rng, worlds=400, k=10):
    """k moves of exactly equal worth: the same per-world luck plus independent noise."""
    common = rng.normal(20.0, 8.0, size=(worlds, 1))
    return common + rng.normal(0.0, 3.0, size=(worlds, k))


def test_equal_moves_are_rarely_called_clearly_worse():
    rng = np.random.default_rng(5)
    names = [f"m{i}" for i in range(10)]
    clear = 0
    trials = 300
    for _ in range(trials):
        rows = move_rows("ass", _equal_moves(rng), names, None)
        clear += any(loss_of("ass", r)[1] > 0 for r in rows if not r["best"])
    # every pair together at 95%: a false "clearly worse" in at most about 5% of positions
    assert clear / trials <= 0.08


def test_without_the_widening_the_same_positions_would_be_called_worse():
    """The check above can fail: the plain paired intervals (no selection correction) call
    some equal move clearly worse in most positions."""
    from analyzer.stats.intervals import mean_interval

    rng = np.random.default_rng(5)
    plain = 0
    trials = 100
    for _ in range(trials):
        x = _equal_moves(rng)
        best = int(np.argmin(x.mean(axis=0)))
        plain += any(mean_interval(x[:, i] - x[:, best]).low > 0
                     for i in range(x.shape[1]) if i != best)
    assert plain / trials > 0.3


def test_a_clearly_worse_move_is_still_labelled():
    rng = np.random.default_rng(1)
    x = _equal_moves(rng, k=8)
    x[:, 7] += 12.0  # a blunder's worth of minus points
    rows = move_rows("ass", x, [f"m{i}" for i in range(8)], None)
    worst = next(r for r in rows if r["move"] == "m7")
    loss, low, _ = loss_of("ass", worst)
    assert low > 0 and label("ass", loss, low) == "blunder"

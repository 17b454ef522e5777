"""--aggregate statistics: histograms are exact and give the very moments of the rows."""

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import CardlabError
from analyzer.runner.aggregate import (
    chunk_moments,
    histogram,
    merge_histograms,
    moments_from_histogram,
    moments_from_json,
    moments_to_json,
    seat_distribution,
    value_columns,
)
from analyzer.summary import Metric, merge_moments, seat_moments, seat_table


def _rows(n_games: int, seats: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = n_games * seats
    return {
        "index": np.repeat(np.arange(n_games, dtype=np.int64), seats),
        "seat": np.tile(np.arange(seats, dtype=np.int16), n_games),
        "points": rng.integers(-40, 160, n).astype(np.int16),
        "flag": rng.random(n) < 0.3,
        "big": rng.integers(0, 10**6, n).astype(np.int64),
    }


def test_moments_from_histograms_equal_seat_moments_exactly():
    rows = _rows(3000, 4, 1)
    cols = value_columns(list(rows))
    assert cols == ["points", "flag", "big"]
    direct = seat_moments(pd.DataFrame(rows), cols)
    # three chunks of unequal size, merged, as a run would
    cuts = [0, 700 * 4, 2100 * 4, 3000 * 4]
    hists = [
        pd.DataFrame(histogram({k: v[a:b] for k, v in rows.items()}, cols))
        for a, b in zip(cuts, cuts[1:], strict=False)
    ]
    from_hist = moments_from_histogram(merge_histograms(hists), cols)
    pd.testing.assert_frame_equal(from_hist, direct, check_exact=True)
    metrics = [Metric("points", "mean"), Metric("flag", "p", 100.0)]
    pd.testing.assert_frame_equal(
        seat_table(from_hist, metrics), seat_table(direct, metrics), check_exact=True
    )
    chunk_moments = [
        seat_moments(pd.DataFrame({k: v[a:b] for k, v in rows.items()}), cols)
        for a, b in zip(cuts, cuts[1:], strict=False)
    ]
    pd.testing.assert_frame_equal(merge_moments(chunk_moments), direct, check_exact=True)


def test_histogram_counts_each_seat_and_value_overall_and_per_outcome():
    rows = {
        "index": np.array([0, 0, 1, 1]),
        "seat": np.array([0, 1, 0, 1], np.int16),
        "points": np.array([5, 7, 5, 9], np.int16),
        "won": np.array([True, False, False, True]),
    }
    h = pd.DataFrame(histogram(rows, ["points", "won"]))
    points = h[h["column"] == "points"]
    assert points[points["given"] == ""][["seat", "value", "count"]].values.tolist() == [
        [0, 5, 2], [1, 7, 1], [1, 9, 1]
    ]
    # per outcome: seat 0 scored 5 once when winning and once when losing
    by_won = points[points["given"] == "won"]
    assert sorted(by_won[["given_value", "seat", "value", "count"]].values.tolist()) == [
        [0, 0, 5, 1], [0, 1, 7, 1], [1, 0, 5, 1], [1, 1, 9, 1]
    ]
    dist = seat_distribution(h, "points")
    assert dist.loc[5, 0] == 2 and dist.loc[5, 1] == 0 and dist.loc[9, 1] == 1
    assert seat_distribution(h, "points", given="won", given_value=1).loc[9, 1] == 1
    with pytest.raises(CardlabError, match="not split by 'points'"):
        moments_from_histogram(h, ["won"], given="points")


def test_conditional_moments_equal_seat_moments_of_the_selected_rows():
    rows = _rows(4000, 4, 3)
    cols = value_columns(list(rows))
    h = merge_histograms([pd.DataFrame(histogram(
        {k: v[a:b] for k, v in rows.items()}, cols)) for a, b in ((0, 5000), (5000, 16000))])
    table = pd.DataFrame(rows)
    for flag in (True, False):
        expected = seat_moments(table[table["flag"] == flag], ["points", "big"])
        got = moments_from_histogram(h, cols, given="flag", given_value=int(flag))
        pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_histogram_refuses_float_columns():
    rows = {"index": np.arange(2), "seat": np.zeros(2, np.int16), "x": np.array([0.5, 1.0])}
    with pytest.raises(CardlabError, match="integer or boolean"):
        histogram(rows, ["x"])


def test_moments_survive_json_bit_for_bit():
    rows = _rows(500, 3, 2)
    rows["ratio"] = rows["points"] / 7.0  # non-integer sums too
    moments = seat_moments(pd.DataFrame(rows), ["points", "flag", "ratio"])
    back = moments_from_json(moments_to_json(moments))
    pd.testing.assert_frame_equal(back, moments, check_exact=True)


def test_chunk_moments_are_seat_moments_value_for_value():
    rows = _rows(2500, 5, 4)
    cols = value_columns(list(rows))
    pd.testing.assert_frame_equal(
        chunk_moments(rows, cols), seat_moments(pd.DataFrame(rows), cols), check_exact=True
    )
    rows["ratio"] = rows["points"] / 3.0  # a float column: seat_moments computes it all
    cols = value_columns(list(rows))
    pd.testing.assert_frame_equal(
        chunk_moments(rows, cols), seat_moments(pd.DataFrame(rows), cols), check_exact=True
    )


def test_wide_columns_give_the_same_histogram_without_a_dense_table(monkeypatch):
    from analyzer.runner import aggregate

    rows = _rows(800, 3, 5)
    cols = value_columns(list(rows))
    dense = merge_histograms([pd.DataFrame(histogram(rows, cols))])
    monkeypatch.setattr(aggregate, "MAX_BINS", 1)  # force the sorting path for every column
    sparse = merge_histograms([pd.DataFrame(histogram(rows, cols))])
    pd.testing.assert_frame_equal(sparse, dense, check_exact=True)

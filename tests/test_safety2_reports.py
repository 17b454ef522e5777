"""Issue 42, items 6 and 21: what a report says cannot be changed by editing a file, and a
share is a share.

Item 6: which way is better and what one unit is are the game's facts (its description), not
the manifest's; anything else edited in a saved manifest is refused in one line (its
checksum), and a manifest without a checksum makes the report say so.
Item 21: every share of table ``habits`` and its bounds stay inside [0, 1] at every budget.
"""

import json

from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.compare import run_compare
from analyzer.studies.results import DIGEST, load_study, save_study


def _compare(tmp_path):
    result = run_compare(SyntheticAssBackend(effects={"good": -1.0}), "ass",
                         ["good", "a", "b"], players=[4], games=200)
    return save_study(result, tmp_path / "res")


def _edit(folder, **fields):
    path = folder / "manifest.json"
    data = json.loads(path.read_text())
    data.update(fields)
    path.write_text(json.dumps(data, indent=2))
    return data


def test_safety2_item06_an_edited_manifest_is_refused_in_one_line(tmp_path, cli):
    import pytest

    from analyzer.errors import CardlabError

    folder = _compare(tmp_path)
    assert load_study(folder).manifest["better"] == "lower"
    for field, value in (("better", "higher"), ("seed", 99), ("headlines", ["Edited."])):
        saved = (folder / "manifest.json").read_text()
        _edit(folder, **{field: value})
        with pytest.raises(CardlabError, match="changed after the study wrote it"):
            load_study(folder)
        code, _, err = cli("report", "--from", tmp_path / "res", "--out", tmp_path / "rep")
        assert code == 2 and len(err.strip().splitlines()) == 1
        assert "changed after the study wrote it" in err and "Traceback" not in err
        assert not (tmp_path / "rep").exists()
        (folder / "manifest.json").write_text(saved)
    assert load_study(folder).manifest["better"] == "lower"  # as written: accepted


def test_safety2_item06_which_way_is_better_comes_from_the_game(tmp_path):
    from reports.findings import study_alerts, vetted
    from reports.studies.compare import compare_figures, compare_finding

    folder = _compare(tmp_path)
    data = json.loads((folder / "manifest.json").read_text())
    data.pop(DIGEST)  # an older manifest (no checksum), edited: the game's facts still hold
    (folder / "manifest.json").write_text(json.dumps(data | {"better": "higher",
                                                             "unit": "match"}, indent=2))
    result = load_study(folder)
    finding, alerts = vetted(compare_finding(result), result)
    assert alerts == [] and [c.id for c in finding.claims] == ["compare-4"]
    assert all(c.better == "lower" for c in finding.claims)
    assert "per game" in finding.detail and "match" not in finding.detail
    figures = compare_figures(result, tmp_path / "figs")
    captions = " ".join(f.caption for f in figures)
    assert "lower is better" in captions and "higher is better" not in captions
    assert any("no checksum" in a.text for a in study_alerts(result))


# ------------------------------------------------------------------ 21: shares in [0, 1]
def _per_game_counts(games):
    """habits_of's counts from per-game (ends with joker, fillers, alone, as 1, as 14)."""
    import numpy as np

    cols = list(zip(*games, strict=True)) if games else [()] * 5
    ends, filler, alone, as1, as14 = (np.array(c, dtype=np.float64) for c in cols)
    played = filler + alone + as1 + as14
    return {"ends_with_joker": ends, "jokers_played": played, "filler": filler,
            "alone": alone, "ass_as_1": as1, "ass_as_14": as14,
            "hand_size_sum": played * 7}


def test_safety2_item21_every_share_and_its_bounds_stay_in_0_1_at_every_budget():
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from analyzer.studies.claims import Cell
    from analyzer.studies.jokers import _share, habits_rows

    game = st.tuples(st.integers(0, 1), st.integers(0, 2), st.integers(0, 2),
                     st.integers(0, 2), st.integers(0, 1))

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.lists(game, min_size=1, max_size=25), st.sampled_from([0.8, 0.95, 0.99]))
    def shares_stay_shares(games, level):
        row = habits_rows(_per_game_counts(games), level)
        for key in ("ends_with_joker", "filler", "alone", "ass_as_1", "ass_as_14"):
            value, low, high = row[key], row[f"{key}_low"], row[f"{key}_high"]
            for x in (value, low, high):
                assert x != x or 0.0 <= x <= 1.0, (key, value, low, high)
            if low == low and high == high:
                assert low <= value <= high, (key, value, low, high)
            shown = _share(Cell(4, None, "basic", None, "x", key, value, low, high, True))
            for pct in re.findall(r"(-?\d+(?:\.\d+)?)%", shown):
                assert 0.0 <= float(pct) <= 100.0, shown

    shares_stay_shares()


def test_safety2_item21_few_jokers_do_not_push_a_share_past_its_ends():
    """The reported case: a share near 0 or 1 over a few jokers in a few games (the ratio
    interval gave -15% and 108%)."""
    from analyzer.studies.jokers import habits_rows

    games = [(0, 0, 1, 2, 0), (1, 0, 0, 1, 0), (0, 1, 0, 0, 0), (0, 0, 0, 1, 0),
             (0, 0, 0, 0, 0), (1, 0, 0, 1, 0)]
    row = habits_rows(_per_game_counts(games), 0.95)
    assert 0 <= row["filler_low"] <= row["filler"] <= row["filler_high"] <= 1
    assert 0 <= row["ass_as_1_low"] <= row["ass_as_1"] <= row["ass_as_1_high"] <= 1

"""The prewarm's lanes (analyzer/studies/suite.py): parts that share kernels compile one after
the other in one process, so no kernel is compiled twice on a cold cache."""

from analyzer.studies.suite import WARM_AFTER, WARM_PARTS, warm_lanes


def test_parts_that_build_on_another_go_in_its_lane_after_it():
    lanes = warm_lanes(("jass-trump", "ass-search", "jass-search", "ass", "jass"))
    assert lanes == [("jass", "jass-trump", "jass-search"), ("ass", "ass-search")]
    # the studies (make demo) also play pimc: both search parts warm in their lanes
    assert warm_lanes(WARM_PARTS) == [("jass", "jass-trump", "jass-search"), ("ass", "ass-search")]


def test_a_part_without_its_base_is_a_lane_of_its_own():
    assert warm_lanes(("jass-trump", "ass-search")) == [("jass-trump",), ("ass-search",)]
    assert warm_lanes(("ass",)) == [("ass",)]
    assert warm_lanes(()) == []


def test_every_part_is_warmed_exactly_once():
    parts = tuple(dict.fromkeys((*WARM_PARTS, *WARM_AFTER, *WARM_AFTER.values())))
    lanes = warm_lanes(parts)
    flat = [part for lane in lanes for part in lane]
    assert sorted(flat) == sorted(parts)
    for lane in lanes:
        for later in lane[1:]:
            assert WARM_AFTER[later] in lane[: lane.index(later)]

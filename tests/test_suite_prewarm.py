"""The prewarm's lanes (analyzer/studies/suite.py): parts that share kernels compile one after
the other in one process, so no kernel is compiled twice on a cold cache."""

from analyzer.studies.suite import WARM_AFTER, WARM_BESIDE, WARM_PARTS, warm_lanes


def test_parts_that_build_on_another_go_in_its_lane_after_it():
    lanes = warm_lanes(("jass-trump", "ass-search", "jass-search", "ass", "jass"))
    assert lanes == [("jass", "jass-trump", "jass-search"), ("ass", "ass-search")]
    # the studies (make demo) also play pimc: both search parts warm in their lanes
    assert warm_lanes(WARM_PARTS) == [("jass", "jass-trump", "jass-search"), ("ass", "ass-search")]


def test_a_part_without_its_base_is_a_lane_of_its_own():
    assert warm_lanes(("jass-trump", "ass-search")) == [("jass-trump",), ("ass-search",)]
    assert warm_lanes(("ass",)) == [("ass",)]
    assert warm_lanes(()) == []


def test_a_part_beside_another_fills_that_lane_and_is_its_own_lane_without_it():
    """The test suite's parts (tests/conftest.py): the Jass loops for 3 players go after the
    Who's the Ass? search, in the lane that would otherwise wait for the Jass lane."""
    from conftest import PARTS  # tests/ is on sys.path

    assert warm_lanes(PARTS) == [("jass", "jass-trump", "jass-search"),
                                 ("ass", "ass-search", "jass-3")]
    assert warm_lanes(("jass", "jass-3")) == [("jass",), ("jass-3",)]


def test_every_part_is_warmed_exactly_once():
    parts = tuple(dict.fromkeys((*WARM_PARTS, *WARM_AFTER, *WARM_AFTER.values(), *WARM_BESIDE,
                                 *WARM_BESIDE.values())))
    lanes = warm_lanes(parts)
    flat = [part for lane in lanes for part in lane]
    assert sorted(flat) == sorted(parts)
    for lane in lanes:
        for later in lane[1:]:
            base = WARM_AFTER.get(later) or WARM_BESIDE[later]
            assert base in lane[: lane.index(later)]


def test_each_study_waits_for_exactly_the_parts_of_the_games_it_plays():
    """``study all`` starts a study once its games' lanes are compiled (the other lane goes
    on beside it), so a study must name every game it plays."""
    from analyzer.studies.suite import parts_of

    assert parts_of("seats") == parts_of("jokers") == ("ass", "ass-search")
    assert set(parts_of("trump")) == {"jass", "jass-trump", "jass-search"}
    assert set(parts_of("compare")) == set(parts_of("trump"))
    for both in ("ladder", "best-response", "fields"):
        assert set(parts_of(both)) == set(WARM_PARTS)


def test_warming_waits_for_the_named_lane_and_raises_its_error():
    """A lane's failure reaches the study that waits for it (not swallowed in the pool); a
    wait for parts of the other lane returns when those are done."""
    import pytest

    from analyzer.studies.suite import Warming

    with Warming(2, ("no-such-part", "other-part")) as warming:
        with pytest.raises(ValueError, match="unknown part 'no-such-part'"):
            warming.wait(("no-such-part",))
        warming.wait(("not-warmed",))  # a part nobody warms: nothing to wait for
    with Warming(1, WARM_PARTS) as warming:  # one worker: nothing runs in the background
        warming.wait()


def test_the_first_study_whose_lanes_are_compiled_goes_first():
    """``study all`` plays, of the studies left, the first whose games are compiled (the
    Jass studies while Who's the Ass? still compiles), blocks until one is, and raises a
    lane's error for the study that needed it."""
    import threading
    from concurrent.futures import Future

    import pytest

    from analyzer.studies.suite import Warming

    warming = Warming(1)  # no processes; the lanes below are set by hand
    ass, jass = Future(), Future()
    warming._lane_of = {"ass": ass, "ass-search": ass, "jass": jass}
    jass.set_result(1.0)
    assert warming.first_ready([("ass", "ass-search"), ("jass",), ("ass", "jass")]) == 1
    threading.Timer(0.2, ass.set_result, (2.0,)).start()
    assert warming.first_ready([("ass", "ass-search"), ("ass", "jass")]) == 0  # blocks
    failed = Future()
    failed.set_exception(ValueError("unknown part 'x'"))
    warming._lane_of["x"] = failed
    with pytest.raises(ValueError, match="unknown part"):
        warming.first_ready([("x",), ("jass",)])
    assert warming.first_ready([("not-warmed",)]) == 0


def test_a_lane_finishing_during_the_look_does_not_let_a_later_study_overtake():
    """The lanes are looked at once per pass: the Ass lane finishing between the look for
    seats and the look for a later study must not start that later study first (a fresh
    clone's demo once ran the fields study before seats that way)."""
    from concurrent.futures import Future

    from analyzer.studies.suite import Warming

    class FinishesDuringTheLook(Future):
        looks = 0

        def done(self):
            self.looks += 1
            return self.looks > 1  # not yet at the first look, done at every later one

    ass, jass = FinishesDuringTheLook(), Future()
    ass.set_result(1.0)
    jass.set_result(1.0)
    warming = Warming(1)
    warming._lane_of = {"ass": ass, "jass": jass}
    assert warming.first_ready([("ass",), ("ass",), ("ass", "jass")]) == 0

"""The evaluation graph's data (analysis/timeline.py): after every move of a recorded game,
every seat's expected final result with its interval, inside the game's result column, the
mover's own point equal to the per-move analysis's value of the move it played, the same bit
for bit whatever the chunks of worlds, and a Ctrl-C heard between chunks."""

from __future__ import annotations

import pytest

from analyzer.analysis import timeline
from analyzer.analysis.annotate import annotate_game
from analyzer.analysis.values import value_ranges
from analyzer.engines.ass.records import MatchTracer, Tracer
from analyzer.engines.jass.reference import ReferenceJass
from analyzer.engines.kernel import RunSpec
from analyzer.games.jass.rules import make_rules
from strategies.registry import seat_strategies

WORLDS = 40


@pytest.fixture(scope="module")
def ass_record():
    return Tracer(RunSpec("ass", 4, ("basic", "random", "careful", "random"), 21)).record(0)[0]


@pytest.fixture(scope="module")
def jass_record():
    ref = ReferenceJass(make_rules(3, {"ruleset": "seed"}),
                        seat_strategies("jass", ["random"], 3))
    return ref.play_single_deal(9, 0)


def _check_points(game, record, tl, ann):
    n = record["players"]
    low, high = value_ranges(game)[""]
    assert len(tl["points"]) == len(ann["moves"]) > 0
    for p, m in zip(tl["points"], ann["moves"], strict=True):
        assert p["seat"] == m["seat"] and p["index"] == m["index"]
        for key in ("value", "low", "high"):
            assert len(p[key]) == n  # every seat, at every step
        for v, lo, hi in zip(p["value"], p["low"], p["high"], strict=True):
            assert lo <= v <= hi
            assert low <= lo and (high is None or hi <= high)
        # the mover's point is the analysis's value of the move it played, to the bit
        assert p["value"][p["seat"]] == m["value"]


def test_ass_every_seat_has_a_point_after_every_move(ass_record):
    tl = timeline.game_timeline("ass", ass_record, worlds=WORLDS, seed=5)
    ann = annotate_game("ass", ass_record, worlds=WORLDS, seed=5)
    _check_points("ass", ass_record, tl, ann)
    assert tl["lower_is_better"] and tl["range"] == list(value_ranges("ass")[""])
    # not the mover's value copied: the seats' expectations differ
    assert any(len(set(p["value"])) > 1 for p in tl["points"])


def test_jass_every_seat_has_a_point_after_every_move(jass_record):
    tl = timeline.game_timeline("jass", jass_record, worlds=WORLDS, seed=5)
    ann = annotate_game("jass", jass_record, worlds=WORLDS, seed=5)
    _check_points("jass", jass_record, tl, ann)
    assert not tl["lower_is_better"]
    assert len(tl["points"]) == 36


def test_a_match_has_points_game_after_game():
    record, _ = MatchTracer(RunSpec("ass", 3, ("basic", "random", "basic"), 4,
                                    mode="matches")).record(0)
    tl = timeline.game_timeline("ass", record, worlds=WORLDS, seed=0)
    ann = annotate_game("ass", record, worlds=WORLDS, seed=0)
    assert [p["part"] for p in tl["points"]] == [m["game"] for m in ann["moves"]]
    _check_points("ass", record, tl, ann)


def _fixed_chunks(size):
    def chunks(total, roll, check):
        for w in range(0, total, size):
            roll(w, min(total, w + size))
            check()
    return chunks


@pytest.mark.parametrize("game", ["ass", "jass"])
def test_the_same_bit_for_bit_whatever_the_chunks(game, ass_record, jass_record, monkeypatch):
    record = ass_record if game == "ass" else jass_record
    whole = timeline.step_point(game, record, 0, 5, 64, 1)
    for size in (1, 7):
        monkeypatch.setattr(timeline, "in_chunks", _fixed_chunks(size))
        assert timeline.step_point(game, record, 0, 5, 64, 1) == whole


@pytest.mark.parametrize("game", ["ass", "jass"])
def test_a_ctrl_c_is_heard_between_chunks(game, ass_record, jass_record, monkeypatch):
    """The rollouts run in chunks with the interrupt check between them: a Ctrl-C seen after
    the first chunk stops the step before the second."""
    import contextlib

    import analyzer.runner.interrupts as interrupts

    record = ass_record if game == "ass" else jass_record
    rolled = []

    def chunks(total, roll, check):
        for w in range(0, total, 8):
            roll(w, min(total, w + 8))
            rolled.append(w)
            check()

    @contextlib.contextmanager
    def ctrl_c_after_the_worlds():
        calls = []

        def check():
            calls.append(1)
            if len(calls) >= 2:  # after the worlds' draw and one chunk of rollouts
                raise KeyboardInterrupt
        yield check

    monkeypatch.setattr(timeline, "in_chunks", chunks)
    monkeypatch.setattr(interrupts, "checked_interrupts", ctrl_c_after_the_worlds)
    with pytest.raises(KeyboardInterrupt):
        timeline.step_point(game, record, 0, 3, 64, 1)
    assert rolled == [0]

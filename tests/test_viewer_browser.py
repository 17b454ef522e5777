"""Open the game viewer in headless Chromium as a reader would (reports.check.viewer_check):
no script or console errors, nothing fetched, every hand drawn, each way of stepping (next
button, right arrow, left arrow, End, back button, Home) changes what is shown, and a phone
390 pixels wide needs no sideways scrolling. Both games, with and without annotations.

Chromium comes from Debian's packages (`.ci/run` installs it). Outside CI the test skips when
no browser is installed; in CI (CI=true) a missing browser is a failure.
"""

import os
import re
import shutil

import pytest

from analyzer.engines.ass.reference import play_match_record, play_record
from analyzer.engines.jass.reference import ReferenceJass
from analyzer.games.jass.rules import make_rules
from reports.check import find_chromium, viewer_check
from reports.viewer import ALL_HANDS, viewer_steps, write_viewer
from strategies.registry import parse_strategy, seat_strategies

CHROMIUM = find_chromium()
IN_CI = os.environ.get("CI", "").lower() == "true"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not IN_CI,
    reason="no Chromium installed (apt-get install -y chromium); required when CI=true",
)


def _ass(players=6):
    return play_record(5, 2, [parse_strategy("ass", "random")] * players)


def _jass():
    ref = ReferenceJass(make_rules(4, {"ruleset": "seed"}), seat_strategies("jass", ["random"], 4))
    return ref.play_match(5, 1)


def _annotated(record):
    """Every move annotated (seat 1 left out), every label used, losses up to 9."""
    data = viewer_steps(record)
    moves = []
    for i, seat in enumerate(data["moves"]):
        label = (None, "inaccuracy", "mistake", "blunder")[i % 4]
        moves.append(None if seat == 1 else {
            "seat": seat, "move": f"played {i}", "best": f"best {i}", "loss": 3.0 * (i % 4),
            "loss_low": max(0.0, 3.0 * (i % 4) - 1.5), "loss_high": 3.0 * (i % 4) + 1.5,
            "label": label, "value": 10.0 - i * 0.1 + seat, "best_value": 10.0,
            "alternatives": [{"move": f"best {i}", "value": 10.0, "low": 9.0, "high": 11.0,
                              "diff": 0.0, "diff_low": 0.0, "diff_high": 0.0}]})
    analysed = sorted({m["seat"] for m in moves if m})
    players = [{"seat": s, "moves": 5, "inaccuracy": 1, "mistake": 0, "blunder": 2,
                "lost": 18.0, "lost_low": 15.0, "lost_high": 21.0} for s in analysed]
    return {"moves": moves, "players": players}


def _check(tmp_path, record, annotations=None, width=1280):
    page = write_viewer(tmp_path / "game.html", record, annotations, force=True)
    alone = tmp_path / "alone"
    alone.mkdir(exist_ok=True)
    shutil.copy(page, alone / "copied.html")  # the page works copied on its own
    return viewer_check(alone / "copied.html", CHROMIUM, width=width)


def _steps_work(result, players):
    assert result.errors == [], result.errors
    assert result.fetched == []
    assert result.all_hands == ALL_HANDS
    assert result.seats == players and result.cards > 0
    steps = [int(re.search(r"step (\d+) of (\d+)", c).group(1)) for c in result.counts]
    total = int(re.search(r"step (\d+) of (\d+)", result.counts[0]).group(2))
    assert steps == [1, 2, 3, 2, total, total - 1, 1]
    shown = result.shown
    for a, b in zip(shown, shown[1:], strict=False):
        assert a != b  # every way of stepping changes what is shown
    assert shown[1] == shown[3] and shown[0] == shown[6]  # back where it was


@pytest.mark.parametrize("make, players", [(_ass, 6), (_jass, 4)], ids=["ass", "jass"])
def test_stepping_with_buttons_and_keys_changes_what_is_shown(tmp_path, make, players):
    assert CHROMIUM is not None, "CI=true but no Chromium found"
    result = _check(tmp_path, make())
    _steps_work(result, players)
    assert result.bars == 0  # no annotations, no bars


@pytest.mark.parametrize("make, players", [(_ass, 6), (_jass, 4)], ids=["ass", "jass"])
def test_at_390_pixels_nothing_scrolls_sideways_annotated_or_not(tmp_path, make, players):
    record = make()
    for annotations in (None, _annotated(record)):
        result = _check(tmp_path, record, annotations, width=390)
        assert result.width == 390
        assert result.overflow <= 0, f"the page is {result.overflow} px wider than 390"
        _steps_work(result, players)


def test_annotations_draw_the_bar_on_analysed_moves(tmp_path):
    record = _ass(4)
    annotations = _annotated(record)
    result = _check(tmp_path, record, annotations)
    _steps_work(result, 4)
    # the probe's second view is the first move: a bar there unless seat 1 made it
    first_seat = viewer_steps(record)["moves"][0]
    assert ("best: best 0" in result.shown[1]) == (first_seat != 1)
    assert ("was not analysed" in result.shown[1]) == (first_seat == 1)


def test_a_twelve_player_match_at_390_pixels(tmp_path):
    record = play_match_record(1, 0, [parse_strategy("ass", "random")] * 12, games=2)
    result = _check(tmp_path, record, width=390)
    assert result.overflow <= 0 and result.errors == []
    _steps_work(result, 12)


def test_the_check_sees_errors_and_overflow(tmp_path):
    page = write_viewer(tmp_path / "game.html", _ass(3))
    broken = tmp_path / "broken.html"
    broken.write_text(page.read_text().replace(
        "</main>", '<div style="width:900px">wide</div></main><script>nosuch();</script>'))
    result = viewer_check(broken, CHROMIUM, width=390)
    assert result.overflow > 0
    assert any("nosuch" in e for e in result.errors), result.errors


@pytest.mark.parametrize("make", [_ass, _jass], ids=["ass", "jass"])
def test_analyzed_pages_draw_the_graph_the_mistakes_and_number_moves_as_the_cli(tmp_path,
                                                                                  make):
    record = make()
    annotations = _annotated(record)
    data = viewer_steps(record, annotations)
    result = _check(tmp_path, record, annotations, width=390)
    assert result.errors == [] and result.overflow <= 0
    analysed = sorted({a["seat"] for a in annotations["moves"] if a})
    assert result.graph == len(analysed)  # one line a seat analysed, in the part shown
    # the summaries read as sentences naming the strategies; the jumps name the moves
    assert result.summary == data["summary"]
    strategy = record["strategies"][analysed[0]]
    assert result.summary[0].startswith(f"Seat {analysed[0]} ({strategy}): 5 moves analysed; "
                                        "1 inaccuracy, 2 blunders, which lost 18 \u00b1 3 ")
    labelled = [m for m, a in enumerate(annotations["moves"]) if a and a["label"]]
    first = min(labelled, key=lambda m: (annotations["moves"][m]["seat"], m))
    name = data["names"][first]
    assert re.fullmatch(r"(deal \d+ |game \d+ )?move \d+", name)
    assert result.jumps[0].startswith(name + ": ")
    counter, fragment = result.jumped.split("|")
    assert counter.startswith(name + " \u00b7 step ")
    assert fragment == "#" + name.replace(" ", "-")
    assert result.hash == "#step-1"  # the probe ends at the first step


@pytest.mark.parametrize("make", [_ass, _jass], ids=["ass", "jass"])
def test_the_graph_has_a_point_per_seat_after_every_move(tmp_path, make):
    """With the timeline (replay --html --analyze), every seat's line has a point after
    every move of the part shown, the seat not analysed included."""
    record = make()
    annotations = _annotated(record)
    data = viewer_steps(record)
    n = record["players"]
    points = []
    for m, seat in enumerate(data["moves"]):
        part, k = data["refs"][m]
        points.append({"part": part, "index": k, "seat": seat,
                       "value": [10.0 + s + 0.01 * m for s in range(n)],
                       "low": [9.0 + s for s in range(n)], "high": [11.5 + s for s in range(n)]})
    annotations["timeline"] = {"points": points}
    result = _check(tmp_path, record, annotations, width=390)
    assert result.errors == [] and result.overflow <= 0
    first_part = sum(1 for r in data["refs"] if r[0] == 0)
    assert result.graph == n
    assert result.graph_points == [first_part] * n


@pytest.mark.parametrize("make", [_ass, _jass], ids=["ass", "jass"])
def test_a_fragment_opens_the_page_at_that_move(tmp_path, make):
    record = make()
    data = viewer_steps(record)
    move = len(data["moves"]) - 3  # late in the game: the last deal of a Jass match
    name = data["names"][move]
    result = _check_at(tmp_path, record, name.replace(" ", "-"))
    assert result.errors == []
    step = next(i for i, s in enumerate(data["steps"]) if s["move"] == move)
    assert result.start == f"{name} \u00b7 step {step + 1} of {len(data['steps'])}"
    assert _check_at(tmp_path, record, "step-5").start.endswith(
        f"step 5 of {len(data['steps'])}")


def _check_at(tmp_path, record, fragment):
    page = write_viewer(tmp_path / "game.html", record, force=True)
    return viewer_check(page, CHROMIUM, fragment=fragment)

"""The game viewer's data and page (reports/viewer.py) and ``cardlab replay ... --html``.

The steps are checked against the records they replay: each move step is the record's move
by the record's seat, the last step's hands are the final hands and its scores the result
(Who's the Ass?: minus points by seat, and match totals by player; Jass: stick totals).
Records come from the pure-Python reference engines, except where the command line plays.
"""

import json
import re

import pytest
from cli_check import one_error
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.engines.ass.reference import play_match_record, play_record
from analyzer.engines.jass.reference import ReferenceJass
from analyzer.games.jass.rules import make_rules
from reports.viewer import ALL_HANDS, viewer_html, viewer_steps, write_viewer
from strategies.registry import parse_strategy, seat_strategies

runner = CliRunner()


def _ass(index=0, players=4, strategy="random"):
    return play_record(7, index, [parse_strategy("ass", strategy)] * players)


def _jass(index=0, players=4, mode="matches"):
    ref = ReferenceJass(make_rules(players, {"ruleset": "seed"}),
                        seat_strategies("jass", ["random"], players))
    return ref.play_match(9, index) if mode == "matches" else ref.play_single_deal(9, index)


def _embedded(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page,
                      re.S)
    return json.loads(found.group(1))


# ------------------------------------------------------------------------ the step data
@pytest.mark.parametrize("players", [3, 4, 7, 12])
def test_ass_steps_end_at_the_records_result(players):
    for index in range(3):
        record = _ass(index, players)
        data = viewer_steps(record)
        last = data["steps"][-1]
        assert last["scores"] == record["penalties"]
        assert [h.split() for h in last["hands"]] == record["final_hands"]
        first = data["steps"][0]
        assert [h.split() for h in first["hands"]] == record["hands"]
        plays = [p for rnd in record["rounds"] for p in rnd["plays"]]
        assert data["moves"] == [p["seat"] for p in plays]
        movers = [(s["mover"], s["move"]) for s in data["steps"] if s["move"] is not None]
        assert movers == [(p["seat"], i) for i, p in enumerate(plays)]
        # a dealt step, one step a play and one after each round
        assert len(data["steps"]) == 1 + len(plays) + len(record["rounds"])


def test_ass_steps_pick_up_the_table_and_write_jokers_with_their_value():
    for index in range(400):
        record = _ass(index)
        ass_rounds = [r for r in record["rounds"] if r["ass_round"]]
        if any("J" in p.get("cards", []) for r in ass_rounds for p in r["plays"]):
            break
    else:
        raise AssertionError("no joker played in an ass round in 400 games")
    data = viewer_steps(record)
    tables = [c for s in data["steps"] for t in s["table"] for c in t["cards"].split()]
    assert "J" not in tables and any(c.startswith("J=") for c in tables)
    ends = [s for s in data["steps"] if s["move"] is None and s["table"]]
    assert len(ends) == len(record["rounds"])
    for rnd, step in zip(record["rounds"], ends, strict=True):
        assert [t["seat"] for t in step["table"] if t.get("win")] == [rnd["winner"]]
        if rnd["ass_round"]:
            assert "A" in step["hands"][rnd["winner"]].split()  # the taker holds the ass


def test_ass_match_steps_end_at_the_match_totals():
    record = play_match_record(3, 1, [parse_strategy("ass", "random")] * 4)
    data = viewer_steps(record)
    assert data["steps"][-1]["totals"] == record["totals"]
    assert data["steps"][-1]["scores"] == record["games"][-1]["penalties"]
    assert len(data["parts"]) == len(record["games"])
    assert data["parts"][1]["seats"][0].startswith(
        f"seat 0: player {record['games'][1]['seat_players'][0]} (")
    ends = [i for i, s in enumerate(data["steps"][:-1])
            if data["steps"][i + 1]["part"] != s["part"]]
    totals = [0] * 4
    for g, i in enumerate(ends):  # the totals grow game by game
        for s, p in enumerate(record["games"][g]["seat_players"]):
            totals[p] += record["games"][g]["penalties"][s]
        assert data["steps"][i]["totals"] == totals


@pytest.mark.parametrize("players", [3, 4])
def test_jass_steps_end_at_the_stick_totals(players):
    record = _jass(players=players)
    data = viewer_steps(record)
    last = data["steps"][-1]
    assert last["totals"] == record["deals"][-1]["totals"]
    assert last["scores"] == record["deals"][-1]["points"]
    assert last["hands"] == [""] * players
    cards = [c for d in record["deals"] for t in d["tricks"] for c in t["cards"]]
    assert len(data["moves"]) == len(cards)
    ends = [s for s in data["steps"] if s["move"] is None and s["table"]]
    assert [s["totals"] for s in ends if "The deal ends" in s["text"]] == [
        d["totals"] for d in record["deals"]]
    for deal in record["deals"]:  # the trump shows from the card that fixed it on
        fixer = [s for s in data["steps"] if "fixes trump" in [t["note"] for t in s["table"]]
                 and s["move"] is not None and s["table"][-1]["note"] == "fixes trump"]
        assert all(s["trump"] is not None for s in fixer)
        assert deal["trump"] is None or any(s["trump"] == deal["trump"] for s in fixer)
    single = _jass(players=players, mode="deals")
    assert viewer_steps(single)["steps"][-1]["totals"] == single["deals"][0]["sticks"]


# ------------------------------------------------------------------------- annotations
def _annotations(data, label_every=3):
    moves = []
    for i, seat in enumerate(data["moves"]):
        if seat == 1:
            moves.append(None)  # seat 1 not analysed
            continue
        label = ("blunder" if i % label_every == 0 else None)
        moves.append({"seat": seat, "move": f"m{i}", "best": f"b{i}", "loss": 4.0 * (label
                      is not None), "loss_low": 0.0, "loss_high": 6.0, "label": label})
    return {"moves": moves, "players": []}


def test_annotations_are_checked_against_the_record():
    record = _ass()
    ann = _annotations(viewer_steps(record))
    data = viewer_steps(record, ann)
    seats = data["moves"]
    assert all((a is None) == (seat == 1) for a, seat in zip(data["annotations"], seats,
                                                              strict=True))
    assert [a["label"] for a in data["annotations"] if a] == [
        m["label"] for m in ann["moves"] if m]
    with pytest.raises(ValueError, match="one entry per move"):
        viewer_steps(record, {"moves": ann["moves"][:-1], "players": []})
    wrong = json.loads(json.dumps(ann))
    first = next(i for i, m in enumerate(wrong["moves"]) if m)
    wrong["moves"][first]["seat"] = (wrong["moves"][first]["seat"] + 1) % 4
    with pytest.raises(ValueError, match=f"annotation {first} is for seat"):
        viewer_steps(record, wrong)
    bad = json.loads(json.dumps(ann))
    bad["moves"][first]["label"] = "oops"
    with pytest.raises(ValueError, match="labels are"):
        viewer_steps(record, bad)


def test_the_page_carries_the_annotations_and_the_unit():
    record = _jass(mode="deals")
    ann = _annotations(viewer_steps(record))
    page = viewer_html(record, ann)
    data = _embedded(page)
    assert data["annotations"] == viewer_steps(record, ann)["annotations"]
    assert data["unit"] == "card points"
    assert viewer_steps(record, {**ann, "unit": "sticks"})["unit"] == "sticks"
    assert _embedded(viewer_html(record))["annotations"] is None


def test_the_summary_reads_as_sentences_naming_the_strategies():
    record = _jass(mode="deals")
    ann = _annotations(viewer_steps(record))
    players = [{"seat": 0, "moves": 9, "inaccuracy": 0, "mistake": 2, "blunder": 1,
                "lost": 18.2, "lost_low": 15.1, "lost_high": 21.3},
               {"seat": 2, "moves": 1, "inaccuracy": 0, "mistake": 0, "blunder": 0,
                "lost": 0.0, "lost_low": 0.0, "lost_high": 0.0}]
    summary = viewer_steps(record, {**ann, "players": players, "unit": "sticks"})["summary"]
    assert summary == [
        "Seat 0 (random): 9 moves analysed; 2 mistakes, 1 blunder, which lost 18 \u00b1 3 "
        "sticks in all.",
        "Seat 2 (random): 1 move analysed, no clear error."]


def test_moves_are_named_as_replay_analyze_prints_them():
    """Deal (game) and move counted from 1 within the deal (game): "deal 2 move 1" is the
    first card of the second deal; one Who's the Ass? game has moves alone."""
    match = viewer_steps(_jass())
    deals = [[t["cards"] for t in d["tricks"]] for d in _jass()["deals"]]
    first = sum(len(t) for t in deals[0])
    assert match["names"][0] == "deal 1 move 1"
    assert match["names"][first - 1] == f"deal 1 move {first}"
    assert match["names"][first] == "deal 2 move 1"
    assert viewer_steps(_jass(mode="deals"))["names"][5] == "deal 1 move 6"
    assert viewer_steps(_ass())["names"][:2] == ["move 1", "move 2"]
    two = play_match_record(1, 0, [parse_strategy("ass", "random")] * 3, games=2)
    names = viewer_steps(two)["names"]
    plays = sum(len(r["plays"]) for r in two["games"][0]["rounds"])
    assert names[plays - 1] == f"game 1 move {plays}" and names[plays] == "game 2 move 1"


def test_alternatives_are_formatted_as_the_command_line_formats_them():
    record = _ass()
    ann = _annotations(viewer_steps(record))
    first = next(i for i, m in enumerate(ann["moves"]) if m)
    ann["moves"][first].update(loss=4.0, loss_low=1.0, loss_high=7.0, value=12.3456,
                               best_value=11.0, alternatives=[
        {"move": "b", "value": 11.0, "low": 10.0, "high": 12.0, "diff": 0.0, "diff_low": 0.0,
         "diff_high": 0.0},
        {"move": "m", "value": 12.3456, "low": 11.9, "high": 12.8, "diff": 1.3456,
         "diff_low": 0.9, "diff_high": 1.8}])
    got = viewer_steps(record, ann)["annotations"][first]
    assert got["value"] == 12.3456 and got["shown_loss"] == "4 \u00b1 3"
    assert got["alternatives"] == [
        {"move": "b", "value": "11.0 \u00b1 1.0", "diff": "0.00"},
        {"move": "m", "value": "12.3 \u00b1 0.5", "diff": "+1.3 \u00b1 0.5"}]


def test_replay_analyze_html_numbers_moves_as_the_cli_prints_them(tmp_path):
    page = tmp_path / "deal.html"
    result = runner.invoke(app, ["replay", "jass", "--seed", "2", "--index", "0", "--deals",
                                 "--strategy", "random", "--analyze", "--seat", "0",
                                 "--worlds", "30", "--html", str(page)])
    assert result.exit_code == 0, result.output
    printed = re.findall(r"^  (deal \d+ move +\d+) seat (\d): (\S+)", result.stdout, re.M)
    assert printed
    data = _embedded(page.read_text())
    names = data["names"]
    for where, seat, move in printed:
        m = names.index(" ".join(where.split()))
        assert data["moves"][m] == int(seat) and data["annotations"][m]["move"] == move
        assert data["annotations"][m]["alternatives"]


def test_replay_analyze_html_graph_has_every_seat_at_every_move(tmp_path):
    """The evaluation graph's data: after every move (not only each seat's own), every seat's
    expected final result with its interval, inside the game's result column; the mover's
    point is the value its annotation gives the move it played."""
    from analyzer.analysis.values import value_ranges

    page = tmp_path / "game.html"
    result = runner.invoke(app, ["replay", "ass", "--seed", "3", "--index", "1", "--players",
                                 "3", "--strategy", "random", "--analyze", "--seat", "0",
                                 "--worlds", "30", "--html", str(page)])
    assert result.exit_code == 0, result.output
    data = _embedded(page.read_text())
    low, high = value_ranges("ass")[""]
    timeline = data["timeline"]
    assert len(timeline) == len(data["moves"]) > 0
    checked = 0
    for m, point in enumerate(timeline):
        assert len(point["value"]) == len(point["shown"]) == 3  # a point per seat, every step
        assert all(low <= v <= high for v in point["value"])
        a = data["annotations"][m]
        if a is not None and a["value"] is not None:  # seat 0's moves, analysed
            assert point["value"][data["moves"][m]] == a["value"]
            checked += 1
    assert checked > 0
    assert "\u00b1" in timeline[0]["shown"][0]  # 30 worlds: values with their intervals


def test_a_timeline_is_checked_against_the_record():
    record = _ass()
    data = viewer_steps(record)
    n = record["players"]
    points = [{"part": 0, "index": k, "seat": s, "value": [1.0] * n, "low": [0.5] * n,
               "high": [1.5] * n} for k, s in enumerate(data["moves"])]
    got = viewer_steps(record, {"moves": [None] * len(points), "players": [],
                                "timeline": {"points": points}})
    assert [p["value"] for p in got["timeline"]] == [[1.0] * n] * len(points)
    with pytest.raises(ValueError, match="the evaluation graph holds"):
        viewer_steps(record, {"moves": [None] * len(points), "players": [],
                              "timeline": {"points": points[:-1]}})
    points[2] = {**points[2], "value": [1.0]}
    with pytest.raises(ValueError, match="point 2 of the evaluation graph"):
        viewer_steps(record, {"moves": [None] * len(points), "players": [],
                              "timeline": {"points": points}})


# ---------------------------------------------------------------------------- the page
def test_the_page_is_self_contained_and_says_all_hands_are_shown():
    record = _ass()
    record["strategies"][0] = "</script><script>alert(1)</script>"  # hostile text stays text
    page = viewer_html(record)
    assert ALL_HANDS in page or ALL_HANDS in json.dumps(_embedded(page))
    assert page.count("</script>") == 2  # the data and the script, nothing injected
    assert _embedded(page)["parts"][0]["seats"][0].startswith("seat 0 (</script>")
    for outside in ("src=", "href=", "url(", "@import", "http:", "https:"):
        assert outside not in page, outside
    assert "<style>" in page and "addEventListener('keydown'" in page


def test_write_viewer_writes_only_new_paths_or_with_force(tmp_path):
    from analyzer.errors import CardlabError

    record = _ass()
    out = write_viewer(tmp_path / "game.html", record)
    assert _embedded(out.read_text())["title"].startswith("Who's the Ass? seed 7, game 0")
    with pytest.raises(CardlabError, match="already exists; add --force"):
        write_viewer(out, _jass())
    write_viewer(out, _jass(), force=True)
    assert _embedded(out.read_text())["game"] == "jass"
    with pytest.raises(CardlabError, match="is a folder"):
        write_viewer(tmp_path, record, force=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html"]  # no temporary left


# ------------------------------------------------------------------------ command line
def test_replay_html_for_both_games_and_from_a_run(tmp_path, cli):
    page = tmp_path / "ass.html"
    args = ["replay", "ass", "--seed", "3", "--index", "5", "--players", "3",
            "--strategy", "random"]
    result = runner.invoke(app, [*args, "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"wrote the game viewer to {page} (open it in any browser)"
    record = json.loads(runner.invoke(app, args).stdout)
    assert _embedded(page.read_text()) == viewer_steps(record) | {
        "all_hands": ALL_HANDS, "annotations": None}
    code, out, err = cli(*args, "--html", page)
    assert code == 2 and out == ""
    one_error(err, f"--html {page} already exists; add --force to replace it", hint=False)
    assert runner.invoke(app, [*args, "--html", str(page), "--force"]).exit_code == 0
    jass = tmp_path / "jass.html"
    result = runner.invoke(app, ["replay", "jass", "--seed", "2", "--index", "0", "--deals",
                                 "--strategy", "random", "--html", str(jass), "--pretty"])
    assert result.exit_code == 0 and "trick  1:" in result.stdout
    assert _embedded(jass.read_text())["game"] == "jass"
    run = tmp_path / "run"
    sim = runner.invoke(app, ["simulate", "ass", "--players", "4", "--games", "20", "--seed",
                              "4", "--out", str(run), "-q", "-w", "1", "--backend", "serial"])
    assert sim.exit_code == 0, sim.output
    from_run = tmp_path / "from.html"
    result = runner.invoke(app, ["replay", "--from", str(run), "--index", "7", "--html",
                                 str(from_run)])
    assert result.exit_code == 0, result.output
    assert _embedded(from_run.read_text())["title"].startswith("Who's the Ass? seed 4, game 7")


@pytest.mark.parametrize("args, message", [
    (["--force"], "--force applies to --html"),
    (["--html", "{tmp}/missing/x.html"], "does not exist"),
    (["--html", "{tmp}"], "is a folder"),
])
def test_bad_html_targets_get_one_line_before_any_game(tmp_path, cli, monkeypatch, args,
                                                       message):
    import analyzer.engines.ass.records as ass_records
    import analyzer.engines.jass.records as jass_records

    def no_game(*a, **k):
        raise AssertionError("a game was played before the --html target was checked")

    monkeypatch.setattr(ass_records.Tracer, "record", no_game)
    monkeypatch.setattr(jass_records, "trace_record", no_game)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    for game in (["replay", "ass", "--seed", "1", "--index", "0"],
                 ["replay", "jass", "--seed", "1", "--index", "0"]):
        code, out, err = cli(*game, *args)
        assert code == 2 and out == "", err
        one_error(err, message, hint=False)
    code, _, err = cli("replay", "--html", tmp_path / "x.html", "ass", "--seed", "1",
                       "--index", "0")
    assert code == 2
    one_error(err, "go after the game", hint=False)


def test_the_viewer_and_the_board_share_one_palette():
    """One stylesheet source (reports.palette) both pages read: the page colours and the
    graph's seat colours are the same in the viewer and the board, and neither carries a
    palette of its own."""
    from starlette.testclient import TestClient

    from analyzer.board.app import make_app
    from reports.palette import PALETTE_CSS, SEAT_COLOURS

    viewer = viewer_html(_ass())
    with TestClient(make_app()) as client:
        board = client.get("/").text
    for page in (viewer, board):
        assert PALETTE_CSS in page
        assert "var(--seat" in page or "'--seat'" in page or '"--seat"' in page
        for colour in SEAT_COLOURS:  # the seat colours come from the palette alone
            assert page.count(colour) == PALETTE_CSS.count(colour)
    assert re.search(r"--seat11:\s*#", PALETTE_CSS) and len(SEAT_COLOURS) == 12

"""The analysis board's server (analyzer.board.app) without a browser: a typed position gives
exactly what ``cardlab analyze --format json`` prints, a bad one the CLI's one line with the
field at fault, oversized and malformed requests are refused with a JSON line and the server
keeps answering, identical requests in flight share one analysis, and a game study gives the
losses ``replay --analyze`` gives.
"""

import asyncio
import json
import shlex
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.board.app import MAX_BODY, Board, make_app, study_record
from analyzer.cli import app as cli_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ASS = {"players": 4, "seat": 0, "hand": "3 3 8 J", "sizes": "4,6,5,9", "gone": "1 1 2",
       "known": ["3:A"]}
JASS = {"players": 4, "hand": "B6 B9 S10 SU R7 A6 AU AA", "tricks": "R10 RK R6 RA"}


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    with TestClient(make_app()) as c:
        yield c


def cli_json(command: str) -> dict:
    args = shlex.split(command)[1:] + ["--format", "json"]
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("game, fields", [("ass", ASS), ("jass", JASS)], ids=["ass", "jass"])
def test_typed_position_gives_what_cardlab_analyze_prints(client, game, fields):
    r = client.post("/api/analyze", json={"game": game, "typed": fields, "worlds": 40,
                                          "seed": 7})
    assert r.status_code == 200, r.text
    page = r.json()
    assert page["command"].startswith(f"cardlab analyze {game} ")
    cli = cli_json(page["command"])  # the command the page shows reproduces its numbers
    assert [m["move"] for m in page["moves"]] == [m["move"] for m in cli["moves"]]
    for a, b in zip(page["moves"], cli["moves"], strict=True):
        for key in ("value", "low", "high", "diff", "diff_low", "diff_high", "best"):
            assert a[key] == b[key], (a["move"], key)
    assert page["moves"][0]["shown"]["value"]
    assert page["verdict"] == f"{cli['recommendation']} {cli['model']}"  # one voice


def test_a_bad_position_gets_the_cli_line_and_its_field(client):
    bad = {**ASS, "sizes": "5,6,5,9"}
    r = client.post("/api/analyze", json={"game": "ass", "typed": bad, "worlds": 10})
    assert r.status_code == 200  # answered: the position is impossible, not the request
    assert r.json() == {"error": "--sizes gives seat 0 5 cards but --hand holds 4",
                        "field": "sizes"}
    r = client.post("/api/analyze", json={"game": "jass", "worlds": 10,
                                          "typed": {**JASS, "hand": JASS["hand"] + " RK"}})
    assert r.json()["field"] == "hand"
    assert "a card shown twice: RK" in r.json()["error"]
    r = client.post("/api/analyze", json={"game": "ass", "worlds": 10,
                                          "typed": {**ASS, "hand": "3 3 8 Q"}})
    assert r.json()["field"] == "hand" and r.json()["error"].startswith("--hand")


def test_oversized_and_malformed_requests_are_refused_and_the_server_goes_on(client):
    r = client.post("/api/analyze", content=b"x" * (MAX_BODY + 1))
    assert r.status_code == 413 and "too large" in r.json()["error"]
    r = client.post("/api/analyze", content=b"{not json")
    assert r.status_code == 400 and r.json()["error"] == "the request is not JSON"
    r = client.post("/api/analyze", json={"game": "ass", "typed": ASS, "worlds": 10**6})
    assert r.status_code == 400 and r.json()["field"] == "worlds"
    r = client.post("/api/analyze", json={"game": "poker", "typed": {}})
    assert r.status_code == 400 and r.json()["field"] == "game"
    r = client.post("/api/analyze", json={"game": "ass", "typed": {"hand": 5}})
    assert r.status_code == 400 and "Traceback" not in r.text
    r = client.post("/api/open", json={"text": "{}\n"})
    assert r.json() == {"error": "the file holds no game record", "field": "file"}
    r = client.get("/api/game/nope")
    assert r.status_code == 404
    assert client.get("/api/info").status_code == 200  # still serving


def test_identical_requests_in_flight_share_one_analysis():
    board = Board()
    calls = []
    gate = threading.Event()

    def slow(x):
        calls.append(x)
        gate.wait(5)
        return x * 2

    async def both():
        first = asyncio.ensure_future(board.once("k", slow, 21))
        second = asyncio.ensure_future(board.once("k", slow, 21))
        other = asyncio.ensure_future(board.once("j", slow, 1))
        await asyncio.sleep(0.05)
        gate.set()
        return await asyncio.gather(first, second, other)

    assert asyncio.run(both()) == [42, 42, 2]
    assert calls == [21, 1]  # one analysis for the two identical requests, on one worker
    assert board.inflight == {}


def _records():
    from analyzer.engines.ass.reference import play_record
    from analyzer.engines.jass.reference import ReferenceJass
    from analyzer.games.jass.rules import make_rules
    from strategies.registry import parse_strategy, seat_strategies

    ass = play_record(5, 2, [parse_strategy("ass", "random")] * 3)
    jass = ReferenceJass(make_rules(3, {"ruleset": "seed"}),
                         seat_strategies("jass", ["random"], 3)).play_single_deal(5, 1)
    return ass, jass


@pytest.mark.parametrize("which", [0, 1], ids=["ass", "jass"])
def test_a_game_study_gives_the_losses_of_replay_analyze(which):
    from analyzer.analysis.annotate import annotate_game

    record = _records()[which]
    study = study_record(record, 3, 11)
    ann = annotate_game(record["game"], record, worlds=3, seed=11)
    assert len(study["moves"]) == len(ann["moves"])
    for a, b in zip(study["moves"], ann["moves"], strict=True):
        assert (a["seat"], a["move"], a["best"], a["loss"], a["label"], a["value"]) == \
            (b["seat"], b["move"], b["best"], b["loss"], b["label"], b["value"])
        assert a["alternatives"][0]["move"] == a["best"]
    # the board adds each seat's loss as the command line prints it (shown_lost)
    assert [{k: v for k, v in p.items() if k != "shown_lost"} for p in study["players"]] == \
        ann["players"]


@pytest.mark.parametrize("which", [0, 1], ids=["ass", "jass"])
def test_a_game_study_values_every_seat_after_every_move(which):
    """The study's graph has a point per seat after every move: every seat's expected final
    result as the mover saw it (analysis.timeline), inside the game's result column, the
    mover's own the value of the move it played."""
    from analyzer.analysis.timeline import game_timeline
    from analyzer.analysis.values import value_ranges

    record = _records()[which]
    n = record["players"]
    study = study_record(record, 30, 11)
    low, high = value_ranges(record["game"])[""]
    timeline = game_timeline(record["game"], record, worlds=30, seed=11)["points"]
    for m, point in zip(study["moves"], timeline, strict=True):
        every = m["expected"]
        assert len(every["value"]) == len(every["low"]) == len(every["high"]) == n
        assert every["value"] == point["value"] and every["low"] == point["low"]
        assert every["value"][m["seat"]] == m["value"]
        for v, lo, hi in zip(every["value"], every["low"], every["high"], strict=True):
            assert low <= lo <= v <= hi and (high is None or hi <= high)


def test_a_records_file_opens_and_its_study_runs_in_the_background(client):
    record = _records()[1]
    r = client.post("/api/open", json={"text": json.dumps(record) + "\n"})
    assert r.status_code == 200, r.text
    opened = r.json()
    assert opened["game"] == "jass" and len(opened["data"]["moves"]) == 36
    job = client.post("/api/study", json={"record": opened["id"], "worlds": 2}).json()["job"]
    for _ in range(600):
        state = client.get(f"/api/study/{job}").json()
        if state["result"] or state["error"]:
            break
        time.sleep(0.1)
    assert state["error"] is None and state["done"] == state["total"] == 36
    r = client.post("/api/analyze", json={"game": "jass", "record": opened["id"], "part": 0,
                                          "move": 5, "worlds": 20, "seed": 3})
    assert r.status_code == 200, r.text
    assert r.json()["command"].startswith("cardlab analyze jass --players 3 --hand ")


def test_the_board_command_opens_a_record_and_refuses_bad_options(tmp_path, monkeypatch,
                                                                   capsys):
    import socket

    import uvicorn

    from analyzer.cli.app import run_app

    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(app=app, **kw))

    def board(*args):
        with pytest.raises(SystemExit) as ended:
            run_app(["board", *args])
        out = capsys.readouterr()
        return ended.value.code, out.out + out.err

    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(_records()[0]) + "\n", encoding="utf-8")
    code, text = board("--record", str(path), "--port", "0")
    assert code == 2 and text == "error: --port must be 1 to 65535; got 0\n"
    code, text = board("--index", "3")
    assert code == 2 and text == "error: --index applies with --from or --record\n"
    code, text = board("--record", str(tmp_path / "none.jsonl"))
    assert code == 2 and text.startswith("error: cannot read --record")
    assert not served
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.listen()
    code, text = board("--record", str(path), "--port", str(port))  # the port is taken
    assert code == 1 and text.startswith(f"error: cannot serve on 127.0.0.1:{port}")
    sock.close()
    code, text = board("--record", str(path), "--port", str(port))
    assert code == 0, text
    assert served["host"] == "127.0.0.1" and served["port"] == port
    board_state = served["app"].state.board
    [entry] = board_state.records.values()
    assert entry["record"]["_source"] == f"--record {path}"
    assert "warming the compiled code" in text
    board_state.pool.shutdown(wait=True)


def test_a_run_folders_game_opens_from_the_page(tmp_path):
    from starlette.testclient import TestClient

    from analyzer.cli.app import run_app
    from analyzer.cli.board_commands import open_run

    run = tmp_path / "run"
    with pytest.raises(SystemExit) as ended:
        run_app(["simulate", "ass", "-n", "2", "--seed", "4", "--out", str(run), "--quiet"])
    assert ended.value.code == 0
    with TestClient(make_app(Board(open_run))) as c:
        r = c.post("/api/open", json={"run": str(run), "index": 1})
        assert r.status_code == 200, r.text
        opened = r.json()
        assert opened["data"]["title"].startswith("Who's the Ass? seed 4, game 1")
        r = c.post("/api/analyze", json={"game": "ass", "record": opened["id"], "part": 0,
                                         "move": 3, "worlds": 30})
        assert r.json()["recorded"] == (f"cardlab analyze ass --from {run} --index 1 --move 3 "
                                        "--worlds 30 --seed 0")
        r = c.post("/api/open", json={"run": str(run), "index": 7})
        assert r.json() == {"error": f"--index 7 is outside the run {run}: it holds indices "
                                     "0 to 1", "field": "run"}
        r = c.post("/api/open", json={"run": str(tmp_path / "nothing")})
        assert r.json()["field"] == "run" and r.json()["error"]
    with TestClient(make_app()) as c:  # a board made without the command's loader
        r = c.post("/api/open", json={"run": str(run)})
        assert r.status_code == 400 and "started by cardlab board" in r.json()["error"]


def test_a_seats_loss_in_the_study_is_printed_as_the_command_line_prints_it():
    """Issue 47 item 2: numbers as the CLI formats them (``18 ± 3``), the per-seat summary
    included; the page shows the server's text and formats no loss of its own."""
    from analyzer import numbers

    record = _records()[0]
    study = study_record(record, 30, 11)
    for p in study["players"]:
        half = (p["lost_high"] - p["lost_low"]) / 2 if p["lost_low"] is not None else None
        want = (numbers.interval(p["lost"], half) if half else numbers.number(p["lost"], 2))
        assert p["shown_lost"] == want
    page = (Path(__file__).resolve().parent.parent / "analyzer/board/board.html").read_text()
    assert "p.lost).toFixed" not in page and "p.shown_lost" in page

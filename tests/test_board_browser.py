"""The analysis board (``cardlab board``) driven in headless Chromium as a player uses it: a
position set up by clicks in each game gives the numbers ``cardlab analyze --format json``
gives with the same seed, a bad position gets the CLI's line next to its field, a game is
stepped with the buttons and the keyboard, studied (graph, alternatives, next mistake), and
practised with the other hands hidden; no console errors, no sideways scroll at 390 px.

Chromium is Debian's package (`.ci/run` installs it), driven by Playwright. Outside CI the
test skips when no browser (or no Playwright) is installed; with CI=true that is a failure.
"""

import json
import os
import shlex
import socket
import threading
import time

import pytest
from typer.testing import CliRunner

from analyzer.cli import app as cli_app
from reports.check import find_chromium

CHROMIUM = find_chromium()
IN_CI = os.environ.get("CI", "").lower() == "true"
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

pytestmark = pytest.mark.skipif(
    (CHROMIUM is None or sync_playwright is None) and not IN_CI,
    reason="no Chromium or Playwright installed (apt-get install -y chromium; the test "
           "extra); required when CI=true",
)


def _records():
    from analyzer.engines.ass.reference import play_record
    from analyzer.engines.jass.reference import ReferenceJass
    from analyzer.games.jass.rules import make_rules
    from strategies.registry import parse_strategy, seat_strategies

    ass = play_record(5, 2, [parse_strategy("ass", "random")] * 3)
    jass = ReferenceJass(make_rules(3, {"ruleset": "seed"}),
                         seat_strategies("jass", ["random"], 3)).play_single_deal(5, 1)
    return ass, jass


@pytest.fixture(scope="module")
def server():
    """A board on a free local port, with a Who's the Ass? game open (as --record does)."""
    import uvicorn

    from analyzer.board.app import Board, make_app

    board = Board()
    board.add_record(_records()[0], "--record game.jsonl")
    board.warm(lambda _s: None)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    srv = uvicorn.Server(uvicorn.Config(make_app(board), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM is not None and sync_playwright is not None, \
        "CI=true but no Chromium or Playwright found"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    """A page of the board; after the test, no console error or warning was logged."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(15_000)
    errors = []
    pg.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning")
          else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server)
    pg.wait_for_selector("#status:has-text('ready')", timeout=120_000)
    yield pg
    ctx.close()
    assert errors == []


def cli_json(command: str) -> dict:
    result = CliRunner().invoke(cli_app, shlex.split(command)[1:] + ["--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _no_sideways_scroll(pg):
    pg.set_viewport_size({"width": 390, "height": 844})
    wide = pg.evaluate("""[...document.querySelectorAll('body *')].filter(e =>
        e.getBoundingClientRect().right > 391).map(e => e.tagName + '#' + e.id + '.' +
        e.className).slice(0, 5)""")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390, wide
    pg.set_viewport_size({"width": 1366, "height": 900})


def _analyze(pg):
    pg.fill("#worlds", "40")
    pg.fill("#seed", "5")
    pg.click("#analyze")
    pg.wait_for_selector("[data-test=command]", timeout=60_000)
    command = pg.inner_text("[data-test=command]")
    rows = pg.eval_on_selector_all("table.moves tbody tr",
                                   "rs => rs.map(r => [r.dataset.move, +r.dataset.value])")
    return command, rows


def test_ass_position_set_up_by_clicks_gives_the_cli_values(page):
    page.click("#tab-setup")  # the board opens on the game it was started with
    for card in ("3", "3", "8", "J"):
        page.click(f"#ass-cards [data-card='{card}']")
    page.click("[data-target='a-gone']")
    for card in ("1", "1", "2"):
        page.click(f"#ass-cards [data-card='{card}']")
    page.click("[data-target='a-known']")
    page.select_option("#a-known-seat", "3")
    page.click("#ass-cards [data-card='A']")
    for seat, size in ((1, 6), (2, 5), (3, 9)):
        page.fill(f"#size-{seat}", str(size))
    command, rows = _analyze(page)
    assert command == ("cardlab analyze ass --players 4 --seat 0 --hand '3 3 8 J' --sizes "
                       "4,6,5,9 --gone '1 1 2' --known '3:A' --worlds 40 --seed 5")
    cli = cli_json(command)
    assert rows == [[m["move"], m["value"]] for m in cli["moves"]]
    assert page.inner_text("[data-test=verdict]").startswith("Play ")
    _no_sideways_scroll(page)
    # an impossible position: the CLI's line beside the field at fault, nothing analysed
    page.fill("#size-0", "5")
    page.click("#analyze")
    page.wait_for_selector("#err-sizes:not(:empty)")
    assert page.inner_text("#err-sizes") == "--sizes gives seat 0 5 cards but --hand holds 4"
    assert page.is_hidden("#result-panel")


def test_jass_position_set_up_by_clicks_gives_the_cli_values(page):
    page.click("#tab-setup")
    page.check("input[name=game][value=jass]")
    for card in ("B6", "B9", "S10", "SU", "R7", "A6", "AU", "AA"):
        page.click(f"#jass-cards [data-card='{card}']")
    page.click("[data-target='j-tricks']")
    for card in ("R10", "RK", "R6", "RA"):
        page.click(f"#jass-cards [data-card='{card}']")
    command, rows = _analyze(page)
    assert command == ("cardlab analyze jass --players 4 --hand 'B6 B9 S10 SU R7 A6 AU AA' "
                       "--tricks 'R10 RK R6 RA' --first 0 --worlds 40 --seed 5")
    cli = cli_json(command)
    assert rows == [[m["move"], m["value"]] for m in cli["moves"]]
    page.click("[data-target='j-hand']")
    page.click("#jass-cards [data-card='RK']")  # RK is in the tricks already
    page.click("#analyze")
    page.wait_for_selector("#err-j-hand:not(:empty)")
    assert page.inner_text("#err-j-hand") == "a card shown twice: RK is in --hand and in --tricks"


def _count(pg):
    return pg.inner_text("#step-count")


def test_a_game_is_stepped_studied_and_its_mistakes_found_by_keyboard(page):
    page.click("#tab-study")
    page.wait_for_selector("#game:not([hidden])")
    first = _count(page)
    assert first.startswith("game (step 1 of ")
    page.click("#next")
    assert _count(page).startswith("game · move 1 (step 2 of ")
    page.keyboard.press("ArrowRight")
    assert _count(page).startswith("game · move 2 (step 3 of ")
    page.keyboard.press("ArrowLeft")
    assert _count(page).startswith("game · move 1 (step 2 of ")
    page.keyboard.press("End")
    total = first.split()[-1].rstrip(")")
    assert _count(page).endswith(f"(step {total} of {total})")
    page.keyboard.press("Home")
    assert _count(page) == first
    page.fill("#study-worlds", "40")  # intervals (and labels) need 30 worlds or more
    page.click("#study")
    page.wait_for_selector("#graph polyline", timeout=120_000)
    assert page.locator("#graph polyline").count() == 3  # one line per seat
    # a point per seat after every move of the game, not only after the seat's own
    moves = page.evaluate("G.data.moves.length")
    points = page.eval_on_selector_all(
        "#graph polyline", "ls => ls.map(l => l.getAttribute('points').trim().split(' ').length)")
    assert points == [moves] * 3
    seats = page.eval_on_selector_all("#mistakes [data-jump]", "bs => bs.map(b => +b.dataset.jump)")
    assert seats, "random players make clear mistakes"
    # N jumps to the chosen seat's next mistake; the alternatives of that move are shown
    study = page.evaluate("study.moves.map(m => [m.seat, m.label])")
    seat, _ = next(m for m in study if m[1])
    target = next(i for i, m in enumerate(study) if m[0] == seat and m[1])
    page.select_option("#mistake-seat", str(seat))
    page.click("#step-text")  # the keys act outside the form's fields
    page.keyboard.press("End")
    page.keyboard.press("Home")
    page.keyboard.press("n")
    assert _count(page).startswith(f"game · move {target + 1} (")
    assert f"seat {seat} played" in page.inner_text("#alternatives")
    assert page.locator("#alternatives table.moves tr").count() >= 2
    assert page.locator("[data-test=cursor]").count() == 1
    _no_sideways_scroll(page)
    # practising, the graph (the rest of the game, as the others saw it) is not shown
    page.select_option("#practice-seat", "1")
    page.click("#practice")
    assert page.locator("#graph-box").is_hidden()
    page.click("#practice-stop")
    assert page.locator("#graph-box").is_visible()


def test_practice_hides_the_other_hands_and_asks_for_the_move(page):
    page.click("#tab-study")
    page.wait_for_selector("#game:not([hidden])")
    page.select_option("#practice-seat", "1")
    page.click("#practice")
    hands = page.eval_on_selector_all(
        "#seats .seat",
        "ss => ss.map(s => [s.dataset.seat, !!s.querySelector('[data-test=hidden]')])")
    assert hands == [["0", True], ["1", False], ["2", True]]
    names = page.eval_on_selector_all("#seats .seat .name", "ns => ns.map(n => n.textContent)")
    assert ["minus points" in n for n in names] == [False, True, False]  # they tell of cards
    mover = page.evaluate("G.data.moves.indexOf(1)")  # seat 1's first move
    for _ in range(mover + 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#choices button", timeout=60_000)
    assert "Your move?" in page.inner_text("#question")
    page.click("#choices button")
    page.wait_for_selector("#practice-result table.moves")
    assert "you chose" in page.inner_text("#practice-result")
    assert page.locator("#seats [data-test=hidden]").count() == 2  # still hidden after it
    assert _count(page).startswith(f"game · move {mover + 1} (")
    _no_sideways_scroll(page)


def test_a_records_file_opened_in_the_page_is_stepped(page, tmp_path):
    record = _records()[1]  # a Plus-Minus Jass deal of three
    path = tmp_path / "deal.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    page.click("#tab-study")
    page.set_input_files("#file", str(path))
    page.click("#open")
    page.wait_for_selector("#game-title:has-text('Plus-Minus Jass')")
    assert _count(page) == f"deal 1 (step 1 of {len(page.evaluate('G.data.steps'))})"
    page.click("#step-text")
    page.keyboard.press("ArrowRight")
    assert _count(page).startswith("deal 1 · move 1 (step 2 of ")
    first = record["deals"][0]["tricks"][0]["cards"][0]
    assert first in page.inner_text("#table-now")
    page.fill("#file-index", "99")
    page.click("#open")
    page.wait_for_selector("#open-error:not(:empty)")
    assert page.inner_text("#open-error").startswith("no record with index 99")


def test_a_match_is_studied_by_player_across_its_games(page, tmp_path):
    from analyzer.engines.ass.reference import play_match_record
    from strategies.registry import parse_strategy

    record = play_match_record(2, 0, [parse_strategy("ass", "random")] * 3, games=2)
    path = tmp_path / "match.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    page.click("#tab-study")
    page.set_input_files("#file", str(path))
    page.click("#open")
    page.wait_for_selector("#game-title:has-text('match 0')")
    assert _count(page).startswith("game 1 (step 1 of ")
    page.fill("#study-worlds", "10")
    page.click("#study")
    page.wait_for_selector("#graph polyline", timeout=120_000)
    assert page.inner_text("#mistake-key") == "Player"  # a match's seats change each game
    assert page.inner_text("#graph-part") == "game 1"
    page.click("#step-text")
    page.keyboard.press("End")
    assert page.inner_text("#graph-part") == "game 2"
    assert page.inner_text("#alternatives").startswith("game 2 move ")

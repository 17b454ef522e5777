"""Screenshots of the analysis board (``cardlab board``) in headless Chromium.

    python scripts/board_screenshots.py --out DIR

starts a board on a free local port with a sample Who's the Ass? game open, and writes
``DIR/board-<view>-<width>x<height>.png`` for each view (a typed Who's the Ass? position
analysed, a typed Plus-Minus Jass position analysed, the game studied at a mistake, practice
asking for a move) in a desktop window (1366x900) and a phone (390x844), each the whole page
at that width. DIR is created if missing; only these files are written in it (an earlier
run's are replaced). Needs Chromium (Debian: apt-get install -y chromium) and Playwright
(the test extra). Prints the time from the board's start to its first analysis.

    python scripts/board_screenshots.py --out docs/images/board --docs

writes only the views docs/analyzing.md shows (:data:`DOCS`), made small for the
repository: at most 1,000 pixels wide and 64 colours (Pillow, which matplotlib brings),
about 300 KB together.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
import time
from pathlib import Path

SIZES = ((1366, 900), (390, 844))
# the screenshots docs/analyzing.md shows (--docs), and how small they are made
DOCS = ("board-setup-ass-1366x900.png", "board-setup-jass-390x844.png",
        "board-study-1366x900.png", "board-study-390x844.png", "board-practice-390x844.png")
DOCS_WIDTH = 1000
DOCS_COLOURS = 64  # enough for the graph's seat colours to stay apart


def sample_game():
    """A Who's the Ass? game of four: two basic players, two random ones (who err)."""
    from analyzer.engines.ass.reference import play_record
    from strategies.registry import parse_strategy

    basic, rnd = parse_strategy("ass", "basic"), parse_strategy("ass", "random")
    return play_record(3, 1, [basic, rnd, basic, rnd])


def start_board():
    import uvicorn

    from analyzer.board.app import Board, make_app

    board = Board()
    board.add_record(sample_game(), "--record sample.jsonl")
    board.warm(lambda s: print(s, file=sys.stderr))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(uvicorn.Config(make_app(board), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}/", server


def shoot(page, out: Path, name: str, width: int, height: int) -> Path:
    path = out / f"board-{name}-{width}x{height}.png"
    tmp = out / f".{path.name}.tmp.png"
    page.screenshot(path=str(tmp), full_page=True)
    os.replace(tmp, path)
    return path


def shrink(path: Path) -> None:
    """Make a screenshot small for the repository, in place (atomically): at most
    DOCS_WIDTH pixels wide, DOCS_COLOURS colours, no dithering (text stays crisp)."""
    from PIL import Image

    with Image.open(path) as im:
        im = im.convert("RGB")
        if im.width > DOCS_WIDTH:
            im = im.resize((DOCS_WIDTH, round(im.height * DOCS_WIDTH / im.width)),
                           Image.LANCZOS)
        small = im.quantize(colors=DOCS_COLOURS, method=Image.Quantize.FASTOCTREE,
                            dither=Image.Dither.NONE)
    tmp = path.with_name(f".{path.name}.tmp.png")
    small.save(tmp, optimize=True)
    os.replace(tmp, path)


def views(page, url: str, out: Path, width: int, height: int, t0: float) -> list[Path]:
    shots = []
    page.goto(url)
    page.wait_for_selector("#status:has-text('ready')", timeout=300_000)
    page.click("#tab-setup")
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
    page.click("#analyze")
    page.wait_for_selector("[data-test=command]", timeout=120_000)
    if t0:
        print(f"first analysis (1,000 worlds) shown {time.monotonic() - t0:.1f} s after the "
              "board's start", file=sys.stderr)
    shots.append(shoot(page, out, "setup-ass", width, height))
    page.check("input[name=game][value=jass]")
    for card in ("B6", "B9", "BA", "S10", "SU", "SK", "A6", "AU", "AA"):
        page.click(f"#jass-cards [data-card='{card}']")
    page.click("[data-target='j-tricks']")
    page.click("#jass-cards [data-card='R10']")
    page.click("#analyze")
    page.wait_for_selector("#result-panel [data-test=command]:has-text('jass')",
                           timeout=120_000)
    shots.append(shoot(page, out, "setup-jass", width, height))
    page.click("#tab-study")
    page.fill("#study-worlds", "100")
    page.click("#study")
    page.wait_for_selector("#graph polyline", timeout=600_000)
    page.select_option("#mistake-seat", "3")
    page.click("#step-text")
    page.keyboard.press("n")
    shots.append(shoot(page, out, "study", width, height))
    page.select_option("#practice-seat", "1")
    page.click("#practice")
    page.click("#step-text")
    page.keyboard.press("Home")
    mover = page.evaluate("G.data.moves.indexOf(1)")
    for _ in range(mover + 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#choices button", timeout=120_000)
    shots.append(shoot(page, out, "practice", width, height))
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="folder for the PNG files")
    parser.add_argument("--docs", action="store_true",
                        help="keep only the views docs/analyzing.md shows, made small")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from reports.check import find_chromium

    chromium = find_chromium()
    if chromium is None:
        print("error: no Chromium found (Debian: apt-get install -y chromium)", file=sys.stderr)
        return 2
    if args.out.exists() and not args.out.is_dir():
        print(f"error: --out {args.out} is a file; give a folder", file=sys.stderr)
        return 2
    foreign = sorted(p.name for p in args.out.iterdir()
                     if not (p.name.startswith("board-") and p.suffix == ".png")) \
        if args.out.is_dir() else []
    if foreign:  # only this script's own screenshots are ever replaced
        print(f"error: --out {args.out} holds files this script did not write ({foreign[0]}, "
              "...); give a new folder or one of earlier screenshots", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    url, server = start_board()
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for width, height in SIZES:
            ctx = browser.new_context(viewport={"width": width, "height": height})
            page = ctx.new_page()
            shots += views(page, url, args.out, width, height, t0 if not shots else 0.0)
            ctx.close()
        browser.close()
    server.should_exit = True
    if args.docs:
        for path in shots:
            if path.name in DOCS:
                shrink(path)
            else:
                path.unlink()
        shots = [path for path in shots if path.name in DOCS]
    for path in shots:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

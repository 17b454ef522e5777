"""The board's server: a Starlette application the ``cardlab board`` command runs with uvicorn.

Routes (JSON in and out; every error is ``{"error": one line, "field": name or null}``, never
a traceback: status 400, 413 or 404 for a request the board refuses; 200 for a position the
rules refuse (the CLI's line, naming the field at fault) or a file or run folder that holds no
such game, as a browser logs every 4xx as a console error):

- ``GET /``: the page (board.html, with the palette it shares with the game viewer,
  reports/palette.py);
- ``GET /api/info``: whether the compiled code is warm, the limits, the games opened;
- ``POST /api/analyze``: one position, typed (``{"game", "typed": {...}, "worlds",
  "seed"}``, the options of ``cardlab analyze ass|jass``) or of an opened game (``{"game",
  "record": ID, "part": G, "move": K, ...}``), optionally with ``"continuation"`` (analyze's
  what-if): every legal move valued, the verdict in plain words (the recommendation and the
  model line, one voice) and the command line that reproduces it;
- ``POST /api/open``: a records file's text (JSON Lines, docs/game-records.md) and the index
  of the record, or a run folder's path and the game's index (with the loader ``cardlab
  board`` gives); the game's steps as the viewer draws them;
- ``POST /api/study``: start the annotation of an opened game (every move against the best,
  as ``replay --analyze`` does, plus the best alternatives, and every seat's expected final
  result after every move for the graph, analysis.timeline); ``GET /api/study/{job}``: its
  progress and, when done, the result.

Analysis runs on one worker thread (the engines are compiled code that uses a core), never
on the request's thread: identical requests in flight share one computation, and a request
for a position being analysed waits for that analysis instead of starting another.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from analyzer import numbers
from analyzer.errors import CardlabError
from reports.facts import lower_is_better

log = logging.getLogger("cardlab.board")

PAGE = Path(__file__).with_name("board.html")
MAX_BODY = 64 * 1024  # an analysis request: a few hundred characters
MAX_RECORD_BODY = 8 * 1024 * 1024  # a records file sent from the page
MAX_WORLDS = 5000  # per analysis in the board (the command line allows 20,000)
MAX_STUDY_WORLDS = 1000  # per move when a whole game is studied
MAX_RECORDS = 20  # games held open at once
GAME_STRIDE = 1000  # stream index of a move in a game study: as replay --analyze



class BadRequest(CardlabError):
    """A request the board refuses: one line, the field at fault, an HTTP status (on the
    command line, a CardlabError like any other)."""

    def __init__(self, message: str, field: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.field = field
        self.status = status


def field_of(message: str, fields: tuple[str, ...]) -> str | None:
    """The field a CLI error message names first (``--sizes ...`` -> ``sizes``)."""
    best = None
    for name in fields:
        flag = "--" + name.replace("_", "-")
        at = message.find(flag)
        while at >= 0:  # --game must not match inside --game-in-match, nor --seat in --seats
            end = at + len(flag)
            if end >= len(message) or not (message[end].isalnum() or message[end] == "-"):
                break
            at = message.find(flag, end)
        if at >= 0 and (best is None or at < best[0]):
            best = (at, name)
    return best[1] if best else None


# --- the typed positions, exactly as the command line builds them ---------------------------


def _text(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be text; got {type(value).__name__}", name)
    return value if value.strip() else None


def _int(value: Any, name: str, default: int | None = None) -> int | None:
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadRequest(f"{name} must be a whole number; got {value!r}", name)
    try:
        return int(value)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number; got {value!r}", name) from None


def _list(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRequest(f"{name} must be a list of texts", name)
    return [v for v in value if v.strip()]


def _q(text: str) -> str:
    return "'" + text + "'"


# --- numbers and words ----------------------------------------------------------------------


def _half(row: dict, key: str) -> float | None:
    low, high = row.get(f"{key}_low" if key else "low"), row.get(f"{key}_high" if key else "high")
    if low is None or high is None:
        return None
    return (high - low) / 2


def estimate(value: float | None, half: float | None, signed: bool = False) -> str:
    """A value as the command line prints it: ``18 ± 3`` (or the value alone)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if half is None or half == 0:
        return numbers.number(value, 2, signed)
    return numbers.interval(value, half, signed=signed)


# the names of the values a game's rows may carry beside the main one (shown_rows)
EXTRA_NAMES = (("points", "card points"), ("win", "match win"))


def shown_rows(game: str, rows: list[dict]) -> list[dict]:
    """Each move's row with its numbers as text, as ``cardlab analyze`` prints them."""
    out = []
    for row in rows:
        shown = {"value": estimate(row["value"], _half(row, "")),
                 "diff": "best" if row["best"] else f"same as {row['same_as']}"
                 if row.get("same_as") else estimate(row["diff"], _half(row, "diff"),
                                                     signed=True)}
        if "points" in row:  # the value the game's rows carry beside the main one
            shown["extra"] = estimate(row["points"], _half(row, "points"))
        elif "win" in row:
            half = _half(row, "win")
            shown["extra"] = (numbers.percent(row["win"]) if not half else
                              numbers.interval(row["win"], half, percent=True))
        out.append({**row, "shown": shown})
    return out


def verdict(result: dict[str, Any]) -> str:
    """The analysis in plain words, in one voice (the strongest player's worlds and
    evaluation, analyzer/analysis/model.py): the recommendation, then the model line."""
    return f"{result['recommendation']} {result['model']}"


# --- games opened ---------------------------------------------------------------------------


def board_games() -> tuple[str, ...]:
    """The games the board opens and analyses: those whose adapter names a board module
    (GameParts.board: its typed fields, a record's parts and positions, its warm-up)."""
    from analyzer.games import registry

    return tuple(g for g in registry.names() if registry.get(g).has("board"))


def game_board(game: str):
    """The board module of ``game`` (its adapter's ``board``)."""
    from analyzer.games import registry

    return registry.load(registry.get(game).part("board", "the board"))


def game_parts(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per part of a record (the games of a match, the deals): the seats that moved, in
    record order, and the moves' notation (the game's board module's ``parts``)."""
    game = record.get("game")
    if game not in board_games():
        raise BadRequest(f"not a game record: game {game!r}; {' or '.join(board_games())}",
                         "record")
    return game_board(game).parts(record)


def record_position(game: str, record: dict[str, Any], part: int, move: int):
    """(Position, command line) of move ``move`` of part ``part`` of a record."""
    pos, where = game_board(game).position(record, part, move)
    source = record.get("_source")
    recorded = (f"cardlab analyze {game} {source} {where}--move {move}"
                if source else None)
    return pos, recorded


class Board:
    """The state of one server: the games opened, the analyses in flight, the studies."""

    def __init__(self, open_run=None) -> None:
        self.open_run = open_run  # (path, index) -> (record, options); the command gives it
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardlab-analysis")
        self.inflight: dict[str, asyncio.Future] = {}
        self.records: dict[str, dict[str, Any]] = {}
        self.jobs: dict[str, dict[str, Any]] = {}
        self.ready = threading.Event()
        self.warm_seconds: float | None = None
        self.started = time.monotonic()
        self.lock = threading.Lock()

    # the one worker ------------------------------------------------------------------------
    async def once(self, key: str, fn, *args):
        """Run ``fn(*args)`` on the worker; a request equal to one in flight shares it."""
        fut = self.inflight.get(key)
        if fut is None:
            fut = asyncio.wrap_future(self.pool.submit(fn, *args))
            self.inflight[key] = fut
            fut.add_done_callback(lambda _f: self.inflight.pop(key, None))
        return await asyncio.shield(fut)

    def warm(self, say=print) -> None:
        """Compile (or load from the cache) every game's analysis code once, on the worker
        (each game's board module's ``warm``)."""
        def work():
            t = time.monotonic()
            for game in board_games():
                game_board(game).warm()
            self.warm_seconds = time.monotonic() - t
            self.ready.set()
            say(f"cardlab board: compiled code warm in {self.warm_seconds:.1f} s; ready")

        say("cardlab board: warming the compiled code (the first start after an install "
            "compiles it, up to a minute or two) ...")
        self.pool.submit(work)

    # records -------------------------------------------------------------------------------
    def add_record(self, record: dict[str, Any], source: str | None = None) -> str:
        if not isinstance(record, dict) or record.get("game") not in board_games():
            raise BadRequest("not a game record (docs/game-records.md): its game must be "
                             f"{' or '.join(board_games())}", "record")
        steps = self.steps_of(record)
        key = uuid.uuid4().hex[:12]
        with self.lock:
            while len(self.records) >= MAX_RECORDS:
                self.records.pop(next(iter(self.records)))
            self.records[key] = {"record": {**record, "_source": source}, "steps": steps}
        return key

    @staticmethod
    def steps_of(record: dict[str, Any]) -> dict[str, Any]:
        from reports.viewer import viewer_steps

        try:
            data = viewer_steps(record)
            data["parts_moves"] = game_parts(record)
        except BadRequest:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise BadRequest(f"not a game record as docs/game-records.md describes it "
                             f"({type(exc).__name__}: {exc})", "record") from None
        return data

    def record(self, key: Any) -> dict[str, Any]:
        found = self.records.get(key) if isinstance(key, str) else None
        if found is None:
            raise BadRequest("that game is no longer open (the board keeps the last "
                             f"{MAX_RECORDS}); open it again", "record", 404)
        return found


# --- request handling -----------------------------------------------------------------------


async def body_json(request: Request, limit: int) -> dict[str, Any]:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise BadRequest(f"request too large: at most {limit:,} bytes", None, 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(f"request too large: at most {limit:,} bytes", None, 413)
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadRequest("the request is not JSON", None) from None
    if not isinstance(data, dict):
        raise BadRequest("the request must be a JSON object", None)
    return data


def _game(data: dict[str, Any]) -> str:
    game = data.get("game")
    if game not in board_games():
        raise BadRequest(f"game must be {' or '.join(board_games())}; got {game!r}", "game")
    return game


def _worlds_seed(data: dict[str, Any], top: int) -> tuple[int, int]:
    worlds = _int(data.get("worlds"), "worlds", 1000)
    seed = _int(data.get("seed"), "seed", 0)
    if not 1 <= worlds <= top:
        raise BadRequest(f"--worlds must be 1 to {top:,} in the board; got {worlds}", "worlds")
    if not 0 <= seed < 2**63:
        raise BadRequest(f"--seed must be 0 to 2**63-1; got {seed}", "seed")
    return worlds, seed


def analyze_position(game: str, pos, worlds: int, seed: int, index: int = 0,
                     continuation: str | None = None) -> dict[str, Any]:
    from analyzer.games import registry

    analysis = registry.load(registry.get(game).part("analysis", "the analysis"))
    result = analysis.analyze(pos, worlds, seed, index, continuation=continuation)
    result["moves"] = shown_rows(game, result["moves"])
    result["verdict"] = verdict(result)
    # the page shows these as given: the position in words (the game's board module's
    # ``line``) and the name of the value the rows carry beside the main one
    result["position_line"] = game_board(game).line(result["position"])
    rows = result["moves"]
    result["extra_name"] = next((name for key, name in EXTRA_NAMES
                                 if rows and key in rows[0]), None)
    return result


def _continuation(data: dict[str, Any], game: str) -> str | None:
    """The request's what-if ``continuation`` (``cardlab analyze --continuation``), checked."""
    from analyzer.analysis.model import search_values

    name = _text(data.get("continuation"), "continuation")
    if name is not None:
        try:
            search_values(game, name)
        except CardlabError as exc:
            raise BadRequest(" ".join(str(exc).split()), "continuation") from None
    return name


def make_app(board: Board | None = None) -> Starlette:
    """The application; ``board`` holds its state (a new one by default)."""
    board = board or Board()

    def error(exc: BadRequest) -> JSONResponse:
        return JSONResponse({"error": str(exc), "field": exc.field}, status_code=exc.status)

    async def guarded(handler, request: Request):
        try:
            return await handler(request)
        except BadRequest as exc:
            return error(exc)
        except CardlabError as exc:
            return error(BadRequest(" ".join(str(exc).split()), None))
        except Exception as exc:  # never a traceback to the page, never a dead server
            log.exception("board request failed")
            return error(BadRequest(f"the board failed on this request ({type(exc).__name__}:"
                                    f" {exc}); the server keeps running", None, 500))

    async def page(request: Request):
        from reports.palette import PALETTE_CSS  # the palette the game viewer shares

        text = PAGE.read_text(encoding="utf-8")
        return HTMLResponse(text.replace("/*__PALETTE__", PALETTE_CSS + "\n/*", 1),
                            headers={"Cache-Control": "no-store"})

    async def info(request: Request):
        return JSONResponse({
            "ready": board.ready.is_set(), "warm_seconds": board.warm_seconds,
            "max_worlds": MAX_WORLDS, "max_study_worlds": MAX_STUDY_WORLDS,
            "games": [{"id": k, "title": v["steps"]["title"], "game": v["record"]["game"]}
                      for k, v in board.records.items()]})

    async def analyze(request: Request):
        data = await body_json(request, MAX_BODY)
        game = _game(data)
        worlds, seed = _worlds_seed(data, MAX_WORLDS)
        continuation = _continuation(data, game)
        if "record" in data:
            entry = board.record(data["record"])
            part, move = _int(data.get("part"), "part", 0), _int(data.get("move"), "move", 0)
            if entry["record"]["game"] != game:
                raise BadRequest(f"that game is {entry['record']['game']}, not {game}", "game")
            key = json.dumps(["record", data["record"], part, move, worlds, seed,
                              continuation])
            pos, recorded = record_position(game, entry["record"], part, move)
            typed = pos.info.get("typed")
        else:
            fields = data.get("typed")
            if not isinstance(fields, dict):
                raise BadRequest("give the position: typed fields or an opened game's move",
                                 None)
            names = game_board(game).FIELDS
            unknown = sorted(set(fields) - set(names))
            if unknown:
                raise BadRequest(f"unknown field {unknown[0]!r}; {game} takes "
                                 + ", ".join(names), None)
            try:
                pos, typed = game_board(game).typed(fields)
            except BadRequest:  # a malformed field: the request is at fault
                raise
            except CardlabError as exc:  # a well-formed request about an impossible
                # position: answered (200) with the CLI's line, as a browser logs every 4xx
                message = " ".join(str(exc).split())
                raise BadRequest(message, field_of(message, names), 200) from None
            recorded = None
            key = json.dumps(["typed", game, typed, worlds, seed, continuation])
        started = time.monotonic()
        result = await board.once(key, analyze_position, game, pos, worlds, seed, 0,
                                  continuation)
        tail = f" --worlds {worlds} --seed {seed}" + (
            f" --continuation {continuation}" if continuation is not None else "")
        return JSONResponse({
            **result, "seconds": round(time.monotonic() - started, 2),
            "command": f"cardlab analyze {game} {typed}{tail}" if typed else None,
            "recorded": recorded + tail if recorded else None})

    async def open_record(request: Request):
        data = await body_json(request, MAX_RECORD_BODY)
        if "run" in data:
            return await open_run(data)
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("give a records file (JSON Lines: one game record per line)",
                             "file", 200)
        index = _int(data.get("index"), "index", None)

        def parse_and_add() -> str:  # a large file is parsed off the event loop
            records = []
            for number, line in enumerate(text.splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError:
                    raise BadRequest(f"line {number} is not JSON (a game record per line, "
                                     "docs/game-records.md)", "file", 200) from None
            records = [r for r in records
                       if isinstance(r, dict) and r.get("game") in board_games()]
            if not records:
                raise BadRequest("the file holds no game record", "file", 200)
            if index is not None:
                found = [r for r in records if r.get("index") == index]
                if not found:
                    have = ", ".join(str(r.get("index")) for r in records[:10])
                    raise BadRequest(f"no record with index {index}; the file has {have}",
                                     "index", 200)
                records = found
            try:
                key = board.add_record(records[0])
            except BadRequest as exc:  # the file's content, not the request, is at fault
                raise BadRequest(str(exc), "file", 200) from None
            return key

        key = await run_in_threadpool(parse_and_add)
        return JSONResponse(opened(key))

    async def open_run(data: dict[str, Any]):
        path = _text(data.get("run"), "run")
        index = _int(data.get("index"), "index", None)
        if path is None:
            raise BadRequest("give the path of a run folder (simulate --out)", "run")
        if board.open_run is None:
            raise BadRequest("this board opens run folders only when started by cardlab "
                             "board", "run")
        try:  # a run's game is replayed by the engine: on the worker, as an analysis
            record, source = await board.once(json.dumps(["run", path, index]),
                                              board.open_run, path, index)
        except BadRequest:
            raise
        except CardlabError as exc:
            return error(BadRequest(" ".join(str(exc).split()), "run", 200))
        return JSONResponse(opened(board.add_record(record, source)))

    def opened(key: str) -> dict[str, Any]:
        entry = board.record(key)
        return {"id": key, "game": entry["record"]["game"],
                "players": entry["record"]["players"], "data": entry["steps"],
                "others": None}

    async def game(request: Request):
        return JSONResponse(opened(request.path_params["key"]))

    async def study(request: Request):
        data = await body_json(request, MAX_BODY)
        entry = board.record(data.get("record"))
        worlds, seed = _worlds_seed({"worlds": data.get("worlds", 100), "seed":
                                     data.get("seed")}, MAX_STUDY_WORLDS)
        key = json.dumps(["study", data.get("record"), worlds, seed])
        for job in board.jobs.values():
            if job["key"] == key and not job.get("error"):
                return JSONResponse({"job": job["id"]})
        job = {"id": uuid.uuid4().hex[:12], "key": key, "done": 0,
               "total": sum(len(p["seats"]) for p in entry["steps"]["parts_moves"]),
               "result": None, "error": None}
        for old in [k for k, j in board.jobs.items() if j["result"] or j["error"]
                    ][:max(0, len(board.jobs) - MAX_RECORDS)]:
            board.jobs.pop(old)  # the finished studies beyond the last few are let go
        board.jobs[job["id"]] = job
        board.pool.submit(run_study, job, entry["record"], worlds, seed)
        return JSONResponse({"job": job["id"]})

    async def study_job(request: Request):
        job = board.jobs.get(request.path_params["job"])
        if job is None:
            raise BadRequest("no such study", None, 404)
        return JSONResponse({k: job[k] for k in ("id", "done", "total", "result", "error")})

    def route(path, handler, methods):
        async def endpoint(request: Request):
            return await guarded(handler, request)
        return Route(path, endpoint, methods=methods)

    app = Starlette(routes=[
        route("/", page, ["GET"]),
        route("/api/info", info, ["GET"]),
        route("/api/analyze", analyze, ["POST"]),
        route("/api/open", open_record, ["POST"]),
        route("/api/game/{key}", game, ["GET"]),
        route("/api/study", study, ["POST"]),
        route("/api/study/{job}", study_job, ["GET"]),
    ])
    app.state.board = board
    return app


def run_study(job: dict[str, Any], record: dict[str, Any], worlds: int, seed: int) -> None:
    """Every move of a record against the best move (as ``replay --analyze``: the same
    streams, so the same losses) with the best three alternatives; progress in ``job``."""
    try:
        job["result"] = study_record(record, worlds, seed, job)
    except CardlabError as exc:
        job["error"] = " ".join(str(exc).split())
    except Exception as exc:  # the worker survives any failure
        log.exception("study failed")
        job["error"] = f"the study failed ({type(exc).__name__}: {exc})"


def study_record(record: dict[str, Any], worlds: int, seed: int,
                 job: dict[str, Any] | None = None) -> dict[str, Any]:
    from analyzer.analysis.annotate import summary
    from analyzer.analysis.timeline import step_point
    from analyzer.analysis.values import THRESHOLDS, label, loss_of

    game = record["game"]
    moves = []
    for p, part in enumerate(game_parts(record)):
        for k, played in enumerate(part["moves"]):
            pos, _ = record_position(game, record, p, k)
            result = analyze_position(game, pos, worlds, seed, p * GAME_STRIDE + k)
            rows = result["moves"]
            row = next(r for r in rows if r["move"] == played)
            loss, low, high = loss_of(game, row)
            forced = len(rows) == 1
            entry = {"seat": part["seats"][k], "part": p, "index": k, "move": played,
                     "best": rows[0]["move"], "loss": loss, "loss_low": low,
                     "loss_high": high, "label": None if forced else label(game, loss,
                                                                           low or 0.0),
                     "value": row["value"], "best_value": rows[0]["value"],
                     "forced": forced, "analysed": True,
                     "shown_loss": estimate(loss, None if low is None else (high - low) / 2),
                     "alternatives": [{"move": r["move"], "value": r["shown"]["value"],
                                       "diff": r["shown"]["diff"]} for r in rows[:3]]}
            if part["players"] is not None:
                entry["player"] = part["players"][entry["seat"]]
            # every seat's expected final result after this move, as the mover saw it (the
            # graph's point for each seat; the mover's own is ``value``)
            point = step_point(game, record, p, k, worlds, seed)
            entry["expected"] = {key: point[key] for key in ("value", "low", "high")}
            entry["expected"]["shown"] = [
                estimate(v, None if lo is None else (hi - lo) / 2)
                for v, lo, hi in zip(point["value"], point["low"], point["high"], strict=True)]
            moves.append(entry)
            if job is not None:
                job["done"] = len(moves)
    from analyzer.games import registry

    key = registry.get(game).mode(record.get("mode") or "").row_name
    t = THRESHOLDS[game]
    return {"game": game, "unit": t.unit, "worlds": worlds, "seed": seed,
            "lower_is_better": lower_is_better(game),
            "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake,
                           "blunder": t.blunder},
            "moves": moves, "players": _shown_players(summary(moves, key)), "key": key}


def _shown_players(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The per-seat summary with its loss as the command line prints it (``shown_lost``:
    ``41 ± 12``), so the page never formats a number of its own."""
    for p in players:
        low, high = p.get("lost_low"), p.get("lost_high")
        p["shown_lost"] = estimate(p.get("lost"), None if low is None or high is None
                                   else (high - low) / 2)
    return players

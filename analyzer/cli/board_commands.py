"""``cardlab board``: the analysis board, a local web page (analyzer.board; docs/analyzing.md)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import typer

from analyzer.cli.app import app
from analyzer.errors import CardlabError, CardlabIOError

LOCAL = ("127.0.0.1", "localhost", "::1")


def analysable_games() -> tuple[str, ...]:
    """The games the board opens: those whose adapter names an analysis (GameParts)."""
    from analyzer.games import registry

    return tuple(g for g in registry.names() if registry.get(g).has("analysis"))


def _game_of_file(path: Path) -> str:
    """The game of the first record in a records file (one with an analysis)."""
    try:
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    try:
                        game = json.loads(line).get("game")
                    except (json.JSONDecodeError, AttributeError):
                        break
                    if game in analysable_games():
                        return game
                    break
    except OSError as exc:
        raise CardlabError(f"cannot read --record {path}: {exc.strerror}") from None
    raise CardlabError(f"--record {path} holds no game record (JSON Lines, "
                       "docs/game-records.md)")


def open_game(run: Path | None, record_file: Path | None, index: int | None
              ) -> tuple[dict, str]:
    """The record of game ``index`` of a run folder (default its first) or a records file,
    and the ``cardlab analyze`` options that name it; bad input is a CardlabError."""
    from analyzer.cli.analyze_commands import load_record, readable

    if run is not None and record_file is None:
        from analyzer.cli.runs import run_spec

        spec, start, _count, _plan = run_spec(run)
        index = start if index is None else index
        record = load_record(spec.game, run, None, index)
        return record, f"--from {run} --index {index}"
    game = _game_of_file(record_file) if record_file is not None else analysable_games()[0]
    with readable(record_file):
        record = load_record(game, run, record_file, index)
    return record, f"--record {record_file}" + ("" if index is None else f" --index {index}")


def open_run(path: str, index: int | None) -> tuple[dict, str]:
    """The board's loader of a run folder named in the page."""
    return open_game(Path(path).expanduser(), None, index)


@app.command("board")
def board(
    port: int = typer.Option(8765, "--port", help="The port to serve on (1 to 65535)."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to serve on; anything "
                             "but 127.0.0.1 / localhost lets other machines reach the board."),
    run: Path = typer.Option(None, "--from", help="A run folder (simulate --out): open game "
                             "--index of it."),
    record_file: Path = typer.Option(None, "--record", help="A records file (export, replay > "
                                     "FILE): open the record with --index (or its only one)."),
    index: int = typer.Option(None, "--index", help="With --from or --record: the game (match) "
                              "to open; with --from, default the run's first."),
) -> None:
    """The analysis board in your browser: set up a position by clicking, analyze it, step
    through a game with an evaluation graph and its mistakes, practice from one seat.

    Serves http://127.0.0.1:8765/ until Ctrl-C; nothing leaves this machine.

    Example: cardlab board --from runs/ass5 --index 3
    """
    import logging

    if not 1 <= port <= 65535:
        raise CardlabError(f"--port must be 1 to 65535; got {port}")
    if run is None and record_file is None and index is not None:
        raise CardlabError("--index applies with --from or --record")
    record = source = None
    if run is not None or record_file is not None:
        record, source = open_game(run, record_file, index)
    try:  # the port is free: say so in one line before any warming
        probe = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
        probe.close()
    except OSError as exc:
        raise CardlabIOError(f"cannot serve on {host}:{port}: {exc.strerror or exc} (another "
                             "program may use the port: try --port)") from None
    import uvicorn

    from analyzer.board.app import Board, make_app

    b = Board(open_run)
    if record is not None:
        b.add_record(record, source)
    if host not in LOCAL:
        typer.echo(f"warning: --host {host} lets other machines on the network use this board "
                   "(and its analysis time); it has no login", err=True)
    b.warm(lambda s: typer.echo(s, err=True))
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"cardlab board: open http://{shown}:{port}/ in a browser (Ctrl-C stops it)",
               err=True)
    logging.getLogger("cardlab.board").addHandler(logging.StreamHandler())
    uvicorn.run(make_app(b), host=host, port=port, log_level="warning")

"""Commands for Who's the Ass?: ``cardlab replay ass`` and ``cardlab export ass``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from analyzer.cli.app import export_app, replay_app
from analyzer.cli.atomic import (
    FORCE_HELP,
    OUT_HELP,
    check_index,
    check_range,
    check_seed,
    export_lines,
)
from analyzer.errors import CardlabError

STRATEGY_HELP = (
    "Strategy for every seat, or repeat once per seat (seat 0 first); "
    "NAME or NAME:key=value (see `cardlab strategies ass`)."
)


def _spec(seed: int, players: int, strategy: list[str] | None):
    from analyzer.games.ass.kernel import validate
    from analyzer.games.kernel import RunSpec

    return validate(RunSpec("ass", players, tuple(strategy or ("basic",)), seed))


@replay_app.command("ass")
def replay_ass(
    seed: int = typer.Option(..., "--seed", help="Master seed of the run (0 .. 2**63-1)."),
    index: int = typer.Option(..., "--index", help="Game number within the run (>= 0)."),
    players: int = typer.Option(4, "--players", help="Number of players, 3 to 12."),
    strategy: list[str] = typer.Option(None, "--strategy", help=STRATEGY_HELP),
    pretty: bool = typer.Option(False, "--pretty", help="A readable round-by-round account."),
) -> None:
    """Replay game INDEX of a run and print it as one JSON line (game-records format).

    The same seed, index, players and strategies always give the same game, so a game seen
    in a simulation or an export can be looked at again move by move.
    """
    from analyzer.games.ass.records import Tracer

    check_seed(seed)
    check_index(index)
    record, status = Tracer(_spec(seed, players, strategy)).record(index)
    if status >= 0:
        raise CardlabError(f"strategy at seat {status} made an illegal move (engine bug)")
    typer.echo(format_pretty(record) if pretty else json.dumps(record))


@export_app.command("ass")
def export_ass(
    seed: int = typer.Option(..., "--seed", help="Master seed of the run (0 .. 2**63-1)."),
    games: int = typer.Option(..., "--games", help="How many games to write (>= 1)."),
    out: Path = typer.Option(..., "--out", help=OUT_HELP),
    players: int = typer.Option(4, "--players", help="Number of players, 3 to 12."),
    strategy: list[str] = typer.Option(None, "--strategy", help=STRATEGY_HELP),
    start: int = typer.Option(0, "--start", help="Index of the first game (>= 0)."),
    force: bool = typer.Option(False, "--force", help=FORCE_HELP),
) -> None:
    """Write games START .. START+GAMES-1 as JSON Lines, one game record per line.

    The file appears under its name only when complete (written to a temporary file in the
    same folder, then renamed).
    """
    from analyzer.games.ass.records import Tracer

    check_seed(seed)
    check_range(start, games, "--games")
    tracer = Tracer(_spec(seed, players, strategy))

    def lines():
        for index in range(start, start + games):
            record, status = tracer.record(index)
            if status >= 0:
                raise CardlabError(
                    f"game {index}: strategy at seat {status} made an illegal move (engine bug)"
                )
            yield json.dumps(record)

    export_lines(out, lines(), force, "games")


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def format_pretty(record: dict[str, Any]) -> str:
    """A readable account of a game record, one line per play."""
    n = record["players"]
    lines = [
        f"Who's the Ass? seed {record['seed']}, game {record['index']}: {n} players, "
        f"{record['rules']['per_player']} cards each",
        "Dealt:",
    ]
    for seat in range(n):
        lines.append(f"  seat {seat} ({record['strategies'][seat]}): "
                     f"{_cards(record['hands'][seat])}")
    for number, rnd in enumerate(record["rounds"], start=1):
        kind = "ass round" if rnd["ass_round"] else "normal round"
        lines.append(f"Round {number} ({kind}), seat {rnd['starter']} starts:")
        for pos, play in enumerate(rnd["plays"]):
            who = f"  seat {play['seat']}"
            if play.get("pass"):
                lines.append(f"{who} passes")
                continue
            verb = "leads" if pos == 0 else ("plays" if rnd["ass_round"] else "raises with")
            extra = f" (as {play['joker_value']})" if "joker_value" in play else ""
            lines.append(f"{who} {verb} {_cards(play['cards'])}{extra}")
        if rnd["ass_round"]:
            lines.append(f"  -> seat {rnd['winner']} takes the cards, the ass included")
        else:
            lines.append(f"  -> seat {rnd['winner']} played highest and starts next")
    out = [s for s in range(n) if not record["final_hands"][s]]
    lines.append(f"End: seat {', '.join(map(str, out))} has no cards left.")
    for seat in range(n):
        lines.append(f"  seat {seat}: {record['penalties'][seat]:3d} minus points "
                     f"({_cards(record['final_hands'][seat])})")
    return "\n".join(lines)

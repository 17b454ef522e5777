"""The typer application and its command groups; game modules add their commands to these."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

from analyzer.errors import CardlabError

_SETTINGS = {"add_completion": False, "no_args_is_help": True, "pretty_exceptions_enable": False}

app = typer.Typer(
    help="cardlab: Monte Carlo strategy analyzer for Who's the Ass? and Plus-Minus Jass.\n\n"
    "Simulate millions of games between strategies, replay any single game, and turn the "
    "results into tables, figures and HTML reports.",
    **_SETTINGS,
)
simulate_app = typer.Typer(help="Play many games and print a per-seat table.", **_SETTINGS)
replay_app = typer.Typer(help="Replay one game, identified by (seed, index), as a record.",
                         **_SETTINGS)
export_app = typer.Typer(help="Write games as JSON Lines records (game-records format).",
                         **_SETTINGS)
app.add_typer(simulate_app, name="simulate")
app.add_typer(replay_app, name="replay")
app.add_typer(export_app, name="export")


def fail(message: str) -> NoReturn:
    """Print a one-line error to stderr and exit with status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def run_app() -> None:
    """Run the app; a CardlabError becomes a one-line error and exit status 2.

    typer's standalone mode already turns usage errors (an unknown option, a bad value) into
    click's short message and status 2, and Ctrl-C into "Aborted!" and status 1.
    """
    try:
        app()
    except CardlabError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)

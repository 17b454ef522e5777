"""Commands that serve both games: listing strategies."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from analyzer import __version__
from analyzer.cli.app import app
from strategies.registry import GAMES, catalog


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"cardlab {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Print the version of cardlab and exit."),
) -> None:
    """cardlab: Monte Carlo strategy analyzer for Who's the Ass? and Plus-Minus Jass.

    Simulate millions of games between strategies, replay any single game, and turn the
    results into tables, figures and an HTML report. Every number comes with its 95%
    interval. Start with `cardlab study all --report report`, or `cardlab strategies`.
    """


@app.command("strategies")
def list_strategies(
    game: str = typer.Argument(None, help="ass or jass; both when left out."),
) -> None:
    """List every strategy with its one-line description and parameters.

    Use a strategy with --strategy NAME, or set parameters with NAME:key=value,key=value,
    for example --strategy hold-jokers:keep=2.
    """
    from analyzer.cli.app import fail

    games = GAMES if game is None else (game,)
    for g in games:
        if g not in GAMES:
            fail(f"unknown game {g!r}; games: {', '.join(GAMES)}")
    console = Console()
    for g in games:
        table = Table(title=f"{g} strategies", show_lines=False)
        table.add_column("name", style="bold")
        table.add_column("description")
        table.add_column("parameters (default)")
        for spec in catalog(g).values():
            params = []
            for p in spec.params:
                shown = spec.preset.get(p.name, p.show(p.default))
                extra = f" [{'|'.join(p.choices)}]" if p.choices else ""
                params.append(f"{p.name}={shown}{extra}: {p.description}")
            table.add_row(spec.name, spec.description, escape("\n".join(params)) or "-")
        console.print(table)

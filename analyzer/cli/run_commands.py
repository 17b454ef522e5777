"""``cardlab simulate ass``, ``cardlab simulate jass`` and ``cardlab summarize``.

Both simulate commands share the runner options (workers, chunk size, backend, output folder,
aggregates, resume, progress) and print the same kind of per-seat table, built by
analyzer.summary from per-seat moments, whether the rows were kept or not.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from analyzer.cli.app import app, fail, simulate_app
from analyzer.errors import CardlabError
from analyzer.games.kernel import RunSpec, kernel_module
from analyzer.runner.manifest import mode_metrics, plural
from analyzer.summary import Metric, format_seat_table, seat_table

GAME_TITLES = {"ass": "Who's the Ass?", "jass": "Plus-Minus Jass"}

# Options both simulate commands take (typer reads them from each function's defaults).
SEED = typer.Option(0, "--seed", help="Master seed (0..2**63-1): with the index it fixes a game.")
STRATEGY = typer.Option(
    None, "--strategy", "-s",
    help="Strategy for every seat, or repeat once per seat; parameters as "
    "NAME:key=value,key=value (see `cardlab strategies`).",
)
OUT = typer.Option(
    None, "--out", "-o",
    help="Write results to this folder (a Parquet dataset: part files + _manifest.json).",
)
WORKERS = typer.Option(None, "--workers", "-w", help="Worker processes (default: every core).")
CHUNK = typer.Option(
    None, "--chunk-size", help="Games (matches, deals) per chunk (default: automatic)."
)
BACKEND = typer.Option(
    "local", "--backend", help="local (processes), threads, serial (in process), or dask."
)
SCHEDULER = typer.Option(
    None, "--scheduler",
    help="Dask scheduler address tcp://host:port (default: start a local cluster).",
)
AGGREGATE = typer.Option(
    False, "--aggregate",
    help="With --out: keep exact per-seat histograms (counts, sums, squares follow) instead "
    "of per-game rows: for billions of games.",
)
RESUME = typer.Option(False, "--resume", help="Continue the unfinished run in --out.")
QUIET = typer.Option(False, "--quiet", "-q", help="No progress bar.")
START = typer.Option(0, "--start", help="Index of the first game (match, deal).")


def print_seat_table(
    title: str, moments, metrics: list[Metric], labels: list[str] | None = None
) -> None:
    """The per-seat table: seat, strategy, n, and each metric as 'mean ± 95% half-width'."""
    console = Console()
    if not console.is_terminal:  # piped or captured: no 80-column wrapping of the headers
        console = Console(width=200)
    table = Table(title=title, title_justify="left")
    table.add_column("seat", justify="right")
    if labels:
        table.add_column("strategy")
    table.add_column("n", justify="right")
    for m in metrics:
        table.add_column(f"{m.label} ±95%", justify="right", no_wrap=True)
    values = seat_table(moments, metrics)
    for (seat, row), cells in zip(values.iterrows(), format_seat_table(values, metrics),
                                  strict=True):
        strategy = [labels[int(seat)]] if labels else []
        table.add_row(cells[0], *strategy, f"{int(row['n']):,}", *cells[1:])
    console.print(table)


def _title(game: str, spec: RunSpec, count: int, unit: str, start: int) -> str:
    rules = ", ".join(f"{k}={v}" for k, v in spec.rules.items())
    first = f", from index {start:,}" if start else ""
    return (
        f"{GAME_TITLES.get(game, game)}: {spec.players} players, {count:,} {plural(unit)}{first}, "
        f"seed {spec.seed}" + (f" ({rules})" if rules else "")
    )


def simulate(
    game: str, mode: str, count: int, players: int, seed: int, strategy: list[str] | None,
    rules: dict, out: Path | None, workers: int | None, chunk_size: int | None, backend: str,
    scheduler: str | None, aggregate: bool, resume: bool, quiet: bool, start: int,
) -> None:
    """Run a simulation from command-line options and print its per-seat table."""
    from analyzer.runner import RunOptions, execute
    from strategies.registry import parse_strategy

    try:
        if aggregate and out is None:
            raise CardlabError("--aggregate needs --out (without --out nothing is written)")
        if resume and out is None:
            raise CardlabError("--resume needs --out, the folder of the run to continue")
        texts = list(strategy or ["basic"])
        if len(texts) == 1 and players > 0:  # one strategy for every seat
            texts = texts * players
        # The kernel's validate checks players, strategies (one per seat) and rules first.
        spec = RunSpec(game, players, tuple(texts), seed, mode, rules)
        options = RunOptions(workers, chunk_size, backend, scheduler, progress=not quiet)
        result = execute(spec, count, start, options, out=out, aggregate=aggregate,
                         resume=resume)
        labels = [parse_strategy(game, t).label() for t in result.spec.strategies]
    except CardlabError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        where = f"; finished chunks are kept in {out}: continue with --resume" if out else ""
        typer.echo(f"interrupted{where}", err=True)
        raise typer.Exit(130) from None
    kernel = kernel_module(game)
    metrics = mode_metrics(kernel, result.spec.mode)
    print_seat_table(
        _title(game, result.spec, count, result.unit, start),
        result.moments, metrics, labels,
    )
    units = plural(result.unit)
    line = f"{result.played:,} {units} in {result.seconds:.2f} s"
    if result.played:
        line += f": {result.rate:,.0f} {units}/s ({result.backend}"
        if result.startup >= 0.5:
            line += f", started in {result.startup:.1f} s"
        line += ")"
    if result.played < count:
        line += f"; {count - result.played:,} {units} were already done (resumed)"
    typer.echo(line)
    from strategies.registry import illegal_players

    for label in dict.fromkeys(illegal_players(game, labels)):
        typer.echo(f"{label} is NOT A LEGAL PLAYER: it sees the hidden cards (analysis only)")
    if out is not None:
        what = "aggregates" if aggregate else "per-seat rows"
        typer.echo(f"results ({what}): {out}")


@simulate_app.command("ass")
def simulate_ass(
    players: int = typer.Option(4, "--players", "-p", help="Players, 3 to 12."),
    games: int = typer.Option(100_000, "--games", "-n", help="Games to play."),
    seed: int = SEED,
    strategy: list[str] = STRATEGY,
    out: Path = OUT,
    workers: int = WORKERS,
    chunk_size: int = CHUNK,
    backend: str = BACKEND,
    scheduler: str = SCHEDULER,
    aggregate: bool = AGGREGATE,
    resume: bool = RESUME,
    quiet: bool = QUIET,
    start: int = START,
) -> None:
    """Play games of Who's the Ass? and print mean minus points, the chance to end with the
    ass and the chance to be dealt it, per seat, with 95% confidence intervals.

    Example: cardlab simulate ass --players 5 --games 1000000 --seed 7 --out run.parquet
    """
    simulate("ass", "games", games, players, seed, strategy, {}, out, workers, chunk_size,
             backend, scheduler, aggregate, resume, quiet, start)


@simulate_app.command("jass")
def simulate_jass(
    players: int = typer.Option(4, "--players", "-p", help="Players, 3 or 4."),
    matches: int = typer.Option(None, "--matches", help="Matches to play (default 10000)."),
    deals: int = typer.Option(None, "--deals", help="Play single deals instead of matches."),
    seed: int = SEED,
    strategy: list[str] = STRATEGY,
    ruleset: str = typer.Option("seed", "--ruleset", help="seed (default) or swiss (J-6)."),
    deal_cap: int = typer.Option(None, "--deal-cap", help="Most deals in a match (J-10)."),
    out: Path = OUT,
    workers: int = WORKERS,
    chunk_size: int = CHUNK,
    backend: str = BACKEND,
    scheduler: str = SCHEDULER,
    aggregate: bool = AGGREGATE,
    resume: bool = RESUME,
    quiet: bool = QUIET,
    start: int = START,
) -> None:
    """Play Plus-Minus Jass matches (or single deals) and print a per-seat table.

    Example: cardlab simulate jass --players 4 --matches 100000 --seed 3 --strategy basic
    """
    if matches is not None and deals is not None:
        fail("give --matches or --deals, not both")
    mode, count = ("deals", deals) if deals is not None else ("matches", matches or 10_000)
    rules: dict = {"ruleset": ruleset}
    if deal_cap is not None:
        if mode == "deals":
            fail("--deal-cap applies to matches, not to --deals")
        rules["deal_cap"] = deal_cap
    simulate("jass", mode, count, players, seed, strategy, rules, out, workers, chunk_size,
             backend, scheduler, aggregate, resume, quiet, start)


@app.command("summarize")
def summarize(
    run: Path = typer.Argument(..., help="A results folder written by simulate --out."),
) -> None:
    """Print the per-seat table of a finished or partial run folder."""
    from analyzer.runner import summarize_folder
    from analyzer.runner.manifest import spec_of

    try:
        summary = summarize_folder(run)
        plan = summary.plan
        spec = spec_of(plan)
        kernel = kernel_module(plan["game"])
    except CardlabError as exc:
        fail(str(exc))
    unit = plan["unit"]
    units = plural(unit)
    labels = [s["label"] for s in plan["strategies"]]
    state = "complete" if summary.complete else (
        f"unfinished: {summary.done:,} of {summary.count:,} {units} "
        f"({100 * summary.done / summary.count:.1f}%); continue with simulate ... --resume"
    )
    if summary.moments is None:
        typer.echo(f"{run}: {state}; no {unit} finished yet")
        return
    metrics = mode_metrics(kernel, plan["mode"])
    print_seat_table(_title(plan["game"], spec, plan["count"], unit, plan["start"]),
                     summary.moments, metrics, labels)
    typer.echo(f"{run}: {plan['kind']}, {state}; cardlab {plan['version']}")

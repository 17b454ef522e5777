"""``cardlab simulate ass``, ``cardlab simulate jass`` and ``cardlab summarize``.

Both simulate commands share the runner options (workers, chunk size, backend, output folder,
aggregates, resume, progress) and print the same kind of per-seat table, built by
analyzer.summary from per-seat moments, whether the rows were kept or not.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import typer
from rich.markup import escape

from analyzer.cli import options as opt
from analyzer.cli.app import app, fail
from analyzer.cli.console import console, fitted_table
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError
from analyzer.games import registry as games
from analyzer.metrics import Metric
from analyzer.runner.manifest import mode_metrics, plural, row_name

# Options both simulate commands take (typer reads them from each function's defaults).
SEED = opt.seed()
STRATEGY = opt.strategy()
OUT = opt.out(help="Write results to this folder (a Parquet dataset: part files + "
              "_manifest.json).")
WORKERS = opt.workers()
CHUNK = opt.chunk_size()
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
REPAIR = typer.Option(
    False, "--repair",
    help="With --resume: move damaged parts (and a damaged manifest) of --out into "
    "_damaged/ and play exactly their ranges again.",
)
QUIET = opt.quiet()
FORMAT = typer.Option(
    "table", "--format",
    help="table (for people), csv (one row per seat: mean, low and high of each result) or "
    "json (one object); csv and json print nothing else on standard output.",
)
FORMATS = ("table", "csv", "json")


def check_format(fmt: str) -> str:
    """The --format value, or a one-line error."""
    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    return fmt
START = typer.Option(0, "--start", help="Index of the first game (match, deal).")
CAP_HELP = ("Most deals a match may last; a match still undecided then is reported as capped "
            "(default 200).")


def print_seat_table(
    title: str, moments, metrics: list[Metric], labels: list[str] | None = None,
    fmt: str = "table", extra: dict | None = None, who: str = "seat",
) -> None:
    """The per-seat table: seat, strategy, n, and each metric with its 95% interval.

    ``fmt`` table (for people; fits 80 columns), csv (one row per seat: each metric's mean,
    low and high, in natural units: rates as fractions) or json (one object: ``title``,
    ``seats``, plus ``extra``); both from analyzer.summary, as the table is. ``who`` names
    the first column (the mode's row_name: "player" where rows are players).
    """
    from analyzer.summary import caption, format_seat_table, seat_records, seat_table

    if fmt != "table":
        records = seat_records(moments, metrics, who, labels)
        if fmt == "json":
            typer.echo(json.dumps({"title": title, "seats": records, **(extra or {})},
                                  default=str))
        else:
            buf = io.StringIO()
            writer = csv.DictWriter(buf, fieldnames=list(records[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(records)
            typer.echo(buf.getvalue(), nl=False)
        return
    header = [who, *(["strategy"] if labels else []), "n",
              *(m.label for m in metrics)]
    rows = []
    values = seat_table(moments, metrics)
    cells_by_seat = format_seat_table(values, metrics)
    for (seat, row), cells in zip(values.iterrows(), cells_by_seat, strict=True):
        strategy = [labels[int(seat)]] if labels else []
        rows.append([cells[0], *strategy, f"{int(row['n']):,}", *cells[1:]])
    out = console()
    out.print(fitted_table(title, header, rows, left={1} if labels else set(),
                           width=out.width, caption=escape(caption(cells_by_seat))),
              crop=False)


def _title(game: str, spec: RunSpec, count: int, unit: str, start: int) -> str:
    rules = ", ".join(f"{k}={v}" for k, v in spec.rules.items())
    first = f", from index {start:,}" if start else ""
    return (
        f"{games.title(game)}: {spec.players} players, {count:,} {plural(unit)}{first}, "
        f"seed {spec.seed}" + (f" ({rules})" if rules else "")
    )


def simulate(
    game: str, mode: str, count: int, players: int, seed: int, strategy: list[str] | None,
    rules: dict, out: Path | None, workers: int | None, chunk_size: int | None, backend: str,
    scheduler: str | None, aggregate: bool, resume: bool, quiet: bool, start: int,
    fmt: str = "table", repair: bool = False,
) -> None:
    """Run a simulation from command-line options and print its per-seat table."""
    from strategies.registry import parse_strategy

    try:
        if aggregate and out is None:
            raise CardlabError("--aggregate needs --out (without --out nothing is written)")
        if resume and out is None:
            raise CardlabError("--resume needs --out, the folder of the run to continue")
        if repair and not resume:
            raise CardlabError("--repair needs --resume (it repairs the run it continues)")
        texts = list(strategy or ["basic"])
        if len(texts) == 1 and players > 0:  # one strategy for every seat
            texts = texts * players
        # The kernel's validate checks players, strategies (one per seat) and rules first.
        spec = RunSpec(game, players, tuple(texts), seed, mode, rules)
        opt.check_chunk_size(chunk_size, game, mode, players, count)
        from analyzer.runner import RunOptions, execute  # pandas and numba: after the checks

        options = RunOptions(workers, chunk_size, backend, scheduler, progress=not quiet)
        result = execute(spec, count, start, options, out=out, aggregate=aggregate,
                         resume=resume, repair=repair)
        labels = [parse_strategy(game, t).label() for t in result.spec.strategies]
    except CardlabError as exc:
        fail(exc)
    except KeyboardInterrupt:
        where = f"; finished chunks are kept in {out}: continue with --resume" if out else ""
        typer.echo(f"interrupted{where}", err=True)
        raise typer.Exit(130) from None
    metrics = mode_metrics(game, result.spec.mode)
    units = plural(result.unit)
    line = f"{result.played:,} {units} in {result.seconds:.2f} s"
    if result.played:
        line += f": {result.rate:,.0f} {units}/s ({result.backend}"
        if result.startup >= 0.5:
            line += f", started in {result.startup:.1f} s"
        line += ")"
    if result.played < count:
        line += f"; {count - result.played:,} {units} were already done (resumed)"
    extra = {"game": game, "mode": result.spec.mode, "players": result.spec.players,
             "seed": result.spec.seed, "rules": dict(result.spec.rules), "count": count,
             "start": start, "played": result.played, "seconds": result.seconds,
             "unit": result.unit, "out": None if out is None else str(out)}
    print_seat_table(
        _title(game, result.spec, count, result.unit, start),
        result.moments, metrics, labels, fmt, extra, row_name(game, result.spec.mode),
    )
    # csv and json keep standard output machine-readable: the rest goes to standard error
    err = fmt != "table"
    typer.echo(line, err=err)
    from strategies.registry import illegal_players

    for label in dict.fromkeys(illegal_players(game, labels)):
        typer.echo(f"{label} is NOT A LEGAL PLAYER: it sees the hidden cards (analysis only)",
                   err=err)
    if out is not None:
        what = "aggregates" if aggregate else "per-seat rows"
        typer.echo(f"results ({what}): {out}", err=err)


@app.command("summarize")
def summarize(
    run: Path = typer.Argument(..., help="A results folder written by simulate --out."),
    fmt: str = FORMAT,
) -> None:
    """Print the per-seat table of a finished or partial run folder."""
    check_format(fmt)
    from analyzer.runner import summarize_folder
    from analyzer.runner.manifest import spec_of

    try:
        summary = summarize_folder(run)
        plan = summary.plan
        spec = spec_of(plan)
        games.get(plan["game"])  # a plan of a game this cardlab does not know: one line
    except CardlabError as exc:
        fail(exc)
    unit = plan["unit"]
    units = plural(unit)
    labels = [s["label"] for s in plan["strategies"]]
    so_far = (f"{summary.done:,} of {summary.count:,} {units} "
              f"({100 * summary.done / summary.count:.1f}%)")
    if summary.busy:
        state = f"being written by another cardlab process now: {so_far} so far"
    elif summary.complete:
        state = "complete (verified)"
    else:
        state = f"unfinished: {so_far}; continue with simulate ... --resume"
    extra = {"game": plan["game"], "mode": plan["mode"], "players": spec.players,
             "seed": spec.seed, "rules": dict(spec.rules), "count": plan["count"],
             "start": plan["start"], "complete": bool(summary.complete), "unit": unit,
             "version": plan["version"]}
    if summary.moments is None:  # csv and json: standard output holds only their format
        if fmt == "json":
            title = _title(plan["game"], spec, plan["count"], unit, plan["start"])
            typer.echo(json.dumps({"title": title, "seats": [], **extra}, default=str))
        typer.echo(f"{run}: {state}; no {unit} finished yet", err=fmt != "table")
        return
    metrics = mode_metrics(plan["game"], plan["mode"])
    print_seat_table(_title(plan["game"], spec, plan["count"], unit, plan["start"]),
                     summary.moments, metrics, labels, fmt, extra,
                     row_name(plan["game"], plan["mode"]))
    typer.echo(f"{run}: {plan['kind']}, {state}; cardlab {plan['version']}", err=fmt != "table")

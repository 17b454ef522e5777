"""``cardlab study ...`` (seats, jokers, trump, compare, all) and ``cardlab report``.

Each study command plays its games, saves a tidy result folder (``--out``, default
runs/studies/<study>/: Parquet + CSV tables and manifest.json) and prints its answers.
``cardlab report`` turns such a folder into a self-contained HTML report with PNG figures.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import typer

from analyzer.cli.app import _SETTINGS, app
from analyzer.errors import CardlabError

study_app = typer.Typer(
    help="Answer the questions users come with, with 95% intervals; results go to --out "
    "for `cardlab report`.",
    **_SETTINGS,
)
app.add_typer(study_app, name="study")

DEFAULT_OUT = Path("runs/studies")
OUT_HELP = "Study results folder (each study writes its own subfolder)."
WORKERS_HELP = "Worker processes (default: every core)."


def parse_ints(text: str, what: str) -> list[int]:
    """'3-12' or '3,4,8' or '5' into a list of ints (one-line error otherwise)."""
    values: list[int] = []
    if not text.isascii():
        raise CardlabError(f"{what} must be numbers like '3-12' or '3,4,8'; got {text!r}")
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part[1:]:
                lo, hi = part.split("-", 1)
                values.extend(range(int(lo), int(hi) + 1))
            elif part:
                values.append(int(part))
    except ValueError:
        raise CardlabError(f"{what} must be numbers like '3-12' or '3,4,8'; got {text!r}") from None
    if not values:
        raise CardlabError(f"{what} is empty")
    return list(dict.fromkeys(values))


def parse_rules(items: list[str]) -> dict[str, str]:
    """``key=value`` options into a dict."""
    rules = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CardlabError(f"a rules option is written key=value; got {item!r}")
        rules[key.strip()] = value.strip()
    return rules


def _backend(workers: int | None, progress: bool, out: Path | None = None,
             studies: tuple[str, ...] = ()):
    """The backend the studies play on, after the checks that must come before playing: the
    output folders (``out``/<study>) and the worker count."""
    from analyzer.runner.backends import cap_workers
    from analyzer.studies.play import KernelBackend
    from analyzer.studies.results import check_study_target

    for study in studies:
        check_study_target(out, study)
    workers = cap_workers(workers)

    return KernelBackend(workers=workers, progress=progress)


FORMATS = ("table", "csv", "json")


def _check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise CardlabError(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    return fmt


def _finish(result, out: Path, fmt: str = "table") -> None:
    """Save the study and print it: its sentences (table), or its tables as csv or json."""
    import json

    from analyzer.studies.results import save_study

    folder = save_study(result, out)
    saved = f"saved {result.study} study to {folder} (report: cardlab report --from {out})"
    if fmt == "json":
        tables = {name: json.loads(df.to_json(orient="records"))
                  for name, df in result.tables.items()}
        typer.echo(json.dumps({"study": result.study, "headlines": result.headlines,
                               "tables": tables, "folder": str(folder)}))
        typer.echo(saved, err=True)
        return
    if fmt == "csv":  # the study's first table (compare: the ranking); the rest are saved
        first = next(iter(result.tables.values()))
        typer.echo(first.to_csv(index=False), nl=False)
        typer.echo(saved, err=True)
        return
    for line in result.headlines:
        typer.echo(f"- {line}")
    typer.echo(saved)


@study_app.command("seats")
def study_seats(
    players: str = typer.Option("3-12", help="Player counts, e.g. 3-12 or 4,5,8."),
    strategy: list[str] = typer.Option(["basic"], "--strategy", "-s",
                                       help="Field: one for all seats, or several repeated "
                                            "around the table."),
    games: int = typer.Option(20_000, help="Games per player count."),
    seed: int = typer.Option(1, help="Master seed."),
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
) -> None:
    """Who's the Ass?: expected minus points and ass penalty by seat, dealt-ass check."""
    from analyzer.studies.seats import run_seats

    backend = _backend(workers, progress, out, ("seats",))

    result = run_seats(backend, parse_ints(players, "--players"), strategy,
                       games, seed)
    _finish(result, out)


@study_app.command("jokers")
def study_jokers(
    players: str = typer.Option("3,4,5,6,8", help="Player counts, e.g. 3-8."),
    field: list[str] = typer.Option(["basic"], "--field", "-f",
                                    help="The opponents: one for all seats or one per seat."),
    keep: str = typer.Option("0,1,2,3,4,6,8,13",
                             help="Sweep of k for 'keep jokers until k cards are left'."),
    games: int = typer.Option(4_000, help="Deals per player count (each policy plays each "
                                          "deal once in every seat)."),
    matches: int = typer.Option(None, help="Matches per player count for the chance to win "
                                           "a match (K = players games each; default "
                                           "games / 20; 0 to skip)."),
    seed: int = typer.Option(2, help="Master seed."),
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
) -> None:
    """Who's the Ass?: is it worth holding jokers? Joker policies in duplicate format, in
    minus points per game and in the chance to win a match (A-12)."""
    from analyzer.studies.jokers import run_jokers

    backend = _backend(workers, progress, out, ("jokers",))
    result = run_jokers(backend, parse_ints(players, "--players"), field,
                        parse_ints(keep, "--keep"), games, seed, matches=matches)
    _finish(result, out)


@study_app.command("trump")
def study_trump(
    players: str = typer.Option("3,4", help="Player counts (3 and/or 4)."),
    ruleset: str = typer.Option("seed,swiss", help="Rule sets, comma-separated: seed (the seed "
                                                   "text) and/or swiss (common Swiss practice)."),
    strategy: list[str] = typer.Option(["adaptive"], "--strategy", "-s",
                                       help="The players: one for all seats or several "
                                            "repeated around the table."),
    deals: int = typer.Option(20_000, help="Deals per (player count, rule set)."),
    seed: int = typer.Option(3, help="Master seed."),
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
) -> None:
    """Plus-Minus Jass: each trump-choice rule against the best suit in hindsight."""
    from analyzer.studies.trump import run_trump

    backend = _backend(workers, progress, out, ("trump",))

    rulesets = [r.strip() for r in ruleset.split(",") if r.strip()]
    result = run_trump(backend, parse_ints(players, "--players"), rulesets,
                       strategy, deals, seed)
    _finish(result, out)


@study_app.command("compare")
def study_compare(
    game: str = typer.Option(..., help="ass or jass."),
    strategy: list[str] = typer.Option(..., "--strategy", "-s",
                                       help="Two or more strategies (repeat the option)."),
    players: str = typer.Option("4", help="Player counts, e.g. 4 or 3,4."),
    games: int = typer.Option(2_000, help="Deals (matches in mode matches, Jass's default) "
                                          "per player count; the budget "
                                          "with --until-sure."),
    seed: int = typer.Option(4, help="Master seed."),
    mode: str = typer.Option("", help="Game mode (jass: matches or deals; ass: games or "
                                      "matches, compared by share of match wins)."),
    rule: list[str] = typer.Option([], "--rule", help="Rules option key=value, e.g. "
                                                      "ruleset=swiss."),
    metric: str = typer.Option(None, help="Result column to compare (default: minus_points "
                                          "for ass, won for jass matches, sticks for deals)."),
    better: str = typer.Option(None, help="lower or higher (needed for other columns)."),
    until_sure: bool = typer.Option(False, "--until-sure",
                                    help="Stop as soon as every pair is decided (confidence "
                                         "sequence) or the budget is spent."),
    alpha: float = typer.Option(0.05, help="Error rate of --until-sure, over all pairs."),
    margin: float = typer.Option(None, help="With --until-sure: also stop when a difference "
                                            "is surely smaller than this."),
    batch: int = typer.Option(None, help="Deals per look with --until-sure."),
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
    fmt: str = typer.Option("table", "--format",
                            help="table (the answers as sentences), csv (the ranking) or json "
                                 "(every table and the sentences)."),
) -> None:
    """Any strategies of either game head to head, duplicate format: ranking and pairs."""
    from analyzer.studies.compare import run_compare

    _check_format(fmt)
    if not (math.isfinite(alpha) and 0 < alpha < 1):
        raise CardlabError(f"--alpha must be between 0 and 1; got {alpha}")
    if margin is not None and not (math.isfinite(margin) and margin >= 0):
        raise CardlabError(f"--margin must be a number >= 0; got {margin}")
    if batch is not None and batch < 1:
        raise CardlabError(f"--batch must be at least 1; got {batch}")
    backend = _backend(workers, progress, out, ("compare",))
    result = run_compare(
        backend, game, strategy, parse_ints(players, "--players"), games,
        seed, mode, parse_rules(rule), metric, better, until_sure=until_sure, alpha=alpha,
        margin=margin, batch=batch,
    )
    _finish(result, out, fmt)


@study_app.command("all")
def study_all(
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    report_dir: Path = typer.Option(None, "--report", help="Also write the HTML report here."),
    scale: float = typer.Option(1.0, help="Multiply every study's default budget (e.g. 10)."),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
) -> None:
    """Every study on its default budget (times --scale), then optionally the report."""
    from analyzer.studies.suite import run_all

    if not math.isfinite(scale) or scale <= 0:
        raise CardlabError(f"--scale must be a positive number, got {scale}")
    if report_dir is not None:
        from analyzer.outputs import check_folder_target, refuse_stdout

        refuse_stdout(report_dir, "--report")
        check_folder_target(Path(os.path.abspath(report_dir)), "report", "--report")
    backend = _backend(workers, progress, out, ("seats", "jokers", "trump", "compare"))
    for result in run_all(backend, scale):
        _finish(result, out)
    if report_dir is not None:
        from analyzer.studies.samples import find_sample
        from reports.build import build_report

        typer.echo(f"report written to {build_report(out, report_dir, find_sample)}")


@app.command("report")
def report(
    out: Path = typer.Option(Path("report"), help="Report folder (index.html, figures/, "
                                                  "data/)."),
    source: Path = typer.Option(DEFAULT_OUT, "--from", help="Study results folder."),
) -> None:
    """Turn study results into a self-contained HTML report with PNG figures."""
    from analyzer.studies.samples import find_sample
    from reports.build import build_report

    index = build_report(source, out, find_sample)
    typer.echo(f"report written to {index} (open it in any browser; PNGs in {index.parent}/"
               "figures)")

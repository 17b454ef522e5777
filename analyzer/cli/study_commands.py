"""``cardlab study ...`` (seats, jokers, trump, compare, all) and ``cardlab report``.

Each study command plays its games, saves a tidy result folder (``--out``, default
runs/studies/<study>/: Parquet + CSV tables and manifest.json) and prints its answers.
``cardlab report`` turns such a folder into a self-contained HTML report with PNG figures.
"""

from __future__ import annotations

import contextlib
import math
import os
from pathlib import Path

import typer

from analyzer.cli import options as opt
from analyzer.cli.app import _SETTINGS, app
from analyzer.cli.console import wrap_prose
from analyzer.errors import CardlabError
from analyzer.studies.defaults import TRUMP_CHOOSERS, words

study_app = typer.Typer(
    help="Answer the questions users come with, with 95% intervals; results go to --out "
    "for `cardlab report`.",
    **_SETTINGS,
)
app.add_typer(study_app, name="study")

DEFAULT_OUT = Path("runs/studies")
OUT_HELP = "Study results folder (each study writes its own subfolder)."


def parse_ints(text: str, what: str) -> list[int]:
    """'3-12' or '3,4,8' or '5' into a list of ints (one-line error otherwise)."""
    from analyzer.numbers import parse_int

    values: list[int] = []
    if not text.isascii():
        raise CardlabError(f"{what} must be numbers like '3-12' or '3,4,8'; got {text!r}")
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part[1:]:
                lo, hi = part.split("-", 1)
                values.extend(range(parse_int(lo.strip()), parse_int(hi.strip()) + 1))
            elif part:
                values.append(parse_int(part))
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
        if key.strip() in rules:  # the last would silently win
            raise CardlabError(f"--rule {key.strip()} is given twice")
        value = value.strip()
        if any(c.isdigit() for c in value) or "_" in value:  # a count: read as every number is
            from analyzer.numbers import NumberError, parse_int

            try:
                value = parse_int(value, f"--rule {key.strip()}")
            except NumberError as exc:
                raise CardlabError(str(exc)) from None
        rules[key.strip()] = value
    return rules


def rules_with_ruleset(items: list[str], ruleset: str | None) -> dict[str, str]:
    """The ``--rule key=value`` options plus ``--ruleset`` (the two must agree)."""
    rules = parse_rules(items)
    if ruleset is not None:
        if rules.get("ruleset", ruleset) != ruleset:
            raise CardlabError(f"--ruleset {ruleset} contradicts --rule ruleset="
                               f"{rules['ruleset']}")
        rules["ruleset"] = ruleset
    return rules


def _backend(workers: int | None, progress: bool, out: Path | None = None,
             studies: tuple[str, ...] = ()):
    """The backend the studies play on, after the checks that must come before playing: the
    output folders (``out``/<study>) and the worker count."""
    from analyzer.runner.backends import cap_workers
    from analyzer.runner.play import KernelBackend
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

    created = []  # the folders of --out that saving creates: removed again if it fails
    for folder in (out, *out.parents):
        if folder.exists():
            break
        created.append(folder)
    try:
        folder = save_study(result, out)
    except BaseException:
        for empty in created:  # deepest first; a folder that holds anything stays
            with contextlib.suppress(OSError):
                empty.rmdir()
        raise
    saved = f"saved {result.study} study to {folder} (report: cardlab report --from {out})"
    if fmt == "json":
        tables = {name: json.loads(df.to_json(orient="records"))
                  for name, df in result.tables.items()}
        typer.echo(json.dumps({"study": result.study, "headlines": result.headlines,
                               "alerts": result.alerts,
                               "claims": [c.to_json() for c in result.claims],
                               "tables": tables, "folder": str(folder)}, default=str))
        typer.echo(saved, err=True)
        return
    if fmt == "csv":  # the study's first table (compare: the ranking); the rest are saved
        first = next(iter(result.tables.values()))
        typer.echo(first.to_csv(index=False), nl=False)
        for line in result.alerts:  # beside the data, never inside it
            typer.echo(f"! alert: {line}", err=True)
        typer.echo(saved, err=True)
        return
    for line in result.headlines:
        typer.echo(wrap_prose(line, "- ", "  "))
    for line in result.alerts:  # claims the tables do not bear out: never said as sentences
        typer.echo(wrap_prose(line, "! alert: ", "  "))
    typer.echo(wrap_prose(saved))


PLAYERS_HELP = "Player counts, e.g. 3-12 or 4,5,8."
QUIET_HELP = "No progress bars (they show only on a terminal anyway)."


@study_app.command("seats")
def study_seats(
    players: str = opt.players("3-12", PLAYERS_HELP),
    strategy: list[str] = opt.strategy(None, "Field: one for all seats, or several repeated "
                                             "around the table (default basic)."),
    games: int = opt.games(20_000, "Games per player count."),
    strong_field: list[str] = opt.strong_field("A strong field (every seat plays it) also "
                                               "tabulated at 4 and 6 players; repeat. "
                                               "Default: learned (on --games) and pimc (on "
                                               "--slow-games); none: no strong field."),
    slow_games: int = opt.slow_games("Games per player count of a strong field tagged slow "
                                     "(pimc, a few hundred games/s). Default: --games / 50, at "
                                     "least 100."),
    seed: int = opt.seed(),
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(QUIET_HELP),
    progress: bool = opt.progress_alias(),
) -> None:
    """Who's the Ass?: expected minus points and ass penalty by seat, dealt-ass check, and
    the seat effects under strong play (every seat pimc)."""
    from analyzer.studies.seats import STRONG_FIELDS, run_seats

    opt.check_slow_games(slow_games)
    strong = opt.strong_fields(strong_field, STRONG_FIELDS)
    backend = _backend(workers, opt.show_progress(quiet, progress), out, ("seats",))
    result = run_seats(backend, parse_ints(players, "--players"), strategy or ["basic"],
                       games, seed, strong_fields=strong, slow_games=slow_games)
    _finish(result, out)


@study_app.command("jokers")
def study_jokers(
    players: str = opt.players("3,4,5,6,8", "Player counts, e.g. 3-8."),
    strategy: list[str] = opt.strategy(None, "The field (the opponents): one for all seats or "
                                             "one per seat (default basic)."),
    field: list[str] = typer.Option(None, "--field", "-f", hidden=True),
    keep: str = typer.Option("0,1,2,3,4,6,8,13",
                             help="Sweep of k for 'keep jokers until k cards are left'."),
    games: int = opt.games(4_000, "Deals per player count (each policy plays each deal once "
                                  "in every seat)."),
    matches: int = opt.matches(None, "Matches per player count for the chance to win a match "
                                     "(K = players games each; default games / 20; 0 to "
                                     "skip)."),
    strong_field: list[str] = opt.strong_field("Strong opponents the joker policies also "
                                               "meet (the keep-until sweep and the two "
                                               "hoarders; a slow field plays keep-until 4 and 8 "
                                               "only), one seat per deal; repeat. Default: "
                                               "learned (on --games) and pimc (on "
                                               "--slow-games); none: no strong field."),
    slow_games: int = opt.slow_games("Deals per player count against a field tagged slow "
                                     "(pimc, a few hundred games/s). Default: --games / 20, at "
                                     "least 10."),
    habit_games: int = typer.Option(None, "--habit-games",
                                    help="Traced games per player count of pimc and careful "
                                         "(one seat against the field) for what they do with "
                                         "their jokers. Default: --slow-games; 0 to skip."),
    seed: int = opt.seed(),
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(QUIET_HELP),
    progress: bool = opt.progress_alias(),
) -> None:
    """Who's the Ass?: is it worth holding jokers? Joker policies in duplicate format, in
    minus points per game and in the chance to win a match (A-12); the two hoarders by the
    jokers dealt and against a strong field; what pimc and careful do with their jokers."""
    from analyzer.studies.jokers import STRONG_FIELDS, run_jokers

    field_ = opt.merge_alias(strategy, field, "--strategy", "--field")
    opt.check_slow_games(slow_games)
    if habit_games is not None and habit_games < 0:
        raise CardlabError(f"--habit-games must be 0 or more; got {habit_games}")
    strong = opt.strong_fields(strong_field, STRONG_FIELDS)
    backend = _backend(workers, opt.show_progress(quiet, progress), out, ("jokers",))
    result = run_jokers(backend, parse_ints(players, "--players"), field_ or ["basic"],
                        parse_ints(keep, "--keep"), games, seed, matches=matches,
                        strong=strong, slow_games=slow_games, habit_games=habit_games)
    _finish(result, out)


@study_app.command("trump")
def study_trump(
    players: str = opt.players("3,4", "Player counts (3 and/or 4)."),
    ruleset: str = opt.ruleset("seed,swiss", "Rule sets, comma-separated: seed (the seed "
                                             "text) and/or swiss (common Swiss practice)."),
    strategy: list[str] = opt.strategy(None, "The players: one for all seats or several "
                                             "repeated around the table (default adaptive)."),
    deals: int = opt.deals(20_000, "Deals per (player count, rule set)."),
    chooser: list[str] = typer.Option([], "--chooser",
                                      help="A chooser on a table of its own, its trump choice "
                                           "against the best suit in hindsight; repeat. "
                                           f"Default: {words(TRUMP_CHOOSERS)}; none: no choosers."),
    slow_deals: int = typer.Option(None, "--slow-deals",
                                   help="Deals per (player count, rule set) for choosers "
                                        "tagged slow (pimc, about 25-40 deals/s). Default: "
                                        "--deals / 20."),
    seed: int = opt.seed(),
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(QUIET_HELP),
    progress: bool = opt.progress_alias(),
) -> None:
    """Plus-Minus Jass: each trump-choice rule against the best suit in hindsight, and how
    close the choosers (by default re-aim, learned, pimc) come to it."""
    from analyzer.studies.trump import DEFAULT_CHOOSERS, run_trump

    choosers = [] if chooser == ["none"] else (chooser or list(DEFAULT_CHOOSERS))
    backend = _backend(workers, opt.show_progress(quiet, progress), out, ("trump",))
    rulesets = [r.strip() for r in ruleset.split(",") if r.strip()]
    result = run_trump(backend, parse_ints(players, "--players"), rulesets,
                       strategy or ["adaptive"], deals, seed, choosers=choosers,
                       slow_deals=slow_deals)
    _finish(result, out)


@study_app.command("compare")
def study_compare(
    game: str = typer.Option(..., help="ass or jass."),
    strategy: list[str] = opt.strategy(..., "Two or more strategies (repeat the option); one "
                                            "is enough with --table."),
    table: str = typer.Option(None, "--table",
                              help="Play each strategy in one seat at a table of this one "
                                   "(every other seat), e.g. -s learned --table aim-low: each "
                                   "in every seat, all against the same company."),
    players: str = opt.players("4", "Player counts, e.g. 4 or 3,4."),
    games: int = opt.games(None, "Games (Who's the Ass?) per player count; the budget with "
                                 "--until-sure (default 2000)."),
    matches: int = opt.matches(None, "Compare whole matches, this many per player count "
                                     "(Jass's default mode; Who's the Ass?: by share of "
                                     "match wins)."),
    deals: int = opt.deals(None, "Jass: compare single deals, this many per player count."),
    seed: int = opt.seed(),
    mode: str = typer.Option("", hidden=True, help="Game mode (old spelling: use --matches or "
                                                   "--deals)."),
    ruleset: str = opt.ruleset(None, "Jass rule set: seed (default) or swiss."),
    rule: list[str] = typer.Option([], "--rule", help="Rules option key=value, e.g. "
                                                      "deal_cap=100."),
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
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(QUIET_HELP),
    progress: bool = opt.progress_alias(),
    fmt: str = typer.Option("table", "--format",
                            help="table (the answers as sentences), csv (the ranking) or json "
                                 "(every table and the sentences)."),
) -> None:
    """Any strategies of either game head to head, duplicate format: ranking and pairs, in the
    rotations of the strategies through the seats or each at a table of one (--table)."""
    from analyzer.studies.compare import run_compare

    _check_format(fmt)
    given = {name: n for name, n in (("--games", games), ("--matches", matches),
                                     ("--deals", deals)) if n is not None}
    if len(given) > 1:
        raise CardlabError(f"give one of {', '.join(given)}, not several")
    if matches is not None or deals is not None:
        wanted = "matches" if matches is not None else "deals"
        if mode and mode != wanted:
            raise CardlabError(f"--mode {mode} contradicts --{wanted}")
        mode = wanted
    count = next(iter(given.values()), 2_000)
    rules = rules_with_ruleset(rule, ruleset)
    if not (math.isfinite(alpha) and 0 < alpha < 1):
        raise CardlabError(f"--alpha must be between 0 and 1; got {alpha}")
    if margin is not None and not (math.isfinite(margin) and margin >= 0):
        raise CardlabError(f"--margin must be a number >= 0; got {margin}")
    if batch is not None and batch < 1:
        raise CardlabError(f"--batch must be at least 1; got {batch}")
    backend = _backend(workers, opt.show_progress(quiet, progress), out, ("compare",))
    result = run_compare(
        backend, game, strategy, parse_ints(players, "--players"), count,
        seed, mode, rules, metric, better, until_sure=until_sure, alpha=alpha,
        margin=margin, batch=batch, table=table,
    )
    _finish(result, out, fmt)


@study_app.command("all")
def study_all(
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    report_dir: Path = typer.Option(None, "--report", help="Also write the HTML report here."),
    scale: float = typer.Option(1.0, help="Multiply every study's default budget (e.g. 10)."),
    seed: int = opt.seed("Master seed of every study (0..2**63-1); another seed "
                         "replicates the suite (see cardlab study replicate)."),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(QUIET_HELP),
    progress: bool = opt.progress_alias(),
) -> None:
    """Every study on its default budget (times --scale), then optionally the report."""
    from analyzer.studies.suite import Warming, check, run_all

    check(scale)
    from analyzer.seeds import MAX_SEED

    if not 0 <= seed <= MAX_SEED:
        raise CardlabError(f"--seed must be 0 to {MAX_SEED}; got {seed}")
    if report_dir is not None:
        from analyzer.outputs import claim_output_folder

        claim_output_folder(report_dir, "report", "--report")
    backend = _backend(workers, opt.show_progress(quiet, progress), out,
                       ("seats", "jokers", "trump", "compare", "ladder", "best-response",
                        "fields"))
    with Warming(backend.workers) as warming:  # compiles beside the first studies
        for result in run_all(backend, scale, warming, seed=seed):
            _finish(result, out)
    if report_dir is not None:
        from analyzer.studies.samples import find_sample
        from reports.build import build_report

        typer.echo(f"report written to {build_report(out, report_dir, find_sample)}")


@app.command("report")
def report(
    out: Path = opt.out(Path("report"), "Report folder (index.html, figures/, data/)."),
    source: Path = typer.Option(DEFAULT_OUT, "--from", help="Study results folder."),
    replica: Path = typer.Option(None, "--replica",
                                 help="The same suite at another seed (cardlab study "
                                      "replicate): every claim says whether it replicated."),
) -> None:
    """Turn study results into a self-contained HTML report with PNG figures."""
    from analyzer.studies.samples import find_sample
    from reports.build import build_report

    index = build_report(source, out, find_sample, replica)
    typer.echo(f"report written to {index} (open it in any browser; PNGs in {index.parent}/"
               "figures)")


@study_app.command("replicate")
def study_replicate(
    source: Path = typer.Option(DEFAULT_OUT, "--from", help="A finished suite's results."),
    seed: int = typer.Option(..., "--seed", help="The master seed to run it again at."),
    out: Path = opt.out(Path("runs/replicate"), "Folder for the rerun's study results."),
    report_dir: Path = typer.Option(None, "--report",
                                    help="Also write the first suite's report, every claim "
                                         "saying whether it replicated."),
    workers: int = opt.workers(),
) -> None:
    """Run every study of a finished suite again at another seed (each with its own command)
    and compare every claim: the same, clear on one seed only, another best option while
    unclear, clearly one way vs clearly the other (must be 0)."""
    from analyzer.seeds import MAX_SEED
    from analyzer.studies.results import find_studies
    from reports.build import compare_suites
    from reports.replication import rerun_commands, table_lines

    if not 0 <= seed <= MAX_SEED:
        raise CardlabError(f"--seed must be 0 to {MAX_SEED}; got {seed}")
    first = find_studies(source)
    here, there = Path(os.path.abspath(source)), Path(os.path.abspath(out))
    if here == there or here in there.parents or there in here.parents:
        raise CardlabError(f"--out {out} must be a folder apart from --from {source}: the "
                           "rerun never writes over the suite it replicates")
    if seed in {s.manifest.get("seed") for s in first}:
        raise CardlabError(f"--seed {seed} is a seed the suite already played; give another")
    for args in rerun_commands(first, str(out), seed):
        typer.echo("cardlab " + " ".join(args), err=True)
        more = ["--workers", str(workers)] if workers is not None else []
        app([*args, *more, "--quiet"], standalone_mode=False)
    again = find_studies(out)
    for line in table_lines(compare_suites(first, again)):
        typer.echo(line)
    if report_dir is not None:
        from analyzer.studies.samples import find_sample
        from reports.build import build_report

        typer.echo(f"report written to {build_report(source, report_dir, find_sample, out)}")

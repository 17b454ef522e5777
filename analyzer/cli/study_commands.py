"""``cardlab study ...`` (seats, jokers, trump, compare, all) and ``cardlab report``.

Each study command's options are built from the study's declared parameters
(analyzer/studies/registry.py; :func:`declared`); the functions here only turn the values
into the study's run.

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
from analyzer.studies.params import DEFAULT_OUT, OUT_HELP, QUIET_HELP

study_app = typer.Typer(
    help="Answer the questions users come with, with 95% intervals; results go to --out "
    "for `cardlab report`.",
    **_SETTINGS,
)
app.add_typer(study_app, name="study")



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


# typer option helpers of the shared vocabulary (analyzer/cli/options.py), by name
_SHARED = {
    "players": opt.players, "games": opt.games, "matches": opt.matches, "deals": opt.deals,
    "strategy": opt.strategy, "ruleset": opt.ruleset, "out": opt.out, "workers": opt.workers,
}


def _option(p):
    """The typer option of a declared parameter (analyzer.studies.params.Param)."""
    help_ = p.help_text()
    if p.name == "seed":
        return opt.seed(help_) if help_ else opt.seed()
    if p.name == "quiet":
        return opt.quiet(help_)
    if p.name == "progress":
        return opt.progress_alias()
    if p.name in _SHARED and not p.hidden:
        return _SHARED[p.name](p.default, help_) if help_ else _SHARED[p.name](p.default)
    flags = p.flags or (p.flag,)
    return typer.Option(p.default, *flags, help=help_, hidden=p.hidden)


def declared(name: str, body=None):
    """Add ``cardlab study NAME`` with the options its declaration gives
    (analyzer.studies.registry: each parameter's name, type, default, help and range). The
    command checks the declared ranges, then runs ``body(o)`` (``o``: the values by name), or,
    without a body, the study's declared ``run`` on a backend and saves its result."""
    import inspect
    from types import SimpleNamespace

    from analyzer.studies.params import RUN_OPTIONS
    from analyzer.studies.registry import get

    study = get(name)

    def command(**values) -> None:
        for p in study.params:
            p.check(values[p.name])
        o = SimpleNamespace(**values)
        if body is not None:
            return body(o)
        module, _, function = (study.run or "").partition(":")
        if not function:
            raise CardlabError(f"study {name} declares no run function")
        import importlib

        run = getattr(importlib.import_module(module), function)
        backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out, (name,))
        given = {k: v for k, v in values.items() if k not in RUN_OPTIONS}
        _finish(run(backend, **given), o.out)
        return None

    command.__signature__ = inspect.Signature([
        inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=_option(p),
                          annotation=p.type) for p in study.params])
    command.__annotations__ = {p.name: p.type for p in study.params}
    command.__name__ = command.__qualname__ = f"study_{name.replace('-', '_')}"
    command.__doc__ = (body.__doc__ if body is not None else None) or study.question
    study_app.command(name)(command)
    _DECLARED.add(name)
    return command


_DECLARED: set[str] = set()  # the studies whose command is added


def declare_the_rest() -> list[str]:
    """Add the command of every registered study that has none yet (a study without a body
    of its own: its declared ``run``); the command line calls it once every module has added
    its commands. Returns the names added."""
    from analyzer.studies.registry import get, names

    added = [n for n in names() if n not in _DECLARED and get(n).params]
    for name in added:
        declared(name)
    return added


def seats_command(o) -> None:
    """Who's the Ass?: expected minus points and ass penalty by seat, dealt-ass check, and
    the seat effects under strong play (every seat pimc)."""
    from analyzer.studies.seats import STRONG_FIELDS, run_seats

    strong = opt.strong_fields(o.strong_field, STRONG_FIELDS)
    backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out, ("seats",))
    result = run_seats(backend, parse_ints(o.players, "--players"), o.strategy or ["basic"],
                       o.games, o.seed, strong_fields=strong, slow_games=o.slow_games)
    _finish(result, o.out)


def jokers_command(o) -> None:
    """Who's the Ass?: is it worth holding jokers? Joker policies in duplicate format, in
    minus points per game and in the chance to win a match (A-12); the two hoarders by the
    jokers dealt and against a strong field; what pimc and careful do with their jokers."""
    from analyzer.studies.jokers import STRONG_FIELDS, run_jokers

    field_ = opt.merge_alias(o.strategy, o.field, "--strategy", "--field")
    strong = opt.strong_fields(o.strong_field, STRONG_FIELDS)
    backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out, ("jokers",))
    result = run_jokers(backend, parse_ints(o.players, "--players"), field_ or ["basic"],
                        parse_ints(o.keep, "--keep"), o.games, o.seed, matches=o.matches,
                        strong=strong, slow_games=o.slow_games, habit_games=o.habit_games)
    _finish(result, o.out)


def trump_command(o) -> None:
    """Plus-Minus Jass: each trump-choice rule against the best suit in hindsight, and how
    close the choosers (by default re-aim, learned, pimc) come to it."""
    from analyzer.studies.trump import DEFAULT_CHOOSERS, run_trump

    choosers = [] if o.chooser == ["none"] else (o.chooser or list(DEFAULT_CHOOSERS))
    backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out, ("trump",))
    rulesets = [r.strip() for r in o.ruleset.split(",") if r.strip()]
    result = run_trump(backend, parse_ints(o.players, "--players"), rulesets,
                       o.strategy or ["adaptive"], o.deals, o.seed, choosers=choosers,
                       slow_deals=o.slow_deals)
    _finish(result, o.out)


def compare_command(o) -> None:
    """Any strategies of either game head to head, duplicate format: ranking and pairs, in the
    rotations of the strategies through the seats or each at a table of one (--table)."""
    from analyzer.studies.compare import run_compare

    _check_format(o.fmt)
    mode = o.mode
    given = {name: n for name, n in (("--games", o.games), ("--matches", o.matches),
                                     ("--deals", o.deals)) if n is not None}
    if len(given) > 1:
        raise CardlabError(f"give one of {', '.join(given)}, not several")
    if o.matches is not None or o.deals is not None:
        wanted = "matches" if o.matches is not None else "deals"
        if mode and mode != wanted:
            raise CardlabError(f"--mode {mode} contradicts --{wanted}")
        mode = wanted
    count = next(iter(given.values()), 2_000)
    rules = rules_with_ruleset(o.rule, o.ruleset)
    if not (math.isfinite(o.alpha) and 0 < o.alpha < 1):
        raise CardlabError(f"--alpha must be between 0 and 1; got {o.alpha}")
    if o.margin is not None and not (math.isfinite(o.margin) and o.margin >= 0):
        raise CardlabError(f"--margin must be a number >= 0; got {o.margin}")
    backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out, ("compare",))
    result = run_compare(
        backend, o.game, o.strategy, parse_ints(o.players, "--players"), count,
        o.seed, mode, rules, o.metric, o.better, until_sure=o.until_sure, alpha=o.alpha,
        margin=o.margin, batch=o.batch, table=o.table,
    )
    _finish(result, o.out, o.fmt)


declared("seats", seats_command)
declared("jokers", jokers_command)
declared("trump", trump_command)
declared("compare", compare_command)


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
    from analyzer.studies.suite import Warming, check, run_all, studies

    check(scale)
    from analyzer.seeds import MAX_SEED

    if not 0 <= seed <= MAX_SEED:
        raise CardlabError(f"--seed must be 0 to {MAX_SEED}; got {seed}")
    if report_dir is not None:
        from analyzer.outputs import claim_output_folder

        claim_output_folder(report_dir, "report", "--report")
    backend = _backend(workers, opt.show_progress(quiet, progress), out, studies())
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

"""Commands that serve both games: listing strategies."""

from __future__ import annotations

import textwrap
from pathlib import Path

import typer

from analyzer import __version__
from analyzer.cli import analyze_commands as an
from analyzer.cli.app import app, replay_app
from analyzer.cli.atomic import HTML_FORCE_HELP, HTML_HELP, check_html
from analyzer.cli.runs import run_spec
from analyzer.errors import CardlabError
from analyzer.games import registry as games
from strategies.registry import (
    Param,
    StrategyError,
    StrategySpec,
    catalog,
    parse_strategy,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"cardlab {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Print the version of cardlab and exit."),
    strategies: list[str] = typer.Option(
        [], "--strategies", help="A strategies file (TOML) of named presets, e.g. written by "
        "`cardlab tune`; may be repeated and stand anywhere on the command line. Also read "
        "from CARDLAB_STRATEGIES.", show_default=False, metavar="FILE"),
) -> None:
    """cardlab: Monte Carlo strategy analyzer for Who's the Ass? and Plus-Minus Jass.

    Simulate millions of games between strategies, replay any single game, and turn the
    results into tables, figures and an HTML report. Every number comes with its 95%
    interval. Start with `cardlab study all --report report`, or `cardlab strategies`.
    """
    from strategies.files import add_to_env, env_paths

    # --strategies may stand anywhere (analyzer.cli.tune_commands.hoist_strategies_option
    # moves it here); the files go into CARDLAB_STRATEGIES so worker processes load them too
    for path in strategies:
        add_to_env(path)
    for path in env_paths():  # files named only in the environment are checked now too
        add_to_env(path)


def _wrap(text: str, indent: int, width: int) -> str:
    """``text`` wrapped at ``width``, continuation lines indented by ``indent``."""
    return textwrap.fill(text, width=max(width, indent + 30), subsequent_indent=" " * indent,
                         break_on_hyphens=False, break_long_words=False)


def _values(p: Param) -> str:
    """A knob's possible values, every one, with the default marked."""
    if p.choices:
        return ", ".join(c + (" (default)" if i == int(p.default) else "")
                         for i, c in enumerate(p.spellings))
    if p.low is None or p.high is None:  # e.g. a strategy name, stored encoded
        return f"default {p.show(p.default)}"
    return f"{p.low:g} to {p.high:g} (default {p.show(p.default)})"


def _family_of(spec: StrategySpec, book: dict[str, StrategySpec]) -> StrategySpec:
    return next((s for s in book.values() if s.family == spec.family and not s.preset), spec)


def _changes(spec: StrategySpec, knob: str, value: str) -> bool:
    """Whether a preset's ``knob=value`` differs from the family default (a tuned preset's file
    names every knob)."""
    p = spec.param(knob)
    try:
        return p.parse(str(value)) != p.default
    except StrategyError:  # show what cannot be compared
        return True


def game_listing(game: str, width: int) -> list[str]:
    """Families with their knobs (once), then presets with only what they change."""
    book = catalog(game)
    families = [s for s in book.values() if not s.preset]
    presets = [s for s in book.values() if s.preset]
    name_w = max(len(s.name) for s in book.values()) + 2
    lines = [f"{games.title(game)} ({game})", "", "Families:"]
    shown: dict[tuple, str] = {}  # knob lists already printed -> the family that has them
    for spec in families:
        lines.append(_wrap(f"  {spec.name:<{name_w}}{spec.description}", name_w + 2, width))
        if spec.params and spec.params in shown:
            lines.append(f"      knobs as {shown[spec.params]}")
            continue
        shown.setdefault(spec.params, spec.name)
        knob_w = max((len(p.name) for p in spec.params), default=0) + 2
        for p in spec.params:
            lines.append(_wrap(f"      {p.name:<{knob_w}}{p.description}: {_values(p)}",
                               6 + knob_w, width))
    if presets:
        lines += ["", "Presets (a family with some knobs set; only the knobs they set):"]
        for spec in presets:
            family = _family_of(spec, book).name
            sets = ", ".join(f"{k}={v}" for k, v in spec.preset.items()
                             if _changes(spec, k, v)) or "the family's defaults"
            lines.append(_wrap(f"  {spec.name:<{name_w}}{spec.description} [{family}: {sets}]",
                               name_w + 2, width))
    return lines


def strategy_detail(game: str, text: str, width: int) -> list[str]:
    """One strategy in full: family, description and the value of every knob."""
    book = catalog(game)
    strategy = parse_strategy(game, text)
    spec = strategy.spec
    family = _family_of(spec, book)
    lines = [f"{strategy.label()} ({games.title(game)})",
             _wrap(f"  {spec.description}", 2, width)]
    about = family.about() if callable(family.about) else family.about
    if about:
        lines += ["", _wrap(f"  {about}", 2, width), ""]
    if family.name != spec.name:
        lines.append(f"  a preset of the {family.name} family")
    if not spec.params:
        lines.append("  no knobs")
    for p in spec.params:
        value = p.show(strategy.values[p.slot])
        mark = "" if value == p.show(p.default) else "   (changed from the family default)"
        lines.append(_wrap(f"  {p.name} = {value}{mark}", 6, width))
        lines.append(_wrap(f"      {p.description}; values: {_values(p)}", 6, width))
    lines.append(f"  use it: --strategy {strategy.label()}")
    return lines


@app.command("strategies")
def list_strategies(
    what: str = typer.Argument(
        None, help="ass or jass for one game; a strategy name (e.g. careful, "
        "hold-jokers:keep=3) for everything about it; both games when left out."),
) -> None:
    """List the strategies: each family with its knobs, then the presets with what they set.

    Use one with --strategy NAME, or set knobs with NAME:key=value,key=value, for example
    --strategy hold-jokers:keep=2.
    """
    from analyzer.cli.app import fail
    from analyzer.cli.console import console

    width = min(console().width, 100)
    if what is None or what in games.names():
        names = games.names() if what is None else (what,)
        lines = []
        for g in names:
            lines += [*game_listing(g, width), ""]
        lines.append("Everything about one strategy: cardlab strategies NAME")
        typer.echo("\n".join(lines))
        return
    name = what.partition(":")[0]
    found = [g for g in games.names() if name in catalog(g)]
    if not found:
        known = sorted({n for g in games.names() for n in catalog(g)})
        fail(f"unknown game {what!r} and no strategy of that name; games: "
             f"{', '.join(games.names())}; strategies: {', '.join(known)}")
    out = []
    for g in found:
        try:
            out += [*strategy_detail(g, what, width), ""]
        except StrategyError as exc:
            fail(str(exc))
    typer.echo("\n".join(out).rstrip())


def record_printer(game: str):
    """The command-line module of ``game`` (its adapter's ``cli``), whose
    ``show_record(spec, index, pretty)`` prints one of its games."""
    return games.load(games.get(game).part("cli", "replay"))  # one line for an unknown game


@replay_app.callback(invoke_without_command=True)
def replay_from(
    ctx: typer.Context,
    run: Path = typer.Option(None, "--from",
                             help="A run folder written by simulate --out: replay one of its "
                             "games with its game, mode, players, strategies, rules and seed."),
    index: int = typer.Option(None, "--index", help="With --from: the game (match, deal) "
                              "to replay; it must lie in the run's range."),
    pretty: bool = typer.Option(False, "--pretty", help="With --from: a readable account."),
    html: Path = typer.Option(None, "--html", help="With --from: " + HTML_HELP),
    force: bool = typer.Option(False, "--force", help=HTML_FORCE_HELP),
    analyze: bool = typer.Option(False, "--analyze", help="With --from: " + an.ANALYZE_HELP),
    seat: list[int] = typer.Option([], "--seat", help=an.SEAT_HELP),
    worlds: int = typer.Option(None, "--worlds", help="With --analyze: " + an.WORLDS_HELP
                               + " Default: " + an.DEFAULT_WORLDS_TEXT + "."),
    analysis_seed: int = typer.Option(0, "--analysis-seed", help=an.ANALYSIS_SEED_HELP),
    fmt: str = typer.Option("table", "--format", help="With --analyze: " + an.FORMAT_HELP),
    continuation: str = typer.Option(None, "--continuation",
                                     help="With --analyze: " + an.CONTINUATION_HELP),
) -> None:
    """Replay one game, identified by (seed, index), as a record; `cardlab replay --from RUN
    --index I` replays game I of a run folder with that run's parameters (--html FILE: a page
    that steps through it)."""
    if ctx.invoked_subcommand is not None:
        if html is not None or force:
            raise CardlabError("--html and --force go after the game: cardlab replay "
                               f"{ctx.invoked_subcommand} ... --html FILE")
        if analyze:
            raise CardlabError("--analyze goes after the game: cardlab replay ass|jass ... "
                               "--analyze, or cardlab replay --from RUN --index I --analyze")
        if run is not None or index is not None:
            raise CardlabError("--from and --index go before nothing else: "
                               "cardlab replay --from RUN --index I")
        return
    if run is None or index is None:
        raise CardlabError("give --from RUN --index I, or a game: cardlab replay ass|jass ...")
    check_html(html, force)
    from analyzer.runner.manifest import pinned_to_plan

    spec, start, count, plan = run_spec(run)
    if not start <= index < start + count:
        raise CardlabError(f"--index {index} is outside the run {run}: it holds indices "
                           f"{start} to {start + count - 1}")
    an.check_analyze_options(analyze, seat, worlds, analysis_seed, fmt, spec.players,
                           continuation, spec.game)
    with pinned_to_plan(plan):  # the strategies as the run recorded them, not as files say now
        if analyze:
            an.show_analysis(spec.game, an.trace(spec, index), seat, worlds, analysis_seed, fmt,
                             html, force, continuation)
            return
        record_printer(spec.game).show_record(spec, index, pretty, html, force)

"""Commands for Plus-Minus Jass: ``cardlab replay jass`` and ``cardlab export jass``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from analyzer.cli import analyze_commands as an
from analyzer.cli import options as opt
from analyzer.cli.app import export_app, fail, replay_app, simulate_app
from analyzer.cli.atomic import (
    FORCE_HELP,
    HTML_FORCE_HELP,
    HTML_HELP,
    OUT_HELP,
    check_html,
    check_index,
    check_range,
    check_seed,
    export_lines,
    write_html,
)
from analyzer.cli.run_commands import (
    AGGREGATE,
    BACKEND,
    CHUNK,
    FORMAT,
    OUT,
    QUIET,
    REPAIR,
    RESUME,
    SCHEDULER,
    SEED,
    START,
    STRATEGY,
    WORKERS,
    check_format,
    simulate,
)
from analyzer.cli.run_commands import (
    CAP_HELP as SIMULATE_CAP_HELP,
)
from analyzer.errors import CardlabError

GAME = "jass"  # this module is the game's command line (its description's ``cli``)

STRATEGY_HELP = (
    "Strategy for every seat, or repeat once per seat (seat 0 first); "
    "NAME or NAME:key=value (see `cardlab strategies jass`)."
)
MODE_HELP = "matches: whole matches (default); deals: single deals (seat n-1 deals)."
CAP_HELP = "Most deals a match may last; an undecided match is reported as capped."


def _spec(seed: int, players: int, strategy: list[str] | None, ruleset: str, mode: str,
          deal_cap: int):
    from analyzer.engines.jass.kernel import validate
    from analyzer.engines.kernel import RunSpec

    return validate(RunSpec(GAME, players, tuple(strategy or ("basic",)), seed, mode=mode,
                            rules={"ruleset": ruleset, "deal_cap": deal_cap}))


def _mode(deals: bool, mode: str | None) -> str:
    """The mode from --deals (or the hidden old --mode)."""
    if mode is not None:
        if mode not in ("matches", "deals"):
            raise CardlabError(f"--mode must be matches or deals; got {mode!r}")
        return mode
    return "deals" if deals else "matches"


@simulate_app.command(GAME)
def simulate_jass(
    players: int = opt.players_of(GAME),
    matches: int = opt.matches(None, "Matches to play (default 10000)."),
    deals: int = opt.deals(),
    seed: int = SEED,
    strategy: list[str] = STRATEGY,
    ruleset: str = opt.ruleset(),
    deal_cap: int = typer.Option(None, "--deal-cap", help=SIMULATE_CAP_HELP),
    out: Path = OUT,
    workers: int = WORKERS,
    chunk_size: int = CHUNK,
    backend: str = BACKEND,
    scheduler: str = SCHEDULER,
    aggregate: bool = AGGREGATE,
    resume: bool = RESUME,
    quiet: bool = QUIET,
    start: int = START,
    fmt: str = FORMAT,
    repair: bool = REPAIR,
) -> None:
    """Play Plus-Minus Jass matches (or single deals) and print a per-seat table.

    Jass counts matches (--matches N) or single deals (--deals N), not games: a match lasts
    many deals, so "games" would not say which; --games and -n are refused with that advice.

    Example: cardlab simulate jass --players 4 --matches 100000 --seed 3 --strategy basic
    """
    if matches is not None and deals is not None:
        fail("give --matches or --deals, not both")
    mode, count = ("deals", deals) if deals is not None else (
        "matches", 10_000 if matches is None else matches)
    rules: dict = {"ruleset": ruleset}
    if deal_cap is not None:
        if mode == "deals":
            fail("--deal-cap applies to matches, not to --deals")
        rules["deal_cap"] = deal_cap
    simulate(GAME, mode, count, players, seed, strategy, rules, out, workers, chunk_size,
             backend, scheduler, aggregate, resume, quiet, start, check_format(fmt), repair)


@replay_app.command(GAME)
def replay_jass(
    seed: int = opt.seed(help="Master seed of the run (0 .. 2**63-1)."),
    index: int = typer.Option(..., "--index", help="Match (or deal) number in the run (>= 0)."),
    players: int = opt.players_of(GAME),
    strategy: list[str] = opt.strategy(help=STRATEGY_HELP),
    ruleset: str = opt.ruleset(),
    matches: bool = typer.Option(False, "--matches", help="INDEX is a match (the default)."),
    deals: bool = typer.Option(False, "--deals", help="INDEX is a single deal (seat n-1 "
                               "deals)."),
    mode: str = typer.Option(None, "--mode", hidden=True, help=MODE_HELP),
    deal_cap: int = typer.Option(200, "--deal-cap", help=CAP_HELP),
    pretty: bool = typer.Option(False, "--pretty", help="A readable trick-by-trick account."),
    html: Path = typer.Option(None, "--html", help=HTML_HELP),
    force: bool = typer.Option(False, "--force", help=HTML_FORCE_HELP),
    analyze: bool = typer.Option(False, "--analyze", help=an.ANALYZE_HELP),
    seat: list[int] = typer.Option([], "--seat", help=an.SEAT_HELP),
    worlds: int = typer.Option(None, "--worlds", help="With --analyze: " + an.WORLDS_HELP
                               + " Default: " + an.DEFAULT_WORLDS_TEXT + "."),
    analysis_seed: int = typer.Option(0, "--analysis-seed", help=an.ANALYSIS_SEED_HELP),
    fmt: str = typer.Option("table", "--format", help="With --analyze: " + an.FORMAT_HELP),
    continuation: str = typer.Option(None, "--continuation",
                                     help="With --analyze: " + an.CONTINUATION_HELP),
) -> None:
    """Replay match INDEX of a run and print it as one JSON line (game-records format).

    The same seed, index, players, rules and strategies always give the same match, so a
    match seen in a simulation or an export can be looked at again card by card.
    `cardlab replay --from RUN --index I` takes all of these from a run folder. With --html
    FILE, a page that steps through the match instead (open it in any browser; it needs
    nothing else).
    """
    if matches and deals:
        raise CardlabError("give --matches or --deals, not both")
    check_seed(seed)
    check_index(index)
    an.check_analyze_options(analyze, seat, worlds, analysis_seed, fmt, players,
                           continuation, GAME)
    check_html(html, force)
    spec = _spec(seed, players, strategy, ruleset, _mode(deals, mode), deal_cap)
    if analyze:
        an.show_analysis(GAME, an.trace(spec, index), seat, worlds, analysis_seed, fmt, html,
                         force, continuation)
        return
    show_record(spec, index, pretty, html, force)


def show_record(spec, index: int, pretty: bool, html: Path | None = None,
                force: bool = False) -> None:
    """Print match (deal) ``index`` of ``spec`` as a JSON line or, with ``pretty``, as text;
    with ``html``, write its viewer page there instead (and the text too with ``pretty``)."""
    from analyzer.engines.jass.records import to_json, trace_record

    record = trace_record(spec, index)
    if pretty:
        typer.echo(format_pretty(record))
    elif html is None:
        typer.echo(to_json(record))
    if html is not None:
        write_html(html, record, force)


@export_app.command(GAME)
def export_jass(
    seed: int = opt.seed(help="Master seed of the run (0 .. 2**63-1)."),
    matches: int = opt.matches(None, "How many matches to write."),
    deals: int = opt.deals(None, "Write this many single deals instead."),
    out: Path = typer.Option(..., *opt.SHARED_FLAGS["out"], help=OUT_HELP),
    players: int = opt.players_of(GAME),
    strategy: list[str] = opt.strategy(help=STRATEGY_HELP),
    ruleset: str = opt.ruleset(),
    mode: str = typer.Option(None, "--mode", hidden=True, help=MODE_HELP),
    deal_cap: int = typer.Option(200, "--deal-cap", help=CAP_HELP),
    start: int = typer.Option(0, "--start", help="Index of the first match (deal) (>= 0)."),
    force: bool = typer.Option(False, "--force", help=FORCE_HELP),
) -> None:
    """Write matches START .. START+MATCHES-1 as JSON Lines, one match record per line (or,
    with --deals, single deals).

    The file appears under its name only when complete (written to a temporary file in the
    same folder, then renamed).
    """
    from analyzer.engines.jass.records import to_json, trace_record

    if (matches is None) == (deals is None):
        raise CardlabError("give --matches or --deals (one of them)")
    mode = _mode(deals is not None, mode)
    count = matches if matches is not None else deals
    check_seed(seed)
    check_range(start, count, f"--{mode}")
    spec = _spec(seed, players, strategy, ruleset, mode, deal_cap)
    export_lines(out, (to_json(trace_record(spec, index))
                       for index in range(start, start + count)), force, mode)


def format_pretty(record: dict[str, Any], width: int | None = None) -> str:
    """A readable account of a match (or deal) record, one line per trick: a legend, the
    trick whose card fixed trump marked, the sticks of each deal explained (J-9), wrapped at
    word boundaries to ``width`` (default: the terminal's; 0 or a pipe: unwrapped)."""
    from analyzer.cli.console import fill_lines as _fill
    from analyzer.cli.console import width_or_terminal as _width
    from analyzer.games.jass.cards import SUIT_LETTERS, SUIT_NAMES
    from analyzer.games.jass.readable import CARD_LEGEND, sticks_words, trump_fix

    n = record["players"]
    rules = record["rules"]
    mode = record.get("mode", "matches")
    unit = "deal" if mode == "deals" else "match"
    lines = [
        f"Plus-Minus Jass seed {record['seed']}, {unit} {record['index']}: {n} players, "
        f"rule set {rules['ruleset']}",
        CARD_LEGEND,
        "Seats: " + ", ".join(f"{s} = {record['strategies'][s]}" for s in range(n)),
    ]
    for k, deal in enumerate(record["deals"], start=1):
        aims = deal.get("aims") or ["n/a"] * n
        lines.append(f"Deal {k}, seat {deal['dealer']} deals:")
        for seat in range(n):
            aim = "" if aims[seat] in ("n/a", None) else f" (aims {aims[seat]})"
            lines.append(f"  seat {seat}{aim}: {' '.join(deal['hands'][seat])}")
        fix = trump_fix(deal, n)
        for t, trick in enumerate(deal["tricks"], start=1):
            mark = ""
            if fix is not None and fix[0] == t - 1:
                card = trick["cards"][fix[1]]
                suit = SUIT_NAMES[SUIT_LETTERS.index(card[0])]
                mark = f"; {card} by seat {fix[2]} does not follow suit and fixes trump: {suit}"
            lines.append(f"  trick {t:2d}: seat {trick['leader']} leads "
                         f"{' '.join(trick['cards']):<18} -> seat {trick['winner']}{mark}")
        if deal["trump"] is None:
            trump = "no trump (no card failed to follow suit: every 8 counts 8)"
        else:
            trump = f"trump {deal['trump']} ({SUIT_NAMES[SUIT_LETTERS.index(deal['trump'])]})"
        lines.append(f"  {trump}; points {deal['points']}; sticks {deal['sticks']} "
                     f"({sticks_words(deal)}); totals {deal['totals']}")
    if mode == "matches":
        if record["winner"] is None:
            lines.append(f"No winner: the match hit the deal cap of {rules['deal_cap']}.")
        else:
            lines.append(f"Seat {record['winner']} wins after {len(record['deals'])} deals.")
    return _fill(lines, _width(width))


def position_line(pos: dict[str, Any]) -> str:
    """One or two lines saying whose move it is and what they know (``cardlab analyze``)."""
    trump = pos["trump"] or ("not fixed: the card you play fixes its suit as trump (J-5)"
                             if pos.get("fixes_trump") else "not fixed")
    return (f"Plus-Minus Jass, {pos['players']} players: seat {pos['seat']} to play, trick "
            f"{pos['trick'] + 1}, on the table {' '.join(pos['table']) or '-'}; hand "
            f"{' '.join(pos['hand'])}; trump {trump}; points so far {pos['points']}")

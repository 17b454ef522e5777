"""Commands for Who's the Ass?: ``cardlab replay ass`` and ``cardlab export ass``."""

from __future__ import annotations

import json
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
from analyzer.cli.console import fill_lines as _fill
from analyzer.cli.console import width_or_terminal as _width
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
from analyzer.errors import CardlabError

GAME = "ass"  # this module is the game's command line (its description's ``cli``)

STRATEGY_HELP = (
    "Strategy for every seat, or repeat once per seat (seat 0 first); "
    "NAME or NAME:key=value (see `cardlab strategies ass`)."
)


MODE_HELP = ("games: single games (default); matches: whole matches of K games (A-12), "
             "strategies per player.")
GPM_HELP = "With matches: K, games per match (default: the number of players)."


def _spec(seed: int, players: int, strategy: list[str] | None, mode: str = "games",
          games_per_match: int | None = None):
    from analyzer.engines.ass.kernel import validate
    from analyzer.engines.kernel import RunSpec

    if mode not in ("games", "matches"):
        raise CardlabError(f"--mode must be games or matches; got {mode!r}")
    if games_per_match is not None and mode != "matches":
        raise CardlabError("--games-per-match applies to matches")
    rules = {} if games_per_match is None else {"games_per_match": games_per_match}
    return validate(RunSpec(GAME, players, tuple(strategy or ("basic",)), seed, mode=mode,
                            rules=rules))


@simulate_app.command(GAME)
def simulate_ass(
    players: int = opt.players_of(GAME),
    games: int = opt.games(None, "Games to play (default 100000)."),
    matches: int = opt.matches(
        None,
        "Play whole matches instead (A-12): K games each, the deal moving one player "
        "on each game; the table is then per player: total minus points, P(win match) with "
        "ties shared, P(tie).",
    ),
    games_per_match: int = typer.Option(
        None, "--games-per-match", help="K, games per match (default: the number of players)."
    ),
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
    fmt: str = FORMAT,
    repair: bool = REPAIR,
) -> None:
    """Play games of Who's the Ass? and print mean minus points, the chance to end with the
    ass and the chance to be dealt it, per seat, with 95% confidence intervals.

    With --matches the strategies are given per player (player 0 first), and each player
    sits in a different seat every game.

    Example: cardlab simulate ass --players 5 --games 1000000 --seed 7 --out run.parquet

    Example: cardlab simulate ass --matches 100000 -s basic -s joker-hoarder -s basic -s basic
    """
    fmt = check_format(fmt)
    if matches is not None and games is not None:
        fail("give --games or --matches, not both")
    if games_per_match is not None and matches is None:
        fail("--games-per-match applies to --matches")
    if matches is not None:
        rules = {} if games_per_match is None else {"games_per_match": games_per_match}
        simulate(GAME, "matches", matches, players, seed, strategy, rules, out, workers,
                 chunk_size, backend, scheduler, aggregate, resume, quiet, start, fmt, repair)
        return
    simulate(GAME, "games", 100_000 if games is None else games, players, seed, strategy, {},
             out, workers, chunk_size, backend, scheduler, aggregate, resume, quiet, start, fmt,
             repair)


@replay_app.command(GAME)
def replay_ass(
    seed: int = opt.seed(help="Master seed of the run (0 .. 2**63-1)."),
    index: int = typer.Option(..., "--index", help="Game (match) number within the run (>= 0)."),
    players: int = opt.players_of(GAME),
    strategy: list[str] = opt.strategy(help=STRATEGY_HELP),
    pretty: bool = typer.Option(False, "--pretty", help="A readable round-by-round account."),
    matches: bool = typer.Option(False, "--matches",
                                 help="INDEX is a match of K games (A-12), strategies per "
                                 "player."),
    mode: str = typer.Option(None, "--mode", hidden=True, help=MODE_HELP),
    games_per_match: int = typer.Option(None, "--games-per-match", help=GPM_HELP),
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
    """Replay game INDEX of a run and print it as one JSON line (game-records format).

    The same seed, index, players and strategies always give the same game, so a game seen
    in a simulation or an export can be looked at again move by move. With --matches, match
    INDEX of a run of matches (one line per match). `cardlab replay --from RUN --index I`
    takes all of these from a run folder. With --html FILE, a page that steps through the
    game instead (open it in any browser; it needs nothing else).
    """
    check_seed(seed)
    check_index(index)
    check_html(html, force)
    mode = mode or ("matches" if matches else "games")
    an.check_analyze_options(analyze, seat, worlds, analysis_seed, fmt, players,
                           continuation, GAME)
    spec = _spec(seed, players, strategy, mode, games_per_match)
    if analyze:
        an.show_analysis(GAME, an.trace(spec, index), seat, worlds, analysis_seed, fmt, html,
                         force, continuation)
        return
    show_record(spec, index, pretty, html, force)


def show_record(spec, index: int, pretty: bool, html: Path | None = None,
                force: bool = False) -> None:
    """Print game (match) ``index`` of ``spec`` as a JSON line or, with ``pretty``, as text;
    with ``html``, write its viewer page there instead (and the text too with ``pretty``)."""
    from analyzer.engines.ass.records import MatchTracer, Tracer

    matches = spec.mode == "matches"
    tracer = MatchTracer(spec) if matches else Tracer(spec)
    record, status = tracer.record(index)
    if status >= 0:
        where = "player" if matches else "seat"
        raise CardlabError(f"strategy at {where} {status} made an illegal move (engine bug)")
    if pretty:
        typer.echo(format_pretty_match(record) if matches else format_pretty(record))
    elif html is None:
        typer.echo(json.dumps(record))
    if html is not None:
        write_html(html, record, force)


@export_app.command(GAME)
def export_ass(
    seed: int = opt.seed(help="Master seed of the run (0 .. 2**63-1)."),
    games: int = opt.games(None, "How many games to write (>= 1)."),
    out: Path = typer.Option(..., *opt.SHARED_FLAGS["out"], help=OUT_HELP),
    players: int = opt.players_of(GAME),
    strategy: list[str] = opt.strategy(help=STRATEGY_HELP),
    start: int = typer.Option(0, "--start", help="Index of the first game (match) (>= 0)."),
    matches: int = opt.matches(
        None,
        "Write this many whole matches instead (A-12), one match record per line; "
        "strategies per player.",
    ),
    games_per_match: int = typer.Option(None, "--games-per-match", help=GPM_HELP),
    force: bool = typer.Option(False, "--force", help=FORCE_HELP),
) -> None:
    """Write games START .. START+GAMES-1 as JSON Lines, one game record per line (or, with
    --matches, matches START .. START+MATCHES-1, one match record per line).

    The file appears under its name only when complete (written to a temporary file in the
    same folder, then renamed).
    """
    from analyzer.engines.ass.records import MatchTracer, Tracer

    if (games is None) == (matches is None):
        raise CardlabError("give --games or --matches (one of them)")
    mode, count = ("matches", matches) if matches is not None else ("games", games)
    check_seed(seed)
    check_range(start, count, f"--{mode}")
    spec = _spec(seed, players, strategy, mode, games_per_match)
    tracer = MatchTracer(spec) if mode == "matches" else Tracer(spec)
    where, unit = ("player", "match") if mode == "matches" else ("seat", "game")

    def lines():
        for index in range(start, start + count):
            record, status = tracer.record(index)
            if status >= 0:
                raise CardlabError(
                    f"{unit} {index}: strategy at {where} {status} made an illegal move "
                    "(engine bug)"
                )
            yield json.dumps(record)

    export_lines(out, lines(), force, mode)


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def format_pretty_match(record: dict[str, Any], width: int | None = None) -> str:
    """A readable account of a match record: each game as format_pretty, then the totals,
    wrapped at word boundaries to ``width`` (default: the terminal's; 0 or a pipe: unwrapped)."""
    from analyzer.games.ass.readable import CARD_LEGEND

    width = _width(width)
    n = record["players"]
    k = record["rules"]["games_per_match"]
    lines = [
        f"Who's the Ass? seed {record['seed']}, match {record['index']}: {n} players, {k} "
        f"games; player {record['first_dealer']} deals first",
        CARD_LEGEND,
        "Players: " + ", ".join(f"{p} = {s}" for p, s in enumerate(record["strategies"])),
    ]
    totals = [0] * n
    out = [_fill(lines, width)]
    for g, game in enumerate(record["games"]):
        seats = game["seat_players"]
        head = [""]
        head.append(f"Game {g + 1} of {k}: player {game['dealer']} deals; seats "
                    + ", ".join(f"{s} = player {p}" for s, p in enumerate(seats)))
        out.append(_fill(head, width))
        body = format_pretty({**game, "players": n, "seed": record["seed"],
                              "index": record["index"], "rules": record["rules"],
                              "strategies": [record["strategies"][p] for p in seats]},
                             header=False, width=max(width - 2, 20) if width else 0)
        out.append("\n".join("  " + line for line in body.splitlines()))
        for s, p in enumerate(seats):
            totals[p] += game["penalties"][s]
        out.append(_fill(["  Totals so far: " + ", ".join(f"player {p} {t}"
                                                          for p, t in enumerate(totals))], width))
    winners = record["winners"]
    share = ("wins" if len(winners) == 1
             else f"tie for the fewest and share the win (1/{len(winners)} each)")
    who = ", ".join(f"player {p}" for p in winners)
    out.append(_fill([f"Result: {who} {share} with {min(record['totals'])} minus points; "
                      f"totals {record['totals']}."], width))
    return "\n".join(out)


def format_pretty(record: dict[str, Any], header: bool = True, width: int | None = None) -> str:
    """A readable account of a game record, one line per play: a legend, every joker with the
    value it played as, every hand after each ass round's pickup, wrapped at word boundaries
    to ``width`` (default: the terminal's; 0 or a pipe: unwrapped)."""
    from analyzer.games.ass.readable import CARD_LEGEND, hands_after_rounds, play_words

    n = record["players"]
    lines = [
        f"Who's the Ass? seed {record['seed']}, game {record['index']}: {n} players, "
        f"{record['rules']['per_player']} cards each",
        CARD_LEGEND,
    ] if header else []
    lines.append("Dealt:")
    for seat in range(n):
        lines.append(f"  seat {seat} ({record['strategies'][seat]}): "
                     f"{_cards(record['hands'][seat])}")
    after = hands_after_rounds(record)
    for number, rnd in enumerate(record["rounds"], start=1):
        kind = "ass round" if rnd["ass_round"] else "normal round"
        lines.append(f"Round {number} ({kind}), seat {rnd['starter']} starts:")
        for pos, play in enumerate(rnd["plays"]):
            who = f"  seat {play['seat']}"
            if play.get("pass"):
                lines.append(f"{who} passes")
                continue
            verb = "leads" if pos == 0 else ("plays" if rnd["ass_round"] else "raises with")
            lines.append(f"{who} {verb} {play_words(play, rnd['ass_round'])}")
        if rnd["ass_round"]:
            lines.append(f"  -> seat {rnd['winner']} takes the cards, the ass included. "
                         "Hands now:")
            for seat in range(n):
                hand = after[number - 1][seat]
                lines.append(f"    seat {seat} ({len(hand)} card{'s' if len(hand) != 1 else ''})"
                             f": {_cards(hand)}")
        else:
            lines.append(f"  -> seat {rnd['winner']} played highest and starts next")
    out = [s for s in range(n) if not record["final_hands"][s]]
    lines.append(f"End: seat {', '.join(map(str, out))} has no cards left.")
    for seat in range(n):
        lines.append(f"  seat {seat}: {record['penalties'][seat]:3d} minus points "
                     f"({_cards(record['final_hands'][seat])})")
    return _fill(lines, _width(width))


def position_line(pos: dict[str, Any]) -> str:
    """One or two lines saying whose move it is and what they know (``cardlab analyze``)."""
    where = ("leads" if pos["position_in_round"] == 0
             else f"plays into {'an ass' if pos['ass_round'] else 'a normal'} round: "
             f"table {' '.join(pos['table']) or '-'}")
    extra = f"; game {pos['game_of_match']} of a match, totals {pos['totals']}" \
        if "game_of_match" in pos else ""
    return (f"Who's the Ass?, {pos['players']} players: seat {pos['seat']} {where}; hand "
            f"{' '.join(pos['hand'])}; hand sizes {pos['sizes']}{extra}")

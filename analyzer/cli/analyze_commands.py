"""``cardlab analyze ass|jass``: the value of every legal move in one position, for the player
to move, from what that player may know (A-11, J-11); and the ``--analyze`` of replays.

A position comes from a run folder (``--from RUN --index I --move K``), a records file
(``--record FILE [--index I] --move K``) or is typed by hand (``--hand`` and the public
situation; notation in docs/analyzing.md). Every input is checked before any work: a bad one
gets one line naming it and exit status 2.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from analyzer import numbers
from analyzer.analysis.model import default_worlds, default_worlds_text
from analyzer.cli import options as opt
from analyzer.cli.app import app
from analyzer.errors import CardlabError

analyze_app = typer.Typer(
    help="The value of every legal move in one position, for the player to move.",
    add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False)
app.add_typer(analyze_app, name="analyze")

FROM_HELP = "A run folder (simulate --out): take the position from game --index of it."
RECORD_HELP = ("A records file (export, replay > FILE): take the position from the record "
               "with --index (or its only record).")
INDEX_HELP = "With --from or --record: the game (match) of the run or file."
WORLDS_HELP = "Sampled worlds (deals of the cards the player cannot see), 1 to 20,000."
DEFAULT_WORLDS_TEXT = default_worlds_text()
CONTINUATION_HELP = ("What if everybody after the move played NAME (a strategy that does not "
                     "search, e.g. basic)? Default: pimc's own evaluation (strong play).")
SEED_HELP = "Seed of the analysis (0..2**63-1): the same seed, the same numbers."
FORMAT_HELP = "table (default) or json."


def check_common(worlds: int, seed: int, fmt: str, seed_option: str = "--seed",
                 game: str | None = None, continuation: str | None = None) -> None:
    from analyzer.analysis.ass import max_worlds_check
    from analyzer.seeds import MAX_SEED

    max_worlds_check(worlds)
    if continuation is not None and game is not None:
        from analyzer.analysis.model import search_values

        search_values(game, continuation)  # one line naming the allowed ones
    if not 0 <= seed <= MAX_SEED:
        raise CardlabError(f"{seed_option} must be between 0 and 2**63-1; got {seed}")
    if fmt not in ("table", "json"):
        raise CardlabError(f"--format must be table or json; got {fmt!r}")


def load_record(game: str, run: Path | None, record_file: Path | None, index: int | None
                ) -> dict[str, Any]:
    """The record of game (match) ``index`` of a run folder or a records file."""
    if run is not None and record_file is not None:
        raise CardlabError("give --from RUN or --record FILE, not both")
    if run is not None:
        if index is None:
            raise CardlabError("--from RUN needs --index I (the game of the run)")
        from analyzer.cli.runs import run_spec
        from analyzer.runner.manifest import pinned_to_plan

        spec, start, count, plan = run_spec(run)
        if spec.game != game:
            raise CardlabError(f"the run {run} is of {spec.game}, not {game}")
        if not start <= index < start + count:
            raise CardlabError(f"--index {index} is outside the run {run}: it holds indices "
                               f"{start} to {start + count - 1}")
        with pinned_to_plan(plan):
            return trace(spec, index)
    assert record_file is not None
    line, record = _record_of_file(game, record_file, index)
    problem = first_illegal(game, record)
    if problem is not None:
        raise CardlabError(f"--record {record_file} line {line}: {problem}; the record breaks "
                           "the rules (docs/rulings.md), so nothing is analyzed")
    return record


def first_illegal(game: str, record: dict[str, Any]) -> str | None:
    """The first step of a record the rules do not allow (the game's records.first_illegal)."""
    from analyzer.engines.kernel import records_module

    return records_module(game).first_illegal(record)


def _record_of_file(game: str, record_file: Path, index: int | None
                    ) -> tuple[int, dict[str, Any]]:
    """(line number, record) of the record of ``game`` that --record and --index pick."""
    try:
        data = record_file.read_bytes()
    except OSError as exc:
        raise CardlabError(f"cannot read --record {record_file}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CardlabError(f"--record {record_file} line {line} is not UTF-8 text (byte "
                           f"{exc.start}); a records file is JSON Lines in UTF-8 "
                           "(docs/game-records.md)") from None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append((number, json.loads(line)))
        except (json.JSONDecodeError, RecursionError):
            raise CardlabError(f"--record {record_file} line {number} is not JSON (a game "
                               "record per line, docs/game-records.md)") from None
    records = [(number, r) for number, r in records
               if isinstance(r, dict) and r.get("game") == game]
    if not records:
        raise CardlabError(f"--record {record_file} holds no {game} record")
    if index is None:
        if len(records) > 1:
            raise CardlabError(f"--record {record_file} holds {len(records)} records; pick one "
                               "with --index I")
        return records[0]
    found = [(number, r) for number, r in records if r.get("index") == index]
    if not found:
        raise CardlabError(f"--record {record_file} has no record with index {index}; it has "
                           + ", ".join(str(r.get("index")) for _, r in records[:10]))
    return found[0]


@contextmanager
def readable(record_file: Path | None):
    """A record of a file that lacks what game-records.md says it holds is one line."""
    try:
        yield
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if record_file is None:
            raise
        raise CardlabError(f"--record {record_file}: not a game record as docs/game-records.md "
                           f"describes it ({type(exc).__name__}: {exc})") from None


def trace(spec, index: int) -> dict[str, Any]:
    """The record of game (match, deal) ``index`` of a run spec (the game's records module)."""
    from analyzer.engines.kernel import records_module

    return records_module(spec.game).unit_record(spec, index)


def _half(row: dict, key: str) -> float | None:
    low, high = row.get(f"{key}_low" if key else "low"), row.get(f"{key}_high" if key else "high")
    if low is None or high is None:
        return None
    return (high - low) / 2


def _est(value: float | None, half: float | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    if half is None or half == 0:
        return numbers.number(value, 2, signed)
    return numbers.interval(value, half, signed=signed)


def table(result: dict[str, Any], game: str) -> str:
    """The analysis as text: the recommendation and the model first, then the position, then
    one line per move, best first."""
    pos = result["position"]
    lines = [result["recommendation"], result["model"], position_line(pos, game)]
    if "typed" in pos:
        lines.append(f"Typed by hand: cardlab analyze {game} {pos['typed']}")
    unit = pos["unit"]
    lines.append(f"Values: {unit}; {numbers.count(pos['worlds'])} worlds, seed {pos['seed']}; "
                 "95% intervals; 'vs best' is paired (the same worlds for every move)"
                 " and widened for the best having been picked among the moves.")
    if "intervals" in pos:
        lines.append(f"Note: {pos['intervals']}.")
    # the value shown beside the main one: the one the game's rows carry (card points, or a
    # match's win chance)
    extra = next((k for k in ("points", "win") if result["moves"] and k in result["moves"][0]),
                 None)
    title = {"points": "card points", "win": "match win"}.get(extra, "")
    head = f"  {'move':<10} {'value':<18} {'vs best':<20}" + (f" {title:<16}" if extra else "")
    lines.append(head.rstrip())
    for row in result["moves"]:
        diff = "best" if row["best"] else f"same as {row['same_as']}" if row.get("same_as") \
            else _est(row["diff"], _half(row, "diff"), signed=True)
        line = f"  {row['move']:<10} {_est(row['value'], _half(row, '')):<18} {diff:<20}"
        if extra == "points":
            line += f" {_est(row['points'], _half(row, 'points')):<16}"
        elif extra == "win":
            half = _half(row, "win")
            text = (numbers.percent(row["win"]) if not half else
                    numbers.interval(row["win"], half, percent=True))
            line += f" {text:<16}"
        lines.append(line.rstrip())
    return "\n".join(lines)


def position_line(pos: dict[str, Any], game: str) -> str:
    """One or two lines saying whose move it is and what they know (the game's command-line
    module words them: its ``position_line``)."""
    from analyzer.games import registry

    return registry.load(registry.get(game).part("cli")).position_line(pos)


def emit(result: dict[str, Any], game: str, fmt: str) -> None:
    if fmt == "json":
        typer.echo(json.dumps(result))
    else:
        typer.echo(table(result, game))


@analyze_app.command("ass")
def analyze_ass(
    run: Path = typer.Option(None, "--from", help=FROM_HELP),
    record_file: Path = typer.Option(None, "--record", help=RECORD_HELP),
    index: int = typer.Option(None, "--index", help=INDEX_HELP),
    move: int = typer.Option(None, "--move", help="With --from or --record: the position "
                             "before play K of the game (0 = its first play; every play of "
                             "the record counts, passes included)."),
    game_in_match: int = typer.Option(None, "--game-in-match", help="With a match: the game "
                                      "of the match (0 = the first)."),
    hand: str = typer.Option(None, "--hand", help="Typed position: your hand, e.g. "
                             "'2 2 5 9 J A' or '2 2 5 9 joker ass' (card names: "
                             "docs/analyzing.md)."),
    players: int = opt.players(4, "Typed position: players, 3 to 12."),
    seat: int = typer.Option(0, "--seat", help="Typed position: your seat (0 = the first)."),
    sizes: str = typer.Option(None, "--sizes", help="Typed position: every seat's hand size "
                              "now, seat 0 first, e.g. 13,12,13,10; at the game's first play "
                              "(nothing --gone) it follows from --players."),
    round_: str = typer.Option(None, "--round", help="Typed position: the plays of this round "
                               "before you, from its starter, separated by '/', e.g. "
                               "'7 7 / pass'; none: you lead."),
    gone: str = typer.Option(None, "--gone", help="Typed position: the cards that have left "
                             "the game (played in earlier normal rounds)."),
    known: list[str] = typer.Option([], "--known", help="Typed position: SEAT:CARDS another "
                                    "seat is known to hold (the ass, cards it took in an ass "
                                    "round); repeat per seat. At the game's first play the "
                                    "round's starter holds the ass unless this says otherwise."),
    just_took_ass: bool = typer.Option(False, "--just-took-ass", help="Typed position: you "
                                       "took the ass last round and may not lead it (A-8)."),
    totals: str = typer.Option(None, "--totals", help="Typed position in a match: every "
                               "seat's minus points before this game."),
    game: str = typer.Option(None, "--game", help="Typed position in a match: G/K, game G "
                             "(1 first) of K."),
    worlds: int = typer.Option(default_worlds("ass"), "--worlds", help=WORLDS_HELP),
    seed: int = opt.seed(help=SEED_HELP),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    continuation: str = typer.Option(None, "--continuation", help=CONTINUATION_HELP),
) -> None:
    """What to play, and every legal move's expected minus points at the end of the game.

    One recommendation first, in the voice of the strongest player (pimc's worlds and
    evaluation), then each value with its 95% interval, and each move's difference to the
    best with a paired interval (the same sampled worlds for every move); docs/analyzing.md.

    Example: cardlab analyze ass --hand '3 3 8 J' --players 4 --sizes 4,6,5,9
    --gone '1 1 2' --known 3:A
    """
    from analyzer.analysis import ass

    check_common(worlds, seed, fmt, game="ass", continuation=continuation)
    pos = ass_position(run, record_file, index, move, game_in_match, hand, players, seat,
                       sizes, round_, gone, known, just_took_ass, totals, game)
    emit(ass.analyze(pos, worlds, seed, continuation=continuation), "ass", fmt)


def ass_position(run, record_file, index, move, game_in_match, hand, players, seat, sizes,
                 round_, gone, known, just_took_ass, totals, game):
    """The position of ``analyze ass``'s options (exactly one source)."""
    from analyzer.analysis import ass

    typed_given = [name for name, value in (
        ("--sizes", sizes), ("--round", round_), ("--gone", gone), ("--known", known or None),
        ("--just-took-ass", just_took_ass or None), ("--totals", totals), ("--game", game))
        if value is not None]
    if hand is not None:
        if run is not None or record_file is not None or move is not None:
            raise CardlabError("give a typed position (--hand ...) or a recorded one (--from "
                               "or --record with --move), not both")
        return ass.typed(players, seat, hand, sizes, round_, gone, list(known),
                         just_took_ass, totals, game)
    if typed_given:
        raise CardlabError(f"{typed_given[0]} describes a typed position: give --hand too")
    if run is None and record_file is None:
        raise CardlabError("give a position: --from RUN --index I --move K, --record FILE "
                           "--move K, or --hand CARDS with the public situation")
    if move is None:
        raise CardlabError("--move K is needed with --from or --record (0 = the first play)")
    record = load_record("ass", run, record_file, index)
    with readable(record_file):
        return ass.from_record(record, move, game_in_match)


@analyze_app.command("jass")
def analyze_jass(
    run: Path = typer.Option(None, "--from", help=FROM_HELP),
    record_file: Path = typer.Option(None, "--record", help=RECORD_HELP),
    index: int = typer.Option(None, "--index", help=INDEX_HELP),
    deal: int = typer.Option(None, "--deal", help="With --from or --record: the deal of the "
                             "match (0 = the first; default 0)."),
    move: int = typer.Option(None, "--move", help="With --from or --record: the position "
                             "before card K of the deal (0 = its first card)."),
    hand: str = typer.Option(None, "--hand", help="Typed position: your hand now, e.g. "
                             "'B6 B9 S10 RU AA' or 'Schellen-6 Rosen-Under Eicheln-Ass' (card "
                             "names: docs/analyzing.md)."),
    players: int = opt.players(4, "Typed position: players, 3 or 4."),
    tricks: str = typer.Option(None, "--tricks", help="Typed position: every card of the deal "
                               "so far in playing order, tricks separated by '/', e.g. "
                               "'R10 RK A6 RA / B6'; none: the first card."),
    first: int = typer.Option(0, "--first", help="Typed position: the seat that led the first "
                              "trick (the seat after the dealer)."),
    seat: int = typer.Option(None, "--seat", help="Typed position: your seat (checked: it must "
                             "be the seat to play after --tricks)."),
    trump: str = typer.Option(None, "--trump", help="Typed position: the trump suit (checked "
                              "against --tricks), or none."),
    ruleset: str = opt.ruleset(help="Typed position: " + opt.RULESET_HELP),
    sticks: str = typer.Option(None, "--sticks", help="Typed position in a match: every "
                               "seat's stick total before this deal, e.g. 3,1,4,2."),
    ties: list[str] = typer.Option([], "--ties", help="Typed position in a match: a remembered "
                                   "tie A-B (J-9); repeat for more."),
    worlds: int = typer.Option(default_worlds("jass"), "--worlds", help=WORLDS_HELP),
    seed: int = opt.seed(help=SEED_HELP),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    continuation: str = typer.Option(None, "--continuation", help=CONTINUATION_HELP),
) -> None:
    """What to play, and every legal card's expected sticks from the deal and card points.

    One recommendation first, in the voice of the strongest player (pimc's worlds and
    evaluation), then each value with its 95% interval, and each card's difference to the
    best with a paired interval (the same sampled worlds for every card); docs/analyzing.md.

    Example: cardlab analyze jass --hand 'B6 B9 S10 SU R7 RO A6 AU' --tricks 'R10 RK R6 RA'
    """
    from analyzer.analysis import jass

    check_common(worlds, seed, fmt, game="jass", continuation=continuation)
    given = [name for name, value in (("--tricks", tricks), ("--seat", seat), ("--trump", trump),
                                      ("--sticks", sticks), ("--ties", ties or None))
             if value is not None]
    if hand is not None:
        if run is not None or record_file is not None or move is not None or deal is not None:
            raise CardlabError("give a typed position (--hand ...) or a recorded one (--from "
                               "or --record with --move), not both")
        pos = jass.typed(players, hand, tricks, first, seat, trump, ruleset, sticks, list(ties))
    else:
        if given:
            raise CardlabError(f"{given[0]} describes a typed position: give --hand too")
        if run is None and record_file is None:
            raise CardlabError("give a position: --from RUN --index I --move K, --record FILE "
                               "--move K, or --hand CARDS with the tricks so far")
        if move is None:
            raise CardlabError("--move K is needed with --from or --record (0 = the deal's "
                               "first card)")
        record = load_record("jass", run, record_file, index)
        with readable(record_file):
            pos = jass.from_record(record, deal or 0, move)
    emit(jass.analyze(pos, worlds, seed, continuation=continuation), "jass", fmt)


# --- replay --analyze ---------------------------------------------------------------------

ANALYZE_HELP = ("Annotate every move of the chosen seats (--seat) with what it lost against "
                "the best move (paired 95% interval) and a label inaccuracy / mistake / "
                "blunder (docs/analyzing.md).")
SEAT_HELP = ("With --analyze: a seat to annotate (a player in a Who's the Ass? match); "
             "repeat for more; default all.")
ANALYSIS_SEED_HELP = "With --analyze: seed of the analysis (0..2**63-1)."


def check_analyze_options(analyze: bool, seats: list[int], worlds: int | None, seed: int,
                          fmt: str, players: int | None = None,
                          continuation: str | None = None, game: str | None = None) -> None:
    """The --analyze options of a replay, checked before any work: without --analyze, each
    of them given is refused (none is silently ignored). ``worlds`` None: the game's
    default."""
    if not analyze:
        given = ["--seat"] if seats else []
        given += [flag for name, flag in (("worlds", "--worlds"),
                                          ("analysis_seed", "--analysis-seed"),
                                          ("fmt", "--format"),
                                          ("continuation", "--continuation")) if _given(name)]
        if given:
            raise CardlabError(f"{given[0]} applies with --analyze")
        return
    check_common(default_worlds(game) if worlds is None else worlds, seed, fmt,
                 "--analysis-seed", game, continuation)
    for s in seats:
        if s < 0 or (players is not None and s >= players):
            top = "" if players is None else f" to {players - 1}"
            raise CardlabError(f"--seat must be 0{top}; got {s}")


def _given(name: str) -> bool:
    """Whether the running command's parameter ``name`` was given (on the command line or by
    an environment variable), not left at its default."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    if ctx is None:
        return False
    source = ctx.get_parameter_source(name)
    return source is not None and source not in (ParameterSource.DEFAULT,
                                                 ParameterSource.DEFAULT_MAP)


def show_analysis(game: str, record: dict[str, Any], seats: list[int], worlds: int | None,
                  seed: int, fmt: str, html: Path | None = None, force: bool = False,
                  continuation: str | None = None) -> None:
    """Print the annotation of a record (analysis.annotate.annotate_game); with ``html``, also
    write the game viewer page with each move's loss beside the best move and the evaluation
    graph of every seat after every move (analysis.timeline.game_timeline)."""
    from analyzer.analysis.annotate import annotate_game

    n = record["players"]
    bad = [s for s in seats if not 0 <= s < n]
    if bad:
        raise CardlabError(f"--seat must be 0 to {n - 1}; got {bad[0]}")
    ann = annotate_game(game, record, seats=sorted(set(seats)) or None, worlds=worlds,
                        seed=seed, continuation=continuation)
    typer.echo(json.dumps(ann) if fmt == "json" else annotation_text(ann, record))
    if html is not None:
        from analyzer.analysis.timeline import game_timeline
        from analyzer.cli.atomic import write_html

        # the page's evaluation graph: every seat after every move, on the worlds (and the
        # seed) of the analysis, so the mover's point is the value of the move it played
        page = {**ann, "timeline": game_timeline(game, record, worlds=worlds, seed=seed)}
        try:
            write_html(html, record, force, page, err=fmt != "table")
        except ValueError as exc:  # the annotation does not fit the record: a bug, said plainly
            raise CardlabError(f"the analysis does not fit the game's moves ({exc}); "
                               "--html not written") from None


def annotation_text(ann: dict[str, Any], record: dict[str, Any]) -> str:
    """The annotation as text: the analysed moves with their loss and label, then the
    per-player summary."""
    game, unit = ann["game"], ann["unit"]
    t = ann["thresholds"]
    from analyzer.games.registry import title

    lines = [f"Analysis of {title(game)}"
             f" seed {record.get('seed')}, index {record.get('index')}: each move's loss in "
             f"{unit} against the best move (paired 95% intervals, widened for the pick of "
             f"the best), {numbers.count(ann['worlds'])} worlds per move, analysis seed "
             f"{ann['seed']}.",
             ann["model"],
             f"Labels when the loss is clear: inaccuracy >= {t['inaccuracy']:g}, mistake >= "
             f"{t['mistake']:g}, blunder >= {t['blunder']:g} {unit}; forced moves are left out.",
             "Games, deals and moves are counted from 1, as the --html viewer shows them "
             "(analyze's --game-in-match, --deal and --move count from 0)."]
    if "intervals" in ann:
        lines.append(f"Note: {ann['intervals']}.")
    # the part of the record a move belongs to (a deal; a game of a match), as its entry names it
    where = next((k for k in ("deal", "game") if ann["moves"] and k in ann["moves"][0]), None)
    for m in ann["moves"]:
        if not m["analysed"] or m["forced"]:
            continue
        at = f"{where} {m[where] + 1} " if where else ""  # counted from 1, as the viewer
        loss = _est(m["loss"], None if m["loss_low"] is None else
                    (m["loss_high"] - m["loss_low"]) / 2)
        best = "" if m["loss"] == 0 and m["move"] == m["best"] else f"best {m['best']}, "
        lines.append(f"  {at}move {m['index'] + 1:3d} seat {m['seat']}: {m['move']:<10} "
                     f"{best}loss {loss}" + (f"  {m['label'].upper()}" if m["label"] else ""))
    key = "player" if ann["players"] and "player" in ann["players"][0] else "seat"
    lines.append("Summary (lost to clear errors):")
    for p in ann["players"]:
        half = (p["lost_high"] - p["lost_low"]) / 2
        lines.append(f"  {key} {p[key]}: {p['moves']} moves analysed, {p['inaccuracy']} "
                     f"inaccuracies, {p['mistake']} mistakes, {p['blunder']} blunders; lost "
                     f"{_est(p['lost'], half)} {unit}")
    return "\n".join(lines)

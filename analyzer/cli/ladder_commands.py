"""``cardlab study ladder`` (every strategy rated on mixed tables) and ``cardlab study
best-response`` (how much one seat gains at a table by playing differently) and ``cardlab
study fields`` (the joker answer across fields of opponents)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from analyzer.cli import options as opt
from analyzer.cli.study_commands import (
    DEFAULT_OUT,
    OUT_HELP,
    _backend,
    _finish,
    parse_ints,
    rules_with_ruleset,
    study_app,
)
from analyzer.errors import CardlabError
from analyzer.studies.defaults import FIELDS, LADDER_SLOW_SHARE, TRUMP_FIELDS, words

FIELD_ALIAS = typer.Option([], "--field", "-f", hidden=True)  # the old spelling of -s


def _margins() -> str:
    """Each game's declared margin of its default metric, for the help (the descriptions)."""
    from analyzer.games import registry

    out = []
    for name in registry.names():
        game = registry.get(name)
        metric = game.mode("").default_metric
        measure = game.measure(metric)
        out.append(f"{name} {measure.margin if measure else 0:g} of {metric}")
    return ", ".join(out)


@study_app.command("ladder")
def study_ladder(
    game: str = typer.Option("ass,jass", help="ass, jass, or both (ass,jass)."),
    strategy: list[str] = opt.strategy([], "Strategies to rate (default: every registered "
                                           "one but those tagged not-a-player; slow ones, "
                                           "pimc, play 1/--slow-share of the deals)."),
    include: list[str] = typer.Option([], "--include",
                                      help="Add a strategy tagged not-a-player."),
    players: str = opt.players("4", "Player counts, e.g. 4 or 3-6."),
    games: int = opt.games(2_000, "Deals (Jass: matches) per player count; each is played "
                                  "once per rotation of the strategies."),
    seed: int = opt.seed(),
    mode: str = typer.Option("", "--mode", hidden=True, help="jass: matches or deals."),
    ruleset: str = opt.ruleset(None),
    rule: list[str] = typer.Option([], "--rule", hidden=True, help="Rules option key=value."),
    metric: str = typer.Option(None, help="Result column (default: minus_points for ass, won "
                                          "for jass matches, sticks for deals)."),
    better: str = typer.Option(None, help="lower or higher (needed for other columns)."),
    slow_share: int = typer.Option(LADDER_SLOW_SHARE, "--slow-share",
                                   help="A strategy tagged slow (pimc) enters on 1/this of the "
                                        "deals, at tables of the others."),
    margin: str = typer.Option(None, "--margin",
                               help="The smallest difference the groups count, per deal "
                                    "(match) in the metric's unit (a rate as a fraction): "
                                    f"default each game's ({_margins()}); 0: any clear "
                                    "difference; with both games give game=value pairs, e.g. "
                                    "ass=0.5,jass=0.02."),
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(),
    progress: bool = opt.progress_alias(),
) -> None:
    """Rate every strategy on mixed tables of the same deals, a fresh seating per group of
    deals: ratings with intervals over the seatings, transitive groups, the ranks the
    corrected tests allow, and the pairwise matrix (corrected for all pairs)."""
    from analyzer.studies.ladder import run_ladder

    if slow_share < 1:
        raise CardlabError(f"--slow-share must be at least 1; got {slow_share}")
    games_list = [g.strip() for g in game.split(",") if g.strip()]
    margins = parse_margin(margin, games_list)
    rules = rules_with_ruleset(rule, ruleset)
    backend = _backend(workers, opt.show_progress(quiet, progress), out, ("ladder",))
    result = run_ladder(backend, games_list, strategy or None,
                        parse_ints(players, "--players"), games, seed, mode,
                        rules, metric, better, include=include, slow_share=slow_share,
                        margin=margins)
    _finish(result, out)


def parse_margin(text: str | None, games: list[str]) -> float | dict[str, float] | None:
    """``--margin`` of the ladder: None (each game's own), one number (one game, or 0 for
    any), or ``game=value`` pairs; one line for anything else."""
    if text is None:
        return None

    def number(value: str) -> float:
        from analyzer.numbers import NumberError, parse_float

        try:
            x = parse_float(value.strip(), "--margin")
        except NumberError:
            x = math.nan
        if not math.isfinite(x) or x < 0:
            raise CardlabError(f"--margin needs numbers at least 0 (e.g. 1 or ass=1,jass=0.01);"
                               f" got {text!r}")
        return x

    out = per_game(text, number, f"--margin: give game=value for the games rated "
                                 f"({', '.join(games)}); got {text!r}", games)
    if not isinstance(out, dict) and out != 0 and len(games) > 1:
        raise CardlabError(f"--margin {text}: with several games give game=value pairs "
                           "(e.g. ass=1,jass=0.01): their units differ")
    return out


def per_game(text: str, value: Callable[[str], Any], shape: str,
             games: list[str] | None = None) -> Any:
    """An option given once for all games or as ``game=value`` pairs: ``value(text)``, or
    {game: value(v)}. ``shape`` is the one-line error for a malformed pair or (with
    ``games``) a game not rated; ``value`` raises its own for a bad value."""
    if "=" not in text:
        return value(text.strip())
    out = {}
    for item in text.split(","):
        name, sep, v = item.partition("=")
        name = name.strip()
        if not sep or not name or (games is not None and name not in games):
            raise CardlabError(shape)
        if name in out:  # the last would silently win
            raise CardlabError(f"{shape.split(':')[0]}: {name} is given twice; got {text!r}")
        out[name] = value(v)
    return out


@study_app.command("best-response")
def study_best_response(
    game: str = typer.Option("ass", help="ass, jass, or both (ass,jass: each game's "
                                         "default fields)."),
    strategy: list[str] = opt.strategy([], "A field (its strategy in every other seat); "
                                           "repeat. Default: basic, the strongest hand-made "
                                           "preset, tuned, learned."),
    field: list[str] = FIELD_ALIAS,
    players: str = opt.players("4", "Player counts, e.g. 4 or 3-6."),
    games: str = opt.games("400000", "Tuning budget per field (games or matches); with "
                                     "both games one each, e.g. ass=100000,jass=10000."),
    confirm: int = typer.Option(4_000, help="Held-out deals (matches) for the gain."),
    start: str = typer.Option("heuristic", help="The family to tune, by a strategy of it."),
    knob: list[str] = typer.Option([], "--knob", "-k",
                                   help="Knob to tune (repeat; default: every knob). With "
                                        "both games each tunes the knobs its family has."),
    strong: str = typer.Option("pimc", "--strong",
                               help="The strong player whose gain in one seat against each "
                                    "field is the exploitability measure ('none' to skip)."),
    slow_share: int = typer.Option(10, "--slow-share",
                                   help="The strong player plays 1/this of the held-out "
                                        "deals (it is about 1,000 times slower)."),
    seed: int = opt.seed(),
    mode: str = typer.Option("", "--mode", hidden=True, help="jass: matches or deals."),
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(),
    progress: bool = opt.progress_alias(),
) -> None:
    """How exploitable is a table? The gain of one seat tuned against each field (the best
    response within the tuned family's knobs), and the gain of the search player pimc in that
    seat (the exploitability by strong play), each paired on held-out deals."""
    from analyzer.studies.best_response import run_best_response

    if slow_share < 1:
        raise CardlabError(f"--slow-share must be at least 1; got {slow_share}")
    field = opt.merge_alias(strategy, field, "--strategy", "--field")
    backend = _backend(workers, opt.show_progress(quiet, progress), out, ("best-response",))
    games_list = [g.strip() for g in game.split(",") if g.strip()]
    budget = parse_budgets(games)
    result = run_best_response(backend, games_list if len(games_list) > 1 else game,
                               field or None,
                               parse_ints(players, "--players"), budget, confirm, seed, start,
                               mode, knobs=knob or None,
                               strong=None if strong.strip().lower() == "none" else strong,
                               slow_share=slow_share)
    _finish(result, out)


def parse_budgets(text: str) -> int | dict[str, int]:
    """``--games`` of best-response: one positive count, or ``game=count`` pairs."""
    def positive(value: str) -> int:
        value = value.strip()
        if not (value.isascii() and value.isdigit()) or int(value) < 1:
            raise CardlabError(f"--games needs positive whole numbers; got {text!r}")
        return opt.check_count_bound(int(value), "--games")

    return per_game(text, positive, f"--games: give N or game=N,game=N; got {text!r}")


@study_app.command("fields")
def study_fields(
    strategy: list[str] = opt.strategy([], "A field (its strategy in every other seat); "
                                           f"repeat. Default: {words(FIELDS)}."),
    field: list[str] = FIELD_ALIAS,
    players: str = opt.players("3,4,5,6,8", "Player counts, e.g. 3-8."),
    games: int = opt.games(2_000, "Deals per field and player count."),
    trump_field: list[str] = typer.Option([], "--trump-field",
                                          help="Jass players of the trump question; repeat. "
                                               f"Default: {words(TRUMP_FIELDS)}."),
    trump_deals: int = typer.Option(10_000, help="Deals per trump field, player count (3, 4) "
                                                 "and the seed rule set; 0 skips the trump "
                                                 "question."),
    seats_games: int = typer.Option(20_000, help="Games per field at 4 and 6 players for the "
                                                 "seat effects; 0 skips them."),
    add_field: list[str] = typer.Option([], "--add-field",
                                        help="Add a field to the defaults (or to -s and "
                                             "--trump-field) of each game that has it, e.g. "
                                             "pimc; repeat."),
    slow_share: int = typer.Option(10, "--slow-share",
                                   help="A field tagged slow (pimc) plays 1/this of each "
                                        "budget."),
    seed: int = opt.seed(),
    out: Path = opt.out(DEFAULT_OUT, OUT_HELP),
    workers: int = opt.workers(),
    quiet: bool = opt.quiet(),
    progress: bool = opt.progress_alias(),
) -> None:
    """The joker answer (holding against using jokers, everything else equal), the trump
    answer and the seat effects across fields of opponents, each with a robustness sentence."""
    from analyzer.studies.fields import DEFAULT_FIELDS, TRUMP_FIELDS, run_fields, with_added

    field = opt.merge_alias(strategy, field, "--strategy", "--field")
    if slow_share < 1:
        raise CardlabError(f"--slow-share must be at least 1; got {slow_share}")
    ass_fields, jass_fields = with_added(list(field or DEFAULT_FIELDS),
                                         list(trump_field or TRUMP_FIELDS), add_field)
    backend = _backend(workers, opt.show_progress(quiet, progress), out, ("fields",))
    result = run_fields(backend, ass_fields,
                        parse_ints(players, "--players"), games, seed,
                        jass_fields, trump_deals, seats_games, slow_share=slow_share)
    _finish(result, out)

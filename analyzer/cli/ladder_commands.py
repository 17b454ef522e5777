"""``cardlab study ladder`` (every strategy rated on mixed tables) and ``cardlab study
best-response`` (how much one seat gains at a table by playing differently) and ``cardlab
study fields`` (the joker answer across fields of opponents)."""

from __future__ import annotations

from pathlib import Path

import typer

from analyzer.cli.study_commands import (
    DEFAULT_OUT,
    OUT_HELP,
    WORKERS_HELP,
    _backend,
    _finish,
    parse_ints,
    parse_rules,
    study_app,
)


@study_app.command("ladder")
def study_ladder(
    game: str = typer.Option("ass,jass", help="ass, jass, or both (ass,jass)."),
    strategy: list[str] = typer.Option([], "--strategy", "-s",
                                       help="Strategies to rate (default: every registered "
                                            "one, without those tagged slow or "
                                            "not-a-player)."),
    include: list[str] = typer.Option([], "--include",
                                      help="Add a strategy tagged slow or not-a-player."),
    players: str = typer.Option("4", help="Player counts, e.g. 4 or 3-6."),
    games: int = typer.Option(2_000, help="Deals (Jass: matches) per player count; each is "
                                          "played once per rotation of the strategies."),
    seed: int = typer.Option(5, help="Master seed."),
    mode: str = typer.Option("", help="Game mode (jass: matches or deals)."),
    rule: list[str] = typer.Option([], "--rule", help="Rules option key=value."),
    metric: str = typer.Option(None, help="Result column (default: minus_points for ass, won "
                                          "for jass matches, sticks for deals)."),
    better: str = typer.Option(None, help="lower or higher (needed for other columns)."),
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
) -> None:
    """Rate every strategy on mixed tables of the same deals: ratings, rank intervals, tiers
    and the pairwise matrix (corrected for all pairs)."""
    from analyzer.studies.ladder import run_ladder

    games_list = [g.strip() for g in game.split(",") if g.strip()]
    result = run_ladder(_backend(workers, progress), games_list, strategy or None,
                        parse_ints(players, "--players"), games, seed, mode,
                        parse_rules(rule), metric, better, include=include)
    _finish(result, out)


@study_app.command("best-response")
def study_best_response(
    game: str = typer.Option("ass", help="ass or jass."),
    field: list[str] = typer.Option([], "--field", "-f",
                                    help="A field (its strategy in every other seat); repeat. "
                                         "Default: basic, the strongest hand-made preset, "
                                         "tuned."),
    players: str = typer.Option("4", help="Player counts, e.g. 4 or 3-6."),
    games: int = typer.Option(400_000, help="Tuning budget per field (games or matches)."),
    confirm: int = typer.Option(4_000, help="Held-out deals (matches) for the gain."),
    start: str = typer.Option("heuristic", help="The family to tune, by a strategy of it."),
    seed: int = typer.Option(13, help="Master seed (held-out deals: seed + 1)."),
    mode: str = typer.Option("", help="Game mode (jass: matches or deals)."),
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
) -> None:
    """How exploitable is a table? The gain of one seat tuned against each field."""
    from analyzer.studies.best_response import run_best_response

    result = run_best_response(_backend(workers, progress), game, field or None,
                               parse_ints(players, "--players"), games, confirm, seed, start,
                               mode)
    _finish(result, out)


@study_app.command("fields")
def study_fields(
    field: list[str] = typer.Option([], "--field", "-f",
                                    help="A field (its strategy in every other seat); repeat. "
                                         "Default: basic, careful, tuned, random."),
    players: str = typer.Option("3,4,5,6,8", help="Player counts, e.g. 3-8."),
    games: int = typer.Option(2_000, help="Deals per field and player count."),
    trump_field: list[str] = typer.Option([], "--trump-field",
                                          help="Jass players of the trump question; repeat. "
                                               "Default: adaptive, aim-low, catch-up, tuned."),
    trump_deals: int = typer.Option(10_000, help="Deals per trump field, player count (3, 4) "
                                                 "and the seed rule set; 0 skips the trump "
                                                 "question."),
    seats_games: int = typer.Option(20_000, help="Games per field at 4 and 6 players for the "
                                                 "seat effects; 0 skips them."),
    seed: int = typer.Option(2, help="Master seed."),
    out: Path = typer.Option(DEFAULT_OUT, help=OUT_HELP),
    workers: int = typer.Option(None, help=WORKERS_HELP),
    progress: bool = typer.Option(True, help="Progress bars (only on a terminal)."),
) -> None:
    """The joker answer (holding against using jokers, everything else equal), the trump
    answer and the seat effects across fields of opponents, each with a robustness sentence."""
    from analyzer.studies.fields import DEFAULT_FIELDS, TRUMP_FIELDS, run_fields

    result = run_fields(_backend(workers, progress), field or DEFAULT_FIELDS,
                        parse_ints(players, "--players"), games, seed,
                        trump_field or TRUMP_FIELDS, trump_deals, seats_games)
    _finish(result, out)

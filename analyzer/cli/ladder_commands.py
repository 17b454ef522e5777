"""``cardlab study ladder`` (every strategy rated on mixed tables) and ``cardlab study
best-response`` (how much one seat gains at a table by playing differently) and ``cardlab
study fields`` (the joker answer across fields of opponents). Their options are declared
with the studies (analyzer/studies/registry.py)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from analyzer.cli import options as opt
from analyzer.cli.study_commands import (
    _backend,
    _finish,
    declared,
    parse_ints,
    rules_with_ruleset,
)
from analyzer.errors import CardlabError


def ladder_command(o) -> None:
    """Rate every strategy on mixed tables of the same deals, a fresh seating per group of
    deals: ratings with intervals over the seatings, transitive groups, the ranks the
    corrected tests allow, and the pairwise matrix (corrected for all pairs)."""
    from analyzer.studies.ladder import run_ladder

    games_list = [g.strip() for g in o.game.split(",") if g.strip()]
    margins = parse_margin(o.margin, games_list)
    rules = rules_with_ruleset(o.rule, o.ruleset)
    backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out, ("ladder",))
    result = run_ladder(backend, games_list, o.strategy or None,
                        parse_ints(o.players, "--players"), o.games, o.seed, o.mode,
                        rules, o.metric, o.better, include=o.include, slow_share=o.slow_share,
                        margin=margins)
    _finish(result, o.out)


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


def best_response_command(o) -> None:
    """How exploitable is a table? The gain of one seat tuned against each field (the best
    response within the tuned family's knobs), and the gain of the search player pimc in that
    seat (the exploitability by strong play), each paired on held-out deals."""
    from analyzer.studies.best_response import run_best_response

    field = opt.merge_alias(o.strategy, o.field, "--strategy", "--field")
    backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out,
                       ("best-response",))
    games_list = [g.strip() for g in o.game.split(",") if g.strip()]
    budget = parse_budgets(o.games)
    result = run_best_response(backend, games_list if len(games_list) > 1 else o.game,
                               field or None,
                               parse_ints(o.players, "--players"), budget, o.confirm, o.seed,
                               o.start, o.mode, knobs=o.knob or None,
                               strong=None if o.strong.strip().lower() == "none" else o.strong,
                               slow_share=o.slow_share)
    _finish(result, o.out)


def parse_budgets(text: str) -> int | dict[str, int]:
    """``--games`` of best-response: one positive count, or ``game=count`` pairs."""
    def positive(value: str) -> int:
        value = value.strip()
        if not (value.isascii() and value.isdigit()) or int(value) < 1:
            raise CardlabError(f"--games needs positive whole numbers; got {text!r}")
        return opt.check_count_bound(int(value), "--games")

    return per_game(text, positive, f"--games: give N or game=N,game=N; got {text!r}")


def fields_command(o) -> None:
    """The joker answer (holding against using jokers, everything else equal), the trump
    answer and the seat effects across fields of opponents, each with a robustness sentence."""
    from analyzer.studies.fields import DEFAULT_FIELDS, TRUMP_FIELDS, run_fields, with_added

    field = opt.merge_alias(o.strategy, o.field, "--strategy", "--field")
    ass_fields, jass_fields = with_added(list(field or DEFAULT_FIELDS),
                                         list(o.trump_field or TRUMP_FIELDS), o.add_field)
    backend = _backend(o.workers, opt.show_progress(o.quiet, o.progress), o.out, ("fields",))
    result = run_fields(backend, ass_fields,
                        parse_ints(o.players, "--players"), o.games, o.seed,
                        jass_fields, o.trump_deals, o.seats_games, slow_share=o.slow_share)
    _finish(result, o.out)


declared("ladder", ladder_command)
declared("best-response", best_response_command)
declared("fields", fields_command)

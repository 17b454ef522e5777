"""Study 6: the best-response gain, how much one seat gains at a table by playing differently.

For each field (one strategy in every other seat), the knobs of a family are tuned for one seat
against that field (:mod:`analyzer.tune.tuner`, duplicate format, fresh deals per step), then
the tuned strategy and the field's own strategy each take every seat in turn on *held-out*
deals (another seed). The gain is their paired difference over those deals with its 95%
interval. Because the tuned strategy was chosen on other deals, the held-out estimate carries
no selection bias. The gain is a lower bound on the table's exploitability: it is the best
response *within the family tuned*, found on a finite budget.

A field whose strategy is the tuned one's equal (identical games on every held-out deal) is
its own best response in that family: the gain is exactly 0 and is said so.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from analyzer.errors import CardlabError
from analyzer.games import registry as games_registry
from analyzer.runner.play import Backend, make_spec
from analyzer.stats.intervals import mean_interval
from analyzer.studies.claims import Cell, Claim, difference_kind, half, make_cell, probe, several
from analyzer.studies.compare import metric_for
from analyzer.studies.registry import question
from analyzer.studies.results import StudyResult, base_manifest
from analyzer.text import is_rate, metric_words, pm
from analyzer.tune.space import Space, space_for
from analyzer.tune.tuner import CONFIRM_SEED_OFFSET, Tuner, TuneSettings, check_budget

# {game: the fields a best response plays against by default}: each game's adapter's
# ``default_fields`` (analyzer.games.registry.GameParts)
DEFAULT_FIELDS = games_registry.ByGame(
    lambda d: d.parts.default_fields if d.parts is not None else ())
STRONG = "pimc"  # the strong player whose gain measures a table's exploitability
SLOW_SHARE = 10  # it plays confirm // SLOW_SHARE held-out deals (about 1,000x slower)


def best_response_row(backend: Backend, space: Space, settings: TuneSettings, confirm: int,
                      level: float = 0.95, strong: str | None = None,
                      strong_confirm: int = 0) -> dict[str, Any]:
    """Tune against ``settings.field`` and measure the gain on held-out deals; with
    ``strong``, also the gain of that strategy (the search player) in one seat instead of the
    field's own, on the first ``strong_confirm`` of the same held-out deals, paired."""
    tuner = Tuner(backend, settings, space)
    outcome = tuner.run()
    field = settings.field[0]
    seed = settings.seed + CONFIRM_SEED_OFFSET
    means, prints = tuner.evaluate([outcome.label, field], 0, confirm, seed=seed)
    sign = -1.0 if settings.lower else 1.0
    est = mean_interval(sign * (means[0] - means[1]), level)
    same = prints[0] == prints[1]
    row = {"field": field, "players": settings.players, "response": outcome.label,
           "gain": 0.0 if same else est.value, "low": 0.0 if same else est.low,
           "high": 0.0 if same else est.high, "half": 0.0 if same else est.half,
           "identical": same, "held_out": confirm, "tuning_games": outcome.games,
           "field_mean": float(means[1].mean()), "response_mean": float(means[0].mean())}
    if strong:
        k = max(1, min(strong_confirm, confirm))
        mine, marks = tuner.evaluate([strong], 0, k, seed=seed)
        twin = marks[0] == tuner.evaluate([field], 0, k, seed=seed)[1][0]
        s_est = mean_interval(sign * (mine[0] - means[1][:k]), level)
        row.update({"strong": strong, "strong_gain": 0.0 if twin else s_est.value,
                    "strong_gain_low": 0.0 if twin else s_est.low,
                    "strong_gain_high": 0.0 if twin else s_est.high,
                    "strong_gain_half": 0.0 if twin else s_est.half, "strong_held_out": k,
                    "strong_mean": float(mine[0].mean())})
    return row


def check_budgets(game: str, players: Sequence[int], budget: int, start: str = "heuristic",
                  knobs: Sequence[str] | None = None) -> None:
    """One line (CardlabError) when ``budget`` cannot tune ``knobs`` of ``start``'s family at
    one of ``players``: checked before any game is played (``study all`` checks its scaled
    budgets with it before the first study)."""
    space = space_for(game, start, list(knobs) if knobs else None)
    for n in players:
        try:
            check_budget(budget, n, space)
        except CardlabError as exc:
            raise CardlabError(f"best response ({game}, {n} players): {exc}") from None


def own_knobs(game: str, start: str, knobs: Sequence[str] | None) -> list[str]:
    """Those of ``knobs`` that the family of ``start`` has in ``game`` ([] for all)."""
    names = [k.name for k in space_for(game, start).knobs]
    return [k for k in knobs or () if k in names]


def _cells(result: StudyResult, game: str, row: pd.Series, parts: list[tuple[str, str, dict]]
           ) -> list[tuple[Claim, Cell]]:
    """Cells of ``row`` (a field at a player count) of table ``gains``: one per (kind, metric,
    extra) of ``parts``."""
    out = []
    for kind, metric, extra in parts:
        reader = probe(game, "best-response", kind, "gains", extra={"key": "field", **extra})
        out.append((reader, make_cell(reader, result, int(row["players"]), str(row["field"]),
                                      metric, field_=str(row["field"]))))
    return out


def _is(column: str, value: Any) -> tuple[str, str, dict]:
    return ("equals", column, {"equals": str(value)})


EXACT = {"exact": True}


def _amount(value: float, half_: float, metric: str) -> str:
    """A gain in the metric's unit, for a rate in percentage points (as the ladder says it).

    >>> _amount(0.1414, 0.0091, "won")
    '14.1 ± 0.9 percentage points of'
    >>> _amount(-21.83, 0.8, "minus_points")
    '-21.8 ± 0.8'
    """
    if is_rate(metric):
        return f"{pm(value * 100, half_ * 100)} percentage points of"
    return pm(value, half_)


def _claim(result: StudyResult, row: pd.Series, game: str, metric: str, lower: bool,
           unit: str) -> Claim:
    """The best response within the family's knobs against one field, as a claim on its row
    of table ``gains``."""
    words = metric_words(metric)
    units = unit + ("es" if unit.endswith("ch") else "s")
    table = (f"a {games_registry.title(game)} table of {row['players'] - 1} x {row['field']} "
             f"({row['players']} players)")
    family = row.get("family", "tuned")
    shared = [_is("family", family), ("value", "held_out", EXACT)]
    if row["identical"]:
        parts = _cells(result, game, row, [_is("identical", True), *shared])
        held = int(parts[-1][1].value)
        sentence = (f"At {table}, {row['field']} is its own best response within the "
                    f"{family} knobs: the tuned seat plays exactly as it on "
                    f"all {held:,} held-out {units} (gain 0).")
        return several(f"best-response-{game}-{row['field']}-{row['players']}", sentence, parts,
                       game=game, study="best-response", question=question("best-response"))
    verb = "saves" if lower else "gains"
    kind = difference_kind(float(row["low"]), float(row["high"]))
    parts = _cells(result, game, row, [
        (kind, "gain", {}), _is("identical", False), _is("response", row["response"]),
        *shared, ("value", "tuning_games", EXACT)])
    gain, held, tuned = parts[0][1], int(parts[-2][1].value), int(parts[-1][1].value)
    if kind == "negative":  # the field plays better than any setting of the knobs
        more = "costs" if lower else "gets"
        sentence = (f"At {table}, {row['field']} plays better than any setting the tuning "
                    f"found within the {family} knobs: its pick, {row['response']}, {more} "
                    f"{_amount(-gain.value, half(gain), metric)} "
                    f"{'more ' + words if lower else words + ' less'} per {unit} than "
                    f"{row['field']} in that seat on {held:,} held-out {units} "
                    f"(tuned on {tuned:,}).")
    elif gain.value <= 0:  # the tuning's pick did not hold up on held-out deals
        sentence = (f"At {table}, the tuning within the {family} knobs found "
                    f"nothing better than {row['field']}: its pick, "
                    f"{row['response']}, {verb} {_amount(gain.value, half(gain), metric)} {words} "
                    f"per {unit} "
                    f"on {held:,} held-out {units} (tuned on {tuned:,}; "
                    "a bigger budget may still find a gain).")
    else:
        clear = "" if kind == "positive" else " (not clearly more than nothing)"
        sentence = (f"At {table}, one seat {verb} {_amount(gain.value, half(gain), metric)} "
                    f"{words} per "
                    f"{unit}{clear} by playing {row['response']} instead of {row['field']} (the "
                    f"best response within the {family} knobs): tuned on "
                    f"{tuned:,} {units} against that table, measured on "
                    f"{held:,} held-out {units}, each in every seat.")
    return several(f"best-response-{game}-{row['field']}-{row['players']}", sentence, parts,
                   game=game, study="best-response", question=question("best-response"))


def _strong_claim(result: StudyResult, row: pd.Series, game: str, metric: str, lower: bool,
                  unit: str) -> Claim:
    """The strong player's gain at the table: the exploitability beyond one family's knobs."""
    words = metric_words(metric)
    units = unit + ("es" if unit.endswith("ch") else "s")
    table = (f"a {games_registry.title(game)} table of {row['players'] - 1} x {row['field']} "
             f"({row['players']} players)")
    verb = "saves" if lower else "gains"
    kind = difference_kind(float(row["strong_gain_low"]), float(row["strong_gain_high"]))
    parts = _cells(result, game, row, [(kind, "strong_gain", {}), _is("strong", row["strong"]),
                                       ("value", "strong_held_out", EXACT)])
    gain, held = parts[0][1], int(parts[-1][1].value)
    clear = {"positive": "clearly", "negative": "clearly loses, not gains,",
             "unclear": "not clearly"}[kind]
    sentence = (f"At {table}, the search player {row['strong']} in one seat {verb} "
                f"{_amount(gain.value, half(gain), metric)} {words} per {unit} ({clear}) "
                f"against {row['field']} in that seat, on the first {held:,} of "
                f"the same held-out {units}, each in every seat: how far the table can be "
                "exploited by strong play, beyond any knob setting.")
    return several(f"best-response-{game}-{row['field']}-{row['players']}-{row['strong']}",
                   sentence, parts, game=game, study="best-response",
                   question=question("best-response"))


def _range_claim(result: StudyResult, game: str, metric: str, unit: str) -> Claim | None:
    """The smallest and largest gain over the tables of ``game``."""
    table = result.table("gains")
    table = table[table["game"].astype(str) == game] if "game" in table else table
    if len(table) < 2:
        return None
    parts = []
    for better, at in (("lower", table["gain"].idxmin()), ("higher", table["gain"].idxmax())):
        row = table.loc[at]
        reader = probe(game, "best-response", "best", "gains", better=better,
                       extra={"key": "field", "all_players": True})
        parts.append((reader, make_cell(reader, result, int(row["players"]), str(row["field"]),
                                        "gain")))

    def said(cell: Cell) -> str:
        if cell.value == 0 and cell.low == cell.high:
            return f"0 (against {cell.choice}, its own best response)"
        amount = _amount(cell.value, half(cell), metric).removesuffix(" of")
        return f"{amount} (against {cell.choice})"

    lo, hi = parts[0][1], parts[1][1]
    words = ("of " if is_rate(metric) else "") + metric_words(metric)
    sentence = (f"Across the {len(table)} tables, the best-response gain ranges from {said(lo)} "
                f"to {said(hi)} {words} per {unit}; each interval is 95% on its "
                "own (separate held-out runs), and each gain is a lower bound: the best response "
                "within the family tuned, on a finite budget.")
    return several(f"best-response-{game}-range", sentence, parts, game=game,
                   study="best-response", question=question("best-response"))


def run_best_response(
    backend: Backend,
    game: str | Sequence[str],
    fields: Sequence[str] | None = None,
    players: Sequence[int] = (4,),
    games: int | Mapping[str, int] = 100_000,
    confirm: int = 4000,
    seed: int = 13,
    start: str = "heuristic",
    mode: str = "",
    metric: str | None = None,
    better: str | None = None,
    level: float = 0.95,
    knobs: Sequence[str] | None = None,
    strong: str | None = STRONG,
    slow_share: int = SLOW_SHARE,
) -> StudyResult:
    """The best-response gain against each field (one strategy in every other seat).

    ``game`` may name several games (then ``fields`` must be None: each game's default
    fields): one result whose table carries the ``game`` column and whose manifest has the
    games' metrics under ``by_game``. ``knobs`` (default: every knob of the family) are the
    knobs tuned; with several games each game tunes those of its own family. ``games`` may
    map each game to its own tuning budget (a Who's the Ass? game costs a fraction of a Jass
    match, and is far noisier). ``strong`` (default ``pimc``; None for none) also plays one
    seat against each field on ``confirm // slow_share`` of the held-out deals: its gain is
    the exploitability measure beyond the family's knobs.
    """
    if isinstance(game, str) and isinstance(games, Mapping):
        if game not in games:
            raise CardlabError(f"no tuning budget for {game} in {dict(games)}")
        games = games[game]
    if not isinstance(game, str):
        games_list = list(dict.fromkeys(game))
        if len(games_list) > 1:
            if fields:
                raise CardlabError("name fields only when the best response is for one game")
            if confirm < 10:
                raise CardlabError(f"--confirm needs at least 10 held-out deals, got {confirm}")
            own = {}
            for g in games_list:  # every game's input is checked before any game is played
                own[g] = own_knobs(g, start, knobs)
                for f in DEFAULT_FIELDS.get(g, ()):
                    backend.canonical(g, f)
                if isinstance(games, Mapping) and g in games and (own[g] or not knobs):
                    check_budgets(g, players, games[g], start, own[g] or None)
            stray = [k for k in knobs or () if not any(k in v for v in own.values())]
            if stray:
                raise CardlabError(f"knob {stray[0]!r} belongs to none of the games "
                                   f"{', '.join(games_list)}")
            missing = [g for g in games_list if isinstance(games, Mapping) and g not in games]
            if missing:
                raise CardlabError(f"no tuning budget for {missing[0]}: give ass=N,jass=M")
            bare = [g for g in games_list if knobs and not own[g]]
            if bare:
                raise CardlabError(f"name at least one knob of {bare[0]} too (or none at all)")
            parts = [run_best_response(backend, g, None, players, games, confirm, seed, start,
                                       mode, metric, better, level, own[g] or None, strong,
                                       slow_share)
                     for g in games_list]
            keys = ("mode", "metric", "better", "field", "start", "knobs", "elapsed_s")
            manifest = {**parts[0].manifest, "game": games_list, "knobs": list(knobs or []),
                        "games": dict(games) if isinstance(games, Mapping) else games,
                        "field": [f for p in parts for f in p.manifest["field"]],
                        "by_game": {g: {k: p.manifest[k] for k in keys}
                                    for g, p in zip(games_list, parts, strict=True)}}
            both = StudyResult("best-response",
                               {"gains": pd.concat([p.table("gains") for p in parts],
                                                   ignore_index=True)}, manifest)
            return both.say([c for p in parts for c in p.claims])
        game = games_list[0]
    if confirm < 10:
        raise CardlabError(f"--confirm needs at least 10 held-out deals, got {confirm}")
    if isinstance(games, Mapping):  # one game left from several: its own budget
        if game not in games:
            raise CardlabError(f"no tuning budget for {game} in {dict(games)}")
        games = games[game]
    t0 = time.perf_counter()
    labels = [backend.canonical(game, f) for f in (fields or DEFAULT_FIELDS.get(game, ()))]
    if not labels:
        raise CardlabError("name at least one field")
    check_budgets(game, players, games, start, knobs)
    space = space_for(game, start, list(knobs) if knobs else None)
    start_label = backend.canonical(game, start)
    strong_label = backend.canonical(game, strong) if strong else None
    if slow_share < 1:
        raise CardlabError(f"--slow-share must be at least 1, got {slow_share}")
    rows = []
    mode_used = mode
    for n in players:
        probe = make_spec(backend, game, n, [labels[0]] * n, seed, mode=mode)
        mode_used = probe.mode
        col, lower = metric_for(game, probe.mode, metric, better)
        unit = games_registry.get(game).mode(probe.mode).unit
        for f in labels:
            settings = TuneSettings(game, n, (f,), start_label,
                                    tuple(k.name for k in space.knobs), games, seed, col, lower,
                                    probe.mode)
            row = best_response_row(backend, space, settings, confirm, level, strong_label,
                                    confirm // slow_share)
            row["family"] = start_label
            rows.append({"game": game, **row})
    table = pd.DataFrame(rows)
    col, lower = metric_for(game, mode_used, metric, better)
    unit = games_registry.get(game).mode(mode_used).unit
    manifest = base_manifest(
        "best-response", game=game, mode=mode_used, seed=seed, games=games, confirm=confirm,
        players=list(players), field=labels, start=start_label,
        knobs=[k.name for k in space.knobs] if knobs else [], metric=col,
        strong=strong_label, slow_share=slow_share,
        better="lower" if lower else "higher", level=level,
        design="tuned for one seat against each field (halving + CMA-ES, fresh deals per "
               "step), then tuned vs the field's own strategy, each in every seat, on "
               f"held-out deals (seed + {CONFIRM_SEED_OFFSET})",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    result = StudyResult("best-response", {"gains": table}, manifest)
    claims = []
    for _, row in table.iterrows():
        claims.append(_claim(result, row, game, col, lower, unit))
        if strong_label:
            claims.append(_strong_claim(result, row, game, col, lower, unit))
    last = _range_claim(result, game, col, unit)
    return result.say(claims + ([last] if last else []))

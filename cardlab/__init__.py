"""cardlab from Python: play games, compare strategies and read run folders into pandas.

The same engines, strategies and statistics as the ``cardlab`` command line, for notebooks and
scripts. Every table names the strategy of each seat, and every estimate carries its 95%
interval. A game is identified by ``(seed, index)``: the same call gives the same rows.

>>> import cardlab
>>> rows = cardlab.simulate("ass", 4, ["careful", "basic", "basic", "basic"], games=200, seed=7)
>>> print(rows[["index", "seat", "strategy", "minus_points"]].head(4).to_string(index=False))
 index  seat strategy  minus_points
     0     0  careful            74
     0     1    basic             0
     0     2    basic            21
     0     3    basic            52
>>> table = cardlab.summarize(rows)
>>> list(table.columns[:4])
['seat', 'strategy', 'n', 'minus_points']
>>> bool((table["minus_points_low"] <= table["minus_points"]).all())
True

Strategies are given as on the command line (``"pimc:worlds=64"``): one strategy for every
seat, or one per seat (``["careful", "basic", "basic", "basic"]``, seat 0 first).
Errors are :class:`CardlabError` with the one line the command line prints.

The names:

- :func:`simulate`: the per-seat rows of a range of games (matches, deals) in memory.
- :func:`summarize`: per seat, each measure's mean and 95% interval.
- :func:`load_run`: the rows of a run folder written by ``cardlab simulate --out``, verified;
  an unfinished run is refused unless asked for (then flagged in ``rows.attrs``).
- :func:`match_details`: one row per seat of each deal of a Jass match or each game of a
  Who's the Ass? evening.
- :func:`compare`: strategies in the duplicate format (every strategy in every seat of the
  same deals), ranked with paired intervals (``cardlab study compare``).
- :func:`analyze`: every legal move of a typed position, valued with intervals
  (``cardlab analyze``).
- :func:`strategies`: the registered strategies of a game.

Both games one move at a time (OpenSpiel's ``State`` interface) are in :mod:`cardlab.games`;
a bot written against it in plain Python (an object with ``act(state, seat) -> action``) can
take a seat in :func:`simulate` and :func:`compare` beside the registered strategies, slowly
(the readable reference engine plays its tables, one process; :mod:`cardlab.games.play`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from analyzer.errors import CardlabError
from analyzer.seeds import DEFAULT_SEED

__all__ = [
    "CardlabError",
    "analyze",
    "Comparison",
    "compare",
    "load_run",
    "match_details",
    "simulate",
    "strategies",
    "summarize",
]


def _per_seat(entries: list, players: int) -> list:
    """One entry per seat: one for every seat, or one per seat (else a one-line error)."""
    if len(entries) == 1:
        entries = entries * players
    if len(entries) != players:
        raise CardlabError(f"{len(entries)} strategies for {players} players; give one for "
                           "every seat, or one per seat")
    return entries


def _check_count(count: object, what: str) -> None:
    if not isinstance(count, int) or count < 1:
        raise CardlabError(f"{what} must be a whole number of at least 1, got {count!r}")


def _facts(spec: Any, start: int, count: int) -> dict[str, Any]:
    """What ``rows.attrs`` says of the rows of ``count`` units of ``spec`` from ``start``."""
    return {"game": spec.game, "mode": spec.mode, "players": spec.players, "seed": spec.seed,
            "rules": dict(spec.rules), "start": start, "count": count, "complete": True}


def _seat_strategies(game: str, players: int, strategies: str | Sequence[str]) -> tuple[str, ...]:
    """One canonical strategy label per seat (one for all seats, or one per seat)."""
    from strategies.registry import parse_strategy

    texts = _per_seat([strategies] if isinstance(strategies, str) else list(strategies), players)
    return tuple(parse_strategy(game, t).label() for t in texts)


def _with_strategies(rows: pd.DataFrame, labels: Sequence[str], meta: dict[str, Any],
                     who: str = "seat") -> pd.DataFrame:
    """``rows`` with a ``strategy`` column after ``who`` (the seat, or the player of a
    Who's the Ass? evening) and the run's facts in ``attrs``."""
    seats = rows[who].to_numpy()
    rows.insert(list(rows.columns).index(who) + 1, "strategy",
                pd.Categorical.from_codes(seats, categories=list(dict.fromkeys(labels)))
                if len(set(labels)) == len(labels) else
                pd.Series([labels[s] for s in seats], index=rows.index, dtype="string"))
    rows.attrs.update(meta, strategies=list(labels))
    return rows


def simulate(
    game: str,
    players: int,
    strategies: str | Sequence[str] = "basic",
    games: int = 1000,
    seed: int = DEFAULT_SEED,
    mode: str = "",
    rules: dict[str, Any] | None = None,
    start: int = 0,
    workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """The per-seat rows of ``games`` units (games, matches or deals, by ``mode``) from index
    ``start``: one row per seat of each, the columns of docs/data-dictionary.md with
    ``strategy`` after ``seat``. ``rows.attrs`` holds game, mode, players, seed, rules, start
    and the strategies by seat.

    A strategy may also be a Python bot (an object with ``act(state, seat)``,
    :mod:`cardlab.games.play`): then every game is played by the reference engine, step by
    step in this process, thousands of times slower than the engines (Who's the Ass? games,
    Plus-Minus Jass deals only; ``workers`` and ``progress`` do not apply).

    >>> rows = simulate("jass", players=3, strategies="aim-low", games=10, mode="deals", seed=3)
    >>> len(rows), rows.attrs["mode"], sorted(set(rows["strategy"]))
    (30, 'deals', ['aim-low'])
    """
    from analyzer.engines.kernel import RunSpec, kernel_module
    from analyzer.games import registry
    from cardlab.games.play import is_bot

    if is_bot(strategies) or (not isinstance(strategies, str)
                              and any(is_bot(s) for s in strategies)):
        return _simulate_bots(game, players, strategies, games, seed, mode, rules, start)
    description = registry.get(game)
    mode = mode or description.default_mode
    description.mode(mode)
    _check_count(games, "games")
    labels = _seat_strategies(game, players, strategies)
    spec = kernel_module(game).validate(RunSpec(game, players, labels, seed, mode,
                                                dict(rules or {})))
    from analyzer.runner import collect

    rows = collect(spec, games, start=start, workers=workers, progress=progress)
    return _with_strategies(rows, labels, _facts(spec, start, games))


def _simulate_bots(game: str, players: int, strategies: Any, games: int, seed: int, mode: str,
                   rules: dict[str, Any] | None, start: int) -> pd.DataFrame:
    """:func:`simulate` of a table with a Python bot: every game through the reference
    engine's step-wise state (:mod:`cardlab.games.play`), one process, slowly."""
    from analyzer.engines.kernel import RunSpec, kernel_module
    from cardlab.games.play import bot_label, check_mode, collect_rows, is_bot

    entries = _per_seat([strategies] if is_bot(strategies) else list(strategies), players)
    mode = check_mode(game, mode)
    _check_count(games, "games")
    texts = ["basic" if is_bot(e) else e for e in entries]
    spec = kernel_module(game).validate(RunSpec(game, players, tuple(texts), seed, mode,
                                                dict(rules or {})))
    labels = [bot_label(e) if is_bot(e) else spec.strategies[i] for i, e in enumerate(entries)]
    rows = collect_rows(game, players, entries, games, seed, start, dict(spec.rules))
    return _with_strategies(rows, labels, _facts(spec, start, games))


def load_run(path: str | os.PathLike, unfinished: bool = False) -> pd.DataFrame:
    """The rows of the run folder ``path``, verified first (its checksums, as ``cardlab
    summarize`` does): damage is refused. An unfinished run (interrupted, or being written)
    is refused too unless ``unfinished=True``; then its finished part is loaded and
    ``rows.attrs["complete"]`` is False. ``pandas.read_parquet`` would load either without a
    word."""
    from analyzer.runner.folder import RunFolder
    from analyzer.runner.results import load_rows, summarize_folder

    summary = summarize_folder(path)
    plan = summary.plan
    if plan["kind"] != "rows":
        raise CardlabError(f"{path} holds aggregates (simulate --aggregate), not per-game "
                           "rows; cardlab summarize reads it")
    if not summary.complete and not unfinished:
        state = ("is being written by another cardlab process" if summary.busy else
                 "is unfinished")
        raise CardlabError(f"{path} {state}: {summary.done:,} of {summary.count:,} "
                           f"{plan['unit']}s done; finish it with cardlab simulate ... --resume, "
                           "or load_run(path, unfinished=True) for what is done")
    rows = load_rows(RunFolder(path).path) if summary.done else pd.DataFrame(
        {c: pd.Series(dtype="int64") for c in plan["columns"]})
    rows = rows.sort_values(["index", "seat"], kind="stable", ignore_index=True)
    spec = plan["spec"]
    return _with_strategies(rows, [s["label"] for s in plan["strategies"]],
                            {"game": plan["game"], "mode": plan["mode"],
                             "players": int(spec["players"]), "seed": int(spec["seed"]),
                             "rules": dict(spec.get("rules", {})), "start": plan["start"],
                             "count": plan["count"], "done": summary.done,
                             "complete": bool(summary.complete)})


def summarize(rows: pd.DataFrame, game: str | None = None, mode: str | None = None
              ) -> pd.DataFrame:
    """Per seat: its strategy, n, and the mean of each of the mode's measures with its 95%
    interval (``<measure>_low``, ``<measure>_high``; rates as fractions), as ``cardlab
    summarize --format csv`` writes them. ``game`` and ``mode`` default to ``rows.attrs``
    (set by :func:`simulate` and :func:`load_run`). Each row of ``rows`` is one seat of one
    independently dealt unit, so the intervals are over units."""
    from analyzer.runner.aggregate import value_columns
    from analyzer.runner.manifest import mode_metrics, row_name
    from analyzer.summary import seat_moments, seat_records

    game = game or rows.attrs.get("game")
    mode = mode or rows.attrs.get("mode")
    if not game or not mode:
        raise CardlabError("summarize needs game= and mode= for rows that did not come from "
                           "cardlab.simulate or cardlab.load_run")
    if rows.empty:
        raise CardlabError("no rows to summarize")
    metrics = mode_metrics(game, mode)
    columns = [c for c in value_columns(list(rows.columns)) if c != "strategy"]
    moments = seat_moments(rows[["seat", *columns]], columns)
    labels = None
    if "strategy" in rows:
        by_seat = rows.groupby("seat", sort=True, observed=True)["strategy"].first()
        labels = [str(by_seat.get(s, "")) for s in range(int(moments.index.max()) + 1)]
    return pd.DataFrame(seat_records(moments, metrics, row_name(game, mode), labels))


def match_details(
    game: str,
    players: int,
    strategies: str | Sequence[str] = "basic",
    matches: int = 100,
    seed: int = DEFAULT_SEED,
    rules: dict[str, Any] | None = None,
    start: int = 0,
) -> pd.DataFrame:
    """One row per seat of each part of each match: every deal of a Jass match (trump,
    points, tricks, sticks, the running total), every game of a Who's the Ass? evening (each
    player's seat, minus points, the running total). The same matches as
    ``simulate(..., mode="matches")`` with the same seed; the columns are in
    docs/data-dictionary.md. Each match is replayed with its record on, so this is slower
    than :func:`simulate` (some hundreds of matches a second).

    >>> deals = match_details("jass", 4, "aim-low", matches=3, seed=3)
    >>> list(deals.columns[:5])
    ['index', 'deal', 'seat', 'strategy', 'dealer']
    >>> int(deals.groupby("index")["deal"].max().iloc[0])
    11
    """
    from analyzer.engines.kernel import RunSpec, kernel_module, records_module
    from analyzer.games import registry

    mode = registry.get(game).mode("matches")
    if not mode.details:
        raise CardlabError(f"{game} matches have no parts to list")
    _check_count(matches, "matches")
    labels = _seat_strategies(game, players, strategies)
    spec = kernel_module(game).validate(RunSpec(game, players, labels, seed, "matches",
                                                dict(rules or {})))
    records = records_module(game)
    rows = pd.DataFrame(records.detail_rows(records.match_records(spec, start, matches)))
    return _with_strategies(rows, labels, _facts(spec, start, matches), mode.row_name)


def analyze(game: str, hand: str, worlds: int | None = None, seed: int = 0,
            continuation: str | None = None, **position: Any) -> pd.DataFrame:
    """Every legal move of a position typed as ``cardlab analyze GAME`` types it: one row per
    move with its value and 95% interval, its paired difference to the best move and
    ``best``. ``attrs["recommendation"]`` says what to play in plain words,
    ``attrs["model"]`` the model behind the values (the strongest player's worlds and
    evaluation, or with ``continuation`` NAME every seat after the move playing NAME: a
    what-if), ``attrs["position"]`` whose move it is and what the values mean (their unit and
    which way is better). ``worlds`` None: the command's default.

    The options are the command's, with Python names: Who's the Ass? ``players``, ``seat``,
    ``sizes``, ``round``, ``gone``, ``known`` (a list of ``"SEAT:CARDS"``),
    ``just_took_ass``, ``totals``, ``match_game`` (``--game G/K``); Plus-Minus Jass
    ``players``, ``tricks``, ``first``, ``seat``, ``trump``, ``ruleset``, ``sticks``, ``ties``.

    >>> moves = analyze("jass", "B6 B9 S10 SU R7 RO A6 AU", tricks="R10 RK R6 RA", worlds=60,
    ...                 seed=1)
    >>> list(moves.columns[:3]), int(moves["best"].sum()) >= 1
    (['move', 'value', 'low'], True)
    """
    from analyzer.games import registry

    description = registry.get(game)
    analysis = (registry.load(description.parts.analysis) if description.has("analysis")
                else None)
    allowed = getattr(analysis, "TYPED_OPTIONS", None)
    if allowed is None:  # the game's analysis module declares its typed options
        raise CardlabError(f"no analysis of typed positions for {game}")
    unknown = sorted(set(position) - set(allowed))
    if unknown:
        raise CardlabError(f"analyze {game} has no option {unknown[0]!r}; options: "
                           f"{', '.join(allowed)}")
    values = {**allowed, **position, "hand": hand}
    values = {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}
    from analyzer.analysis.model import default_worlds, search_values

    worlds = default_worlds(game) if worlds is None else worlds
    if not isinstance(worlds, int) or not isinstance(seed, int):
        raise CardlabError("worlds and seed must be whole numbers")
    from analyzer.analysis.ass import max_worlds_check  # the command line's bound, both games
    from analyzer.seeds import MAX_SEED

    max_worlds_check(worlds)
    if continuation is not None:
        search_values(game, continuation)  # one line naming the allowed ones
    if not 0 <= seed <= MAX_SEED:
        raise CardlabError(f"seed must be between 0 and 2**63-1; got {seed}")
    pos = analysis.typed(*values.values())
    result = analysis.analyze(pos, worlds, seed, continuation=continuation)
    moves = pd.DataFrame(result["moves"])
    moves.attrs["recommendation"] = result["recommendation"]
    moves.attrs["model"] = result["model"]
    moves.attrs["position"] = result["position"]
    return moves


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found: ``ranking`` (one row per player count and strategy, its
    mean with the 95% interval over the seatings) and ``pairs`` (every pair's paired
    difference, adjusted for the number of pairs), the sentences it supports and any claim
    withdrawn (``alerts``)."""

    ranking: pd.DataFrame
    pairs: pd.DataFrame
    headlines: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)


def compare(
    game: str,
    strategies: Sequence[Any],
    players: int | Sequence[int] = 4,
    games: int = 1000,
    seed: int = DEFAULT_SEED,
    mode: str = "",
    rules: dict[str, Any] | None = None,
    table: Any = None,
    workers: int | None = None,
) -> Comparison:
    """Rank ``strategies`` in the duplicate format on ``games`` deals (matches) per player
    count, exactly as ``cardlab study compare`` does: every strategy in every seat of the same
    deals (or, with ``table``, one seat at a table of that strategy). Identical strategies are
    refused; the pairs' intervals are adjusted for the number of comparisons.

    A strategy (or ``table``) may be a Python bot (:mod:`cardlab.games.play`): its tables are
    played by the reference engine, slowly (Who's the Ass? games, Plus-Minus Jass deals), and
    strategies are merged by name only (no probe deals).

    >>> c = compare("ass", ["careful", "basic"], players=4, games=40, seed=1)
    >>> sorted(c.ranking["strategy"])
    ['basic', 'careful']
    """
    from analyzer.runner.play import KernelBackend
    from analyzer.studies.compare import run_compare
    from cardlab.games.play import BotBackend, check_mode, is_bot

    counts = (players,) if isinstance(players, int) else tuple(players)
    bots = [s for s in [*strategies, table] if is_bot(s)]
    if bots:  # a bot plays through the reference engine: no probe deals (merge_same)
        result = run_compare(BotBackend(game, bots, workers=workers), game, list(strategies),
                             counts, games, seed, mode=check_mode(game, mode), rules=rules,
                             table=table, probe_deals=0)
    else:
        result = run_compare(KernelBackend(workers=workers), game, list(strategies), counts,
                             games, seed, mode=mode, rules=rules, table=table)
    return Comparison(result.tables["ranking"], result.tables["pairs"],
                      list(result.headlines), list(result.alerts), dict(result.manifest))


def strategies(game: str) -> list[str]:
    """The names of ``game``'s registered strategies (presets and families), as ``cardlab
    strategies GAME`` lists them.

    >>> "pimc" in strategies("jass")
    True
    """
    from analyzer.games import registry
    from strategies.registry import catalog

    registry.get(game)
    return list(catalog(game))

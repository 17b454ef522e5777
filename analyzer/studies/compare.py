"""Study 4: any set of strategies of either game, head to head in the duplicate format.

The deals (or Jass matches) are played in seatings (:mod:`analyzer.studies.seatings`): small
groups, each in every rotation of a fresh seeded order of the strategies, so every strategy
sits in every seat of the same deals and nobody keeps its neighbours. With ``table`` each
strategy instead plays one seat at a time at a table of that strategy. The result is a
ranking with intervals and every pairwise difference, paired over the seatings (at a table:
the deals), with the variance reduction against unpaired runs of the same size.

With ``until_sure`` the seatings are played in batches and every pairwise difference is watched
by a confidence sequence (:mod:`analyzer.stats.sequential`); play stops as soon as every pair
is decided at the chosen error rate, or when the budget of deals is spent, and the table says
which happened for each pair.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.games import registry as games_registry
from analyzer.games.registry import title as game_title
from analyzer.numbers import PM, bounds, count, decimals_for, interval, number
from analyzer.numbers import percent as percent_text
from analyzer.runner.manifest import plural
from analyzer.runner.play import Backend, make_spec, play_arrangements
from analyzer.seeds import DEFAULT_SEED
from analyzer.stats.duplicate import (
    duplicate_pairs,
    duplicate_ranking,
    seat_swaps,
    unit_means,
)
from analyzer.stats.sequential import run_sequential_many
from analyzer.studies.claims import Cell, Claim, difference_kind, half, make_cell, probe, several
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.studies.same_play import PROBE_DEALS, merge_same
from analyzer.studies.seatings import SEATINGS, design, play_ladder
from analyzer.text import is_rate, metric_words, pm
from strategies.registry import illegal_players, is_slow


def scaled(game: str, games: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The games table with ``metric`` in its natural unit (the game's Measure.scale)."""
    measure = games_registry.get(game).measure(metric)
    factor = None if measure is None or measure.scale == 1 else measure.scale
    if factor is None:
        return games
    out = games.copy()
    out[metric] = out[metric].to_numpy(dtype=np.float64) * factor
    return out


def metric_for(game: str, mode: str, metric: str | None, better: str | None) -> tuple[str, bool]:
    """The metric column and whether lower is better (default: the game's usual goal)."""
    description = games_registry.get(game)
    if metric is None:
        metric = description.mode(mode).default_metric
    measure = description.measure(metric)
    direction = better or (measure.better if measure else None)
    if direction not in ("lower", "higher"):
        raise CardlabError(
            f"say whether a lower or higher {metric!r} is better (--better lower|higher)"
        )
    return metric, direction == "lower"


def check_metric(game: str, mode: str, metric: str | None, better: str | None) -> None:
    """One line for a --metric that is no result column of the game's mode, or a --better
    that is neither lower nor higher."""
    from analyzer.runner.manifest import mode_columns

    if better is not None and better not in ("lower", "higher"):
        raise CardlabError(f"--better must be lower or higher; got {better!r}")
    col, _ = metric_for(game, mode, metric, better)
    columns = [c for c in mode_columns(game, mode) if c not in ("index", "seat")]
    if col not in columns:
        raise CardlabError(
            f"--metric {col!r} is not a result column of {game} {mode}; columns: "
            + ", ".join(columns)
        )


# --until-sure looks after whole seatings: groups of about 10 deals (at most this many), so
# that it can stop early; a fixed budget plays SEATINGS groups, as the ladder does
SEQUENTIAL_SEATINGS = 2_000


def _pair_differences(games: pd.DataFrame, metric: str, pairs: list[tuple[str, str]],
                      unit: str = "index"):
    means = unit_means(games, metric, unit)
    return np.column_stack([means[a].to_numpy() - means[b].to_numpy() for a, b in pairs])


def seq_answer(decision: str, a: str, b: str, lower: bool) -> str:
    """A sequential decision ("a-lower", ...) in terms of which strategy is better."""
    if decision in ("a-lower", "a-higher"):
        a_better = (decision == "a-lower") == lower
        return f"{a if a_better else b} is better"
    if decision == "equivalent":
        return "equivalent within the margin"
    return "undecided"


def _pair_row(pairs: pd.DataFrame, a: str, b: str) -> pd.Series:
    """The row of the pair (a, b), whichever way round the table stores it."""
    row = pairs[((pairs["a"] == a) & (pairs["b"] == b)) | ((pairs["a"] == b) & (pairs["b"] == a))]
    return row.iloc[0]


def _pair_cell(result: StudyResult, game: str, n: int, row: pd.Series,
               field_: str) -> tuple[Claim, Cell]:
    """The pair's difference as the table stores it, with what its interval says."""
    kind = difference_kind(float(row["low"]), float(row["high"]))
    reader = probe(game, "compare", kind, "pairs", against=str(row["b"]))
    return reader, make_cell(reader, result, n, str(row["a"]), "difference", field_=field_)


def _claims(result: StudyResult, players: int, game: str, metric: str, lower: bool,
            unit: str) -> list[Claim]:
    """The sentences at ``players`` as claims on tables ``ranking`` and ``pairs``: the best
    mean and whether its paired differences to every other strategy are clear, each pair's
    difference, and what the sequential comparison decided (``--until-sure``)."""
    words = metric_words(metric)
    rate = is_rate(metric)
    # rates in percent; their differences in percentage points
    scale, diff_unit = (100.0, f"percentage points of {words}") if rate else (1.0, words)
    ranking = result.table("ranking")
    # the best by the metric itself (the statement its cell makes), not by a stored rank
    ranking = ranking[ranking["players"] == players].sort_values("mean", kind="stable",
                                                                 ascending=lower)
    pairs = result.table("pairs")
    pairs = pairs[pairs["players"] == players]
    field_ = ",".join(str(x) for x in result.manifest.get("strategies") or ranking["strategy"])
    q = f"Which strategy wins? ({game_title(game)})"
    units = plural(unit)
    title = game_title(game)
    claims, sequential = [], []
    top = probe(game, "compare", "best", "ranking", better="lower" if lower else "higher")
    best = make_cell(top, result, players, str(ranking["strategy"].iloc[0]), "mean",
                     field_=field_)
    dealt = probe(game, "compare", "value", "ranking", extra={"exact": True})
    deals = make_cell(dealt, result, players, best.choice, "deals", field_=field_)
    level = (f"{words} {pm(best.value, half(best), percent=rate)} per {unit} "
             f"({'lower' if lower else 'higher'} is better)")
    against = [_pair_cell(result, game, players, _pair_row(pairs, best.choice, o), field_)
               for o in ranking["strategy"].iloc[1:].astype(str)]
    unclear = [c.against if c_.choice == best.choice else c_.choice
               for c, c_ in against if c.kind == "unclear"]
    table = result.manifest.get("table")
    played = (f"{count(deals.value)} {units}, every strategy in every seat" if not table else
              f"{count(deals.value)} {units}, each strategy in every seat at a table of "
              f"{table}")
    if table and len(ranking) == 1:
        fair = (f", against a fair share of {percent_text(1 / players)}"
                if rate and metric == "won" else "")
        sentence = (f"At {players} players ({title}), {best.choice} in one seat at a table of "
                    f"{table}: {level}{fair}, in every seat of the same "
                    f"{count(deals.value)} {units}.")
    elif not unclear:
        sentence = (f"At {players} players ({title}), {best.choice} is best: {level}, "
                    f"clearly ahead of every other strategy on the same {played}.")
    else:
        sentence = (f"At {players} players ({title}), {best.choice} has the best mean, "
                    f"{level}, but is not clearly ahead of {', '.join(map(str, unclear))} "
                    f"({played}).")
    claims.append(several(f"compare-{players}-best", sentence,
                          [(top, best), (dealt, deals), *against], game=game,
                          study="compare", question=q))
    for _, row in pairs.iterrows():
        reader, diff = _pair_cell(result, game, players, row, field_)
        d, h = diff.value, half(diff)
        if reader.kind == "unclear":
            verdict = "no clear difference"
        else:
            a_better = (d < 0) == lower
            verdict = f"{row['a'] if a_better else row['b']} is better"
        fig = probe(game, "compare", "value", "pairs", against=str(row["b"]),
                    extra={"exact": True})
        paired = make_cell(fig, result, players, str(row["a"]), "n_units", field_=field_)
        unpaired = make_cell(fig, result, players, str(row["a"]), "unpaired_half",
                             field_=field_)
        parts = [(reader, diff), (fig, paired), (fig, unpaired)]
        sentence = (
            f"{row['a']} minus {row['b']}: {interval(d * scale, h * scale, signed=True)} "
            f"{diff_unit} per {unit} ({verdict}; paired over {count(paired.value)} "
            f"{units if table else 'seatings of the same ' + units}; "
            f"unpaired the interval would be {PM} "
            f"{number(unpaired.value * scale, decimals_for(h * scale))}).")
        if "seq_stopped_by" in row and isinstance(row["seq_stopped_by"], str):
            # the sequential estimate with its bounds, and the units it rests on (a count,
            # its own cell: never a value beside an interval that is not its own)
            seq = probe(game, "compare", "value", "pairs", against=str(row["b"]),
                        extra={"low": "seq_low", "high": "seq_high"})
            estimate = make_cell(seq, result, players, str(row["a"]), "seq_estimate",
                                 field_=field_)
            spent = make_cell(fig, result, players, str(row["a"]), "seq_units", field_=field_)
            said = [(probe(game, "compare", "equals", "pairs", against=str(row["b"]),
                           extra={"equals": str(row[col])}), col)
                    for col in ("seq_answer", "seq_stopped_by")]
            said_cells = [(r, make_cell(r, result, players, str(row["a"]), col,
                                        field_=field_)) for r, col in said]
            alpha = make_cell(fig, result, players, str(row["a"]), "seq_alpha", field_=field_)
            how = ("the answer was clear" if row["seq_stopped_by"] == "answer"
                   else "the budget was spent")
            where_ = bounds(estimate.low, estimate.high, percent=rate)
            sequential.append(several(f"compare-{players}-{row['a']}-{row['b']}-until-sure", (
                f"Until sure, {row['a']} vs {row['b']}: {row['seq_answer']} after "
                f"{count(spent.value)} {units}; stopped because {how} (the difference lies "
                f"in {where_}{' percentage points' if rate else ''}; error rate "
                f"{percent_text(alpha.value)} for this pair)."),
                [(seq, estimate), (fig, spent), *said_cells, (fig, alpha)], game=game,
                study="compare", question=q))
        claims.append(several(f"compare-{players}-{row['a']}-{row['b']}", sentence, parts,
                              game=game, study="compare", question=q))
    claims += sequential
    if not table:  # the seatings: drawn afresh, the unit of every interval above
        reader = probe(game, "compare", "value", "ranking", extra={"exact": True})
        groups = make_cell(reader, result, players, best.choice, "units", field_=field_)
        claims.append(several(f"compare-{players}-seating", (
            f"The seating was drawn afresh for each of {count(groups.value)} groups of "
            f"{units} (a fresh order of the strategies, played in every rotation), so no "
            "strategy kept the same neighbours; the intervals are taken over those groups "
            "(--table T plays each strategy against the same company instead)."),
            [(reader, groups)], game=game, study="compare", question=q))
    for label in ranking.loc[~ranking["legal"].astype(bool), "strategy"].astype(str):
        reader = probe(game, "compare", "equals", "ranking", extra={"equals": "False"})
        claims.append(several(f"compare-{players}-{label}-not-legal", (
            f"{label} is NOT A LEGAL PLAYER: it sees the hidden cards, and is "
            f"there only as an upper bound."),
            [(reader, make_cell(reader, result, players, label, "legal", field_=field_))],
            game=game, study="compare", question=q))
    return claims


def refuse_same_play(backend: Backend, base, labels: list[str], probe_deals: int) -> None:
    """One line naming the strategies that play identical games at ``base``'s player count
    (strategies tagged slow are not probed: a probe would cost more than the comparison)."""
    slow = [x for x in labels if is_slow(base.game, x)]
    _, merged = merge_same(backend, base, labels, probe_deals, unprobed=slow)
    if merged:
        m = merged[0]
        raise CardlabError(
            f"{m['merged']} and {m['kept']} play exactly alike at {base.players} players "
            f"({m['reason']}): compared, they would differ only by the seats the design gives "
            "each; list one of them")


def tables_of(labels: list[str], players: int, field: str
              ) -> tuple[list[tuple[str, ...]], list[tuple[str, int]]]:
    """The tables of a comparison at a table of ``field``, and (strategy, seat) of the
    compared seat of each."""
    tables, own = [], []
    for label in labels:
        for seat, seats in enumerate(seat_swaps(label, [field], players)):
            tables.append(tuple(seats))
            own.append((label, seat))
    return tables, own


def own_seats(games: pd.DataFrame, own: list[tuple[str, int]]) -> pd.DataFrame:
    """Only the compared seats' rows of :func:`tables_of`'s tables (the table's own seats
    are the company, not rated), each labelled with its strategy."""
    names = np.array([x for x, _ in own], dtype=object)
    seat_of = np.array([s for _, s in own])
    arrangement = games["arrangement"].to_numpy()
    keep = games["seat"].to_numpy() == seat_of[arrangement]
    out = games[keep].copy()
    out["strategy"] = names[arrangement[keep]]
    return out.reset_index(drop=True)


def run_compare(
    backend: Backend,
    game: str,
    strategies: Sequence[str],
    players: Sequence[int] = (4,),
    games: int = 1000,
    seed: int = DEFAULT_SEED,
    mode: str = "",
    rules: dict[str, Any] | None = None,
    metric: str | None = None,
    better: str | None = None,
    level: float = 0.95,
    until_sure: bool = False,
    alpha: float = 0.05,
    margin: float | None = None,
    batch: int | None = None,
    probe_deals: int = PROBE_DEALS,
    table: str | None = None,
) -> StudyResult:
    """Rank ``strategies`` of ``game`` in the duplicate format at each player count.

    ``games`` is the number of deals (matches) per player count, or the budget with
    ``until_sure``. Every strategy plays each deal once in every seat: in the rotations of
    the strategies through the seats, or, with ``table``, in one seat at a table of that
    strategy (every other seat; then one strategy is enough, and every compared strategy
    meets exactly the same company). Only the compared strategies' own seats are rated.
    Strategies that play alike (the same family and knobs, or identical games on
    ``probe_deals`` probe deals at a player count: :mod:`analyzer.studies.same_play`) are
    refused in one line before the comparison is played.
    """
    labels = [backend.canonical(game, s) for s in strategies]
    field = backend.canonical(game, table) if table is not None else None
    # "The same strategy" means the same play: the same family and every knob at the same
    # exact value (registry Strategy.identity), whatever the names say.
    identity = getattr(backend, "identity", None)
    ids = [identity(game, s) for s in labels] if identity is not None else labels
    if field is not None and not labels:
        raise CardlabError("compare needs a strategy to play at the table")
    if until_sure and len(labels) < 2:
        raise CardlabError("--until-sure decides pairs: give two or more strategies")
    if len(set(ids)) < 2 and field is None:
        raise CardlabError("compare needs at least two different strategies; "
                           f"{' and '.join(labels)} play exactly alike")
    if len(set(ids)) != len(ids):
        twins = [lab for lab, i in zip(labels, ids, strict=True) if ids.count(i) > 1]
        raise CardlabError(f"a strategy is listed twice: {' and '.join(twins)} play exactly "
                           "alike; list each once")
    if games < 2:
        raise CardlabError(f"compare needs at least 2 deals, got {games}")
    bases = {n: make_spec(backend, game, n, [labels[0]] * n, seed, mode=mode, rules=rules)
             for n in players}
    if players:  # --metric and --better are checked before any game is played
        check_metric(game, bases[players[0]].mode, metric, better)
    for n in players:  # different knobs, the same play: compared, they differ only by seats
        if len(labels) > 1:
            refuse_same_play(backend, bases[n], labels, probe_deals)
    t0 = time.perf_counter()
    rankings, pair_tables, specs, seq_all = [], [], [], []
    mode_used = mode
    for n in players:
        base = bases[n]
        mode_used = base.mode
        col, lower = metric_for(game, base.mode, metric, better)
        arrangement, own = tables_of(labels, n, field) if field is not None else ([], [])
        # the rotations: a fresh order per seating (group of deals), the unit of the
        # intervals; at a table: every strategy meets the same company, the deal is the unit
        groups = SEATINGS if not until_sure else min(SEQUENTIAL_SEATINGS,
                                                     max(SEATINGS, games // 10))
        plan = design(labels, [], n, games, seed, groups) if field is None else None
        unit_col = "unit" if plan is not None else "index"
        units = len(plan) if plan is not None else games
        per_unit = games / units
        pairs_list = list(itertools.combinations(labels, 2))
        seq_rows: list[dict] = []

        def play(lo: int, hi: int, base=base, col=col, plan=plan, arrangement=arrangement,
                 own=own) -> pd.DataFrame:
            """Units lo..hi-1 (seatings, or deals at a table), in the metric's natural unit."""
            if plan is not None:
                g, s = play_ladder(backend, base, plan[lo:hi])
                g = g.drop(columns=["entrant_table"])
            else:
                g, s = play_arrangements(backend, base, arrangement, hi - lo, lo)
                g = own_seats(g, own)
            if lo == 0:
                specs.extend(x.to_dict() for x in s)
            return scaled(game, g, col)

        if until_sure:
            frames: list[pd.DataFrame] = []

            def next_batch(start: int, count: int, frames=frames, col=col,
                           pairs_list=pairs_list, unit_col=unit_col, play=play) -> np.ndarray:
                g = play(start, start + count)
                frames.append(g)
                return _pair_differences(g, col, pairs_list, unit_col)

            step = max(1, math.ceil((batch or max(50, games // 10)) / per_unit))
            least = min(units, max(20, math.ceil(100 / per_unit)))  # 100 deals, 20 seatings
            results = run_sequential_many(next_batch, len(pairs_list), units, step, alpha,
                                          margin, min_n=least)
            games_table = pd.concat(frames, ignore_index=True)
            for (a, b), res in zip(pairs_list, results, strict=True):
                spent = (sum(st.count for st in plan[:res.n]) if plan is not None else res.n)
                seq_rows.append({"players": n, "a": a, "b": b, "seq_decision": res.decision,
                                 "seq_answer": seq_answer(res.decision, a, b, lower),
                                 "seq_stopped_by": res.stopped_by, "seq_units": spent,
                                 "seq_estimate": res.estimate, "seq_low": res.low,
                                 "seq_high": res.high,
                                 "seq_alpha": res.alpha, "seq_reason": res.reason})
        else:
            games_table = play(0, units)
        rank = duplicate_ranking(games_table, col, lower, level, order=labels, unit=unit_col)
        rank.insert(0, "players", n)
        pairs = duplicate_pairs(games_table, col, level, order=labels, unit=unit_col)
        pairs.insert(0, "players", n)
        if seq_rows:
            pairs = pairs.merge(pd.DataFrame(seq_rows), on=["players", "a", "b"])
        rankings.append(rank)
        pair_tables.append(pairs)
        seq_all.extend(seq_rows)
        illegal = set(illegal_players(game, labels))
        rank["legal"] = [str(x) not in illegal for x in rank["strategy"]]
    col, lower = metric_for(game, mode_used, metric, better)
    unit_used = games_registry.get(game).mode(mode_used).unit
    manifest = base_manifest(
        "compare", game=game, mode=mode_used, seed=seed, games=games, players=list(players),
        strategies=labels, rules=rules_by_players(specs), metric=col,
        better="lower" if lower else "higher", level=level, runs=specs, unit=unit_used,
        table=field,
        design=("duplicate: every strategy in every seat of the same deals, the deals in "
                "groups each played in every rotation of a fresh seeded order; intervals over "
                "the groups" if field is None else
                f"duplicate at a table of {field}: every strategy in one seat at a time, "
                f"{field} in every other, each seat of the same deals; intervals over deals"),
        sequential={"until_sure": until_sure, "alpha": alpha, "margin": margin,
                    "batch": batch, "budget": games} if until_sure else None,
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    tables = {"ranking": pd.concat(rankings, ignore_index=True),
              "pairs": pd.concat(pair_tables, ignore_index=True)}
    result = StudyResult("compare", tables, manifest)
    return result.say([c for n in players
                       for c in _claims(result, n, game, col, lower, unit_used)])

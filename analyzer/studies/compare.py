"""Study 4: any set of strategies of either game, head to head in the duplicate format.

Each deal (or Jass match) is played once per rotation of the strategies through the seats
(:func:`analyzer.stats.duplicate.rotations`), so every strategy sits in every seat of the same
deals. The result is a ranking with intervals and every pairwise difference, paired over the
deals, with the variance reduction against unpaired runs of the same size.

With ``until_sure`` the deals are played in batches and every pairwise difference is watched
by a confidence sequence (:mod:`analyzer.stats.sequential`); play stops as soon as every pair
is decided at the chosen error rate, or when the budget of deals is spent, and the table says
which happened for each pair.
"""

from __future__ import annotations

import itertools
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
from analyzer.rng import DEFAULT_SEED
from analyzer.runner.manifest import plural
from analyzer.runner.play import Backend, make_spec, play_arrangements
from analyzer.stats.duplicate import duplicate_pairs, duplicate_ranking, rotations, unit_means
from analyzer.stats.sequential import run_sequential_many
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.text import is_rate, metric_words, pm
from strategies.registry import illegal_players


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


def _pair_differences(games: pd.DataFrame, metric: str, pairs: list[tuple[str, str]]):
    means = unit_means(games, metric)
    return np.column_stack([means[a].to_numpy() - means[b].to_numpy() for a, b in pairs])


def seq_answer(decision: str, a: str, b: str, lower: bool) -> str:
    """A sequential decision ("a-lower", ...) in terms of which strategy is better."""
    if decision in ("a-lower", "a-higher"):
        a_better = (decision == "a-lower") == lower
        return f"{a if a_better else b} is better"
    if decision == "equivalent":
        return "equivalent within the margin"
    return "undecided"


def _clear_pair(pairs: pd.DataFrame, a: str, b: str) -> bool:
    """Whether the paired interval of a - b (either way round) excludes zero."""
    row = pairs[((pairs["a"] == a) & (pairs["b"] == b)) | ((pairs["a"] == b) & (pairs["b"] == a))]
    return bool(len(row)) and abs(float(row["difference"].iloc[0])) > float(row["half"].iloc[0])


def _sentences(ranking, pairs, players, game, metric, lower, unit, seq_rows) -> list[str]:
    words = metric_words(metric)
    rate = is_rate(metric)
    # rates in percent; their differences in percentage points
    scale, diff_unit = (100.0, f"percentage points of {words}") if rate else (1.0, words)
    lines = []
    best = ranking.iloc[0]
    units = plural(unit)
    title = game_title(game)
    level = (f"{words} {pm(best['mean'], best['half'], percent=rate)} per {unit} "
             f"({'lower' if lower else 'higher'} is better)")
    others = list(ranking["strategy"].iloc[1:])
    unclear = [o for o in others if not _clear_pair(pairs, best["strategy"], o)]
    played = f"{count(best['deals'])} {units}, every strategy in every seat"
    if not unclear:
        lines.append(f"At {players} players ({title}), {best['strategy']} is best: {level}, "
                     f"clearly ahead of every other strategy on the same {played}.")
    else:
        lines.append(f"At {players} players ({title}), {best['strategy']} has the best mean, "
                     f"{level}, but is not clearly ahead of {', '.join(unclear)} "
                     f"({played}).")
    for _, row in pairs.iterrows():
        d, h = row["difference"], row["half"]
        if abs(d) <= h:
            verdict = "no clear difference"
        else:
            a_better = (d < 0) == lower
            verdict = f"{row['a'] if a_better else row['b']} is better"
        unpaired = row["unpaired_half"] * scale
        lines.append(
            f"{row['a']} minus {row['b']}: {interval(d * scale, h * scale, signed=True)} "
            f"{diff_unit} per {unit} ({verdict}; paired over {count(row['n_units'])} {units}; "
            f"unpaired the interval would be {PM} {number(unpaired, decimals_for(h * scale))})."
        )
    for row in seq_rows:
        how = ("the answer was clear" if row["seq_stopped_by"] == "answer"
               else "the budget was spent")
        where = bounds(row["seq_low"], row["seq_high"], percent=rate)
        lines.append(
            f"Until sure, {row['a']} vs {row['b']}: {row['seq_answer']} after "
            f"{count(row['seq_units'])} {units}; stopped because {how} (the difference lies in "
            f"{where}{' percentage points' if rate else ''}; error rate "
            f"{percent_text(row['seq_alpha'])} for this pair)."
        )
    return lines


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
) -> StudyResult:
    """Rank ``strategies`` of ``game`` in the duplicate format at each player count.

    ``games`` is the number of deals (matches) per player count, or the budget with
    ``until_sure``. Every strategy plays each deal once in every seat.
    """
    labels = [backend.canonical(game, s) for s in strategies]
    # "The same strategy" means the same play: the same family and every knob at the same
    # exact value (registry Strategy.identity), whatever the names say.
    identity = getattr(backend, "identity", None)
    ids = [identity(game, s) for s in labels] if identity is not None else labels
    if len(set(ids)) < 2:
        raise CardlabError("compare needs at least two different strategies; "
                           f"{' and '.join(labels)} play exactly alike")
    if len(set(ids)) != len(ids):
        twins = [lab for lab, i in zip(labels, ids, strict=True) if ids.count(i) > 1]
        raise CardlabError(f"a strategy is listed twice: {' and '.join(twins)} play exactly "
                           "alike; list each once")
    if games < 2:
        raise CardlabError(f"compare needs at least 2 deals, got {games}")
    if players:  # --metric and --better are checked before any game is played
        first = make_spec(backend, game, players[0], [labels[0]] * players[0], seed,
                          mode=mode, rules=rules)
        check_metric(game, first.mode, metric, better)
    t0 = time.perf_counter()
    rankings, pair_tables, specs, lines, seq_all = [], [], [], [], []
    mode_used = mode
    for n in players:
        base = make_spec(backend, game, n, [labels[0]] * n, seed, mode=mode, rules=rules)
        mode_used = base.mode
        col, lower = metric_for(game, base.mode, metric, better)
        arrangement = rotations(labels, n)
        pairs_list = list(itertools.combinations(labels, 2))
        seq_rows: list[dict] = []
        if until_sure:
            frames: list[pd.DataFrame] = []

            def next_batch(start: int, count: int, n=n, base=base, arrangement=arrangement,
                           frames=frames, col=col, pairs_list=pairs_list) -> np.ndarray:
                g, s = play_arrangements(backend, base, arrangement, count, start)
                g = scaled(game, g, col)
                frames.append(g)
                if start == 0:
                    specs.extend(x.to_dict() for x in s)
                return _pair_differences(g, col, pairs_list)

            step = batch or max(50, games // 10)
            results = run_sequential_many(next_batch, len(pairs_list), games, step, alpha,
                                          margin, min_n=min(100, games))
            games_table = pd.concat(frames, ignore_index=True)
            for (a, b), res in zip(pairs_list, results, strict=True):
                seq_rows.append({"players": n, "a": a, "b": b, "seq_decision": res.decision,
                                 "seq_answer": seq_answer(res.decision, a, b, lower),
                                 "seq_stopped_by": res.stopped_by, "seq_units": res.n,
                                 "seq_low": res.low, "seq_high": res.high,
                                 "seq_alpha": res.alpha, "seq_reason": res.reason})
        else:
            games_table, s = play_arrangements(backend, base, arrangement, games)
            games_table = scaled(game, games_table, col)
            specs.extend(x.to_dict() for x in s)
        rank = duplicate_ranking(games_table, col, lower, level, order=labels)
        rank.insert(0, "players", n)
        pairs = duplicate_pairs(games_table, col, level, order=labels)
        pairs.insert(0, "players", n)
        if seq_rows:
            pairs = pairs.merge(pd.DataFrame(seq_rows), on=["players", "a", "b"])
        rankings.append(rank)
        pair_tables.append(pairs)
        seq_all.extend(seq_rows)
        unit = games_registry.get(game).mode(base.mode).unit
        lines.extend(_sentences(rank, pairs, n, game, col, lower, unit, seq_rows))
        for label in illegal_players(game, labels):
            lines.append(f"{label} is NOT A LEGAL PLAYER: it sees the hidden cards, and is "
                         f"there only as an upper bound.")
    col, lower = metric_for(game, mode_used, metric, better)
    unit_used = games_registry.get(game).mode(mode_used).unit
    manifest = base_manifest(
        "compare", game=game, mode=mode_used, seed=seed, games=games, players=list(players),
        strategies=labels, rules=rules_by_players(specs), metric=col,
        better="lower" if lower else "higher", level=level, runs=specs, unit=unit_used,
        design="duplicate: every strategy in every seat of the same deals (rotations); "
               "intervals over deals",
        sequential={"until_sure": until_sure, "alpha": alpha, "margin": margin,
                    "batch": batch, "budget": games} if until_sure else None,
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    tables = {"ranking": pd.concat(rankings, ignore_index=True),
              "pairs": pd.concat(pair_tables, ignore_index=True)}
    return StudyResult("compare", tables, manifest, lines)

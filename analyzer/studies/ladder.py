"""Study 5: the ladder, every registered strategy of a game rated on mixed tables.

Design, per player count:

1. **Merging.** Strategies with the same family and knob values, or whose games are identical
   on every probe deal (each one seat by seat against ``basic`` and against ``random``), make
   the same decisions: they are rated once, under both names ("basic = heuristic").
2. **Mixed tables on the same deals.** The deals are cut into blocks; each block shuffles the
   strategies (by the seed) and plays every rotation of them through the seats
   (:func:`analyzer.stats.duplicate.rotations`), so on every deal every strategy sits in every
   seat exactly once, against varying company from block to block.
3. **One model over all tables**: the additive score model ``result = deal-and-seat effect +
   strategy rating + noise``, with errors clustered by deal. In this balanced design its
   least-squares rating of a strategy is its mean result minus the mean of all games of the
   same deals, and the cluster-robust interval is the t interval over deals of that
   difference; a pairwise difference is the paired mean difference over deals.
4. **Rank intervals** by the bootstrap over deals; **tiers**: a strategy is tied with the
   best of its tier unless Holm's correction over all pairs separates them; the pairwise
   matrix carries plain 95% intervals and simultaneous ones (Bonferroni over all pairs), so
   "the best of k" is a claim whose error rate is that of all pairs together.
5. **Plackett–Luce** beside the score model (:mod:`analyzer.stats.plackett_luce`): strengths
   from the finishing order of every table alone (not the margins), with intervals and rank
   intervals by the bootstrap over deals (columns ``pl*`` of the ratings).

Strategies tagged ``slow`` or ``not-a-player`` in the registry are left out unless named.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.games import registry as games_registry
from analyzer.runner.manifest import plural
from analyzer.stats.duplicate import duplicate_pairs, rotations, seat_swaps, unit_means
from analyzer.stats.hygiene import holm, rank_intervals, tiers, two_sided_p
from analyzer.stats.intervals import mean_interval, t_quantile
from analyzer.stats.plackett_luce import plackett_luce
from analyzer.studies.compare import metric_for
from analyzer.studies.play import Backend, make_spec, play_arrangements
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.studies.text import decimals_for, metric_words, pm

EXCLUDED_TAGS = ("slow", "not-a-player")
PROBE_FIELDS = ("basic", "random")
PROBE_DEALS = 200
PROBE_SEED_OFFSET = 7_919  # probe deals come from another seed than the ladder's
BLOCKS = 8  # deal blocks, each with its own shuffle of the strategies


def ladder_strategies(game: str, include: Sequence[str] = ()) -> list[str]:
    """Every registered strategy of ``game`` except those tagged slow or not-a-player
    (unless listed in ``include``)."""
    from strategies.registry import catalog

    out = []
    for name, spec in catalog(game).items():
        if name in include or not set(spec.tags) & set(EXCLUDED_TAGS):
            out.append(name)
    return out


def decision_key(game: str, label: str) -> Any:
    """What fixes a strategy's decisions: (family, knob values), or the label itself for
    strategies the registry does not know (synthetic backends)."""
    from strategies.registry import StrategyError, parse_strategy

    try:
        s = parse_strategy(game, label)
    except StrategyError:  # a label the registry does not know: the label itself
        return label
    return (s.family, s.values)


def _probe_prints(backend: Backend, base, labels: list[str], deals: int) -> dict[str, bytes]:
    """A fingerprint per strategy of its games seat by seat against each probe field."""
    prints = {}
    spec = replace(base, seed=base.seed + PROBE_SEED_OFFSET)
    for label in labels:
        parts = []
        for probe in PROBE_FIELDS:
            try:
                backend.canonical(base.game, probe)
            except CardlabError:
                continue
            arrangements = seat_swaps(label, [probe], base.players)
            games, _ = play_arrangements(backend, spec, arrangements, deals)
            mine = games[games["seat"] == games["arrangement"]].drop(
                columns=["strategy", "arrangement"]).select_dtypes("number")
            parts.append(np.ascontiguousarray(mine.to_numpy(np.float64)).tobytes())
        prints[label] = b"".join(parts)
    return prints


def merge_same(backend: Backend, base, labels: list[str], probe_deals: int = PROBE_DEALS
               ) -> tuple[list[str], list[dict[str, Any]]]:
    """The strategies to rate (one per group of identical play) and the merges made."""
    merged: list[dict[str, Any]] = []
    by_key: dict[Any, str] = {}
    first: list[str] = []
    for label in labels:
        key = decision_key(base.game, label)
        if key in by_key:
            merged.append({"kept": by_key[key], "merged": label,
                           "reason": "same family and knob values"})
        else:
            by_key[key] = label
            first.append(label)
    prints = _probe_prints(backend, base, first, probe_deals) if probe_deals else {}
    kept, seen = [], {}
    for label in first:
        fp = prints.get(label)
        if fp is not None and fp in seen:
            merged.append({"kept": seen[fp], "merged": label,
                           "reason": f"identical games on {probe_deals} probe deals, seat by "
                                     f"seat against {' and against '.join(PROBE_FIELDS)}"})
        else:
            if fp is not None:
                seen[fp] = label
            kept.append(label)
    return kept, merged


def play_ladder(backend: Backend, base, labels: list[str], deals: int, blocks: int = BLOCKS
                ) -> tuple[pd.DataFrame, list]:
    """Mixed tables: per block of deals a seeded shuffle of ``labels``, every rotation."""
    rng = np.random.default_rng([base.seed, base.players, 0x1add])
    frames, specs = [], []
    blocks = max(1, min(blocks, deals // 2))
    edges = np.linspace(0, deals, blocks + 1).astype(int)
    for b in range(blocks):
        order = [labels[i] for i in rng.permutation(len(labels))]
        games, s = play_arrangements(backend, base, rotations(order, base.players),
                                     int(edges[b + 1] - edges[b]), int(edges[b]))
        frames.append(games)
        specs.extend(s)
    return pd.concat(frames, ignore_index=True), specs


def rate(games: pd.DataFrame, metric: str, lower: bool, level: float = 0.95,
         draws: int = 1000, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Ratings (additive model, deal-clustered intervals, bootstrap ranks, tiers) and the
    pairwise differences (plain and simultaneous intervals, Holm-adjusted p-values)."""
    means = unit_means(games, metric)
    names = list(means.columns)
    x = means.to_numpy(np.float64)
    deal_mean = games.groupby("index")[metric].mean().reindex(means.index).to_numpy()
    rows = []
    for j, name in enumerate(names):
        est = mean_interval(x[:, j] - deal_mean, level)
        rows.append({"strategy": name, "rating": est.value, "low": est.low, "high": est.high,
                     "half": est.half, "mean": float(x[:, j].mean()), "deals": est.n,
                     "games": int((games["strategy"] == name).sum())})
    ratings = pd.DataFrame(rows)
    key = ratings["rating"] if lower else -ratings["rating"]
    ratings["rank"] = key.rank(method="min").astype(int)
    low, high = rank_intervals(x, lower, level, draws, seed)
    ratings["rank_low"], ratings["rank_high"] = low, high

    pairs = duplicate_pairs(games, metric, level, order=names)
    m = max(1, len(pairs))
    se = pairs["half"] / t_quantile(level, max(1, len(x) - 1))
    z = pairs["difference"] / se.replace(0.0, np.nan)
    pairs["p"] = two_sided_p(z.to_numpy())
    pairs.loc[pairs["difference"].eq(0) & se.eq(0), "p"] = 1.0
    pairs["p_holm"] = holm(pairs["p"].fillna(1.0).to_numpy())
    sim = t_quantile(1.0 - (1.0 - level) / m, max(1, len(x) - 1)) * se
    pairs["sim_low"], pairs["sim_high"] = pairs["difference"] - sim, pairs["difference"] + sim
    pairs["sim_half"] = sim
    pairs["clear"] = pairs["p_holm"] < (1.0 - level)

    order = ratings.sort_values(["rank", "strategy"])["strategy"].tolist()
    separated = {(a, b): bool(c) for a, b, c in pairs[["a", "b", "clear"]].itertuples(index=False)}
    tier = tiers(order, separated)
    ratings["tier"] = ratings["strategy"].map(tier)
    ratings = ratings.sort_values(["rank", "strategy"]).reset_index(drop=True)
    return ratings, pairs


def _sentences(ratings, pairs, merged, n, game, metric, lower, unit) -> list[str]:
    words = metric_words(metric)
    units = plural(unit)
    lines = []
    k = len(ratings)
    deals = int(ratings["deals"].iloc[0])
    ladder = "; ".join(
        f"{int(r['rank'])}. {r['strategy']} {pm(r['rating'], r['half'])} (rank "
        f"{int(r['rank_low'])}-{int(r['rank_high'])})" for _, r in ratings.iterrows())
    lines.append(
        f"Ladder at {n} players ({game}, {k} strategies on mixed tables, {deals} {units}, every "
        f"strategy in every seat of every {unit}): {words} per {unit} against the average of "
        f"the tables ({'lower' if lower else 'higher'} is better), with rank intervals by "
        f"bootstrap over {units}: {ladder}.")
    groups = ratings.groupby("tier")["strategy"].apply(list)
    tied = [f"tier {t}: {', '.join(g)}" for t, g in groups.items()]
    lines.append(
        f"Strategies that cannot be separated (Holm's correction over all {len(pairs)} pairs, "
        f"error rate 5%) share a tier: {'; '.join(tied)}.")
    if k >= 2:
        a, b = ratings["strategy"].iloc[0], ratings["strategy"].iloc[1]
        row = pairs[((pairs["a"] == a) & (pairs["b"] == b)) | ((pairs["a"] == b) &
                                                                (pairs["b"] == a))].iloc[0]
        sign = 1.0 if row["a"] == a else -1.0
        d = sign * row["difference"]
        lead = -d if lower else d
        verdict = ("clearly ahead after the correction for picking the best of "
                   f"{k}" if row["clear"] else
                   f"not clearly ahead once the choice of the best of {k} is corrected for")
        lines.append(
            f"Best of {k}: {a} leads {b} by {lead:.{decimals_for(row['sim_half'])}f} {words} "
            f"per {unit} (simultaneous 95% interval over all pairs +/- "
            f"{row['sim_half']:.{decimals_for(row['sim_half'])}f}, plain +/- "
            f"{row['half']:.{decimals_for(row['half'])}f}): {verdict}."
            + (f" Duplicate deals made this difference {row['variance_reduction']:.1f} times "
               "more precise (in variance) than unpaired games."
               if np.isfinite(row["variance_reduction"]) else ""))
    if "pl" in ratings:
        lines.append(_pl_sentence(ratings, n, words))
    for mrg in merged:
        lines.append(f"{mrg['merged']} plays exactly as {mrg['kept']} ({mrg['reason']}): "
                     "rated once, under both names.")
    return lines


def run_ladder(
    backend: Backend,
    game: str | Sequence[str],
    strategies: Sequence[str] | None = None,
    players: Sequence[int] = (4,),
    games: int = 2000,
    seed: int = 5,
    mode: str = "",
    rules: dict[str, Any] | None = None,
    metric: str | None = None,
    better: str | None = None,
    level: float = 0.95,
    include: Sequence[str] = (),
    probe_deals: int = PROBE_DEALS,
    blocks: int = BLOCKS,
) -> StudyResult:
    """Rate every strategy (default: every registered one) at each player count.

    ``game`` may name several games (then ``strategies`` must be None): one result whose
    tables carry a ``game`` column.
    """
    if not isinstance(game, str):
        games_list = list(dict.fromkeys(game))
        if len(games_list) > 1:
            if strategies:
                raise CardlabError("name strategies only when the ladder is for one game")
            parts = [run_ladder(backend, g, None, players, games, seed, mode, rules, metric,
                                better, level, include, probe_deals, blocks)
                     for g in games_list]
            tables = {name: pd.concat([p.tables[name] for p in parts], ignore_index=True)
                      for name in parts[0].tables}
            keys = ("mode", "metric", "better", "rules", "strategies", "elapsed_s")
            manifest = {**parts[0].manifest, "game": games_list,
                        "by_game": {g: {k: p.manifest[k] for k in keys}
                                    for g, p in zip(games_list, parts, strict=True)}}
            manifest["runs"] = [r for p in parts for r in p.manifest["runs"]]
            manifest["strategies"] = [s for p in parts for s in p.manifest["strategies"]]
            return StudyResult("ladder", tables, manifest,
                               [h for p in parts for h in p.headlines])
        game = games_list[0]
    t0 = time.perf_counter()
    texts = list(strategies) if strategies else ladder_strategies(game, include)
    labels = list(dict.fromkeys(backend.canonical(game, s) for s in texts))
    if len(labels) < 2:
        raise CardlabError("a ladder needs at least two different strategies")
    if games < 10:
        raise CardlabError(f"a ladder needs at least 10 deals per player count, got {games}")
    all_ratings, all_pairs, all_merged, specs, lines = [], [], [], [], []
    mode_used = mode
    for n in players:
        base = make_spec(backend, game, n, [labels[0]] * n, seed, mode=mode, rules=rules)
        mode_used = base.mode
        col, lower = metric_for(game, base.mode, metric, better)
        kept, merged = merge_same(backend, base, labels, probe_deals)
        if len(kept) < 2:
            raise CardlabError("every strategy plays the same: nothing to rate")
        table, s = play_ladder(backend, base, kept, games, blocks)
        specs.extend(x.to_dict() for x in s)
        ratings, pairs = rate(table, col, lower, level, seed=seed)
        ratings = ratings.merge(plackett_luce(table, col, lower, level, seed=seed),
                                on="strategy", how="left")
        names = {m["kept"]: [] for m in merged}
        for m in merged:
            names[m["kept"]].append(m["merged"])
        ratings.insert(1, "members", ratings["strategy"].map(
            lambda x, names=names: " = ".join([x, *names.get(x, [])])))
        for t in (ratings, pairs):
            t.insert(0, "players", n)
            t.insert(0, "game", game)
        all_ratings.append(ratings)
        all_pairs.append(pairs)
        all_merged += [{"game": game, "players": n, **m} for m in merged]
        unit = games_registry.get(game).mode(base.mode).unit
        lines.extend(_sentences(ratings, pairs, merged, n, game, col, lower, unit))
    col, lower = metric_for(game, mode_used, metric, better)
    manifest = base_manifest(
        "ladder", game=game, mode=mode_used, seed=seed, games=games, players=list(players),
        strategies=labels, rules=rules_by_players(specs), metric=col,
        better="lower" if lower else "higher", level=level,
        design=f"mixed tables: {blocks} blocks of deals, each a seeded shuffle of the "
               "strategies in every rotation (every strategy in every seat of every deal); "
               "additive score model with deal-clustered errors; rank intervals by bootstrap "
               "over deals; tiers and simultaneous intervals corrected over all pairs (Holm, "
               "Bonferroni)",
        runs=specs, elapsed_s=round(time.perf_counter() - t0, 2),
    )
    tables = {"ratings": pd.concat(all_ratings, ignore_index=True),
              "pairs": pd.concat(all_pairs, ignore_index=True),
              "merged": pd.DataFrame(all_merged, columns=["game", "players", "kept",
                                                          "merged", "reason"])}
    return StudyResult("ladder", tables, manifest, lines)


def _pl_sentence(ratings: pd.DataFrame, n: int, words: str) -> str:
    """The Plackett-Luce order beside the score model's."""
    pl = ratings.sort_values(["pl_rank", "strategy"])
    half = float(((pl["pl_high"] - pl["pl_low"]) / 2).min())
    d = decimals_for(half)
    order = "; ".join(
        f"{int(r['pl_rank'])}. {r['strategy']} {r['pl']:+.{d}f} [{r['pl_low']:+.{d}f}, "
        f"{r['pl_high']:+.{d}f}] (rank {int(r['pl_rank_low'])}-{int(r['pl_rank_high'])})"
        for _, r in pl.iterrows())
    score = list(ratings.sort_values(["rank", "strategy"])["strategy"])
    moved = [s for i, s in enumerate(pl["strategy"]) if score[i] != s]
    agree = ("the same order as the score model" if not moved else
             f"the score model, which also weighs the margins, places {', '.join(moved)} "
             "differently")
    return (f"Plackett-Luce at {n} players, from each table's finishing order by {words} alone "
            f"(log-strength, 95% bootstrap interval over deals): {order}; {agree}.")

"""Study 5: the ladder, every registered strategy of a game rated on mixed tables.

Design, per player count:

1. **Merging.** Strategies with the same family and knob values, or whose games are identical
   on every probe deal (each one seat by seat against ``basic`` and against ``random``), make
   the same decisions: they are rated once, under both names ("basic = heuristic").
2. **The seating is the unit of randomisation.** The deals are cut into ``seatings`` small
   groups (default 200: at the demo's 2,000 deals, 10 deals each); each group draws a fresh
   seeded order of the strategies and plays every rotation of it through the seats
   (:func:`analyzer.stats.duplicate.rotations`), so on every deal every strategy sits in
   every seat exactly once, and its company (who sits next to it, and where) is drawn anew
   for every group. Over the seatings each strategy meets every other equally often in each
   relative position in expectation; the quantity rated is a strategy's result against a
   random seating of the others.
3. **Strategies tagged slow** (``pimc``) are *entrants*: they play ``1/slow_share`` of the
   deals (spread over the seatings; the deals named by the seeded design), there taking
   every seat once at a table of the regular strategies (one rotation of the group's order,
   drawn at random per seat, with the entrant in that seat). They are rated on the same
   scale, against the average of the regular tables of the same deals, but are nobody's
   company, so the regular strategies' ratings do not depend on them.
4. **One model over all tables**: the additive score model ``result = deal-and-seat effect +
   strategy rating + noise``. A strategy's value in a seating is its mean result there minus
   the mean of the regular tables of the same deals; its rating is the mean of those values,
   with the t interval over the seatings (the independent units: deals *and* the seating
   they were played in), and a pairwise difference is the paired mean difference over the
   seatings both played in.
5. **Groups and ranks from the corrected tests.** A pair is clearly different (``clear``)
   when Holm's correction over all pairs separates it, and clearly *apart* (``apart``) when
   the same correction shows it differs by more than the measure's margin (one minus point
   per game, one point of match wins: :class:`analyzer.games.registry.Measure`; ``margin``
   0 makes the two the same); the pairwise matrix carries plain 95% intervals and
   simultaneous ones (Bonferroni over all pairs). Groups (column ``tier``) are runs of the
   rating order cut only where every strategy above is clearly apart from every one below
   (:func:`analyzer.stats.hygiene.ordered_groups`): transitive, and the first group is
   clearly ahead of all others by more than the margin. Strategies closer than the margin
   share a group however many deals are played, so the groups do not turn on a difference
   too small to matter and too small to settle on the budget. The ranks a strategy can take
   (``rank_low``-``rank_high``) come from the same tests, so a strategy tied with another
   never gets a single rank.
6. **Plackett–Luce** beside the score model (:mod:`analyzer.stats.plackett_luce`): strengths
   from the finishing order of every table alone (not the margins), with intervals and rank
   intervals by the bootstrap over the seatings (columns ``pl*`` of the ratings).

Strategies tagged ``not-a-player`` (``peek``, which sees the cards the rules hide) are left
out unless named; the manifest says which were left out and why (``left_out``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.games import registry as games_registry
from analyzer.numbers import count as count_words
from analyzer.numbers import interval
from analyzer.runner.manifest import plural
from analyzer.runner.play import Backend, make_spec
from analyzer.stats.hygiene import holm, ordered_groups, rank_ranges, two_sided_p
from analyzer.stats.intervals import mean_interval, t_quantile
from analyzer.stats.plackett_luce import plackett_luce
from analyzer.studies.claims import Cell, Claim, half, make_cell, reading, several
from analyzer.studies.claims import probe as reader_of
from analyzer.studies.compare import metric_for, scaled
from analyzer.studies.defaults import LADDER_SLOW_SHARE
from analyzer.studies.registry import question
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.studies.same_play import PROBE_DEALS, merge_same
from analyzer.studies.seatings import SEATINGS, design, play_ladder
from analyzer.text import decimals_for, is_rate, metric_words
from strategies.registry import is_slow

EXCLUDED_TAGS = ("not-a-player",)
SLOW_SHARE = LADDER_SLOW_SHARE  # an entrant plays 1/SLOW_SHARE of the deals


def ladder_strategies(game: str, include: Sequence[str] = ()) -> list[str]:
    """Every registered strategy of ``game`` except those tagged not-a-player (unless listed
    in ``include``). Strategies tagged slow take part as entrants (module docstring)."""
    from strategies.registry import catalog

    out = []
    for name, spec in catalog(game).items():
        if name in include or not set(spec.tags) & set(EXCLUDED_TAGS):
            out.append(name)
    return out


def left_out(game: str, rated: Sequence[str], named: bool = False) -> list[dict[str, str]]:
    """The registered strategies of ``game`` that are not among ``rated``, each with why
    (``named``: the strategies were named, so the rest were not asked for)."""
    from strategies.registry import catalog

    out = []
    for name, spec in catalog(game).items():
        if name in rated:
            continue
        if named:
            reason = "not named"
        elif not spec.legal_player:
            reason = "not a player: it sees the cards the rules hide"
        else:
            reason = "tagged " + " and ".join(t for t in spec.tags if t in EXCLUDED_TAGS)
        out.append({"game": game, "strategy": name, "reason": reason})
    return out


def margin_of(game: str, metric: str, margin: float | None = None) -> float:
    """The difference the ladder's groups count for ``metric`` of ``game``: ``margin`` when
    given (a number at least 0), else the measure's declared margin (0 where none is)."""
    if margin is not None:
        if not math.isfinite(margin) or margin < 0:
            raise CardlabError(f"the margin must be a number at least 0, got {margin}")
        return float(margin)
    try:
        measure = games_registry.get(game).measure(metric)
    except CardlabError:  # a game the registry does not know (synthetic backends)
        return 0.0
    return measure.margin if measure is not None else 0.0


def margin_words(margin: float, metric: str, unit: str) -> str:
    """``1 minus point per game``, ``1 percentage point of match win rate``."""
    words = metric_words(metric)
    if is_rate(metric):
        value, words, per = margin * 100.0, f"percentage points of {words}", ""
    else:
        value, per = margin, f" per {unit}"
    if value == 1:
        words = words.replace("points", "point", 1)
    return f"{value:g} {words}{per}"


def _unit_values(games: pd.DataFrame, metric: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Units x strategies: each strategy's mean result in a seating minus the mean of the
    regular tables of the same deals (NaN where an entrant did not play), and the games each
    rating rests on (the entrants' own rows at their tables, every row of a regular table)."""
    regular = games[~games["entrant_table"]]
    deal_mean = regular.groupby("index")[metric].mean()
    entrant_rows = games["entrant_table"] & ~games["strategy"].isin(regular["strategy"].unique())
    own = games[~games["entrant_table"] | entrant_rows]
    own = own.assign(relative=own[metric].to_numpy(np.float64)
                     - deal_mean.reindex(own["index"]).to_numpy())
    values = own.groupby(["unit", "strategy"])["relative"].mean().unstack("strategy")
    return values, own


def _pair_row(a: str, b: str, x: pd.DataFrame, own: pd.DataFrame, metric: str,
              level: float) -> dict[str, Any]:
    both = x[[a, b]].dropna()
    diff = (both[a] - both[b]).to_numpy()
    est = mean_interval(diff, level)
    n = len(diff)
    ga = own.loc[own["strategy"] == a, metric].to_numpy(np.float64)
    gb = own.loc[own["strategy"] == b, metric].to_numpy(np.float64)
    var_paired = float(np.var(diff, ddof=1)) / n if n > 1 else math.nan
    var_unpaired = float(np.var(ga, ddof=1)) / len(ga) + float(np.var(gb, ddof=1)) / len(gb)
    sa, sb = float(both[a].std()), float(both[b].std())
    return {
        "a": a, "b": b, "difference": est.value, "low": est.low, "high": est.high,
        "half": est.half, "n_units": n, "mean_a": float(ga.mean()), "mean_b": float(gb.mean()),
        "correlation": float(np.corrcoef(both[a], both[b])[0, 1]) if sa > 0 and sb > 0
        else math.nan,
        "unpaired_half": t_quantile(level, max(1, n - 1)) * math.sqrt(var_unpaired),
        "variance_reduction": (var_unpaired / var_paired if var_paired > 0 else
                               math.inf if var_unpaired > 0 else math.nan),
    }


def rate(games: pd.DataFrame, metric: str, lower: bool, level: float = 0.95,
         margin: float = 0.0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Ratings (additive model, intervals over the seatings, groups and rank ranges from the
    corrected pairwise tests) and the pairwise differences (plain and simultaneous intervals,
    Holm-adjusted p-values), from the games of :func:`play_ladder`.

    Two tests per pair, each with Holm's correction over all pairs: ``clear`` (the
    difference is not 0) and ``apart`` (it is more than ``margin`` either way: the test of
    |difference| <= margin, whose p-value is ``p_apart``); the groups and rank ranges come
    from ``apart``, so strategies less than the margin apart share a group however many
    deals are played. With ``margin`` 0 the two tests are the same."""
    x, own = _unit_values(games, metric)
    entrants = set(games.loc[games["entrant_table"], "strategy"]) - set(
        games.loc[~games["entrant_table"], "strategy"])
    names = list(x.columns)
    rows = []
    for name in names:
        col = x[name].dropna()
        est = mean_interval(col.to_numpy(), level)
        mine = own[own["strategy"] == name]
        rows.append({"strategy": name, "rating": est.value, "low": est.low, "high": est.high,
                     "half": est.half, "mean": float(mine[metric].mean()),
                     "deals": int(mine["index"].nunique()), "games": len(mine),
                     "units": est.n, "entrant": name in entrants})
    ratings = pd.DataFrame(rows)
    key = ratings["rating"] if lower else -ratings["rating"]
    ratings["rank"] = key.rank(method="min").astype(int)
    order = ratings.sort_values(["rank", "strategy"])["strategy"].tolist()

    pairs = pd.DataFrame([_pair_row(a, b, x, own, metric, level)
                          for i, a in enumerate(order) for b in order[i + 1:]])
    if pairs.empty:
        raise CardlabError("a ladder needs at least two different strategies")
    m = len(pairs)
    df = (pairs["n_units"] - 1).clip(lower=1)
    t_plain = np.array([t_quantile(level, d) for d in df])
    t_sim = np.array([t_quantile(1.0 - (1.0 - level) / m, d) for d in df])
    se = pairs["half"] / t_plain
    z = pairs["difference"] / se.replace(0.0, np.nan)
    pairs["p"] = two_sided_p(z.to_numpy())
    pairs.loc[pairs["difference"].eq(0) & se.eq(0), "p"] = 1.0
    pairs.loc[pairs["difference"].ne(0) & se.eq(0), "p"] = 0.0
    pairs["p_holm"] = holm(pairs["p"].fillna(1.0).to_numpy())
    sim = t_sim * se
    pairs["sim_low"], pairs["sim_high"] = pairs["difference"] - sim, pairs["difference"] + sim
    pairs["sim_half"] = sim
    pairs["clear"] = pairs["p_holm"] < (1.0 - level)
    pairs["margin"] = margin
    beyond = pairs["difference"].abs() - margin
    z_apart = beyond / se.replace(0.0, np.nan)
    pairs["p_apart"] = np.where(beyond > 0, two_sided_p(z_apart.to_numpy()), 1.0)
    pairs.loc[(beyond > 0) & se.eq(0), "p_apart"] = 0.0
    pairs["p_apart_holm"] = holm(pairs["p_apart"].fillna(1.0).to_numpy())
    pairs["apart"] = pairs["p_apart_holm"] < (1.0 - level)

    separated = {(a, b): bool(c) for a, b, c in pairs[["a", "b", "apart"]].itertuples(index=False)}
    ranges = rank_ranges(order, separated)
    ratings["rank_low"] = ratings["strategy"].map(lambda s: ranges[s][0])
    ratings["rank_high"] = ratings["strategy"].map(lambda s: ranges[s][1])
    ratings["tier"] = ratings["strategy"].map(ordered_groups(order, separated))
    ratings = ratings.sort_values(["rank", "strategy"]).reset_index(drop=True)
    return ratings, pairs


def rank_words(low: int, high: int) -> str:
    """``rank 3`` or ``ranks 1-4``: the places a strategy can take."""
    return f"rank {low}" if low == high else f"ranks {low}-{high}"


def _claims(result: StudyResult, n: int, game: str, metric: str, lower: bool, unit: str,
            seatings: int, slow_share: int, margin: float = 0.0) -> list[Claim]:
    """The ladder at ``n`` players of ``game`` as claims on tables ``ratings``, ``pairs`` and
    ``merged``: the groups with every rating and rank range, the correction, the leader's
    margin, the entrants, the Plackett-Luce order and the merged strategies."""
    ratings = result.table("ratings")
    ratings = ratings[(ratings["game"].astype(str) == game) & (ratings["players"] == n)]
    ratings = ratings.sort_values(["rank", "strategy"]).reset_index(drop=True)
    pairs = result.table("pairs")
    pairs = pairs[(pairs["game"].astype(str) == game) & (pairs["players"] == n)]
    field_ = ",".join(str(x) for x in ratings["strategy"])
    q = question("ladder")
    words = metric_words(metric)
    units = plural(unit)
    pct = is_rate(metric)

    def cell(kind: str, table: str, choice: str, col: str, key: str = "strategy",
             against: str | None = None, **extra) -> tuple[Claim, Cell]:
        reader = reader_of(game, "ladder", kind, table, against=against,
                       better="lower" if lower else "higher", extra={"key": key, **extra})
        return reader, make_cell(reader, result, n, choice, col, field_=field_)

    def one(id_: str, sentence: str, parts: list) -> Claim:
        return several(f"ladder-{game}-{n}-{id_}", sentence, parts, game=game, study="ladder",
                       question=q)

    claims = []
    k = len(ratings)
    regular = ratings[~ratings["entrant"].astype(bool)]
    top_deals = str(regular.loc[regular["deals"].idxmax(), "strategy"])
    parts = [cell("value", "ratings", top_deals, "deals", exact=True)]
    deals = int(parts[0][1].value)
    groups = []
    for t, part in ratings.groupby("tier", sort=True):
        members = []
        for _, r in part.iterrows():
            name = str(r["strategy"])
            parts += [cell("top-group" if t == ratings["tier"].min() else "value", "ratings",
                           name, "rating"),
                      cell("equals", "ratings", name, "tier", equals=str(int(t))),
                      cell("value", "ratings", name, "rank_low", exact=True),
                      cell("value", "ratings", name, "rank_high", exact=True)]
            rating, low, high = (c for _, c in parts[-4:-3] + parts[-2:])
            shown = interval(rating.value, half(rating), percent=pct, signed=True)
            members.append(f"{name} {shown} ({rank_words(int(low.value), int(high.value))})")
        groups.append(f"group {int(t)}: {', '.join(members)}")
    claims.append(one("groups", (
        f"Ladder at {n} players ({game}, {k} strategies on mixed tables, {count_words(deals)} "
        f"{units} in {seatings} fresh seatings, every strategy in every seat of every {unit}): "
        f"{words} per {unit} against the average of the tables ({'lower' if lower else 'higher'}"
        f" is better), 95% intervals over the seatings; {'; '.join(groups)}."), parts))
    counted = cell("count", "pairs", "pairs", "rows")
    apart, smaller = ((f"clearly more than {margin_words(margin, metric, unit)} ahead of "
                       "every one below", "; a smaller difference does not count, however "
                       "sure") if margin > 0 else ("clearly separated from every one below", ""))
    claims.append(one("correction", (
        f"Groups are runs of that order, cut only where every strategy above is {apart} "
        f"(Holm's correction over all {int(counted[1].value)} pairs, error rate 5%{smaller}); "
        f"the ranks are the places each strategy can take under the same tests."), [counted]))
    if k >= 2:
        a, b = str(ratings["strategy"].iloc[0]), str(ratings["strategy"].iloc[1])
        row = pairs[((pairs["a"] == a) & (pairs["b"] == b)) | ((pairs["a"] == b) &
                                                                (pairs["b"] == a))].iloc[0]
        ra, rb = str(row["a"]), str(row["b"])
        diff = cell("value", "pairs", ra, "difference", key="a", against=rb)
        clear = cell("equals", "pairs", ra, "clear", key="a", against=rb,
                     equals=str(bool(row["clear"])))
        sim = cell("value", "pairs", ra, "sim_half", key="a", against=rb, exact=True)
        plain = cell("value", "pairs", ra, "half", key="a", against=rb, exact=True)
        parts = [cell("best", "ratings", a, "rating"), diff, clear, sim, plain]
        if margin > 0:
            parts.append(cell("equals", "pairs", ra, "apart", key="a", against=rb,
                              equals=str(bool(row["apart"]))))
        sign = 1.0 if ra == a else -1.0
        d = sign * diff[1].value
        lead = -d if lower else d
        scale, suffix = (100.0, " percentage points of") if pct else (1.0, "")
        verdict = ("clearly ahead after the correction for picking the best of "
                   f"{k}" if row["clear"] else
                   f"not clearly ahead once the choice of the best of {k} is corrected for")
        if margin > 0 and row["clear"] and not row["apart"]:
            verdict += (f", but not clearly by more than {margin_words(margin, metric, unit)}, "
                        "so the two share a group")
        sim_half, half_ = sim[1].value, plain[1].value
        dec = decimals_for(sim_half * scale)
        entrant = bool(ratings["entrant"].iloc[0] or ratings["entrant"].iloc[1])
        pairing = ""
        if not entrant:
            parts.append(cell("value", "pairs", ra, "variance_reduction", key="a", against=rb,
                              exact=True))
            pairing = (f" Duplicate deals made this difference {parts[-1][1].value:.1f} "
                       "times more precise (in variance) than unpaired games.")
        claims.append(one("best", (
            f"Best of {k}: {a} leads {b} by {lead * scale:.{dec}f}{suffix} {words} per {unit} "
            f"(simultaneous 95% interval over all pairs +/- {sim_half * scale:.{dec}f}, "
            f"plain +/- {half_ * scale:.{decimals_for(half_ * scale)}f}): "
            f"{verdict}.{pairing}"), parts))
    for _, r in ratings[ratings["entrant"].astype(bool)].iterrows():
        name = str(r["strategy"])
        parts = [cell("equals", "ratings", name, "entrant", equals="True"),
                 cell("value", "ratings", name, "deals", exact=True)]
        claims.append(one(f"entrant-{name}", (
            f"{name} is tagged slow: it played {count_words(parts[1][1].value)} of the "
            f"{units} (1/{slow_share} of the budget), on each taking every seat once at a "
            f"table of the other strategies drawn at random, and is rated against the average "
            f"of the regular tables of the same {units}; it is nobody's company, so the other "
            f"ratings do not depend on it."), parts))
    if "pl" in ratings:
        claims.append(_pl_claim(ratings, n, words, cell, one))
    merged = result.table("merged")
    merged = merged[(merged["game"].astype(str) == game) & (merged["players"] == n)]
    for _, m in merged.iterrows():
        parts = [cell("equals", "merged", str(m["merged"]), col, key="merged",
                      equals=str(m[col])) for col in ("kept", "reason")]
        claims.append(one(f"merged-{m['merged']}", (
            f"{m['merged']} plays exactly as {m['kept']} ({m['reason']}): "
            "rated once, under both names."), parts))
    return claims


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
    seatings: int = SEATINGS,
    slow_share: int = SLOW_SHARE,
    slow: Sequence[str] | None = None,
    margin: float | dict[str, float] | None = None,
) -> StudyResult:
    """Rate every strategy (default: every registered one but those tagged not-a-player) at
    each player count.

    ``game`` may name several games (then ``strategies`` must be None): one result whose
    tables carry a ``game`` column. ``slow`` names the entrants (default: the strategies
    tagged slow in the registry), which play 1/``slow_share`` of the deals. ``margin``
    (per game: a number, or {game: number} with several games; default: the measure's
    declared margin, :class:`analyzer.games.registry.Measure`) is the difference the groups
    count (:func:`rate`).
    """
    if not isinstance(game, str):
        games_list = list(dict.fromkeys(game))
        if len(games_list) > 1:
            if strategies:
                raise CardlabError("name strategies only when the ladder is for one game")
            if margin is not None and not isinstance(margin, dict) and margin != 0:
                raise CardlabError("give the margin per game (e.g. ass=1,jass=0.01) when "
                                   "rating several games: their units differ")
            parts = [run_ladder(backend, g, None, players, games, seed, mode, rules, metric,
                                better, level, include, probe_deals, seatings, slow_share,
                                slow, margin.get(g) if isinstance(margin, dict) else margin)
                     for g in games_list]
            tables = {name: pd.concat([p.tables[name] for p in parts], ignore_index=True)
                      for name in parts[0].tables}
            keys = ("mode", "metric", "better", "margin", "rules", "strategies", "entrants",
                    "left_out", "elapsed_s")
            manifest = {**parts[0].manifest, "game": games_list,
                        "by_game": {g: {k: p.manifest[k] for k in keys}
                                    for g, p in zip(games_list, parts, strict=True)}}
            manifest["runs"] = [r for p in parts for r in p.manifest["runs"]]
            manifest["strategies"] = [s for p in parts for s in p.manifest["strategies"]]
            manifest["entrants"] = [s for p in parts for s in p.manifest["entrants"]]
            manifest["left_out"] = [x for p in parts for x in p.manifest["left_out"]]
            both = StudyResult("ladder", tables, manifest)
            return both.say([c for p in parts for c in p.claims])
        game = games_list[0]
    if isinstance(margin, dict):
        margin = margin.get(game)
    t0 = time.perf_counter()
    texts = list(strategies) if strategies else ladder_strategies(game, include)
    labels = list(dict.fromkeys(backend.canonical(game, s) for s in texts))
    if len(labels) < 2:
        raise CardlabError("a ladder needs at least two different strategies")
    if games < 10:
        raise CardlabError(f"a ladder needs at least 10 deals per player count, got {games}")
    slow_labels = ([backend.canonical(game, s) for s in slow] if slow is not None
                   else [x for x in labels if is_slow(game, x)])
    all_ratings, all_pairs, all_merged, specs, said = [], [], [], [], []
    mode_used = mode
    entrants: list[str] = []
    for n in players:
        base = make_spec(backend, game, n, [labels[0]] * n, seed, mode=mode, rules=rules)
        mode_used = base.mode
        col, lower = metric_for(game, base.mode, metric, better)
        margin_n = margin_of(game, col, margin)
        kept, merged = merge_same(backend, base, labels, probe_deals, unprobed=slow_labels)
        regular = [x for x in kept if x not in slow_labels]
        entering = [x for x in kept if x in slow_labels]
        if len(regular) < 2:
            raise CardlabError("a ladder needs at least two different strategies that are not "
                               "tagged slow")
        entrants += [x for x in entering if x not in entrants]
        plan = design(regular, entering, n, games, seed, seatings, slow_share)
        table, s = play_ladder(backend, base, plan)
        table = scaled(game, table, col)
        specs.extend(x.to_dict() for x in s)
        ratings, pairs = rate(table, col, lower, level, margin_n)
        ratings = ratings.merge(plackett_luce(table, col, lower, level, seed=seed, unit="unit"),
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
        said.append((n, col, lower, games_registry.get(game).mode(base.mode).unit, len(plan),
                     margin_n))
    col, lower = metric_for(game, mode_used, metric, better)
    try:
        missing = left_out(game, labels, named=bool(strategies))
    except Exception:  # a game the registry does not know (synthetic backends)
        missing = []
    manifest = base_manifest(
        "ladder", game=game, mode=mode_used, seed=seed, games=games, players=list(players),
        strategies=labels, rules=rules_by_players(specs), metric=col,
        better="lower" if lower else "higher", margin=margin_of(game, col, margin),
        level=level, seatings=min(games, seatings),
        slow_share=slow_share, entrants=entrants, left_out=missing,
        design=f"mixed tables: {min(games, seatings)} groups of deals, each with a fresh "
               "seeded order of the strategies played in every rotation (every strategy in "
               "every seat of every deal, its company drawn anew per group); strategies "
               f"tagged slow enter on 1/{slow_share} of the deals, in every seat at tables of "
               "the others; additive score model with intervals over the seatings (the unit "
               "of randomisation); groups and rank ranges from the pairwise tests of a "
               "difference beyond the margin, corrected over all pairs (Holm), simultaneous "
               "intervals (Bonferroni)",
        runs=specs, elapsed_s=round(time.perf_counter() - t0, 2),
    )
    tables = {"ratings": pd.concat(all_ratings, ignore_index=True),
              "pairs": pd.concat(all_pairs, ignore_index=True),
              "merged": pd.DataFrame(all_merged, columns=["game", "players", "kept",
                                                          "merged", "reason"])}
    result = StudyResult("ladder", tables, manifest)
    with reading():  # hundreds of cells of the same two tables
        return result.say([c for n, col_n, lower_n, unit, seatings_n, margin_n in said
                           for c in _claims(result, n, game, col_n, lower_n, unit,
                                            seatings_n, slow_share, margin_n)])


def _pl_claim(ratings: pd.DataFrame, n: int, words: str, cell: Callable[..., tuple],
              one: Callable[..., Claim]) -> Claim:
    """The Plackett-Luce order beside the score model's (``cell``/``one``: the ladder's
    cell and claim makers for this player count)."""
    pl = ratings.sort_values(["pl_rank", "strategy"])
    parts, rows = [], []
    for _, r in pl.iterrows():
        name = str(r["strategy"])
        got = [cell("value", "ratings", name, "pl", low="pl_low", high="pl_high"),
               cell("value", "ratings", name, "pl_rank_low", exact=True),
               cell("value", "ratings", name, "pl_rank_high", exact=True),
               cell("value", "ratings", name, "pl_rank", exact=True),
               cell("value", "ratings", name, "rank", exact=True)]
        parts += got
        rows.append([c for _, c in got])
    d = decimals_for(min(half(x[0]) for x in rows))
    order = "; ".join(
        f"{x[0].choice} {x[0].value:+.{d}f} [{x[0].low:+.{d}f}, {x[0].high:+.{d}f}] "
        f"({rank_words(int(x[1].value), int(x[2].value))})" for x in rows)
    score = list(ratings.sort_values(["rank", "strategy"])["strategy"])
    moved = [x[0].choice for i, x in enumerate(rows) if score[i] != x[0].choice]
    agree = ("the same order as the score model" if not moved else
             f"the score model, which also weighs the margins, places {', '.join(moved)} "
             "differently")
    return one("plackett-luce", (
        f"Plackett-Luce at {n} players, from each table's finishing order by {words} alone "
        f"(log-strength, 95% bootstrap interval over the seatings, best first): {order}; "
        f"{agree}."), parts)

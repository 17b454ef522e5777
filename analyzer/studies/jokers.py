"""Study 2 (Who's the Ass?): is it worth holding jokers?

Joker policies (hoard them, use them as needed, keep them to finish, dump them early, and
"keep until only k cards are left" for a sweep of k) are put into one seat against a fixed
field, in the duplicate format: each policy takes every seat in turn on the very same deals,
so that deal and seat luck are identical for all policies and cancel in their differences.
Policies are compared paired on the same (deal, seat); a policy's value on a deal is the mean
of its minus points over the seats it took.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.stats.duplicate import duplicate_pairs, duplicate_ranking, seat_swaps
from analyzer.studies.play import Backend, make_spec, seat_field
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.studies.text import pm

VALUE = "minus_points"


@dataclass(frozen=True)
class Policy:
    """A joker policy: its short name, the strategy label that plays it, sweep position k."""

    name: str
    label: str
    keep: int | None = None
    verb: str = ""  # how a sentence names it ("hoarding jokers")


NAMED = (
    Policy("hoard", "joker-hoarder", verb="hoarding jokers"),
    Policy("as-needed", "heuristic", verb="using jokers as needed"),
    Policy("finish", "finisher", verb="keeping jokers to finish"),
    Policy("dump", "joker-dumper", verb="dumping jokers early"),
)
DEFAULT_KEEP = (0, 1, 2, 3, 4, 6, 8, 13)


def policies(keep: Sequence[int]) -> list[Policy]:
    """The named policies plus ``hold-jokers:keep=k`` for every k in ``keep``."""
    for k in keep:
        if not 0 <= k <= 13:
            raise CardlabError(f"keep must be in 0..13 (cards left in hand), got {k}")
    sweep = [Policy(f"keep-until-{k}", f"hold-jokers:keep={k}", keep=k,
                    verb=f"keeping jokers until {k} cards are left") for k in keep]
    return [*NAMED, *sweep]


def play_policies(
    backend: Backend, players: int, field: list[str], pols: list[Policy], games: int,
    seed: int,
) -> tuple[pd.DataFrame, list[dict]]:
    """Games of every policy in every seat against ``field``; only the policy's own rows."""
    frames, specs = [], []
    for p_i, pol in enumerate(pols):
        for seat, seats in enumerate(seat_swaps(pol.label, field, players)):
            spec = make_spec(backend, "ass", players, seats, seed, mode="games")
            specs.append(spec.to_dict())
            rows = backend.collect(spec, games)
            mine = rows[rows["seat"] == seat].copy()
            mine.insert(2, "arrangement", p_i * players + seat)
            mine.insert(3, "strategy", pol.name)
            frames.append(mine)
    return pd.concat(frames, ignore_index=True), specs


def same_play(games_table: pd.DataFrame, order: list[str]) -> dict[str, str]:
    """Policy -> the first policy (in ``order``) whose games were identical on every deal and
    seat: they make the same decisions here and are never compared with each other."""
    prints: dict[bytes, str] = {}
    out = {}
    for name in order:
        part = games_table[games_table["strategy"] == name].sort_values(["index", "seat"])
        fp = np.ascontiguousarray(part.drop(columns=["arrangement", "strategy"])
                                  .select_dtypes("number").to_numpy(np.float64)).tobytes()
        out[name] = prints.setdefault(fp, name)
    return out


def _sentence(row: pd.Series, players: int, field_text: str, verbs: dict[str, str]) -> str:
    d, h = row["difference"], row["half"]
    how = "costs" if d > 0 else "saves"
    sure = "" if abs(d) > h else " (not clearly different from zero)"
    return (f"At {players} players against {field_text}, {verbs[row['a']]} {how} "
            f"{pm(abs(d), h)} minus points per game against {verbs[row['b']]}{sure}.")


def _holm_p(pairs: pd.DataFrame, level: float) -> np.ndarray:
    """Holm-adjusted p-values over the pairs that are not identical (1 for identical ones)."""
    from analyzer.stats.hygiene import holm, two_sided_p
    from analyzer.stats.intervals import t_quantile

    se = pairs["half"] / t_quantile(level, max(1, int(pairs["n_units"].max()) - 1))
    z = (pairs["difference"] / se.where(se > 0, np.nan)).to_numpy()
    p = np.where(np.isfinite(z), two_sided_p(np.nan_to_num(z)), 1.0)
    out = np.ones(len(pairs))
    live = ~pairs["identical"].to_numpy()
    if live.any():
        out[live] = holm(p[live])
    return out


def _diff(pairs: pd.DataFrame, a: str, b: str) -> tuple[float, float] | None:
    """(a - b, half-width) from the pairs table, whichever way round it is stored."""
    row = pairs[(pairs["a"] == a) & (pairs["b"] == b)]
    if len(row):
        return float(row["difference"].iloc[0]), float(row["half"].iloc[0])
    row = pairs[(pairs["a"] == b) & (pairs["b"] == a)]
    if len(row):
        return -float(row["difference"].iloc[0]), float(row["half"].iloc[0])
    return None


def headlines(ranking: pd.DataFrame, pairs: pd.DataFrame, field_text: str,
              verbs: dict[str, str]) -> list[str]:
    """Plain-language answers, every number from the tables."""
    lines, best_lines, sweep_lines = [], [], []
    for n, part in pairs.groupby("players"):
        hd = part[(part["a"] == "hoard") & (part["b"] == "dump")]
        if len(hd):
            lines.append(_sentence(hd.iloc[0], int(n), field_text, verbs))
        rank = ranking[ranking["players"] == n].sort_values("mean", kind="stable")
        same = dict(zip(rank["strategy"], rank.get("same_as", rank["strategy"]), strict=True))
        distinct = rank[rank["strategy"].map(same) == rank["strategy"]]
        best = distinct.iloc[0]
        second = distinct.iloc[1] if len(distinct) > 1 else None
        twins = [verbs[x] for x, y in same.items() if y == best["strategy"] and x != y]
        text = (f"At {n} players the best joker policy is {verbs[best['strategy']]}"
                + (f" (= {', '.join(twins)}: identical games)" if twins else "")
                + f" ({pm(best['mean'], best['half'])} minus points per game)")
        gap = _diff(part, second["strategy"], best["strategy"]) if second is not None else None
        if gap is not None:
            hit = part[((part["a"] == best["strategy"]) & (part["b"] == second["strategy"]))
                       | ((part["a"] == second["strategy"]) & (part["b"] == best["strategy"]))]
            holm_p = float(hit["p_holm"].iloc[0]) if "p_holm" in hit else float("nan")
            clear = "clearly" if holm_p < 0.05 else "not clearly"
            text += (f", {clear} ahead of {verbs[second['strategy']]} by "
                     f"{pm(gap[0], gap[1])} on the same deals (best of {len(distinct)} "
                     f"distinct policies: 'clearly' is judged after Holm's correction over "
                     f"all their pairs)")
        best_lines.append(text + ".")
        sweep = rank[rank["keep"].notna()]
        if len(sweep) > 1:
            k_best = sweep.iloc[0]
            vs = _diff(part, k_best["strategy"], "as-needed")
            if same.get(k_best["strategy"]) == same.get("as-needed"):
                text = (f"At {n} players keeping jokers never pays here: the best k, "
                        f"k = {int(k_best['keep'])}, plays exactly as using them as needed")
            elif vs is not None and not vs[0] < -vs[1]:
                text = (f"At {n} players keeping jokers does not pay here: even the best k, "
                        f"k = {int(k_best['keep'])}, costs {pm(vs[0], vs[1])} minus points per "
                        "game against using them as needed")
            else:
                text = (f"At {n} players the best k for 'keep jokers until k cards are left' "
                        f"is k = {int(k_best['keep'])}")
                if vs is not None:
                    how = "costing" if vs[0] > 0 else "saving"
                    text += (f", {how} {pm(abs(vs[0]), vs[1])} minus points per game against "
                             "using them as needed")
            sweep_lines.append(text + ".")
    lines += best_lines + sweep_lines
    live = pairs[~pairs["identical"]] if "identical" in pairs else pairs
    head = live[(live["a"] == "hoard") & (live["b"] == "dump")]["variance_reduction"]
    vr = live["variance_reduction"].replace([np.inf], np.nan).dropna()
    if len(head):
        lines.append(
            f"For the headline pair, hoarding against dumping jokers, the duplicate format "
            f"made the comparison {head.min():.1f} to {head.max():.1f} times more precise in "
            f"variance than unpaired runs of the same size (median over all {len(vr)} pairs "
            f"of different policies: {vr.median():.1f}); pairs of identical policies are "
            "left out.")
    for n, rank in ranking.groupby("players"):
        if "same_as" not in rank:
            break
        groups = rank.groupby("same_as", sort=False)["strategy"].apply(list)
        names = "; ".join(" = ".join(verbs[x] for x in g) for g in groups if len(g) > 1)
        if names:
            lines.append(f"At {n} players these policies play identical games, so they are "
                         f"merged and never compared with each other: {names}.")
    return lines


def run_jokers(
    backend: Backend,
    players: Sequence[int] = (3, 4, 5, 6, 8),
    field: Sequence[str] = ("basic",),
    keep: Sequence[int] = DEFAULT_KEEP,
    games: int = 1000,
    seed: int = 2,
    level: float = 0.95,
) -> StudyResult:
    """Every joker policy in every seat against ``field`` on ``games`` common deals."""
    if games < 2:
        raise CardlabError(f"the jokers study needs at least 2 games, got {games}")
    field_labels = [backend.canonical("ass", f) for f in field] or ["basic"]
    pols = policies(keep)
    verbs = {p.name: p.verb for p in pols}
    order = [p.name for p in pols]
    t0 = time.perf_counter()
    rankings, pair_tables, specs = [], [], []
    for n in players:
        games_table, run_specs = play_policies(backend, n, seat_field(field_labels, n), pols,
                                               games, seed)
        specs.extend(run_specs)
        rank = duplicate_ranking(games_table, VALUE, lower_is_better=True, level=level,
                                 order=order)
        rank.insert(0, "players", n)
        rank["keep"] = rank["strategy"].map({p.name: p.keep for p in pols})
        rank["label"] = rank["strategy"].map({p.name: p.label for p in pols})
        rankings.append(rank)
        # every pair of policies, paired on the same (deal, seat)
        pairs = duplicate_pairs(games_table, VALUE, level, order=order)
        pairs.insert(0, "players", n)
        same = same_play(games_table, order)
        rank["same_as"] = rank["strategy"].map(same)
        pairs["identical"] = [same[a] == same[b] for a, b in zip(pairs["a"], pairs["b"],
                                                                  strict=True)]
        pairs["p_holm"] = _holm_p(pairs, level)
        pair_tables.append(pairs)
    ranking = pd.concat(rankings, ignore_index=True)
    pairs = pd.concat(pair_tables, ignore_index=True)
    field_text = ("basic opponents" if field_labels == ["basic"]
                  else "a field of " + ", ".join(field_labels))
    manifest = base_manifest(
        "jokers", game="ass", seed=seed, games=games, players=list(players),
        field=field_labels, keep=list(keep), level=level, runs=specs,
        rules=rules_by_players(specs),
        policies={p.name: p.label for p in pols},
        design="one seat against the field, duplicate: each policy in every seat of the "
               "same deals; intervals over deals",
        metric="minus_points (lower is better)", unit="game",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    return StudyResult("jokers", {"policies": ranking, "differences": pairs}, manifest,
                       headlines(ranking, pairs, field_text, verbs))

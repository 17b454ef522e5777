"""Study 2 (Who's the Ass?): is it worth holding jokers?

Joker policies (hoard them, use them as needed, keep them to finish, dump them early, and
"keep until only k cards are left" for a sweep of k) are put into one seat against a fixed
field, in the duplicate format: each policy takes every seat in turn on the very same deals,
so that deal and seat luck are identical for all policies and cancel in their differences.
Policies are compared paired on the same (deal, seat); a policy's value on a deal is the mean
of its minus points over the seats it took.

The same policies also play whole matches (A-12, K = the number of players, so every player
deals once), one player against the field, each policy taking every player's place on the
same matches: the currency of the table is the chance to win the evening (ties shared), and
the headline puts it next to the minus points per game.

Policies are merged as identical (one name, never compared with each other) only when they
are the same strategy by definition (equal canonical labels) or play identical games in
every seat of at least :data:`IDENTITY_PROBE` deals: a study of fewer games plays that many
deals of the suspected twins first (:func:`identical_policies`), and the headline says how
many deals the merge rests on.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.rng import DEFAULT_SEED
from analyzer.stats.duplicate import (
    MIN_RATIO_DIFFERING,
    MIN_RATIO_UNITS,
    duplicate_pairs,
    duplicate_ranking,
    seat_swaps,
)
from analyzer.studies.play import Backend, make_spec, seat_field
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.studies.text import pm

VALUE = "minus_points"
WIN = "win"  # the share of a match win, 0..1 (the kernel's win_share / WIN_SHARE_UNIT)


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
# deals (in every seat) on which two policies must play identical games to be merged: two
# keep-until-k policies can agree on a few dozen deals and still differ on hundreds
IDENTITY_PROBE = 2000


def policies(keep: Sequence[int]) -> list[Policy]:
    """The named policies plus ``hold-jokers:keep=k`` for every k in ``keep``."""
    for k in keep:
        if not 0 <= k <= 13:
            raise CardlabError(f"keep must be in 0..13 (cards left in hand), got {k}")
    sweep = [Policy(f"keep-until-{k}", f"hold-jokers:keep={k}", keep=k,
                    verb=f"keeping jokers until {k} cards are left") for k in keep]
    return [*NAMED, *sweep]


def play_policies(
    backend: Backend, players: int, field: list[str], pols: list[Policy], count: int,
    seed: int, mode: str = "games",
) -> tuple[pd.DataFrame, list[dict]]:
    """Games of every policy in every seat against ``field``; only the policy's own rows.

    With ``mode="matches"``: matches (K = players) with the policy in every player's place,
    and its share of the win in ``win``."""
    from analyzer.games.ass.cards import WIN_SHARE_UNIT

    frames, specs = [], []
    for p_i, pol in enumerate(pols):
        for seat, seats in enumerate(seat_swaps(pol.label, field, players)):
            spec = make_spec(backend, "ass", players, seats, seed, mode=mode)
            specs.append(spec.to_dict())
            rows = backend.collect(spec, count)
            mine = rows[rows["seat"] == seat].copy()
            mine.insert(2, "arrangement", p_i * players + seat)
            mine.insert(3, "strategy", pol.name)
            if mode == "matches":
                mine[WIN] = mine["win_share"].to_numpy() / WIN_SHARE_UNIT
            frames.append(mine)
    return pd.concat(frames, ignore_index=True), specs


def _match_sentence(n: int, wins: pd.DataFrame, diffs: pd.DataFrame, field_text: str,
                    verbs: dict[str, str]) -> str | None:
    """'hoarding jokers turns a 25% chance to win a 4-player evening into X%', with the
    minus points per game beside it."""
    rank = wins[wins["players"] == n].set_index("strategy")
    if "hoard" not in rank.index or "as-needed" not in rank.index:
        return None
    base, hoard = rank.loc["as-needed"], rank.loc["hoard"]
    k = int(hoard["games_per_match"])
    chance = _percent(base["mean"], base["half"])
    article = "an" if chance.startswith(("8", "11", "18")) else "a"
    evening = "an" if n in (8, 11) else "a"
    text = (f"At {n} players against {field_text}, {verbs['hoard']} turns {article} {chance} "
            f"chance to win {evening} {n}-player evening of {k} games into "
            f"{_percent(hoard['mean'], hoard['half'])}")
    per_game = _diff(diffs[diffs["players"] == n], "hoard", "as-needed")
    if per_game is not None:
        how = "costing" if per_game[0] > 0 else "saving"
        text += (f", {how} {pm(abs(per_game[0]), per_game[1])} minus points per game against "
                 f"{verbs['as-needed']}")
    return text + "."


def _percent(value: float, half: float) -> str:
    """A chance in percent, with its interval where it has one (none: exact by design)."""
    if not half > 1e-12:
        return f"{100 * value:.3g}%"  # 25%, 33.3%, 12.5%
    return pm(100 * value, 100 * half) + "%"


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


def identical_policies(
    backend: Backend, players: int, field: list[str], pols: list[Policy],
    games_table: pd.DataFrame, games: int, seed: int,
) -> tuple[dict[str, str], int]:
    """Policy -> the first policy (in ``pols``' order) it is merged with, and the number of
    deals that merge rests on.

    Two policies are merged when their canonical labels are equal (the same strategy by
    definition), or when they play identical games in every seat of the study's deals and of
    at least IDENTITY_PROBE deals: when the study played fewer, the policies that look
    identical on its deals are played on IDENTITY_PROBE deals of the same seed (the study's
    deals among them) and merged only if identical there too."""
    order = [p.name for p in pols]
    labels = {p.name: backend.canonical("ass", p.label) for p in pols}
    seen = same_play(games_table, order)
    probe, probe_deals = seen, games
    suspects = [p for p in pols if sum(seen[x] == seen[p.name] for x in order) > 1]
    if suspects and games < IDENTITY_PROBE:
        probe_table, _ = play_policies(backend, players, field, suspects, IDENTITY_PROBE, seed)
        probe = same_play(probe_table, [p.name for p in suspects])
        probe_deals = IDENTITY_PROBE
    out: dict[str, str] = {}
    for i, name in enumerate(order):
        out[name] = name
        for earlier in order[:i]:
            if out[earlier] != earlier:
                continue
            if labels[earlier] == labels[name] or (
                    seen[earlier] == seen[name] and name in probe and earlier in probe
                    and probe[earlier] == probe[name]):
                out[name] = earlier
                break
    return out, probe_deals


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


def _counts(items: list[str]) -> str:
    """'3, 4 and 8' from ['3', '4', '8']."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _against_as_needed(pairs: pd.DataFrame, name: str, verbs: dict[str, str],
                       field_text: str) -> str | None:
    """One sentence: ``name`` against using jokers as needed, at every player count."""
    parts, clear, sign = [], [], []
    for n, part in pairs.groupby("players"):
        d = _diff(part, name, "as-needed")
        if d is None:
            continue
        parts.append(f"{pm(abs(d[0]), d[1])} at {int(n)} players")
        clear.append(abs(d[0]) > d[1])
        sign.append(d[0] > 0)
    if not parts:
        return None
    if all(sign):
        how = "costs"
    elif not any(sign):
        how = "saves"
    else:
        how = "costs or saves"
    unclear = "" if all(clear) else (
        f"; not clearly different from zero at {sum(not c for c in clear)} of {len(clear)} "
        "player counts")
    return (f"Against {field_text}, {verbs[name]} {how} minus points compared with using "
            f"jokers as needed: {', '.join(parts)}, per game{unclear}.")


def headlines(ranking: pd.DataFrame, pairs: pd.DataFrame, field_text: str,
              verbs: dict[str, str], wins: pd.DataFrame | None = None,
              probe_deals: int = 0) -> list[str]:
    """Plain-language answers, every number from the tables; each baseline is 'as needed'.

    One line per finding: hoarding in points, hoarding in match wins, the best policy (judged
    after Holm's correction over every pair of distinct policies), the keep-until sweep, the
    precision of the headline pair, and the policies merged because they play identically
    (in every seat of ``probe_deals`` deals: :func:`identical_policies`)."""
    lines = []
    hoard = _against_as_needed(pairs, "hoard", verbs, field_text)
    if hoard:
        lines.append(hoard)
    if wins is not None and len(wins):  # the match answer: one line over the player counts
        match_lines = [_match_sentence(int(n), wins, pairs, field_text, verbs)
                       for n in sorted(set(pairs["players"]))]
        if any(match_lines):
            lines.append(" ".join(m for m in match_lines if m))
    best_by: dict[str, list[str]] = {}
    notes, sweep_parts, n_distinct = [], [], 0
    for n, part in pairs.groupby("players"):
        rank = ranking[ranking["players"] == n].sort_values("mean", kind="stable")
        same = dict(zip(rank["strategy"], rank.get("same_as", rank["strategy"]), strict=True))
        distinct = rank[rank["strategy"].map(same) == rank["strategy"]]
        n_distinct = max(n_distinct, len(distinct))
        best = distinct.iloc[0]
        second = distinct.iloc[1] if len(distinct) > 1 else None
        best_by.setdefault(best["strategy"], []).append(str(int(n)))
        gap = _diff(part, second["strategy"], best["strategy"]) if second is not None else None
        if gap is not None:
            hit = part[((part["a"] == best["strategy"]) & (part["b"] == second["strategy"]))
                       | ((part["a"] == second["strategy"]) & (part["b"] == best["strategy"]))]
            holm_p = float(hit["p_holm"].iloc[0]) if "p_holm" in hit else float("nan")
            if not holm_p < 0.05:
                notes.append(f"{verbs[second['strategy']]} at {int(n)} players "
                             f"(by {pm(gap[0], gap[1])})")
        sweep = rank[rank["keep"].notna()]
        if len(sweep) > 1:
            k_best = sweep.iloc[0]
            k = int(k_best["keep"])
            vs = _diff(part, k_best["strategy"], "as-needed")
            if same.get(k_best["strategy"]) == same.get("as-needed"):
                sweep_parts.append(f"never pays at {int(n)} players (the best k, {k}, plays "
                                   "exactly as using them as needed)")
            elif vs is not None and not vs[0] < -vs[1]:
                sweep_parts.append(f"does not pay at {int(n)} players (even the best k, {k}, "
                                   f"costs {pm(vs[0], vs[1])} minus points per game against "
                                   "using them as needed)")
            elif vs is not None:
                sweep_parts.append(f"pays at {int(n)} players with k = {k} (saving "
                                   f"{pm(abs(vs[0]), vs[1])} minus points per game against "
                                   "using them as needed)")
    text = "The best joker policy is " + "; ".join(
        f"{verbs[name]} at {_counts(counts)} players" for name, counts in best_by.items())
    text += ("; but it is not clearly ahead of " + ", nor of ".join(notes) if notes else "")
    lines.append(text + f" (best of {n_distinct} distinct policies: 'clearly' is judged after "
                 "Holm's correction over all their pairs).")
    if sweep_parts:
        lines.append("Keeping jokers until k cards are left " + "; ".join(sweep_parts) + ".")
    live = pairs[~pairs["identical"]] if "identical" in pairs else pairs
    head_rows = live[(live["a"] == "hoard") & (live["b"] == "dump")]
    head = head_rows["variance_reduction"].replace([np.inf], np.nan).dropna()
    vr = live["variance_reduction"].replace([np.inf], np.nan).dropna()
    if len(head):
        span = (f"{head.min():.1f}" if f"{head.min():.1f}" == f"{head.max():.1f}"
                else f"{head.min():.1f} to {head.max():.1f}")
        lines.append(
            f"For the headline pair, hoarding against dumping jokers, the duplicate format "
            f"made the comparison {span} times more precise in variance than unpaired runs "
            f"of the same size (median over the {len(vr)} pairs of different policies with "
            f"enough deals for the figure: {vr.median():.1f}); pairs of identical policies "
            "are left out.")
    elif len(head_rows):
        lines.append(
            "How much more precise the duplicate format made the comparisons is not given: "
            f"the figure needs at least {MIN_RATIO_UNITS} deals, on at least "
            f"{MIN_RATIO_DIFFERING} of which the two policies differ.")
    merged = []
    for n, rank in ranking.groupby("players"):
        if "same_as" not in rank:
            break
        groups = rank.groupby("same_as", sort=False)["strategy"].apply(list)
        names = "; ".join(" = ".join(verbs[x] for x in g) for g in groups if len(g) > 1)
        if names:
            merged.append(f"at {n} players, {names}")
    if merged:
        deals = f"{probe_deals:,} deals" if probe_deals else "every deal"
        lines.append(f"These policies play identical games in every seat of {deals} (or are "
                     "the same strategy), so they are merged and never compared with each "
                     "other: " + "; ".join(merged) + ".")
    return lines


def run_jokers(
    backend: Backend,
    players: Sequence[int] = (3, 4, 5, 6, 8),
    field: Sequence[str] = ("basic",),
    keep: Sequence[int] = DEFAULT_KEEP,
    games: int = 1000,
    seed: int = DEFAULT_SEED,
    level: float = 0.95,
    matches: int | None = None,
) -> StudyResult:
    """Every joker policy in every seat against ``field`` on ``games`` common deals, and in
    every player's place on ``matches`` common matches (default games // 20; 0: none)."""
    if games < 2:
        raise CardlabError(f"the jokers study needs at least 2 games, got {games}")
    matches = max(2, games // 20) if matches is None else matches
    if matches == 1 or matches < 0:  # two are the fewest that give an interval
        raise CardlabError(f"the jokers study needs 0 or at least 2 matches, got {matches}")
    field_labels = [backend.canonical("ass", f) for f in field] or ["basic"]
    pols = policies(keep)
    verbs = {p.name: p.verb for p in pols}
    order = [p.name for p in pols]
    t0 = time.perf_counter()
    rankings, pair_tables, specs, win_tables, win_pairs = [], [], [], [], []
    probe_deals = 0
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
        same, deals = identical_policies(backend, n, seat_field(field_labels, n), pols,
                                         games_table, games, seed)
        probe_deals = max(probe_deals, deals)
        rank["same_as"] = rank["strategy"].map(same)
        pairs["identical"] = [same[a] == same[b] for a, b in zip(pairs["a"], pairs["b"],
                                                                  strict=True)]
        pairs["p_holm"] = _holm_p(pairs, level)
        pair_tables.append(pairs)
        if matches:
            match_table, match_specs = play_policies(
                backend, n, seat_field(field_labels, n), pols, matches, seed, mode="matches")
            specs.extend(match_specs)
            wins = duplicate_ranking(match_table, WIN, lower_is_better=False, level=level,
                                     order=order)
            wins.insert(0, "players", n)
            wins.insert(1, "games_per_match", n)
            wins["keep"] = wins["strategy"].map({p.name: p.keep for p in pols})
            wins["label"] = wins["strategy"].map({p.name: p.label for p in pols})
            win_tables.append(wins.rename(columns={"deals": "matches"}))
            versus = duplicate_pairs(match_table, WIN, level, order=order, against="as-needed")
            versus.insert(0, "players", n)
            win_pairs.append(versus)
    ranking = pd.concat(rankings, ignore_index=True)
    pairs = pd.concat(pair_tables, ignore_index=True)
    tables = {"policies": ranking, "differences": pairs}
    match_wins = None
    if win_tables:
        match_wins = pd.concat(win_tables, ignore_index=True)
        tables["match_wins"] = match_wins
        tables["match_differences"] = pd.concat(win_pairs, ignore_index=True)
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
        matches=matches, games_per_match="the number of players (A-12)",
        match_metric="share of the match win, ties shared (higher is better)",
        identity_probe=f"policies merged as identical play identical games in every seat "
                       f"of at least {IDENTITY_PROBE} deals (or are the same strategy)",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    return StudyResult("jokers", tables, manifest,
                       headlines(ranking, pairs, field_text, verbs, match_wins, probe_deals))

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
from analyzer.numbers import interval
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
              verbs: dict[str, str]) -> list[str]:
    """Plain-language answers, every number from the tables; each baseline is 'as needed'."""
    lines = []
    hoard = _against_as_needed(pairs, "hoard", verbs, field_text)
    if hoard:
        lines.append(hoard)
    best_by: dict[str, list[str]] = {}
    notes = []
    for n, part in pairs.groupby("players"):
        rank = ranking[ranking["players"] == n].sort_values("mean", kind="stable")
        best, second = rank.iloc[0], rank.iloc[1] if len(rank) > 1 else None
        best_by.setdefault(best["strategy"], []).append(str(int(n)))
        gap = _diff(part, second["strategy"], best["strategy"]) if second is not None else None
        if gap is not None and gap[0] <= gap[1]:
            notes.append(f"{verbs[second['strategy']]} at {int(n)} players "
                         f"(by {pm(gap[0], gap[1])})")
    text = "The best joker policy is " + "; ".join(
        f"{verbs[name]} at {_counts(counts)} players" for name, counts in best_by.items())
    lines.append(text + ("; but it is not clearly ahead of " + ", nor of ".join(notes)
                         if notes else "") + ".")
    sweep_best, sweep_parts = [], []
    for n, part in pairs.groupby("players"):
        rank = ranking[ranking["players"] == n].sort_values("mean", kind="stable")
        sweep = rank[rank["keep"].notna()]
        if len(sweep) > 1:
            k_best = sweep.iloc[0]
            sweep_best.append(int(k_best["keep"]))
            vs = _diff(part, k_best["strategy"], "as-needed")
            if vs is not None:
                sweep_parts.append((f"{interval(vs[0], vs[1], signed=True)} at {int(n)} "
                                    "players", f" (k = {int(k_best['keep'])})"))
    if sweep_parts:
        same = len(set(sweep_best)) == 1
        head = (f"Keeping jokers until k cards are left works best with k = {sweep_best[0]} at "
                "every player count" if same else "The best k for keeping jokers until k cards "
                "are left depends on the player count")
        parts = [a + ("" if same else b) for a, b in sweep_parts]
        lines.append(f"{head}; against using them as needed that changes minus points per game "
                     f"by {', '.join(parts)}.")
    vr = pairs["variance_reduction"].replace([np.inf], np.nan).dropna()
    if len(vr):
        lines.append(
            f"The duplicate format made the comparisons {vr.median():.1f} times more precise "
            f"in variance than unpaired runs of the same size (median over {len(vr)} pairs): "
            f"an unpaired study would need that many times more games."
        )
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

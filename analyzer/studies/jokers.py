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

Two hoarders are compared with using jokers as needed, everything else equal: ``hoard``
(``joker-hoarder``: never a joker while number cards remain, not even into an ass round) and
``hoard-normal`` (``joker-hoarder:ass_jokers=throw``: never in normal rounds, a joker thrown
as 1 into an ass round). Their cost is given by the jokers dealt to the seat (0, 1, 2+;
recomputed exactly from (seed, index): :func:`jokers_dealt`) and by field: the study's field
and each strong field (default pimc), which plays one seat per deal on a smaller budget for
a field tagged slow (table ``hoarding``). How long it is worth holding jokers: every
keep-until-k policy and each hoarder against using them as needed, per player count and
field (the strong fields play the sweep too, a slow one only its :data:`SLOW_KEEP` points;
table ``cost_curve``); where the hoarder's cost with no joker dealt comes from, the jokers it
ends holding, all taken in ass rounds, and the rest (table ``ass_jokers``). What pimc and
careful do with their jokers (games
ending with one in hand, jokers played as fillers, alone, into ass rounds, at which hand
size) is read from traced games, one seat against the field (table ``habits``).

Policies are merged as identical (one name, never compared with each other) only when they
are the same strategy by definition (equal canonical labels) or play identical games in
every seat of at least :data:`IDENTITY_PROBE` deals: a study of fewer games plays that many
deals of the suspected twins first (:func:`identical_policies`), and the headline says how
many deals the merge rests on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.numbers import bounds, interval
from analyzer.numbers import count as count_words
from analyzer.numbers import percent as percent_words
from analyzer.runner.play import Backend, collect_all, make_spec, seat_field
from analyzer.seeds import DEFAULT_SEED
from analyzer.stats.duplicate import (
    MIN_RATIO_DIFFERING,
    MIN_RATIO_UNITS,
    duplicate_pairs,
    duplicate_ranking,
    seat_swaps,
)
from analyzer.studies.claims import Cell, Claim, difference_kind, half, make_cell, probe, several
from analyzer.studies.registry import question, study_game
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.text import pm

GAME = study_game("jokers")  # the game this study plays (the study registry)

VALUE = "minus_points"
WIN = "win"  # the share of a match win, 0..1 (the kernel's win_share / WIN_SHARE_UNIT)


@dataclass(frozen=True)
class Policy:
    """A joker policy: its short name, the strategy label that plays it, sweep position k."""

    name: str
    label: str
    keep: int | None = None
    verb: str = ""  # how a sentence names it ("hoarding jokers")
    words: str = ""  # how a table or figure names it (short); empty: reports/names.py's


HOARDERS = ("hoard", "hoard-normal")  # the two hoarding policies, each against as-needed


# The two hoarders (strategies/ass/catalog.py, family heuristic): jokers=keep never plays a
# joker while number cards remain; its ass_jokers knob (default "same") then also keeps them
# out of ass rounds ("never at all"), and ass_jokers=throw throws one as 1 into an ass round
# as basic does ("never in normal rounds"), everything else equal.
NAMED = (
    Policy("hoard", "joker-hoarder",
           verb="hoarding jokers (never playing one while number cards remain, not even "
                "into an ass round)", words="hoard jokers: never at all"),
    Policy("hoard-normal", "joker-hoarder:ass_jokers=throw",
           verb="hoarding jokers in normal rounds only (throwing them into ass rounds as 1)",
           words="hoard jokers: never in normal rounds"),
    Policy("as-needed", "heuristic", verb="using jokers as needed"),
    Policy("finish", "finisher", verb="keeping jokers to finish"),
    Policy("dump", "joker-dumper", verb="dumping jokers early"),
)
DEFAULT_KEEP = (0, 1, 2, 3, 4, 6, 8, 13)
# strong opponents the hoarders also meet (one seat per deal): learned (fast) at the full
# budget, pimc (the strongest reference, tagged slow) at its slow share
STRONG_FIELDS = ("learned", "pimc")
# the keep-until sweep a slow strong field plays (its deals are few; every k would cost
# the demo minutes): a few points of the default sweep, the hoarders beside them
SLOW_KEEP = (4, 8)
SLOW_SHARE = 20  # a field tagged slow (pimc) plays games // SLOW_SHARE deals per player count
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

    runs = [(p_i, pol, seat, make_spec(backend, GAME, players, seats, seed, mode=mode))
            for p_i, pol in enumerate(pols)
            for seat, seats in enumerate(seat_swaps(pol.label, field, players))]
    tables = collect_all(backend, [(spec, count, 0) for *_, spec in runs])
    frames = []
    for (p_i, pol, seat, _), rows in zip(runs, tables, strict=True):
        mine = rows[rows["seat"] == seat].copy()
        mine.insert(2, "arrangement", p_i * players + seat)
        mine.insert(3, "strategy", pol.name)
        if mode == "matches":
            mine[WIN] = mine["win_share"].to_numpy() / WIN_SHARE_UNIT
        frames.append(mine)
    return pd.concat(frames, ignore_index=True), [spec.to_dict() for *_, spec in runs]


# ------------------------------------------------------------------ jokers dealt to a seat
DEALT_BUCKETS = ("0", "1", "2+")  # jokers dealt to the policy's seat; "any": every deal
ALL_DEALS = "any"


def jokers_dealt(seed: int, indices: np.ndarray, players: int, per_player: int | None = None
                 ) -> np.ndarray:
    """Jokers dealt to each seat of games (``seed``, ``indices``): int array (games, seats),
    read from the engine's own deal of those games (engine.dealt_hands, A-2, A-3)."""
    from analyzer.engines.ass.engine import canonical_deck, dealt_hands
    from analyzer.games.ass.cards import JOKER
    from analyzer.games.ass.rules import AssRules

    if per_player is None:
        per_player = AssRules.for_players(players).per_player
    idx = np.asarray(indices, dtype=np.int64).ravel()
    hands = np.zeros((idx.size, players), dtype=np.uint64)
    dealt_hands(seed, idx, players, per_player, canonical_deck(), hands)
    return ((hands >> np.uint64(4 * JOKER)) & np.uint64(15)).astype(np.int64)


def dealt_bucket(dealt: np.ndarray) -> np.ndarray:
    """'0', '1' or '2+' for each number of jokers dealt."""
    return np.asarray(DEALT_BUCKETS, dtype=object)[np.minimum(np.asarray(dealt), 2)]


def ratio_interval(num: np.ndarray, den: np.ndarray, level: float = 0.95
                   ) -> tuple[float, float, float]:
    """sum(num) / sum(den) over independent units (deals, games) with its interval: the
    ratio estimator's linearised variance, t quantile over the units. With ``den`` all 1
    it is the mean of ``num`` with its t interval."""
    from analyzer.stats.intervals import t_quantile

    num, den = np.asarray(num, np.float64), np.asarray(den, np.float64)
    units, total = num.size, den.sum()
    if units < 2 or total <= 0:
        value = float(num.sum() / total) if total > 0 else float("nan")
        return value, float("nan"), float("nan")
    value = float(num.sum() / total)
    resid = num - value * den
    se = float(np.sqrt(units / (units - 1) * np.sum(resid ** 2))) / total
    half = t_quantile(level, units - 1) * se
    return value, value - half, value + half


def share_interval(num: np.ndarray, den: np.ndarray, level: float = 0.95
                   ) -> tuple[float, float, float]:
    """sum(num) / sum(den), a share of ``den``'s items (e.g. of the jokers played) over
    independent units that hold several items each, with an interval that never leaves
    [0, 1]: Wilson's on the effective number of items (the items over the design effect the
    ratio estimator's variance shows, :func:`ratio_interval`). Where the share is 0 or 1
    the units show no spread, and Wilson's interval on every item is used."""
    from analyzer.stats.intervals import t_quantile, wilson_bounds

    num, den = np.asarray(num, np.float64), np.asarray(den, np.float64)
    total = float(den.sum())
    if num.size < 2 or total <= 0:
        value = float(num.sum() / total) if total > 0 else float("nan")
        return min(max(value, 0.0), 1.0) if np.isfinite(value) else value, math.nan, math.nan
    value = min(max(float(num.sum()) / total, 0.0), 1.0)
    _, low, high = ratio_interval(num, den, level)
    half = (high - low) / 2
    q = t_quantile(level, num.size - 1)
    var = (half / q) ** 2 if q > 0 else 0.0
    items = total if var <= 0 or value in (0.0, 1.0) else min(
        total, value * (1 - value) / var)  # never more than the items themselves
    lo, hi = wilson_bounds(np.array([value * items]), np.array([items]), level)
    return value, float(min(lo[0], value)), float(max(hi[0], value))


def seat_costs(table: pd.DataFrame, name: str, against: str) -> pd.DataFrame:
    """(index, seat, cost): ``name``'s minus points minus ``against``'s on each deal and seat
    both played."""
    keys = ["index", "seat"]
    a = table[table["strategy"] == name][keys + [VALUE]]
    b = table[table["strategy"] == against][keys + [VALUE]]
    both = a.merge(b, on=keys, suffixes=("_a", "_b"))
    return pd.DataFrame({"index": both["index"], "seat": both["seat"],
                         "cost": both[f"{VALUE}_a"] - both[f"{VALUE}_b"]})


def hoarding_table(table: pd.DataFrame, players: int, field: str, seed: int, level: float,
                   per_player: int | None = None, design: str = "every seat") -> pd.DataFrame:
    """Each hoarder's cost against using jokers as needed, on every deal (``any``) and by the
    jokers dealt to its seat: per (deal, seat) paired differences, intervals over deals
    (ratio estimator: a deal contributes the seats of the bucket it has)."""
    rows = []
    for name in HOARDERS:
        d = seat_costs(table, name, "as-needed")
        if not len(d):
            continue
        deals = np.unique(d["index"].to_numpy())
        dealt = jokers_dealt(seed, deals, players, per_player)
        pos = np.searchsorted(deals, d["index"].to_numpy())
        seat_dealt = dealt[pos, d["seat"].to_numpy()]
        bucket = dealt_bucket(seat_dealt)
        for label in (ALL_DEALS, *DEALT_BUCKETS):
            mask = np.ones(len(d), bool) if label == ALL_DEALS else bucket == label
            num = np.bincount(pos, weights=np.where(mask, d["cost"].to_numpy(), 0.0),
                              minlength=deals.size)
            den = np.bincount(pos, weights=mask.astype(np.float64), minlength=deals.size)
            value, low, high = ratio_interval(num, den, level)
            rows.append({"players": players, "field": field, "design": design, "a": name,
                         "b": "as-needed", "jokers_dealt": label,
                         "seat_games": int(mask.sum()), "share": float(mask.mean()),
                         "deals": int(deals.size), "cost": value, "cost_low": low,
                         "cost_high": high, "half": (high - low) / 2})
    return pd.DataFrame(rows)


CURVE_B = "as-needed"  # what the cost curve is taken against
JOKER_POINTS = 14  # a joker left in hand at the end


def cost_curve_table(table: pd.DataFrame, players: int, field: str, pols: Sequence[Policy],
                     level: float, design: str = "every seat") -> pd.DataFrame:
    """How long is it worth holding jokers: each keep-until-k policy and each hoarder
    against using jokers as needed, paired on the same (deal, seat), intervals over deals
    (the unit randomised; a deal contributes the seats it was played in). ``clear``: the 95%
    interval excludes 0 (the test every sentence on a cell of this table uses)."""
    rows = []
    curve = [p for p in pols if p.keep is not None] + [p for p in pols if p.name in HOARDERS]
    for pol in curve:
        d = seat_costs(table, pol.name, CURVE_B)
        if not len(d):
            continue
        deals, pos = np.unique(d["index"].to_numpy(), return_inverse=True)
        num = np.bincount(pos, weights=d["cost"].to_numpy(), minlength=deals.size)
        den = np.bincount(pos, minlength=deals.size).astype(np.float64)
        value, low, high = ratio_interval(num, den, level)
        rows.append({"players": players, "field": field, "design": design,
                     "policy": pol.name, "keep": np.nan if pol.keep is None else pol.keep,
                     "b": CURVE_B, "cost": value, "cost_low": low, "cost_high": high,
                     "half": (high - low) / 2, "clear": bool(low > 0 or high < 0),
                     "deals": int(deals.size), "seat_games": int(len(d))})
    return pd.DataFrame(rows)


def ass_jokers_table(table: pd.DataFrame, players: int, field: str, seed: int, level: float,
                     per_player: int | None = None, design: str = "every seat"
                     ) -> pd.DataFrame:
    """Where the hoarder's cost with no joker dealt comes from. With none dealt, every joker
    the seat holds was taken in an ass round (A-7: the taker of an ass round takes the
    cards, jokers included), so the jokers it holds at the end (``jokers_left``) are ass-round
    jokers. Per (deal, seat) with no joker dealt, paired with using jokers as needed: the
    hoarder's cost, the part of it that is those jokers (14 minus points each, less the
    as-needed player's), the rest, and the shares of seat-games that end holding one. Intervals
    over deals; empty where the rows have no ``jokers_left``."""
    if "jokers_left" not in table:
        return pd.DataFrame()
    keys = ["index", "seat"]
    a = table[table["strategy"] == "hoard"][keys + [VALUE, "jokers_left"]]
    b = table[table["strategy"] == CURVE_B][keys + [VALUE, "jokers_left"]]
    both = a.merge(b, on=keys, suffixes=("_a", "_b"))
    if not len(both):
        return pd.DataFrame()
    deals, pos = np.unique(both["index"].to_numpy(), return_inverse=True)
    dealt = jokers_dealt(seed, deals, players, per_player)[pos, both["seat"].to_numpy()]
    none = dealt == 0
    if none.sum() < 2:
        return pd.DataFrame()
    held_a = both["jokers_left_a"].to_numpy(np.float64)
    held_b = both["jokers_left_b"].to_numpy(np.float64)
    cost = (both[f"{VALUE}_a"] - both[f"{VALUE}_b"]).to_numpy(np.float64)
    jokers = JOKER_POINTS * (held_a - held_b)
    den = np.bincount(pos, weights=none.astype(np.float64), minlength=deals.size)

    def per_deal(x: np.ndarray) -> np.ndarray:
        return np.bincount(pos, weights=np.where(none, x, 0.0), minlength=deals.size)

    row = {"players": players, "field": field, "design": design, "policy": "hoard",
           "b": CURVE_B, "jokers_dealt": "0", "seat_games": int(none.sum()),
           "deals": int((den > 0).sum())}
    for name, x in (("cost", cost), ("held_cost", jokers), ("rest", cost - jokers)):
        v, lo, hi = ratio_interval(per_deal(x), den, level)
        row.update({name: v, f"{name}_low": lo, f"{name}_high": hi})
    for name, x in (("ends_holding", held_a > 0), ("ends_holding_b", held_b > 0)):
        v, lo, hi = share_interval(per_deal(x.astype(np.float64)), den, level)
        row.update({name: v, f"{name}_low": lo, f"{name}_high": hi})
    return pd.DataFrame([row])


def block_policies(
    backend: Backend, players: int, field: list[str], pols: list[Policy], count: int,
    seed: int,
) -> tuple[pd.DataFrame, list[dict]]:
    """Games of every policy against ``field`` on deals 0..count-1, the policy in seat s on
    the s-th of ``players`` equal blocks of deals: one seat per deal, the same deals and
    seats for every policy (for slow fields, where every seat of every deal costs too much)."""
    edges = np.linspace(0, count, players + 1).round().astype(int)
    runs = []
    for p_i, pol in enumerate(pols):
        for seat, seats in enumerate(seat_swaps(pol.label, field, players)):
            start, size = int(edges[seat]), int(edges[seat + 1] - edges[seat])
            if size >= 1:
                runs.append((p_i, pol, seat, make_spec(backend, GAME, players, seats, seed),
                             size, start))
    tables = collect_all(backend, [(spec, size, start) for *_, spec, size, start in runs])
    frames = []
    for (p_i, pol, seat, *_), rows in zip(runs, tables, strict=True):
        mine = rows[rows["seat"] == seat].copy()
        mine.insert(2, "arrangement", p_i * players + seat)
        mine.insert(3, "strategy", pol.name)
        frames.append(mine)
    specs = [{**spec.to_dict(), "start": start, "count": size}
             for *_, spec, size, start in runs]
    return pd.concat(frames, ignore_index=True), specs


# ------------------------------------------------------------ what a player does with jokers
HABIT_PLAYERS = ("pimc", "careful")  # whose joker play the habits table shows


def habits_of(records: Sequence[dict], seats: Sequence[int]) -> dict[str, np.ndarray]:
    """Per seat-game counts of one seat's joker play, read from game records
    (docs/game-records.md): whether it ended holding a joker, jokers played as fillers with
    number cards or alone (normal rounds), thrown into ass rounds as 1 or as 14, and the sum
    of its hand sizes (cards held before the play) over those jokers."""
    keys = ("ends_with_joker", "jokers_played", "filler", "alone", "ass_as_1", "ass_as_14",
            "hand_size_sum")
    out = {k: np.zeros(len(records)) for k in keys}
    for g, (record, seat) in enumerate(zip(records, seats, strict=True)):
        size = [len(h) for h in record["hands"]]
        out["ends_with_joker"][g] = "J" in record["final_hands"][seat]
        for rnd in record["rounds"]:
            taken = 0
            for play in rnd["plays"]:
                cards = play.get("cards") or []
                taken += len(cards)
                jokers = cards.count("J")
                if play["seat"] == seat and jokers:
                    out["jokers_played"][g] += jokers
                    out["hand_size_sum"][g] += jokers * size[seat]
                    if rnd["ass_round"]:
                        which = "ass_as_1" if play.get("joker_value") == 1 else "ass_as_14"
                    else:
                        which = "filler" if jokers < len(cards) else "alone"
                    out[which][g] += jokers
                size[play["seat"]] -= len(cards)
            if rnd["ass_round"]:
                size[rnd["winner"]] += taken
    return out


def habits_rows(counts: dict[str, np.ndarray], level: float) -> dict[str, float]:
    """The habits table's numbers from :func:`habits_of`'s counts: shares of seat-games
    (Wilson), shares of jokers played and the mean hand size at a joker play (intervals over
    seat-games)."""
    from analyzer.stats.intervals import wilson_bounds

    games = counts["ends_with_joker"].size
    ends = float(counts["ends_with_joker"].sum())
    low, high = wilson_bounds(np.array([ends]), np.array([games]), level)
    row = {"seat_games": games, "ends_with_joker": ends / games if games else float("nan"),
           "ends_with_joker_low": float(low[0]), "ends_with_joker_high": float(high[0]),
           "jokers_played": int(counts["jokers_played"].sum()),
           "jokers_per_game": float(counts["jokers_played"].mean()) if games else float("nan")}
    played = counts["jokers_played"]
    for key in ("filler", "alone", "ass_as_1", "ass_as_14"):  # shares: inside [0, 1]
        row[key], row[f"{key}_low"], row[f"{key}_high"] = share_interval(counts[key], played,
                                                                         level)
    row["hand_size"], row["hand_size_low"], row["hand_size_high"] = ratio_interval(
        counts["hand_size_sum"], played, level)
    return row


def trace_games(backend: Backend, players: int, field: list[str], label: str, count: int,
                seed: int) -> tuple[list[dict], list[int], list[dict]] | None:
    """Records of games 0..count-1 with ``label`` in seat index % players against ``field``
    (the engine's trace mode), its seats, and the specs; None for a backend that cannot
    trace (the synthetic ones of the tests)."""
    from analyzer.runner.play import KernelBackend

    if not isinstance(backend, KernelBackend) or count < 1:
        return None
    from analyzer.engines.ass.records import Tracer

    tracers, specs = {}, []
    records, seats = [], []
    for index in range(count):
        seat = index % players
        if seat not in tracers:
            spec = make_spec(backend, GAME, players, seat_swaps(label, field, players)[seat],
                             seed)
            tracers[seat] = Tracer(spec)
            specs.append(spec.to_dict())
        record, status = tracers[seat].record(index)
        if status >= 0:
            raise CardlabError(f"{label} made an illegal move in game {index} (seed {seed})")
        records.append(record)
        seats.append(seat)
    return records, seats, specs


def _match_parts(result: StudyResult, n: int, field_: str, field_text: str,
                 verbs: dict[str, str]) -> tuple[str, list] | None:
    """'hoarding jokers turns a 25% chance to win a 4-player evening into X%', with the
    minus points per game beside it: the words and their cells (tables ``match_wins`` and
    ``differences``)."""
    wins = result.table("match_wins")
    rank = wins[wins["players"] == n].set_index("strategy")
    if "hoard" not in rank.index or "as-needed" not in rank.index:
        return None
    figure = _probe("value", "match_wins", key="strategy")
    base = _cell(result, figure, n, "as-needed", "mean", field_)
    hoard = _cell(result, figure, n, "hoard", "mean", field_)
    games = _cell(result, _probe("value", "match_wins", key="strategy", exact=True), n, "hoard",
                  "games_per_match", field_)
    parts = [base, hoard, games]
    b, h, k = base[1], hoard[1], int(games[1].value)
    chance = _percent(b.value, half(b))
    article = "an" if chance.startswith(("8", "11", "18")) else "a"
    evening = "an" if n in (8, 11) else "a"
    text = (f"At {n} players against {field_text}, {_short(verbs['hoard'])} turns {article} "
            f"{chance} "
            f"chance to win {evening} {n}-player evening of {k} games into "
            f"{_percent(h.value, half(h))}")
    pair = _pair(result, n, "hoard", "as-needed", field_)
    if pair is not None:
        parts.append(pair[0])
        d, hw = pair[1], pair[2]
        how = "costing" if d > 0 else "saving"
        text += (f", {how} {pm(abs(d), hw)} minus points per game against "
                 f"{verbs['as-needed']}")
    return text + ".", parts


def _short(verb: str) -> str:
    """A policy's words without their explanation in brackets ("hoarding jokers")."""
    return verb.split(" (")[0]


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
    labels = {p.name: backend.canonical(GAME, p.label) for p in pols}
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



def _probe(kind: str, table: str, key: str | None = None, against: str | None = None,
           better: str = "lower", **extra) -> Claim:
    return probe(GAME, "jokers", kind, table, against=against, better=better,
                 extra={**({"key": key} if key else {}), **extra})


def _cell(result: StudyResult, reader: Claim, players: int, choice: str, metric: str,
          field_: str | None) -> tuple[Claim, Cell]:
    return reader, make_cell(reader, result, players, choice, metric, field_=field_)


def _pair(result: StudyResult, n: int, a: str, b: str, field_: str
          ) -> tuple[tuple[Claim, Cell], float, float] | None:
    """The cell of a - b in table ``differences`` as it is stored (either way round), with
    what its interval says, and a - b with its half-width read from the cell."""
    pairs = result.table("differences")
    pairs = pairs[pairs["players"] == n]
    row = pairs[((pairs["a"] == a) & (pairs["b"] == b)) | ((pairs["a"] == b) & (pairs["b"] == a))]
    if not len(row):
        return None
    r = row.iloc[0]
    reader = _probe(difference_kind(float(r["low"]), float(r["high"])), "differences",
                    against=str(r["b"]))
    cell = _cell(result, reader, n, str(r["a"]), "difference", field_)
    sign = 1.0 if r["a"] == a else -1.0
    return cell, sign * cell[1].value, half(cell[1])


def _counts(items: list[str]) -> str:
    """'3, 4 and 8' from ['3', '4', '8']."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _against_as_needed(result: StudyResult, name: str, verbs: dict[str, str],
                       field_text: str, field_: str) -> Claim | None:
    """One claim: ``name`` against using jokers as needed, at every player count."""
    parts, cells = [], []
    for n in sorted(int(x) for x in result.table("differences")["players"].unique()):
        got = _pair(result, n, name, "as-needed", field_)
        if got is None:
            continue
        parts.append(got[0])
        cells.append((n, got[1], got[2], got[0][0].kind != "unclear"))
    if not parts:
        return None
    signs = {d > 0 for _, d, _, _ in cells}
    if not any(clear for *_, clear in cells):  # no count clear: the signed numbers alone
        return several(f"jokers-{name}-vs-as-needed", (
            f"Against {field_text}, {verbs[name]} makes no clear difference in minus points "
            f"compared with using jokers as needed: "
            + ", ".join(f"{interval(d, hw, signed=True)} at {n} players"
                        for n, d, hw, _ in cells)
            + " per game (its minus points less those of using them as needed)."), parts,
            game=GAME, study="jokers", question=question("jokers"))
    if len(signs) == 1:  # every count the same way: one verb, each count's size
        how = ("costs" if signs == {True} else "saves") + " minus points"
        said = [f"{pm(abs(d), hw)} at {n} players" for n, d, hw, _ in cells]
    else:  # costs at some counts and saves at others: said count by count
        how = "costs minus points at some player counts and saves them at others,"
        said = [f"{'costs' if d > 0 else 'saves'} {pm(abs(d), hw)} at {n} players"
                for n, d, hw, _ in cells]
    open_ = [str(n) for n, _, _, clear in cells if not clear]
    unclear = "" if not open_ else (
        f"; not clearly different from zero at {_counts(open_)} players "
        f"({len(open_)} of {len(cells)} player counts)")
    return several(f"jokers-{name}-vs-as-needed", (
        f"Against {field_text}, {verbs[name]} {how} compared with using "
        f"jokers as needed: {', '.join(said)}, per game{unclear}."), parts, game=GAME,
        study="jokers", question=question("jokers"))


BUCKET_WORDS = {"0": "no joker dealt", "1": "one", "2+": "two or more"}


def hoarding_claims(result: StudyResult, verbs: dict[str, str]) -> list[Claim]:
    """By the jokers dealt to the seat (each field); then each strong field's cost (table
    ``hoarding``)."""
    hoarding = result.table("hoarding")
    claims = []
    fields = list(dict.fromkeys(hoarding["field"].astype(str)))
    main = fields[0]

    def cost(a: str, n: int, bucket: str, f: str) -> tuple[Claim, Cell]:
        reader = _probe("value", "hoarding", "jokers_dealt", where={"a": a})
        return _cell(result, reader, n, bucket, "cost", f)

    t = hoarding[(hoarding["field"] == main) & (hoarding["a"] == "hoard")]
    cells, said = [], []
    for n, part in t.groupby("players"):
        by = part.set_index("jokers_dealt")
        each = []
        for b in DEALT_BUCKETS:
            if b in by.index and by.loc[b, "seat_games"] > 1:
                cells.append(cost("hoard", int(n), b, main))
                c = cells[-1][1]
                each.append(f"{pm(c.value, half(c))} with {BUCKET_WORDS[b]}")
        said.append(f"{int(n)} players: {', '.join(each)}")
    if cells:
        claims.append(several("jokers-hoard-by-dealt", (
            f"By the jokers dealt to the seat, against {field_words(main.split(','))},"
            f" {verbs['hoard'].split(' (')[0]} costs (minus points per game against "
            f"using them as needed, on the same deals and seats) " + "; ".join(said) + "."),
            cells, game=GAME, study="jokers", question=question("jokers")))
    for f in fields[1:]:
        sub = hoarding[(hoarding["field"] == f) & (hoarding["jokers_dealt"] == ALL_DEALS)]
        bits, cells = [], []
        for name in HOARDERS:
            rows = sub[sub["a"] == name].sort_values("players")
            each = []
            for _, r in rows.iterrows():
                cells.append(cost(name, int(r["players"]), ALL_DEALS, f))
                c = cells[-1][1]
                each.append(f"{pm(c.value, half(c))} at {c.players} players")
            if each:
                bits.append(f"{verbs[name]} costs {', '.join(each)}")
        if bits:
            top = sub.loc[sub["deals"].idxmax()]
            reader = _probe("value", "hoarding", "jokers_dealt", exact=True,
                            where={"a": str(top["a"])})
            cells.append(_cell(result, reader, int(top["players"]), ALL_DEALS, "deals", f))
            deals = int(cells[-1][1].value)
            claims.append(several(f"jokers-hoard-{f}", (
                f"Against {field_words([f])} ({count_words(deals)} deals per player "
                "count, one seat per deal), " + "; ".join(bits)
                + " (minus points per game against using jokers as needed)."), cells,
                game=GAME, study="jokers", question=question("jokers")))
    return claims


def _share(cell: Cell) -> str:
    """A share with its 95% interval: '1.3% [0.24%, 4.1%]' ('n/a' where it is undefined)."""
    if not np.isfinite(cell.value):
        return "n/a"
    if not (np.isfinite(cell.low) and np.isfinite(cell.high)):
        return percent_words(cell.value)
    return f"{percent_words(cell.value)} {bounds(cell.low, cell.high, percent=True)}"


HABIT_SHARES = ("ends_with_joker", "filler", "alone", "ass_as_1")


def habits_claim(result: StudyResult, field_text: str) -> Claim:
    """What each habit player does with its jokers, per player count, every share with its
    95% interval (table ``habits``: Wilson over seat-games, ratio intervals over jokers
    played), never pooled over player counts."""
    habits = result.table("habits")
    share = _probe("value", "habits", "strategy")
    exact = _probe("value", "habits", "strategy", exact=True)
    cells, by_count = [], []
    for n, part in habits.groupby("players", sort=True):
        said = []
        for _, r in part.iterrows():
            got = {col: _cell(result, share, int(n), str(r["strategy"]), col, str(r["field"]))
                   for col in HABIT_SHARES}
            got["seat_games"] = _cell(result, exact, int(n), str(r["strategy"]), "seat_games",
                                      str(r["field"]))
            cells += got.values()
            c = {k: v[1] for k, v in got.items()}
            said.append(f"{r['strategy']} ends {_share(c['ends_with_joker'])} of its games "
                        f"holding a joker and plays {_share(c['filler'])} of its jokers as "
                        f"fillers in number-card sets, {_share(c['alone'])} alone in normal "
                        f"rounds, {_share(c['ass_as_1'])} alone as a 1 into an ass round")
        by_count.append(f"at {int(n)} players, " + "; ".join(said))
    games = int(max(c.value for _, c in cells if c.metric == "seat_games"))
    return several("jokers-habits-by-players", (
        f"What players do with their jokers (one seat against {field_text}, "
        f"{count_words(games)} traced games per player count, 95% intervals): "
        + "; ".join(by_count) + "."), cells, game=GAME, study="jokers",
        question=question("jokers"))


def joker_claims(result: StudyResult, field_text: str, verbs: dict[str, str],
                 probe_deals: int = 0) -> list[Claim]:
    """Plain-language answers as claims, every number from the tables; each baseline is 'as
    needed'.

    One claim per finding: hoarding in points, hoarding in match wins, the best policy (judged
    after Holm's correction over every pair of distinct policies), the keep-until sweep, the
    precision of hoarding against dumping, and the policies merged because they play
    identically (in every seat of ``probe_deals`` deals: :func:`identical_policies`)."""
    ranking = result.table("policies")
    pairs = result.table("differences")
    field_ = ",".join(result.manifest.get("field") or []) or None
    q = question("jokers")
    claims: list[Claim] = []
    for name in HOARDERS:
        got = _against_as_needed(result, name, verbs, field_text, field_)
        if got is not None:
            claims.append(got)
    if "hoarding" in result.tables and len(result.table("hoarding")):
        claims += hoarding_claims(result, verbs)
    if "habits" in result.tables and len(result.table("habits")):
        claims.append(habits_claim(result, field_text))
    if "match_wins" in result.tables and len(result.table("match_wins")):
        said, cells = [], []
        for n in sorted(set(pairs["players"])):
            got = _match_parts(result, int(n), field_, field_text, verbs)
            if got:
                said.append(got[0])
                cells += got[1]
        if said:
            claims.append(several("jokers-evenings", " ".join(said), cells, game=GAME,
                                  study="jokers", question=q))
    best_by: dict[str, list[str]] = {}
    notes, sweep_parts, n_distinct = [], [], 0
    best_cells, sweep_cells = [], []
    for n, part in pairs.groupby("players"):
        n = int(n)
        rank = ranking[ranking["players"] == n].sort_values("mean", kind="stable")
        same = dict(zip(rank["strategy"], rank.get("same_as", rank["strategy"]), strict=True))
        distinct = rank[rank["strategy"].map(same) == rank["strategy"]]
        twins = [str(x) for x in rank["strategy"] if str(x) not in set(distinct["strategy"])]
        n_distinct = max(n_distinct, len(distinct))
        reader = _probe("best", "policies", "strategy", exclude=twins)
        best_cells.append(_cell(result, reader, n, str(distinct["strategy"].iloc[0]), "mean",
                                field_))
        best = best_cells[-1][1].choice
        second = str(distinct["strategy"].iloc[1]) if len(distinct) > 1 else None
        best_by.setdefault(best, []).append(str(n))
        if second is not None:
            got = _pair(result, n, second, best, field_)
            if got is not None:
                cell, d, hw = got
                held = _probe("value", "differences", against=cell[0].against, exact=True)
                holm_cell = (_cell(result, held, n, cell[1].choice, "p_holm", field_)
                             if "p_holm" in part else None)
                holm_p = holm_cell[1].value if holm_cell else float("nan")
                if not holm_p < 0.05:
                    best_cells += [cell, *([holm_cell] if holm_cell else [])]
                    notes.append(f"{verbs[second]} at {n} players (by {pm(d, hw)})")
                elif holm_cell:
                    best_cells.append(holm_cell)
        sweep = rank[rank["keep"].notna()]
        if len(sweep) > 1:
            others = [str(x) for x in rank["strategy"] if str(x) not in set(sweep["strategy"])]
            reader = _probe("best", "policies", "strategy", exclude=others)
            sweep_cells.append(_cell(result, reader, n, str(sweep["strategy"].iloc[0]), "mean",
                                     field_))
            k_name = sweep_cells[-1][1].choice
            k = int(sweep.iloc[0]["keep"])
            vs = _pair(result, n, k_name, "as-needed", field_)
            if same.get(k_name) == same.get("as-needed"):
                twin = _probe("equals", "policies", "strategy", equals=str(same["as-needed"]))
                sweep_cells.append(_cell(result, twin, n, k_name, "same_as", field_))
                sweep_parts.append(f"never pays at {n} players (the best k, {k}, plays "
                                   "exactly as using them as needed)")
            elif vs is not None:
                sweep_cells.append(vs[0])
                if not vs[1] < -vs[2]:
                    sweep_parts.append(f"does not pay at {n} players (even the best k, {k}, "
                                       f"costs {pm(vs[1], vs[2])} minus points per game "
                                       "against using them as needed)")
                else:
                    sweep_parts.append(f"pays at {n} players with k = {k} (saving "
                                       f"{pm(abs(vs[1]), vs[2])} minus points per game "
                                       "against using them as needed)")
    text = "The best joker policy is " + "; ".join(
        f"{verbs[name]} at {_counts(counts)} players" for name, counts in best_by.items())
    text += ("; but it is not clearly ahead of " + ", nor of ".join(notes) if notes else "")
    claims.append(several("jokers-best", text + (
        f" (best of {n_distinct} distinct policies: 'clearly' is judged after "
        "Holm's correction over all their pairs)."), best_cells, game=GAME, study="jokers",
        question=q))
    if sweep_parts:
        claims.append(several("jokers-keep-until", "Keeping jokers until k cards are left "
                              + "; ".join(sweep_parts) + ".", sweep_cells, game=GAME,
                              study="jokers", question=q))
    precision = _precision_claim(result, field_)
    if precision is not None:
        claims.append(precision)
    merged = []
    merged_cells = []
    for n, rank in ranking.groupby("players"):
        if "same_as" not in rank:
            break
        groups = rank.groupby("same_as", sort=False)["strategy"].apply(list)
        for g in groups:
            if len(g) > 1:
                reader = _probe("identical", "policies", "strategy")
                merged_cells.append(_cell(result, reader, int(n), "=".join(map(str, g)), "mean",
                                          field_))
        names = "; ".join(" = ".join(_short(verbs[x]) for x in g) for g in groups if len(g) > 1)
        if names:
            merged.append(f"at {n} players, {names}")
    if merged:
        deals = f"{probe_deals:,} deals" if probe_deals else "every deal"
        claims.append(several("jokers-merged", (
            f"These policies play identical games in every seat of {deals} (or are "
            "the same strategy), so they are merged and never compared with each "
            "other: " + "; ".join(merged) + "."), merged_cells, game=GAME, study="jokers",
            question=q))
    return claims


def _precision_claim(result: StudyResult, field_: str | None) -> Claim | None:
    """How much the duplicate format narrowed hoarding against dumping (hoard - dump),
    beside the median over every pair of different policies (table ``differences``)."""
    pairs = result.table("differences")
    live = pairs[~pairs["identical"]] if "identical" in pairs else pairs
    head_rows = live[(live["a"] == "hoard") & (live["b"] == "dump")]
    if not len(head_rows):
        return None
    cells = []
    for _, r in live.iterrows():
        reader = _probe("value", "differences", against=str(r["b"]), exact=True)
        v = float(r["variance_reduction"])
        if np.isfinite(v) or (r["a"], r["b"]) == ("hoard", "dump"):
            if np.isinf(v):  # no figure (too few differing deals): JSON keeps no infinity
                continue
            cells.append(_cell(result, reader, int(r["players"]), str(r["a"]),
                               "variance_reduction", field_))
    head = [c.value for r, c in cells if c.choice == "hoard" and r.against == "dump"
            and np.isfinite(c.value)]
    every = [c.value for _, c in cells if np.isfinite(c.value)]
    if head:
        lo, hi = min(head), max(head)
        span = f"{lo:.1f}" if f"{lo:.1f}" == f"{hi:.1f}" else f"{lo:.1f} to {hi:.1f}"
        sentence = (
            f"For hoarding against dumping jokers, the duplicate format "
            f"made the comparison {span} times more precise in variance than unpaired runs "
            f"of the same size (median over the {len(every)} pairs of different policies with "
            f"enough deals for the figure: {float(np.median(every)):.1f}); pairs of identical "
            "policies are left out.")
    else:  # the head pair has no figure: its deals are what the sentence rests on
        cells = [_cell(result, _probe("value", "differences", against="dump", exact=True),
                       int(r["players"]), "hoard", "n_units", field_)
                 for _, r in head_rows.iterrows()]
        sentence = (
            "How much more precise the duplicate format made the comparisons is not given: "
            f"the figure needs at least {MIN_RATIO_UNITS} deals, on at least "
            f"{MIN_RATIO_DIFFERING} of which the two policies differ.")
    return several("jokers-precision", sentence, cells, game=GAME, study="jokers",
                   question=question("jokers"))


def run_jokers(
    backend: Backend,
    players: Sequence[int] = (3, 4, 5, 6, 8),
    field: Sequence[str] = ("basic",),
    keep: Sequence[int] = DEFAULT_KEEP,
    games: int = 1000,
    seed: int = DEFAULT_SEED,
    level: float = 0.95,
    matches: int | None = None,
    strong: Sequence[str] = STRONG_FIELDS,
    slow_games: int | None = None,
    habit_games: int | None = None,
    habit_players: Sequence[str] = HABIT_PLAYERS,
) -> StudyResult:

    """Every joker policy in every seat against ``field`` on ``games`` common deals, and in
    every player's place on ``matches`` common matches (default games // 20; 0: none).

    The two hoarders and using jokers as needed also play against each ``strong`` field
    (default pimc), one seat per deal (:func:`block_policies`), on ``slow_games`` deals per
    player count for a field tagged slow (default games // SLOW_SHARE, at least 10), else
    ``games``; the cost of hoarding is given by field and by the jokers dealt to the seat
    (table ``hoarding``). ``habit_players`` (default pimc and careful) play one seat against
    ``field`` in ``habit_games`` traced games per player count (default ``slow_games``):
    what they do with their jokers (table ``habits``)."""
    from strategies.registry import is_slow

    if games < 2:
        raise CardlabError(f"the jokers study needs at least 2 games, got {games}")
    matches = max(2, games // 20) if matches is None else matches
    if matches == 1 or matches < 0:  # two are the fewest that give an interval
        raise CardlabError(f"the jokers study needs 0 or at least 2 matches, got {matches}")
    slow_games = max(10, games // SLOW_SHARE) if slow_games is None else slow_games
    if slow_games < 2:
        raise CardlabError(f"the jokers study needs at least 2 games against a slow field, "
                           f"got {slow_games}")
    habit_games = slow_games if habit_games is None else habit_games
    if habit_games < 0:
        raise CardlabError(f"the joker habits need 0 or more games, got {habit_games}")
    field_labels = [backend.canonical(GAME, f) for f in field] or ["basic"]
    strong_labels = [backend.canonical(GAME, f) for f in strong]
    habit_labels = [backend.canonical(GAME, h) for h in habit_players]
    field_name = ",".join(field_labels)
    pols = policies(keep)
    verbs = {p.name: p.verb for p in pols}
    order = [p.name for p in pols]
    strong_pols = [p for p in pols if p.name in (*HOARDERS, "as-needed") or p.keep is not None]
    slow_pols = [p for p in strong_pols if p.keep is None or p.keep in SLOW_KEEP]
    if not any(p.keep is not None for p in slow_pols):  # a sweep without SLOW_KEEP's points
        slow_pols = strong_pols
    t0 = time.perf_counter()
    rankings, pair_tables, specs, win_tables, win_pairs = [], [], [], [], []
    hoarding, habits, curves, ass_jokers = [], [], [], []
    probe_deals = 0
    for n in players:
        games_table, run_specs = play_policies(backend, n, seat_field(field_labels, n), pols,
                                               games, seed)
        specs.extend(run_specs)
        per_player = int(run_specs[0]["rules"].get("per_player", 0)) or None
        hoarding.append(hoarding_table(games_table, n, field_name, seed, level, per_player))
        curves.append(cost_curve_table(games_table, n, field_name, pols, level))
        ass_jokers.append(ass_jokers_table(games_table, n, field_name, seed, level, per_player))
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
        for f in strong_labels:
            slow = is_slow(GAME, f)
            count = slow_games if slow else games
            strong_table, strong_specs = block_policies(
                backend, n, seat_field([f], n), slow_pols if slow else strong_pols, count,
                seed)
            specs.extend(strong_specs)
            hoarding.append(hoarding_table(strong_table, n, f, seed, level, per_player,
                                           design="one seat per deal"))
            curves.append(cost_curve_table(strong_table, n, f, strong_pols, level,
                                           design="one seat per deal"))
            ass_jokers.append(ass_jokers_table(strong_table, n, f, seed, level, per_player,
                                               design="one seat per deal"))
        for h, label in zip(habit_players, habit_labels, strict=True):
            traced = trace_games(backend, n, seat_field(field_labels, n), label, habit_games,
                                 seed)
            if traced is None:
                continue
            records, seats, _ = traced
            habits.append({"players": n, "field": field_name, "strategy": h, "label": label,
                           **habits_rows(habits_of(records, seats), level)})
    ranking = pd.concat(rankings, ignore_index=True)
    pairs = pd.concat(pair_tables, ignore_index=True)
    hoard_table = pd.concat(hoarding, ignore_index=True)
    tables = {"policies": ranking, "differences": pairs, "hoarding": hoard_table,
              "cost_curve": pd.concat(curves, ignore_index=True)}
    if any(len(t) for t in ass_jokers):
        tables["ass_jokers"] = pd.concat([t for t in ass_jokers if len(t)], ignore_index=True)
    if habits:
        tables["habits"] = pd.DataFrame(habits)
    match_wins = None
    if win_tables:
        match_wins = pd.concat(win_tables, ignore_index=True)
        tables["match_wins"] = match_wins
        tables["match_differences"] = pd.concat(win_pairs, ignore_index=True)
    field_text = field_words(field_labels)
    manifest = base_manifest(
        "jokers", game=GAME, seed=seed, games=games, players=list(players),
        field=field_labels, keep=list(keep), level=level, runs=specs,
        rules=rules_by_players(specs),
        policies={p.name: p.label for p in pols},
        policy_words={p.name: p.words for p in pols if p.words},
        design="one seat against the field, duplicate: each policy in every seat of the "
               "same deals; intervals over deals",
        metric="minus_points (lower is better)", unit="game",
        matches=matches, games_per_match="the number of players (A-12)",
        match_metric="share of the match win, ties shared (higher is better)",
        identity_probe=f"policies merged as identical play identical games in every seat "
                       f"of at least {IDENTITY_PROBE} deals (or are the same strategy)",
        strong_fields=strong_labels, slow_games=slow_games,
        slow_keep=sorted({p.keep for p in slow_pols if p.keep is not None}),
        cost_curve="each keep-until-k policy and each hoarder minus using jokers as needed, "
                   "paired on the same (deal, seat), per player count and field; intervals "
                   "over deals; clear: the 95% interval excludes 0",
        ass_jokers="with no joker dealt to the seat, every joker it holds at the end was "
                   "taken in an ass round (A-7): the hoarder's cost, the part that is those "
                   "jokers (14 each, less as-needed's), and the rest; intervals over deals",
        strong_design="against a strong field the hoarders, as-needed and the keep-until "
                      "sweep (a slow field: the sweep's points in slow_keep) play one seat per "
                      "deal (seat s on the s-th of n equal blocks of deals), the same deals "
                      "and seats for each; intervals over deals",
        hoarding_buckets="jokers dealt to the policy's seat (0, 1, 2+; 'any': every deal), "
                         "recomputed from (seed, index) with the reference deal",
        habit_players=list(habit_players), habit_games=habit_games if habits else 0,
        habit_design="one seat (index mod players) against the field, traced games "
                     "(docs/game-records.md)",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    result = StudyResult("jokers", tables, manifest)
    return result.say(joker_claims(result, field_text, verbs, probe_deals))


def field_words(labels: Sequence[str]) -> str:
    """'basic opponents', 'pimc opponents', 'a field of careful, basic'."""
    labels = list(labels)
    return f"{labels[0]} opponents" if len(labels) == 1 else "a field of " + ", ".join(labels)

"""Study 1 (Who's the Ass?): what each seat can expect, for every player count.

For each player count, every seat's expected minus points, its expected ass penalty (20 x the
chance to end the game holding the ass, ruling A-10) and its chance to be dealt the ass,
simulated beside the exact value that follows from rulings A-2 and A-3 alone: the ass lies at
a uniform position p among the first 39 cards and card p goes to seat p mod n, so
P(seat s is dealt the ass) = |{p in 0..38 : p mod n = s}| / 39.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.games.ass.cards import ASS_PENALTY, ASS_WINDOW  # the game's own facts
from analyzer.rng import DEFAULT_SEED
from analyzer.runner.play import Backend, collect_seat_moments, make_spec, seat_field
from analyzer.stats.hygiene import holm, selected_interval, two_sided_p
from analyzer.stats.intervals import mean_interval_from_moments, wilson_interval
from analyzer.studies.registry import study_game
from analyzer.studies.results import StudyResult, base_manifest, rules_by_players
from analyzer.text import pm

GAME = study_game("seats")  # the game this study plays (the study registry)

COLUMNS = ["minus_points", "seat_effect", "ended_with_ass", "dealt_ass"]


def add_seat_effect(rows: pd.DataFrame) -> pd.DataFrame:
    """Add ``seat_effect``: the seat's minus points minus the mean of all seats in its game.

    Its mean over games is the seat's effect (how much more than the average seat it pays),
    measured paired on the very same games, so deal luck cancels and its interval is the
    right one for "does this seat differ?".
    """
    rows = rows.copy()
    mp = rows["minus_points"].astype(np.float64)
    rows["seat_effect"] = mp - mp.groupby(rows["index"]).transform("mean")
    return rows


def exact_dealt_ass(players: int, seat: int) -> float:
    """P(seat is dealt the ass) = |{p in 0..38 : p mod players = seat}| / 39 (A-2, A-3)."""
    if not 0 <= seat < players:
        raise CardlabError(f"seat must be in 0..{players - 1}, got {seat}")
    return sum(1 for p in range(ASS_WINDOW) if p % players == seat) / ASS_WINDOW


def seat_rows(players: int, labels: list[str], moments: pd.DataFrame,
              level: float) -> list[dict]:
    """Tidy rows (one per seat) from per-seat moments."""
    rows = []
    for seat in range(players):
        m = moments.loc[seat]
        mp = mean_interval_from_moments(m[("minus_points", "n")], m[("minus_points", "sum")],
                                        m[("minus_points", "sumsq")], level)
        eff = mean_interval_from_moments(m[("seat_effect", "n")], m[("seat_effect", "sum")],
                                         m[("seat_effect", "sumsq")], level)
        games = int(m[("ended_with_ass", "n")])
        end = wilson_interval(float(m[("ended_with_ass", "sum")]), games, level)
        pen = end.scaled(ASS_PENALTY)
        dealt = wilson_interval(float(m[("dealt_ass", "sum")]), games, level)
        exact = exact_dealt_ass(players, seat)
        rows.append({
            "players": players, "seat": seat, "strategy": labels[seat], "games": games,
            "minus_points": mp.value, "minus_points_low": mp.low,
            "minus_points_high": mp.high,
            "seat_effect": eff.value, "seat_effect_low": eff.low, "seat_effect_high": eff.high,
            "ass_penalty": pen.value, "ass_penalty_low": pen.low, "ass_penalty_high": pen.high,
            "p_end_ass": end.value, "p_end_ass_low": end.low, "p_end_ass_high": end.high,
            "p_dealt_ass": dealt.value, "p_dealt_ass_low": dealt.low,
            "p_dealt_ass_high": dealt.high, "p_dealt_ass_exact": exact,
            "exact_inside": bool(dealt.low <= exact <= dealt.high),
        })
    return rows


def seat_clear(table: pd.DataFrame, level: float = 0.95) -> np.ndarray:
    """Which seat effects are clear once every seat of the table is allowed for: Holm's
    correction over all (players, seat) rows (a normal test from each 95% interval)."""
    half = (table["seat_effect_high"] - table["seat_effect_low"]).to_numpy(float) / 2
    se = half / NormalDist().inv_cdf(0.5 + level / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, table["seat_effect"].to_numpy(float) / se, 0.0)
    return holm(two_sided_p(z)) < 1 - level


def headlines(table: pd.DataFrame, field_text: str) -> list[str]:
    """Plain-language answers, every number taken from ``table``; "clearly" is judged after
    Holm's correction over every seat tested (picking the largest of many is no finding)."""
    lines = []
    clear = seat_clear(table)
    tested = len(table)
    top = table.loc[table["seat_effect"].idxmax()]
    bottom = table.loc[table["seat_effect"].idxmin()]
    extremes = (f"the largest is seat {int(top.seat)} at {int(top.players)} players "
                f"({_pm(top, 'seat_effect')} minus points per game against the average seat), "
                f"the smallest seat {int(bottom.seat)} at {int(bottom.players)} players "
                f"({_pm(bottom, 'seat_effect')})")
    if clear.any():
        named = ", ".join(f"seat {int(r.seat)} at {int(r.players)} players "
                          f"({_pm(r, 'seat_effect')})" for _, r in table[clear].iterrows())
        lines.append(
            f"Seat effects ({field_text}): {int(clear.sum())} of {tested} seats differ clearly "
            f"from their table's average after Holm's correction over all {tested}: {named}; "
            f"{extremes}.")
    else:
        lines.append(
            f"No seat pays clearly more or less than the average seat at its table "
            f"({field_text}) after Holm's correction over all {tested} seats tested; "
            f"{extremes}.")
    extra = table["ass_penalty"] - 20.0 / table["players"]
    worst = table.loc[extra.idxmax()]
    half = (worst["ass_penalty_high"] - worst["ass_penalty_low"]) / 2
    low, high = selected_interval(float(extra.max()), float(extra.max() - half),
                                  float(extra.max() + half), tested)
    lines.append(
        f"Exactly one player ends each game with the ass, so its expected cost averages 20/n "
        f"minus points per seat (6.67 at 3 players, 1.67 at 12). The seat that pays most "
        f"above that is seat {int(worst.seat)} at {int(worst.players)} players "
        f"({pm(float(extra.max()), float(half))}: an expected {_pm(worst, 'ass_penalty')}), "
        + ("clearly more even once its pick as the largest of "
           f"{tested} is allowed for." if low > 0 else
           f"not clearly more once its pick as the largest of {tested} is allowed for."))
    inside = int(table["exact_inside"].sum())
    lines.append(
        f"The simulated chance to be dealt the ass agrees with its exact value (the ass is "
        f"shuffled among the first 39 cards, which are dealt one at a time around the table): "
        f"the 95% interval contains it for {inside} of {len(table)} (players, seat) pairs "
        f"(about 95% would be expected of independent checks; these are correlated: every "
        f"player count replays the same seed's deal indices and the seats of a game share one "
        f"ass, so misses come in clusters)."
    )
    for players, part in table.groupby("players"):
        mine = clear[(table["players"] == players).to_numpy()]
        worst = part.loc[part["seat_effect"].idxmax()]
        best = part.loc[part["seat_effect"].idxmin()]
        which = [int(x) for x in part["seat"][mine]]
        lines.append(
            f"{players} players: {_pm(part.iloc[0], 'minus_points')} minus points per game in "
            f"seat 0; the worst seat is {int(worst.seat)} ({_pm(worst, 'seat_effect')} vs the "
            f"average seat), the best seat {int(best.seat)} ({_pm(best, 'seat_effect')}); "
            + ("no seat differs clearly from the average (Holm, all seats)." if not which else
               "clearly different from the average (Holm, all seats): seat "
               + ", ".join(map(str, which)) + "."))
    return lines


def _pm(row: pd.Series, col: str) -> str:
    return pm(row[col], (row[col + "_high"] - row[col + "_low"]) / 2)


STRONG_FIELDS = ("pimc",)  # strong play: the seat effects when everybody plays well
STRONG_PLAYERS = (4, 6)  # pimc plays a few hundred games/s: two player counts
SLOW_SHARE = 50  # a strong (slow) field plays games // SLOW_SHARE games, at least 100


def run_seats(
    backend: Backend,
    players: Sequence[int] = tuple(range(3, 13)),
    strategies: Sequence[str] = ("basic",),
    games: int = 2000,
    seed: int = DEFAULT_SEED,
    level: float = 0.95,
    strong_fields: Sequence[str] = STRONG_FIELDS,
    strong_players: Sequence[int] = STRONG_PLAYERS,
    slow_games: int | None = None,
) -> StudyResult:

    """Play ``games`` games at each player count and tabulate every seat (study ``seats``).

    ``strategies`` is the field: one label for every seat, or several repeated around the
    table (seat s plays ``strategies[s % len]``). Each of ``strong_fields`` (default
    ``pimc``: every seat plays strong) is tabulated the same way at ``strong_players`` (those
    of ``players``) on ``slow_games`` games (default ``games // SLOW_SHARE``, at least 100),
    in the table ``strong``, so the answer says whether it holds under strong play too.
    """
    if games < 2:
        raise CardlabError(f"the seats study needs at least 2 games, got {games}")
    slow_games = max(100, games // SLOW_SHARE) if slow_games is None else slow_games
    if strong_fields and slow_games < 2:
        raise CardlabError(f"a strong field needs at least 2 games, got {slow_games}")
    labels = [backend.canonical(GAME, s) for s in strategies] or ["basic"]
    t0 = time.perf_counter()
    rows, specs = [], []
    for n in players:
        field = seat_field(labels, n)
        spec = make_spec(backend, GAME, n, field, seed, mode="games")
        specs.append(spec.to_dict())
        moments = collect_seat_moments(backend, spec, games, COLUMNS, derive=add_seat_effect)
        rows.extend(seat_rows(n, field, moments, level))
    table = pd.DataFrame(rows)
    field_text = ("every seat " + labels[0]) if len(set(labels)) == 1 else (
        "field " + ", ".join(labels))
    lines = headlines(table, field_text)
    strong_labels = [backend.canonical(GAME, s) for s in strong_fields]
    strong_rows = []
    counts = [n for n in players if n in set(strong_players)]
    for label in strong_labels:
        for n in counts:
            spec = make_spec(backend, GAME, n, [label] * n, seed, mode="games")
            specs.append(spec.to_dict())
            moments = collect_seat_moments(backend, spec, slow_games, COLUMNS,
                                           derive=add_seat_effect)
            strong_rows += [{"field": label, **r}
                            for r in seat_rows(n, [label] * n, moments, level)]
    tables = {"seats": table}
    if strong_rows:
        strong = pd.DataFrame(strong_rows)
        tables["strong"] = strong
        for label, part in strong.groupby("field", sort=False):
            lines.append(strong_sentence(part.reset_index(drop=True), label, slow_games))
    manifest = base_manifest(
        "seats", game=GAME, seed=seed, games=games, players=list(players),
        strategies=labels, level=level, runs=specs, rules=rules_by_players(specs),
        strong_fields=strong_labels, strong_players=counts, slow_games=slow_games,
        elapsed_s=round(time.perf_counter() - t0, 2),
        unit="game", metric="minus_points (lower is better)",
    )
    return StudyResult("seats", tables, manifest, lines)


def strong_sentence(part: pd.DataFrame, label: str, games: int) -> str:
    """Whether any seat differs clearly when every seat plays ``label`` (Holm over them)."""
    clear = seat_clear(part)
    top = part.loc[part["seat_effect"].abs().idxmax()]
    counts = ", ".join(str(int(n)) for n in sorted(part["players"].unique()))
    which = ", ".join(f"seat {int(r.seat)} at {int(r.players)} players"
                      for _, r in part[clear].iterrows())
    return (f"Under strong play (every seat {label}, {games:,} games at {counts} players): "
            + (f"{which} differ{'s' if clear.sum() == 1 else ''} clearly from the table's "
               "average (Holm over these seats)" if which else
               "no seat differs clearly from its table's average (Holm over these seats)")
            + f"; the largest effect is seat {int(top.seat)} at {int(top.players)} players, "
            f"{_pm(top, 'seat_effect')} minus points per game.")

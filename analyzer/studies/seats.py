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
from analyzer.runner.play import Backend, collect_seat_moments, make_spec, seat_field
from analyzer.seeds import DEFAULT_SEED
from analyzer.stats.hygiene import holm, selected_interval, two_sided_p
from analyzer.stats.intervals import mean_interval_from_moments, wilson_interval
from analyzer.studies.claims import Cell, Claim, half, make_cell, probe, several
from analyzer.studies.registry import question, study_game
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
            # what the seat pays for the ass above the average seat's 20/n
            "ass_penalty_excess": pen.value - ASS_PENALTY / players,
            "ass_penalty_excess_low": pen.low - ASS_PENALTY / players,
            "ass_penalty_excess_high": pen.high - ASS_PENALTY / players,
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
    """The sentences :func:`seat_claims` states about ``table`` (those that hold); a table
    without ``ass_penalty_excess`` gets it from ``ass_penalty``."""
    if "ass_penalty_excess" not in table:
        table = table.copy()
        for end in ("", "_low", "_high"):
            table["ass_penalty_excess" + end] = (table["ass_penalty" + end]
                                                 - ASS_PENALTY / table["players"])
    result = StudyResult("seats", {"seats": table}, {})
    return result.say(seat_claims(result, field_text, field_text)).headlines


def _probe(kind: str, table: str = "seats", **kw) -> Claim:
    return probe(GAME, "seats", kind, table, **kw)


def _holm_cells(result: StudyResult, table: str, part: pd.DataFrame, clear: np.ndarray,
                field_: str | None) -> list[tuple[Claim, Cell]]:
    """Every row of ``part`` as a Holm cell: clear or not, as the correction says."""
    out = []
    for is_clear, row in zip(clear, part.itertuples(), strict=True):
        reader = _probe("holm-clear" if is_clear else "holm-unclear", table,
                        extra={"key": "seat"})
        out.append((reader, make_cell(reader, result, int(row.players), str(int(row.seat)),
                                      "seat_effect", field_=field_)))
    return out


def seat_claims(result: StudyResult, field_text: str, field_: str) -> list[Claim]:
    """Plain-language answers about table ``seats`` as claims, every number read from the
    table; "clearly" is judged after Holm's correction over every seat tested (picking the
    largest of many is no finding)."""
    table = result.table("seats")
    q = question("seats")
    claims = []
    clear = seat_clear(table)
    tested = len(table)
    holm_cells = _holm_cells(result, "seats", table, clear, field_)
    top = table.loc[table["seat_effect"].idxmax()]
    bottom = table.loc[table["seat_effect"].idxmin()]
    largest = _probe("best", better="higher", extra={"key": "seat", "all_players": True})
    smallest = _probe("best", better="lower", extra={"key": "seat", "all_players": True})
    hi = make_cell(largest, result, int(top.players), str(int(top.seat)), "seat_effect",
                   field_=field_)
    lo = make_cell(smallest, result, int(bottom.players), str(int(bottom.seat)),
                   "seat_effect", field_=field_)
    extremes = (f"the largest is seat {hi.choice} at {hi.players} players "
                f"({cpm(hi)} minus points per game against the average seat), "
                f"the smallest seat {lo.choice} at {lo.players} players ({cpm(lo)}; each "
                "seat's own 95% interval, before Holm's correction)")
    named_cells = [c for r, c in holm_cells if r.kind == "holm-clear"]
    if named_cells:
        named = ", ".join(f"seat {c.choice} at {c.players} players ({cpm(c)})"
                          for c in named_cells)
        sentence = (f"Seat effects ({field_text}): {len(named_cells)} of {len(holm_cells)} "
                    f"seats differ clearly from their table's average after Holm's correction "
                    f"over all {len(holm_cells)}: {named}; {extremes}.")
    else:
        sentence = (f"No seat pays clearly more or less than the average seat at its table "
                    f"({field_text}) after Holm's correction over all {len(holm_cells)} seats "
                    f"tested; {extremes}.")
    claims.append(several("seats-effects", sentence,
                          [*holm_cells, (largest, hi), (smallest, lo)], game=GAME,
                          study="seats", question=q))
    worst = table.loc[table["ass_penalty_excess"].idxmax()]
    excess = make_cell(_probe("best", better="higher",
                              extra={"key": "seat", "all_players": True}),
                       result, int(worst.players), str(int(worst.seat)), "ass_penalty_excess",
                       field_=field_)
    low = selected_interval(excess.value, excess.low, excess.high, tested)[0]
    judged = _probe("positive" if low > 0 else "negative" if excess.high < 0 else "unclear",
                    extra={"key": "seat", "family": tested})
    verdict = make_cell(judged, result, excess.players, excess.choice, "ass_penalty_excess",
                        field_=field_)
    reader = _probe("value", extra={"key": "seat"})
    penalty = make_cell(reader, result, excess.players, excess.choice, "ass_penalty",
                        field_=field_)
    claims.append(several("seats-ass", (
        f"Exactly one player ends each game with the ass, so its expected cost averages 20/n "
        f"minus points per seat (6.67 at 3 players, 1.67 at 12). The seat that pays most "
        f"above that is seat {excess.choice} at {excess.players} players "
        f"({cpm(excess)}: an expected {cpm(penalty)}), "
        + ("clearly more even once its pick as the largest of "
           f"{tested} is allowed for" if judged.kind == "positive" else
           f"not clearly more once its pick as the largest of {tested} is allowed for")
        + f" ({cpm(verdict)} with the interval widened for that pick)."),
        [(_probe("best", better="higher", extra={"key": "seat", "all_players": True}), excess),
         (judged, verdict), (reader, penalty)], game=GAME, study="seats", question=q))
    counted = []
    for n in sorted(int(x) for x in table["players"].unique()):
        for metric in ("exact_inside", "rows"):
            reader = _probe("count")
            counted.append((reader, make_cell(reader, result, n, "seats", metric,
                                              field_=field_)))
    inside = int(sum(c.value for _, c in counted if c.metric == "exact_inside"))
    rows = int(sum(c.value for _, c in counted if c.metric == "rows"))
    claims.append(several("seats-exact", (
        f"The simulated chance to be dealt the ass agrees with its exact value (the ass is "
        f"shuffled among the first 39 cards, which are dealt one at a time around the table): "
        f"the 95% interval contains it for {inside} of {rows} (players, seat) pairs "
        f"(about 95% would be expected of independent checks; these are correlated: every "
        f"player count replays the same seed's deal indices and the seats of a game share one "
        f"ass, so misses come in clusters)."), counted, game=GAME, study="seats", question=q))
    for players, part in table.groupby("players"):
        n = int(players)
        mine = [hc for hc in holm_cells if hc[1].players == n]
        first = _probe("value", extra={"key": "seat"})
        seat0 = make_cell(first, result, n, "0", "minus_points", field_=field_)
        worst_r = _probe("best", better="higher", extra={"key": "seat"})
        best_r = _probe("best", better="lower", extra={"key": "seat"})
        w = make_cell(worst_r, result, n, str(int(part.loc[part["seat_effect"].idxmax(),
                                                           "seat"])), "seat_effect",
                      field_=field_)
        b = make_cell(best_r, result, n, str(int(part.loc[part["seat_effect"].idxmin(),
                                                          "seat"])), "seat_effect",
                      field_=field_)
        which = [c.choice for r, c in mine if r.kind == "holm-clear"]
        sentence = (
            f"{n} players: {cpm(seat0)} minus points per game in seat 0; the worst seat is "
            f"{w.choice} ({cpm(w)} vs the average seat), the best seat {b.choice} ({cpm(b)}); "
            + ("no seat differs clearly from the average (Holm, all seats)" if not which else
               "clearly different from the average (Holm, all seats): seat "
               + ", ".join(which))
            + "; the intervals are each seat's own 95%, before Holm's correction.")
        claims.append(several(f"seats-{n}", sentence,
                              [(first, seat0), (worst_r, w), (best_r, b), *mine],
                              game=GAME, study="seats", question=q))
    return claims


def cpm(cell: Cell) -> str:
    """The cell's number with its interval, as sentences show it."""
    return pm(cell.value, half(cell))


def _pm(row: pd.Series, col: str) -> str:
    return pm(row[col], (row[col + "_high"] - row[col + "_low"]) / 2)


# Strong play: the seat effects when everybody plays well. ``learned`` (fast) plays the full
# budget; ``pimc``, the strongest reference, a few hundred games/s, its slow share.
STRONG_FIELDS = ("learned", "pimc")
STRONG_PLAYERS = (4, 6)  # two player counts
SLOW_SHARE = 50  # a field tagged slow plays games // SLOW_SHARE games, at least 100


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
    ``learned`` and ``pimc``: every seat plays strong) is tabulated the same way at
    ``strong_players`` (those of ``players``) in the table ``strong``, so the answer says
    whether it holds under strong play too: on ``games`` games, or for a field tagged slow
    on ``slow_games`` (default ``games // SLOW_SHARE``, at least 100).
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
    strong_labels = [backend.canonical(GAME, s) for s in strong_fields]
    strong_rows = []
    counts = [n for n in players if n in set(strong_players)]
    from strategies.registry import is_slow

    strong_games = {label: slow_games if is_slow(GAME, label) else games
                    for label in strong_labels}
    for label in strong_labels:
        for n in counts:
            spec = make_spec(backend, GAME, n, [label] * n, seed, mode="games")
            specs.append(spec.to_dict())
            moments = collect_seat_moments(backend, spec, strong_games[label], COLUMNS,
                                           derive=add_seat_effect)
            strong_rows += [{"field": label, **r}
                            for r in seat_rows(n, [label] * n, moments, level)]
    tables = {"seats": table}
    if strong_rows:
        tables["strong"] = pd.DataFrame(strong_rows)
    manifest = base_manifest(
        "seats", game=GAME, seed=seed, games=games, players=list(players),
        strategies=labels, level=level, runs=specs, rules=rules_by_players(specs),
        strong_fields=strong_labels, strong_players=counts, slow_games=slow_games,
        strong_games=strong_games,
        elapsed_s=round(time.perf_counter() - t0, 2),
        unit="game", metric="minus_points (lower is better)",
    )
    result = StudyResult("seats", tables, manifest)
    claims = seat_claims(result, field_text, ",".join(labels))
    if strong_rows:
        claims += [strong_claim(result, str(label), strong_games[str(label)])
                   for label in dict.fromkeys(tables["strong"]["field"].astype(str))]
    return result.say(claims)


def strong_claim(result: StudyResult, label: str, games: int) -> Claim:
    """Whether any seat differs clearly when every seat plays ``label`` (Holm over them),
    and the largest effect in size, as a claim on table ``strong``."""
    part = result.table("strong")
    part = part[part["field"].astype(str) == label].reset_index(drop=True)
    clear = seat_clear(part)
    holm_cells = _holm_cells(result, "strong", part, clear, label)
    top = part.loc[part["seat_effect"].abs().idxmax()]
    biggest = _probe("best", "strong", better="higher",
                     extra={"key": "seat", "all_players": True, "abs": True})
    t = make_cell(biggest, result, int(top.players), str(int(top.seat)), "seat_effect",
                  field_=label)
    counts = ", ".join(str(int(n)) for n in sorted(part["players"].unique()))
    named = [c for r, c in holm_cells if r.kind == "holm-clear"]
    which = ", ".join(f"seat {c.choice} at {c.players} players" for c in named)
    played = _probe("value", "strong", extra={"key": "seat"})
    g = make_cell(played, result, t.players, t.choice, "games", field_=label)
    sentence = (f"Under strong play (every seat {label}, {int(g.value):,} games at {counts} "
                "players): "
                + (f"{which} differ{'s' if len(named) == 1 else ''} clearly from the table's "
                   "average (Holm over these seats)" if which else
                   "no seat differs clearly from its table's average (Holm over these seats)")
                + f"; the largest effect is seat {t.choice} at {t.players} players, "
                f"{cpm(t)} minus points per game (its own 95% interval, before Holm's "
                "correction).")
    return several(f"seats-strong-{label}", sentence, [*holm_cells, (biggest, t), (played, g)],
                   game=GAME, study="seats", question=question("seats"))

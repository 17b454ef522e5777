"""The seats study's report parts: seat effects, the dealt-ass check and its alert."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.numbers import interval, percent
from analyzer.studies.registry import study_game
from analyzer.studies.results import StudyResult
from reports.claims import Claim, difference_kind, make_cell, probe, selected_interval
from reports.figures import (
    BLUE,
    GREY,
    ORANGE,
    SEAT_AXIS,
    FigureInfo,
    _errors,
    _grid,
    _heatmap,
    _save,
)
from reports.findings import CLEARLY, Alert, Finding, _field, question
from reports.reproduce import study_command
from reports.tables import TableView, _cells, _counts, interval_cell


def alerts(result: StudyResult) -> list[Alert]:
    """The correctness check: the chance to be dealt the ass against its exact value."""
    t = result.table("seats")
    missed = int((~t["exact_inside"].astype(bool)).sum())
    expected = 0.05 * len(t)
    if missed > expected + 3 * math.sqrt(expected) + 1:
        return [Alert("seats", (
            f"Correctness check: the simulated chance to be dealt the ass missed its exact "
            f"value for {missed} of {len(t)} seats, more than the about {expected:.0f} "
            "chance allows. See the appendix."))]
    return []


# --------------------------------------------------------------------------------- seats
def seats_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Bars by seat with error bars; players x seat heatmaps; dealt-ass check."""
    t = result.table("seats")
    counts = sorted(t["players"].unique())
    out = []

    # seats as dots with their intervals around the table's average seat (paired on the
    # same games); every panel on the same scale, centred on zero: nothing is magnified
    span = float(np.nanmax(np.abs(t[["seat_effect_low", "seat_effect_high"]].to_numpy())))
    span = 1.15 * (span if np.isfinite(span) and span > 0 else 1.0)
    fig, axes = _grid(len(counts), width=2.9, height=2.5)
    for ax, n in zip(axes, counts, strict=True):
        part = t[t["players"] == n]
        ax.axhline(0, color=GREY, lw=1)
        ax.errorbar(part["seat"], part["seat_effect"], yerr=_errors(part, "seat_effect"),
                    fmt="o", ms=4, color=BLUE, ecolor=BLUE, elinewidth=1.2, capsize=2)
        ax.set_ylim(-span, span)
        average = float(part["minus_points"].mean())
        ax.set_title(f"{n} players (average seat {average:.1f})", fontsize=9)
        ax.set_xticks(part["seat"])
        ax.set_xlabel(SEAT_AXIS, fontsize=8)
        ax.set_ylabel("vs average seat", fontsize=8)
        ax.tick_params(labelsize=7)
    fig.suptitle("Who's the Ass?: each seat's minus points against the average seat")
    out.append(FigureInfo(_save(fig, folder, "seats_by_seat.png"),
                          "Each seat against the average seat",
                          "A dot is a seat's minus points per game minus the average of all "
                          "seats at its table, on the very same games; whiskers are 95% "
                          "intervals. The grey line is the average seat (its minus points per "
                          "game in each panel's title): a dot above it pays more. Every panel "
                          "has the same scale, centred on the average.",
                          wide=len(counts) > 2))

    for col, fname, title, label in (
        ("minus_points", "seats_heatmap.png", "Expected minus points, players × seat",
         "minus points per game"),
        ("ass_penalty", "seats_ass_penalty.png",
         "Expected ass penalty, players × seat",
         "minus points per game from the ass (20 × chance to end with it)"),
    ):
        matrix = t.pivot(index="players", columns="seat", values=col)
        fig = Figure(figsize=(9, 5), layout="constrained")
        ax = fig.subplots()
        _heatmap(ax, matrix, ".1f", label, fig)
        ax.set_xlabel("seat (0 = first card; the dealer is the last seat)")
        ax.set_ylabel("players")
        ax.set_title("Who's the Ass?: " + title[0].lower() + title[1:])
        out.append(FigureInfo(_save(fig, folder, fname), title,
                              f"Each cell is the mean {label} of one seat at one player count; "
                              "empty cells are seats that do not exist at that count.",
                              extra=True))

    fig = Figure(figsize=(6, 5), layout="constrained")
    ax = fig.subplots()
    ax.errorbar(t["p_dealt_ass_exact"], t["p_dealt_ass"], yerr=_errors(t, "p_dealt_ass"),
                fmt="o", ms=3, color=BLUE, ecolor=GREY, capsize=2, label="simulated, 95% CI")
    lim = [0, float(max(t["p_dealt_ass_high"].max(), t["p_dealt_ass_exact"].max())) * 1.05]
    ax.plot(lim, lim, color=ORANGE, lw=1, label="exact = simulated")
    ax.set_xlabel("exact chance (the ass lies among the first 39 cards, dealt in turn)")
    ax.set_ylabel("simulated chance")
    ax.set_title("Chance to be dealt the ass: simulated vs exact")
    ax.legend(fontsize=8)
    out.append(FigureInfo(_save(fig, folder, "seats_dealt_ass.png"),
                          "Chance to be dealt the ass: simulated against exact",
                          "One point per (player count, seat); points on the orange line agree "
                          "with the exact value that follows from the deal alone (rulings A-2 "
                          "and A-3: the ass is shuffled among the first 39 cards, which are "
                          "dealt one at a time around the table).", appendix=True))
    return out


def seats_views(result: StudyResult) -> list[TableView]:
    """Per (players, seat): minus points, ass penalty; the dealt-ass check in the appendix."""
    t = result.table("seats")
    view = pd.DataFrame({
        "players": t["players"], "seat": t["seat"], "strategy": t["strategy"],
        "games": _counts(t["games"]),
        "minus points": _cells(t, "minus_points"),
        "vs average seat": [interval_cell(v, lo, hi, signed=True) for v, lo, hi in
                            zip(t["seat_effect"], t["seat_effect_low"], t["seat_effect_high"],
                                strict=True)],
        "ass penalty": _cells(t, "ass_penalty"),
        "ends with the ass": _cells(t, "p_end_ass", rate=True),
    })
    check = pd.DataFrame({
        "players": t["players"], "seat": t["seat"], "games": _counts(t["games"]),
        "dealt the ass (simulated)": _cells(t, "p_dealt_ass", rate=True),
        "dealt the ass (exact)": [percent(x, 2) for x in t["p_dealt_ass_exact"]],
        "exact inside the interval": ["yes" if x else "no" for x in t["exact_inside"]],
    })
    views = [TableView("Every seat at every player count (per game)", view, "seats")]
    if "strong" in result.tables and len(result.table("strong")):
        s = result.table("strong")
        views.append(TableView("Under strong play: every seat at the strong field's tables",
                               pd.DataFrame({
            "field": s["field"], "players": s["players"], "seat": s["seat"],
            "games": _counts(s["games"]), "minus points": _cells(s, "minus_points"),
            "vs average seat": [interval_cell(v, lo, hi, signed=True) for v, lo, hi in
                                zip(s["seat_effect"], s["seat_effect_low"],
                                    s["seat_effect_high"], strict=True)],
            "ass penalty": _cells(s, "ass_penalty"),
        }), "strong"))
    return [*views,
            TableView("Chance to be dealt the ass: simulated against exact", check, "seats",
                      appendix=True)]


def _top_seat_claim(result: StudyResult, table: str, part: pd.DataFrame, field_: str,
                    command: str, scope: str, claim_id: str) -> Claim:
    """The biggest seat effect of ``part`` (rows of study table ``table``) as a claim judged on
    an interval corrected for picking it among ``len(part)`` seats; ``scope`` opens the
    sentence and ``{where}`` in it is filled with the seat and player count."""
    top = part.loc[part["seat_effect"].abs().idxmax()]
    low, high = selected_interval(float(top["seat_effect"]), float(top["seat_effect_low"]),
                                  float(top["seat_effect_high"]), len(part))
    kind = difference_kind(low, high)
    extra = {"key": "seat", "family": len(part)}
    reader = probe(study_game("seats"), "seats", kind, table, extra=extra)
    cell = make_cell(reader, result, int(top["players"]), str(int(top["seat"])),
                     "seat_effect", field_=field_)
    where = f"seat {int(top['seat'])} at {int(top['players'])} players"
    # the interval shown is the one the verdict used: widened for the pick (Bonferroni)
    sentence = (f"{scope}, the biggest difference from the table's average seat is "
                f"{interval(cell.value, (cell.high - cell.low) / 2, signed=True)} minus "
                f"points per game ({where}; the interval allows for its pick as the biggest "
                f"of {len(part)}): {CLEARLY[kind]} the average seat.")
    return Claim(f"{claim_id}-{kind}", question("seats"), sentence, study_game("seats"),
                 "seats", command, kind, table, (cell,), extra=extra)


def seats_finding(result: StudyResult) -> Finding:
    """Does the seat matter? The largest seat effect of the field, and of each strong field,
    as claims on their cells; how many seats differ clearly."""
    t = result.table("seats")
    clear = int(((t["seat_effect_low"] > 0) | (t["seat_effect_high"] < 0)).sum())
    expected = 0.05 * len(t)
    top = t.loc[t["seat_effect"].abs().idxmax()]
    size = abs(top["seat_effect"]) / max(float(t["minus_points"].mean()), 1e-9)
    if clear <= expected + 2 * math.sqrt(expected) + 1:
        verdict = "Hardly."
    elif size < 0.05:
        verdict = "A little."
    else:
        verdict = "Yes."
    field_ = _field(result)
    command = study_command(result) or ""
    claims = [_top_seat_claim(result, "seats", t, field_, command, f"At a table of {field_}",
                              "seats-top")]
    detail = (f"{claims[0].sentence} {clear} of {len(t)} seats differ clearly from their "
              f"table's average; about {expected:.0f} would by chance alone.")
    if "strong" in result.tables and len(result.table("strong")):
        for label, part in result.table("strong").groupby("field", sort=False):
            counts = " and ".join(str(int(n)) for n in sorted(part["players"].unique()))
            claims.append(_top_seat_claim(
                result, "strong", part, str(label), command,
                f"Under strong play (every seat {label}, {counts} players)",
                f"seats-strong-{label}"))
            detail += " " + claims[-1].sentence
    return Finding("seats", question("seats"), verdict, detail, tuple(claims))


figures = seats_figures
views = seats_views
finding = seats_finding

"""The compare study's report parts: ranking and pairs, and the alerts of a sequential run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.games.registry import title as game_title
from analyzer.numbers import count, interval
from analyzer.studies.results import StudyResult
from analyzer.text import is_rate, metric_words
from reports import facts
from reports.claims import difference_kind, make_cell, probe, several
from reports.figures import BLUE, ORANGE, FigureInfo, _grid, _pair_half, _save, compare_unit
from reports.findings import Alert, Finding, pair_alerts
from reports.reproduce import study_command
from reports.tables import TableView, _pair_view, _rank_view


def alerts(result: StudyResult) -> list[Alert]:
    """Pairs that pairing did not narrow, and an --until-sure run that stopped early."""
    mode = result.manifest.get("mode") or "games"
    out = pair_alerts("compare", result.table("pairs"), f"--{mode}")
    budget = result.manifest.get("games")
    rank = result.table("ranking")
    if budget and len(rank) and int(rank["deals"].max()) < int(budget):
        out.append(Alert("compare", (
            f"--until-sure stopped after {count(rank['deals'].max())} of a budget of "
            f"{count(budget)} per player count; the tables show the "
            f"{count(rank['deals'].max())} played.")))
    return out


def compare_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Ranking with intervals and a fair-share line, and a heatmap of the differences."""
    rank = result.table("ranking")
    pairs = result.table("pairs")
    metric_col = str(result.manifest.get("metric", "value"))
    metric = metric_words(metric_col)
    rate = is_rate(metric_col)
    scale = 100.0 if rate else 1.0
    better = facts.better(result.manifest)  # the game's direction, not the file's
    unit = compare_unit(result.manifest)
    game = game_title(str(result.manifest.get("game")))
    counts = sorted(rank["players"].unique())
    out = []
    fig, axes = _grid(len(counts), width=5.0, height=1.3 + 0.45 * rank["strategy"].nunique())
    for ax, n in zip(axes, counts, strict=True):
        part = rank[rank["players"] == n].sort_values("rank", ascending=False)
        ax.errorbar(part["mean"] * scale, range(len(part)), xerr=part["half"] * scale, fmt="o",
                    color=BLUE, ecolor=BLUE, capsize=3)
        if metric_col == "won":
            ax.axvline(100.0 / n, color=ORANGE, ls="--", lw=1,
                       label=f"fair share: 1 in {n} = {100 / n:.0f}%")
        else:
            ax.axvline(float(part["mean"].mean()) * scale, color=ORANGE, ls="--", lw=1,
                       label="average of the strategies")
        ax.set_yticks(range(len(part)), part["strategy"], fontsize=8)
        ax.set_ylim(-0.6, len(part) - 0.4)
        if rate:  # a rate's axis starts at 0%: the gaps are not magnified
            ax.set_xlim(0, 1.1 * max(100.0 / n, float(part["high"].max()) * scale))
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel(f"{metric}{' (%)' if rate else ''} per {unit} ({better} is better)",
                      fontsize=8)
        ax.legend(fontsize=7, loc="lower right" if better == "higher" else "lower left")
    fig.suptitle(f"{game}: ranking, every strategy in every seat (95% intervals)", fontsize=10)
    out.append(FigureInfo(_save(fig, folder, "compare_ranking.png"), "Ranking",
                          f"Mean {metric} per {unit} with its 95% interval; best at the top. "
                          "The dashed line is the fair share (what a strategy gets when all "
                          "are equal). Intervals of single means include deal luck; the "
                          "paired differences below do not.", wide=len(counts) > 1))

    fig, axes = _grid(len(counts), width=5.6, height=4.4)
    for ax, n in zip(axes, counts, strict=True):
        part = pairs[pairs["players"] == n]
        names = list(rank[rank["players"] == n].sort_values("rank")["strategy"])
        matrix = pd.DataFrame(np.nan, index=names, columns=names)
        for _, row in part.iterrows():
            matrix.loc[row["a"], row["b"]] = row["difference"] * scale
            matrix.loc[row["b"], row["a"]] = -row["difference"] * scale
        data = matrix.to_numpy(dtype=float)
        span = np.nanmax(np.abs(data)) if np.isfinite(data).any() else 1.0
        im = ax.imshow(np.ma.masked_invalid(data), cmap="RdBu_r" if better == "lower" else "RdBu",
                       vmin=-span, vmax=span)
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
        ax.set_yticks(range(len(names)), names, fontsize=8)
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if i != j:
                    half = _pair_half(part, a, b) * scale
                    dark = abs(data[i, j]) > 0.6 * span
                    ax.text(j, i, interval(data[i, j], half, signed=True).replace(" ± ", "\n± "),
                            ha="center", va="center", fontsize=7,
                            color="white" if dark else "black")
        ax.set_title(f"{n} players: row minus column", fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.8,
                     label=("percentage points" if rate else metric) + f" per {unit}")
    units = "matches" if unit == "match" else unit + "s"
    fig.suptitle(f"Pairwise differences in {metric}, on the same {units}", fontsize=10)
    out.append(FigureInfo(_save(fig, folder, "compare_pairs.png"), "Pairwise differences",
                          f"Each cell is row minus column in {metric}"
                          f"{' (percentage points)' if rate else ''} per {unit}, with its 95% "
                          f"paired interval ({better} is better).", wide=len(counts) > 1))
    return out


def compare_views(result: StudyResult) -> list[TableView]:
    """Ranking and pairwise differences."""
    from reports.figures import compare_unit

    rate = is_rate(str(result.manifest.get("metric", "")))
    unit = compare_unit(result.manifest)
    return [TableView("Ranking", _rank_view(result.table("ranking"), {}, rate, unit),
                      "ranking"),
            TableView("Pairwise differences", _pair_view(result.table("pairs"), rate, unit),
                      "pairs")]


def compare_finding(result: StudyResult) -> Finding:
    """The best strategy at each player count, whether it is clearly ahead of every other,
    and the fair share; one claim per player count (the field is the compared strategies)."""
    rank = result.table("ranking")
    pairs = result.table("pairs")
    m = result.manifest
    metric = str(m.get("metric", ""))
    better = facts.better(m)  # the game's direction for the metric, never the file's
    rate = is_rate(metric)
    unit = compare_unit(m)
    game = str(m.get("game"))
    title = game_title(game)
    units = "matches" if unit == "match" else unit + "s"
    command = study_command(result) or ""
    field_ = ",".join(str(x) for x in m.get("strategies", []))
    claims, verdicts = [], []
    for n in sorted(rank["players"].unique()):
        # the best by the metric itself, in the game's direction (the cell's statement)
        part = rank[rank["players"] == n].sort_values("mean", kind="stable",
                                                      ascending=better == "lower")
        best = part.iloc[0]
        p = pairs[pairs["players"] == n]
        reader = probe(game, "compare", "best", "ranking", better=better)
        cell = make_cell(reader, result, int(n), str(best["strategy"]), "mean", field_=field_)
        dealt = probe(game, "compare", "value", "ranking", extra={"exact": True})
        deals = make_cell(dealt, result, int(n), cell.choice, "deals", field_=field_)
        parts = [(reader, cell), (dealt, deals)]
        unclear = []
        for other in part["strategy"].iloc[1:].astype(str):
            row = p[((p["a"] == cell.choice) & (p["b"] == other))
                    | ((p["a"] == other) & (p["b"] == cell.choice))]
            if len(row) != 1:
                continue
            a, b = str(row["a"].iloc[0]), str(row["b"].iloc[0])
            kind = difference_kind(float(row["low"].iloc[0]), float(row["high"].iloc[0]))
            pair = probe(game, "compare", kind, "pairs", against=b)
            parts.append((pair, make_cell(pair, result, int(n), a, "difference",
                                          field_=field_)))
            # clearly ahead: the paired difference clearly in the best's favour
            ahead = "negative" if (a == cell.choice) == (better == "lower") else "positive"
            if kind != ahead:
                unclear.append(other)
        value = interval(cell.value, (cell.high - cell.low) / 2, percent=rate)
        fair = f" against a fair share of {100 / int(n):.0f}%" if metric == "won" else ""
        what = (f"wins {value} of its {units}{fair}" if metric == "won" else
                f"has a {metric_words(metric)} of {value} per {unit}")
        table = m.get("table")
        where = ("with every strategy in every seat" if not table else
                 f"each in one seat at a table of {table}, in every seat")
        # the rotations: a fresh order per group of deals, so nobody keeps its neighbours
        seated = "" if table else f" (the seating drawn afresh every few {units})"
        among = (f"among {', '.join(part['strategy'])}, " if len(part) > 1 else "")
        sentence = (f"At {int(n)} players of {title}, {among}"
                    f"{cell.choice} {what}, {where} of the same "
                    f"{count(deals.value)} {units}{seated}"
                    + (f"; not clearly ahead of {', '.join(unclear)}." if unclear else
                       "." if len(part) == 1 else ", clearly ahead of every other strategy."))
        claims.append(several(f"compare-{int(n)}", sentence, parts, game=game,
                              study="compare", question=f"Which strategy wins? ({title})",
                              command=command))
        verdicts.append(
            (f"No clear winner between {best['strategy']} and {', '.join(unclear)}"
             if unclear else f"{best['strategy']} {what} at a table of {table}"
             if len(part) == 1 else f"{best['strategy']} wins")
            + (f" at {int(n)} players" if rank["players"].nunique() > 1 else ""))
    return Finding("compare", f"Which strategy wins? ({title})", "; ".join(verdicts) + ".",
                   " ".join(c.sentence for c in claims), tuple(claims))


figures = compare_figures
views = compare_views
finding = compare_finding

"""The ladder study's report parts: ratings with rank intervals; every pair as a table.

The pairwise differences were once a heatmap with two numbers in each of up to 13 x 13 cells:
about 5 pixels tall as the page shows it. They read better as the sortable table "Every pair"
(ladder_views), one row a pair."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyzer.games.registry import title as game_title
from analyzer.studies.results import StudyResult
from analyzer.text import is_rate, metric_words
from reports import facts
from reports.figures import BLUE, FigureInfo, _grid, _save
from reports.findings import ladder_finding, margin_text
from reports.tables import TableView, interval_cell


def ladder_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Per game: ratings with 95% intervals per player count (the pairs: a table)."""
    ratings, pairs = result.table("ratings"), result.table("pairs")
    if "game" not in ratings:
        return _game_figures(result.manifest, ratings, pairs, folder, "ladder")
    out = []
    for game in ratings["game"].unique():
        info = {**result.manifest, **result.manifest.get("by_game", {}).get(game, {}),
                "game": game}
        out += _game_figures(info, ratings[ratings["game"] == game],
                             pairs[pairs["game"] == game], folder, f"ladder_{game}")
    return out


def _game_figures(manifest: dict, ratings: pd.DataFrame, pairs: pd.DataFrame, folder: Path,
                  stem: str) -> list[FigureInfo]:
    metric = metric_words(str(manifest.get("metric", "value")))
    better = facts.better(manifest)  # the game's direction, not the file's
    game = game_title(str(manifest.get("game")))
    margin = margin_text(manifest, str(manifest.get("game")))
    counts = sorted(ratings["players"].unique())
    out = []
    fig, axes = _grid(len(counts), width=5.0, height=0.8 + 0.42 * ratings["strategy"].nunique())
    for ax, n in zip(axes, counts, strict=True):
        part = ratings[ratings["players"] == n].sort_values("rank", ascending=False)
        ax.errorbar(part["rating"], range(len(part)), xerr=part["half"], fmt="o", color=BLUE,
                    ecolor="black", capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(range(len(part)),
                      [f"{m}  (group {t})" for m, t in zip(part["members"], part["tier"],
                                                          strict=True)], fontsize=7)
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel(f"{metric} vs table average\n({better} is better)", fontsize=8)
    fig.suptitle(f"{game}: the ladder on mixed tables\n(95% CI over the seatings)", fontsize=10)
    out.append(FigureInfo(_save(fig, folder, f"{stem}_ratings.png"), f"The ladder ({game})",
                          "Each strategy's rating (its result minus the average of the same "
                          "deals' tables) with its 95% interval over the seatings; best at the "
                          "top; groups are cut only where every strategy above is clearly "
                          + (f"more than {margin} ahead of" if margin else "separated from")
                          + " every one below. Every pair's difference, with the intervals "
                          "that hold for all pairs at once: the table \"Every pair\" below.",
                          wide=len(counts) > 1))

    return out


def ladder_views(result: StudyResult) -> list[TableView]:
    """The ladder (ratings, the ranks the corrected tests allow, groups) and the pairwise
    table."""
    r = result.table("ratings")
    game = {"game": r["game"]} if "game" in r else {}
    by_game = result.manifest.get("by_game") or {}

    def rate(g) -> bool:  # a yes/no metric (Jass: won): ratings in percentage points
        return is_rate(str((by_game.get(g) or result.manifest).get("metric", "")))

    rates = [rate(g) for g in (r["game"] if "game" in r else [None] * len(r))]
    ladder = pd.DataFrame({
        **game, "players": r["players"], "group": r["tier"],
        "ranks": [str(lo) if lo == hi else f"{lo}-{hi}"
                  for lo, hi in zip(r["rank_low"], r["rank_high"], strict=True)],
        "strategy": r["members"],
        "rating ± 95%": [interval_cell(v, lo, hi, pct, signed=True) for v, lo, hi, pct in
                         zip(r["rating"], r["low"], r["high"], rates, strict=True)],
        "mean": r["mean"].round(4), "deals": r["deals"],
    })
    if "entrant" in r:  # strategies tagged slow play a share of the deals
        ladder["plays"] = r["entrant"].map({True: "entrant (share of the deals)",
                                            False: "every deal"})
    if "pl" in r:  # Plackett-Luce on the finishing orders, beside the score model
        ladder["Plackett-Luce strength [95%]"] = [
            f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            for v, lo, hi in zip(r["pl"], r["pl_low"], r["pl_high"], strict=True)]
        ladder["PL rank 95%"] = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in
                                 zip(r["pl_rank_low"], r["pl_rank_high"], strict=True)]
    p = result.table("pairs")
    prates = [rate(g) for g in (p["game"] if "game" in p else [None] * len(p))]
    pairs = pd.DataFrame({
        **({"game": p["game"]} if "game" in p else {}), "players": p["players"],
        "a": p["a"], "b": p["b"],
        "a - b ± 95%": [interval_cell(v, lo, hi, pct, signed=True) for v, lo, hi, pct in
                        zip(p["difference"], p["low"], p["high"], prates, strict=True)],
        "simultaneous ± 95%": [interval_cell(v, lo, hi, pct, signed=True) for v, lo, hi, pct in
                               zip(p["difference"], p["sim_low"], p["sim_high"], prates,
                                   strict=True)],
        "p (Holm)": p["p_holm"].map(lambda x: f"{x:.3g}"),
        "clear": p["clear"].map({True: "yes", False: "no"}),
        "variance reduction": p["variance_reduction"].map(lambda x: f"{x:.1f}x"),
    })
    if "apart" in p and (p["margin"] > 0).any():  # the groups count differences beyond it
        pairs.insert(pairs.columns.get_loc("clear") + 1, "beyond the margin",
                     [("yes" if x else "no") + f" (margin {pct_margin(mg, r)})"
                      for x, mg, r in zip(p["apart"], p["margin"], prates, strict=True)])
    return [TableView("The ladder", ladder, "ratings"),
            TableView("Every pair (Holm over all pairs)", pairs, "pairs")]





def pct_margin(margin: float, rate: bool) -> str:
    """A ladder margin as the tables print differences: points for a rate."""
    return f"{margin * 100:g} points" if rate else f"{margin:g}"


figures = ladder_figures
views = ladder_views
finding = ladder_finding

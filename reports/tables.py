"""Study tables as people read them: chosen columns, ``mean ± half`` cells, rounded numbers.

The full tidy tables travel with the report as CSV files; the HTML shows these readable views.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyzer.studies.results import StudyResult
from analyzer.studies.text import decimals_for


@dataclass(frozen=True)
class TableView:
    """A readable table, its title, and the study table (CSV) it comes from."""

    title: str
    frame: pd.DataFrame
    source: str


def interval_cell(value: float, low: float, high: float) -> str:
    """``value ± half`` rounded to the half-width's two significant digits."""
    half = (high - low) / 2
    d = decimals_for(half)
    if pd.isna(half):
        return f"{value:.{d}f}"
    return f"{value:.{d}f} ± {half:.{d}f}"


def _cells(df: pd.DataFrame, col: str, scale: float = 1.0) -> list[str]:
    return [interval_cell(v * scale, lo * scale, hi * scale)
            for v, lo, hi in zip(df[col], df[col + "_low"], df[col + "_high"], strict=True)]


def seats_views(result: StudyResult) -> list[TableView]:
    """Per (players, seat): minus points, ass penalty, dealt-ass chance beside exact."""
    t = result.table("seats")
    view = pd.DataFrame({
        "players": t["players"], "seat": t["seat"], "strategy": t["strategy"],
        "games": t["games"],
        "minus points": _cells(t, "minus_points"),
        "vs average seat": _cells(t, "seat_effect"),
        "ass penalty": _cells(t, "ass_penalty"),
        "P(dealt ass) % simulated": _cells(t, "p_dealt_ass", 100),
        "P(dealt ass) % exact": [f"{100 * x:.2f}" for x in t["p_dealt_ass_exact"]],
        "exact inside CI": ["yes" if x else "no" for x in t["exact_inside"]],
    })
    return [TableView("Every seat at every player count", view, "seats")]


def _rank_view(t: pd.DataFrame, extra: list[str]) -> pd.DataFrame:
    return pd.DataFrame({
        "players": t["players"], "rank": t["rank"], "strategy": t["strategy"],
        **{c: t[c] for c in extra},
        "mean ± 95%": [interval_cell(m, lo, hi)
                       for m, lo, hi in zip(t["mean"], t["low"], t["high"], strict=True)],
        "deals": t["deals"], "games": t["games"],
    })


def _pair_view(t: pd.DataFrame) -> pd.DataFrame:
    view = pd.DataFrame({
        "players": t["players"], "a": t["a"], "b": t["b"],
        "a − b ± 95% (paired)": [interval_cell(d, lo, hi) for d, lo, hi in
                                 zip(t["difference"], t["low"], t["high"], strict=True)],
        "unpaired ±": [f"{h:.{decimals_for(h)}f}" for h in t["unpaired_half"]],
        "variance reduction": [f"{v:.1f}×" for v in t["variance_reduction"]],
        "deals": t["n_units"],
    })
    if "seq_answer" in t:
        view["until sure"] = [f"{a} after {n} ({s})" for a, n, s in
                              zip(t["seq_answer"], t["seq_units"], t["seq_stopped_by"],
                                  strict=True)]
    return view


def jokers_views(result: StudyResult) -> list[TableView]:
    """Policies ranked per player count, and their paired differences."""
    pol = result.table("policies")
    keep = ["" if pd.isna(k) else str(int(k)) for k in pol["keep"]]
    rank = _rank_view(pol, ["label"])
    rank.insert(4, "k", keep)
    return [TableView("Joker policies, ranked per player count (minus points per game)", rank,
                      "policies"),
            TableView("Paired differences (same deals, same seats)",
                      _pair_view(result.table("differences")), "differences")]


def compare_views(result: StudyResult) -> list[TableView]:
    """Ranking and pairwise differences."""
    return [TableView("Ranking", _rank_view(result.table("ranking"), []), "ranking"),
            TableView("Pairwise differences", _pair_view(result.table("pairs")), "pairs")]


def _loss_cells(t: pd.DataFrame, col: str) -> list[str]:
    return ["–" if pd.isna(v) else interval_cell(v, lo, hi)
            for v, lo, hi in zip(t[col], t[col + "_low"], t[col + "_high"], strict=True)]


def trump_views(result: StudyResult) -> list[TableView]:
    """Loss per rule by group; best rule against the others; loss by hand feature."""
    rules = result.table("rules")
    view = pd.DataFrame({
        "players": rules["players"], "rule set": rules["ruleset"], "aim": rules["aim"],
        "rule": rules["rule"], "decisions": rules["decisions"],
        "sticks lost ± 95%": _loss_cells(rules, "sticks_loss"),
        "points lost ± 95%": _loss_cells(rules, "points_loss"),
        "picked the best suit": [f"{100 * x:.1f}%" for x in rules["picked_best"]],
        "best rule": ["★" if b else "" for b in rules["best"]],
    })
    feats = result.table("features")
    fview = pd.DataFrame({
        "players": feats["players"], "rule set": feats["ruleset"],
        "feature": feats["feature"], "value": feats["value"], "rule": feats["rule"],
        "decisions": feats["decisions"],
        "sticks lost ± 95%": _loss_cells(feats, "sticks_loss"),
        "points lost ± 95%": _loss_cells(feats, "points_loss"),
    })
    views = [TableView("Loss against the best suit in hindsight, per rule", view, "rules")]
    pairs = result.table("pairs")
    if len(pairs):
        pview = pd.DataFrame({
            "players": pairs["players"], "rule set": pairs["ruleset"], "aim": pairs["aim"],
            "rule": pairs["a"], "best rule": pairs["b"],
            "extra sticks lost ± 95% (paired)": [
                interval_cell(d, lo, hi) for d, lo, hi in
                zip(pairs["difference"], pairs["low"], pairs["high"], strict=True)],
            "decisions": pairs["n_units"],
        })
        views.append(TableView("Each rule against the best one, on the same decisions", pview,
                               "pairs"))
    views.append(TableView("Loss by hand feature", fview, "features"))
    return views


VIEWS = {"seats": seats_views, "jokers": jokers_views, "compare": compare_views,
         "trump": trump_views}


def study_views(result: StudyResult) -> list[TableView]:
    """The readable tables of ``result`` (the raw tables when no view is defined)."""
    if result.study == "ladder":
        from reports.ladder import ladder_views

        return ladder_views(result)
    make = VIEWS.get(result.study)
    if make:
        return make(result)
    return [TableView(name, df, name) for name, df in result.tables.items()]

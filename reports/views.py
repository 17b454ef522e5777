"""Each study's figures and readable tables, found by the study's name.

The one place that knows which module draws which study: above :mod:`reports.figures`,
:mod:`reports.tables` and :mod:`reports.ladder` (which builds on both), so none of them
imports another back.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.studies.results import StudyResult
from reports.figures import (
    FigureInfo,
    compare_figures,
    jokers_figures,
    seats_figures,
    trump_figures,
)
from reports.ladder import best_response_figures, fields_figures, ladder_figures, ladder_views
from reports.tables import (
    TableView,
    compare_views,
    jokers_views,
    rounded_view,
    seats_views,
    trump_views,
)

FIGURES = {"seats": seats_figures, "jokers": jokers_figures, "compare": compare_figures,
           "trump": trump_figures, "ladder": ladder_figures, "fields": fields_figures,
           "best-response": best_response_figures}


def study_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Write every figure of ``result`` into ``folder``."""
    make = FIGURES.get(result.study)
    return make(result, folder) if make else []


def joker_views(result: StudyResult) -> list[TableView]:
    """The cost curve (per player count and field) first, then the study's other tables,
    then where the hoarder's no-joker cost comes from."""
    import pandas as pd

    from analyzer.numbers import count, interval, percent
    from reports.figures import curve_positions

    views = jokers_views(result)
    if "cost_curve" in result.tables and len(result.table("cost_curve")):
        t = result.table("cost_curve")
        at = curve_positions(t)
        t = t.assign(_x=[at.get(str(p), (99.0, ""))[0] for p in t["policy"]])
        t = t.sort_values(["players", "field", "_x"], kind="stable")
        words = {"hoard": "hoard: never while number cards remain",
                 "hoard-normal": "hoard in normal rounds only"}
        views.insert(0, TableView(
            "How long is it worth holding jokers: keeping them until k cards are left, against "
            "using them as needed (minus points per game; above 0 costs)", pd.DataFrame({
                "players": t["players"], "opponents": t["field"],
                "keep jokers": [words[str(p)] if str(p) in words else
                                f"until {int(k)} cards are left"
                                for p, k in zip(t["policy"], t["keep"], strict=True)],
                "cost ± 95%": [interval(v, (hi - lo) / 2, signed=True) for v, lo, hi
                               in zip(t["cost"], t["cost_low"], t["cost_high"], strict=True)],
                "clear": ["yes" if c else "no" for c in t["clear"]],
                "deals": [count(d) for d in t["deals"]], "design": t["design"]}),
            "cost_curve"))
    if "ass_jokers" in result.tables and len(result.table("ass_jokers")):
        a = result.table("ass_jokers")

        def cells(col: str) -> list[str]:
            return [interval(v, (hi - lo) / 2, signed=True) for v, lo, hi
                    in zip(a[col], a[f"{col}_low"], a[f"{col}_high"], strict=True)]

        views.append(TableView(
            "The hoarder with no joker dealt: its cost, the part that is the jokers it ends "
            "holding (all taken in ass rounds, 14 each, less as-needed's) and the rest "
            "(minus points per game)", pd.DataFrame({
                "players": a["players"], "opponents": a["field"], "cost ± 95%": cells("cost"),
                "ass-round jokers held ± 95%": cells("held_cost"), "rest ± 95%": cells("rest"),
                "ends holding a joker": [percent(x) for x in a["ends_holding"]],
                "as needed ends holding one": [percent(x) for x in a["ends_holding_b"]],
                "seat-games": [count(x) for x in a["seat_games"]], "design": a["design"]}),
            "ass_jokers"))
    return views


VIEWS = {"seats": seats_views, "jokers": joker_views, "compare": compare_views,
         "trump": trump_views, "ladder": ladder_views}


def study_views(result: StudyResult) -> list[TableView]:
    """The readable tables of ``result`` (the raw tables when no view is defined)."""
    make = VIEWS.get(result.study)
    if make:
        return make(result)
    return [TableView(name, rounded_view(df), name) for name, df in result.tables.items()]

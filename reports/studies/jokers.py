"""The jokers study's report parts: the cost curve first among its tables, the hoarder's
no-joker cost, its key finding (which says whether it replicated at another seed), the
pairing alert and its sample game."""

from __future__ import annotations

from analyzer.studies.results import StudyResult
from reports.figures import jokers_figures
from reports.findings import Alert, jokers_finding, pair_alerts
from reports.samples import jokers_drawing
from reports.tables import TableView, jokers_views

figures = jokers_figures
finding = jokers_finding
REPLICATES = True  # the key finding says whether its headline replicated
drawing = jokers_drawing


def views(result: StudyResult) -> list[TableView]:
    """The cost curve (per player count and field) first, then the study's other tables,
    then where the hoarder's no-joker cost comes from."""
    import pandas as pd

    from analyzer.numbers import count, interval, percent
    from reports.figures import curve_positions

    out = jokers_views(result)
    if "cost_curve" in result.tables and len(result.table("cost_curve")):
        t = result.table("cost_curve")
        at = curve_positions(t)
        t = t.assign(_x=[at.get(str(p), (99.0, ""))[0] for p in t["policy"]])
        t = t.sort_values(["players", "field", "_x"], kind="stable")
        words = {"hoard": "hoard: never while number cards remain",
                 "hoard-normal": "hoard in normal rounds only"}
        out.insert(0, TableView(
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

        out.append(TableView(
            "The hoarder with no joker dealt: its cost, the part that is the jokers it ends "
            "holding (all taken in ass rounds, 14 each, less as-needed's) and the rest "
            "(minus points per game)", pd.DataFrame({
                "players": a["players"], "opponents": a["field"], "cost ± 95%": cells("cost"),
                "ass-round jokers held ± 95%": cells("held_cost"), "rest ± 95%": cells("rest"),
                "ends holding a joker": [percent(x) for x in a["ends_holding"]],
                "as needed ends holding one": [percent(x) for x in a["ends_holding_b"]],
                "seat-games": [count(x) for x in a["seat_games"]], "design": a["design"]}),
            "ass_jokers"))
    return out


def alerts(result: StudyResult) -> list[Alert]:
    """Differences that pairing did not narrow."""
    return pair_alerts("jokers", result.table("differences"))

"""The trump study's report parts: the rules and choosers against the best suit in hindsight,
and its sample deal."""

from __future__ import annotations

from analyzer.studies.results import StudyResult
from reports.figures import trump_figures
from reports.findings import Alert, trump_finding
from reports.samples import trump_drawing
from reports.tables import trump_views

figures = trump_figures
views = trump_views
finding = trump_finding
drawing = trump_drawing


def alerts(result: StudyResult) -> list[Alert]:
    """Rows of the trump table that rest on few trump choices."""
    rules = result.table("rules")
    few = rules[rules["decisions"] < 100]
    if len(few):
        return [Alert("trump", (
            f"{len(few)} rows of the trump table rest on fewer than 100 trump choices; "
            "their intervals are wide."))]
    return []

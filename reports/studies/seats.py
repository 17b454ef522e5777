"""The seats study's report parts: seat effects, the dealt-ass check and its alert."""

from __future__ import annotations

import math

from analyzer.studies.results import StudyResult
from reports.figures import seats_figures
from reports.findings import Alert, seats_finding
from reports.tables import seats_views

figures = seats_figures
views = seats_views
finding = seats_finding


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

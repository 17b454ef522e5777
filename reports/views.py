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


VIEWS = {"seats": seats_views, "jokers": jokers_views, "compare": compare_views,
         "trump": trump_views, "ladder": ladder_views}


def study_views(result: StudyResult) -> list[TableView]:
    """The readable tables of ``result`` (the raw tables when no view is defined)."""
    make = VIEWS.get(result.study)
    if make:
        return make(result)
    return [TableView(name, rounded_view(df), name) for name, df in result.tables.items()]

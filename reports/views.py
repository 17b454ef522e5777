"""Each study's figures and readable tables, found by the study's name in its report module
(reports/studies/<study>.py, named by the study's declaration)."""

from __future__ import annotations

from pathlib import Path

from analyzer.studies.results import StudyResult
from reports.figures import FigureInfo
from reports.studies import part
from reports.tables import TableView, rounded_view


def study_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Write every figure of ``result`` into ``folder``."""
    make = part(result.study, "figures")
    return make(result, folder) if make else []


def study_views(result: StudyResult) -> list[TableView]:
    """The readable tables of ``result`` (the raw tables when no view is defined)."""
    make = part(result.study, "views")
    if make:
        return make(result)
    return [TableView(name, rounded_view(df), name) for name, df in result.tables.items()]

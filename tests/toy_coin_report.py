"""The toy coin study's report module (docs/adding-a-study.md step 3): a figure, a view and
a key finding."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from analyzer.studies.results import StudyResult
from reports.figures import FigureInfo, _save
from reports.findings import Finding
from reports.tables import TableView


def figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    t = result.table("coin")
    fig = Figure(figsize=(3, 2))
    fig.add_subplot().bar(t["side"], t["share"])
    return [FigureInfo(_save(fig, folder, "coin.png"), "The coin", "The share of the side.")]


def views(result: StudyResult) -> list[TableView]:
    t = result.table("coin")
    return [TableView("How often the coin shows the side", t.assign(
        share=[f"{x:.0%}" for x in t["share"]]), "coin")]


def finding(result: StudyResult) -> Finding:
    share = float(result.table("coin")["share"].iloc[0])
    return Finding("coin", "Does the coin land heads?", "About half the time.",
                   f"The coin showed {result.manifest['side']} in {share:.0%} of the flips.")

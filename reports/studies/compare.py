"""The compare study's report parts: ranking and pairs, and the alerts of a sequential run."""

from __future__ import annotations

from analyzer.numbers import count
from analyzer.studies.results import StudyResult
from reports.figures import compare_figures
from reports.findings import Alert, compare_finding, pair_alerts
from reports.tables import compare_views

figures = compare_figures
views = compare_views
finding = compare_finding


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

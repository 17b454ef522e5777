"""``cardlab report``: study results folder in, self-contained HTML report folder out.

Layout of the report folder::

    index.html                 the page (embedded CSS, relative links only)
    figures/<study>_*.png      every figure, also usable on its own
    data/<study>/*.csv         the full tidy tables, and manifest.json
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

from analyzer import __version__
from analyzer.outputs import replace_folder
from analyzer.studies.results import StudyResult, find_studies
from reports.figures import study_figures
from reports.html import SectionContent, page_html
from reports.tables import study_views

FIGURES = "figures"
DATA = "data"


def build_report(results: str | Path, out: str | Path) -> Path:
    """Read every study under ``results`` and write the report into ``out``; return index.html.

    ``out`` must be missing, empty or an earlier cardlab report (its marker file says so);
    anything else is refused. The report is built beside ``out`` and swapped in when complete,
    so the folder never mixes runs and a failure leaves the earlier report as it was.
    """
    studies = find_studies(results)
    return write_report(studies, out)


def write_report(studies: list[StudyResult], out: str | Path) -> Path:
    """Write the report for already loaded studies (built beside ``out``, then swapped in)."""
    replace_folder(out, "report", lambda tmp: _write_into(studies, tmp))
    return Path(out) / "index.html"


def _write_into(studies: list[StudyResult], out: Path) -> None:
    (out / FIGURES).mkdir(parents=True, exist_ok=True)
    sections = []
    for result in studies:
        data_dir = out / DATA / result.study
        data_dir.mkdir(parents=True, exist_ok=True)
        for name, df in result.tables.items():
            df.to_csv(data_dir / f"{name}.csv", index=False)
        (data_dir / "manifest.json").write_text(
            json.dumps(result.manifest, indent=2, default=str) + "\n")
        figures = study_figures(result, out / FIGURES)
        sections.append(SectionContent(
            study=result.study, headlines=result.headlines, figures=figures,
            figure_dir=FIGURES, tables=study_views(result), data_dir=f"{DATA}/{result.study}",
            manifest=result.manifest,
        ))
    created = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    (out / "index.html").write_text(page_html(sections, __version__, created), encoding="utf-8")

"""``cardlab report``: study results folder in, self-contained HTML report folder out.

Layout of the report folder::

    index.html                 the page: figures embedded, CSS and script inline
    figures/<study>_*.png      every figure, also usable on its own (slides, chat)
    data/<study>/*.csv         the full tidy tables, and manifest.json
    data/findings.json         every claim of the key findings and of each study's sentences,
                               cell by cell (analyzer/studies/claims.py), each re-checked
    games/<study>-<index>.html each sample game in the game viewer (reports/viewer.py), one
                               self-contained page that the sample's section links to
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from analyzer import __version__
from analyzer.outputs import replace_folder
from analyzer.studies.results import StudyResult, find_studies
from reports.claims import findings_document
from reports.findings import key_finding, study_alerts, vetted, vetted_study
from reports.glossary import glossary
from reports.html import SectionContent, page_html
from reports.reproduce import report_command, study_command
from reports.samples import SampleGame, draw_sample
from reports.viewer import viewer_html
from reports.views import study_figures, study_views

FindSample = Callable[[StudyResult], Any]  # a study -> its sample game, or None
FIGURES = "figures"
DATA = "data"


def build_report(results: str | Path, out: str | Path,
                 find_sample: FindSample | None = None,
                 replica: str | Path | None = None) -> Path:
    """Read every study under ``results`` and write the report into ``out``; return index.html.

    ``find_sample`` picks a study's sample game (the command line passes
    ``analyzer.studies.samples.find_sample``; the report itself never runs the engines).
    ``out`` must be missing, empty or an earlier cardlab report (its marker file says so);
    anything else is refused. The report is built beside ``out`` and swapped in when complete,
    so the folder never mixes runs and a failure leaves the earlier report as it was.
    """
    studies = find_studies(results)
    again = find_studies(replica) if replica is not None else None
    return write_report(studies, out, find_sample, again)


def write_report(studies: list[StudyResult], out: str | Path,
                 find_sample: FindSample | None = None,
                 replica: list[StudyResult] | None = None) -> Path:
    """Write the report for already loaded studies (built beside ``out``, then swapped in);
    with ``replica`` (the same suite at another seed) every claim says whether it
    replicated (reports/replication.py)."""
    replace_folder(out, "report", lambda tmp: _write_into(studies, tmp, find_sample, replica))
    return Path(out) / "index.html"


def _images(folder: Path, figures) -> dict[str, bytes]:
    """The PNG bytes of each figure, and of its phone variant (figures.NARROW) where one was
    written, by file name (the variant's under ``narrow/``)."""
    from reports.figures import NARROW

    images = {f.file: (folder / f.file).read_bytes() for f in figures}
    for f in figures:
        if (folder / NARROW / f.file).is_file():
            images[f"{NARROW}/{f.file}"] = (folder / NARROW / f.file).read_bytes()
    return images


def _write_into(studies: list[StudyResult], out: Path,
                find_sample: FindSample | None,
                replica: list[StudyResult] | None = None) -> None:
    (out / FIGURES).mkdir(parents=True, exist_ok=True)
    sections = []
    claims = []
    vetting = []  # alerts for claims the tables do not bear out
    for result in studies:
        data_dir = out / DATA / result.study
        data_dir.mkdir(parents=True, exist_ok=True)
        for name, df in result.tables.items():
            df.to_csv(data_dir / f"{name}.csv", index=False)
        (data_dir / "manifest.json").write_text(
            json.dumps(result.manifest, indent=2, default=str) + "\n")
        figures = study_figures(result, out / FIGURES)
        command = study_command(result)
        finding = key_finding(result, replica)
        if finding is not None:
            finding, withdrawn = vetted(finding, result)
            vetting += withdrawn
            claims += finding.claims
        said, headlines, withdrawn = vetted_study(result)
        vetting += withdrawn
        claims += said
        sections.append(SectionContent(
            study=result.study, headlines=headlines, figures=figures,
            figure_dir=FIGURES, tables=study_views(result), data_dir=f"{DATA}/{result.study}",
            manifest=result.manifest,
            images=_images(out / FIGURES, figures),
            finding=finding,
            sample=_sample(find_sample(result), out) if find_sample else None,
            reproduce=[command, report_command()] if command else [],
        ))
    (out / DATA).mkdir(parents=True, exist_ok=True)
    document = findings_document(claims)
    if replica is not None:
        from reports.findings import Alert
        from reports.replication import compare, replica_seed

        replicated = compare(claims, suite_claims(replica), replica_seed(replica))
        for saved, status in zip(document["claims"], replicated.statuses, strict=True):
            saved["replicated"] = status
        document["replication"] = {"seed": replicated.seed, "counts": replicated.counts()}
        vetting.append(Alert("findings", replicated.summary()))  # links to the answers
    (out / DATA / "findings.json").write_text(
        json.dumps(document, indent=1, default=str) + "\n")
    alerts = vetting + [a for result in studies for a in study_alerts(result)]
    created = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    (out / "index.html").write_text(
        page_html(sections, __version__, created, alerts, glossary(studies)), encoding="utf-8")


def _sample(sample: Any, out: Path) -> SampleGame | None:
    """A study's sample drawn for the page, its viewer page written beside the report."""
    drawn = draw_sample(sample)
    if drawn is not None and drawn.record is not None and drawn.page:
        page = out / drawn.page
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(viewer_html(drawn.record), encoding="utf-8")
    return drawn


def suite_claims(studies: list) -> list:
    """Every claim a report of ``studies`` writes to data/findings.json, in its order: each
    study's key finding, then its own sentences, those that hold (here, not in
    reports/replication.py, which reports/findings.py reads: no import cycle)."""
    claims: list = []
    for result in studies:
        finding = key_finding(result)
        if finding is not None:
            claims += vetted(finding, result)[0].claims
        claims += vetted_study(result)[0]
    return claims


def compare_suites(first: list, replica: list):
    """The claims of the suite ``first`` compared with those of ``replica``."""
    from reports.replication import compare, replica_seed

    return compare(suite_claims(first), suite_claims(replica), replica_seed(replica))

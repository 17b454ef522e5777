"""The command that reproduces a study section, read from its manifest.

Same seed, same budget, same strategies: the command rebuilds the very same tables (games
are fixed by (seed, index), whatever the workers), then ``cardlab report`` draws them again.
Each option is written from the study's declared parameters
(:meth:`analyzer.studies.registry.StudyDescription.reproduce`); the manifest's direction of
its metric is read from the game (:func:`reports.facts.better`), as everywhere in the report.
"""

from __future__ import annotations

import shlex

from analyzer.studies import registry
from analyzer.studies.results import StudyResult
from reports import facts

OUT = "runs/studies"


def study_command(result: StudyResult, out: str = OUT) -> str | None:
    """``cardlab study ...`` that reproduces ``result``, or None for an unknown study (or one
    that declares no parameters)."""
    if result.study not in registry.names():
        return None
    m = result.manifest
    args = registry.get(result.study).reproduce({**m, "better": facts.better(m)})
    if args is None:
        return None
    # presets of strategies files the study named: the files it read them from (recorded
    # when it was saved, analyzer.studies.results.strategy_record)
    files = [x for f in m.get("strategies_files") or [] for x in ("--strategies", str(f))]
    return shlex.join(["cardlab", *files, *args, "--out", out])


def report_command(out: str = OUT, report: str = "report") -> str:
    """The command that draws the report again from the study results."""
    return shlex.join(["cardlab", "report", "--from", out, "--out", report])

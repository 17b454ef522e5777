"""The report's first screen: one plain verdict per question, and the alerts.

Every verdict is read off the study's own tables (nothing is recomputed from games): a short
answer ("No.", "Hardly.", "aim-low wins.") followed by the number behind it with its 95%
interval. Alerts list what a careful reader should know before trusting a number: where
pairing did not narrow the interval, where a sequential comparison ran out of budget, where a
correctness check missed more often than chance allows, and every claim (of a key finding or
of a study's own sentences) that its table does not bear out.

Each study's key finding and alerts are in its report module (reports/studies/<study>.py);
here is what they share, the vetting of every claim and the alerts of any study.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import pandas as pd

from analyzer.numbers import number
from analyzer.studies import registry as studies
from analyzer.studies.results import StudyResult
from reports.claims import (
    Claim,
    check,
    withdrawn,
)
from reports.reproduce import study_command
from reports.studies import part as report_part


@dataclass(frozen=True)
class Finding:
    """A question's plain answer (``verdict``), the number behind it (``detail``) and the
    claims it rests on (analyzer/studies/claims.py), each checked cell by cell before it is
    shown."""

    study: str
    question: str
    verdict: str
    detail: str
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True)
class Alert:
    """Something to know before trusting a number, and where it comes from."""

    study: str
    text: str


def _hi(row: pd.Series, col: str) -> float:
    return (row[col + "_high"] - row[col + "_low"]) / 2


# ---------------------------------------------------------------------------- findings
CLEARLY = {"positive": "clearly more than", "negative": "clearly less than",
           "unclear": "not clearly different from"}


def _field(result: StudyResult) -> str:
    m = result.manifest
    names = m.get("field") or m.get("strategies") or []
    return ",".join(str(x) for x in names) if isinstance(names, list) else str(names)


def question(study: str) -> str:
    """The question ``study`` answers for players (the study registry)."""
    return studies.get(study).question


def key_finding(result: StudyResult, replica: Iterable[StudyResult] | None = None
                ) -> Finding | None:
    """The study's one-line answer, or None for a study without one. ``replica``: the
    studies of the same suite at another seed (cardlab study replicate); a finding whose
    report module says ``REPLICATES`` then says whether its headline replicated in the same
    study there."""
    make = report_part(result.study, "finding")
    if not make:
        return None
    twin = next((r for r in replica or () if r.study == result.study), None)
    if twin is not None and report_part(result.study, "REPLICATES"):
        return make(result, twin)
    return make(result)


def vetted(finding: Finding, result: StudyResult) -> tuple[Finding, list[Alert]]:
    """``finding`` with every claim re-checked against the study's table
    (analyzer/studies/claims.py): a claim that fails in any cell is not printed; it becomes
    an alert naming the cells."""
    alerts, kept = [], []
    detail, verdict = finding.detail, finding.verdict
    for claim in finding.claims:
        problems = check(claim, result)
        if problems:
            detail = detail.replace(claim.sentence, "").strip()
            alerts.append(Alert(finding.study, withdrawn(claim, problems)))
            if claim.sentence == verdict:  # the verdict itself does not hold
                verdict = "See below."
        else:
            kept.append(claim)
    if not alerts:
        return finding, []
    if not kept:
        return Finding(finding.study, finding.question, "See below.",
                       detail or "No statement holds in every cell; see the study.", ()), alerts
    return Finding(finding.study, finding.question, verdict, detail, tuple(kept)), alerts


def vetted_study(result: StudyResult) -> tuple[list[Claim], list[str], list[Alert]]:
    """The study's own claims re-checked against its tables (analyzer/studies/claims.py):
    those that hold (with the study's command), the sentences to show (the study's
    headlines without those of claims that fail), and an alert naming the cells of each
    claim that fails. A study saved before its sentences were claims keeps its headlines."""
    command = study_command(result) or ""
    kept, alerts, dropped = [], [], set()
    for claim in result.claims:
        claim = replace(claim, command=claim.command or command)
        problems = check(claim, result)
        if problems:
            dropped.add(claim.sentence)
            alerts.append(Alert(result.study, withdrawn(claim, problems)))
        else:
            kept.append(claim)
    headlines = [h for h in result.headlines if h not in dropped]
    if result.claims:  # every sentence shown is the sentence of a claim that holds
        said = {c.sentence for c in kept}
        headlines = [h for h in headlines if h in said]
    return kept, headlines, alerts


# ------------------------------------------------------------------------------ alerts
def pair_alerts(study: str, pairs: pd.DataFrame, count_option: str = "--games") -> list[Alert]:
    out = []
    if "variance_reduction" not in pairs:
        return out
    weak = pairs[pairs["variance_reduction"] < 1]
    if len(weak):
        names = ", ".join(f"{r.a} vs {r.b}" + (f" at {int(r.players)} players"
                                                if "players" in pairs else "")
                          for r in weak.head(4).itertuples())
        more = f" and {len(weak) - 4} more" if len(weak) > 4 else ""
        out.append(Alert(study, (
            f"Pairing did not narrow the interval for {len(weak)} of {len(pairs)} comparisons "
            f"({names}{more}; variance reduction {number(weak['variance_reduction'].min(), 2)}× "
            f"to {number(weak['variance_reduction'].max(), 2)}×, below 1): there the same "
            "deals did not cancel luck, and the paired intervals are as wide as, or wider "
            "than, unpaired ones.")))
    if "seq_stopped_by" in pairs:
        spent = pairs[pairs["seq_stopped_by"] == "budget"]
        if len(spent):
            names = ", ".join(f"{r.a} vs {r.b}" for r in spent.head(4).itertuples())
            out.append(Alert(study, (
                f"--until-sure spent its whole budget on {len(spent)} comparison"
                f"{'s' if len(spent) > 1 else ''} without a clear answer ({names}): raise "
                f"{count_option} to decide them.")))
    return out


def study_alerts(result: StudyResult) -> list[Alert]:
    """What to know before trusting this study's numbers."""
    out: list[Alert] = []
    from analyzer.studies.results import DIGEST

    # a manifest read from a study folder (it lists its table files) without a checksum
    if result.manifest.get("tables") and DIGEST not in result.manifest:
        out.append(Alert(result.study, (
            "This study's manifest carries no checksum (written by an older cardlab, or the "
            "checksum was removed): an edit of its fields cannot be detected. Run the study "
            "again to be sure of its settings.")))
    own = report_part(result.study, "alerts")  # the study's own (reports/studies/<study>.py)
    if own is not None:
        out += own(result)
    return out

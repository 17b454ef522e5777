"""Claims as the report uses them: the data model and its checks live with the studies.

The report's key findings and every study's own sentences are claims of one kind
(:mod:`analyzer.studies.claims`: a sentence, the cells it covers, a statement checked cell by
cell against the study's table). This module re-exports that model for the report's modules;
what is report-specific (the findings, the alerts) is in reports/findings.py and
reports/build.py, which writes every claim to ``data/findings.json``.
"""

from __future__ import annotations

from analyzer.stats.hygiene import selected_interval
from analyzer.studies.claims import (
    FORMAT,
    KINDS,
    Cell,
    Claim,
    check,
    difference_kind,
    findings_document,
    group_cells,
    make_cell,
    probe,
    read_cell,
    scope_words,
    settle,
    several,
    where,
    withdrawn,
)

__all__ = ["FORMAT", "KINDS", "Cell", "Claim", "check", "difference_kind",
           "findings_document", "group_cells", "make_cell", "probe", "read_cell",
           "scope_words", "selected_interval", "settle", "several", "where", "withdrawn"]

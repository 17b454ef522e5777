"""Each study's report parts, one module per study, named by the study's declaration
(``StudyDescription.report`` in analyzer/studies/registry.py). A report module defines the
parts it has (every one optional; docs/adding-a-study.md):

``figures(result, folder) -> list[FigureInfo]``  its figures, written into ``folder``
``views(result) -> list[TableView]``  its readable tables (default: the tables, rounded)
``finding(result) -> Finding``  its key finding, on the report's first screen; with
    ``REPLICATES = True`` called as ``finding(result, replica)`` when the suite was run again
    at another seed (the same study there, or None)
``alerts(result) -> list[Alert]``  what to know before trusting its numbers
``drawing(sample) -> SampleGame``  its sample game drawn (the study's declared ``sample``
    finds it)

The report (reports/views.py, findings.py, samples.py) finds them here by the study's name;
no other module keeps a list of studies.
"""

from __future__ import annotations

import importlib
from typing import Any


def part(study: str, name: str) -> Any:
    """The report part ``name`` of ``study``, or None (an unknown study, one without a
    report module, or a module without that part)."""
    from analyzer.studies import registry

    if study not in registry.names() or not registry.get(study).report:
        return None
    return getattr(importlib.import_module(registry.get(study).report), name, None)

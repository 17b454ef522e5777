"""A run folder as the replaying commands read it: verified first, then its plan.

Shared by ``replay --from`` and ``analyze --from`` (both below the commands that use them).
"""

from __future__ import annotations

from pathlib import Path

from analyzer.errors import CardlabError


def run_spec(run: Path):
    """The RunSpec, first index, count and plan of a run folder, after the folder has passed
    the very verification ``summarize`` makes (RunFolder.verify): a damaged or edited folder
    is refused with the reason, never replayed."""
    from analyzer.runner.folder import RunFolder, damaged_error
    from analyzer.runner.manifest import spec_of

    folder = RunFolder(run)
    plan = folder.read_plan()
    check = folder.verify(plan)
    if check.damage and not folder.is_locked():
        raise damaged_error(folder, check, "nothing is replayed")
    try:
        return spec_of(plan), int(plan["start"]), int(plan["count"]), plan
    except (ValueError, KeyError, TypeError) as exc:
        raise CardlabError(f"cannot read the plan of {run}: {exc}") from None

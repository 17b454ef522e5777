"""A study's parameters are declared once (analyzer/studies/params.py): the command-line
options, the manifest and the reproduce command follow from the declaration. These tests pin
what the declaration must keep: every study command's options (names, flags, defaults, help,
hidden or not, the strict number parsers) and the reproduce command of the same manifests,
as they were before the declaration (tests/data/*.json, captured from the earlier code)."""

import inspect
import json
from pathlib import Path

import pytest

from analyzer.studies.results import StudyResult
from reports.reproduce import study_command

DATA = Path(__file__).resolve().parent / "data"


def _options() -> dict:
    """Every ``cardlab study`` command's parameters as click sees them, in order."""
    from typer.main import get_command
    from typer.models import ParameterInfo

    import analyzer.cli  # every command registered, strict numbers installed
    from analyzer.cli.study_commands import study_app

    study = get_command(analyzer.cli.app).commands["study"]
    out = {}
    for name, command in study.commands.items():
        params = [{"name": p.name, "opts": list(p.opts), "secondary": list(p.secondary_opts),
                   "default": repr(p.default), "help": p.help, "hidden": p.hidden,
                   "metavar": p.metavar, "display": p.display_type(None),
                   "multiple": p.multiple, "flag": p.is_flag, "required": p.required,
                   "callback": p.callback is not None} for p in command.params]
        out[name] = {"help": command.help, "params": params}
    for info in study_app.registered_commands:  # which options read numbers strictly
        name = info.name or info.callback.__name__.replace("_", "-")
        out[name]["strict"] = sorted(
            n for n, p in inspect.signature(info.callback).parameters.items()
            if isinstance(p.default, ParameterInfo) and p.default.parser is not None)
    return out


def test_every_study_command_keeps_its_options_defaults_and_help():
    expected = json.loads((DATA / "study_options.json").read_text())
    got = _options()
    assert sorted(got) == sorted(expected)
    for name in expected:
        assert got[name]["help"] == expected[name]["help"], name
        assert got[name]["strict"] == expected[name]["strict"], name
        assert [p["name"] for p in got[name]["params"]] == \
            [p["name"] for p in expected[name]["params"]], name
        for mine, theirs in zip(got[name]["params"], expected[name]["params"], strict=True):
            assert mine == theirs, (name, mine["name"])


CASES = json.loads((DATA / "reproduce_commands.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['study']}-{i}" for i, c in enumerate(CASES)])
def test_the_reproduce_command_of_a_manifest_is_unchanged(case):
    result = StudyResult(case["study"], {}, {"study": case["study"], **case["manifest"]})
    assert study_command(result) == case["command"]
    assert study_command(result, out="elsewhere/x") == case["command_out"]

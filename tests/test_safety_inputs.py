"""Issue 20, items 7, 11 and 12: a user's strategies file is only ever appended to, and every
remaining hostile input (closed stdout, odd paths, ASCII terminals, edited state files and
manifests, narrow terminals) gives one line, never a traceback or a silent loss."""

import errno
import json
import os
import subprocess
import sys

import pandas as pd
import pytest
from cli_check import one_error as _one_error

from analyzer.errors import CardlabError
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.results import save_study
from analyzer.studies.seats import run_seats
from analyzer.tune.synthetic import PlantedBackend, toy_space
from analyzer.tune.tuner import Tuner, TuneSettings
from strategies import files
from strategies.files import ENV, Preset, read_file, write_presets
from strategies.registry import _CATALOGS, StrategyError, parse_strategy

MAIN = "from analyzer.cli import main; main()"
START = "toy:mode=a,inert=off,x=0.5,y=0.5"




@pytest.fixture()
def clean_registry(monkeypatch):
    """Presets register into copies of the catalogues; files are read anew."""
    parse_strategy("ass", "basic")
    parse_strategy("jass", "basic")
    for game in ("ass", "jass"):
        monkeypatch.setitem(_CATALOGS, game, dict(_CATALOGS[game]))
    monkeypatch.setattr(files, "_READ", {})
    monkeypatch.setattr(files, "_REGISTERED", set())
    monkeypatch.delenv(ENV, raising=False)




# ------------------------------------------------------------------------------- item 7

USERS_FILE = (
    "# my presets: hand-written, keep this comment\n"
    "# written by: cardlab tune jass --games 1000   (an earlier tune's provenance)\n"
    "[jass.old]\n"
    "base = \"adaptive\"\n"
    "description = \"line\\rbreak and bell \\u0007, tab\\t\"  # escapes, as TOML allows\n"
    "params = { fight = 0.123456789012345678 }\n"
    "\n"
    "[ass.mine]\n"
    "base = 'heuristic'\n"
    "description = ''\n"
    "params = { keep = 3 }   # no newline at the end"
)


def test_item07_adding_a_preset_keeps_every_byte_of_the_users_file(tmp_path, clean_registry):
    path = tmp_path / "mine.toml"
    path.write_bytes(USERS_FILE.encode())
    write_presets(path, [Preset("jass", "new", "adaptive",
                                {"fight": "0.12345678901234568", "strength": "2"},
                                "tuned \"here\"\nagainst\tbasic")],
                  comment="written by: cardlab tune jass --name new\n- a \x07 line")
    text = path.read_bytes()
    assert text.startswith(USERS_FILE.encode())  # not one byte of it changed
    added = text[len(USERS_FILE):].decode()
    assert added.startswith("\n\n# written by: cardlab tune jass --name new\n# - a \\u0007 line")
    specs = {s.name: s for game in ("ass", "jass") for s in read_file(path).get(game, [])}
    assert set(specs) == {"old", "mine", "new"}
    assert specs["old"].description == "line\rbreak and bell \u0007, tab\t"
    assert specs["new"].description == "tuned \"here\"\nagainst\tbasic"
    # every digit of the new value is kept
    assert float(files.tomllib.loads(added)["jass"]["new"]["params"]["fight"]) == \
        0.12345678901234568


def test_item07_a_preset_of_the_same_name_is_refused_and_nothing_changes(tmp_path,
                                                                        clean_registry):
    path = tmp_path / "mine.toml"
    path.write_bytes(USERS_FILE.encode())
    with pytest.raises(StrategyError, match=r"already has a preset \[ass.mine\]"):
        write_presets(path, [Preset("ass", "mine", "heuristic", {"keep": "4"})])
    for bad in ("ass = 3\n", "[ass.x\n", "[[ass]]\nbase = 'heuristic'\n"):
        path.write_text(bad)
        with pytest.raises(StrategyError, match="left as it is"):
            write_presets(path, [Preset("ass", "new", "heuristic", {"keep": "4"})])
        assert path.read_text() == bad
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.toml"]


def test_item07_a_full_disk_during_the_append_leaves_the_file_as_it_was(tmp_path,
                                                                       monkeypatch,
                                                                       clean_registry):
    path = tmp_path / "mine.toml"
    path.write_bytes(USERS_FILE.encode())

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(StrategyError, match="No space left on device.*left as it was"):
        write_presets(path, [Preset("ass", "new", "heuristic", {"keep": "4"})])
    assert path.read_bytes() == USERS_FILE.encode()


@pytest.mark.parametrize("content,message", [
    ("[ass.x\n", "is not a strategies file"),
    ("ass = 3\n", "ass is not a table of presets"),
    ("ass = { x = { base = 'heuristic' } }\n", "would not parse"),
    ("[ass.my-tuned]\nbase = 'heuristic'\n", "already has a preset [ass.my-tuned]"),
])
def test_item07_tune_checks_out_before_any_game(cli, tmp_path, monkeypatch, content, message):
    def never(self):
        raise AssertionError("tuning started")

    monkeypatch.setattr(Tuner, "run", never)
    out = tmp_path / "s.toml"
    out.write_text(content)
    code, _, err = cli("tune", "ass", "--knob", "jokers", "--out", out)
    assert code == 2
    _one_error(err, message)
    assert out.read_text() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_item07_tune_appends_to_a_users_file_and_keeps_the_earlier_header(fresh_cli, tmp_path):
    out = tmp_path / "s.toml"
    out.write_bytes(USERS_FILE.encode())
    code, _, err = fresh_cli("tune", "ass", "--knob", "jokers", "--games", "2000", "--confirm",
                           "200", "--workers", "1", "--out", out, "--name", "again",
                           "--no-progress")
    assert code == 0, err
    text = out.read_bytes()
    assert text.startswith(USERS_FILE.encode())
    added = text[len(USERS_FILE):].decode()
    assert "# written by: cardlab tune ass" in added and "[ass.again]" in added
    assert added.index("# written by") < added.index("[ass.again]")
    # a new process for each call: the file is read anew
    code, stdout, err = fresh_cli("strategies", "--strategies", out)
    assert code == 0 and all(n in stdout for n in ("again", "mine", "old")), err


# ------------------------------------------------------------------------------ item 11


@pytest.mark.parametrize("args", [
    ["export", "ass", "--games", "10", "--out", "-"],
    ["simulate", "ass", "--games", "3", "--backend", "serial"],
    ["strategies"],
])
def test_item11_a_closed_stdout_is_one_line_and_a_failure(args):
    proc = subprocess.run([sys.executable, "-c", MAIN, *args], stdout=None,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=lambda: os.close(1))  # cardlab ... >&-
    assert proc.returncode == 1
    _one_error(proc.stderr, "standard output is closed")


def test_item11_strategies_paths_that_cannot_be_used_are_one_line(cli, tmp_path, monkeypatch,
                                                                  clean_registry):
    monkeypatch.chdir(tmp_path)
    os.symlink("loop-b", "loop-a")
    os.symlink("loop-a", "loop-b")
    (tmp_path / "a:b.toml").write_text("[ass.x]\nbase = 'careful'\n")
    for path, text in (("loop-a", "cannot be resolved"),
                       ("a:b.toml", "would be read as 'a' and 'b.toml'"),
                       ("", "strategies file is empty")):
        code, _, err = cli("--strategies", path, "strategies", "ass")
        assert code == 2, (path, err)
        _one_error(err, text)
    assert os.environ.get(ENV) is None


def test_item11_an_ascii_terminal_gets_ascii_stand_ins(monkeypatch):
    """Standard output and error as PYTHONIOENCODING=ascii makes them (strict ASCII, and
    backslashreplace on stderr), here in this process."""
    import io

    from analyzer.cli.app import run_app

    out, err = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="ascii"))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="ascii",
                                                        errors="backslashreplace"))
    with pytest.raises(SystemExit) as stop:
        run_app(["simulate", "ass", "--games", "400", "--backend", "serial", "--quiet"])
    sys.stdout.flush()
    sys.stderr.flush()
    stdout, stderr = out.getvalue().decode("ascii"), err.getvalue().decode("ascii")
    assert stop.value.code == 0, stderr
    assert "+/- is the 95% interval" in stdout and "Traceback" not in stderr


def test_item11_ascii_fallback_replaces_only_what_the_encoding_lacks():
    import io

    from analyzer.cli.console import ascii_fallback

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    ascii_fallback([stream])
    stream.write("27.2 ± 0.03 … café\n")
    stream.flush()
    assert raw.getvalue() == b"27.2 +/- 0.03 ... cafe\n"


def _settings():
    return TuneSettings("ass", 4, ("basic",), START, ("mode", "inert", "x", "y"), 20_000, 5,
                        "minus_points", True)


@pytest.mark.parametrize("field,value,message", [
    ("combo", [7.0, 0.0], "'combo' must hold one value of each discrete knob"),
    ("combo", ["a", 0.0], "'combo'"),
    ("history", None, "'history' must be a list"),
    ("games", -5, "'games' must be a whole number >= 0; got -5"),
    ("games", True, "'games'"),
    ("stage", "later", "'stage' must be discrete, cma or done"),
    ("sums", ["x"], "'sums'"),
    ("cma", "bm90IGEgcGlja2xl", "'cma' is not a saved CMA-ES state"),
])
def test_item11_an_edited_tune_state_is_refused_with_the_field_named(tmp_path, field, value,
                                                                     message):
    path = tmp_path / "s.toml.state.json"
    steps = []

    def stop(done, total):
        steps.append(done)
        if len(steps) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Tuner(PlantedBackend(), _settings(), toy_space(), path, on_games=stop).run()
    Tuner(PlantedBackend(), _settings(), toy_space(), path)  # as saved: accepted
    state = json.loads(path.read_text())
    state[field] = value
    path.write_text(json.dumps(state))
    with pytest.raises(CardlabError) as err:
        Tuner(PlantedBackend(), _settings(), toy_space(), path)
    assert f"state file {path} is damaged: {message}" in str(err.value)
    assert "\n" not in str(err.value)


def test_item11_an_edited_study_manifest_is_one_line_in_report(cli, tmp_path):
    save_study(run_seats(SyntheticAssBackend(), players=[3], games=30), tmp_path / "res")
    manifest = tmp_path / "res" / "seats" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["games"] = "<b>200</b>"
    manifest.write_text(json.dumps(data))
    code, _, err = cli("report", "--from", tmp_path / "res", "--out", tmp_path / "rep")
    assert code == 2
    _one_error(err, "field 'games' must be a whole number")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]
    data["games"], data["level"] = 30, "95%"
    manifest.write_text(json.dumps(data))
    code, _, err = cli("report", "--from", tmp_path / "res", "--out", tmp_path / "rep")
    assert code == 2
    _one_error(err, "field 'level' must be a number between 0 and 1")


def test_item11_a_quoted_preset_name_with_a_newline_is_refused(cli, tmp_path, clean_registry):
    path = tmp_path / "evil.toml"
    path.write_text('[ass."evil\\n"]\nbase = "careful"\n')
    with pytest.raises(StrategyError, match="a name is lower-case"):
        read_file(path)
    code, _, err = cli("--strategies", path, "strategies", "ass")
    assert code == 2
    _one_error(err, "a name is lower-case")
    with pytest.raises(StrategyError, match="preset name 'evil\\\\n'"):
        write_presets(tmp_path / "new.toml", [Preset("ass", "evil\n", "heuristic", {})])
    assert not (tmp_path / "new.toml").exists()


# ------------------------------------------------------------------------------ item 12


def test_item12_tune_checks_out_before_the_budget_is_spent(cli, tmp_path, monkeypatch):
    def never(self):
        raise AssertionError("tuning started")

    monkeypatch.setattr(Tuner, "run", never)
    (tmp_path / "file").write_text("x")
    for out, text in ((tmp_path / "file" / "s.toml", "is not a writable folder"),
                      (tmp_path, "exists and is not a regular file")):
        code, _, err = cli("tune", "ass", "--knob", "jokers", "--out", out)
        assert code == 2
        _one_error(err, text)
    code, _, err = cli("tune", "ass", "--knob", "jokers", "--name", "Bad Name", "--out",
                       tmp_path / "s.toml")
    assert code == 2
    _one_error(err, "preset name 'Bad Name'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_item12_a_full_disk_keeps_the_tune_state_and_names_the_file(tmp_path, monkeypatch):
    import analyzer.tune.tuner as tuner_module

    path = tmp_path / "s.toml.state.json"
    real_open = open
    saves = []

    def full_after_two(file, mode="r", *args, **kwargs):
        if "w" in mode:
            saves.append(file)
            if len(saves) > 2:
                real_open(file, mode, *args, **kwargs).close()  # created, then the disk fills
                raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(tuner_module, "open", full_after_two, raising=False)
    with pytest.raises(CardlabError) as err:
        Tuner(PlantedBackend(), _settings(), toy_space(), path).run()
    assert f"cannot save the tuning state to {path}: No space left on device" in str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no .tmp left
    assert json.loads(path.read_text())["games"] > 0  # the last good state is kept


def test_item12_ctrl_c_in_tune_exits_130_and_says_how_to_resume(cli, tmp_path, monkeypatch):
    def interrupted(self):
        self._save()
        raise KeyboardInterrupt

    monkeypatch.setattr(Tuner, "run", interrupted)
    out = tmp_path / "s.toml"
    argv = ["tune", "ass", "--knob", "jokers", "--games", "4000", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", ["cardlab", *argv])
    code, _, err = cli(*argv)
    assert code == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"interrupted; resume with: cardlab tune ass --knob jokers --games 4000 --out {out}")
    assert f"saved in {out}.state.json" in lines[0] and not out.exists()


def test_item12_a_study_into_a_full_disk_leaves_no_out_folder(cli, tmp_path, monkeypatch):
    def full(self, path, *args, **kwargs):
        open(path, "w").close()
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    out = tmp_path / "new" / "deeper"
    code, _, err = cli("study", "seats", "--players", "3", "--games", "10", "--out", out,
                       "--quiet")
    assert code == 1  # an I/O error (issue 42, item 16)
    _one_error(err, "No space left on device")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("columns", [20, 40])
def test_item12_a_very_narrow_terminal_keeps_seat_and_n(monkeypatch, capsys, columns):
    from test_cli_output import _moments  # tests/ is on sys.path

    from analyzer.cli.run_commands import print_seat_table
    from analyzer.engines.ass.kernel import SEAT_METRICS

    monkeypatch.setenv("COLUMNS", str(columns))
    labels = ["basic", "hold-jokers:keep=4", "joker-hoarder", "careful"]
    print_seat_table("Who's the Ass?: 4 players, 2,000,000 games, seed 5",
                     _moments(2_000_000, 4), SEAT_METRICS, labels)
    lines = capsys.readouterr().out.splitlines()
    assert any(line.split()[:3] == ["seat", "strategy", "n"] for line in lines), lines
    for seat, label in enumerate(labels):
        assert any(line.split()[:3] == [str(seat), label, "2,000,000"] for line in lines), lines


def test_item12_jass_says_which_unit_it_counts(cli):
    for flag in ("--games", "-n"):
        code, out, err = cli("simulate", "jass", flag, "100")
        assert code == 2 and out == ""
        _one_error(err, f"counts matches or deals, not games: use --matches N (whole matches) "
                        f"or --deals N (single deals) instead of {flag}")
    code, out, _ = cli("simulate", "jass", "--help")
    assert code == 0 and "not games" in " ".join(out.split())


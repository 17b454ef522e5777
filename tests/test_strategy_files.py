"""strategies/files.py: presets in a TOML strategies file, loaded by every command."""

import pytest

from analyzer.cli.tune_commands import hoist_strategies_option
from strategies import files
from strategies.files import ENV, Preset, read_file, write_presets
from strategies.registry import _CATALOGS, StrategyError, parse_strategy


@pytest.fixture()
def clean_registry(monkeypatch):
    """Each test registers its presets into copies of the catalogues, and reads files anew."""
    parse_strategy("ass", "basic")
    parse_strategy("jass", "basic")
    for game in ("ass", "jass"):
        monkeypatch.setitem(_CATALOGS, game, dict(_CATALOGS[game]))
    monkeypatch.setattr(files, "_READ", {})
    monkeypatch.setattr(files, "_REGISTERED", set())
    monkeypatch.delenv(ENV, raising=False)


def test_round_trip_write_load_and_play_the_same_values(tmp_path, monkeypatch, clean_registry):
    path = tmp_path / "mine.toml"
    write_presets(path, [
        Preset("ass", "mine", "heuristic", {"jokers": "keep-until", "keep": "3",
                                             "lead": "safe"}, "a test preset"),
        Preset("jass", "mine-j", "adaptive", {"fight": "0.75"}),
    ], comment="written by a test")
    assert path.read_text().startswith("# written by a test")
    monkeypatch.setenv(ENV, str(path))
    s = parse_strategy("ass", "mine")
    assert s.describe_params()["jokers"] == "keep-until"
    assert s.values == parse_strategy("ass", "heuristic:jokers=keep-until,keep=3,lead=safe").values
    assert s.spec.description == "a test preset"
    j = parse_strategy("jass", "mine-j")  # adaptive's own preset stays under the new knob
    assert j.values == parse_strategy("jass", "adaptive:fight=0.75").values
    # knobs can still be changed on the command line
    assert parse_strategy("ass", "mine:keep=5").values[1] == 5.0


def test_writing_again_appends_and_refuses_the_same_name(tmp_path, clean_registry):
    path = tmp_path / "s.toml"
    write_presets(path, [Preset("ass", "one", "heuristic", {"keep": "1"})])
    first = path.read_bytes()
    write_presets(path, [Preset("ass", "two", "heuristic", {"keep": "2"})])
    assert path.read_bytes().startswith(first)
    with pytest.raises(StrategyError, match=r"already has a preset \[ass.one\]"):
        write_presets(path, [Preset("ass", "one", "heuristic", {"keep": "4"})])
    specs = {s.name: s for s in read_file(path)["ass"]}
    assert set(specs) == {"one", "two"}
    assert specs["one"].preset["keep"] == "1"


@pytest.mark.parametrize("text,message", [
    ("[ass.x\n", "is not valid TOML"),
    ("[poker.x]\nbase = 'basic'\n", "unknown game [poker]"),
    ("[ass.x]\nbase = 'nosuch'\n", "unknown ass strategy 'nosuch' as base"),
    ("[ass.x]\nparams = {}\n", "needs base"),
    ("[ass.x]\nbase = 'heuristic'\nparams = { speed = 3 }\n", "has no parameter 'speed'"),
    ("[ass.x]\nbase = 'heuristic'\nparams = { keep = 99 }\n", "must be in [0, 13]"),
    ("[ass.x]\nbase = 'heuristic'\nparams = { jokers = 'never' }\n", "must be one of"),
    ("[ass.x]\nbase = 'heuristic'\nflavour = 'x'\n", "unknown key(s) flavour"),
    ("[ass.X]\nbase = 'heuristic'\n", "a name is lower-case"),
])
def test_bad_files_say_what_is_wrong(tmp_path, clean_registry, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(StrategyError, match=None) as err:
        read_file(path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_preset_cannot_shadow_a_built_in_strategy(tmp_path, monkeypatch, clean_registry):
    path = tmp_path / "s.toml"
    path.write_text("[ass.careful]\nbase = 'heuristic'\n")
    monkeypatch.setenv(ENV, str(path))
    with pytest.raises(StrategyError, match="'careful' already exists"):
        parse_strategy("ass", "basic")


def test_strategies_option_is_hoisted_from_anywhere():
    argv = ["simulate", "ass", "--strategies", "a.toml", "-s", "x", "--strategies=b.toml"]
    assert hoist_strategies_option(argv) == [
        "--strategies", "a.toml", "--strategies=b.toml", "simulate", "ass", "-s", "x"]
    assert hoist_strategies_option(["strategies", "ass"]) == ["strategies", "ass"]


def test_every_command_loads_the_file_and_bad_files_fail_in_one_line(fresh_cli, tmp_path):
    path = tmp_path / "s.toml"
    write_presets(path, [Preset("ass", "mine", "heuristic", {"jokers": "dump"})])
    code, out, _ = fresh_cli("strategies", "ass", "--strategies", str(path))
    assert code == 0 and "mine" in out
    code, _, err = fresh_cli("replay", "ass", "--seed", "1", "--index", "0", "--strategy",
                           "mine", env={ENV: str(path)})
    assert code == 0, err
    for bad in (tmp_path / "missing.toml", tmp_path):
        code, _, err = fresh_cli("--strategies", str(bad), "strategies", "ass")
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ")

"""Bad input on the command line: a one-line error, exit status 2, never a traceback."""

import json
import subprocess
import sys

import pytest

MAIN = "from analyzer.cli import main; main()"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", MAIN, *args], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize(
    "args,message",
    [
        (["simulate", "ass", "--players", "13"], "needs 3 to 12 players; got 13"),
        (["simulate", "ass", "--games", "0"], "must be a positive integer"),
        (["simulate", "ass", "--strategy", "nosuch"], "unknown ass strategy 'nosuch'; known:"),
        (["simulate", "ass", "--players", "4", "-s", "basic", "-s", "random"], "exactly 4"),
        (["simulate", "ass", "--strategy", "hold-jokers:keep=x"], "needs a number"),
        (["simulate", "jass", "--players", "5"], "needs 3 or 4 players"),
        (["strategies", "poker"], "unknown game 'poker'"),
    ],
)
def test_bad_input_gets_one_line_and_status_2(cli, args, message):
    code, _, err = cli(*args)  # in this process (a real process: the tests below)
    assert code == 2
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_a_real_process_gets_the_same_one_line_and_status_2():
    proc = _run("simulate", "ass", "--players", "13")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == ["error: Who's the Ass? needs 3 to 12 players; "
                                                "got 13"]


def test_unknown_option_is_a_usage_error_not_a_traceback(cli):
    code, _, err = cli("simulate", "ass", "--bogus")
    assert code == 2
    assert "No such option: --bogus" in err and "Traceback" not in err


def test_export_into_a_missing_folder_is_refused(cli, tmp_path):
    code, _, err = cli("export", "ass", "--seed", "1", "--games", "2", "--out",
                       tmp_path / "no" / "f.jsonl")
    assert code == 2 and "of --out does not exist" in err


def test_a_failed_export_leaves_no_file(tmp_path):
    from analyzer.cli.atomic import write_lines_atomically

    def lines():
        yield "{}"
        raise KeyboardInterrupt

    out = tmp_path / "f.jsonl"
    with pytest.raises(KeyboardInterrupt):
        write_lines_atomically(out, lines())
    assert list(tmp_path.iterdir()) == []
    assert write_lines_atomically(out, iter(["{}", "{}"])) == 2
    assert out.read_text() == "{}\n{}\n"


def _in_a_fresh_python(*argvs: list[str], watch=("numba", "pandas", "matplotlib")):
    """``main()`` once per argument list, in a Python of its own: (the exit statuses, what
    the commands printed, the modules of ``watch`` loaded by the end)."""
    code = ("import contextlib, io, json, sys\n"
            "from analyzer.cli import main\n"
            "codes, out = [], io.StringIO()\n"
            f"for args in {[list(a) for a in argvs]!r}:\n"
            "    sys.argv[1:] = args\n"
            "    try:\n"
            "        with contextlib.redirect_stdout(out), "
            "contextlib.redirect_stderr(io.StringIO()):\n"
            "            main()\n"
            "        codes.append(0)\n"
            "    except SystemExit as e:\n"
            "        codes.append(e.code or 0)\n"
            f"loaded = sorted(set({list(watch)!r}) & set(sys.modules))\n"
            "print(json.dumps([codes, out.getvalue(), loaded]))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


def test_help_and_usage_errors_load_neither_numba_nor_pandas():
    """The command line answers --help and a misspelt option at once: importing it (the
    games' descriptions, the options and their seed checks) loads no engine and no pandas;
    those load when a command has work to do."""
    _, _, heavy = _in_a_fresh_python(["--help"], ["simulate", "ass", "--help"],
                                     ["simulate", "ass", "--bogus"])
    assert not heavy, heavy


def test_the_analysis_command_loads_no_table_library():
    """``cardlab analyze`` answers in about a second and a half, most of it starting Python
    and loading compiled kernels: it does not also load pandas (a third of a second), which
    only the studies' tables need (analyzer/stats/__init__.py loads its names on first use)."""
    codes, out, loaded = _in_a_fresh_python(
        ["analyze", "jass", "--players", "4", "--hand", "B6 B9 BU BA S7 SO A8 AK AA",
         "--tricks", "R10 RK", "--worlds", "60"], watch=("pandas",))
    assert codes == [0]
    assert "Play " in out and loaded == [], (out, loaded)

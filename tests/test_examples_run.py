"""Issue 44 item 4: every ``cardlab ...`` example of the README, of docs/*.md and of every
command's ``--help`` runs, as written but for the sizes of the rewrite table below.

The examples are found, not listed: the ``cardlab`` lines of the fenced code blocks of
README.md and docs/*.md (``\\`` continues a line, ``#`` starts a comment, a ``|`` pipe ends
the command), the complete commands in backticks in their prose, and the ``cardlab`` commands
of every command's help text and option help (the click tree typer builds, walked as
tests/test_safety2_inputs.py walks it, so a command added later is walked too). A form with a
placeholder (``RUN``, ``FILE``, ``N``, ``...``, ``<folder>``, ``ass|jass``) is not a command
and is left out; :data:`NOT_RUN` lists the commands that cannot run in a test, each with the
reason.

Each example runs in this process (``cardlab``'s ``main()``, as the console script runs it)
in a folder of its own, a copy of one prepared by :data:`SETUP` (the run folders, records
files and strategies file the examples name), so every output lands in a temporary folder.
The sizes are made tiny by :data:`SMALL`, an explicit table: a budget
is replaced by a small one (or a small one added where the example leaves it at a large
default), never an option the example names removed, and the smaller budget must still be
accepted (the example then fails otherwise). An example refused as written is fixed in its
document, not here. Examples of one command form that differ only in their sizes run once.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# --- finding the examples --------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\.\.\.|…|<|>|\||^[A-Z][A-Z_]*$|^[A-Z][A-Z_]*=|=[A-Z][A-Z_]*$")


def _words(command: str) -> list[str] | None:
    """The words of a command line (after ``cardlab``), a comment and a pipe cut off; None
    for a form with a placeholder."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    if "|" in words:
        words = words[: words.index("|")]
    if not words or words[0] != "cardlab":
        return None
    if any(PLACEHOLDER.search(w) for w in words[1:]):
        return None
    return words[1:]


def doc_examples() -> list[tuple[str, str]]:
    """(where, command line) of every example of README.md and docs/*.md."""
    out = []
    for page in DOCS:
        text = page.read_text()
        lines = text.splitlines()
        fenced = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.strip().startswith("```"):
                fenced = not fenced
            elif fenced and re.match(r"\s*(\$ )?cardlab ", line):
                start = i
                command = line.strip().removeprefix("$ ")
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1] + " " + lines[i].strip()
                out.append((f"{page.name}:{start + 1}", command))
            i += 1
        prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        for m in re.finditer(r"`(cardlab [^`]+)`", prose):
            if not re.search(r"(^|\s)-", m.group(1)):
                continue  # a command named in prose (`cardlab tune`), not an example
            line = prose[: m.start()].count("\n") + 1
            out.append((f"{page.name}:{line}", " ".join(m.group(1).split())))
    return out


def help_examples() -> list[tuple[str, str]]:
    """(where, command line) of every ``cardlab`` command in a command's help text or an
    option's help: after ``Example:`` (its continuation lines start with ``-``), on a line of
    its own, or in backticks."""
    import typer

    from analyzer.cli import app

    out = []

    def found(where: str, text: str) -> None:
        lines = (text or "").splitlines()
        for i, line in enumerate(lines):
            m = re.search(r"(?:^|Example:\s*)(cardlab .*)", line.strip())
            if m and "`" not in m.group(1):
                command = m.group(1)
                for more in lines[i + 1:]:
                    if not more.strip().startswith("-"):
                        break
                    command += " " + more.strip()
                out.append((where, command))
        for m in re.finditer(r"`(cardlab [^`]+)`", text or ""):
            if re.search(r"(^|\s)-", m.group(1)):  # else a command named, not an example
                out.append((where, " ".join(m.group(1).split())))

    def walk(cmd, path):
        where = "cardlab " + " ".join(path) + " --help"
        found(where, cmd.help)
        for param in cmd.params:
            found(where, getattr(param, "help", None))
        for name, sub in sorted((getattr(cmd, "commands", None) or {}).items()):
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return out


# --- what cannot run, and the rewrite table --------------------------------------------------

# a command (its first words) that cannot run in a test, and why
NOT_RUN = {
    ("board",): "serves the analysis board until Ctrl-C; tests/test_board_server.py and "
                "tests/test_board_browser.py drive it",
    ("study", "all"): "the whole suite: minutes even at the smallest --scale it accepts "
                      "(0.18); `make demo` runs it, and its scale check runs in "
                      "tests/test_study_cli.py",
    ("study", "replicate"): "reruns a finished `study all` suite at another seed (minutes); "
                            "`make replicate` runs it",
    ("report", "--replica"): "needs a finished suite and its replica (study all, then "
                             "study replicate)",
    ("train",): "expert iteration over rounds of pimc decision data (8 to 36 minutes as "
                "written); tests/test_ass_learned.py and tests/test_jass_learned.py train on "
                "small data",
}

# The sizes: for a command (its first words; the longest that matches), each option set to a
# small value: replaced where the example gives it, added where it leaves it at a large
# default. (command, {option: small value}, why). Only sizes: every other word stays.
ALIASES = {"-n": "--games", "-w": "--workers", "-p": "--players"}
RUN_BUDGET = ("--games", "--matches", "--deals")  # one of them: replaced, else the first added
SMALL = [
    (("simulate", "ass"), {RUN_BUDGET: ("20", "2", "20")},
     "20 games (2 matches) instead of up to a million; --games 20 added where the example "
     "names no budget (the default is 100,000 games)"),
    (("simulate", "jass"), {("--matches", "--deals", "--games"): ("2", "20", "20")},
     "2 matches (20 deals) instead of up to 100,000; --matches 2 added where the example "
     "names no budget"),
    (("export",), {RUN_BUDGET: ("20", "2", "20")}, "as simulate"),
    (("decisions",), {"--games": "4", "--searcher": "pimc:worlds=8"},
     "4 games, 8 worlds per decision instead of 1,500 games and 64 worlds"),
    (("analyze",), {"--worlds": "30"}, "30 worlds instead of 1,000"),
    (("replay",), {"--worlds": "30"}, "with --analyze: 30 worlds instead of 1,000"),
    (("study", "compare", "--game", "ass"), {RUN_BUDGET: ("20", "2", "4"), "--workers": "1"},
     "20 deals (2 matches) per player count, one process (this one)"),
    (("study", "compare", "--game", "jass"), {("--matches", "--deals", "--games"):
                                              ("2", "4", "4"), "--workers": "1"},
     "2 matches (4 deals) per player count, one process (this one)"),
    (("study", "jokers"), {"--players": "4", "--games": "40", "--slow-games": "10",
                           "--habit-games": "0", "--matches": "2", "--keep": "4,8",
                           "--workers": "1"},
     "one player count, 40 deals, two keep values that play as no other policy (keeping "
     "until 0 or 13 cards are left plays as hoarding or as using jokers as needed, which "
     "the study then checks on 2,000 deals of the field: 2.5 minutes against pimc; "
     "tests/test_safety_jokers.py tests that check)"),
    (("study", "seats"), {"--players": "4", "--games": "150", "--slow-games": "100",
                          "--workers": "1"}, "one player count, 150 games"),
    (("study", "trump"), {"--players": "4", "--ruleset": "seed", "--deals": "200",
                          "--slow-deals": "20", "--workers": "1"}, "one table, 200 deals"),
    (("study", "ladder"), {"--game": "ass", "--games": "40", "--workers": "1"},
     "one game, 40 deals"),
    (("study", "fields"), {"--players": "4", "--games": "40", "--trump-deals": "0",
                           "--seats-games": "0", "--workers": "1"},
     "one player count, 40 deals, no trump or seat parts"),
    (("study", "best-response"), {"--strategy": "basic", "--strong": "none",
                                  "--confirm": "200", "--workers": "1"},
     "one field (basic), 200 held-out deals, no strong player; the tuning budget as written "
     "(the study refuses one too small)"),
    (("study", "best-response", "--game", "ass,jass"), {"--games": "ass=20000,jass=2000",
                                                        "--strong": "none", "--confirm": "200",
                                                        "--workers": "1"},
     "both games (fields may not be named then): 20,000 games and 2,000 matches of tuning, "
     "200 held-out deals, no strong player"),
    (("tune",), {"--confirm": "200", "--workers": "1"},
     "200 held-out deals; the tuning budget as written (tune refuses one too small)"),
]
BUDGET = r"(--games|-n|--matches|--deals|--slow-games|--slow-deals|--habit-games|--confirm" \
    r"|--trump-deals|--seats-games|--worlds)"


# what the examples read, made once: (the command, why it is needed)
STRATEGIES_TOML = """[ass.my-tuned]
base = "heuristic"
description = "a preset as cardlab tune writes it (docs/tuning-and-ladder.md)"
params = { jokers = "dump", keep = 0 }
"""
SETUP = [
    "simulate ass --players 5 --games 20 --seed 7 --out runs/ass5 -q",
    "simulate ass --players 5 --games 20 --seed 7 --out runs/ass5.parquet -q",
    "export ass --seed 1 --games 5 --out games.jsonl",
    "export ass --seed 1 --matches 1 --out matches-ass.jsonl",
    "export jass --seed 3 --matches 1 --out matches-jass.jsonl",
    "study seats --players 4 --games 150 --strong-field none --workers 1 --out runs/studies",
]


def rewrite(words: list[str]) -> list[str]:
    """The example with the sizes of :data:`SMALL` (the longest command that matches)."""
    out = [ALIASES.get(w, w) for w in words]
    matching = [(cmd, small) for cmd, small, _ in SMALL if tuple(out[: len(cmd)]) == cmd]
    if not matching:
        return out
    _, small = max(matching, key=lambda m: len(m[0]))
    for options, values in small.items():
        group = options if isinstance(options, tuple) else (options,)
        given = [o for o in group if o in out]
        if given:
            for o in given:
                out[out.index(o) + 1] = values[group.index(o)] if isinstance(options, tuple) \
                    else values
        elif options != "--worlds" or "--analyze" in out or out[0] == "analyze":
            out += [group[0], values[0] if isinstance(options, tuple) else values]
    return out


def _form(words: list[str]) -> str:
    """The command form with its sizes written as N: examples differing only in sizes run
    once."""
    return re.sub(BUDGET + r" [0-9]+", r"\1 N", shlex.join(words))


def examples() -> list[tuple[str, list[str]]]:
    """(where, words after cardlab) of every example to run, one per command form."""
    seen, out = set(), []
    for where, command in doc_examples() + help_examples():
        words = _words(command)
        if words is None or any(tuple(words[: len(k)]) == k for k in NOT_RUN):
            continue
        form = _form(words)
        if form in seen:
            continue
        seen.add(form)
        out.append((where, words))
    return out


def skipped() -> list[tuple[str, str]]:
    return [(where, command) for where, command in doc_examples() + help_examples()
            if (w := _words(command)) is not None
            and any(tuple(w[: len(k)]) == k for k in NOT_RUN)]


SLOW = ("study", "tune", "decisions", "report")  # seconds to a minute each
EXAMPLES = examples()


def _is_slow(words: list[str]) -> bool:
    """Marked slow (still run in CI): a study, tuning, decision data, a report, a pimc seat
    (a few games a second) or a replay's analysis of every move."""
    return words[0] in SLOW or "--analyze" in words or any(
        w.startswith("pimc") and words[i - 1] in ("-s", "--strategy", "--table")
        for i, w in enumerate(words) if i)


# --- the tests -------------------------------------------------------------------------------


def test_issue44_item4_examples_are_found():
    """The finder finds the examples the docs and the help hold (a broken finder would pass
    every example by finding none)."""
    where = {w.split(":")[0] for w, _ in EXAMPLES}
    assert {"README.md", "analyzing.md", "running.md", "learned.md"} <= where
    commands = [shlex.join(w) for _, w in EXAMPLES]
    assert any(c.startswith("analyze jass --hand") for c in commands)
    helps = [w for w, _ in EXAMPLES if w.endswith("--help")]
    assert "cardlab analyze ass --help" in helps and "cardlab analyze jass --help" in helps
    assert "cardlab tune --help" in helps
    assert {tuple(w.split()[:2]) for w, _ in skipped()}  # the not-run ones are found too


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A folder holding what the examples read: the run folders, records files, a study
    folder and a strategies file (:data:`SETUP`)."""
    import os
    import sys

    from analyzer.cli import main

    base = tmp_path_factory.mktemp("examples")
    here, argv = os.getcwd(), sys.argv
    os.chdir(base)
    try:
        for command in SETUP:
            sys.argv = ["cardlab", *shlex.split(command)]
            with pytest.raises(SystemExit) as stop:
                main()
            assert stop.value.code == 0, command
    finally:
        os.chdir(here)
        sys.argv = argv
    (base / "matches.jsonl").write_text((base / "matches-ass.jsonl").read_text()
                                        + (base / "matches-jass.jsonl").read_text())
    (base / "strategies.toml").write_text(STRATEGIES_TOML)
    return base


def _outputs(words: list[str]) -> list[str]:
    """The paths an example writes (its --out, -o, --html, --weights)."""
    return [words[i + 1] for i, w in enumerate(words[:-1])
            if w in ("--out", "-o", "--html", "--weights", "--report")]


@pytest.mark.parametrize("where,words", [
    pytest.param(w, words, marks=[pytest.mark.slow] if _is_slow(words) else [],
                 id=f"{w} {shlex.join(words)}"[:150]) for w, words in EXAMPLES])
def test_issue44_item4_every_example_runs(prepared, tmp_path, monkeypatch, capsys, where,
                                          words):
    from cli_check import as_new_process

    folder = tmp_path / "cwd"
    shutil.copytree(prepared, folder)
    args = rewrite(words)
    for path in _outputs(args):
        target = folder / path
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    monkeypatch.chdir(folder)
    run = as_new_process(capsys, monkeypatch)
    code, out, err = run(*args)
    assert code == 0, f"{where}: cardlab {shlex.join(words)}\n(run as cardlab " \
        f"{shlex.join(args)})\n{err.strip()[-2000:]}"
    assert out.strip() or any((folder / p).exists() for p in _outputs(args)), where

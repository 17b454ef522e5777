"""Issue 24 item 3: facts about a game live in its description (analyzer/games/<game>/) and
the study registry, which everything else reads. A game's name written as a literal outside
a game's own packages (its rules in analyzer/games/<game>/, its engine in
analyzer/engines/<game>/) is allowed only where the file *is about* that game, each with its
reason; anything new is a fact copied out of its one place."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LITERAL = re.compile(r"""["'](ass|jass)["']""")

# file -> (most literals allowed, why the game is named there)
ALLOWED = {
    "analyzer/cli/ass_commands.py": (1, "the command-line module of Who's the Ass? (found "
                                        "by the game's name): registers `replay ass` etc."),
    "analyzer/cli/jass_commands.py": (1, "the command-line module of Plus-Minus Jass"),
    "analyzer/cli/run_commands.py": (7, "`simulate ass` and `simulate jass` are two commands "
                                        "with options of their own (matches, rule sets)"),
    "analyzer/studies/registry.py": (4, "the study registry: which game each study plays, "
                                     "and the default --game of study best-response"),
    "analyzer/studies/suite.py": (28, "the demo's own choices: which game each part warms "
                                      "and which games the suite's studies play"),
    "analyzer/studies/fields.py": (2, "the fields study asks one question per game: joker "
                                       "holding (Who's the Ass?) and trump (Jass)"),
    "analyzer/studies/best_response.py": (2, "the default fields, one list per game"),
    "analyzer/studies/results.py": (1, "a study manifest older than the game field was a "
                                       "Who's the Ass? study"),
    "analyzer/runner/synthetic.py": (4, "synthetic stand-ins for one game's kernel (tests)"),
    "analyzer/studies/ladder_coverage.py": (1, "the coverage simulation plays Who's the Ass? "
                                               "tables"),
    "analyzer/tune/synthetic.py": (1, "a toy search space for tests"),
    "analyzer/analysis/ass.py": (5, "the analysis of a Who's the Ass? position"),
    "analyzer/analysis/jass.py": (3, "the analysis of a Plus-Minus Jass position"),
    "analyzer/analysis/annotate.py": (6, "annotating a game picks the game's own analysis "
                                         "module by the record's game"),
    "analyzer/analysis/values.py": (4, "the labels' thresholds, in each game's own unit "
                                       "(docs/analyzing.md states them per game)"),
    "analyzer/cli/analyze_commands.py": (10, "`analyze ass` and `analyze jass` are two commands "
                                             "with options of their own (typed positions)"),
    "analyzer/learn/ass_decisions.py": (1, "the decision data and training facts of Who's the "
                                           "Ass?"),
    "analyzer/learn/jass_decisions.py": (1, "the decision data and training facts of Plus-Minus "
                                            "Jass"),
    "analyzer/board/app.py": (15, "the analysis board sets up and draws each game's position "
                                   "its own way (a climbing round, a trick) and calls the "
                                   "game's own typed-position analysis"),
    "analyzer/cli/board_commands.py": (3, "the board's command opens a record of either game "
                                          "and warms that game's analysis"),
    "reports/viewer.py": (5, "the game viewer draws each game's table its own way (a climbing "
                             "round, a trick) and picks the drawing by the record's game"),
}


def _literals() -> dict[str, int]:
    out: dict[str, int] = {}
    for folder in ("analyzer", "reports"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(("analyzer/games/", "analyzer/engines/ass/",
                               "analyzer/engines/jass/")):
                continue
            found = len(LITERAL.findall(path.read_text()))
            if found:
                out[rel] = found
    return out


def test_game_names_appear_only_where_a_file_is_about_that_game():
    found = _literals()
    stray = {f: n for f, n in found.items() if f not in ALLOWED}
    assert stray == {}, f"game-name literals outside the allowlist: {stray}"
    grown = {f: (n, ALLOWED[f][0]) for f, n in found.items() if n > ALLOWED[f][0]}
    assert grown == {}, f"more game-name literals than allowed: {grown}"


def test_the_allowlist_has_no_stale_entries():
    found = _literals()
    assert [f for f in ALLOWED if f not in found] == []

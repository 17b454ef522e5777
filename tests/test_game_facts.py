"""Issue 24 item 3, issue 45 item 1: a game is one object. Its facts live in its description
(analyzer/games/<game>/description.py) and its parts above the rules are reached through the
one adapter the description declares (``GameParts``: kernel, strategies, command line,
analysis, board, viewer, Python bots, labels, warm parts, default fields, extra tables).

A game's *own code* is what its adapter names, in a folder or file of the game's name (its
rules, engine and strategies packages, analyzer/analysis/<game>.py, analyzer/cli/<game>_
commands.py, ...): it alone may be about one game. Everywhere else no module branches on a
game's name: no comparison with it, no dict keyed by it, no match case on it (the adapter is
asked instead). A game's name written as a literal elsewhere is data (which game a study
plays, a default), allowed only in the files listed below, each with its reason.
"""

import ast
import importlib.util
from pathlib import Path

from analyzer.games import registry

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("analyzer", "reports", "cardlab", "strategies")

# file -> (most literals allowed, why the game is named there as data, not a branch)
ALLOWED = {
    "analyzer/cli/analyze_commands.py": (10, "`analyze ass` and `analyze jass` are two commands "
                                            "with options of their own (typed positions)"),
    "analyzer/studies/registry.py": (4, "the study registry: which game each study plays, "
                                     "and the default --game of study best-response"),
    "analyzer/studies/suite.py": (3, "the demo's own choices: which games the suite's "
                                     "studies play and which game it compares"),
    "analyzer/studies/fields.py": (2, "the fields study asks one question per game: joker "
                                       "holding (Who's the Ass?) and trump (Jass)"),
    "analyzer/studies/results.py": (1, "a study manifest older than the game field was a "
                                       "Who's the Ass? study"),
    "analyzer/runner/synthetic.py": (2, "synthetic stand-ins for one game's kernel (tests)"),
    "analyzer/studies/ladder_coverage.py": (1, "the coverage simulation plays Who's the Ass? "
                                               "tables"),
    "analyzer/tune/synthetic.py": (1, "a toy search space for tests"),
    "reports/viewer.py": (2, "the viewer's steps of each game, found through the game's "
                             "adapter (GameParts.viewer), name their game"),
    "cardlab/openspiel.py": (4, "the OpenSpiel wrappers of the two games"),
}


def _module_file(module: str) -> Path | None:
    """The file (a module) or folder (a package) of a dotted module path, without importing
    it (nor its package's code)."""
    path = ROOT.joinpath(*module.split("."))
    if path.is_dir():
        return path
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    spec = importlib.util.find_spec(module)  # a module outside the tree (a test's toy)
    return Path(spec.origin) if spec is not None and spec.origin else None


def _is_the_games(path: Path, game: str) -> bool:
    """Whether ``path`` is a folder or file of the game's name (``ass/``, ``ass.py``,
    ``ass_commands.py``): a shared module the adapter points into is not the game's own."""
    rel = path.relative_to(ROOT).with_suffix("").parts
    return game in rel[:-1] or rel[-1] == game or rel[-1].startswith(game + "_")


def own_code(games=None) -> dict[str, set[str]]:
    """{game: the files (relative paths) of its own code}, read from its adapter."""
    out: dict[str, set[str]] = {}
    for game in games or registry.names():
        parts = registry.get(game).parts
        files: set[str] = set()
        for module in parts.modules() if parts is not None else ():
            path = _module_file(module)
            if path is None or not path.is_relative_to(ROOT) or not _is_the_games(path, game):
                continue
            found = sorted(path.rglob("*.py")) if path.is_dir() else [path]
            files.update(f.relative_to(ROOT).as_posix() for f in found)
        out[game] = files
    return out


def _shared_files() -> list[tuple[str, str]]:
    """(relative path, source) of every module outside the games' own code."""
    own = set().union(*own_code().values())
    out = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in own:
                out.append((rel, path.read_text()))
    return out


def _named(node: ast.AST, names: set[str]) -> bool:
    """A literal game name, or a tuple, list or set holding one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in names
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_named(e, names) for e in node.elts)
    return False


def branches_on_a_game(source: str, names: set[str]) -> list[str]:
    """``line: what`` for every comparison with a game's name, dict keyed by one and match
    case on one in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
                _named(n, names) for n in (node.left, *node.comparators)):
            found.append(f"{node.lineno}: comparison {ast.unparse(node)}")
        elif isinstance(node, ast.Dict) and any(k is not None and _named(k, names)
                                                for k in node.keys):
            found.append(f"{node.lineno}: dict keyed by a game's name")
        elif isinstance(node, ast.MatchValue) and _named(node.value, names):
            found.append(f"{node.lineno}: match case {ast.unparse(node.value)}")
    return found


def _literals() -> dict[str, int]:
    out: dict[str, int] = {}
    names = set(registry.names())
    for rel, source in _shared_files():
        found = sum(1 for node in ast.walk(ast.parse(source))
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value in names)
        if found:
            out[rel] = found
    return out


def test_the_detector_finds_each_kind_of_branch_on_a_games_name():
    source = ('if game == "ass":\n    pass\nx = {"jass": 1}\ny = g in ("ass", "jass")\n'
              'match g:\n    case "ass":\n        pass\nz = f(game="ass")\n')
    found = branches_on_a_game(source, {"ass", "jass"})
    assert [f.split(":")[0] for f in found] == ["1", "3", "4", "6"]


def test_no_module_outside_a_games_own_code_branches_on_a_games_name():
    names = set(registry.names())
    found = {rel: hits for rel, source in _shared_files()
             if (hits := branches_on_a_game(source, names))}
    assert found == {}, f"branches on a game's name outside the games' own code: {found}"


def test_each_games_own_code_is_what_its_adapter_names_and_it_exists():
    own = own_code()
    for game in registry.names():
        parts = registry.get(game).parts
        assert parts is not None and parts.kernel and parts.catalog, game
        for module in parts.modules():
            assert _module_file(module) is not None, f"{game}: no module {module}"
        assert f"analyzer/analysis/{game}.py" in own[game]
        assert f"analyzer/engines/{game}/kernel.py" in own[game]
        assert f"analyzer/cli/{game}_commands.py" in own[game]
    # a shared module the adapter points into (the viewer's steps) stays shared
    assert not any("reports/viewer.py" in files for files in own.values())
    assert own["ass"].isdisjoint(own["jass"])


def test_game_names_appear_only_where_a_file_is_about_that_game():
    found = _literals()
    stray = {f: n for f, n in found.items() if f not in ALLOWED}
    assert stray == {}, f"game-name literals outside the allowlist: {stray}"
    grown = {f: (n, ALLOWED[f][0]) for f, n in found.items() if n > ALLOWED[f][0]}
    assert grown == {}, f"more game-name literals than allowed: {grown}"


def test_the_allowlist_has_no_stale_entries():
    found = _literals()
    assert [f for f in ALLOWED if f not in found] == []


def _module_name(rel: str) -> str:
    name = rel.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def test_no_games_own_code_imports_another_games():
    """The independence of the games at every layer, for every registered game (what the
    independence contracts of pyproject.toml say of the two built-in games, without a list
    to extend for a new game)."""
    import grimp

    graph = grimp.build_graph("analyzer", "strategies", "reports", "cardlab",
                              include_external_packages=False)
    own = {g: {_module_name(f) for f in files} for g, files in own_code().items()}
    crossing = []
    for game, modules in own.items():
        others = set().union(*(m for g, m in own.items() if g != game))
        for module in sorted(modules):
            crossing += [f"{module} -> {m}" for m in
                         sorted(graph.find_modules_directly_imported_by(module) & others)]
    assert crossing == []


# ------------------------------------------------------------------ the pages' JavaScript
def js_branches_on_a_game(script: str, names: set[str]) -> list[str]:
    """``line: text`` for every comparison of a string literal holding a game's name
    (``=== 'ass'``, ``"jass" !== g``) and every ``case 'ass':`` in a script: the page
    branches on the declared facts its data carries, never on the game's name."""
    import re

    alternatives = "|".join(re.escape(n) for n in sorted(names))
    quoted = "|".join(f"{q}(?:{alternatives}){q}" for q in "'\"`")
    quoted = f"(?:{quoted})"
    pattern = re.compile(rf"(?:[!=]==?\s*{quoted})|(?:{quoted}\s*[!=]==?)|(?:case\s+{quoted})")
    return [f"{number}: {line.strip()}" for number, line in
            enumerate(script.splitlines(), start=1) if pattern.search(line)]


def test_the_js_detector_finds_each_kind_of_comparison():
    script = ("if (data.game === 'ass') {}\nx = g !== \"jass\";\ny = 'ass' == g;\n"
              "switch (g) { case 'jass': break; }\nz = {game: 'ass'};\nw = g === 'assx';\n")
    found = js_branches_on_a_game(script, {"ass", "jass"})
    assert [f.split(":")[0] for f in found] == ["1", "2", "3", "4"]


def test_the_viewer_and_the_board_branch_on_declared_facts_not_on_a_games_name():
    """The game viewer's script (reports/viewer.py) and the analysis board's page
    (analyzer/board/board.html) read the facts the record's data declares (how a card is
    drawn, what a part is called, which way is better, whether a score tells of a hidden
    hand), not the game's name."""
    from reports import viewer

    names = set(registry.names())
    board = (ROOT / "analyzer/board/board.html").read_text(encoding="utf-8")
    found = {"reports/viewer.py (_JS)": js_branches_on_a_game(viewer._JS, names),
             "analyzer/board/board.html": js_branches_on_a_game(board, names)}
    assert {k: v for k, v in found.items() if v} == {}

"""Issue 24 item 1: the code's layers run one way and no module imports itself back.

The layer contracts live in pyproject.toml and run as ``lint-imports`` in ``make test``;
this test runs the same contracts (so a plain ``pytest`` sees a broken layer too) and looks
for import cycles among every module of the project, imports inside functions included, and
among the scripts (which no project module may import).
"""

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
PACKAGES = ("cardlab", "analyzer", "strategies", "reports")

from write_bytecode import imports_of  # noqa: E402  (the absolute imports of one file)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in edges:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_cycle_finder_finds_a_planted_cycle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(edges) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_the_project_modules():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _cycles(edges) == []


def test_no_cycle_through_the_scripts():
    scripts = sorted((ROOT / "scripts").glob("*.py"))
    names = {p.stem for p in scripts}
    edges = {}
    for p in scripts:
        imported = imports_of(p)
        edges[p.stem] = {m.split(".")[-1] for m in imported
                         if m.split(".")[-1] in names and m.split(".")[0] in names | {"scripts"}}
    assert _cycles(edges) == []
    # no project module imports a script, so no cycle can pass through one
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            bad = {m for m in imports_of(path) if m.split(".")[0] == "scripts"}
            assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_layer_contracts_hold():
    tool = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(tool)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


UPPER = {
    "analyzer/games": ("strategies.", "analyzer.engines", "analyzer.runner", "analyzer.studies",
                       "analyzer.tune", "reports.", "analyzer.cli"),
    "strategies": ("analyzer.engines", "analyzer.runner", "analyzer.studies", "analyzer.tune",
                   "reports.", "analyzer.cli"),
}


def _adapter_strings(tree: ast.AST) -> set[int]:
    """The ids of the string constants inside a ``GameParts(...)`` call: a game's adapter,
    the one declared place where a game names its parts above the rules, resolved lazily
    (analyzer.games.registry.load) and checked in tests/test_game_facts.py."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "GameParts":
            out.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Constant))
    return out


def test_no_upward_link_hides_in_a_string():
    """A module path written as a string is an import the contracts cannot see (the game
    descriptions once named their kernel, strategies and command-line modules this way,
    each read by its own convention); only a game's adapter (``GameParts``) declares them."""
    found = []
    for folder, upper in UPPER.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            adapter = _adapter_strings(tree)
            for node in ast.walk(tree):
                if id(node) in adapter:
                    continue
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    text = node.value
                    if any(text.startswith(u) for u in upper) and " " not in text:
                        found.append(f"{path.relative_to(ROOT)}: {text!r}")
    assert found == []

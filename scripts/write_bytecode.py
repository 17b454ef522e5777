"""Write the ``.pyc`` files of every module cardlab, its tests and its scripts import.

Where ``PYTHONDONTWRITEBYTECODE`` is set (as on the CI machine), a module without a ``.pyc``
file is compiled from source by every process that imports it: each test process, pool
worker and command would compile numba, pandas and matplotlib again (about a second each).
``make setup`` runs this once after installing, with the variable cleared, so Python writes
the files as it imports: every module of the project's packages, then every module named in
an import statement of the project's sources, tests and scripts (those imported inside a
function too, such as cma, and the test tools), the tools ``make test`` runs, and the whole
of numba and pydantic, which import much of themselves lazily. A name that does not import
here (a test's helper module, a script's sibling) is skipped: ``compileall`` writes the
project's own files.

Usage: ``PYTHONDONTWRITEBYTECODE= python scripts/write_bytecode.py``
"""

from __future__ import annotations

import ast
import compileall
import importlib
import importlib.util
import pkgutil
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardlab", "analyzer", "strategies", "reports")
FOLDERS = (*PACKAGES, "scripts", "tests")
# Imported by no statement in the project: the layer check `make test` runs (lint-imports),
# the pytest plugin for -n, and choix (pytest.importorskip in the Plackett-Luce test).
TOOLS = ("importlinter.cli", "xdist.plugin", "choix")
# Imported mostly where no import statement of the project reaches: numba's compiler imports
# much of itself only while it compiles a kernel, and typer imports pydantic only when a
# command runs. These are compiled whole, their own tests left out (about 430 files, 1 s).
WHOLE = ("numba", "pydantic")
TESTS = re.compile(r"[/\\]tests?[/\\]")


def imports_of(path: Path) -> set[str]:
    """The absolute module names in the import statements of one Python file, those inside
    functions included (relative imports left out)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def named_modules(root: Path = ROOT) -> list[str]:
    """The absolute module names in the import statements of the project's Python files."""
    return sorted({name for folder in FOLDERS for path in (root / folder).rglob("*.py")
                   for name in imports_of(path)})


def main() -> int:
    sys.path.insert(0, str(ROOT))
    for package in PACKAGES:
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__,
                                          package + "."):
            importlib.import_module(info.name)
    for name in [*named_modules(), *TOOLS]:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112 - not importable here: nothing to write
            continue
    for name in WHOLE:
        spec = importlib.util.find_spec(name)
        if spec is not None:  # pydantic comes with typer, today
            for folder in spec.submodule_search_locations:
                compileall.compile_dir(folder, rx=TESTS, quiet=1, workers=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())

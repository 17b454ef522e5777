"""Issue 45 item 2: no side doors. A module reaches another package only through its public
names: no ``from a.b.c import _private`` and no ``import a.b.c as m`` then ``m._private``
across packages (a package: the folder a module sits in). Inside one package, modules share
their private helpers freely, and a subpackage may use its parent's (reports/studies/ draws
with reports.figures' helpers); dunder names (``__version__``) are public. Third-party modules
are out of scope, and so are tests and scripts (they may test or time a private part).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardlab", "analyzer", "strategies", "reports")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_and_package(path: Path, root: Path) -> tuple[str, str]:
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        package = ".".join(parts[:-1])
        return package, package
    return ".".join(parts), ".".join(parts[:-1])


def _source(module: str, level: int, package: str) -> str:
    """The absolute name of an ImportFrom's module."""
    if not level:
        return module
    base = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join(base + ([module] if module else []))


def side_doors(path: Path, root: Path = ROOT) -> list[str]:
    """Each cross-package use of a private name in one file under ``root``, as
    'file:line: what'."""
    _, package = _module_and_package(path, root)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    ours = PACKAGES
    found = []
    modules: dict[str, str] = {}  # local name -> the project module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ours:
                    modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            source = _source(node.module or "", node.level, package)
            if source.split(".")[0] not in ours:
                continue
            source_package = source.rsplit(".", 1)[0] if "." in source else source
            for alias in node.names:
                if (_private(alias.name) and source_package != package
                        and not package.startswith(source_package + ".")):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: "
                                 f"from {source} import {alias.name}")
                elif not _private(alias.name):
                    modules[alias.asname or alias.name] = f"{source}.{alias.name}"
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in modules):
            target = modules[node.value.id]
            if (root / Path(*target.split("."))).with_suffix(".py").exists():
                target_package = target.rsplit(".", 1)[0]
            elif (root / Path(*target.split(".")) / "__init__.py").exists():
                target_package = target
            else:
                continue  # a class or function: its protected members are its own business
            if target_package != package:
                found.append(f"{path.relative_to(root)}:{node.lineno}: "
                             f"{node.value.id}.{node.attr} ({target})")
    return found


def test_no_module_imports_a_private_name_from_another_package():
    doors = [d for name in PACKAGES for path in sorted((ROOT / name).rglob("*.py"))
             for d in side_doors(path)]
    assert doors == [], "private names used across packages:\n" + "\n".join(doors)


def test_the_check_sees_both_kinds_of_side_door(tmp_path):
    """The scan is not vacuous: a private import across packages and a private attribute
    of a module bound from another package are both reported; one inside the package is not."""
    (tmp_path / "strategies" / "ass").mkdir(parents=True)
    (tmp_path / "strategies" / "ass" / "rollout.py").write_text("", encoding="utf-8")
    (tmp_path / "analyzer" / "analysis").mkdir(parents=True)
    probe = tmp_path / "analyzer" / "analysis" / "probe.py"
    probe.write_text("from strategies.ass.pimc import _candidates\n"
                     "from analyzer.analysis.kernels import _x\n"
                     "import strategies.ass.rollout as r\n"
                     "y = r._hidden\n", encoding="utf-8")
    found = side_doors(probe, tmp_path)
    assert len(found) == 2, found
    assert "from strategies.ass.pimc import _candidates" in found[0]
    assert "r._hidden" in found[1]

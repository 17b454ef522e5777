"""`make setup` writes the .pyc files of what cardlab imports (scripts/write_bytecode.py)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from write_bytecode import named_modules  # noqa: E402


def test_the_project_s_lazy_and_test_only_imports_are_covered():
    names = set(named_modules())
    assert "cma" in names  # imported inside the tuner's function, only when tuning
    assert {"pytest", "hypothesis", "pyarrow.parquet"} <= names


def test_imports_in_function_bodies_count_and_relative_ones_do_not(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import os.path\nfrom . import sibling\n\ndef f():\n    from lazydep.sub import g\n")
    assert named_modules(tmp_path) == ["lazydep.sub", "os.path"]

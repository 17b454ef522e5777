"""A script of scripts/ loaded as a module, for the tests of its functions.

``load("bench_advice")`` executes scripts/bench_advice.py as the module
``cardlab_bench_advice`` (its ``if __name__ == "__main__"`` part stays out), with scripts/
on ``sys.path`` while it loads, as when it runs, since some scripts import their neighbours.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load(name: str) -> ModuleType:
    """scripts/<name>.py as a fresh module."""
    spec = importlib.util.spec_from_file_location(f"cardlab_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPTS))
    return module

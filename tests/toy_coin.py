"""A toy study for tests/test_toy_study.py, written as docs/adding-a-study.md says: its
declaration (step 1), its run function (step 2; here in the same file as the declaration,
which a built-in study keeps in analyzer/studies/registry.py). It flips a seeded coin."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.studies.params import Param, run_options, seed
from analyzer.studies.registry import StudyDescription, get
from analyzer.studies.results import StudyResult, base_manifest

COIN = StudyDescription(
    "coin", "", "Does the coin land heads?",
    params=(
        Param("flips", int, 100, "Coin flips.", ("--flips", "-n"), at_least=1, key="flips"),
        Param("side", str, "heads", "The side counted.", key="side"),
        seed(), *run_options()),
    report="toy_coin_report", run="toy_coin:run_coin")


def run_coin(backend, flips: int, side: str, seed: int) -> StudyResult:
    """Flip ``flips`` coins from ``seed``; the share that shows ``side``."""
    del backend  # a real study plays its games on it
    heads = np.random.default_rng(seed).integers(0, 2, flips)
    shown = heads if side == "heads" else 1 - heads
    table = pd.DataFrame({"side": [side], "share": [float(shown.mean())], "flips": [flips]})
    values = {"flips": flips, "side": side, "seed": seed}
    manifest = base_manifest("coin", **get("coin").manifest_fields(values))
    return StudyResult("coin", {"coin": table}, manifest).say([])

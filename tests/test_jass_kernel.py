"""The Plus-Minus Jass kernel module: contract, columns, validation, chunk independence."""

import numpy as np
import pytest

from analyzer.engines.jass import kernel
from analyzer.engines.kernel import RunSpec, kernel_module
from analyzer.errors import CardlabError

MATCH_DTYPES = {
    "index": np.int64, "seat": np.int16, "sticks": np.int16, "won": np.bool_,
    "bonus_sticks": np.int16, "deals": np.int16, "capped": np.bool_, "winner": np.int16,
    "first_dealer": np.int16,
}
DEAL_DTYPES = {
    "index": np.int64, "seat": np.int16, "points": np.int16, "tricks": np.int16,
    "sticks": np.int16, "fixed_trump": np.bool_, "trump": np.int8, "last_trick": np.bool_,
}


def test_kernel_module_is_found_and_declares_its_modes():
    assert kernel_module("jass") is kernel
    assert kernel.MODES == ("matches", "deals")
    assert kernel.UNIT == {"matches": "match", "deals": "deal"}
    assert list(kernel.MODE_COLUMNS["matches"]) == list(MATCH_DTYPES)
    assert list(kernel.MODE_COLUMNS["deals"]) == list(DEAL_DTYPES)
    labels = [m.label for m in kernel.seat_metrics("deals")]
    assert labels == ["mean points", "mean sticks", "P(fixed trump) %"]
    assert [m.column for m in kernel.SEAT_METRICS] == ["sticks", "won"]


@pytest.mark.parametrize("mode,dtypes", [("matches", MATCH_DTYPES), ("deals", DEAL_DTYPES)])
def test_play_chunk_columns_and_dtypes(mode, dtypes):
    out = kernel.play_chunk(RunSpec("jass", 3, ("basic",), seed=1, mode=mode), 5, 20)
    assert list(out) == list(dtypes)
    for name, dt in dtypes.items():
        assert out[name].dtype == dt and len(out[name]) == 60, name
    assert list(out["index"][:4]) == [5, 5, 5, 6] and list(out["seat"][:4]) == [0, 1, 2, 0]


def test_deals_mode_rows_add_up():
    out = kernel.play_chunk(RunSpec("jass", 4, ("adaptive",), seed=2, mode="deals"), 0, 500)
    assert (out["points"].reshape(-1, 4).sum(1) == 157).all()
    assert (out["tricks"].reshape(-1, 4).sum(1) == 9).all()
    assert (out["last_trick"].reshape(-1, 4).sum(1) == 1).all()
    fixed = out["fixed_trump"].reshape(-1, 4).sum(1)
    trump = out["trump"][::4]
    assert ((fixed == 1) == (trump >= 0)).all() and (trump >= 0).all()  # 4 players: always
    sticks = out["sticks"].reshape(-1, 4).sum(1)
    assert set(np.unique(sticks)) <= {0, 1, 2}


@pytest.mark.parametrize("mode", ["matches", "deals"])
def test_results_depend_on_index_alone(mode):
    spec = RunSpec("jass", 4, ("random", "aim-high", "basic", "catch-up"), seed=77, mode=mode,
                   rules={"ruleset": "swiss"})
    whole = kernel.play_chunk(spec, 0, 60)
    parts = [kernel.play_chunk(spec, s, c) for s, c in [(0, 7), (7, 1), (8, 40), (48, 12)]]
    for name in whole:
        assert np.array_equal(whole[name], np.concatenate([p[name] for p in parts])), name
    again = kernel.play_chunk(spec, 30, 5)
    for name in whole:
        assert np.array_equal(again[name], whole[name][30 * 4: 35 * 4])
    other = kernel.play_chunk(RunSpec("jass", 4, spec.strategies, seed=78, mode=mode), 0, 60)
    assert not all(np.array_equal(other[k], whole[k]) for k in whole)


def test_validate_fills_in_and_rejects():
    spec = kernel.validate(RunSpec("jass", 3, ("basic",), seed=0))
    assert spec.mode == "matches" and spec.rules == {"ruleset": "seed", "deal_cap": 200}
    assert spec.strategies == ("basic",) * 3
    bad = [
        RunSpec("jass", 5, ("basic",), seed=0),
        RunSpec("jass", 2, ("basic",), seed=0),
        RunSpec("jass", 4, ("basic",), seed=0, mode="games"),
        RunSpec("jass", 4, ("basic",), seed=0, rules={"ruleset": "german"}),
        RunSpec("jass", 4, ("basic",), seed=0, rules={"deal_cap": 0}),
        RunSpec("jass", 4, ("basic",), seed=0, rules={"deal_cap": 2.5}),
        RunSpec("jass", 4, ("basic",), seed=0, rules={"cap": 3}),
        RunSpec("jass", 4, ("basic", "basic"), seed=0),
        RunSpec("jass", 4, ("nonsense",), seed=0),
        RunSpec("jass", 4, ("heuristic:aim=sideways",), seed=0),
        RunSpec("jass", 4, ("basic",), seed=-1),
        RunSpec("ass", 4, ("basic",), seed=0),
    ]
    for s in bad:
        with pytest.raises(CardlabError):
            kernel.validate(s)
    with pytest.raises(CardlabError):
        kernel.play_chunk(RunSpec("jass", 4, ("basic",), seed=0), -1, 3)


def test_capped_matches_are_reported():
    out = kernel.play_chunk(RunSpec("jass", 4, ("basic",), seed=3, rules={"deal_cap": 3}), 0, 40)
    deals = out["deals"][::4]
    capped = out["capped"][::4]
    winner = out["winner"][::4]
    assert ((deals == 3) | ~capped).all() and capped.any()
    assert ((winner == -1) == capped).all()


def test_warmup_runs():
    kernel.warmup()
    kernel.warmup_tables()


_PURE_PYTHON_RUN = """
import json
from analyzer.engines.jass import kernel
from analyzer.engines.kernel import RunSpec
field = ("adaptive", "random", "aim-high")
deals = kernel.play_chunk(RunSpec("jass", 3, field, seed=8, mode="deals"), 0, 12)
matches = kernel.play_chunk(RunSpec("jass", 3, field, seed=8), 0, 2)
search = kernel.play_chunk(RunSpec("jass", 3, SEARCH_FIELD, seed=8, mode="deals"), 0, 2)
print(json.dumps({"points": deals["points"].tolist(), "sticks": matches["sticks"].tolist(),
                  "search": search["points"].tolist()}))
"""
SEARCH_FIELD = ("pimc:worlds=2", "basic", "random")  # the deal loop's variant with search


def test_pure_python_mode_gives_identical_results():
    """Under NUMBA_DISABLE_JIT=1 (coverage, debugging) the same code, with the plain-Python
    twins of the bit intrinsics, gives bit-identical results, a search seat's deals included
    (the deal loop's search variant reaches the dispatcher through its registered hook)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    script = f"SEARCH_FIELD = {SEARCH_FIELD!r}\n" + _PURE_PYTHON_RUN
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", script], env=env,
                         cwd=Path(__file__).resolve().parent.parent, capture_output=True,
                         text=True, check=True, timeout=120)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    field = ("adaptive", "random", "aim-high")
    deals = kernel.play_chunk(RunSpec("jass", 3, field, seed=8, mode="deals"), 0, 12)
    matches = kernel.play_chunk(RunSpec("jass", 3, field, seed=8), 0, 2)
    search = kernel.play_chunk(RunSpec("jass", 3, SEARCH_FIELD, seed=8, mode="deals"), 0, 2)
    assert got == {"points": deals["points"].tolist(), "sticks": matches["sticks"].tolist(),
                   "search": search["points"].tolist()}


def test_an_illegal_strategy_move_is_reported_with_its_seat():
    from analyzer.engines.jass.engine import DONE, ILLEGAL

    spec = kernel.validate(RunSpec("jass", 3, ("basic", "random", "adaptive"), seed=1))
    kernel._check(spec, DONE, -1)
    with pytest.raises(RuntimeError, match="'adaptive' at seat 2"):
        kernel._check(spec, ILLEGAL + 2, 5)

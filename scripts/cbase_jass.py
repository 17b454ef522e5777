"""The hand-written C engine of Plus-Minus Jass (scripts/cbase/jass.c): issue 13's yardstick.

Issue 13 states the Jass targets against a careful hand-written C engine of the same rules
(about 790 ns per single deal, 822 per deal of a match, 17 ns per card of a rollout from the
trump-fixing card, on the machine the issue was measured on). This module builds that engine
here (:func:`scripts.cbaseline.build`), wraps its entry points with numpy arrays and times it
exactly as ``scripts/bench_jass.py`` times numba (``bench_common.rate``: process CPU time,
best of N), so that the bench prints numba's speed as a fraction of C's from one run.
``tests/test_cbase_jass.py`` checks that it plays the numba kernel's deals and matches and
its rollouts result for result.

The C engine plays `basic` in every seat under the default rule set (``seed``) with 3 or 4
players; it keeps only what `basic` and the scores need (not the public record that other
strategies read).

Run: ``.venv/bin/python scripts/cbase_jass.py`` prints C's figures; ``--rounds 5`` times C and
numba interleaved in one process (medians of the rounds; numba in ``play_chunk`` calls of the
runner's chunk size for each mode as a run makes them, ``--chunk 0`` for one call of all);
``--flags "-O2 -march=native"`` builds with other compiler flags than scripts/cbaseline.py's
(to compare -O2 with -O3).
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import cbaseline  # noqa: E402
from bench_common import chunk_units, rate  # noqa: E402

DEAL_COLUMNS = ("points", "tricks", "sticks", "fixed_trump", "trump", "last_trick")
MATCH_COLUMNS = ("sticks", "won", "bonus_sticks", "deals", "capped", "winner", "first_dealer")
# The numba kernel's result columns in play_chunk's order and dtypes (numpy bools are bytes in
# C), which jass_deal_rows / jass_match_rows write into fresh arrays as play_chunk returns them.
DEAL_ROWS = (("index", np.int64), ("seat", np.int16), ("points", np.int16),
             ("tricks", np.int16), ("sticks", np.int16), ("fixed_trump", np.bool_),
             ("trump", np.int8), ("last_trick", np.bool_))
MATCH_ROWS = (("index", np.int64), ("seat", np.int16), ("sticks", np.int16), ("won", np.bool_),
              ("bonus_sticks", np.int16), ("deals", np.int16), ("capped", np.bool_),
              ("winner", np.int16), ("first_dealer", np.int16))
ROLLOUT_COLUMNS = 11  # taken masks (4), tricks won (4), last winner, trump, fixer
STATE_WIDTH = 13  # hands, played, taken (4 each) and the stream, as bench_jass packs them
ST_SIZE = 82  # analyzer.games.jass.primitives.ST_SIZE
CHUNK = 4096  # units per C call in the timings: the output buffer stays in cache
DEFAULT_CAP = 200  # analyzer.games.jass.rules.DEFAULT_DEAL_CAP

# Issue 13's targets as fractions of C's speed (C ns / numba ns): 790 ns per single deal and
# 822 per deal of a match against at most 850; a rollout from the trump-fixing card at 17 ns a
# card x 24.8 cards = 422 ns against at most 450.
ISSUE_C_NS = {"deal": 790.0, "match": 822.0, "rollout": 17.0 * 24.8}
ISSUE_TARGET_NS = {"deal": 850.0, "match": 850.0, "rollout": 450.0}
TARGETS = {k: ISSUE_C_NS[k] / ISSUE_TARGET_NS[k] for k in ISSUE_C_NS}

_I64P = ctypes.POINTER(ctypes.c_int64)
_U64P = ctypes.POINTER(ctypes.c_uint64)
_LIBS: dict[tuple[str, ...], ctypes.CDLL] = {}


def load(flags: tuple[str, ...] | None = None) -> ctypes.CDLL:
    """The compiled engine (built once per process and flag set). ``flags`` replaces
    cbaseline's optimisation flags (e.g. ``("-O2", "-march=native")``) for a comparison;
    None builds with :func:`cbaseline.build`. Raises cbaseline.NoCompiler without gcc."""
    key = flags or ()
    if key not in _LIBS:
        lib = cbaseline.build("jass") if flags is None else cbaseline.build("jass", flags)
        lib.jass_play_deals.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64,
                                        ctypes.c_int32, _I64P]
        lib.jass_play_deals.restype = ctypes.c_int64
        lib.jass_play_matches.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64,
                                          ctypes.c_int32, ctypes.c_int32, _I64P]
        lib.jass_play_matches.restype = ctypes.c_int64
        lib.jass_rollouts.argtypes = [_U64P, _I64P, ctypes.c_int64, ctypes.c_int64,
                                      ctypes.c_int32, _I64P]
        lib.jass_rollouts.restype = ctypes.c_int64
        lib.jass_deal_parts.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64,
                                        ctypes.c_int32, ctypes.c_int32]
        lib.jass_deal_parts.restype = ctypes.c_int64
        lib.jass_deal_rows.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64,
                                       ctypes.c_int32] + [ctypes.c_void_p] * len(DEAL_ROWS)
        lib.jass_deal_rows.restype = ctypes.c_int64
        lib.jass_match_rows.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64,
                                        ctypes.c_int32, ctypes.c_int32] + (
                                            [ctypes.c_void_p] * len(MATCH_ROWS))
        lib.jass_match_rows.restype = ctypes.c_int64
        _LIBS[key] = lib
    return _LIBS[key]


def _check_n(n: int) -> None:
    if n not in (3, 4):
        raise ValueError(f"the C engine plays 3 or 4 players, got {n}")


def play_deals(seed: int, start: int, count: int, n: int,
               lib: ctypes.CDLL | None = None) -> dict[str, np.ndarray]:
    """Single deals start..start+count-1: the kernel's deals-mode columns, one row per
    (deal, seat), as int64 arrays (plus ``checksum``)."""
    _check_n(n)
    lib = lib or load()
    out = np.zeros((count * n, len(DEAL_COLUMNS)), dtype=np.int64)
    check = lib.jass_play_deals(seed, start, count, n, cbaseline.pointer(out))
    cols = {name: out[:, k] for k, name in enumerate(DEAL_COLUMNS)}
    cols["checksum"] = np.int64(check)
    return cols


def play_matches(seed: int, start: int, count: int, n: int, cap: int = DEFAULT_CAP,
                 lib: ctypes.CDLL | None = None) -> dict[str, np.ndarray]:
    """Matches start..start+count-1: the kernel's matches-mode columns, one row per
    (match, seat), as int64 arrays (plus ``checksum``)."""
    _check_n(n)
    if cap < 1:
        raise ValueError(f"cap must be >= 1, got {cap}")
    lib = lib or load()
    out = np.zeros((count * n, len(MATCH_COLUMNS)), dtype=np.int64)
    check = lib.jass_play_matches(seed, start, count, n, cap, cbaseline.pointer(out))
    cols = {name: out[:, k] for k, name in enumerate(MATCH_COLUMNS)}
    cols["checksum"] = np.int64(check)
    return cols


def deal_rows(seed: int, start: int, count: int, n: int,
              lib: ctypes.CDLL | None = None) -> dict[str, np.ndarray]:
    """Single deals start..start+count-1 as ``kernel.play_chunk`` returns them in deals mode:
    its eight columns in its order and dtypes, fresh arrays (the "same work" yardstick)."""
    _check_n(n)
    lib = lib or load()
    out = {name: np.empty(count * n, dtype=dt) for name, dt in DEAL_ROWS}
    lib.jass_deal_rows(seed, start, count, n, *(a.ctypes.data for a in out.values()))
    return out


def match_rows(seed: int, start: int, count: int, n: int, cap: int = DEFAULT_CAP,
               lib: ctypes.CDLL | None = None) -> dict[str, np.ndarray]:
    """Matches start..start+count-1 as ``kernel.play_chunk`` returns them in matches mode: its
    nine columns in its order and dtypes, fresh arrays."""
    _check_n(n)
    if cap < 1:
        raise ValueError(f"cap must be >= 1, got {cap}")
    lib = lib or load()
    out = {name: np.empty(count * n, dtype=dt) for name, dt in MATCH_ROWS}
    lib.jass_match_rows(seed, start, count, n, cap, *(a.ctypes.data for a in out.values()))
    return out


def time_rows(mode: str, n: int, count: int, repeats: int, seed: int = 1,
              cap: int = DEFAULT_CAP, chunk: int | None = None,
              lib: ctypes.CDLL | None = None, dpm: float | None = None) -> float:
    """C ns per single deal (``mode`` "deals") or per deal of a match ("matches") doing what
    numba's ``play_chunk`` does: the kernel's columns in fresh arrays per call, in calls of
    ``chunk`` units (bench_common.in_chunks: None the runner's chunk size for the mode, 0 one
    call); best of ``repeats`` by CPU time. ``dpm``: the matches' mean deals
    (:func:`deals_per_match`), when the caller has it already."""
    from bench_common import in_chunks

    lib = lib or load()
    if mode == "deals":
        run = in_chunks(lambda start, k: deal_rows(seed, start, k, n, lib), count, chunk,
                        game="jass", mode=mode)
    else:
        run = in_chunks(lambda start, k: match_rows(seed, start, k, n, cap, lib), count, chunk,
                        game="jass", mode=mode)
    run()
    per_unit = 1e9 / rate(run, count, repeats)[0]
    if mode == "deals":
        return per_unit
    return per_unit / (dpm if dpm is not None else deals_per_match(seed, n, count, cap, lib))


def _states(u: np.ndarray, st: np.ndarray, rows: int) -> tuple[np.ndarray, np.ndarray]:
    u = np.ascontiguousarray(u[:rows], dtype=np.uint64)
    st = np.ascontiguousarray(st[:rows], dtype=np.int64)
    if u.shape != (rows, STATE_WIDTH) or st.shape != (rows, ST_SIZE):
        raise ValueError(f"states must be ({rows}, {STATE_WIDTH}) and ({rows}, {ST_SIZE})")
    return u, st


def rollouts(u: np.ndarray, st: np.ndarray, rows: int | None = None,
             lib: ctypes.CDLL | None = None) -> np.ndarray:
    """Play packed states (``u``: rows x 13 uint64 hands/played/taken/stream, ``st``: rows x
    82 int64 public state, as bench_jass's ``_fix_states`` packs them) to the end of the deal
    with `basic` everywhere. Returns rows x 11 int64: each seat's taken mask, tricks won, then
    last winner, trump and fixer."""
    rows = len(u) if rows is None else rows
    u, st = _states(u, st, rows)
    lib = lib or load()
    out = np.zeros((rows, ROLLOUT_COLUMNS), dtype=np.int64)
    if lib.jass_rollouts(cbaseline.pointer(u, ctypes.c_uint64), cbaseline.pointer(st), rows, 1,
                         1, cbaseline.pointer(out)) == -1:
        raise ValueError("every state must be of a 3- or 4-player deal")
    return out


# ab's ratios, in print order: (C figure, numba figure, what the line says).
RATIOS = {
    "deal_rows": ("c_deal_rows", "numba_deal",
                  "ns per single deal, C writing the kernel's columns into fresh arrays"),
    "deal": ("c_deal", "numba_deal",
             "ns per single deal, C writing int64 rows into one reused buffer"),
    "match_rows": ("c_match_rows", "numba_match",
                   "ns per deal of a match, C writing the kernel's columns into fresh arrays"),
    "match": ("c_match", "numba_match",
              "ns per deal of a match, C writing int64 rows into one reused buffer"),
    "rollout": ("c_rollout", "numba_rollout", "ns per rollout from the trump-fixing card"),
}


def _deals_fn(lib, seed, n, count, buf):
    def run():
        for s in range(0, count, CHUNK):
            lib.jass_play_deals(seed, s, min(CHUNK, count - s), n, buf)
    return run


def _matches_fn(lib, seed, n, count, cap, buf):
    def run():
        for s in range(0, count, CHUNK):
            lib.jass_play_matches(seed, s, min(CHUNK, count - s), n, cap, buf)
    return run


def deals_per_match(seed: int, n: int, count: int, cap: int = DEFAULT_CAP,
                    lib: ctypes.CDLL | None = None) -> float:
    """Mean deals per match of matches 0..count-1 (the same in both engines: same matches)."""
    cols = play_matches(seed, 0, count, n, cap, lib)
    return float(cols["deals"][::n].mean())


def time_deals(n: int, count: int, repeats: int, seed: int = 1,
               lib: ctypes.CDLL | None = None) -> float:
    """C ns per single deal, best of ``repeats`` by CPU time; the result columns are written
    (into a buffer of CHUNK deals reused across calls)."""
    lib = lib or load()
    buf = np.zeros(CHUNK * n * len(DEAL_COLUMNS), dtype=np.int64)
    run = _deals_fn(lib, seed, n, count, cbaseline.pointer(buf))
    run()  # page in the code and tables
    return 1e9 / rate(run, count, repeats)[0]


def time_split(n: int, count: int, repeats: int, seed: int = 1,
               lib: ctypes.CDLL | None = None) -> dict[str, float]:
    """C ns per single deal split as bench_jass splits numba's: deal (shuffle and hands), play
    (36 cards), bookkeeping (points, sticks and the result columns); best of ``repeats``."""
    lib = lib or load()

    def part(k: int) -> float:
        lib.jass_deal_parts(seed, 0, count, n, k)
        return 1e9 / rate(lambda: lib.jass_deal_parts(seed, 0, count, n, k), count, repeats)[0]

    deal, both = part(0), part(1)
    total = time_deals(n, count, repeats, seed, lib)
    return {"deal_ns": deal, "play_ns": both - deal, "bookkeeping_ns": total - both,
            "total_ns": total}


def time_matches(n: int, count: int, repeats: int, seed: int = 1, cap: int = DEFAULT_CAP,
                 lib: ctypes.CDLL | None = None) -> tuple[float, float]:
    """C ns per match and ns per deal of a match (best of ``repeats`` by CPU time)."""
    lib = lib or load()
    buf = np.zeros(CHUNK * n * len(MATCH_COLUMNS), dtype=np.int64)
    run = _matches_fn(lib, seed, n, count, cap, cbaseline.pointer(buf))
    run()
    per_match = 1e9 / rate(run, count, repeats)[0]
    return per_match, per_match / deals_per_match(seed, n, count, cap, lib)


def time_rollouts(u: np.ndarray, st: np.ndarray, rows: int, reps: int, repeats: int,
                  lib: ctypes.CDLL | None = None) -> dict[str, float]:
    """C ns per rollout of the packed states (rolled ``reps`` times each), measured as
    bench_jass measures numba: (play - unpack only) / rollouts, best of ``repeats`` by CPU
    time, each rollout summing the same checksum on both sides; ns per card (cards left in
    the states, averaged) and the checksum of one pass (bench_jass's ``_rollouts`` gives the
    same for the same states)."""
    lib = lib or load()
    u, st = _states(u, st, rows)
    pu, ps = cbaseline.pointer(u, ctypes.c_uint64), cbaseline.pointer(st)

    def cpu(play: int) -> float:
        best = float("inf")
        for _ in range(repeats):
            c0 = time.process_time()
            lib.jass_rollouts(pu, ps, rows, reps, play, None)
            best = min(best, time.process_time() - c0)
        return best

    check = lib.jass_rollouts(pu, ps, rows, 1, 1, None)
    per = (cpu(1) - cpu(0)) / (rows * reps) * 1e9
    cards = float(np.mean(36 - st[:, 6] * st[:, 0] - st[:, 5]))  # S_TRICK, S_N, S_POS
    return {"rollout_ns": per, "rollout_cards": cards, "rollout_ns_per_card": per / cards,
            "checksum": int(check)}


def bench(players: tuple[int, ...] = (3, 4), deals: int = 400_000, matches: int = 40_000,
          repeats: int = 3, states: tuple[np.ndarray, np.ndarray, int] | None = None,
          reps: int = 1, seed: int = 1, cap: int = DEFAULT_CAP,
          lib: ctypes.CDLL | None = None, chunk: int | None = None) -> dict[str, object]:
    """C ns per single deal and per deal of a match for each player count, and (with
    ``states`` = (u, st, rows) from bench_jass's ``_fix_states``) ns per rollout; every figure
    best of ``repeats`` by CPU time, as bench_jass measures numba. ``ns_per_deal`` writes int64
    rows into one reused buffer; ``ns_per_deal_rows`` writes the kernel's columns into fresh
    arrays in calls of ``chunk`` units, as numba's play_chunk (:func:`time_rows`)."""
    lib = lib or load()
    rows = []
    for n in players:
        rows.append({"players": n, "unit": "deal", "count": deals,
                     "ns_per_deal": time_deals(n, deals, repeats, seed, lib),
                     "ns_per_deal_rows": time_rows("deals", n, deals, repeats, seed,
                                                   chunk=chunk, lib=lib)})
        per_match, per_deal = time_matches(n, matches, repeats, seed, cap, lib)
        dpm = deals_per_match(seed, n, matches, cap, lib)
        rows.append({"players": n, "unit": "match", "count": matches, "ns_per_match": per_match,
                     "ns_per_deal": per_deal,
                     "ns_per_deal_rows": time_rows("matches", n, matches, repeats, seed, cap,
                                                   chunk, lib, dpm),
                     "deals_per_match": dpm})
    result: dict[str, object] = {"rows": rows}
    if states is not None:
        result["rollout"] = time_rollouts(*states, reps=reps, repeats=repeats, lib=lib)
    return result


def _numba_fix_states(n: int, count: int):
    """Packed states before the trump-fixing card, from the numba engine (bench_jass)."""
    import jass_workloads as jw

    from strategies.registry import engine_arrays, seat_strategies

    fams, prms = engine_arrays(seat_strategies("jass", ["basic"], n))
    return jw._fix_states(1, count, n, fams, prms), (fams, prms)


def ab(rounds: int = 5, n: int = 4, deals: int = 200_000, matches: int = 20_000,
       flags: tuple[str, ...] | None = None, chunk: int | None = None) -> dict[str, object]:
    """C and numba interleaved ``rounds`` times in one process (each figure best of 1 per
    round, CPU time): medians of ns per deal (single deals, matches), ns per rollout, and
    of the per-round ratios C ns / numba ns (numba's speed as a fraction of C's), and the
    lowest and highest of those ratios (:data:`RATIOS`). numba plays in ``play_chunk`` calls
    of ``chunk`` units as the runner does (None: the runner's chunk size for the mode; 0: one
    call of all the units, which also times the system's page faults on that call's fresh
    result columns: 2 to 4% of a deal here); C is timed writing the kernel's columns into
    fresh arrays in the same calls, and writing int64 rows into one reused buffer of CHUNK
    units."""
    import jass_workloads as jw
    from bench_common import in_chunks

    from analyzer.engines.jass import kernel
    from analyzer.engines.kernel import RunSpec

    lib = load(flags)
    (u, st, rows), (fams, prms) = _numba_fix_states(n, 20_000)
    reps = max(1, deals // max(rows, 1))
    specs = {m: RunSpec("jass", n, ("basic",), seed=1, mode=m) for m in ("deals", "matches")}
    for spec in specs.values():
        kernel.play_chunk(spec, 0, 10)
    for play in (0, 1):
        jw._rollouts(u, st, rows, fams, prms, 1, play)
    if (time_rollouts(u, st, rows, 1, 1, lib)["checksum"]
            != jw._rollouts(u, st, rows, fams, prms, 1, 1)[0]):
        raise RuntimeError("the C and numba rollouts of the same states differ")
    dpm = deals_per_match(1, n, matches, lib=lib)
    numba_run = {m: in_chunks(lambda start, k, s=spec: kernel.play_chunk(s, start, k),
                              deals if m == "deals" else matches, chunk, game="jass", mode=m)
                 for m, spec in specs.items()}
    figures: dict[str, list[float]] = {k: [] for k in (
        "c_deal", "c_deal_rows", "numba_deal", "c_match", "c_match_rows", "numba_match",
        "c_rollout", "numba_rollout")}
    for _ in range(rounds):
        figures["c_deal"].append(time_deals(n, deals, 1, lib=lib))
        figures["c_deal_rows"].append(time_rows("deals", n, deals, 1, chunk=chunk, lib=lib))
        figures["c_match_rows"].append(time_rows("matches", n, matches, 1, chunk=chunk,
                                                 lib=lib, dpm=dpm))
        figures["numba_deal"].append(jw._cpu(numba_run["deals"]) / deals * 1e9)
        figures["c_match"].append(time_matches(n, matches, 1, lib=lib)[1])
        figures["numba_match"].append(jw._cpu(numba_run["matches"]) / (matches * dpm) * 1e9)
        figures["c_rollout"].append(time_rollouts(u, st, rows, reps, 1, lib)["rollout_ns"])
        play = jw._cpu(lambda: jw._rollouts(u, st, rows, fams, prms, reps, 1))
        copy = jw._cpu(lambda: jw._rollouts(u, st, rows, fams, prms, reps, 0))
        figures["numba_rollout"].append((play - copy) / (rows * reps) * 1e9)
    med = {k: statistics.median(v) for k, v in figures.items()}
    per_round = {k: [c / m for c, m in zip(figures[a], figures[b], strict=True)]
                 for k, (a, b, _) in RATIOS.items()}
    ratios = {k: statistics.median(v) for k, v in per_round.items()}
    spread = {k: (min(v), max(v)) for k, v in per_round.items()}
    return {"players": n, "rounds": rounds, "flags": " ".join(flags or cbaseline.FLAGS),
            "chunk": chunk,
            "median_ns": med, "ratio_median": ratios, "ratio_range": spread,
            "figures": figures}


def compare_flags(other: tuple[str, ...], rounds: int = 5, n: int = 4, deals: int = 200_000,
                  matches: int = 20_000) -> dict[str, dict[str, float]]:
    """cbaseline's build against one with ``other`` flags, interleaved ``rounds`` times in one
    process: median ns per single deal, per deal of a match and per rollout of each."""
    builds = {"cbaseline": load(), " ".join(other): load(other)}
    (u, st, rows), _ = _numba_fix_states(n, 20_000)
    reps = max(1, deals // max(rows, 1))
    figures = {name: {"deal": [], "match": [], "rollout": []} for name in builds}
    for _ in range(rounds):
        for name, lib in builds.items():
            figures[name]["deal"].append(time_deals(n, deals, 1, lib=lib))
            figures[name]["match"].append(time_matches(n, matches, 1, lib=lib)[1])
            figures[name]["rollout"].append(time_rollouts(u, st, rows, reps, 1, lib)["rollout_ns"])
    return {name: {k: statistics.median(v) for k, v in f.items()} for name, f in figures.items()}


def print_bench(result: dict[str, object]) -> None:
    for r in result["rows"]:  # type: ignore[union-attr]
        if r["unit"] == "deal":
            print(f"  C, {r['players']} players: {r['ns_per_deal']:,.0f} ns per single deal")
        else:
            print(f"  C, {r['players']} players: {r['ns_per_match']:,.0f} ns per match, "
                  f"{r['ns_per_deal']:,.0f} ns per deal of a match "
                  f"({r['deals_per_match']:.2f} deals a match)")
    if "rollout" in result:
        ro = result["rollout"]
        print(f"  C rollout from the trump-fixing card: {ro['rollout_ns']:,.0f} ns "
              f"({ro['rollout_cards']:.1f} cards, {ro['rollout_ns_per_card']:.1f} ns a card)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", "--ab", dest="ab", type=int, metavar="ROUNDS",
                        help="time C and numba interleaved this many rounds (as "
                             "scripts/cbase_ass.py --rounds; --ab is the older name)")
    parser.add_argument("--players", type=int, default=4, choices=[3, 4],
                        help="players for --rounds (default 4)")
    parser.add_argument("--flags", help='compiler flags instead of cbaseline\'s, e.g. "-O2 '
                                        '-march=native"')
    parser.add_argument("--compare-flags", metavar="FLAGS",
                        help='time cbaseline\'s build against one with these flags, '
                             'interleaved (5 rounds, 4 players), e.g. "-O2 -march=native"')
    parser.add_argument("--chunk", type=chunk_units, default=None, metavar="UNITS",
                        help="for --rounds: numba's play_chunk calls of this many deals or "
                             "matches (default: the runner's chunk size for each mode, 150,000 "
                             "deals and 20,000 matches; 0: one call of all)")
    parser.add_argument("--deals", type=int, default=400_000)
    parser.add_argument("--matches", type=int, default=40_000)
    args = parser.parse_args(argv)
    flags = tuple(args.flags.split()) if args.flags else None
    if args.compare_flags:
        res = compare_flags(tuple(args.compare_flags.split()), n=args.players,
                            deals=args.deals // 2,
                            matches=args.matches // 2)
        print(f"C engine builds interleaved, {args.players} players, 5 rounds, medians "
              "(ns, CPU time):")
        for name, f in res.items():
            label = " ".join(cbaseline.FLAGS) if name == "cbaseline" else name
            print(f"  {label}: single deal {f['deal']:,.0f}, deal of a match "
                  f"{f['match']:,.0f}, rollout {f['rollout']:,.0f}")
        return
    if args.ab:
        res = ab(args.ab, args.players, deals=args.deals // 2, matches=args.matches // 2,
                 flags=flags, chunk=args.chunk)
        from analyzer.runner.chunks import preferred_chunk_size

        if args.chunk == 0:
            calls = "one call of all the units"
        elif args.chunk is None:
            calls = (f"the runner's calls of {preferred_chunk_size('jass', 'deals'):,} deals and "
                     f"{preferred_chunk_size('jass', 'matches'):,} matches (play_chunk, and the "
                     "C columns)")
        else:
            calls = f"calls of {args.chunk:,} units (play_chunk, and the C columns)"
        print(f"C ({res['flags']}) and numba interleaved, {res['players']} players, "
              f"{res['rounds']} rounds, numba in {calls}, medians (CPU time):")
        med, rat, span = res["median_ns"], res["ratio_median"], res["ratio_range"]
        for k, (c, numba, label) in RATIOS.items():
            target = TARGETS[k.removesuffix("_rows")]
            print(f"  {label}: C {med[c]:,.0f}, numba {med[numba]:,.0f}; numba speed / C "
                  f"speed {rat[k]:.2f}x ({span[k][0]:.2f}..{span[k][1]:.2f} over the rounds; "
                  f"issue 13's target {target:.2f}x)")
        return
    states = None
    try:
        (u, st, rows), _ = _numba_fix_states(4, 20_000)
        states = (u, st, rows)
    except ImportError:
        pass
    reps = max(1, args.deals // 2 // max(states[2], 1)) if states else 1
    print(f"C engine of Plus-Minus Jass ({' '.join(flags or cbaseline.FLAGS)}), basic, "
          "best of 3 by CPU time")
    print_bench(bench(deals=args.deals, matches=args.matches, states=states, reps=reps,
                      lib=load(flags)))


if __name__ == "__main__":
    main()

"""Benchmark of the Plus-Minus Jass engines on one core.

Deals and matches per second of the numba engine (the kernel's ``play_chunk``, as a run uses
it) and of the pure-Python reference engine, in the same run, for 3 and 4 players with
``basic`` everywhere (``--strategy`` for another field), plus the process's peak memory and,
with ``--compile``, the first-call time with an empty and with a warm numba cache.

Run: ``.venv/bin/python scripts/bench_jass.py`` (about a minute); ``--quick`` for a smoke run.
Timings on a shared machine are noisy: the figures are the best of N by process CPU time,
wall-clock figures beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # one core: the kernels are serial anyway

from bench_common import peak_rss_mb, probe_compile, rate  # noqa: E402

_COMPILE_PROBE = """
import json, time
t0 = time.perf_counter()
from analyzer.games.jass import kernel
from analyzer.games.kernel import RunSpec
kernel.play_chunk(RunSpec("jass", 4, ("basic",), 1, mode="deals"), 0, 1)
t1 = time.perf_counter()
kernel.warmup()
t2 = time.perf_counter()
print(json.dumps({"first_deal_s": t1 - t0, "all_kernels_s": t2 - t0}))
"""


PLURAL = {"deal": "deals", "match": "matches"}


def bench_jass(
    players: tuple[int, ...] = (3, 4),
    deals: int = 400_000,
    matches: int = 40_000,
    ref_deals: int = 2_000,
    ref_matches: int = 150,
    repeats: int = 3,
    strategy: str = "basic",
    ruleset: str = "seed",
    compile_probe: bool = False,
) -> dict[str, object]:
    """Measure the numba engine and the reference engine; return the figures as a dict.

    Each row: players, engine (numba/reference), unit (deal/match), count, per-second rates
    by CPU time and by wall time. The numba chunk for each measurement is one ``play_chunk``
    call (preallocated once per chunk, nothing allocated per deal).
    """
    from analyzer.games.jass import kernel
    from analyzer.games.jass.reference import ReferenceJass
    from analyzer.games.jass.rules import make_rules
    from analyzer.games.kernel import RunSpec
    from strategies.registry import seat_strategies

    rows = []
    rules = {"ruleset": ruleset}
    for n in players:
        for mode, count in (("deals", deals), ("matches", matches)):
            spec = RunSpec("jass", n, (strategy,), seed=1, mode=mode, rules=rules)
            kernel.play_chunk(spec, 0, 10)  # compile or load from the cache
            cpu, wall = rate(lambda s=spec, c=count: kernel.play_chunk(s, 0, c), count,
                              repeats)
            rows.append({"players": n, "engine": "numba", "unit": kernel.UNIT[mode],
                         "count": count, "per_s_cpu": cpu, "per_s_wall": wall})
        ref = ReferenceJass(make_rules(n, rules), seat_strategies("jass", [strategy], n))
        ref.play_single_deal(1, 0)  # jitted policies called from Python compile on first use
        cpu, wall = rate(lambda r=ref: [r.play_single_deal(1, i) for i in range(ref_deals)],
                          ref_deals, 1)
        rows.append({"players": n, "engine": "reference", "unit": "deal", "count": ref_deals,
                     "per_s_cpu": cpu, "per_s_wall": wall})
        cpu, wall = rate(lambda r=ref: [r.play_match(1, i) for i in range(ref_matches)],
                          ref_matches, 1)
        rows.append({"players": n, "engine": "reference", "unit": "match",
                     "count": ref_matches, "per_s_cpu": cpu, "per_s_wall": wall})
    result: dict[str, object] = {"strategy": strategy, "ruleset": ruleset, "rows": rows,
                                 "peak_rss_mb": peak_rss_mb()}
    if compile_probe:
        with tempfile.TemporaryDirectory() as cold:
            result["compile_cold"] = probe_compile(_COMPILE_PROBE, cold)
            result["compile_warm"] = probe_compile(_COMPILE_PROBE, cold)
    return result


def print_jass(result: dict[str, object]) -> None:
    print(f"Plus-Minus Jass, strategy {result['strategy']}, rule set {result['ruleset']}, "
          "one core (best of N by CPU time; wall time in brackets)")
    for r in result["rows"]:  # type: ignore[union-attr]
        print(f"  {r['players']} players  {r['engine']:<9} {PLURAL[r['unit']] + '/s':<10} "
              f"{r['per_s_cpu']:>12,.0f}  ({r['per_s_wall']:,.0f} wall)")
    numba = {(r["players"], r["unit"]): r["per_s_cpu"] for r in result["rows"]
             if r["engine"] == "numba"}
    for r in result["rows"]:
        if r["engine"] == "reference":
            ratio = numba[(r["players"], r["unit"])] / r["per_s_cpu"]
            print(f"  {r['players']} players  numba / reference ({PLURAL[r['unit']]}): "
                  f"{ratio:,.0f}x")
    print(f"  peak memory: {result['peak_rss_mb']:.0f} MiB")
    for key in ("compile_cold", "compile_warm"):
        if key in result:
            print(f"  {key.replace('_', ' ')}: {result[key]}")


def main(argv: list[str] | None = None) -> None:
    """Command line: print the table and, with --json, write the figures to a file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--strategy", default="basic")
    parser.add_argument("--ruleset", default="seed", choices=["seed", "swiss"])
    parser.add_argument("--compile", action="store_true", help="also time cold/warm compile")
    parser.add_argument("--json", type=Path, help="write the figures as JSON to this file")
    args = parser.parse_args(argv)
    sizes = (dict(deals=20_000, matches=2_000, ref_deals=100, ref_matches=10, repeats=1)
             if args.quick else {})
    result = bench_jass(strategy=args.strategy, ruleset=args.ruleset,
                        compile_probe=args.compile, **sizes)
    print_jass(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

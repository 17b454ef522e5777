"""Benchmarks of cardlab's engines on one core.

Both games, engine against pure-Python reference in one run (``--game ass|jass|all``).
Who's the Ass? (``bench_ass``): games per second of the numba engine and of the
pure-Python reference engine, in the same run, for 4 and 8 players with ``basic`` everywhere;
first-call compile time with an empty numba cache (a fresh ``NUMBA_CACHE_DIR``) and with a
warm one (the first game of ``basic`` alone, then the first match, then the first game of a
table with other families: each compiles its own variant of the engine); peak memory.
Matches (A-12) beside them: matches per second at 4 players with K = 4 games per match,
numba and reference, in the same run (a match of K games should take about K single games'
time); ns per game split into deal, play and bookkeeping, and ns
per rollout from mid-game, numba beside reference (scripts/bench_ass_split.py); beside them
the hand-written C engine of issue 13 (scripts/cbase/ass.c, the same games) and the ratios
numba/C against the issue's targets (a one-line note instead without a C compiler).
Plus-Minus Jass: see scripts/bench_jass.py (``bench_jass``). Default runtime: about two
minutes for both games.

Run: ``.venv/bin/python scripts/bench.py`` (or ``make bench``); ``--quick`` for a smoke run.
Timings on a shared machine are noisy: the figures are best-of-N CPU time per process, and
wall-clock figures are shown beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_ass_split import bench_split, print_split  # noqa: E402
from bench_common import peak_rss_mb, probe_compile, rate  # noqa: E402
from bench_jass import bench_jass, print_jass  # noqa: E402

_COMPILE_PROBE = """
import json, resource, time
t0 = time.perf_counter()
from analyzer.engines.ass import kernel
from analyzer.engines.kernel import RunSpec
kernel.play_chunk(RunSpec("ass", 4, ("basic",), 1), 0, 1)
t1 = time.perf_counter()
kernel.play_chunk(RunSpec("ass", 4, ("basic",), 1, mode="matches"), 0, 1)
t2 = time.perf_counter()
kernel.play_chunk(RunSpec("ass", 4, ("basic", "random", "heuristic", "careful"), 1), 0, 1)
t3 = time.perf_counter()
print(json.dumps({"first_game_s": t1 - t0, "first_match_s": t2 - t1, "others_s": t3 - t2,
                  "all_kernels_s": t3 - t0,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def bench_ass(games: int = 200_000, ref_games: int = 300, players: tuple[int, ...] = (4, 8),
              repeats: int = 3, compile_probe: bool = True,
              match_players: tuple[int, ...] = (4,)) -> dict:
    """Measure the Who's the Ass? engines; return the figures as a dict."""
    from analyzer.engines.ass import kernel
    from analyzer.engines.ass.reference import play_match_record, play_record
    from analyzer.engines.kernel import RunSpec
    from strategies.registry import seat_strategies

    results: dict = {"games": games, "ref_games": ref_games, "engines": {}}
    if compile_probe:
        with tempfile.TemporaryDirectory(prefix="cardlab-bench-cache-") as cache:
            results["compile_cold"] = probe_compile(_COMPILE_PROBE, cache)
            results["compile_warm"] = probe_compile(_COMPILE_PROBE, cache)
    kernel.warmup()
    for n in players:
        spec = RunSpec("ass", n, ("basic",), 1)
        fast = rate(lambda spec=spec: kernel.play_chunk(spec, 0, games), games, repeats)
        field = seat_strategies("ass", ["basic"], n)
        slow = rate(lambda field=field: [play_record(1, i, field) for i in range(ref_games)],
                     ref_games, 1)
        results["engines"][n] = {"numba_cpu": fast[0], "numba_wall": fast[1],
                                 "reference_cpu": slow[0], "reference_wall": slow[1],
                                 **_c_games(games, n, repeats)}
    results["matches"] = {}
    for n in match_players:  # K = n games per match (the default), single games beside them
        spec = RunSpec("ass", n, ("basic",), 1, mode="matches")
        count = max(1, games // n)
        fast = rate(lambda spec=spec, count=count: kernel.play_chunk(spec, 0, count), count,
                    repeats)
        field = seat_strategies("ass", ["basic"], n)
        ref_count = max(1, ref_games // n)
        slow = rate(lambda field=field, c=ref_count: [play_match_record(1, i, field)
                                                      for i in range(c)], ref_count, 1)
        results["matches"][n] = {"games_per_match": n, "numba_cpu": fast[0],
                                 "numba_wall": fast[1], "reference_cpu": slow[0],
                                 "reference_wall": slow[1]}
    results["split"] = bench_split(games, ref_games, states=min(2000, max(200, games // 100)),
                                   repeats=repeats)
    results["peak_rss_mb"] = peak_rss_mb()
    return results


def _c_games(games: int, n: int, repeats: int) -> dict:
    """Games/s of the C yardstick (scripts/cbase/ass.c: deal, play and the kernel's twelve
    result columns), timed as the numba engine is; {} without a C compiler."""
    from cbaseline import NoCompiler

    try:
        import cbase_ass

        cbase_ass.library()
    except NoCompiler:
        return {}
    return {"c_cpu": rate(lambda: cbase_ass.game_rows(1, 0, games, n), games, repeats)[0]}


def print_ass(results: dict) -> None:
    """Print the figures of :func:`bench_ass` as a small table."""
    print("Who's the Ass?  (basic everywhere, one core; best of N by CPU time, wall in brackets)")
    has_c = all("c_cpu" in e for e in results["engines"].values())
    print(f"{'players':>7} {'numba games/s':>24} {'reference games/s':>22} {'speed-up':>9}"
          + (f" {'C games/s':>10} {'numba speed':>11}" if has_c else ""))
    for n, e in results["engines"].items():
        c = f" {e['c_cpu']:>10,.0f} {e['numba_cpu'] / e['c_cpu']:>9.2f}xC" if has_c else ""
        print(f"{n:>7} {e['numba_cpu']:>12,.0f} ({e['numba_wall']:>9,.0f}) "
              f"{e['reference_cpu']:>10,.0f} ({e['reference_wall']:>8,.0f}) "
              f"{e['numba_cpu'] / e['reference_cpu']:>8,.0f}x{c}")
    if not has_c:
        print("(no C compiler: the C yardstick, scripts/cbase/ass.c, left out)")
    for n, e in results.get("matches", {}).items():
        single = results["engines"].get(n, {}).get("numba_cpu")
        games = e["numba_cpu"] * e["games_per_match"]
        per_game = (f"; {games:,.0f} games/s in matches against {single:,.0f} single games/s"
                    if single else "")
        print(f"{n:>7} {e['numba_cpu']:>12,.0f} ({e['numba_wall']:>9,.0f}) "
              f"{e['reference_cpu']:>10,.0f} ({e['reference_wall']:>8,.0f}) "
              f"{e['numba_cpu'] / e['reference_cpu']:>8,.0f}x  matches/s, K = "
              f"{e['games_per_match']}{per_game}")
    if "compile_cold" in results:
        cold, warm = results["compile_cold"], results["compile_warm"]
        print(f"first game in a new process: {cold['first_game_s']:.2f} s with an empty numba "
              f"cache, {warm['first_game_s']:.2f} s with a warm one; then the first match "
              f"{cold['first_match_s']:.2f} s / {warm['first_match_s']:.2f} s and the first "
              f"game of a table with other families than basic {cold['others_s']:.2f} s / "
              f"{warm['others_s']:.2f} s (all three: {cold['all_kernels_s']:.2f} s / "
              f"{warm['all_kernels_s']:.2f} s)")
        print(f"peak memory of those processes: {cold['peak_rss_mb']:.0f} MB (cold), "
              f"{warm['peak_rss_mb']:.0f} MB (warm)")
    if "split" in results:
        print_split(results["split"])
    print(f"peak memory of this process: {results['peak_rss_mb']:.0f} MB")


def main(argv: list[str] | None = None) -> None:
    """Command line: which game (both by default), --quick for a smoke run, --json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("ass", "jass", "all"), default="all")
    parser.add_argument("--quick", action="store_true", help="a few seconds, rough figures")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures: dict[str, dict] = {}
    if args.game in ("ass", "all"):
        sizes = dict(games=20_000, ref_games=50, repeats=1, compile_probe=False)
        figures["ass"] = bench_ass(**(sizes if args.quick else {}))
    if args.game in ("jass", "all"):
        sizes = dict(deals=20_000, matches=2_000, ref_deals=100, ref_matches=10, repeats=1)
        figures["jass"] = bench_jass(**(sizes if args.quick else {"compile_probe": True}))
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    if "ass" in figures:
        print_ass(figures["ass"])
    if "jass" in figures:
        print_jass(figures["jass"])


if __name__ == "__main__":
    main()

"""Speed of ``cardlab analyze`` and ``replay --analyze`` on one warm core (issue 22).

* Who's the Ass?, 4 players: positions at the start of the middle round of recorded games
  (``careful``, ``basic``, ``set-saver``, ``random``), each analysed with the default
  worlds (1,000) and the pimc decision, as ``cardlab analyze ass --from ...`` does:
  seconds per position (mean, max). The aim: under 2 s.
* Plus-Minus Jass, 4 players: positions at every fourth card of recorded deals
  (``aim-low``, ``basic``, ``adaptive``, ``random``), the same: the aim under 1 s.
* One 4-player Who's the Ass? game annotated whole (``replay --analyze``, every seat,
  default worlds): seconds per game; the aim under 30 s.

Process CPU time after a warm-up call (numba compiles on the first). Run
``NUMBA_NUM_THREADS=1 .venv/bin/python scripts/bench_analyze.py`` (``--quick``: fewer).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis import ass, jass  # noqa: E402
from analyzer.analysis.annotate import annotate_game  # noqa: E402
from analyzer.engines.ass.records import Tracer  # noqa: E402
from analyzer.engines.jass.records import trace_record  # noqa: E402
from analyzer.engines.kernel import RunSpec  # noqa: E402

# a mixed table: the worlds read moves that basic would not always make (infer=policy draws
# its full oversample), so the positions are not the cheapest kind
FIELD = ("careful", "basic", "set-saver", "random")


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer positions and games")
    ap.add_argument("--worlds", type=int, default=ass.DEFAULT_WORLDS)
    args = ap.parse_args()
    count = 5 if args.quick else 20

    tracer = Tracer(RunSpec("ass", 4, FIELD, 1))
    records = [tracer.record(i)[0] for i in range(count)]
    positions = []
    for record in records:
        middle = len(record["rounds"]) // 2
        k = sum(len(rnd["plays"]) for rnd in record["rounds"][:middle])
        positions.append(ass.from_record(record, k))
    ass.analyze(positions[0], args.worlds, 0)  # warm-up (compile or cache load)
    times = [cpu(lambda p=p: ass.analyze(p, args.worlds, 0)) for p in positions]
    moves = sum(len(ass.legal_codes(p)) for p in positions) / len(positions)
    print(f"ass 4 players, mid-game, {args.worlds} worlds: {sum(times) / len(times):.3f} s per "
          f"position (max {max(times):.3f}, {len(times)} positions, {moves:.1f} legal moves "
          "on average); aim < 2 s")

    spec = RunSpec("jass", 4, ("aim-low", "basic", "adaptive", "random"), 1, mode="deals",
                   rules={"ruleset": "seed", "deal_cap": 200})
    jpos = [jass.from_record(trace_record(spec, i), 0, k) for i in range(count // 2 or 1)
            for k in range(1, 32, 4)]
    jass.analyze(jpos[0], args.worlds, 0)
    times = [cpu(lambda p=p: jass.analyze(p, args.worlds, 0)) for p in jpos]
    print(f"jass 4 players, {args.worlds} worlds: {sum(times) / len(times):.3f} s per position "
          f"(max {max(times):.3f}, {len(times)} positions); aim < 1 s")

    games = records[: 2 if args.quick else 5]
    times = [cpu(lambda r=r: annotate_game("ass", r, worlds=args.worlds, seed=0))
             for r in games]
    plays = sum(len(ass.plays_of(r)) for r in games) / len(games)
    print(f"ass 4 players, one game annotated (every seat, {args.worlds} worlds): "
          f"{sum(times) / len(times):.2f} s per game (max {max(times):.2f}, {len(times)} games, "
          f"{plays:.0f} plays each); aim < 30 s")


if __name__ == "__main__":
    main()

"""Coverage of the ladder's 95% intervals in a planted-strength simulation with neighbour effects.

Synthetic Who's the Ass? tables (no engine): planted strengths for six strategies and one
entrant (rated like a strategy tagged slow), an effect per ordered pair and relative seat
(``--neighbour-sd``), deal luck and noise; the ladder's own design and rating code
(analyzer/studies/ladder_coverage.py). Prints, per strategy and pooled, the share of
replications whose 95% interval holds the true rating (the target: 93-97%).

Run: ``.venv/bin/python scripts/ladder_coverage.py --reps 200`` (about 4 minutes on one core).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv: list[str] | None = None) -> None:
    from analyzer.studies.ladder_coverage import coverage
    from analyzer.studies.seatings import SEATINGS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200, help="replications (seeds)")
    parser.add_argument("--deals", type=int, default=400, help="deals per replication")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seatings", type=int, default=SEATINGS)
    parser.add_argument("--neighbour-sd", type=float, default=1.5)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    table = coverage(args.reps, args.deals, args.players, args.seatings, args.neighbour_sd)
    print(f"{args.reps} replications, {args.deals} deals each in {min(args.deals, args.seatings)}"
          f" seatings, {args.players} players, neighbour effects sd {args.neighbour_sd} "
          f"({time.perf_counter() - t0:.0f} s)")
    print(f"{'strategy':10} {'true':>7} {'mean rating':>12} {'coverage':>9}")
    for name, part in table.groupby("strategy", sort=False):
        kind = " (entrant)" if part["entrant"].iloc[0] else ""
        print(f"{name:10} {part['true'].iloc[0]:+7.3f} {part['rating'].mean():+12.3f} "
              f"{part['covered'].mean():9.1%}{kind}")
    p, n = table["covered"].mean(), len(table)
    print(f"pooled: {p:.1%} of {n} intervals hold the true rating "
          f"(+/- {1.96 * math.sqrt(p * (1 - p) / n):.1%}); target 93-97%")


if __name__ == "__main__":
    main()

"""Choose the Plus-Minus Jass search knobs: one candidate seat against a field, single deals.

For every candidate strategy, the same ``--deals`` deals are played ``players`` times, the
candidate in each seat once and the ``--field`` strategy in every other seat; prints the
candidate's mean sticks per deal with a 95% interval (over deals x seats) and the CPU time,
and for every candidate after the first its difference from the first on the same deals and
seats, with a paired 95% interval.

Run: ``.venv/bin/python scripts/jass_search_knobs.py --players 4 --deals 400 --field aim-low
pimc:rollout=basic pimc:worlds=8 pimc pimc:worlds=32`` (docs/strategies.md: the defaults).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidates", nargs="+")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--field", default="aim-low")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    from analyzer.engines.jass import kernel
    from analyzer.engines.kernel import RunSpec

    n = args.players
    first = None
    for k, cand in enumerate([args.field, *args.candidates]):
        sticks = []
        t0 = time.process_time()
        for seat in range(n):
            field = [args.field] * n
            field[seat] = cand
            spec = RunSpec("jass", n, tuple(field), seed=args.seed, mode="deals")
            out = kernel.play_chunk(spec, 0, args.deals)
            sticks.append(out["sticks"][seat::n].astype(float))
        v = np.concatenate(sticks)
        half = 1.96 * v.std(ddof=1) / np.sqrt(len(v))
        line = (f"{cand:<40} {v.mean():.3f} +/- {half:.3f} sticks/deal   "
                f"{time.process_time() - t0:.1f} s CPU")
        if k == 1:
            first = v
        elif k > 1:
            d = v - first
            line += (f"   vs {args.candidates[0]}: {d.mean():+.3f} +/- "
                     f"{1.96 * d.std(ddof=1) / np.sqrt(len(d)):.3f} (paired)")
        print(line, flush=True)


if __name__ == "__main__":
    main()

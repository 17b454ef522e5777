"""Tune the Who's the Ass? search: variants against a fixed field of presets, same deals.

Each variant V plays the duplicate rotation of (V, careful, basic, set-saver) (at 6 or more
players also hold-jokers and ass-holder) on the same deals: V sits in every seat once per
deal, against the same opponents, so any two variants are compared paired over the deals.
Prints per variant its mean minus points per game and its difference to ``careful`` in the
same games, then every variant minus the first, each with a 95% interval over the deals.
(``cardlab study compare`` puts all strategies at one table instead; this script keeps the
field of presets fixed, so that variants are not measured against each other.)

Run: ``.venv/bin/python scripts/tune_ass_pimc.py --players 4 --deals 600 pimc
pimc:worlds=64`` (the tuning table of docs/strategies.md was made with the default seed, 31).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def half(x: np.ndarray) -> float:
    """Half-width of the normal 95% interval of the mean of ``x``."""
    return 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x))


def main(argv: list[str] | None = None) -> None:
    from analyzer.engines.ass import kernel
    from analyzer.engines.kernel import RunSpec
    from analyzer.stats.duplicate import rotations

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help="strategies to compare (first: the base)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args(argv)
    field = ["careful", "basic", "set-saver"]
    if args.players >= 6:
        field += ["hold-jokers", "ass-holder"]
    means = {}
    for v in args.variants:
        c0 = time.process_time()
        mine, careful = np.zeros(args.deals), np.zeros(args.deals)
        arrangement = rotations([v] + field, args.players)
        for seats in arrangement:
            out = kernel.play_chunk(RunSpec("ass", args.players, seats, args.seed), 0,
                                    args.deals)
            points = out["minus_points"].reshape(args.deals, args.players)
            for s, name in enumerate(seats):
                if name == v:
                    mine += points[:, s]
                elif name == "careful":
                    careful += points[:, s]
        mine /= sum(a.count(v) for a in arrangement)
        careful /= sum(a.count("careful") for a in arrangement)
        means[v] = mine
        d = mine - careful
        print(f"{v:45s} mean {mine.mean():6.2f}  minus careful {d.mean():+6.2f} "
              f"+/- {half(d):.2f}  ({time.process_time() - c0:.0f} s CPU)", flush=True)
    base = args.variants[0]
    for v in args.variants[1:]:
        d = means[v] - means[base]
        print(f"{v} minus {base}: {d.mean():+.2f} +/- {half(d):.2f}")


if __name__ == "__main__":
    main()

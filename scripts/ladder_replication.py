"""Do ladders on different seeds agree? Three seeds at the demo's budget, both games.

Runs the ladder exactly as ``cardlab study all`` (``make demo``) does, i.e. ``cardlab study
ladder --seed S`` with the default budget (analyzer/studies/suite.py), for each seed, and
prints per game: the share of strategy pairs whose 95% intervals of the difference overlap on
every two seeds (the target: at least 95%), pairs that are clear in opposite directions on
two seeds (should be none), the share of strategies whose rating intervals overlap on every
two seeds, and the first group on each seed (should be the same), also without the
strategies tagged slow (the presets' first group, which the report's finding names too), and
the first group the plain tests would give (every clear difference cut, ``--margin 0``).

Run: ``.venv/bin/python scripts/ladder_replication.py`` (seeds 5 6 7; about half a minute
per seed on two cores).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _oriented(pairs):
    """{(a, b) with a < b: (difference, low, high, clear)}: a - b whatever the table's order."""
    out = {}
    for r in pairs.itertuples(index=False):
        if r.a < r.b:
            out[(r.a, r.b)] = (r.difference, r.low, r.high, bool(r.clear))
        else:
            out[(r.b, r.a)] = (-r.difference, -r.high, -r.low, bool(r.clear))
    return out


def _game(table, game):
    return table[table["game"] == game]


def _overlap(x, y) -> bool:
    return x[1] <= y[2] and y[1] <= x[2]


def main(argv: list[str] | None = None) -> None:
    from analyzer.runner.play import KernelBackend
    from analyzer.stats.hygiene import ordered_groups
    from analyzer.studies.ladder import run_ladder
    from analyzer.studies.suite import budget

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[5, 6, 7])
    parser.add_argument("--scale", type=float, default=1.0, help="as make demo's SCALE")
    args = parser.parse_args(argv)
    deals = budget("ladder", args.scale)
    backend = KernelBackend()
    runs = {}
    for seed in args.seeds:
        t0 = time.perf_counter()
        runs[seed] = run_ladder(backend, ("ass", "jass"), games=deals, seed=seed)
        print(f"cardlab study ladder --games {deals} --seed {seed}: "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    for game in ("ass", "jass"):
        pairs = {s: _oriented(_game(r.table("pairs"), game)) for s, r in runs.items()}
        ratings = {s: _game(r.table("ratings"), game).set_index("strategy")
                   for s, r in runs.items()}
        keys = sorted(set.intersection(*(set(p) for p in pairs.values())))
        agree = [k for k in keys if all(_overlap(pairs[s][k], pairs[t][k])
                                        for s, t in itertools.combinations(args.seeds, 2))]
        opposite = [k for k in keys for s, t in itertools.combinations(args.seeds, 2)
                    if pairs[s][k][3] and pairs[t][k][3]
                    and (pairs[s][k][0] > 0) != (pairs[t][k][0] > 0)]
        names = sorted(set.intersection(*(set(r.index) for r in ratings.values())))
        same = [n for n in names if all(
            ratings[s].loc[n, "low"] <= ratings[t].loc[n, "high"]
            and ratings[t].loc[n, "low"] <= ratings[s].loc[n, "high"]
            for s, t in itertools.combinations(args.seeds, 2))]
        tops = {s: sorted(r.index[r["tier"] == r["tier"].min()]) for s, r in ratings.items()}
        print(f"\n{game}, 4 players, {deals} per seed, seeds {args.seeds}:")
        print(f"  strategy pairs whose 95% intervals of the difference overlap on every two "
              f"seeds: {len(agree)} of {len(keys)} ({len(agree) / len(keys):.1%})"
              + (f"; not: {', '.join(f'{a} - {b}' for a, b in keys if (a, b) not in agree)}"
                 if len(agree) < len(keys) else ""))
        print(f"  pairs clear in opposite directions on two seeds: {len(opposite)}"
              + (f" {sorted(set(opposite))}" if opposite else ""))
        print(f"  strategies whose rating intervals overlap on every two seeds: {len(same)} of "
              f"{len(names)}")
        for n in names:
            if n not in same:
                print(f"    not {n}: " + ", ".join(
                    f"seed {s} {ratings[s].loc[n, 'rating']:+.2f} [{ratings[s].loc[n, 'low']:+.2f},"
                    f" {ratings[s].loc[n, 'high']:+.2f}]" for s in args.seeds))
        regular = {s: r[~r["entrant"].astype(bool)] for s, r in ratings.items()}
        nexts = {s: sorted(r.index[r["tier"] == r["tier"].min()]) for s, r in regular.items()}
        for s, top in tops.items():
            print(f"  first group, seed {s}: {', '.join(top)}; without the entrants: "
                  f"{', '.join(nexts[s])}")
        plain = {}
        for s, r in ratings.items():  # the groups with margin 0: any clear difference cuts
            order = list(r.sort_values("rank").index)
            cut = {k: v[3] for k, v in pairs[s].items()}
            groups = ordered_groups(order, cut)
            plain[s] = sorted(x for x in order if groups[x] == 1)
        print("  first group counting any clear difference (--margin 0): "
              + "; ".join(f"seed {s} {', '.join(t)}" for s, t in plain.items()))
        print(f"  same first group on every seed: "
              f"{'yes' if len({tuple(t) for t in tops.values()}) == 1 else 'no'}; without "
              f"the entrants: {'yes' if len({tuple(t) for t in nexts.values()}) == 1 else 'no'}")


if __name__ == "__main__":
    main()

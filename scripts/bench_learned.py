"""Speed of the ``learned`` strategies: one learned seat among three ``basic``, 4 players, one
core, printed beside the same table with ``pimc`` in that seat and with ``basic`` alone, in
the same run, for both games (issue 23's speed target: at least 20,000 Who's the Ass?
games/s and 20,000 Plus-Minus Jass deals/s; Jass plays single deals).

Run: ``NUMBA_NUM_THREADS=1 .venv/bin/python scripts/bench_learned.py`` (``--games N`` for the
learned and basic tables, ``--pimc-games N`` for the search's, ``--repeats N``; ``--json``;
``--game ass|jass`` for one game only).
The figures are best-of-N games per CPU second (bench_common.rate): the steadier figure on a
shared machine; wall-clock figures beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_common import rate  # noqa: E402

TARGET = 20_000  # games (Jass: deals)/s of a table with one learned seat (issue 23)
UNITS = {"ass": "games", "jass": "deals"}
TITLES = {"ass": "Who's the Ass?", "jass": "Plus-Minus Jass (single deals)"}


def bench(games: int, pimc_games: int, repeats: int, game: str = "ass") -> dict:
    import importlib

    from analyzer.engines.kernel import RunSpec

    kernel = importlib.import_module(f"analyzer.engines.{game}.kernel")
    mode = {"mode": "deals"} if game == "jass" else {}

    tables = {
        "learned": (("learned", "basic", "basic", "basic"), games),
        "pimc": (("pimc", "basic", "basic", "basic"), pimc_games),
        "basic": (("basic", "basic", "basic", "basic"), games),
    }
    out = {}
    for name, (seats, count) in tables.items():
        spec = RunSpec(game, 4, seats, 1, **mode)
        kernel.play_chunk(spec, 0, 1)  # compile (or load) first
        cpu, wall = rate(lambda spec=spec, count=count: kernel.play_chunk(spec, 0, count),
                         count, repeats)
        out[name] = {"seats": list(seats), "games": count, "games_per_cpu_s": cpu,
                     "games_per_wall_s": wall}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--pimc-games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--game", choices=sorted(UNITS), action="append",
                        help="one game only (repeat for both; default both)")
    args = parser.parse_args(argv)
    every = {g: bench(args.games, args.pimc_games, args.repeats, g)
             for g in (args.game or ["ass", "jass"])}
    if args.json:
        print(json.dumps(every, indent=1))
        return
    for game, results in every.items():
        unit = UNITS[game]
        print(f"{TITLES[game]}, 4 players, one core: one seat as named, three basic")
        print(f"{'seat':<10}{unit:>10}{unit + '/CPU s':>14}{unit + '/wall s':>14}")
        for name, r in results.items():
            print(f"{name:<10}{r['games']:>10}{r['games_per_cpu_s']:>14,.0f}"
                  f"{r['games_per_wall_s']:>14,.0f}")
        speed = results["learned"]["games_per_cpu_s"]
        verdict = "met" if speed >= TARGET else "missed"
        print(f"learned: {speed:,.0f} {unit}/s against the target {TARGET:,}: {verdict}; "
              f"{speed / results['pimc']['games_per_cpu_s']:,.0f}x pimc's speed\n")


if __name__ == "__main__":
    main()

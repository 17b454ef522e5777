"""Two weights files of a game's ``learned``, paired on the same deals (matches).

``learned`` plays one seat at a table of FIELD, in each seat in turn on the same games (Jass:
matches) of SEED (the design of ``cardlab study compare -s learned --table FIELD``), once
with each weights file (each in a process of its own: numba freezes the weights into the
kernels). Per game the learned seats' mean result; the difference of the two files per
game, its mean and 95% interval over the games::

    NUMBA_NUM_THREADS=1 python scripts/compare_weights.py --game jass --field pimc \
        --players 4 --seed 61 --games 500 new.json strategies/jass/learned.json
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def one(game: str, field: str, players: int, seed: int, games: int, out: str) -> None:
    """Per seat and game: the learned seat's result (Jass: match won; Who's the Ass?:
    minus points), with the weights of this process's environment."""
    from analyzer.engines.kernel import RunSpec
    from analyzer.runner.api import collect

    metric = "won" if game == "jass" else "minus_points"
    res = []
    for seat in range(players):
        seats = tuple("learned" if s == seat else field for s in range(players))
        rows = collect(RunSpec(game, players, seats, seed), games, workers=1)
        mine = rows[rows["seat"] == seat].sort_values("index")
        res.append(mine[metric].to_numpy(dtype=float))
    np.save(out, np.array(res))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=("ass", "jass"), required=True)
    ap.add_argument("--field", required=True)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("weights", nargs="*")
    a = ap.parse_args()
    if a.one:
        one(a.game, a.field, a.players, a.seed, a.games, a.one)
        return
    if len(a.weights) != 2:
        sys.exit("give two weights files")
    env_name = f"CARDLAB_LEARNED_{a.game.upper()}"
    means = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, weights in enumerate(a.weights):
            out = os.path.join(tmp, f"{k}.npy")
            env = {**os.environ, env_name: os.path.abspath(weights)}
            env.pop("CARDLAB_NUMBA_CACHE", None)  # another weights file: its own cache
            subprocess.run([sys.executable, __file__, "--game", a.game, "--field", a.field,
                            "--players", str(a.players), "--seed", str(a.seed), "--games",
                            str(a.games), "--one", out], env=env, check=True, cwd=ROOT)
            means.append(np.load(out).mean(axis=0))  # per game, over the seats

    def half(v):
        return 1.96 * v.std(ddof=1) / np.sqrt(len(v))

    d = means[0] - means[1]
    unit = "matches" if a.game == "jass" else "games"
    for name, m in zip(a.weights, means, strict=True):
        print(f"{name}: {m.mean():.3f} ± {half(m):.3f}")
    print(f"first minus second: {d.mean():+.3f} ± {half(d):.3f} (paired over {len(d)} {unit}, "
          f"learned in each of {a.players} seats at a table of {a.field}, seed {a.seed})")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()

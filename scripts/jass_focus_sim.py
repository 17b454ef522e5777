"""How should Plus-Minus Jass ``pimc`` spend its worlds? The ``focus`` settings side by side.

On the positions of ``scripts/bench_advice.py`` (games where every seat plays ``pimc``; every
``--stride``-th non-forced move, ``--positions`` per player count, 3 and 4 players), each
position is analysed once at the analysis's default worlds, and for each of ``--pimc-seeds``
seeds of ``pimc`` its own stream draws ``--max-worlds`` worlds, every card valued in each
(strategies/jass/search.py ``world_values``: exactly the worlds and values the focused search
draws). Every setting is then replayed on those values (``focus_choice_py``, the focused
search's rule; plain search: the best mean over the first ``worlds`` worlds) and compared
with the analysis as the benchmark compares (the analysis's best, or within noise of it).

Printed per setting and player count: the share that agrees, and its time relative to plain
search on 14 worlds, estimated from the worlds drawn and the leaves played (a world's draw
counted as ``--world-cost`` leaves; measure the real speed with scripts/bench_strongest.py).

``--anatomy`` also takes apart the disagreements of the shipped setting (``pimc``'s defaults:
its worlds at the player count, its ``focus``): where the search stopped (its budget or its
world cap spent) while a card that agrees was still in play (more leaves would have found
it), and where every card that agrees had been dropped, within the first worlds or later
(the drop rule's errors); and the share that agrees by the trick of the deal.

Run: ``NUMBA_NUM_THREADS=1 .venv/bin/python scripts/jass_focus_sim.py --seed 1`` (about two
minutes). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_advice import _agrees, jass_positions  # noqa: E402

from analyzer.analysis import jass  # noqa: E402
from analyzer.analysis.jass import PIMC_STREAM, legal_cards, pimc_prm  # noqa: E402
from analyzer.games.jass.cards import card_name  # noqa: E402
from analyzer.games.jass.primitives import S_N, S_TRICK  # noqa: E402
from analyzer.rng import new_state, seed_state  # noqa: E402
from strategies.jass.knobs import P_FOCUS, WORLDS_BY_PLAYERS  # noqa: E402
from strategies.jass.search import focus_choice_py, focus_first, world_values  # noqa: E402

BUDGETS = (14, 16, 18, 20, 22)
ZS = (1.5, 2.0, 2.5)


def plain(values, nc: int, worlds: int) -> tuple[int, int, int]:
    """Plain search on the first ``worlds`` worlds: (choice, worlds, leaves)."""
    means = values[:worlds, :nc].mean(axis=0)
    return int(np.argmax(means)), worlds, worlds * nc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=100, help="per player count")
    ap.add_argument("--stride", type=int, default=3)
    ap.add_argument("--pimc-seeds", type=int, default=3)
    ap.add_argument("--max-worlds", type=int, default=0,
                    help="worlds drawn per position and pimc seed (default: 3 x the largest "
                         "budget, the shipped ones too with --anatomy, as many as the "
                         "focused search may draw)")
    ap.add_argument("--budgets", default=",".join(map(str, BUDGETS)),
                    help="focused budgets (worlds) to replay, comma-separated")
    ap.add_argument("--zs", default=",".join(map(str, ZS)), help="focus settings z to replay")
    ap.add_argument("--world-cost", type=float, default=0.6,
                    help="a world's draw in leaves (measured: 0.4 to 0.7)")
    ap.add_argument("--anatomy", action="store_true",
                    help="take apart the shipped setting's disagreements (module docstring)")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    zs = [float(z) for z in args.zs.split(",")]
    shipped = [w for _, w in WORLDS_BY_PLAYERS] if args.anatomy else []
    args.max_worlds = args.max_worlds or 3 * max(budgets + shipped)
    settings = {f"plain {w}": (lambda v, nc, w=w: plain(v, nc, w)) for w in (14, 18, 28)}
    for b in budgets:
        for z in zs:
            settings[f"focus={z} worlds={b}"] = (
                lambda v, nc, b=b, z=z: focus_choice_py(v, nc, b, z))
    picked = []
    for n in (3, 4):
        gen = jass_positions(args.seed, n, args.stride)
        picked += [next(gen) for _ in range(args.positions)]
    prm = pimc_prm()
    stats = {(k, n): [0, 0.0, 0] for k in settings for n in (3, 4)}
    anatomy = Anatomy(float(prm[P_FOCUS]))
    for i, (pos, _, _) in enumerate(picked):
        n = int(pos.st[S_N])
        moves = jass.analyze(pos, jass.DEFAULT_WORLDS, args.seed, i)["moves"]
        legal = np.uint64(sum(1 << c for c in legal_cards(pos)))
        for s in range(args.pimc_seeds):
            rng = new_state()
            seed_state(rng, 1000 + s, i, PIMC_STREAM)
            cands, nc, values = world_values(prm, pos.seat, np.uint64(pos.hand), legal,
                                             pos.st.copy(), pos.played.copy(),
                                             pos.taken.copy(), rng, args.max_worlds)
            base = args.world_cost * 14 + 14 * nc
            for name, rule in settings.items():
                choice, worlds, leaves = rule(values, nc)
                st = stats[(name, n)]
                st[0] += _agrees("jass", moves, card_name(int(cands[choice])))
                st[1] += (args.world_cost * worlds + leaves) / base
                st[2] += 1
            if args.anatomy:
                agrees = [_agrees("jass", moves, card_name(int(c))) for c in cands[:nc]]
                anatomy.add(pos, values, nc, agrees)
    print(f"seed {args.seed}: {len(picked)} positions x {args.pimc_seeds} pimc seeds, "
          f"analysis at {jass.DEFAULT_WORLDS} worlds")
    print(f"{'':24s} {'agrees, 3 players':>18s} {'4 players':>10s} {'both':>7s}   "
          "time vs plain 14 (3 / 4 players)")
    for name in settings:
        a3, t3, c3 = stats[(name, 3)]
        a4, t4, c4 = stats[(name, 4)]
        print(f"{name:24s} {a3 / c3:18.1%} {a4 / c4:10.1%} {(a3 + a4) / (c3 + c4):7.1%}   "
              f"{t3 / c3:.2f} / {t4 / c4:.2f}")
    if args.anatomy:
        anatomy.report()


class Anatomy:
    """The shipped setting's disagreements taken apart (module docstring), per player count."""

    KINDS = ("stopped with a card that agrees in play",
             "every card that agrees dropped in the first worlds",
             "every card that agrees dropped later")

    def __init__(self, z: float) -> None:
        self.z = z
        self.kinds = {n: dict.fromkeys(self.KINDS, 0) for n in (3, 4)}
        self.by_trick = {n: {} for n in (3, 4)}  # two tricks at a time: [agree, decisions]

    def add(self, pos, values, nc: int, agrees: list[bool]) -> None:
        n = int(pos.st[S_N])
        worlds = dict(WORLDS_BY_PLAYERS)[n]
        dropped: dict[int, int] = {}
        choice, _, _ = focus_choice_py(values, nc, worlds, self.z, dropped)
        cell = self.by_trick[n].setdefault(int(pos.st[S_TRICK]) // 2, [0, 0])
        cell[0] += agrees[choice]
        cell[1] += 1
        if agrees[choice]:
            return
        ok = [i for i in range(nc) if agrees[i]]
        if any(i not in dropped for i in ok):
            kind = 0
        elif min(dropped[i] for i in ok) <= focus_first(worlds):
            kind = 1
        else:
            kind = 2
        self.kinds[n][self.KINDS[kind]] += 1

    def report(self) -> None:
        for n, worlds in WORLDS_BY_PLAYERS:
            cells = sorted(self.by_trick[n].items())
            decisions = sum(t for _, (_, t) in cells)
            if not decisions:
                continue
            wrong = decisions - sum(a for _, (a, _) in cells)
            parts = ", ".join(f"{k} {c}" for k, c in self.kinds[n].items())
            tricks = ", ".join(f"tricks {2 * b + 1}-{2 * b + 2}: {a / t:.1%} of {t}"
                               for b, (a, t) in cells)
            print(f"{n} players, shipped setting (focus={self.z:g} worlds={worlds}): "
                  f"{wrong} of {decisions} decisions disagree: {parts}. "
                  f"Agrees by trick: {tricks}")

if __name__ == "__main__":
    main()

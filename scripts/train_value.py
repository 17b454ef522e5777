"""Train a game's value model (strategies/<game>/value.py), the evaluation of
``pimc:rollout=value`` (pimc's default), and write its weights file.

    .venv/bin/python scripts/train_value.py                     # Who's the Ass?, shipped size
    .venv/bin/python scripts/train_value.py --game jass         # Plus-Minus Jass, shipped size
    .venv/bin/python scripts/train_value.py --players 4 --leaves 200000 --out /tmp/v.json

The data and the fit are analyzer/learn/ass_value.py's and analyzer/learn/jass_value.py's:
leaves of games (Jass: single deals) of ``learned`` (seed ``--seed``, games 0, 1, ... until
``--leaves`` leaves per player count), each labelled with the decider's result (minus points
at the end of the game; sticks from the deal) under ``learned`` play to the end, and one
network per player count. The same arguments give the same file, bit for bit, on one
machine. The file is written next to its destination and moved into place when complete; an
existing file is replaced only with ``--force`` (the shipped ones:
strategies/<game>/value.json).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("ass", "jass"), default="ass",
                        help="the game (default ass)")
    parser.add_argument("--players", default=None,
                        help="player counts, e.g. 4,6 or 3-12 (default: every count, Who's "
                             "the Ass? 3-12, Jass 3-4)")
    parser.add_argument("--leaves", type=int, default=3_000_000,
                        help="training leaves per player count (default 3,000,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument("--finisher", choices=("basic", "learned"), default="learned",
                        help="Who's the Ass?: who plays out a leaf's round, in training and in "
                             "the search (default learned; Jass: always learned)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the weights file to write (default: the game's shipped one)")
    parser.add_argument("--force", action="store_true", help="replace an existing --out")
    args = parser.parse_args(argv)
    out = args.out or ROOT / f"strategies/{args.game}/value.json"
    try:
        players = _counts(args.players or ("3-12" if args.game == "ass" else "3-4"),
                          *((3, 12) if args.game == "ass" else (3, 4)))
    except ValueError as exc:
        parser.exit(2, f"train_value.py: {exc}\n")
    if args.leaves < 1000:
        parser.exit(2, f"train_value.py: --leaves must be at least 1000; got {args.leaves}\n")
    if args.game == "jass" and args.finisher != "learned":
        parser.exit(2, "train_value.py: --finisher: Jass's value model is always finished by "
                       "learned\n")
    if out.exists() and not args.force:
        parser.exit(2, f"train_value.py: {out} exists; add --force to replace it\n")
    if not out.parent.is_dir():
        parser.exit(2, f"train_value.py: no folder {out.parent} for --out\n")
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from analyzer.learn.train import git_commit

    if args.game == "ass":
        from analyzer.learn.ass_value import train
        from strategies.ass.value_weights import MODEL
    else:
        from analyzer.learn.jass_value import train
        from strategies.jass.value_weights import MODEL

    began = time.perf_counter()
    command = "python scripts/train_value.py " + shlex.join(
        a for a in (argv if argv is not None else sys.argv[1:]) if a != "--force")
    print(f"training the {args.game} value model: players "
          f"{','.join(map(str, players))}, {args.leaves:,} leaves each, seed {args.seed}")
    flat, facts = (train(players, args.leaves, args.seed, args.finisher) if args.game == "ass"
                   else train(players, args.leaves, args.seed))
    provenance = {"command": command.strip(), "seed": args.seed, "players": players,
                  "finisher": args.finisher,
                  "leaves": args.leaves, "per_players": facts, "commit": git_commit()}
    tmp = out.with_name(f".{out.name}.part")
    tmp.write_text(MODEL.text(flat, provenance), encoding="utf-8")
    os.replace(tmp, out)
    print(f"wrote {out} ({time.perf_counter() - began:.0f} s)")
    return 0


def _counts(text: str, low: int = 3, high: int = 12) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise ValueError(f"--players must be counts like 4,6 or 3-12; got {text!r}") from None
        if not low <= a <= b <= high:
            raise ValueError(f"--players must lie within {low}-{high}; got {text!r}")
        out += [n for n in range(a, b + 1) if n not in out]
    return out


if __name__ == "__main__":
    sys.exit(main())

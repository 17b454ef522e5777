"""Train Who's the Ass?'s value model (strategies/ass/value.py), the evaluation of
``pimc:rollout=value``, and write its weights file.

    .venv/bin/python scripts/train_value.py                     # every player count, shipped size
    .venv/bin/python scripts/train_value.py --players 4 --leaves 200000 --out /tmp/v.json

The data and the fit are analyzer/learn/ass_value.py's: leaves of games of ``learned`` (seed
``--seed``, games 0, 1, ... until ``--leaves`` leaves per player count), each labelled with
the decider's minus points under ``learned`` play to the end, and one network per player
count. The same arguments give the same file, bit for bit, on one machine. The file is
written next to its destination and moved into place when complete; an existing file is
replaced only with ``--force`` (the shipped one: strategies/ass/value.json).
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
    parser.add_argument("--players", default="3-12",
                        help="player counts, e.g. 4,6 or 3-12 (default 3-12)")
    parser.add_argument("--leaves", type=int, default=3_000_000,
                        help="training leaves per player count (default 3,000,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument("--finisher", choices=("basic", "learned"), default="learned",
                        help="who plays out a leaf's round, in training and in the search "
                             "(default learned)")
    parser.add_argument("--out", type=Path, default=ROOT / "strategies/ass/value.json",
                        help="the weights file to write (default: the shipped one)")
    parser.add_argument("--force", action="store_true", help="replace an existing --out")
    args = parser.parse_args(argv)
    try:
        players = _counts(args.players)
    except ValueError as exc:
        parser.exit(2, f"train_value.py: {exc}\n")
    if args.leaves < 1000:
        parser.exit(2, f"train_value.py: --leaves must be at least 1000; got {args.leaves}\n")
    if args.out.exists() and not args.force:
        parser.exit(2, f"train_value.py: {args.out} exists; add --force to replace it\n")
    if not args.out.parent.is_dir():
        parser.exit(2, f"train_value.py: no folder {args.out.parent} for --out\n")
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from analyzer.learn.ass_value import train
    from analyzer.learn.train import git_commit
    from strategies.ass.value_weights import MODEL

    began = time.perf_counter()
    command = "python scripts/train_value.py " + shlex.join(
        a for a in (argv if argv is not None else sys.argv[1:]) if a != "--force")
    print(f"training the value model: players {args.players}, {args.leaves:,} leaves each, "
          f"seed {args.seed}")
    flat, facts = train(players, args.leaves, args.seed, args.finisher)
    provenance = {"command": command.strip(), "seed": args.seed, "players": players,
                  "finisher": args.finisher,
                  "leaves": args.leaves, "per_players": facts, "commit": git_commit()}
    tmp = args.out.with_name(f".{args.out.name}.part")
    tmp.write_text(MODEL.text(flat, provenance), encoding="utf-8")
    os.replace(tmp, args.out)
    print(f"wrote {args.out} ({time.perf_counter() - began:.0f} s)")
    return 0


def _counts(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise ValueError(f"--players must be counts like 4,6 or 3-12; got {text!r}") from None
        if not 3 <= a <= b <= 12:
            raise ValueError(f"--players must lie within 3-12; got {text!r}")
        out += [n for n in range(a, b + 1) if n not in out]
    return out


if __name__ == "__main__":
    sys.exit(main())

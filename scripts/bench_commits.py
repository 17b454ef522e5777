"""Is this checkout faster than an earlier commit, playing the same games? Both in one process.

On a shared machine the speed of a process moves by more than most changes worth making
(runs of one commit apart by 20 to 40% on the 2-core machine): timed in separate processes,
a change of 10% is lost in that. Here the earlier commit's ``analyzer``, ``strategies`` and
``cardlab`` packages are exported (``git archive``) and imported under other names
(``base_analyzer``, ...: every import rewritten), beside this checkout's, and the same games
are played by both in alternation, in many short pairs on one core: each pair meets the same
moment of the machine (pairs of a second or more no longer do: their ratios spread by 20%).
Printed: games per CPU second of each side, the time ratio of the pairs (base / this
checkout: above 1, this checkout is faster), their median and middle half, the peak memory
of the process, and whether both played the same games (the rows of every game the same: a
speed change should not change a card).

Run: ``NUMBA_NUM_THREADS=1 .venv/bin/python scripts/bench_commits.py --base HEAD~1 --game
jass --players 4 -s pimc -s aim-low`` (the seats: each ``-s`` one seat, the last repeated to
fill the table; ``--mode deals|matches`` for Jass). The first pair compiles both sides (or
loads their cached kernels) and is not counted. A benchmark, not a test: the numbers depend
on the machine.
"""

from __future__ import annotations

import argparse
import importlib
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PACKAGES = ("analyzer", "strategies", "cardlab")
PREFIX = "base_"


def rename(text: str) -> str:
    """Python source with its imports of PACKAGES pointing at the renamed copies: ``from``
    statements, ``import`` statements (a bare ``import analyzer`` keeps its name with
    ``as``), and the module names given to importlib as strings. Nothing else is touched (a
    variable may be called ``strategies``)."""
    names = "|".join(PACKAGES)
    text = re.sub(rf"^(\s*)from ({names})([. ])", rf"\1from {PREFIX}\2\3", text, flags=re.M)
    text = re.sub(rf"^(\s*)import ({names})(\.[\w.]+ as )", rf"\1import {PREFIX}\2\3", text,
                  flags=re.M)
    text = re.sub(rf"^(\s*)import ({names})\b(?![.\w])", rf"\1import {PREFIX}\2 as \2", text,
                  flags=re.M)
    return re.sub(rf"""(["'])({names})\.""", rf"\1{PREFIX}\2.", text)


def export(rev: str) -> Path:
    """The packages of commit ``rev``, renamed (data files as they are), in a folder of the
    system's temporary folder named by the commit, made once: a later run with the same base
    loads its compiled kernels from numba's cache instead of compiling them again."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         capture_output=True, text=True, check=False)
    if sha.returncode != 0:
        print(f"bench_commits.py: --base {rev} is no commit of this repository; give a "
              "commit, branch or tag (e.g. HEAD~1)", file=sys.stderr)
        raise SystemExit(2)
    into = Path(tempfile.gettempdir()) / f"cardlab-base-{sha.stdout.strip()}"
    if (into / f"{PREFIX}cardlab").is_dir():
        return into
    work = Path(tempfile.mkdtemp(prefix="cardlab-base-", dir=into.parent))
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", sha.stdout.strip(), *PACKAGES],
                         capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(work)], input=tar.stdout, check=True)
    for name in PACKAGES:
        (work / name).rename(work / f"{PREFIX}{name}")
    for path in work.rglob("*.py"):
        path.write_text(rename(path.read_text(encoding="utf-8")), encoding="utf-8")
    try:
        work.rename(into)  # complete, or not there: a run stopped halfway leaves no base
    except OSError:  # another run made it meanwhile
        shutil.rmtree(work, ignore_errors=True)
    return into


def play(module, args) -> tuple[float, object]:
    """One table's games with ``module`` (cardlab or its base copy): CPU seconds and rows."""
    extra = {"mode": args.mode} if args.game == "jass" else {}
    t = time.process_time()
    rows = module.simulate(args.game, args.players, seats(args), games=args.games,
                           seed=args.seed, workers=1, **extra)
    return time.process_time() - t, rows


def check_table(args) -> str | None:
    """The one-line reason this checkout would refuse the table (players, seats, seed),
    or None: the check cardlab.simulate makes, made before any work."""
    from analyzer.engines.kernel import RunSpec, kernel_module
    from analyzer.errors import CardlabError
    from analyzer.games import registry

    mode = args.mode if args.game == "jass" else registry.get(args.game).default_mode
    try:
        kernel_module(args.game).validate(RunSpec(args.game, args.players, tuple(seats(args)),
                                                  args.seed, mode, {}))
    except CardlabError as exc:
        return str(exc)
    return None


def seats(args) -> list[str]:
    named = list(args.strategy or ["pimc"])
    return (named + [named[-1]] * args.players)[:args.players]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the earlier commit (any git revision)")
    parser.add_argument("--game", choices=("ass", "jass"), default="jass")
    parser.add_argument("--players", type=int, default=4, help="players at the table")
    parser.add_argument("-s", "--strategy", action="append",
                        help="a seat's strategy (the last fills the table; default pimc)")
    parser.add_argument("--mode", choices=("deals", "matches"), default="deals",
                        help="Jass: single deals or whole matches")
    parser.add_argument("--games", type=int, default=200, help="games (deals, matches) a side "
                        "plays per pair: short pairs share the machine's moment best")
    parser.add_argument("--pairs", type=int, default=40, help="pairs timed (after one that "
                        "compiles or loads both sides' kernels)")
    parser.add_argument("--seed", type=int, default=1, help="the games' seed (both sides play "
                        "games 0, 1, ... of it)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.pairs < 1:
        parser.error("--games and --pairs: 1 or more")
    refusal = check_table(args)
    if refusal:  # before any export or compile
        print(f"bench_commits.py: {refusal}", file=sys.stderr)
        return 2
    import cardlab

    sys.path.insert(0, str(export(args.base)))
    base = importlib.import_module(f"{PREFIX}cardlab")
    sides = {"base": base, "this": cardlab}
    first = {name: play(module, args)[1] for name, module in sides.items()}  # compiles
    same = first["base"].equals(first["this"])
    times: dict[str, list[float]] = {"base": [], "this": []}
    for k in range(args.pairs):
        order = ("base", "this") if k % 2 == 0 else ("this", "base")
        for name in order:
            spent, rows = play(sides[name], args)
            times[name].append(spent)
            same = same and rows.equals(first[name])
    ratios = [b / t for b, t in zip(times["base"], times["this"], strict=True)]
    unit = "games" if args.game == "ass" else args.mode
    print(f"{args.game}, {args.players} players, seats {', '.join(seats(args))}, seed "
          f"{args.seed}; {args.pairs} pairs of {args.games} {unit} a side, interleaved, one "
          f"process; base {args.base}")
    for name in ("base", "this"):
        rate = args.games / np.median(times[name])
        print(f"  {name:5} {rate:10,.1f} {unit}/CPU s (median of the pairs)")
    if len(ratios) <= 12:
        print(f"  time base / this, per pair: {' '.join(f'{r:.3f}' for r in ratios)}")
    low, mid, high = np.percentile(ratios, [25, 50, 75])
    print(f"  time base / this: median {mid:.3f} of {len(ratios)} pairs, the middle half "
          f"{low:.3f} to {high:.3f} (above 1: this checkout is faster); the same games: "
          f"{'yes' if same else 'NO'}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory of the process {peak:,.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

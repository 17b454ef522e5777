"""Which jitted functions numba's cache holds in more than one compiled copy, and why.

numba compiles a function once per signature, and a literal argument (``-1``, ``0``,
``False``, a module constant such as ``OBJ_DEAL``) is a type of its own: a caller that passes
one compiles a copy of the callee (and of whatever the literal reaches below it) that no
other caller shares. On a cold cache each copy costs seconds to tens of seconds of compile.
This script reads the cache's index files after a run (``make test`` or any command) and
lists every function with several signatures, the literal arguments marked, so that an
unintended copy is found in seconds::

    .venv/bin/python scripts/compile_variants.py            # this checkout's cache folder
    .venv/bin/python scripts/compile_variants.py --all      # every signature, not only copies
    .venv/bin/python scripts/compile_variants.py PATH       # another cache folder

Some copies are made on purpose: the play loops' variants (``None`` against a value for the
search, the records, a table of ``basic`` alone), the Jass basic loop's per-player-count
copies (``UniTuple(int64, n)``) and small helpers specialised by literal flags
(``pick_extreme``). A literal in a big function's signature is the one to look at.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def signatures(index: Path) -> list[str]:
    """The signatures stored in one numba index file (``*.nbi``)."""
    with index.open("rb") as f:
        pickle.load(f)  # numba's version stamp
        _, overloads = pickle.loads(f.read())
    return [str(key[0]) for key in overloads]


def variants(folder: Path) -> dict[str, list[str]]:
    """``{"<module folder>/<file.function>": [signature, ...]}`` for every index in ``folder``."""
    out = {}
    for index in sorted(folder.rglob("*.nbi")):
        name = index.name.split(".py")[0].rsplit("-", 1)[0]  # e.g. rollout.play_on
        out[f"{index.parent.name.split('_')[0]}/{name}"] = signatures(index)
    return out


def default_folder() -> Path:
    """This checkout's current cache folder (analyzer/numba_env.py picks it)."""
    sys.path.insert(0, str(ROOT))
    from analyzer.numba_env import PACKAGE_ROOT, choose_cache_dir

    return Path(choose_cache_dir(PACKAGE_ROOT, dict(os.environ)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path,
                        help="a numba cache folder (default: this checkout's current one)")
    parser.add_argument("--all", action="store_true", help="list every function's signatures")
    args = parser.parse_args(argv)
    folder = args.folder or default_folder()
    if not folder.is_dir():
        print(f"error: no cache folder at {folder}; run make test (or a command) first",
              file=sys.stderr)
        return 2
    try:
        found = variants(folder)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError) as err:
        print(f"error: {folder} holds an index file numba did not write ({err}); pass a numba "
              "cache folder", file=sys.stderr)
        return 2
    several = {k: v for k, v in found.items() if len(v) > 1}
    shown = found if args.all else several
    literal = 0
    for name, sigs in sorted(shown.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"{len(sigs)}  {name}")
        for sig in sigs:
            mark = "  literal" if "Literal[" in sig else ""
            literal += bool(mark)
            print(f"     {sig}{mark}")
    print(f"{len(found)} functions in {folder}; {len(several)} compiled more than once; "
          f"{literal} of the signatures shown have a literal argument")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

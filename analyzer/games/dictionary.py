"""The data dictionary: every result column of every game and mode, from the descriptions.

``docs/data-dictionary.md`` is this module's :func:`markdown`, written by
``python -m analyzer.games.dictionary --write`` (a test fails when the page and the
descriptions disagree, or when a column has no unit or range). The columns are declared
once, in each game's ``description.py`` (:class:`analyzer.games.registry.Column`); the kernels
return exactly them, and a run folder's Parquet parts hold them in the same order.

>>> from analyzer.games.dictionary import rows
>>> next(r for r in rows() if r["column"] == "points")["range"]
'0 to 157'
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from analyzer.games import registry

PAGE = Path(__file__).resolve().parents[2] / "docs" / "data-dictionary.md"

HEADER = """# Data dictionary: the columns of a run's rows

[Back to the README](../README.md)

Generated from the game descriptions (`analyzer/games/<game>/description.py`) by
`python -m analyzer.games.dictionary --write`; `tests/test_data_dictionary.py` fails when a
column is missing here, has no unit or range, or a run writes a value outside its range.

A run folder (`cardlab simulate ... --out RUN`) holds one row per seat (or player) of each
game, match or deal, with exactly the columns below, in this order. Load a finished run with
`pandas.read_parquet("RUN")`; `cardlab summarize RUN` first tells you whether it is finished
and undamaged (an interrupted run has only its finished parts). The seats' strategies are in
`RUN/_manifest.json` ("strategies", one per seat). *Per unit* columns describe the whole
game, match or deal: every seat's row repeats the same value. Ranges are what the rules
allow; a row's identity is (the run's seed, `index`, `seat`).
"""


def rows() -> list[dict[str, str]]:
    """One dict per (game, mode, column): game, mode, column, dtype, unit, range, per, meaning."""
    out = []
    for name in registry.names():
        game = registry.get(name)
        for mode in game.modes:
            for column in (*mode.columns, *mode.details):
                out.append({
                    "game": name, "mode": mode.name, "column": column.name,
                    "dtype": column.dtype, "unit": column.unit, "range": column.range_text(),
                    "per": "unit" if column.per_unit else mode.row_name,
                    "meaning": column.description,
                })
    return out


def missing() -> list[str]:
    """"game/mode/column" of every column without a unit, or without a lower bound where
    its type is a number: what the dictionary cannot document."""
    bad = []
    for name in registry.names():
        for mode in registry.get(name).modes:
            for c in (*mode.columns, *mode.details):
                if not c.unit or (c.dtype != "bool" and c.low is None):
                    bad.append(f"{name}/{mode.name}/{c.name}")
    return bad


def _table(columns, unit: str, row_name: str) -> str:
    """A markdown table of ``columns``; a per-unit column is "per" ``unit``, others
    ``row_name``."""
    lines = ["| column | type | unit | range | per | meaning |", "|---|---|---|---|---|---|"]
    lines += [f"| `{c.name}` | {c.dtype} | {c.unit} | {c.range_text()} | "
              f"{unit if c.per_unit else row_name} | {c.description} |" for c in columns]
    return "\n".join(lines) + "\n"


def markdown() -> str:
    """The whole page, as docs/data-dictionary.md holds it."""
    parts = [HEADER]
    for name in registry.names():
        game = registry.get(name)
        for mode in game.modes:
            parts.append(f"\n## {game.title}: {mode.name} (`--{mode.name}`)\n\n"
                         f"{mode.description[:1].upper() + mode.description[1:]}: one row "
                         f"per {mode.row_name} of each {mode.unit}.\n\n"
                         + _table(mode.columns, mode.unit, mode.row_name))
            if mode.details:
                parts.append(f"\n## {game.title}: each {mode.detail_unit} of the "
                             f"{mode.name} (`cardlab.match_details`)\n\n"
                             f"On request, from Python ([python.md](python.md)): one row per "
                             f"{mode.row_name} of each {mode.detail_unit} of each {mode.unit}, "
                             f"the same {mode.name} as the rows above.\n\n"
                             + _table(mode.details, mode.detail_unit, mode.row_name))
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print or write docs/data-dictionary.md.")
    parser.add_argument("--write", action="store_true", help=f"write {PAGE}")
    args = parser.parse_args(argv)
    text = markdown()
    if args.write:
        PAGE.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

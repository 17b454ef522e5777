"""Claims: what the report asserts, as data, checked cell by cell against the study's table.

A *claim* is one sentence a reader sees ("at 4 players, fix the suit with the most points")
together with every *cell* it speaks for: one combination of player count, rule set, field
and aim, the option it recommends there (``choice``, spelled as in the study's table), the
number behind it with its interval, and whether the statement is true there (``holds``).
A claim is only ever made for the cells where it holds; where the best choice differs
between cells, the report makes one claim per group of agreeing cells instead of pooling
(pooling can reverse the answer: Simpson's paradox).

Statements (``kind``):

- ``best``: ``choice`` has the best value of ``metric`` among the options of the cell
  (``better`` says whether lower or higher is better);
- ``top-group``: ``choice`` is in the first group of the ladder (``tier`` 1) of the cell;
- ``positive`` / ``negative``: the cell's difference is clearly above / below 0 (its 95%
  interval excludes 0);
- ``unclear``: the cell's difference is not clear (its interval contains 0).

:func:`check` re-reads each cell from the study's table (nothing is taken from the claim but
its keys) and lists what does not hold; the report prints only claims that pass and turns the
others into alerts naming the cells. Every claim is written to ``data/findings.json``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import pandas as pd

from analyzer.stats.hygiene import selected_interval
from analyzer.studies.results import StudyResult

KINDS = ("best", "top-group", "positive", "negative", "unclear")
FORMAT = "cardlab-findings/1"


@dataclass(frozen=True)
class Cell:
    """One cell a claim speaks for, with the number behind it and whether it holds there."""

    players: int
    ruleset: str | None
    field: str | None
    aim: str | None
    choice: str
    metric: str
    value: float
    low: float
    high: float
    holds: bool


@dataclass(frozen=True)
class Claim:
    """A sentence and every cell it covers. ``table`` names the study table the cells are
    read from, ``kind`` the statement (module docstring), ``better`` its direction for
    ``best``, ``against`` the option a difference is taken against (``positive``,
    ``negative``, ``unclear``); ``extra`` may name the table's option column (``key``),
    options to leave out (``exclude``), rows to keep (``where``: column -> value, e.g. the
    policy of a table of several), and, for a cell picked as the largest of several,
    how many it was picked from (``family``: its interval is then Bonferroni's)."""

    id: str
    question: str
    sentence: str
    game: str
    study: str
    command: str
    kind: str
    table: str
    cells: tuple[Cell, ...]
    better: str = "lower"
    against: str | None = None
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = asdict(self)
        out["cells"] = [_clean(asdict(c)) for c in self.cells]
        return out


def _clean(cell: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in cell.items()}


# ------------------------------------------------------------------------ reading a cell
def _rows(table: pd.DataFrame, cell: Cell, players_col: str = "players") -> pd.DataFrame:
    """The rows of ``table`` in ``cell`` (player count, and rule set and aim where the table
    has them)."""
    t = table[table[players_col] == cell.players]
    if cell.ruleset is not None and "ruleset" in t:
        t = t[t["ruleset"].astype(str) == cell.ruleset]
    if cell.aim is not None and "aim" in t:
        t = t[t["aim"].astype(str) == cell.aim]
    if cell.field is not None and "chooser" in t:  # each chooser plays a table of its own
        t = t[t["chooser"].astype(str) == cell.field]
    elif cell.field is not None and "field" in t:  # a table of several fields (jokers)
        t = t[t["field"].astype(str) == cell.field]
    return t


def _options(claim: Claim, cell: Cell, result: StudyResult) -> tuple[pd.DataFrame, str]:
    """The options of ``cell`` as rows with columns choice, value, low, high (and tier)."""
    table = result.table(claim.table)
    rows = _rows(table, cell)
    if "game" in rows and claim.game:
        rows = rows[rows["game"].astype(str) == claim.game]
    for column, value in (claim.extra.get("where") or {}).items():
        rows = rows[rows[column].astype(str) == str(value)]
    key = claim.extra.get("key") or next(c for c in ("rule", "strategy", "seat", "a")
                                         if c in rows)
    if key == "a":  # a table of differences: the cell's row is choice - against
        rows = rows[(rows["a"].astype(str) == cell.choice)
                    & (rows["b"].astype(str) == str(claim.against))]
        return pd.DataFrame({"choice": rows["a"].astype(str), "value": rows["difference"],
                             "low": rows["low"], "high": rows["high"]}), key
    metric = cell.metric
    low = f"{metric}_low" if f"{metric}_low" in rows else "low"
    high = f"{metric}_high" if f"{metric}_high" in rows else "high"
    out = pd.DataFrame({"choice": rows[key].astype(str), "value": rows[metric],
                        "low": rows[low], "high": rows[high]})
    if "tier" in rows:
        out["tier"] = rows["tier"]
    if claim.extra.get("exclude"):
        out = out[~out["choice"].isin(claim.extra["exclude"])]
    return out, key


def read_cell(claim: Claim, cell: Cell, result: StudyResult) -> tuple[float, float, float, bool]:
    """(value, low, high, holds) of ``cell`` as the study's table says (KeyError where the
    table has no such cell)."""
    options, _ = _options(claim, cell, result)
    mine = options[options["choice"] == cell.choice]
    if len(mine) != 1:
        raise KeyError(f"{claim.table} has no single row for {cell.choice!r} at "
                       f"{_where(cell)}")
    row = mine.iloc[0]
    value, low, high = float(row["value"]), float(row["low"]), float(row["high"])
    family = int(claim.extra.get("family", 1))
    if family > 1:  # the cell was picked as the largest of `family`: Bonferroni's interval
        low, high = selected_interval(value, low, high, family)
    if claim.kind == "best":
        values = options["value"].astype(float)
        target = values.min() if claim.better == "lower" else values.max()
        holds = value == target
    elif claim.kind == "top-group":
        holds = int(row["tier"]) == int(options["tier"].min())
    elif claim.kind == "positive":
        holds = low > 0
    elif claim.kind == "negative":
        holds = high < 0
    elif claim.kind == "unclear":
        holds = low <= 0 <= high
    else:
        raise ValueError(f"unknown claim kind {claim.kind!r}; kinds: {', '.join(KINDS)}")
    return value, low, high, bool(holds)


def _where(cell: Cell) -> str:
    parts = [f"{cell.players} players"]
    if cell.ruleset:
        parts.append(f"rule set {cell.ruleset}")
    if cell.field:
        parts.append(f"field {cell.field}")
    if cell.aim and cell.aim != "n/a":
        parts.append(f"aim {cell.aim}")
    return ", ".join(parts)


def probe(game: str, study: str, kind: str, table: str, **kw) -> Claim:
    """A claim without words or cells, to read cells with (:func:`make_cell`): what it
    states (``kind``, ``better``, ``against``, ``extra``) decides whether a cell holds."""
    return Claim("", "", "", game, study, "", kind, table, (), **kw)


def make_cell(claim: Claim, result: StudyResult, players: int, choice: str, metric: str,
              ruleset: str | None = None, field_: str | None = None,
              aim: str | None = None) -> Cell:
    """A cell of ``claim`` with its number and truth read from the table."""
    cell = Cell(int(players), ruleset, field_, aim, str(choice), metric, math.nan, math.nan,
                math.nan, False)
    value, low, high, holds = read_cell(claim, cell, result)
    return Cell(int(players), ruleset, field_, aim, str(choice), metric, value, low, high,
                holds)


def check(claim: Claim, result: StudyResult) -> list[str]:
    """What does not hold: one line per failing cell ("" list: the claim holds everywhere).

    A cell fails when the table has no such cell, when its number differs from the table's,
    or when the statement is not true there."""
    if not claim.cells:
        return ["the claim covers no cell"]
    problems = []
    for cell in claim.cells:
        try:
            value, low, high, holds = read_cell(claim, cell, result)
        except KeyError as e:
            problems.append(str(e).strip("'\""))
            continue
        if not math.isclose(value, cell.value, rel_tol=1e-9, abs_tol=1e-12):
            problems.append(f"{_where(cell)}: the table says {value:g} for {cell.choice}, "
                            f"the claim {cell.value:g}")
        elif not holds:
            problems.append(f"{_where(cell)}: {_negation(claim, cell)}")
    return problems


def _negation(claim: Claim, cell: Cell) -> str:
    return {
        "best": f"{cell.choice} is not the {claim.better}est {cell.metric} there",
        "top-group": f"{cell.choice} is not in the first group there",
        "positive": f"{cell.choice} - {claim.against} is not clearly above 0 there",
        "negative": f"{cell.choice} - {claim.against} is not clearly below 0 there",
        "unclear": f"{cell.choice} - {claim.against} is clear there",
    }[claim.kind]


def findings_document(claims: list[Claim]) -> dict:
    """The JSON document of ``data/findings.json``."""
    return {"format": FORMAT, "claims": [c.to_json() for c in claims]}


def group_cells(cells: list[Cell]) -> dict[str, list[Cell]]:
    """Cells by the option they recommend, in first-seen order."""
    out: dict[str, list[Cell]] = {}
    for c in cells:
        out.setdefault(c.choice, []).append(c)
    return out


def scope_words(cells: list[Cell], all_rulesets: list[str]) -> str:
    """The cells' scope in words: "3 and 4 players", "4 players (rule set swiss)"."""
    by_players: dict[int, list[str | None]] = {}
    for c in cells:
        by_players.setdefault(c.players, []).append(c.ruleset)
    parts = []
    for n, sets in sorted(by_players.items()):
        named = [s for s in sets if s]
        if not named or sorted(named) == sorted(all_rulesets):
            parts.append((n, ""))
        else:
            parts.append((n, " (rule set " + " and ".join(named) + ")"))
    plain = [n for n, extra in parts if not extra]
    words = []
    if plain:
        counts = [str(n) for n in plain]
        words.append((", ".join(counts[:-1]) + " and " + counts[-1] if len(counts) > 1
                      else counts[0]) + " players")
    words += [f"{n} players{extra}" for n, extra in parts if extra]
    return "; ".join(words)


def difference_kind(low: float, high: float) -> str:
    """``positive``, ``negative`` or ``unclear``: what a difference's interval says."""
    return "positive" if low > 0 else "negative" if high < 0 else "unclear"

"""Claims: what a study or the report asserts, as data, checked cell by cell against a table.

A *claim* is one sentence a reader sees ("at 4 players, fix the suit with the most points")
together with every *cell* it speaks for: one combination of player count, rule set, field
and aim, the option it names there (``choice``, spelled as in the study's table), the number
behind it with its interval, and whether the statement is true there (``holds``). A claim is
only ever made for the cells where it holds; where the answer differs between cells, one
claim is made per group of agreeing cells instead of pooling (pooling can reverse the answer:
Simpson's paradox). The sentence is rendered from the cells (its numbers are theirs).

Statements (``kind``):

- ``best``: ``choice`` has the best value of ``metric`` among the options of the cell
  (``better`` says whether lower or higher is better; ``extra["all_players"]``: among the
  options of every player count, ``extra["all_fields"]``: of every field, ``extra["abs"]``:
  by size, either sign);
- ``top-group``: ``choice`` is in the first group of the ladder (``tier`` 1) of the cell;
- ``positive`` / ``negative``: the cell's difference is clearly above / below 0 (its 95%
  interval excludes 0);
- ``unclear``: the cell's difference is not clear (its interval contains 0);
- ``value``: the cell's number is the table's (value and interval): a figure a sentence
  quotes without judging it (``extra["exact"]``: a figure without an interval;
  ``extra["low"]``/``["high"]``: the columns of its interval);
- ``equals``: the row's ``metric`` column reads ``extra["equals"]`` (a category a sentence
  names, e.g. why a sequential comparison stopped);
- ``count``: how many rows of the cell have a true ``metric`` (``metric`` ``rows``: how many
  rows it has), e.g. the seats whose exact chance lies inside its interval;
- ``holm-clear`` / ``holm-unclear``: the row differs / does not differ clearly from 0 once
  every row of its family is allowed for (Holm's correction over the table's rows, all player
  counts, restricted by ``where`` and the cell's field);
- ``identical``: the options ``choice`` names (``a=b``) have exactly the same value of
  ``metric`` in the cell (policies merged because they play the same games; the rows of
  the merged ones may be in the tables ``extra["also"]`` names);
- ``several``: a sentence with several statements: ``extra["statements"]`` holds one
  statement per cell (``kind``, and optionally ``table``, ``better``, ``against`` and extra
  keys), read as above.

:func:`check` re-reads each cell from the study's table (nothing is taken from the claim but
its keys) and lists what does not hold. :func:`settle` turns a study's claims into the
sentences it prints and the alerts for claims that fail (never printed as sentences).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field, replace
from statistics import NormalDist
from typing import Any, Protocol

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.stats.hygiene import holm, selected_interval, two_sided_p


class Tables(Protocol):
    """What a claim is checked against: a study result's tables by name
    (:class:`analyzer.studies.results.StudyResult`, which imports this module)."""

    def table(self, name: str) -> pd.DataFrame: ...

KINDS = ("best", "top-group", "positive", "negative", "unclear", "value", "count",
         "holm-clear", "holm-unclear", "identical", "equals", "several")
FORMAT = "cardlab-findings/1"
CELL_KEYS = ("players", "ruleset", "field", "aim", "choice", "metric", "value", "low", "high",
             "holds")


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

    @classmethod
    def from_json(cls, data: dict) -> Cell:
        """A cell as :meth:`Claim.to_json` wrote it (null numbers read as NaN)."""
        num = {k: (math.nan if data.get(k) is None else float(data[k]))
               for k in ("value", "low", "high")}
        return cls(int(data["players"]), data.get("ruleset"), data.get("field"),
                   data.get("aim"), str(data["choice"]), str(data["metric"]), num["value"],
                   num["low"], num["high"], bool(data["holds"]))


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

    @classmethod
    def from_json(cls, data: dict) -> Claim:
        """A claim as :meth:`to_json` wrote it."""
        return cls(str(data["id"]), str(data.get("question") or ""), str(data["sentence"]),
                   str(data.get("game") or ""), str(data.get("study") or ""),
                   str(data.get("command") or ""), str(data["kind"]), str(data["table"]),
                   tuple(Cell.from_json(c) for c in data.get("cells") or []),
                   str(data.get("better") or "lower"), data.get("against"),
                   dict(data.get("extra") or {}))


def _clean(cell: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in cell.items()}


# ------------------------------------------------------------------------ reading a cell
def _rows(table: pd.DataFrame, cell: Cell, players_col: str = "players",
          all_players: bool = False) -> pd.DataFrame:
    """The rows of ``table`` in ``cell`` (player count, and rule set and aim where the table
    has them)."""
    t = table if all_players else table[table[players_col] == cell.players]
    if cell.ruleset is not None and "ruleset" in t:
        t = t[t["ruleset"].astype(str) == cell.ruleset]
    if cell.aim is not None and "aim" in t:
        t = t[t["aim"].astype(str) == cell.aim]
    if cell.field is not None and "chooser" in t:  # each chooser plays a table of its own
        t = t[t["chooser"].astype(str) == cell.field]
    elif cell.field is not None and "field" in t:  # a table of several fields (jokers)
        t = t[t["field"].astype(str) == cell.field]
    return t


def _kept(claim: Claim, rows: pd.DataFrame) -> pd.DataFrame:
    if "game" in rows and claim.game:
        rows = rows[rows["game"].astype(str) == claim.game]
    for column, value in (claim.extra.get("where") or {}).items():
        rows = rows[rows[column].astype(str) == str(value)]
    return rows


# Reading many cells of the same tables filters the same rows again and again (a ladder's
# claims read hundreds of cells of one table). Inside :func:`reading` the filters are
# remembered, keyed by the table object and everything the filter reads; the memo holds each
# table it keys, so no other table can take its id while the block lasts. The block must not
# change a table it reads (claims only read), and nothing outlives the block.
_MEMO: ContextVar[dict | None] = ContextVar("cardlab_claims_memo", default=None)


@contextmanager
def reading() -> Iterator[None]:
    """A block that reads claims' cells from tables it does not change: filtered rows are
    computed once per table and filter (nested blocks share the outer one's memo)."""
    token = _MEMO.set({}) if _MEMO.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _MEMO.reset(token)


def _memo(table: pd.DataFrame, key: tuple, make):
    """``make()``, remembered inside :func:`reading` under (``table``, ``key``)."""
    memo = _MEMO.get()
    if memo is None:
        return make()
    full = (id(table), *key)
    if full not in memo:
        memo[full] = (table, make())  # the table kept alive: its id stays its own
    return memo[full][1]


def _claim_key(claim: Claim) -> str:
    """What of ``claim`` the filters read (not its sentence or cells)."""
    return json.dumps([claim.game, claim.table, claim.against, claim.extra], sort_keys=True,
                      default=str)


def _filtered(claim: Claim, table: pd.DataFrame, cell: Cell,
              all_players: bool = False) -> pd.DataFrame:
    """``_kept(claim, _rows(table, cell, all_players=...))``, remembered inside
    :func:`reading`."""
    key = ("rows", _claim_key(claim), all_players, None if all_players else cell.players,
           cell.ruleset, cell.aim, cell.field)
    return _memo(table, key, lambda: _kept(claim, _rows(table, cell, all_players=all_players)))


def _key(claim: Claim, rows: pd.DataFrame) -> str:
    return claim.extra.get("key") or next(c for c in ("rule", "strategy", "seat", "a")
                                          if c in rows)


def _bounds(rows: pd.DataFrame, metric: str) -> tuple[str, str]:
    low = f"{metric}_low" if f"{metric}_low" in rows else "low"
    high = f"{metric}_high" if f"{metric}_high" in rows else "high"
    return low, high


def _options(claim: Claim, cell: Cell, result: Tables) -> tuple[pd.DataFrame, str]:
    """The options of ``cell`` as rows with columns choice, value, low, high (and tier);
    with ``extra["all_players"]`` the options of every player count (column ``players``).
    Remembered inside :func:`reading`."""
    table = result.table(claim.table)
    every = bool(claim.extra.get("all_players"))
    fields = bool(claim.extra.get("all_fields"))
    rows = _filtered(claim, table, replace(cell, field=None) if fields else cell, every)
    key = _key(claim, rows)
    memo = ("options", _claim_key(claim), cell.players, cell.ruleset, cell.aim, cell.field,
            cell.metric, cell.choice if key == "a" else None)  # differences: a row per cell
    return _memo(table, memo, lambda: (_options_of(claim, cell, rows, key, every, fields), key))


def _options_of(claim: Claim, cell: Cell, rows: pd.DataFrame, key: str, every: bool,
                fields: bool) -> pd.DataFrame:
    exact = bool(claim.extra.get("exact"))  # a figure without an interval
    if key == "a":  # a table of differences: the cell's row is choice - against
        rows = rows[(rows["a"].astype(str) == cell.choice)
                    & (rows["b"].astype(str) == str(claim.against))]
        metric = cell.metric if cell.metric in rows else "difference"
        low, high = _bounds(rows, metric) if metric == "difference" else (metric, metric)
        low, high = claim.extra.get("low", low), claim.extra.get("high", high)
        if exact:
            low = high = metric
        return pd.DataFrame({"choice": rows["a"].astype(str), "value": rows[metric],
                             "low": rows[low], "high": rows[high]})
    metric = cell.metric
    low, high = _bounds(rows, metric)
    low, high = claim.extra.get("low", low), claim.extra.get("high", high)
    if exact:
        low = high = metric
    out = pd.DataFrame({"choice": rows[key].astype(str), "value": rows[metric],
                        "low": rows[low] if low in rows else rows[metric],
                        "high": rows[high] if high in rows else rows[metric]})
    if "tier" in rows:
        out["tier"] = rows["tier"]
    if every:
        out["players"] = rows["players"]
    if fields:
        out["field"] = rows["field"].astype(str)
    if claim.extra.get("exclude"):
        out = out[~out["choice"].isin(claim.extra["exclude"])]
    return out


def statement(claim: Claim, i: int) -> Claim:
    """The statement ``claim`` makes about its ``i``-th cell: the claim itself, or for kind
    ``several`` the claim with that cell's own statement in place of its kind."""
    if claim.kind != "several":
        return claim
    own = dict((claim.extra.get("statements") or [])[i])
    top = {k: own.pop(k) for k in ("kind", "table", "better", "against") if k in own}
    rest = {k: v for k, v in claim.extra.items() if k != "statements"}
    return replace(claim, **top, extra={**rest, **own})


def _count(claim: Claim, cell: Cell, result: Tables) -> tuple[float, float, float, bool]:
    rows = _filtered(claim, result.table(claim.table), cell)
    n = len(rows) if cell.metric == "rows" else int(rows[cell.metric].astype(bool).sum())
    return float(n), float(n), float(n), True


def _identical(claim: Claim, cell: Cell, result: Tables) -> tuple[float, float, float,
                                                                      bool]:
    tables = [result.table(t) for t in [claim.table, *claim.extra.get("also", [])]]
    rows = _kept(claim, _rows(pd.concat(tables, ignore_index=True), cell))
    key = _key(claim, rows)
    names = cell.choice.split("=")
    values = [rows.loc[rows[key].astype(str) == name, cell.metric] for name in names]
    if any(len(v) != 1 for v in values):
        raise KeyError(f"{claim.table} has no single row for each of {', '.join(names)} at "
                       f"{where(cell)}")
    numbers = [float(v.iloc[0]) for v in values]
    return numbers[0], min(numbers), max(numbers), len(set(numbers)) == 1


def _equals(claim: Claim, cell: Cell, result: Tables) -> tuple[float, float, float,
                                                                  bool]:
    rows = _filtered(claim, result.table(claim.table), cell)
    key = _key(claim, rows)
    mine = rows[rows[key].astype(str) == cell.choice]
    if key == "a":
        mine = mine[mine["b"].astype(str) == str(claim.against)]
    if len(mine) != 1:
        raise KeyError(f"{claim.table} has no single row for {cell.choice!r} at {where(cell)}")
    return math.nan, math.nan, math.nan, str(mine[cell.metric].iloc[0]) == str(
        claim.extra.get("equals"))


def _holm(claim: Claim, cell: Cell, result: Tables) -> tuple[float, float, float, bool]:
    family = _filtered(claim, result.table(claim.table), cell, all_players=True)
    key = _key(claim, family)
    low, high = _bounds(family, cell.metric)
    level = float(claim.extra.get("level", 0.95))
    half = (family[high] - family[low]).to_numpy(float) / 2
    se = half / NormalDist().inv_cdf(0.5 + level / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, family[cell.metric].to_numpy(float) / se, 0.0)
    clear = holm(two_sided_p(z)) < 1 - level
    mine = ((family["players"] == cell.players) & (family[key].astype(str) == cell.choice)
            ).to_numpy()
    if mine.sum() != 1:
        raise KeyError(f"{claim.table} has no single row for {cell.choice!r} at {where(cell)}")
    row = family[mine].iloc[0]
    is_clear = bool(clear[mine][0])
    holds = is_clear if claim.kind == "holm-clear" else not is_clear
    return float(row[cell.metric]), float(row[low]), float(row[high]), holds


def read_cell(claim: Claim, cell: Cell, result: Tables) -> tuple[float, float, float, bool]:
    """(value, low, high, holds) of ``cell`` as the study's table says (KeyError where the
    table has no such cell)."""
    if claim.kind not in KINDS or claim.kind == "several":
        raise ValueError(f"unknown claim kind {claim.kind!r}; kinds: {', '.join(KINDS)}")
    if claim.kind == "count":
        return _count(claim, cell, result)
    if claim.kind == "identical":
        return _identical(claim, cell, result)
    if claim.kind == "equals":
        return _equals(claim, cell, result)
    if claim.kind in ("holm-clear", "holm-unclear"):
        return _holm(claim, cell, result)
    options, _ = _options(claim, cell, result)
    mine = options[options["choice"] == cell.choice]
    if "players" in options:
        mine = mine[mine["players"] == cell.players]
    if "field" in options:
        mine = mine[mine["field"] == cell.field]
    if len(mine) != 1:
        raise KeyError(f"{claim.table} has no single row for {cell.choice!r} at "
                       f"{where(cell)}")
    row = mine.iloc[0]
    value, low, high = float(row["value"]), float(row["low"]), float(row["high"])
    family = int(claim.extra.get("family", 1))
    if family > 1:  # the cell was picked as the largest of `family`: Bonferroni's interval
        low, high = selected_interval(value, low, high, family)
    if claim.kind == "best":
        values = options["value"].astype(float)
        mine_value = value
        if claim.extra.get("abs"):  # the largest in size, either sign (the value keeps it)
            values, mine_value = values.abs(), abs(value)
        target = values.min() if claim.better == "lower" else values.max()
        holds = mine_value == target
    elif claim.kind == "top-group":
        holds = int(row["tier"]) == int(options["tier"].min())
    elif claim.kind == "positive":
        holds = low > 0
    elif claim.kind == "negative":
        holds = high < 0
    elif claim.kind == "unclear":
        holds = low <= 0 <= high
    else:  # value: a quoted figure holds where the table has it (check compares numbers)
        holds = True
    return value, low, high, bool(holds) and inside(value, low, high)


def inside(value: float, low: float, high: float) -> bool:
    """Whether ``value`` lies within its own interval [``low``, ``high``] (True where a bound
    is not a number: a figure without an interval). A cell whose value lies outside its own
    bounds never holds: its number and its interval cannot both be the table's answer."""
    if not all(math.isfinite(x) for x in (value, low, high)):
        return True
    slack = 1e-9 * max(1.0, abs(low), abs(high))
    return low - slack <= value <= high + slack


def where(cell: Cell) -> str:
    """The cell in words: "4 players, rule set seed, field basic"."""
    parts = [f"{cell.players} players"]
    if cell.ruleset:
        parts.append(f"rule set {cell.ruleset}")
    if cell.field:
        parts.append(f"field {cell.field}")
    if cell.aim and cell.aim != "n/a":
        parts.append(f"aim {cell.aim}")
    return ", ".join(parts)


_where = where  # the name reports used


def probe(game: str, study: str, kind: str, table: str, **kw) -> Claim:
    """A claim without words or cells, to read cells with (:func:`make_cell`): what it
    states (``kind``, ``better``, ``against``, ``extra``) decides whether a cell holds."""
    return Claim("", "", "", game, study, "", kind, table, (), **kw)


def make_cell(claim: Claim, result: Tables, players: int, choice: str, metric: str,
              ruleset: str | None = None, field_: str | None = None,
              aim: str | None = None) -> Cell:
    """A cell of ``claim`` with its number and truth read from the table."""
    cell = Cell(int(players), ruleset, field_, aim, str(choice), metric, math.nan, math.nan,
                math.nan, False)
    value, low, high, holds = read_cell(claim, cell, result)
    return Cell(int(players), ruleset, field_, aim, str(choice), metric, value, low, high,
                holds)


def several(id_: str, sentence: str, parts: Iterable[tuple[Claim, Cell]], *, game: str,
            study: str, question: str = "", command: str = "") -> Claim:
    """One claim of kind ``several`` from (probe, cell) pairs: each cell keeps the statement
    of the probe it was read with."""
    parts = list(parts)
    if not parts:
        raise ValueError("a claim needs at least one cell")
    statements = [{"kind": p.kind, "table": p.table, "better": p.better,
                   "against": p.against, **p.extra} for p, _ in parts]
    return Claim(id_, question, sentence, game, study, command, "several", parts[0][0].table,
                 tuple(c for _, c in parts), extra={"statements": statements})


def _same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def check(claim: Claim, result: Tables) -> list[str]:
    """What does not hold: one line per failing cell ("" list: the claim holds everywhere).

    A cell fails when the table has no such cell, when its number or interval differs from
    the table's, or when the statement is not true there."""
    if not claim.cells:
        return ["the claim covers no cell"]
    if claim.kind == "several" and len(claim.extra.get("statements") or []) != len(claim.cells):
        return ["the claim does not say what it states in each cell"]
    problems = []
    with reading():
        for i, cell in enumerate(claim.cells):
            problems += _cell_problems(statement(claim, i), cell, result)
    return problems


def _cell_problems(stated: Claim, cell: Cell, result: Tables) -> list[str]:
    """What does not hold in one cell of a claim ([] where it holds)."""
    try:
        value, low, high, holds = read_cell(stated, cell, result)
    except (KeyError, ValueError, CardlabError) as e:  # no such cell, column or table
        return [str(e).strip("'\"")]
    if not _same(value, cell.value):
        return [f"{where(cell)}: the table says {value:g} for {cell.choice}, "
                f"the claim {cell.value:g}"]
    if not inside(cell.value, cell.low, cell.high):
        return [f"{where(cell)}: the claim's value {cell.value:g} for {cell.choice} lies "
                f"outside its own interval [{cell.low:g}, {cell.high:g}]"]
    if not inside(value, low, high):
        return [f"{where(cell)}: the table's value {value:g} for {cell.choice} lies outside "
                f"its own interval [{low:g}, {high:g}]"]
    if not holds:
        return [f"{where(cell)}: {_negation(stated, cell)}"]
    if not (_same(low, cell.low) and _same(high, cell.high)):
        return [f"{where(cell)}: the table's interval for {cell.choice} is "
                f"[{low:g}, {high:g}], the claim's [{cell.low:g}, {cell.high:g}]"]
    return []


def _negation(claim: Claim, cell: Cell) -> str:
    return {
        "best": f"{cell.choice} is not the {claim.better}est {cell.metric} there",
        "top-group": f"{cell.choice} is not in the first group there",
        "positive": f"{cell.choice} - {claim.against} is not clearly above 0 there",
        "negative": f"{cell.choice} - {claim.against} is not clearly below 0 there",
        "unclear": f"{cell.choice} - {claim.against} is clear there",
        "holm-clear": f"{cell.choice} is not clear there after Holm's correction",
        "holm-unclear": f"{cell.choice} is clear there after Holm's correction",
        "identical": f"{cell.choice.replace('=', ' and ')} differ in {cell.metric} there",
        "equals": f"{cell.metric} of {cell.choice} is not {claim.extra.get('equals')!r} there",
    }.get(claim.kind, f"{cell.choice} does not hold there")


def withdrawn(claim: Claim, problems: list[str]) -> str:
    """The alert for a claim its table does not bear out, naming the cells."""
    return (f"A statement was withdrawn because the table does not bear it out "
            f"({claim.id}): " + "; ".join(problems[:4])
            + (f"; and {len(problems) - 4} more cells" if len(problems) > 4 else "") + ".")


def settle(claims: Iterable[Claim], result: Tables) -> tuple[list[str], list[str]]:
    """The sentences of the claims that hold in every cell, in order, and one alert per
    claim that does not (:func:`withdrawn`)."""
    sentences, alerts = [], []
    for claim in claims:
        problems = check(claim, result)
        if problems:
            alerts.append(withdrawn(claim, problems))
        else:
            sentences.append(claim.sentence)
    return sentences, alerts


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


def half(cell: Cell) -> float:
    """Half the width of the cell's interval (what ``value ± half`` shows)."""
    return (cell.high - cell.low) / 2


def claims_of(data: Any) -> list[Claim]:
    """Claims from a saved list (a manifest's ``claims``); [] when there is none."""
    return [Claim.from_json(c) for c in data or [] if isinstance(c, dict)]

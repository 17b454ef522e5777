"""Issue 43, item 7: sentences are rendered from cells, never beside them.

Every claim's cells are planted, one at a time, with a wrong value in the study's table
(a number moved well outside its interval, a verdict or category flipped). The claim's check
must then fail, and the sentence rendered again from the planted table must no longer be the
old sentence: what the reader sees and what the check checks change together. The other way
round, planting a number that no cell of a claim reads must leave that claim's sentence as it
was, unless its check fails too.
"""

import copy
import functools
import re

import numpy as np
import pandas as pd
import pytest
from depth import DEEP

from analyzer.studies.claims import (
    Cell,
    Claim,
    _kept,
    _key,
    _rows,
    check,
    reading,
    statement,
)


def _trump():
    from analyzer.runner.synthetic import SyntheticTrumpBackend
    from analyzer.studies.trump import run_trump

    return run_trump(SyntheticTrumpBackend(), players=[3, 4], rulesets=["seed"],
                     deals=300, choosers=["random"])


def _seats():
    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.seats import run_seats

    return run_seats(SyntheticAssBackend(seat_slope=0.5), players=[3, 4], games=600,
                     strong_fields=("x",), strong_players=(4,), slow_games=200)


def _fields_trump():
    from analyzer.runner.synthetic import SyntheticTrumpBackend
    from analyzer.studies.fields import trump_field_tables
    from analyzer.studies.results import StudyResult

    return StudyResult("fields", trump_field_tables(SyntheticTrumpBackend(), ["x", "y"],
                                                    players=[3, 4], deals=300), {})


def _render_trump(result):
    from analyzer.studies import trump
    from reports.studies.trump import trump_finding

    return [*trump_finding(result).claims, *trump.rule_claims(result),
            *trump.chooser_claims(result)]


def _render_seats(result):
    from analyzer.studies.seats import seat_claims, strong_claim
    from reports.studies.seats import seats_finding

    return [*seats_finding(result).claims, *seat_claims(result, "basic", "basic"),
            strong_claim(result, "x", 200)]


def _render_fields_trump(result):
    from analyzer.studies.fields import trump_field_claims

    return trump_field_claims(result)


class _JokersLeft:
    """Synthetic Who's the Ass? rows with the kernel's ``jokers_left`` column (the hoarder
    ends holding a joker on about a fifth of its games, 14 minus points each), so that the
    joker answer's ass-round cells (table ass_jokers) are planted too."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def collect(self, spec, count, start=0):
        rows = self.inner.collect(spec, count, start)
        if spec.mode == "matches":
            return rows
        label = np.array(spec.strategies, dtype=object)[rows["seat"].to_numpy()]
        draw = (rows["index"].to_numpy(np.int64) * 7919
                + rows["seat"].to_numpy(np.int64) * 104729) % 10
        held = ((label == "joker-hoarder") & (draw < 2)).astype(np.int16)
        rows["jokers_left"] = held
        rows["minus_points"] = rows["minus_points"] + 14.0 * held
        return rows


def _jokers():
    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.jokers import run_jokers

    effects = {"joker-hoarder": 3.0, "joker-hoarder:ass_jokers=throw": 1.5,
               **{f"hold-jokers:keep={k}": max(0, 8 - k) * 0.4 for k in range(14)}}
    # the cost curve's cells per field (basic, learned, pimc on its slow budget) and the
    # ass-round split's are among the cells planted
    return run_jokers(_JokersLeft(SyntheticAssBackend(effects=effects)), players=[4],
                      keep=[0, 8], games=200)


def _render_jokers(result):
    from reports.studies.jokers import jokers_finding

    return list(jokers_finding(result).claims)


def _compare():
    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.compare import run_compare

    return run_compare(SyntheticAssBackend(effects={"good": -1.0}), "ass", ["good", "a", "b"],
                       players=[4], games=300)


def _render_compare(result):
    from analyzer.studies.compare import _claims
    from reports.studies.compare import compare_finding

    return [*compare_finding(result).claims,
            *_claims(result, 4, "ass", "minus_points", True, "game")]


# A summary names no cell (the trump verdict: "It depends on your aim."): several pairs of
# cells may each bear it out, and it carries the first; a planted witness withdraws it, and
# the summary rendered again carries another witness that holds (checked above).
SUMMARIES = {"trump-verdict"}

# Claims on what the study decided when it built a table (fields merged because their
# rules lost exactly alike, table trump_merged): a planted loss breaks them, and their check
# says so, but rendering them again does not merge the tables again.
DECIDED = ("fields-trump-merged-", "trump-chooser-")  # and the choosers' best_rule column

CASES = {"trump": (_trump, _render_trump), "seats": (_seats, _render_seats),
         "fields-trump": (_fields_trump, _render_fields_trump),
         "jokers": (_jokers, _render_jokers), "compare": (_compare, _render_compare)}


@functools.cache
def _made(name):
    return CASES[name][0]()


def _row_of(stated: Claim, cell: Cell, table: pd.DataFrame) -> pd.Index:
    rows = _kept(stated, _rows(table, cell))
    key = _key(stated, rows)
    mine = rows[rows[key].astype(str) == cell.choice]
    if key == "a":
        mine = mine[mine["b"].astype(str) == str(stated.against)]
    return mine.index


def _plant(result, stated: Claim, cell: Cell):
    """A copy of ``result`` with the cell's number (or category) wrong; None for a cell that
    reads no single row (a count over rows, a pair of merged options)."""
    if stated.kind in ("identical", "count") or stated.extra.get("all_fields"):
        return None
    planted = copy.deepcopy(result)
    table = planted.tables[stated.table]
    rows = _row_of(stated, cell, table)
    if len(rows) != 1 or cell.metric not in table:
        return None
    col = cell.metric
    old = table.loc[rows[0], col]
    if stated.kind == "equals" or not np.issubdtype(table[col].dtype, np.number) \
            or table[col].dtype == bool:
        new = ("False" if str(old) == "True" else "True") if str(old) in ("True", "False") \
            else str(old) + "-planted"
        table[col] = table[col].astype(object)
        table.loc[rows[0], col] = new if table[col].dtype == object else new
        if str(old) in ("True", "False"):
            table[col] = table[col].map(lambda v: v if isinstance(v, bool) else v == "True")
        return planted
    low, high = (f"{col}_low", f"{col}_high") if f"{col}_low" in table else ("low", "high")
    low, high = stated.extra.get("low", low), stated.extra.get("high", high)
    if stated.extra.get("exact"):
        low = high = col
    width = abs(cell.high - cell.low) if np.isfinite(cell.high - cell.low) else 0.0
    big = 5 * (abs(float(old)) + width + 1.0)
    # a wrong value that turns the statement false where the statement judges (a best that
    # is no longer best, a clear difference that is not, an unclear one that is clear), and
    # a number far from the table's where it quotes one
    if stated.kind == "best":
        new = float(old) + (big if stated.better == "lower" else -big)
    elif stated.kind == "top-group" or stated.kind == "positive":
        new = float(old) - big
    elif stated.kind in ("negative", "unclear"):
        new = float(old) + big
    elif stated.kind == "holm-clear":
        new = 0.0
    elif stated.kind == "holm-unclear":
        new = float(old) + big * (1 if float(old) >= 0 else -1)
    else:
        new = float(old) + big
    shift = new - float(old)
    table.loc[rows[0], col] = new
    for bound in {low, high} - {col}:
        if bound in table:
            table.loc[rows[0], bound] = float(table.loc[rows[0], bound]) + shift
    if stated.kind == "top-group" and "tier" in table:
        table.loc[rows[0], "tier"] = int(table["tier"].max()) + 1
    return planted


@pytest.mark.parametrize("name", list(CASES))
def test_issue43_item7_a_planted_cell_changes_the_sentence_and_the_check_together(name):
    result = _made(name)
    render = CASES[name][1]
    claims = render(result)
    assert claims
    tried = 0
    kinds = set()
    seen = set()
    for claim in claims:
        assert check(claim, result) == [], claim.id
        # quick tier: one cell of each kind, table and column per study; make test-deep:
        # per kind of claim (trump-3-seed-high: trump)
        family = re.sub(r"-\d.*$", "", claim.id) if DEEP else ""
        for i, cell in enumerate(claim.cells):
            stated = statement(claim, i)
            if (family, stated.kind, stated.table, cell.metric) in seen:
                continue
            seen.add((family, stated.kind, stated.table, cell.metric))
            planted = _plant(result, stated, cell)
            if planted is None:
                continue
            tried += 1
            kinds.add(stated.kind)
            failed = check(claim, planted) != []
            with reading():  # the planted tables are not changed while they are read
                rendered = render(planted)
            again = {c.sentence for c in rendered}
            assert failed, (claim.id, cell)
            for new in rendered:  # what is said of the planted table holds there
                if not new.id.startswith(DECIDED):
                    assert check(new, planted) == [], new.id
            if claim.id in SUMMARIES:
                continue
            assert claim.sentence not in again, (
                f"{claim.id}: planting {cell.metric} of {cell.choice} at {cell.players} "
                f"players ({stated.kind}) left the sentence as it was: {claim.sentence}")
    assert tried and kinds
    if name == "jokers":  # the cost curve per field and the ass-round split are planted
        planted_tables = {t for _, _, t, _ in seen}
        assert {"cost_curve", "ass_jokers"} <= planted_tables, planted_tables

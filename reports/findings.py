"""The report's first screen: one plain verdict per question, and the alerts.

Every verdict is read off the study's own tables (nothing is recomputed from games): a short
answer ("No.", "Hardly.", "aim-low wins.") followed by the number behind it with its 95%
interval. Alerts list what a careful reader should know before trusting a number: where
pairing did not narrow the interval, where a sequential comparison ran out of budget, where a
correctness check missed more often than chance allows, and every claim (of a key finding or
of a study's own sentences) that its table does not bear out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from analyzer.games.registry import get as game_description
from analyzer.games.registry import title as game_title
from analyzer.numbers import count, interval, number, percent
from analyzer.studies import registry as studies
from analyzer.studies.claims import half, statement
from analyzer.studies.registry import study_game
from analyzer.studies.results import StudyResult
from analyzer.text import is_rate, metric_words
from reports import facts
from reports.claims import (
    Cell,
    Claim,
    check,
    difference_kind,
    make_cell,
    probe,
    scope_words,
    selected_interval,
    several,
    withdrawn,
)
from reports.figures import compare_unit
from reports.names import policy_label, rule_label, rule_phrase
from reports.reproduce import study_command
from reports.studies import part as report_part


@dataclass(frozen=True)
class Finding:
    """A question's plain answer (``verdict``), the number behind it (``detail``) and the
    claims it rests on (analyzer/studies/claims.py), each checked cell by cell before it is
    shown."""

    study: str
    question: str
    verdict: str
    detail: str
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True)
class Alert:
    """Something to know before trusting a number, and where it comes from."""

    study: str
    text: str


def _hi(row: pd.Series, col: str) -> float:
    return (row[col + "_high"] - row[col + "_low"]) / 2


# ---------------------------------------------------------------------------- findings
CLEARLY = {"positive": "clearly more than", "negative": "clearly less than",
           "unclear": "not clearly different from"}


def _top_seat_claim(result: StudyResult, table: str, part: pd.DataFrame, field_: str,
                    command: str, scope: str, claim_id: str) -> Claim:
    """The biggest seat effect of ``part`` (rows of study table ``table``) as a claim judged on
    an interval corrected for picking it among ``len(part)`` seats; ``scope`` opens the
    sentence and ``{where}`` in it is filled with the seat and player count."""
    top = part.loc[part["seat_effect"].abs().idxmax()]
    low, high = selected_interval(float(top["seat_effect"]), float(top["seat_effect_low"]),
                                  float(top["seat_effect_high"]), len(part))
    kind = difference_kind(low, high)
    extra = {"key": "seat", "family": len(part)}
    reader = probe(study_game("seats"), "seats", kind, table, extra=extra)
    cell = make_cell(reader, result, int(top["players"]), str(int(top["seat"])),
                     "seat_effect", field_=field_)
    where = f"seat {int(top['seat'])} at {int(top['players'])} players"
    # the interval shown is the one the verdict used: widened for the pick (Bonferroni)
    sentence = (f"{scope}, the biggest difference from the table's average seat is "
                f"{interval(cell.value, (cell.high - cell.low) / 2, signed=True)} minus "
                f"points per game ({where}; the interval allows for its pick as the biggest "
                f"of {len(part)}): {CLEARLY[kind]} the average seat.")
    return Claim(f"{claim_id}-{kind}", question("seats"), sentence, study_game("seats"),
                 "seats", command, kind, table, (cell,), extra=extra)


def seats_finding(result: StudyResult) -> Finding:
    """Does the seat matter? The largest seat effect of the field, and of each strong field,
    as claims on their cells; how many seats differ clearly."""
    t = result.table("seats")
    clear = int(((t["seat_effect_low"] > 0) | (t["seat_effect_high"] < 0)).sum())
    expected = 0.05 * len(t)
    top = t.loc[t["seat_effect"].abs().idxmax()]
    size = abs(top["seat_effect"]) / max(float(t["minus_points"].mean()), 1e-9)
    if clear <= expected + 2 * math.sqrt(expected) + 1:
        verdict = "Hardly."
    elif size < 0.05:
        verdict = "A little."
    else:
        verdict = "Yes."
    field_ = _field(result)
    command = study_command(result) or ""
    claims = [_top_seat_claim(result, "seats", t, field_, command, f"At a table of {field_}",
                              "seats-top")]
    detail = (f"{claims[0].sentence} {clear} of {len(t)} seats differ clearly from their "
              f"table's average; about {expected:.0f} would by chance alone.")
    if "strong" in result.tables and len(result.table("strong")):
        for label, part in result.table("strong").groupby("field", sort=False):
            counts = " and ".join(str(int(n)) for n in sorted(part["players"].unique()))
            claims.append(_top_seat_claim(
                result, "strong", part, str(label), command,
                f"Under strong play (every seat {label}, {counts} players)",
                f"seats-strong-{label}"))
            detail += " " + claims[-1].sentence
    return Finding("seats", question("seats"), verdict, detail, tuple(claims))


JOKER_HEADLINE_PLAYERS = 4  # the player count of the joker answer's first sentence
HOARD_WORDS = {"hoard": "hoarding jokers (never playing one while number cards remain, not "
                        "even into an ass round)",
               "hoard-normal": "hoarding jokers in normal rounds only (throwing them into ass "
                               "rounds)"}
DEALT_WORDS = {"0": "with no joker dealt", "1": "with one", "2+": "with two or more"}


def _field_words(field_: str) -> str:
    names = field_.split(",")
    return f"{names[0]} opponents" if len(names) == 1 else "a field of " + ", ".join(names)


def _hoard_cell(result: StudyResult, command: str, name: str, n: int, field_: str,
                bucket: str = "any") -> tuple[Cell, str] | None:
    """The cell of ``name`` - as-needed at (n, field, jokers dealt) in table ``hoarding``,
    with what its interval says (the claim kind that holds there); None where the bucket has
    no games."""
    try:
        cell = make_cell(_hoard_claim("", "", command, name, "unclear", []), result, n,
                         bucket, "cost", field_=field_)
    except KeyError:
        return None
    if not (math.isfinite(cell.low) and math.isfinite(cell.high)):
        return None
    kind = difference_kind(cell.low, cell.high)  # the statement its own interval bears out
    return replace(cell, holds=True), kind


def _hoard_claim(id_: str, sentence: str, command: str, name: str, kind: str,
                 cells: list[Cell]) -> Claim:
    """A claim on ``name`` - as-needed in table ``hoarding``, its cells keyed by the jokers
    dealt ("any": every deal)."""
    return Claim(id_, question("jokers"), sentence, study_game("jokers"), "jokers", command,
                 kind, "hoarding", tuple(cells), against="as-needed",
                 extra={"key": "jokers_dealt", "where": {"a": name, "b": "as-needed"},
                        "effect": kind, "policy": name})


def _cost_words(cell: Cell, kind: str) -> str:
    """The cell's difference: its size where the sentence says costs or saves, signed where
    it says no clear difference."""
    half = (cell.high - cell.low) / 2
    if kind == "unclear":
        return interval(cell.value, half, signed=True)
    return interval(abs(cell.value), half)


def _verb(kind: str) -> str:
    return {"positive": "costs", "negative": "saves",
            "unclear": "makes no clear difference in"}[kind]


def _amount(kind: str, what: str) -> str:
    """'costs 15.1 ± 0.5 minus points per game' / 'makes no clear difference (-0.3 ± 0.9
    minus points per game)'."""
    if kind == "unclear":
        return f"makes no clear difference ({what} minus points per game)"
    return f"{_verb(kind)} {what} minus points per game"


def jokers_claims(result: StudyResult) -> list[Claim]:
    """The joker answer as claims on table ``hoarding`` (cells per player count and field):
    first the headline (hoarding at all times against using jokers as needed at 4 players,
    by the jokers dealt to the seat, against each field), then each hoarder at every player
    count and field, grouped by what the paired interval says; then what strong play does
    with its jokers (table ``habits``). Results without table ``hoarding`` (older studies):
    the hoard - as-needed pairs of table ``differences``."""
    if "hoarding" not in result.tables:
        return _pair_claims(result)
    t = result.table("hoarding")
    command = study_command(result) or ""
    fields = list(dict.fromkeys(t["field"].astype(str)))
    main = fields[0]
    counts = sorted(int(n) for n in t["players"].unique())
    n0 = JOKER_HEADLINE_PLAYERS if JOKER_HEADLINE_PLAYERS in counts else counts[0]
    claims: list[Claim] = cost_curve_claims(result, command, n0)
    top = _hoard_cell(result, command, "hoard", n0, main)
    if top is not None:
        head, kind = top
        cells = [head]
        dealt = []
        for bucket in DEALT_WORDS:
            got = _hoard_cell(result, command, "hoard", n0, main, bucket)
            if got is not None and got[1] == kind:
                cells.append(got[0])
                dealt.append(f"{_cost_words(got[0], kind)} {DEALT_WORDS[bucket]}")
        others = []
        for f in fields[1:]:
            got = _hoard_cell(result, command, "hoard", n0, f)
            if got is not None and got[1] == kind:
                cells.append(got[0])
                others.append(f"against {_field_words(f)} {_cost_words(got[0], kind)}")
        sentence = (f"Against {_field_words(main)} at {n0} players, {HOARD_WORDS['hoard']} "
                    f"{_amount(kind, _cost_words(head, kind))} compared with using them as "
                    "needed on the same deals and seats"
                    + (f" ({', '.join(dealt)})" if dealt else "")
                    + (f"; {'; '.join(others)}" if others else "") + ".")
        claims.append(_hoard_claim(f"jokers-hoard-headline-{kind}", sentence, command, "hoard",
                                   kind, cells))
    for name in ("hoard", "hoard-normal"):
        groups: dict[str, list[Cell]] = {}
        for f in fields:
            for n in counts:
                got = _hoard_cell(result, command, name, n, f)
                if got is not None:
                    groups.setdefault(got[1], []).append(got[0])
        for kind, cells in groups.items():
            each = "; ".join(
                f"against {_field_words(f)}: " + ", ".join(
                    f"{_cost_words(c, kind)} at {c.players} players" for c in cells
                    if c.field == f)
                for f in fields if any(c.field == f for c in cells))
            sentence = (f"{HOARD_WORDS[name][0].upper()}{HOARD_WORDS[name][1:]} {_verb(kind)} "
                        f"minus points per game against using them as needed ({each}).")
            claims.append(_hoard_claim(f"jokers-{name}-{kind}", sentence, command, name, kind,
                                       cells))
    source = ass_jokers_claim(result, command, n0)
    if source is not None:
        claims.append(source)
    habits = _habits_claim(result, command, n0)
    if habits is not None:
        claims.append(habits)
    return claims


def _curve_words(name: str, keep: float) -> str:
    if name == "hoard":
        return "never while number cards remain (the hoarder)"
    if name == "hoard-normal":
        return "never in normal rounds, thrown into ass rounds"
    k = int(keep)
    return "until 1 card is left" if k == 1 else f"until {k} cards are left"


def _curve_order(part: pd.DataFrame) -> pd.DataFrame:
    """Fewest cards kept back first (largest k), then hoarding in normal rounds only, then
    the hoarder (the extreme)."""
    rank = {"hoard-normal": 1, "hoard": 2}
    key = [(rank.get(str(p), 0), -(k if np.isfinite(k) else 0))
           for p, k in zip(part["policy"], part["keep"].astype(float), strict=True)]
    return part.iloc[sorted(range(len(part)), key=lambda i: key[i])]


def curve_claims(result: StudyResult, command: str, first: int) -> list[Claim]:
    """How long is it worth holding jokers? Per player count (``first`` first), for each
    field (the study's, then each strong field), what keeping them back until k cards are
    left costs against using them as needed on the same deals and seats (table
    ``cost_curve``), fewest cards kept back first, the hoarder as the extreme: one claim per
    player count, every figure a cell, each "(not clear)" its cell's ``clear`` test."""
    t = result.table("cost_curve")
    game = study_game("jokers")
    fields = list(dict.fromkeys(t["field"].astype(str)))
    counts = sorted({int(n) for n in t["players"]}, key=lambda n: (n != first, n))
    claims = []
    for n in counts:
        parts, by_field = [], []
        for f in fields:
            part = _curve_order(t[(t["players"] == n) & (t["field"].astype(str) == f)])
            said = []
            for r in part.itertuples():
                kind = difference_kind(float(r.cost_low), float(r.cost_high))
                reader = probe(game, "jokers", kind, "cost_curve", against=str(r.b),
                               extra={"key": "policy"})
                cell = make_cell(reader, result, n, str(r.policy), "cost", field_=f)
                parts.append((reader, cell))
                clear = "" if kind != "unclear" else " (not clear)"
                said.append(f"{_curve_words(str(r.policy), float(r.keep))}: "
                            f"{interval(cell.value, half(cell), signed=True)}{clear}")
            if said:
                deals = int(part["deals"].max())
                by_field.append(f"Against {_field_words(f)} ({count(deals)} deals): "
                                + "; ".join(said) + ".")
        if not parts:
            continue
        sentence = (f"How long is it worth holding jokers? At {n} players, keeping them back "
                    "costs (minus points per game against using them as needed on the same "
                    "deals and seats): " + " ".join(by_field))
        claims.append(several(f"jokers-cost-curve-{n}", sentence, parts, game=game,
                              study="jokers", question=question("jokers"), command=command))
    return claims


def ass_jokers_claim(result: StudyResult, command: str, first: int) -> Claim | None:
    """Where the hoarder's cost with no joker dealt comes from, field by field at ``first``
    players (table ``ass_jokers``): with none dealt every joker it holds at the end was
    taken in an ass round; the part of the cost those jokers are, and the rest, each judged
    by its own interval."""
    if "ass_jokers" not in result.tables or not len(result.table("ass_jokers")):
        return None
    t = result.table("ass_jokers")
    n = first if first in set(t["players"]) else int(t["players"].min())
    game = study_game("jokers")
    parts, said = [], []

    def cell(kind: str, metric: str, f: str) -> Cell:
        reader = probe(game, "jokers", kind, "ass_jokers", against="as-needed",
                       extra={"key": "policy"})
        got = make_cell(reader, result, n, "hoard", metric, field_=f)
        parts.append((reader, got))
        return got

    for r in t[t["players"] == n].itertuples():
        f = str(r.field)
        total = cell("value", "cost", f)
        held = cell(difference_kind(float(r.held_cost_low), float(r.held_cost_high)),
                    "held_cost", f)
        rest_kind = difference_kind(float(r.rest_low), float(r.rest_high))
        rest = cell(rest_kind, "rest", f)
        ends = cell("value", "ends_holding", f)
        ends_b = cell("value", "ends_holding_b", f)
        rest_words = (f"the rest {interval(rest.value, half(rest), signed=True)}, "
                      + ("not clearly different from 0" if rest_kind == "unclear"
                         else "clearly " + ("above" if rest_kind == "positive" else "below")
                         + " 0"))
        said.append(f"Against {_field_words(f)}: it ends {_share_words(ends)} of these games "
                    f"holding a joker (using them as needed: {_share_words(ends_b)}); of its "
                    f"{interval(total.value, half(total), signed=True)}, those jokers are "
                    f"{interval(held.value, half(held), signed=True)} and {rest_words}.")
    if not parts:
        return None
    sentence = (f"Where the hoarder's cost with no joker dealt to its seat comes from, at {n} "
                "players: every joker it then holds was taken in an ass round (A-7: the taker "
                "of an ass round takes the cards, jokers included). In minus points per game "
                "against using them as needed, its cost splits into the jokers it holds at the "
                "end (14 each, less those of using them as needed) and the rest (what holding "
                "them back does to the rest of its game). " + " ".join(said))
    return several("jokers-ass-round-jokers", sentence, parts, game=game, study="jokers",
                   question=question("jokers"), command=command)


def _share_words(cell: Cell) -> str:
    if not (math.isfinite(cell.low) and math.isfinite(cell.high)):
        return percent(cell.value)
    return f"{percent(cell.value)} [{percent(cell.low)}, {percent(cell.high)}]"


def cost_curve_claims(result: StudyResult, command: str, first: int) -> list[Claim]:
    """How long is it worth holding jokers? Per player count (``first`` first), what keeping
    them back until k cards are left costs against using them as needed on the same deals
    and seats, for every k of the study's sweep (fewest cards kept back first), with the
    hoarder (never a joker while number cards remain) as the extreme: one claim per player
    count on table ``differences``, every figure a cell, "not clear" where its interval
    says so. [] for a study without the sweep."""
    if "cost_curve" in result.tables and len(result.table("cost_curve")):
        return curve_claims(result, command, first)
    keep = sorted({int(k) for k in result.manifest.get("keep") or []}, reverse=True)
    pairs = result.table("differences") if "differences" in result.tables else None
    if not keep or pairs is None:
        return []
    field_ = _field(result)
    game = study_game("jokers")
    names = [(f"keep-until-{k}", "until 1 card is left" if k == 1 else
              f"until {k} cards are left") for k in keep] + [
        ("hoard", "never while number cards remain (the hoarder)")]
    counts = sorted({int(n) for n in pairs["players"]}, key=lambda n: (n != first, n))
    claims = []
    for n in counts:
        parts, said = [], []
        for name, words in names:
            row = pairs[(pairs["players"] == n)
                        & (((pairs["a"] == name) & (pairs["b"] == "as-needed"))
                           | ((pairs["a"] == "as-needed") & (pairs["b"] == name)))]
            if len(row) != 1:
                continue
            a, b = str(row["a"].iloc[0]), str(row["b"].iloc[0])
            kind = difference_kind(float(row["low"].iloc[0]), float(row["high"].iloc[0]))
            reader = probe(game, "jokers", kind, "differences", against=b)
            cell = make_cell(reader, result, n, a, "difference", field_=field_)
            parts.append((reader, cell))
            sign = 1.0 if a == name else -1.0  # the words speak of keeping minus as-needed
            clear = "" if kind != "unclear" else " (not clear)"
            cost = interval(sign * cell.value, (cell.high - cell.low) / 2, signed=True)
            said.append(f"{words}: {cost}{clear}")
        if not parts:
            continue
        sentence = (f"How long is it worth holding jokers? At {n} players against "
                    f"{_field_words(field_)}, keeping them back costs, in minus points per "
                    "game against using them as needed on the same deals and seats: "
                    + "; ".join(said) + ".")
        claims.append(several(f"jokers-cost-curve-{n}", sentence, parts, game=game,
                              study="jokers", question=question("jokers"), command=command))
    return claims


def _habits_claim(result: StudyResult, command: str, n0: int) -> Claim | None:
    """What strong play does with its jokers at ``n0`` players (or the first count traced):
    who ends fewest games holding a joker and throws the smallest share of its jokers alone
    as a 1 into an ass round, with every player's numbers."""
    if "habits" not in result.tables:
        return None
    h = result.table("habits")
    h = h[np.isfinite(h["ends_with_joker"])]
    if not len(h):
        return None
    n = n0 if n0 in set(h["players"]) else int(h["players"].min())
    part = h[h["players"] == n]
    field_ = str(part["field"].iloc[0])
    reader = probe(study_game("jokers"), "jokers", "best", "habits", better="lower",
                   extra={"key": "strategy"})
    cells = []
    for metric in ("ends_with_joker", "ass_as_1"):
        values = part[metric].astype(float)
        if not np.isfinite(values).all():
            continue
        best = str(part.loc[values.idxmin(), "strategy"])
        cells.append(make_cell(reader, result, n, best, metric, field_=field_))
    if not cells:
        return None
    rows = list(part.itertuples())

    def each(col: str) -> str:
        return ", ".join(f"{r.strategy} {percent(getattr(r, col))}" for r in rows)

    sentence = (f"What strong play does with its jokers (one seat against "
                f"{_field_words(field_)}, {n} players, {count(part['seat_games'].min())} "
                f"traced games each): share of games ending with a joker in hand: "
                f"{each('ends_with_joker')}; of the jokers played, as fillers inside "
                f"number-card sets: {each('filler')}; alone as a 1 into an ass round: "
                f"{each('ass_as_1')}.")
    return Claim("jokers-habits", question("jokers"), sentence, study_game("jokers"),
                 "jokers", command, "best", "habits", tuple(cells), better="lower",
                 extra={"key": "strategy"})


def _pair_claims(result: StudyResult) -> list[Claim]:
    """Hoarding against using jokers as needed, per player count, grouped by what the paired
    interval says (clearly costs, clearly saves, not clear), each naming the field. Cells are
    read as the table stores the pair (hoard - as-needed, or the reverse)."""
    pairs = result.table("differences")
    field_ = _field(result)
    command = study_command(result) or ""
    pair = pairs[pairs["a"].isin(["hoard", "as-needed"]) & pairs["b"].isin(["hoard", "as-needed"])]
    groups: dict[tuple[str, str, str], list] = {}
    for row in pair.sort_values("players").itertuples():
        kind = difference_kind(float(row.low), float(row.high))
        sign = 1.0 if row.a == "hoard" else -1.0  # the words speak of hoard - as-needed
        effect = difference_kind(sign * row.low if sign > 0 else -row.high,
                                 sign * row.high if sign > 0 else -row.low)
        reader = probe(study_game("jokers"), "jokers", kind, "differences", against=str(row.b))
        cell = make_cell(reader, result, int(row.players), str(row.a), "minus_points",
                         field_=field_)
        groups.setdefault((effect, kind, str(row.b)), []).append((cell, sign))
    claims = []
    for (effect, kind, against), cells in groups.items():
        each = "; ".join(f"{c.players} players: "
                         f"{interval(sign * c.value, (c.high - c.low) / 2, signed=True)}"
                         for c, sign in cells)
        sentence = (f"Against a table of {field_}, hoarding jokers (never playing one while "
                    f"number cards remain) {_verb(effect)} minus points per game compared with "
                    f"using them as needed, on the same deals and seats ({each}).")
        claims.append(Claim(f"jokers-hoard-{effect}-{len(claims) + 1}", question("jokers"),
                            sentence, study_game("jokers"), "jokers", command, kind, "differences",
                            tuple(c for c, _ in cells), against=against,
                            extra={"effect": effect}))
    return claims


def joker_verdict(effects: set[str]) -> str:
    """Is it worth holding jokers, from what the hoarder's claims say cell by cell
    (``positive``: hoarding clearly costs, ``negative``: clearly saves, ``unclear``): "it
    depends" only where it clearly costs in some cells and clearly saves in others; an
    unclear cell beside clear ones of one sign is no dependence."""
    if effects == {"positive"}:
        return "No."
    if effects == {"negative"}:
        return "Yes."
    if "positive" in effects and "negative" in effects:
        return "It depends on the player count and the field."
    if "positive" in effects:
        return ("No: hoarding jokers costs wherever the difference is clear, and never "
                "clearly saves.")
    if "negative" in effects:
        return ("Yes where it is clear: hoarding jokers saves wherever the difference is "
                "clear, and never clearly costs.")
    return "Not clearly either way."


def headline_replication(claims: list[Claim], replica: StudyResult) -> str:
    """Whether the joker headline (hoarding against using jokers as needed at the headline
    player count and field) replicated in ``replica``, the same study at another seed: its
    verdict compared cell by cell as the replication compares every claim
    (reports/replication.py), and its figure beside the replica's, with their difference and
    that difference's 95% interval (the two seeds are independent). '' where either has no
    headline."""
    from reports.replication import SAME, compare

    mine = next((c for c in claims if c.id.startswith("jokers-hoard-headline-")), None)
    theirs = next((c for c in jokers_claims(replica)
                   if c.id.startswith("jokers-hoard-headline-")), None)
    if mine is None or theirs is None:
        return ""
    a, b = mine.cells[0], theirs.cells[0]
    if (a.players, a.field, a.choice) != (b.players, b.field, b.choice):
        return ""
    seed = replica.manifest.get("seed")
    at = f"master seed {seed}" if seed is not None else "another seed"
    status = compare([mine], [theirs], seed).statuses[0]
    d = a.value - b.value
    hd = math.hypot(half(a), half(b))
    within = abs(d) <= hd
    figures = (f"{interval(a.value, half(a))} here, {interval(b.value, half(b))} at {at} "
               f"(they differ by {number(abs(d), 2)}, {'within' if within else 'beyond'} the "
               f"{number(hd, 2)} that chance allows at 95%)")
    if status != SAME:
        return f"The headline did not replicate at {at} ({status}): {figures}."
    if within:
        return f"The headline replicated at {at}: {figures}."
    low, high = min(a.low, b.low), max(a.high, b.high)
    return (f"The headline's verdict replicated at {at}, its figure not within chance: "
            f"{figures}; both seeds together support {number(low, 1)} to {number(high, 1)} "
            "minus points per game.")


def jokers_finding(result: StudyResult, replica: StudyResult | None = None) -> Finding:
    """Hoarding against using jokers as needed, naming the field: the headline at 4 players
    by jokers dealt and by field, each hoarder at every player count and field, and what
    strong play does with its jokers. With ``replica`` (the same study at another seed) the
    verdict says whether the headline replicated there (:func:`headline_replication`)."""
    pol = result.table("policies")
    claims = jokers_claims(result)
    if not claims:
        return Finding("jokers", question("jokers"), "See below.", "")
    effects = {c.extra["effect"] for c in claims
               if "effect" in c.extra and c.extra.get("policy", "hoard") == "hoard"}
    verdict = joker_verdict(effects)
    if replica is not None:
        verdict = " ".join(x for x in (verdict, headline_replication(claims, replica)) if x)
    best = []
    for n in sorted(pol["players"].unique()):
        part = pol[pol["players"] == n].sort_values("mean", kind="stable")
        best.append(policy_label(str(part["strategy"].iloc[0])))
    common = max(set(best), key=best.count)
    detail = " ".join(c.sentence for c in claims) + (
        f" The policy with the fewest minus points at most player counts: {common}.")
    return Finding("jokers", question("jokers"), verdict, detail, tuple(claims))


AIM_WHO = {"high": "Playing for many points", "low": "Playing for few points",
           "n/a": "Without an aim"}


def _field(result: StudyResult) -> str:
    m = result.manifest
    names = m.get("field") or m.get("strategies") or []
    return ",".join(str(x) for x in names) if isinstance(names, list) else str(names)


def trump_claims(result: StudyResult) -> list[Claim]:
    """One claim per aim and per group of cells (player count x rule set) that agree on the
    rule losing fewest sticks and on the rules it is not clearly ahead of: never pooled across
    cells whose best rule or runners-up differ. Each claim carries, beside the best rule of
    each cell, the paired comparison (table ``pairs``) behind every "not clearly fewer" and
    "clearly fewer" it says."""
    rules = result.table("rules")
    named = rules[(rules["rule"] != AS_PLAYED_RULE) & np.isfinite(rules["sticks_loss"])]
    field_ = _field(result)
    command = study_command(result) or ""
    rulesets = sorted({str(r) for r in named["ruleset"]}) if "ruleset" in named else []
    claims = []
    for aim in [a for a in ("high", "low", "n/a") if a in set(named["aim"])]:
        sub = named[named["aim"] == aim]
        reader = probe(study_game("trump"), "trump", "best", "rules",
                       extra={"exclude": [AS_PLAYED_RULE]})
        groups: dict[tuple[str, tuple[str, ...]], list[tuple[Claim, Cell]]] = {}
        for (n, rs), part in sub.groupby(["players", "ruleset"], sort=True):
            best = part.loc[part["sticks_loss"].idxmin(), "rule"]
            cell = make_cell(reader, result, int(n), str(best), "sticks_loss",
                             ruleset=str(rs), field_=field_, aim=str(aim))
            pairs = _runner_up_cells(result, cell)
            close = tuple(c.choice for r, c in pairs if r.kind != "positive")
            groups.setdefault((str(best), close), []).append((reader, cell))
            groups[(str(best), close)] += pairs
        for i, ((rule, close), parts) in enumerate(groups.items()):
            group = [c for r, c in parts if r.table == "rules"]
            lo = min(c.value for c in group)
            hi = max(c.value for c in group)
            where = scope_words(group, rulesets)
            size = (f"{number(lo, 3)} sticks per trump choice" if len(group) == 1 else
                    f"{number(lo, 3)} to {number(hi, 3)} sticks per trump choice")
            compared = [c for r, c in parts if r.table == "pairs"]
            ending = (f", though not clearly fewer than "
                      f"{' or '.join(rule_label(x) for x in close)}." if close else
                      ", clearly fewer than every other rule." if compared else ".")
            sentence = (f"{AIM_WHO[aim]}, at {where} (a table of {field_}): fix "
                        f"{rule_phrase(rule)}; it loses {size} against the best suit in "
                        "hindsight, the fewest of the named rules there" + ending)
            claims.append(several(f"trump-{aim}-{i + 1}", sentence, parts,
                                  game=study_game("trump"), study="trump",
                                  question=question("trump"), command=command))
    return claims


AS_PLAYED_RULE = "as-played"


def _runner_up_cells(result: StudyResult, best: Cell) -> list[tuple[Claim, Cell]]:
    """Every named rule against the best one of cell ``best``, paired on the same decisions
    (table ``pairs``, rule minus best), as a cell stating what its interval says: ``unclear``
    (not clearly worse) or ``positive`` (clearly worse; ``negative`` only in a table whose
    best is not its best, which the best rule's own cell then fails). [] without a pairs
    table."""
    if "pairs" not in result.tables:
        return []
    pairs = result.table("pairs")
    p = pairs[(pairs["players"] == best.players)
              & (pairs["ruleset"].astype(str) == str(best.ruleset))
              & (pairs["aim"].astype(str) == str(best.aim)) & (pairs["b"] == best.choice)
              & (pairs["a"] != AS_PLAYED_RULE)]
    out = []
    for row in p.itertuples():
        kind = difference_kind(float(row.low), float(row.high))
        reader = probe(study_game("trump"), "trump", kind, "pairs", against=best.choice)
        out.append((reader, make_cell(reader, result, best.players, str(row.a), "difference",
                                      ruleset=best.ruleset, aim=best.aim)))
    return out


def chooser_claims(result: StudyResult) -> list[Claim]:
    """Each chooser's own choice against the best fixed rule on its own decisions, per player
    count and rule set (paired, the choosers table's ``own_minus``), grouped by what the
    study decided: the table's ``clear`` column (Holm over the rules), never the plain
    interval. Each cell of a claim carries the difference, the table's verdict and its
    Holm-adjusted p."""
    if "choosers" not in result.tables:
        return []
    c = result.table("choosers")
    best = c[c["best_rule"].astype(bool)]
    command = study_command(result) or ""
    claims = []
    game = study_game("trump")
    for chooser, part in best.groupby("chooser", sort=False):
        groups: dict[str, list[tuple[Claim, Cell]]] = {}
        for row in part.itertuples():
            clear = bool(row.clear)
            kind = ("unclear" if not clear else
                    "negative" if row.own_minus < 0 else "positive")
            at = dict(ruleset=str(row.ruleset), field_=str(chooser))
            diff = probe(game, "trump", "value", "choosers")
            said = probe(game, "trump", "equals", "choosers", extra={"equals": str(clear)})
            p = probe(game, "trump", "value", "choosers", extra={"exact": True})
            groups.setdefault(kind, []).extend(
                (r, make_cell(r, result, int(row.players), str(row.rule), m, **at))
                for r, m in ((diff, "own_minus"), (said, "clear"), (p, "p_holm")))
        for kind, parts in groups.items():
            what = {"negative": "loses clearly fewer sticks", "positive":
                    "loses clearly more sticks", "unclear": "is not clearly better or worse"}[kind]
            diffs = [x for r, x in parts if x.metric == "own_minus"]
            ps = {(x.players, x.ruleset): x for r, x in parts if x.metric == "p_holm"}
            each = "; ".join(
                f"{x.players} players, {x.ruleset}: "
                f"{interval(x.value, (x.high - x.low) / 2, signed=True)} against "
                f"{rule_label(x.choice)}, Holm-adjusted p "
                f"{number(ps[(x.players, x.ruleset)].value, 3)}" for x in diffs)
            sentence = (f"{chooser}'s own trump choice (a table of {chooser}) {what} than "
                        f"the best fixed rule on the same decisions ({each}; clear only "
                        "after Holm's correction over the rules, as in the study's table).")
            claims.append(several(f"trump-chooser-{chooser}-{kind}", sentence, parts,
                                  game=game, study="trump", question=question("trump"),
                                  command=command))
    return claims


FACTOR_WORDS = {"players": "the player count", "aim": "your aim", "ruleset": "the rule set"}


def _trump_cells(claims: list[Claim]) -> dict[tuple, tuple[Cell, list[tuple[Claim, Cell]]]]:
    """Per (players, rule set, aim): the best rule's cell and its paired comparisons, as the
    trump claims carry them."""
    out: dict[tuple, tuple[Cell, list[tuple[Claim, Cell]]]] = {}
    for claim in claims:
        for i, cell in enumerate(claim.cells):
            stated = statement(claim, i)
            key = (cell.players, cell.ruleset, cell.aim)
            if stated.table == "rules":
                out[key] = (cell, out.get(key, (cell, []))[1])
            else:
                out.setdefault(key, (cell, []))[1].append((stated, cell))
    return out


def _top(best: Cell, pairs: list[tuple[Claim, Cell]]) -> set[str]:
    """The best rule of a cell and the rules not clearly worse than it there."""
    return {best.choice} | {c.choice for r, c in pairs if r.kind != "positive"}


def trump_verdict(result: StudyResult, claims: list[Claim]) -> tuple[str, Claim | None]:
    """The trump answer's first words, saying only what is clear, as a claim on its cells: a
    rule to fix where one is best or not clearly worse in every cell; otherwise each of
    player count, aim and rule set that the answer clearly depends on: two cells that differ
    only in it share no rule that is best or not clearly worse in both (each other rule is
    clearly worse in one of them, paired on the same decisions)."""
    cells = _trump_cells(claims)
    if not cells:
        return "See below.", None
    reader = probe(study_game("trump"), "trump", "best", "rules",
                   extra={"exclude": [AS_PLAYED_RULE]})
    tops = {k: _top(best, pairs) for k, (best, pairs) in cells.items()}
    common = set.intersection(*tops.values())
    parts: list[tuple[Claim, Cell]] = []
    if common:
        everywhere = [r for r in common if all(b.choice == r for b, _ in cells.values())]
        rule = (everywhere or sorted(common))[0]
        for best, pairs in cells.values():
            parts.append((reader, best))
            parts += [(r, c) for r, c in pairs if c.choice == rule]
        verdict = (f"Fix {rule_phrase(rule)}." if everywhere else
                   f"Fix {rule_phrase(rule)} (the best, or not clearly worse, everywhere).")
    else:
        shown = []
        for i, factor in enumerate(("players", "ruleset", "aim")):
            for a, b in ((a, b) for a in cells for b in cells if a < b):
                same = all(a[j] == b[j] for j in range(3) if j != i)
                if same and a[i] != b[i] and not tops[a] & tops[b]:
                    shown.append(factor)
                    for key in (a, b):
                        parts.append((reader, cells[key][0]))
                        parts += cells[key][1]
                    break
        if shown:
            words = [FACTOR_WORDS[f] for f in ("players", "aim", "ruleset") if f in shown]
            verdict = "It depends on " + (" and ".join(words)) + "."
        else:
            for best, pairs in cells.values():
                parts.append((reader, best))
                parts += pairs
            verdict = ("No one rule is best or tied everywhere, but no single factor (player "
                       "count, aim, rule set) clearly decides it alone.")
    return verdict, several("trump-verdict", verdict, parts, game=study_game("trump"),
                            study="trump", question=question("trump"),
                            command=study_command(result) or "")


def trump_decision_table(claims: Iterable[Claim]) -> pd.DataFrame:
    """The trump answer as a table a player can read at the table, rendered from the cells of
    the (vetted) trump claims only: per player count, rule set and aim, the rule to fix and
    its loss, the runner-up and whether it is clearly worse or tied (paired on the same
    decisions), and beside it what each strong chooser's own judgement does against the
    best fixed rule (the choosers table, 'clear' after Holm). Empty without trump claims."""
    claims = list(claims)
    cells = _trump_cells([c for c in claims if c.id.startswith("trump-")
                          and not c.id.startswith(("trump-chooser-", "trump-verdict"))])
    judged: dict[tuple, list[str]] = {}
    for claim in claims:
        if not claim.id.startswith("trump-chooser-"):
            continue
        flags = {(c.players, c.ruleset, c.field): c for i, c in enumerate(claim.cells)
                 if c.metric == "clear"}
        for c in claim.cells:
            if c.metric != "own_minus":
                continue
            flag = flags.get((c.players, c.ruleset, c.field))
            said = statement(claim, claim.cells.index(flag)).extra.get("equals") if flag \
                else None
            verdict = "clear" if said == "True" else "not clear"
            judged.setdefault((c.players, c.ruleset), []).append(
                f"{c.field}: {interval(c.value, (c.high - c.low) / 2, signed=True)} "
                f"({verdict})")
    rows = []
    for (n, rs, aim), (best, pairs) in sorted(cells.items(), key=lambda x: (
            x[0][0], str(x[0][1]), str(x[0][2]))):
        tied = [p for p in pairs if p[0].kind != "positive"]  # not clearly worse
        runner = min(tied or pairs, key=lambda p: p[1].value, default=None)
        rows.append({
            "players": n, "rule set": rs, "aim": AIM_WHO.get(str(aim), str(aim)).lower(),
            "fix": rule_label(best.choice),
            "sticks lost": interval(best.value, (best.high - best.low) / 2),
            "runner-up": rule_label(runner[1].choice) if runner else "",
            "runner-up is": ("" if runner is None else "clearly worse" if
                             runner[0].kind == "positive" else "tied"),
            "own judgement minus the fixed rule": "; ".join(judged.get((n, rs), [])),
        })
    return pd.DataFrame(rows)


def trump_finding(result: StudyResult) -> Finding:
    """The rule that loses fewest sticks, per aim and per cell (player count, rule set),
    stated for each group of cells that agree (analyzer/studies/claims.py); the verdict says
    only the dependence that is clear (:func:`trump_verdict`)."""
    claims = trump_claims(result)
    if not claims:
        return Finding("trump", question("trump"), "See below.", "")
    verdict, said = trump_verdict(result, claims)
    choosers = chooser_claims(result)
    detail = " ".join(c.sentence for c in claims + choosers)
    return Finding("trump", question("trump"), verdict,
                   detail + " Lost sticks: how many fewer sticks the chooser gets than with "
                   "the suit that would have been best, knowing every hand.",
                   tuple(([said] if said else []) + claims + choosers))


def compare_finding(result: StudyResult) -> Finding:
    """The best strategy at each player count, whether it is clearly ahead of every other,
    and the fair share; one claim per player count (the field is the compared strategies)."""
    rank = result.table("ranking")
    pairs = result.table("pairs")
    m = result.manifest
    metric = str(m.get("metric", ""))
    better = facts.better(m)  # the game's direction for the metric, never the file's
    rate = is_rate(metric)
    unit = compare_unit(m)
    game = str(m.get("game"))
    title = game_title(game)
    units = "matches" if unit == "match" else unit + "s"
    command = study_command(result) or ""
    field_ = ",".join(str(x) for x in m.get("strategies", []))
    claims, verdicts = [], []
    for n in sorted(rank["players"].unique()):
        # the best by the metric itself, in the game's direction (the cell's statement)
        part = rank[rank["players"] == n].sort_values("mean", kind="stable",
                                                      ascending=better == "lower")
        best = part.iloc[0]
        p = pairs[pairs["players"] == n]
        reader = probe(game, "compare", "best", "ranking", better=better)
        cell = make_cell(reader, result, int(n), str(best["strategy"]), "mean", field_=field_)
        dealt = probe(game, "compare", "value", "ranking", extra={"exact": True})
        deals = make_cell(dealt, result, int(n), cell.choice, "deals", field_=field_)
        parts = [(reader, cell), (dealt, deals)]
        unclear = []
        for other in part["strategy"].iloc[1:].astype(str):
            row = p[((p["a"] == cell.choice) & (p["b"] == other))
                    | ((p["a"] == other) & (p["b"] == cell.choice))]
            if len(row) != 1:
                continue
            a, b = str(row["a"].iloc[0]), str(row["b"].iloc[0])
            kind = difference_kind(float(row["low"].iloc[0]), float(row["high"].iloc[0]))
            pair = probe(game, "compare", kind, "pairs", against=b)
            parts.append((pair, make_cell(pair, result, int(n), a, "difference",
                                          field_=field_)))
            # clearly ahead: the paired difference clearly in the best's favour
            ahead = "negative" if (a == cell.choice) == (better == "lower") else "positive"
            if kind != ahead:
                unclear.append(other)
        value = interval(cell.value, (cell.high - cell.low) / 2, percent=rate)
        fair = f" against a fair share of {100 / int(n):.0f}%" if metric == "won" else ""
        what = (f"wins {value} of its {units}{fair}" if metric == "won" else
                f"has a {metric_words(metric)} of {value} per {unit}")
        table = m.get("table")
        where = ("with every strategy in every seat" if not table else
                 f"each in one seat at a table of {table}, in every seat")
        # the rotations: a fresh order per group of deals, so nobody keeps its neighbours
        seated = "" if table else f" (the seating drawn afresh every few {units})"
        among = (f"among {', '.join(part['strategy'])}, " if len(part) > 1 else "")
        sentence = (f"At {int(n)} players of {title}, {among}"
                    f"{cell.choice} {what}, {where} of the same "
                    f"{count(deals.value)} {units}{seated}"
                    + (f"; not clearly ahead of {', '.join(unclear)}." if unclear else
                       "." if len(part) == 1 else ", clearly ahead of every other strategy."))
        claims.append(several(f"compare-{int(n)}", sentence, parts, game=game,
                              study="compare", question=f"Which strategy wins? ({title})",
                              command=command))
        verdicts.append(
            (f"No clear winner between {best['strategy']} and {', '.join(unclear)}"
             if unclear else f"{best['strategy']} {what} at a table of {table}"
             if len(part) == 1 else f"{best['strategy']} wins")
            + (f" at {int(n)} players" if rank["players"].nunique() > 1 else ""))
    return Finding("compare", f"Which strategy wins? ({title})", "; ".join(verdicts) + ".",
                   " ".join(c.sentence for c in claims), tuple(claims))


def _left_out(manifest: dict, games: list) -> list[str]:
    """The registered strategies the ladder did not rate (tagged slow or not a player)."""
    from strategies.registry import catalog

    by_game = manifest.get("by_game") or {}
    out = []
    for g in games:
        rated = set((by_game.get(g) or {}).get("strategies") or manifest.get("strategies") or [])
        try:
            book = catalog(str(g), with_files=False)
        except Exception:  # an unknown game in an old manifest: nothing to say
            continue
        out += [f"{name} ({game_title(str(g))})" for name, spec in book.items()
                if name not in rated and set(spec.tags) & {"slow", "not-a-player"}]
    return out


def margin_text(manifest: dict, game: str) -> str:
    """The ladder's margin for ``game`` in words ('' when 0 or not recorded)."""
    from analyzer.studies.ladder import margin_words

    m = (manifest.get("by_game") or {}).get(game) or manifest
    margin, metric = m.get("margin"), m.get("metric")
    if not margin or not metric:
        return ""
    try:
        unit = game_description(str(game)).mode(str(m.get("mode") or "")).unit
    except Exception:  # an unknown game or mode in an old manifest: the bare unit word
        unit = "deal"
    return margin_words(float(margin), str(metric), unit)


def ladder_finding(result: StudyResult) -> Finding:
    """The first group of each game's ladder at each player count, one claim per cell; which
    strategies entered on a share of the deals (tagged slow), and which were not rated."""
    ratings = result.table("ratings")
    m = result.manifest
    games = list(dict.fromkeys(ratings["game"])) if "game" in ratings else [""]
    command = study_command(result) or ""
    verdicts, claims = [], []
    for g in games:
        whole = ratings[ratings["game"] == g] if g else ratings
        title = game_title(str(g)) if g else "the game"
        for n in sorted(whole["players"].unique()):
            part = whole[whole["players"] == n].sort_values("rank")
            top = part[part["tier"] == part["tier"].min()]
            names = [str(x) for x in top["strategy"]]
            reader = probe(str(g), "ladder", "top-group", "ratings")
            field_ = ",".join(str(x) for x in part["strategy"])
            cells = tuple(make_cell(reader, result, int(n), name, "rating", field_=field_)
                          for name in names)
            named = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            verdicts.append(f"{title}, {int(n)} players: {named}"
                            + (" (the strongest is one of them)" if len(names) > 1 else ""))
            pct = is_rate(str(((m.get("by_game") or {}).get(g) or m).get("metric", "")))
            ratings_words = "; ".join(
                f"{c.choice} {interval(c.value, (c.high - c.low) / 2, signed=True, percent=pct)}"
                for c in cells)
            beyond = margin_text(m, g)
            beyond = f" more than {beyond}" if beyond else ""
            ahead = (f"each of them clearly{beyond} ahead of every strategy outside the group"
                     if len(names) > 1 else f"clearly{beyond} ahead of every other")
            sentence = (f"At {int(n)} players of {title}, on mixed tables of the same deals "
                        f"with every strategy in every seat and the seating drawn afresh for "
                        f"every few deals, the first group of the {len(part)} rated strategies "
                        f"({', '.join(part['strategy'])}) is {named}, {ahead} (rating against "
                        f"the average table: {ratings_words}).")
            claims.append(Claim(f"ladder-{g}-{int(n)}", question("ladder"), sentence, str(g),
                                "ladder", command, "top-group", "ratings", cells))
            slow = ([str(x) for x in part.loc[part["entrant"].astype(bool), "strategy"]]
                    if "entrant" in part else [])
            if slow and set(names) <= set(slow):  # the best without the slow search as well
                rest = part[~part["strategy"].isin(slow)]
                first = [str(x) for x in rest.loc[rest["tier"] == rest["tier"].min(),
                                                  "strategy"]]
                reader = probe(str(g), "ladder", "top-group", "ratings",
                               extra={"exclude": slow})
                fast = tuple(make_cell(reader, result, int(n), name, "rating", field_=field_)
                             for name in first)
                words = "; ".join(
                    c.choice + " " + interval(c.value, (c.high - c.low) / 2, signed=True,
                                              percent=pct) for c in fast)
                listed = (first[0] if len(first) == 1 else
                          ", ".join(first[:-1]) + " and " + first[-1])
                verdicts[-1] += f", then {listed}"
                claims.append(Claim(
                    f"ladder-{g}-{int(n)}-without-slow", question("ladder"),
                    f"Without {' and '.join(slow)} (a search, tagged slow), the first group "
                    f"at {int(n)} players of {title} is {listed} ({words}).", str(g), "ladder",
                    command, "top-group", "ratings", fast, extra={"exclude": slow}))
    margins = [f"{margin_text(m, g)} in {game_title(str(g)) if g else 'the game'}"
               for g in games if margin_text(m, g)]
    detail = " ".join(c.sentence for c in claims) + (
        " Groups are cut only where every strategy above is clearly "
        + (f"more than the margin ({'; '.join(margins)}) ahead of" if margins else
           "separated from")
        + " every one below (Holm's correction over all pairs); intervals are taken over the "
        "seatings.")
    entrants = list(dict.fromkeys(m.get("entrants") or []))
    if entrants:
        detail += (f" {' and '.join(entrants)} (tagged slow) played 1/{m.get('slow_share')} of "
                   "the budget, taking every seat at tables of the others, and is rated on the "
                   "same scale.")
    if "left_out" in m:
        by_reason: dict[tuple[str, str], list[str]] = {}
        for x in m["left_out"]:
            by_reason.setdefault((x["strategy"], x["reason"]), []).append(
                game_title(str(x.get("game") or m.get("game"))))
        left = [f"{name} ({' and '.join(dict.fromkeys(where))}): {reason}"
                for (name, reason), where in by_reason.items()]
        if left:
            detail += f" Not rated: {'; '.join(left)}."
    else:  # a manifest from before the ladder recorded what it left out
        left = _left_out(m, games)
        if left:
            detail += (f" Not rated (tagged slow or not a player): "
                       f"{', '.join(map(str, left))}.")
    return Finding("ladder", question("ladder"), "; ".join(verdicts) + ".", detail,
                   tuple(claims))


def question(study: str) -> str:
    """The question ``study`` answers for players (the study registry)."""
    return studies.get(study).question


def key_finding(result: StudyResult, replica: Iterable[StudyResult] | None = None
                ) -> Finding | None:
    """The study's one-line answer, or None for a study without one. ``replica``: the
    studies of the same suite at another seed (cardlab study replicate); a finding whose
    report module says ``REPLICATES`` then says whether its headline replicated in the same
    study there."""
    make = report_part(result.study, "finding")
    if not make:
        return None
    twin = next((r for r in replica or () if r.study == result.study), None)
    if twin is not None and report_part(result.study, "REPLICATES"):
        return make(result, twin)
    return make(result)


def vetted(finding: Finding, result: StudyResult) -> tuple[Finding, list[Alert]]:
    """``finding`` with every claim re-checked against the study's table
    (analyzer/studies/claims.py): a claim that fails in any cell is not printed; it becomes
    an alert naming the cells."""
    alerts, kept = [], []
    detail, verdict = finding.detail, finding.verdict
    for claim in finding.claims:
        problems = check(claim, result)
        if problems:
            detail = detail.replace(claim.sentence, "").strip()
            alerts.append(Alert(finding.study, withdrawn(claim, problems)))
            if claim.sentence == verdict:  # the verdict itself does not hold
                verdict = "See below."
        else:
            kept.append(claim)
    if not alerts:
        return finding, []
    if not kept:
        return Finding(finding.study, finding.question, "See below.",
                       detail or "No statement holds in every cell; see the study.", ()), alerts
    return Finding(finding.study, finding.question, verdict, detail, tuple(kept)), alerts


def vetted_study(result: StudyResult) -> tuple[list[Claim], list[str], list[Alert]]:
    """The study's own claims re-checked against its tables (analyzer/studies/claims.py):
    those that hold (with the study's command), the sentences to show (the study's
    headlines without those of claims that fail), and an alert naming the cells of each
    claim that fails. A study saved before its sentences were claims keeps its headlines."""
    command = study_command(result) or ""
    kept, alerts, dropped = [], [], set()
    for claim in result.claims:
        claim = replace(claim, command=claim.command or command)
        problems = check(claim, result)
        if problems:
            dropped.add(claim.sentence)
            alerts.append(Alert(result.study, withdrawn(claim, problems)))
        else:
            kept.append(claim)
    headlines = [h for h in result.headlines if h not in dropped]
    if result.claims:  # every sentence shown is the sentence of a claim that holds
        said = {c.sentence for c in kept}
        headlines = [h for h in headlines if h in said]
    return kept, headlines, alerts


# ------------------------------------------------------------------------------ alerts
def pair_alerts(study: str, pairs: pd.DataFrame, count_option: str = "--games") -> list[Alert]:
    out = []
    if "variance_reduction" not in pairs:
        return out
    weak = pairs[pairs["variance_reduction"] < 1]
    if len(weak):
        names = ", ".join(f"{r.a} vs {r.b}" + (f" at {int(r.players)} players"
                                                if "players" in pairs else "")
                          for r in weak.head(4).itertuples())
        more = f" and {len(weak) - 4} more" if len(weak) > 4 else ""
        out.append(Alert(study, (
            f"Pairing did not narrow the interval for {len(weak)} of {len(pairs)} comparisons "
            f"({names}{more}; variance reduction {number(weak['variance_reduction'].min(), 2)}× "
            f"to {number(weak['variance_reduction'].max(), 2)}×, below 1): there the same "
            "deals did not cancel luck, and the paired intervals are as wide as, or wider "
            "than, unpaired ones.")))
    if "seq_stopped_by" in pairs:
        spent = pairs[pairs["seq_stopped_by"] == "budget"]
        if len(spent):
            names = ", ".join(f"{r.a} vs {r.b}" for r in spent.head(4).itertuples())
            out.append(Alert(study, (
                f"--until-sure spent its whole budget on {len(spent)} comparison"
                f"{'s' if len(spent) > 1 else ''} without a clear answer ({names}): raise "
                f"{count_option} to decide them.")))
    return out


def study_alerts(result: StudyResult) -> list[Alert]:
    """What to know before trusting this study's numbers."""
    out: list[Alert] = []
    from analyzer.studies.results import DIGEST

    # a manifest read from a study folder (it lists its table files) without a checksum
    if result.manifest.get("tables") and DIGEST not in result.manifest:
        out.append(Alert(result.study, (
            "This study's manifest carries no checksum (written by an older cardlab, or the "
            "checksum was removed): an edit of its fields cannot be detected. Run the study "
            "again to be sure of its settings.")))
    own = report_part(result.study, "alerts")  # the study's own (reports/studies/<study>.py)
    if own is not None:
        out += own(result)
    return out

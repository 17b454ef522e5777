"""Game records of Plus-Minus Jass (game-records.md): from the numba engine's trace, and back.

:func:`trace_record` replays one match (or one deal) of a run in the numba engine with the
trace on and returns its record. Extra keys beyond the documented shape: ``mode``,
``first_dealer``, ``capped``, and per deal ``fixer`` (seat that fixed trump, or null),
``bonus`` (sticks from remembered ties paid in that deal) and ``aims`` (each seat's aim in the
deal: "high", "low" or "n/a"). In ``deals`` mode a record holds one deal, seat n-1 deals, its
``sticks`` are the single-deal sticks and ``winner`` is null.

:func:`check_record` verifies a record on its own, with the reference rules: every card legal,
every trick's winner, points (157 per deal), sticks with remembered ties, totals and the winner.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np

from analyzer.engines.jass import engine
from analyzer.engines.jass.kernel import engine_inputs, validate
from analyzer.engines.jass.reference import (
    deal_sticks,
    legal_cards,
    pay_ties,
    trick_winner,
)
from analyzer.engines.kernel import RunSpec
from analyzer.games.jass.cards import (
    LAST_TRICK_BONUS,
    SUIT_LETTERS,
    card_name,
    card_points,
    hand_names,
    parse_card,
)
from strategies.jass.knobs import AIM_LABELS
from strategies.registry import parse_strategy


def trace_record(spec: RunSpec, index: int) -> dict[str, Any]:
    """The record of unit ``index`` of ``spec``, played by the numba engine in trace mode."""
    spec = validate(spec)
    fams, prms = engine_inputs(spec)
    n = spec.players
    deals_mode = spec.mode == "deals"
    status, trace, res, _ = engine.trace_unit(
        spec.seed, index, n, spec.rules["ruleset"] == "swiss", spec.rules["deal_cap"],
        fams, prms, deals_mode,
    )
    if status != engine.DONE:
        seat = int(status) - engine.ILLEGAL
        raise RuntimeError(f"strategy {spec.strategies[seat]!r} at seat {seat} moved illegally "
                           f"in jass seed={spec.seed} index={index}")
    winner = int(res[engine.R_WINNER])
    return {
        "game": "jass", "version": 1, "seed": spec.seed, "index": index, "players": n,
        "strategies": [parse_strategy("jass", t).label() for t in spec.strategies],
        "rules": dict(spec.rules), "mode": spec.mode,
        "first_dealer": int(res[engine.R_FIRST_DEALER]),
        "deals": [_deal_record(row, n) for row in trace],
        "winner": winner if winner >= 0 else None,
        "capped": bool(res[engine.R_CAPPED]),
    }


def _deal_record(row: np.ndarray, n: int) -> dict[str, Any]:
    ntricks = 36 // n
    tricks = []
    for t in range(ntricks):
        cards = row[engine.T_CARDS + t * n: engine.T_CARDS + (t + 1) * n]
        tricks.append({
            "leader": int(row[engine.T_LEADERS + t]),
            "cards": [card_name(int(c)) for c in cards],
            "winner": int(row[engine.T_WINNERS + t]),
        })
    trump = int(row[engine.T_TRUMP])
    fixer = int(row[engine.T_FIXER])

    def seats(offset: int) -> list[int]:
        return [int(row[offset + i]) for i in range(n)]

    return {
        "dealer": int(row[engine.T_DEALER]),
        "hands": [hand_names(int(row[engine.T_HANDS + i])) for i in range(n)],
        "aims": [AIM_LABELS[int(row[engine.T_AIM + i])] for i in range(n)],
        "tricks": tricks,
        "trump": SUIT_LETTERS[trump] if trump >= 0 else None,
        "fixer": fixer if fixer >= 0 else None,
        "points": seats(engine.T_POINTS),
        "sticks": seats(engine.T_STICKS),
        "totals": seats(engine.T_TOTALS),
        "bonus": seats(engine.T_BONUS),
    }


def spec_of_record(record: dict[str, Any]) -> RunSpec:
    """The run spec that reproduces a record (seed, players, strategies, rules, mode)."""
    return RunSpec(
        game="jass", players=int(record["players"]), strategies=tuple(record["strategies"]),
        seed=int(record["seed"]), mode=record.get("mode", "matches"),
        rules=dict(record["rules"]),
    )


def replays_identically(record: dict[str, Any]) -> bool:
    """True when replaying the record's (seed, index) with its spec gives the same record."""
    return trace_record(spec_of_record(record), int(record["index"])) == record


def to_json(record: dict[str, Any]) -> str:
    """One JSON line (no newline)."""
    return json.dumps(record, separators=(",", ":"))


def check_record(record: dict[str, Any]) -> list[str]:
    """Check a record against the rules alone; returns a list of problems (empty: all right)."""
    problems: list[str] = []
    n = int(record["players"])
    ruleset = record["rules"]["ruleset"]
    single = record.get("mode") == "deals"
    pending: Counter[tuple[int, int]] = Counter()
    totals = [0] * n
    for k, deal in enumerate(record["deals"]):
        where = f"deal {k + 1}"
        hands = [[parse_card(c) for c in h] for h in deal["hands"]]
        if sorted(c for h in hands for c in h) != list(range(36)):
            problems.append(f"{where}: the hands are not the 36 cards")
            return problems
        trump = -1
        leader = (int(deal["dealer"]) + 1) % n
        taken: list[list[int]] = [[] for _ in range(n)]
        last = -1
        for t, trick in enumerate(deal["tricks"]):
            if trick["leader"] != leader:
                problems.append(f"{where} trick {t + 1}: leader {trick['leader']} != {leader}")
            cards: list[int] = []
            for pos, name in enumerate(trick["cards"]):
                seat = (leader + pos) % n
                c = parse_card(name)
                if c not in legal_cards(hands[seat], cards, trump, ruleset):
                    problems.append(f"{where} trick {t + 1}: {name} by seat {seat} is illegal")
                    return problems
                if trump < 0 and cards and c // 9 != cards[0] // 9:
                    trump = c // 9
                hands[seat].remove(c)
                cards.append(c)
            w = (leader + trick_winner(cards, trump)) % n
            if trick["winner"] != w:
                problems.append(f"{where} trick {t + 1}: winner {trick['winner']} != {w}")
            taken[w].extend(cards)
            leader = last = w
        if (SUIT_LETTERS[trump] if trump >= 0 else None) != deal["trump"]:
            problems.append(f"{where}: trump {deal['trump']} does not match the play")
        pts = [sum(card_points(c, trump) for c in taken[i]) for i in range(n)]
        pts[last] += LAST_TRICK_BONUS
        if pts != deal["points"] or sum(pts) != 157:
            problems.append(f"{where}: points {deal['points']} != {pts}")
        award, ties = deal_sticks(pts)
        bonus = [0] * n if single else pay_ties(pending, award, ties)
        got = [award[i] + bonus[i] for i in range(n)]
        totals = [totals[i] + got[i] for i in range(n)]
        if got != deal["sticks"] or totals != deal["totals"]:
            problems.append(f"{where}: sticks {deal['sticks']}/{deal['totals']} != {got}/{totals}")
    if not single:
        top = max(totals)
        winner = totals.index(top) if top >= 7 and totals.count(top) == 1 else None
        if winner != record["winner"]:
            problems.append(f"winner {record['winner']} != {winner}")
    return problems



def match_records(spec: RunSpec, start: int, count: int):
    """The records of matches ``start`` .. ``start + count - 1`` of ``spec``, one by one."""
    for index in range(start, start + count):
        yield trace_record(spec, index)


def detail_rows(records) -> dict[str, np.ndarray]:
    """One row per seat of each deal of each match record: the columns of the description's
    ``MATCH_DEAL_COLUMNS`` (docs/data-dictionary.md), in order."""
    from analyzer.games.jass.description import MATCH_DEAL_COLUMNS

    out: dict[str, list] = {c.name: [] for c in MATCH_DEAL_COLUMNS}
    for record in records:
        n = record["players"]
        for d, deal in enumerate(record["deals"], start=1):
            won = Counter(t["winner"] for t in deal["tricks"])
            last = deal["tricks"][-1]["winner"]
            trump = -1 if deal["trump"] is None else SUIT_LETTERS.index(deal["trump"])
            for s in range(n):
                for name, value in (
                        ("index", record["index"]), ("deal", d), ("seat", s),
                        ("dealer", deal["dealer"]), ("trump", trump),
                        ("fixed_trump", deal["fixer"] == s), ("points", deal["points"][s]),
                        ("tricks", won[s]), ("last_trick", last == s),
                        ("sticks", deal["sticks"][s]), ("bonus_sticks", deal["bonus"][s]),
                        ("total", deal["totals"][s])):
                    out[name].append(value)
    return {c.name: np.asarray(out[c.name], dtype=c.dtype) for c in MATCH_DEAL_COLUMNS}

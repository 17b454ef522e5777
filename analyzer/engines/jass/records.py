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
from analyzer.engines.kernel import IllegalStep, RunSpec, first_illegal_step
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


unit_record = trace_record  # every game's records module names its one record unit_record


def warm_studies() -> None:
    """What ``study all`` compiles for this game beyond the kernel's warmup: the studies'
    mixed tables (the general loop) and the trace mode that replays the report's sample
    deals (analyzer.studies.suite, the game's adapter)."""
    from analyzer.engines.jass import kernel

    kernel.warmup_tables()
    trace_record(validate(RunSpec("jass", 4, ("adaptive",) * 4, seed=0, mode="deals")), 0)


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


# --- a record read from a file, replayed through the rules before it is used ---------------


def first_illegal(record: dict[str, Any]) -> str | None:
    """The first step of a match or deal record (from a file, perhaps edited by hand) that the
    rules do not allow, as ``"where: what (ruling)"``; None when every step is legal: the deck
    and the deal (J-1, J-2), dealers and leaders (J-3, J-4), every card (J-5, J-6), every
    trick's winner (J-7), points (J-8), sticks and totals (J-9) and the end of the match
    (J-10). Not checked: that the deal is the one the record's seed gives."""
    return first_illegal_step(_check_jass, record)


def _seat(value: Any, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def _check_jass(record: dict[str, Any]) -> None:
    from analyzer.errors import CardlabError
    from analyzer.games.jass.rules import PLAYERS, make_rules

    if not isinstance(record, dict):
        raise IllegalStep("record", "not a JSON object", "docs/game-records.md")
    n = record["players"]
    if n not in PLAYERS or isinstance(n, bool):
        raise IllegalStep("players", f"{n!r} players; Plus-Minus Jass is played by "
                          f"{' or '.join(map(str, PLAYERS))}", "J-2")
    try:
        rules = make_rules(n, record.get("rules"))
    except CardlabError as exc:
        raise IllegalStep("rules", str(exc), "J-6") from None
    single = record.get("mode") == "deals"
    deals = record["deals"]
    if not isinstance(deals, list) or not deals or (single and len(deals) != 1):
        raise IllegalStep("deals", "a match record holds its deals, a deal record one deal",
                          "J-10")
    per = 36 // n
    dealer = n - 1 if single else record.get("first_dealer", deals[0].get("dealer"))
    if not _seat(dealer, n):
        raise IllegalStep("first_dealer", f"{dealer!r} is not a seat 0 to {n - 1}", "J-3")
    pending: Counter[tuple[int, int]] = Counter()
    totals = [0] * n
    for k, deal in enumerate(deals):
        at = f"deal {k}"
        if k and not single:
            top = max(totals)
            if top >= 7 and totals.count(top) == 1:
                raise IllegalStep(at, f"a deal after seat {totals.index(top)} won the match "
                                  f"with {top} sticks", "J-10")
        if deal["dealer"] != dealer:
            raise IllegalStep(at, f"dealer {deal['dealer']}; the deal passes one seat on: "
                              f"seat {dealer} deals", "J-3")
        hands = deal["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise IllegalStep(f"{at} hands", f"{n} hands are dealt", "J-2")
        seen: dict[int, int] = {}
        held: list[list[int]] = []
        for s, names in enumerate(hands):
            cards = []
            for name in names:
                try:
                    c = parse_card(name)
                except (ValueError, TypeError, KeyError):
                    raise IllegalStep(f"{at} hands seat {s}", f"unknown card {name!r}",
                                      "J-1") from None
                if c in seen:
                    raise IllegalStep(f"{at} hands", f"{name} is in the hands of seat "
                                      f"{seen[c]} and seat {s}; the deck has one", "J-1")
                seen[c] = s
                cards.append(c)
            if len(cards) != per:
                raise IllegalStep(f"{at} hands seat {s}", f"{len(cards)} cards; with {n} "
                                  f"players each is dealt {per}", "J-2")
            held.append(cards)
        trump = -1
        leader = (dealer + 1) % n
        taken: list[list[int]] = [[] for _ in range(n)]
        tricks = deal["tricks"]
        if not isinstance(tricks, list) or len(tricks) != per:
            raise IllegalStep(at, f"{len(tricks) if isinstance(tricks, list) else 0} tricks; "
                              f"every card is played, {per} tricks", "J-4")
        move = 0
        last = leader
        for t, trick in enumerate(tricks):
            where = f"{at} trick {t}"
            if trick["leader"] != leader:
                why = ("the seat after the dealer leads the first trick" if t == 0 else
                       "the previous trick's winner leads")
                raise IllegalStep(where, f"leader {trick['leader']}; seat {leader} leads: {why}",
                                  "J-3" if t == 0 else "J-4")
            names = trick["cards"]
            if not isinstance(names, list) or len(names) != n:
                raise IllegalStep(where, f"every seat plays one card, {n}", "J-4")
            cards: list[int] = []
            for pos, name in enumerate(names):
                seat = (leader + pos) % n
                step = f"{where}, card {pos} (--move {move})"
                move += 1
                try:
                    c = parse_card(name)
                except (ValueError, TypeError, KeyError):
                    raise IllegalStep(step, f"unknown card {name!r}", "J-1") from None
                if c not in held[seat]:
                    raise IllegalStep(step, f"seat {seat} plays {name}, which it does not hold "
                                      "(its dealt hand less the cards it played)", "J-2")
                if c not in legal_cards(held[seat], cards, trump, rules.ruleset):
                    raise IllegalStep(step, f"seat {seat} may not play {name} here",
                                      "J-5" if trump < 0 else "J-6")
                if trump < 0 and cards and c // 9 != cards[0] // 9:
                    trump = c // 9
                held[seat].remove(c)
                cards.append(c)
            w = (leader + trick_winner(cards, trump)) % n
            if trick["winner"] != w:
                raise IllegalStep(where, f"winner {trick['winner']}; seat {w} takes it", "J-7")
            taken[w].extend(cards)
            leader = last = w
        if (SUIT_LETTERS[trump] if trump >= 0 else None) != deal["trump"]:
            raise IllegalStep(at, f"trump {deal['trump']}; the play fixes "
                              f"{SUIT_LETTERS[trump] if trump >= 0 else 'none'}", "J-5")
        pts = [sum(card_points(c, trump) for c in taken[i]) for i in range(n)]
        pts[last] += LAST_TRICK_BONUS
        if deal["points"] != pts:
            raise IllegalStep(at, f"points {deal['points']}; the tricks give {pts}", "J-8")
        award, ties = deal_sticks(pts)
        bonus = [0] * n if single else pay_ties(pending, award, ties)
        got = [award[i] + bonus[i] for i in range(n)]
        totals = [totals[i] + got[i] for i in range(n)]
        if deal["sticks"] != got or deal["totals"] != totals:
            raise IllegalStep(at, f"sticks {deal['sticks']}, totals {deal['totals']}; the points "
                              f"give {got}, {totals}", "J-9")
        dealer = (dealer + 1) % n

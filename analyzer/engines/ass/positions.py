"""Positions of recorded games: the full state before any play, and the decider's view there.

A game record (game-records.md) says every move, so replaying it in plain Python up to any
play gives the whole state at that point: every hand, the cards gone, the round so far, the
known holdings (cards.py, PUB_KNOWN) and the move record the search reads (``record_at``).
Tests and benchmarks of the search take their positions from real games this way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.engines.ass.records import play_move
from analyzer.games.ass.cards import (
    ASS,
    JOKER,
    PASS,
    PUB_ASS_ROUND,
    PUB_GONE,
    PUB_HIGH,
    PUB_HIGH_SEAT,
    PUB_K,
    PUB_KNOWN,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_SIZES,
    PUB_STARTER,
    PUB_TABLE,
    VIEW_LEN,
    card_kind,
    encode,
)


def state_at(record: dict[str, Any], r: int, p: int) -> dict[str, Any]:
    """The full state just before play ``p`` of round ``r`` of a record (counts by kind)."""
    n = record["players"]
    hands = [[0] * 15 for _ in range(n)]
    for seat, names in enumerate(record["hands"]):
        for name in names:
            hands[seat][card_kind(name)] += 1
    gone = [0] * 15
    blocked = -1
    # what the record shows each seat holds; the ass is with the first starter
    known = [[0] * 15 for _ in range(n)]
    known[record["rounds"][0]["starter"]][ASS] = 1
    for rr, rnd in enumerate(record["rounds"][: r + 1]):
        table = [0] * 15
        ass_round = rnd["ass_round"]
        high, high_seat, k = 0, rnd["starter"], 0
        for pos, play in enumerate(rnd["plays"]):
            if rr == r and pos == p:
                return {"hands": hands, "gone": gone, "table": table, "starter": rnd["starter"],
                        "pos": p, "k": k, "high": high, "high_seat": high_seat,
                        "ass_round": int(ass_round), "round": r, "blocked": blocked, "n": n,
                        "known": known}
            move = play_move(play, ass_round)
            if move is None:
                continue
            v, c, j = move
            seat = play["seat"]
            if v <= 13:
                hands[seat][v] -= c
                table[v] += c
            hands[seat][JOKER] -= j
            table[JOKER] += j
            if v <= 13:
                known[seat][v] = max(known[seat][v] - c, 0)
            known[seat][JOKER] = max(known[seat][JOKER] - j, 0)
            if pos == 0:
                k, high = (1 if ass_round else c + j), v
            elif v > high or (ass_round and v == high):
                high, high_seat = v, seat
        target = hands[rnd["winner"]] if ass_round else gone
        for kind in range(15):
            target[kind] += table[kind]
            if ass_round:
                known[rnd["winner"]][kind] += table[kind]
        blocked = rnd["winner"] if ass_round else -1
    raise IndexError("no such play")


def view_of(state: dict[str, Any]) -> np.ndarray:
    """The decider's view at ``state``, as the engine fills it."""
    n, pos = state["n"], state["pos"]
    seat = (state["starter"] + pos) % n
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    view[:15] = state["hands"][seat]
    view[PUB_GONE : PUB_GONE + 15] = state["gone"]
    view[PUB_TABLE : PUB_TABLE + 15] = state["table"]
    for s in range(n):
        view[PUB_SIZES + s] = sum(state["hands"][s])
    view[PUB_PLAYERS], view[PUB_SEAT], view[PUB_POS] = n, seat, pos
    view[PUB_K], view[PUB_HIGH], view[PUB_ASS_ROUND] = state["k"], state["high"], state["ass_round"]
    view[PUB_STARTER], view[PUB_HIGH_SEAT] = state["starter"], state["high_seat"]
    view[PUB_ROUND] = state["round"]
    view[PUB_MAY_LEAD_ASS] = int(pos == 0 and view[ASS] > 0 and state["blocked"] != seat)
    for s, counts in enumerate(state["known"]):
        view[PUB_KNOWN + s] = sum(int(c) << (4 * kind) for kind, c in enumerate(counts))
    return view


def record_at(record: dict[str, Any], r: int, p: int) -> np.ndarray:
    """The public move record before play ``p`` of round ``r``, as the engine's trace holds
    it (engine.py): per round the starter, the winner, each seat's move code from the
    starter (PASS for a pass); round ``r`` up to play ``p``, the rest PASS."""
    out = np.full((r + 1, 14), PASS, dtype=np.int64)
    for rr, rnd in enumerate(record["rounds"][: r + 1]):
        out[rr, 0] = rnd["starter"]
        if rr < r:
            out[rr, 1] = rnd["winner"]
        for pos, play in enumerate(rnd["plays"][: p if rr == r else None]):
            move = play_move(play, rnd["ass_round"])
            out[rr, 2 + pos] = PASS if move is None else encode(*move)
    return out

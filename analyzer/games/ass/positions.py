"""Positions of recorded games: the full state before any play, and the decider's view there.

A game record (game-records.md) says every move, so replaying it in plain Python up to any
play gives the whole state at that point: every hand, the cards gone, the round so far. Tests
and benchmarks of the search take their positions from real games this way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.ass.cards import (
    ASS,
    JOKER,
    PUB_ASS_ROUND,
    PUB_GONE,
    PUB_HIGH,
    PUB_HIGH_SEAT,
    PUB_K,
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
)
from analyzer.games.ass.records import play_move


def state_at(record: dict[str, Any], r: int, p: int) -> dict[str, Any]:
    """The full state just before play ``p`` of round ``r`` of a record (counts by kind)."""
    n = record["players"]
    hands = [[0] * 15 for _ in range(n)]
    for seat, names in enumerate(record["hands"]):
        for name in names:
            hands[seat][card_kind(name)] += 1
    gone = [0] * 15
    blocked = -1
    for rr, rnd in enumerate(record["rounds"][: r + 1]):
        table = [0] * 15
        ass_round = rnd["ass_round"]
        high, high_seat, k = 0, rnd["starter"], 0
        for pos, play in enumerate(rnd["plays"]):
            if rr == r and pos == p:
                return {"hands": hands, "gone": gone, "table": table, "starter": rnd["starter"],
                        "pos": p, "k": k, "high": high, "high_seat": high_seat,
                        "ass_round": int(ass_round), "round": r, "blocked": blocked, "n": n}
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
            if pos == 0:
                k, high = (1 if ass_round else c + j), v
            elif v > high or (ass_round and v == high):
                high, high_seat = v, seat
        target = hands[rnd["winner"]] if ass_round else gone
        for kind in range(15):
            target[kind] += table[kind]
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
    return view

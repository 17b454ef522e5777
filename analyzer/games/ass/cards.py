"""Card encoding, card names, move codes and the public-state layout of Who's the Ass?.

Cards are *kinds* 0..14, the slot of a hand's count array: 0 the ass, 1..13 the number values,
14 the joker (slot 15 is padding so that a hand row is 16 int64 wide). A hand is a count per
kind, never a list of cards: that is all the rules need and keeps the engine allocation-free.
Inside the engine the same 16 counts are packed into one uint64, 4 bits each (moves.py).

A *move* is one int64 code. ``PASS`` (-1) passes; otherwise ``code = v*256 + c*16 + j`` plays
``c`` cards of kind ``v`` and ``j`` jokers as a set of value ``v``:

* the ass:                              v = 0,  c = 1, j = 0
* a set of number cards (+ jokers):     v = 1..13, c >= 1, j >= 0, size k = c + j
* a set of jokers only (value 14):      v = 14, c = 0, j >= 1
* in an ass round, one joker as 1/14:   v = 1 or 14, c = 0, j = 1

Distinct codes are distinct moves; ascending code order (pass first) is the *canonical move
order* that the ``random`` strategy and the legal-move generators share.

The *view* (int64[VIEW_LEN]) is everything a strategy is given (ruling A-11): its own hand in
slots 0..15, then the public state: the round's lead size, highest value so far, whether it is
an ass round, whether the decider may lead the ass, the cards that have left the game, the
cards on the table this round, and every hand's size; in a match (A-12) also which game of
the K it is and the running totals of the players by seat; and per seat the cards the public
record shows it still holds (``PUB_KNOWN``, below). Nothing in it reveals another hand. One
array rather than several keeps calls into jitted policies cheap (every array argument costs
reference counting on each call; measured: 34 ns per decision with five arrays).
"""

from __future__ import annotations

import numpy as np

from analyzer.layout import Layout, LayoutView

ASS = 0
JOKER = 14
HAND_SLOTS = 16  # kinds 0..14 plus one padding slot
N_VALUES = 13
COPIES = 8  # of each number value
N_JOKERS = 5
DECK_SIZE = N_VALUES * COPIES + N_JOKERS  # 109 cards without the ass
ASS_WINDOW = 39  # the ass goes among the first 39 cards of the stack
ASS_PENALTY = 20
JOKER_PENALTY = 14
JOKER_HIGH = 14  # a set of jokers only, or a joker declared high in an ass round
# A share of a match win is counted in units of 1/WIN_SHARE_UNIT: lcm(1..12), so the
# 1/k of each of k tied winners is a whole number for every player count (exact aggregates).
WIN_SHARE_UNIT = 27720

PASS = -1

# --- the view: what a strategy is given (one int64 array, VIEW_LEN long) ---
# Declared once, piece by piece (analyzer.layout): each offset below is the sum of the sizes
# before it, a plain int the kernels import (numba freezes it into the compiled code), and
# :class:`PublicView` reads the same pieces by name in plain Python. The decider's own hand
# comes first, so ``view[kind]`` is the own count; the public state follows; the tail is
# scratch space for legal-move lists.
MAX_MOVES = 1024  # more than the most legal moves any hand can have (13*8*6 + 6)
VIEW = Layout("the view of Who's the Ass?")
VIEW.piece("hand", HAND_SLOTS, "the decider's own hand: counts by kind")
PUB_K = VIEW.piece("k", 1, "the round's set size k; 0 while the starter has not led yet")
PUB_HIGH = VIEW.piece("high", 1,
                      "highest value played in the round so far (0 before the lead, the ass 0)")
PUB_ASS_ROUND = VIEW.piece("ass_round", 1, "1 when the ass was led this round")
PUB_MAY_LEAD_ASS = VIEW.piece("may_lead_ass", 1,
                              "1 when the decider is the starter and may lead the ass (A-8)")
PUB_SEAT = VIEW.piece("seat", 1, "the deciding seat")
PUB_PLAYERS = VIEW.piece("players", 1, "number of players n")
PUB_POS = VIEW.piece("pos", 1, "the decider's position in the round: 0 = starter (leading)")
PUB_STARTER = VIEW.piece("starter", 1, "the round's starting seat")
PUB_HIGH_SEAT = VIEW.piece("high_seat", 1, "the seat that played the highest value so far")
PUB_ROUND = VIEW.piece("round", 1, "number of the round, 0 first")
PUB_GAME = VIEW.piece("game", 1, "in a match (A-12): the game's number, 0 first; else 0")
PUB_GAMES = VIEW.piece("games", 1, "in a match: the number of games K; 0 in a single game")
VIEW.piece("unused", 4, "free slots, always 0")
PUB_GONE = VIEW.piece("gone", 16, "counts by kind: cards that have left the game")
PUB_TABLE = VIEW.piece("table", 16, "counts by kind: cards played so far in the current round")
PUB_SIZES = VIEW.piece("sizes", 16, "per seat 0..n-1: its hand size")
# In a match, the running total of minus points of the player in each seat before this game
# (A-12, public on the score sheet); 0 in a single game.
PUB_TOTALS = VIEW.piece("totals", 16, "per seat: the player's minus points before this game")
# Per seat, the cards the public record shows it holds, as a packed hand (moves.py; the int64
# holds the uint64's bits, always below 2**60). A lower bound (A-11: played cards and who
# played them are public): the ass is with the first round's starter at the deal (A-8; it is
# always dealt, A-2) and moves only by being led and taken; a seat that takes an ass
# round's cards is known to hold them; each card a seat plays lowers its known count of that
# kind, never below 0 (it may have played another copy).
PUB_KNOWN = VIEW.piece("known", 16, "per seat: the cards the public record shows it holds")
SCRATCH = VIEW.piece("scratch", MAX_MOVES, "work space: legal-move lists are written here")
VIEW_LEN = VIEW.size


class PublicView(LayoutView, layout=VIEW):
    """The view by name, for plain Python: ``PublicView(view).sizes``, ``.table``, ``.seat``
    (an int for one slot, an int64 array view of the array for more), ``as_dict()`` and
    ``describe()``. Reads the array it is given; the kernels index it at the PUB_* offsets."""

    hidden = ("unused", "scratch")
    per_seat = ("sizes", "totals", "known")

    def seats(self) -> int:
        return self.players


CARD_NAMES = ("A",) + tuple(str(v) for v in range(1, 14)) + ("J",)
_KIND_BY_NAME = {name: kind for kind, name in enumerate(CARD_NAMES)}
RECORD_ORDER = tuple(range(1, 14)) + (JOKER, ASS)  # number cards ascending, jokers, the ass


def penalty(kind: int) -> int:
    """Minus points of one card of ``kind`` (A-10): ass 20, joker 14, number its value."""
    if kind == ASS:
        return ASS_PENALTY
    if kind == JOKER:
        return JOKER_PENALTY
    return kind


def _score_bytes():
    """SCORE_BYTE[b, x]: the minus points (A-10) of byte b of a packed hand whose value is x,
    that is of kinds 2b and 2b + 1 with the counts x & 15 and x >> 4 (the engine's score of a
    hand is eight lookups, not fifteen multiplies)."""
    table = np.zeros((8, 256), dtype=np.int64)
    for b in range(8):
        for x in range(256):
            low, high = 2 * b, 2 * b + 1
            table[b, x] = (x & 15) * penalty(low) + (x >> 4) * (penalty(high) if high < 15 else 0)
    return table


SCORE_BYTE = _score_bytes()


def encode(v: int, c: int, j: int) -> int:
    """Move code of ``c`` cards of kind ``v`` plus ``j`` jokers (set value ``v``)."""
    return v * 256 + c * 16 + j


def decode(code: int) -> tuple[int, int, int]:
    """(v, c, j) of a move code other than PASS."""
    return code >> 8, (code >> 4) & 15, code & 15


def card_name(kind: int) -> str:
    """The record name of a card kind: "1".."13", "J", "A"."""
    return CARD_NAMES[kind]


def card_kind(name: str) -> int:
    """The kind of a record card name (inverse of :func:`card_name`)."""
    try:
        return _KIND_BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown card name {name!r}; names are 1..13, J, A") from None


def hand_names(counts) -> list[str]:
    """A count array as a sorted list of record card names (numbers, jokers, then the ass)."""
    return [CARD_NAMES[k] for k in RECORD_ORDER for _ in range(int(counts[k]))]


def move_cards(code: int) -> list[str]:
    """The record card names of a move (number cards, then jokers, then the ass)."""
    v, c, j = decode(code)
    if v == ASS:
        return ["A"]
    names = [CARD_NAMES[v]] * c if v <= N_VALUES else []
    return names + ["J"] * j

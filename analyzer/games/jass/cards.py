"""Plus-Minus Jass cards (ruling J-1) as integers and bitmasks, plus the constant tables.

A card is ``c = suit * 9 + rank`` with suits 0..3 = bells, shields, roses, acorns (record letters
B S R A) and ranks 0..8 = 6 7 8 9 10 U O K A (plain order, low to high). A set of cards is a
``uint64`` with bit ``c`` set, so the 36 cards fit one word and "the cards of suit s in a hand" is
``hand & SUIT_MASK[s]``: legal-move generation is a handful of ``&`` and ``|``.

Every table below is a plain numpy array, so the jitted engine reads them as compile-time
constants and the pure-Python reference engine can use them too. This module imports no numba.
"""

from __future__ import annotations

import numpy as np

N_SUITS = 4
N_RANKS = 9
N_CARDS = 36
UNDER = 5  # rank index of the Under
NINE = 3  # rank index of the 9
EIGHT = 2  # rank index of the 8

SUIT_LETTERS = ("B", "S", "R", "A")
SUIT_NAMES = ("bells", "shields", "roses", "acorns")
RANK_NAMES = ("6", "7", "8", "9", "10", "U", "O", "K", "A")

# J-1: trump order low to high is 6 7 8 10 O K A 9 U; this is each rank's place in it.
TRUMP_STRENGTH_R = np.array([0, 1, 2, 7, 3, 8, 4, 5, 6], dtype=np.int64)
# J-8 card points by rank index (6 7 8 9 10 U O K A).
PLAIN_POINTS_R = np.array([0, 0, 0, 0, 10, 2, 3, 4, 11], dtype=np.int64)
TRUMP_POINTS_R = np.array([0, 0, 0, 14, 10, 20, 3, 4, 11], dtype=np.int64)
NO_TRUMP_POINTS_R = np.array([0, 0, 8, 0, 10, 2, 3, 4, 11], dtype=np.int64)  # every 8 counts 8
LAST_TRICK_BONUS = 5
DEAL_TOTAL = 157

BIT = np.array([1 << c for c in range(N_CARDS)], dtype=np.uint64)
SUIT_OF = np.array([c // N_RANKS for c in range(N_CARDS)], dtype=np.int64)
RANK_OF = np.array([c % N_RANKS for c in range(N_CARDS)], dtype=np.int64)
SUIT_SHIFT = np.array([s * N_RANKS for s in range(N_SUITS)], dtype=np.uint64)
SUIT_MASK = np.array([((1 << N_RANKS) - 1) << (s * N_RANKS) for s in range(N_SUITS)],
                     dtype=np.uint64)
UNDER_BIT = np.array([1 << (s * N_RANKS + UNDER) for s in range(N_SUITS)], dtype=np.uint64)
NINE_BIT = np.array([1 << (s * N_RANKS + NINE) for s in range(N_SUITS)], dtype=np.uint64)
FULL_DECK = np.uint64((1 << N_CARDS) - 1)
M9 = np.uint64((1 << N_RANKS) - 1)


def _higher_trumps() -> np.ndarray:
    """HIGHER_TRUMP[s, h + 1]: cards of suit s whose trump strength exceeds h (h = -1..8)."""
    table = np.zeros((N_SUITS, N_RANKS + 1), dtype=np.uint64)
    for s in range(N_SUITS):
        for h in range(-1, N_RANKS):
            mask = 0
            for r in range(N_RANKS):
                if TRUMP_STRENGTH_R[r] > h:
                    mask |= 1 << (s * N_RANKS + r)
            table[s, h + 1] = mask
    return table


def _nine_bit_tables() -> tuple[np.ndarray, ...]:
    """Per 9-bit suit pattern: card count, lowest rank, and points plain / trump / no trump."""
    pop = np.zeros(512, dtype=np.int64)
    low = np.full(512, -1, dtype=np.int64)
    plain = np.zeros(512, dtype=np.int64)
    trump = np.zeros(512, dtype=np.int64)
    notrump = np.zeros(512, dtype=np.int64)
    for m in range(512):
        ranks = [r for r in range(N_RANKS) if m >> r & 1]
        pop[m] = len(ranks)
        low[m] = ranks[0] if ranks else -1
        plain[m] = sum(PLAIN_POINTS_R[r] for r in ranks)
        trump[m] = sum(TRUMP_POINTS_R[r] for r in ranks)
        notrump[m] = sum(NO_TRUMP_POINTS_R[r] for r in ranks)
    return pop, low, plain, trump, notrump


HIGHER_TRUMP = _higher_trumps()
POP9, LOW9, PTS9_PLAIN, PTS9_TRUMP, PTS9_NO_TRUMP = _nine_bit_tables()


def _basic_keys() -> np.ndarray:
    """BASIC_KEY[t, c]: the sort key of ``basic`` (baseline-strategies.md) for card c counted as
    a plain card (t = 0) or as a trump (t = 1): points, then rank in its own order, then suit."""
    keys = np.zeros((2, N_CARDS), dtype=np.int64)
    for c in range(N_CARDS):
        s, r = divmod(c, N_RANKS)
        keys[0, c] = PLAIN_POINTS_R[r] * 1000 + r * 4 + s
        keys[1, c] = TRUMP_POINTS_R[r] * 1000 + TRUMP_STRENGTH_R[r] * 4 + s
    return keys


BASIC_KEY = _basic_keys()
# RANK_MASK[r]: the four cards of rank r (one per suit).
RANK_MASK = np.array([sum(1 << (s * N_RANKS + r) for s in range(N_SUITS))
                      for r in range(N_RANKS)], dtype=np.uint64)


def _basic_low_ranks() -> np.ndarray:
    """BASIC_LOW_RANK[t, pattern]: of the ranks in a 9-bit pattern (bit r = rank r), the one
    with the lowest ``basic`` key counted plain (t = 0) or as trump (t = 1): fewest points,
    then lowest rank in its own order (-1 for the empty pattern). Among the cards of that rank
    in a set, the lowest suit has the lowest key, so ``basic``'s card is that rank's lowest
    card: two table lookups instead of a key per card (policies.basic_card)."""
    table = np.full((2, 1 << N_RANKS), -1, dtype=np.int64)
    for m in range(1, 1 << N_RANKS):
        ranks = [r for r in range(N_RANKS) if m >> r & 1]
        table[0, m] = min(ranks, key=lambda r: (PLAIN_POINTS_R[r], r))
        table[1, m] = min(ranks, key=lambda r: (TRUMP_POINTS_R[r], TRUMP_STRENGTH_R[r]))
    return table


BASIC_LOW_RANK = _basic_low_ranks()
# PACKET_OWNER[n - 3, k]: J-2, the seat (counted from the first player) that receives the card
# at deck position k, packets of three in playing order; a table, so the deal divides nothing.
PACKET_OWNER = np.array([[(k // 3) % n for k in range(N_CARDS)] for n in (3, 4)],
                        dtype=np.int64)
# DEAL_SEAT[n - 3, first, k]: PACKET_OWNER as an absolute seat, the deal starting at seat
# ``first``: the specialised play of a basic table (basic_play) deals during the shuffle.
DEAL_SEAT = np.array([[[(f + (k // 3) % n) % n if f < n else 0 for k in range(N_CARDS)]
                       for f in range(4)] for n in (3, 4)], dtype=np.uint8)


def _basic_key9() -> np.ndarray:
    """BASIC_KEY9[t, pattern]: ``basic``'s choice among the cards of one suit whose ranks form
    the 9-bit pattern, counted plain (t = 0) or as trumps (t = 1), as a key
    ``points << 10 | strength << 6 | rank`` (strength: the rank in the card's own order); the
    caller ors in ``suit << 4``, so the least key over the suits orders by (points, strength,
    suit) as BASIC_KEY does, and ``(key >> 4 & 3) * 9 + (key & 15)`` is the card.
    NO_KEY9 (above every key) for the empty pattern. Small types (uint16 here, int8 and uint8
    in TRICK_POWER and DEAL_SEAT): the tables of the hot loop stay a few KiB of cache."""
    table = np.full((2, 1 << N_RANKS), NO_KEY9, dtype=np.uint16)
    for m in range(1, 1 << N_RANKS):
        for r in range(N_RANKS):
            if m >> r & 1:
                plain = int(PLAIN_POINTS_R[r]) << 10 | r << 6 | r
                trump = int(TRUMP_POINTS_R[r]) << 10 | int(TRUMP_STRENGTH_R[r]) << 6 | r
                table[0, m] = min(table[0, m], plain)
                table[1, m] = min(table[1, m], trump)
    return table


def _trick_power() -> np.ndarray:
    """TRICK_POWER[trump + 1, led, card]: J-7 as one number, the card's power in a trick led in
    ``led`` with ``trump`` (-1: none yet): a trump 16 + its trump strength, a card of the led
    suit its rank, any other card -1; the trick goes to its card of highest power."""
    table = np.full((N_SUITS + 1, N_SUITS, N_CARDS), -1, dtype=np.int8)
    for t in range(-1, N_SUITS):
        for led in range(N_SUITS):
            for c in range(N_CARDS):
                s, r = divmod(c, N_RANKS)
                if s == t:
                    table[t + 1, led, c] = 16 + TRUMP_STRENGTH_R[r]
                elif s == led:
                    table[t + 1, led, c] = r
    return table


NO_KEY9 = 0xFFFF
BASIC_KEY9 = _basic_key9()
TRICK_POWER = _trick_power()
TRUMP_POWER = 16  # TRICK_POWER of the lowest trump
# PAIR_SLOT[i, j] (i < j): where the remembered ties of seats i and j sit in the public state.
PAIR_SLOT = np.full((4, 4), -1, dtype=np.int64)
for _k, (_i, _j) in enumerate((i, j) for i in range(4) for j in range(i + 1, 4)):
    PAIR_SLOT[_i, _j] = _k


def card_name(card: int) -> str:
    """Record name of a card: suit letter + rank, e.g. ``"R10"`` or ``"AU"``."""
    return SUIT_LETTERS[card // N_RANKS] + RANK_NAMES[card % N_RANKS]


def parse_card(name: str) -> int:
    """Inverse of :func:`card_name`."""
    suit = SUIT_LETTERS.index(name[0])
    return suit * N_RANKS + RANK_NAMES.index(name[1:])


def mask_cards(mask: int) -> list[int]:
    """The cards of a bitmask in record order (suits B S R A, plain order within a suit)."""
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def cards_mask(cards: list[int]) -> int:
    """The bitmask of a list of cards."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def hand_names(mask: int) -> list[str]:
    """A hand as sorted record names."""
    return [card_name(c) for c in mask_cards(mask)]


def card_points(card: int, trump: int) -> int:
    """J-8 points of one card when the deal ends with ``trump`` (-1: no trump at all)."""
    suit, rank = divmod(card, N_RANKS)
    if trump < 0:
        return int(NO_TRUMP_POINTS_R[rank])
    if suit == trump:
        return int(TRUMP_POINTS_R[rank])
    return int(PLAIN_POINTS_R[rank])

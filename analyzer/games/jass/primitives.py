"""Jitted building blocks shared by the engine and the strategies: bit tricks, legal moves
(J-5, J-6), trick comparison (J-7), card points (J-8) and the layout of the public state.

The deal state lives in a few flat arrays so that it can be copied in one go (the trump-choice
counterfactual branches a deal) and handed to a strategy without giving it other hands:

* ``hands``  uint64[n]: each seat's hand (private: only the engine reads it);
* ``played`` uint64[n]: cards each seat has played in this deal (public);
* ``taken``  uint64[n]: cards in the tricks each seat has won (public);
* ``st``     int64[ST_SIZE]: the rest of the public state, at the offsets ``S_*`` below.

All masks stay ``uint64`` (numba turns uint64 mixed with int64 into float64), which is why
every constant here is a typed numpy scalar or array.

Speed notes. Functions on the per-move path are compiled with ``_nrt=False`` as well as
``cache=True``: they never allocate, and without the runtime numba emits no atomic reference
counting for the arrays they receive, which measured 2.8 -> 1.8 microseconds per 4-player
deal with ``basic`` here. Popcount and lowest-set-bit use LLVM's ``ctpop``/``cttz`` intrinsics
(one instruction each); under ``NUMBA_DISABLE_JIT=1`` plain-Python twins take their place.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.bits import trailing_zeros
from analyzer.games.jass.cards import (
    FULL_DECK,
    HIGHER_TRUMP,
    M9,
    PLAIN_POINTS_R,
    POP9,
    PTS9_NO_TRUMP,
    PTS9_PLAIN,
    PTS9_TRUMP,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SHIFT,
    TRUMP_POINTS_R,
    TRUMP_STRENGTH_R,
    UNDER_BIT,
)
from analyzer.layout import Layout, LayoutView
from analyzer.numba_compat import njit_no_runtime

U0 = np.uint64(0)
U1 = np.uint64(1)

# --- the public state array ``st`` ---------------------------------------------------------------
# Declared once, piece by piece (analyzer.layout): each offset S_* is the sum of the sizes
# before it, a plain int the kernels import (numba freezes it into the compiled code), and
# :class:`SearchState` reads the same pieces by name in plain Python.
ST = Layout("the public state of a Jass deal")
S_N = ST.piece("n", 1, "players")
S_SWISS = ST.piece("swiss", 1, "1 under the swiss J-6 variant")
S_TRUMP = ST.piece("trump", 1, "trump suit, -1 while none is fixed")
S_FIXER = ST.piece("fixer", 1, "seat that fixed trump, -1")
S_LEADER = ST.piece("leader", 1, "seat that led the current trick")
S_POS = ST.piece("pos", 1, "cards played in the current trick so far")
S_TRICK = ST.piece("trick", 1, "tricks completed in this deal")
S_LED = ST.piece("led", 1, "suit led in the current trick, -1 while empty")
S_BEST_SEAT = ST.piece("best_seat", 1, "seat currently winning the trick")
S_BEST_CARD = ST.piece("best_card", 1, "card currently winning the trick")
S_HIGH_TRUMP = ST.piece("high_trump", 1,
                        "trump strength of the highest trump in the trick, -1 none")
S_LAST_WINNER = ST.piece("last_winner", 1, "winner of the last trick once the deal is over, -1")
S_DEALER = ST.piece("dealer", 1, "the dealer's seat")
S_DEAL_NO = ST.piece("deal_no", 1, "deal number within the match (1-based), 0 for a single deal")
S_FIRST = ST.piece("first", 1, "first player of the deal (the seat after the dealer)")
S_NTRICKS = ST.piece("ntricks", 1, "tricks in a deal: 9 or 12")
S_TCARD = ST.piece("tcard", 4, "cards of the current trick in playing order")
S_TSEAT = ST.piece("tseat", 4, "seats that played them")
S_VOID = ST.piece("void", 4, "per seat, bit s set once the seat showed out of suit s")
S_STICKS = ST.piece("sticks", 4, "per seat: stick totals before this deal (J-11: public)")
S_WON = ST.piece("won", 4, "per seat: tricks won in this deal")
# Per seat, the cards its play so far proves it does not hold (a uint64 mask stored as int64;
# see :func:`ban_mask`): every inference J-5/J-6 allow, exactly. A hand is consistent with the
# public record if and only if it holds none of its seat's banned cards.
S_BAN = ST.piece("ban", 4, "per seat: the cards its play proves it does not hold (a mask)")
S_TIES = ST.piece("ties", 6, "remembered ties (J-9) per pair of seats, at cards.PAIR_SLOT[i, j]")
# Every card of the deal so far in playing order (J-11: each card and who played it is
# public; the seat follows from the order, as the deal's first player leads and each trick's
# winner leads the next). Slot ``trick * players + position``; the cards played so far are
# the popcount of ``played``. The search's infer=policy replays the deal from it.
S_HIST = ST.piece("hist", 36, "every card of the deal so far in playing order")
ST_SIZE = ST.size


class SearchState(LayoutView, layout=ST):
    """``st`` by name, for plain Python: ``SearchState(st).trump``, ``.tcard``, ``.sticks``
    (an int for one slot, an int64 array view of the array for more), ``as_dict()`` and
    ``describe()``. Reads the array it is given; the kernels index it at the S_* offsets."""

    per_seat = ("void", "sticks", "won", "ban")

    def seats(self) -> int:
        return self.n


@njit(cache=True, inline="always")
def lowest_card(m):
    """The lowest card (suit-major order) in a non-empty mask."""
    return trailing_zeros(m)


@njit_no_runtime()
def nth_card(m, k):
    """The k-th card (0-based, ascending) of a mask."""
    for _ in range(k):
        m = m & (m - U1)
    return lowest_card(m)


@njit_no_runtime(inline="always")
def suit_count(m, s):
    """Number of cards of suit ``s`` in a mask."""
    return POP9[(m >> SUIT_SHIFT[s]) & M9]


@njit_no_runtime(inline="always")
def trump_strength(card):
    """Place of a card in the trump order (0 = the 6 .. 8 = the Under, J-1)."""
    return TRUMP_STRENGTH_R[RANK_OF[card]]


@njit_no_runtime(inline="always")
def legal_mask(hand, st):
    """The cards of ``hand`` the seat to move may play (J-4, J-5, J-6, both rule sets)."""
    if st[S_POS] == 0:
        return hand  # J-4: the leader plays any card
    led = st[S_LED]
    trump = st[S_TRUMP]
    ledm = hand & SUIT_MASK[led]
    if trump < 0:  # J-5: follow suit if possible, else anything (which then fixes trump)
        if ledm != U0:
            return ledm
        return hand
    tm = hand & SUIT_MASK[trump]
    swiss = st[S_SWISS] != 0
    if led == trump:
        if swiss:  # the trump Under is never forced
            if (tm & ~UNDER_BIT[trump]) != U0:
                return tm
            return hand
        if tm != U0:
            return tm
        return hand
    high = st[S_HIGH_TRUMP]
    if high < 0:  # plain led, no trump in the trick: follow or trump, or anything if void
        if ledm != U0:
            return ledm | tm
        return hand
    higher = tm & HIGHER_TRUMP[trump, high + 1]
    if ledm != U0:
        return ledm | higher
    if swiss:
        if hand == tm:  # nothing but trumps: any of them
            return hand
        return hand & ~(tm & ~higher)  # anything except an under-trump
    if higher != U0:
        return higher
    if tm != U0:
        return tm
    return hand


@njit_no_runtime(inline="always")
def ban_mask(card, st):
    """The cards that playing ``card`` now proves the seat to move does not hold (J-5, J-6).

    Every restriction of J-5/J-6 reads "who holds X must play X", so what a move reveals is
    always a set of cards the player lacks: the led suit when it neither follows nor trumps;
    under ``seed`` every trump when a plain card goes off suit on a trumped or trump-led trick,
    and every higher trump (and the led suit) when it under-trumps; under ``swiss`` every trump
    but the Under when trump is led and it plays none, and everything but trumps when it
    under-trumps (allowed only with nothing but trumps in hand)."""
    if st[S_POS] == 0:
        return U0
    s = SUIT_OF[card]
    led = st[S_LED]
    trump = st[S_TRUMP]
    if trump < 0:
        if s != led:
            return SUIT_MASK[led]
        return U0
    swiss = st[S_SWISS] != 0
    if led == trump:
        if s == trump:
            return U0
        if swiss:
            return SUIT_MASK[trump] & ~UNDER_BIT[trump]
        return SUIT_MASK[trump]
    if s == led:
        return U0
    high = st[S_HIGH_TRUMP]
    if s == trump:
        if high < 0 or TRUMP_STRENGTH_R[RANK_OF[card]] > high:
            return U0
        if swiss:  # an under-trump: only a hand of nothing but trumps may play one
            return FULL_DECK & ~SUIT_MASK[trump]
        return SUIT_MASK[led] | HIGHER_TRUMP[trump, high + 1]
    if high >= 0 and not swiss:
        return SUIT_MASK[led] | SUIT_MASK[trump]
    return SUIT_MASK[led]


@njit_no_runtime(inline="always")
def fixes_trump(card, st):
    """True when playing ``card`` now would fix trump (J-5)."""
    return st[S_TRUMP] < 0 and st[S_POS] > 0 and SUIT_OF[card] != st[S_LED]


@njit_no_runtime()
def beats_best(card, st):
    """True when ``card`` played now would take the lead in the current trick (J-7)."""
    if st[S_POS] == 0:
        return True
    s = SUIT_OF[card]
    trump = st[S_TRUMP]
    if trump < 0:
        if s != st[S_LED]:
            return True  # it fixes trump and is the only trump in the trick
        return RANK_OF[card] > RANK_OF[st[S_BEST_CARD]]
    if s == trump:
        return trump_strength(card) > st[S_HIGH_TRUMP]
    if st[S_HIGH_TRUMP] >= 0 or s != st[S_LED]:
        return False
    return RANK_OF[card] > RANK_OF[st[S_BEST_CARD]]


@njit_no_runtime(inline="always")
def card_value(card, trump):
    """Points of ``card`` if the deal ended with ``trump`` (an 8 counts 0 while trump is unknown
    mid-deal; :func:`mask_points` applies the no-trump 8s at the end of a deal)."""
    if SUIT_OF[card] == trump:
        return TRUMP_POINTS_R[RANK_OF[card]]
    return PLAIN_POINTS_R[RANK_OF[card]]


@njit_no_runtime(inline="always")
def mask_points(m, trump):
    """J-8 card points of a set of cards with the trump as finally fixed (-1: none ever).
    Inlined: the deal's scoring calls it once per seat."""
    total = 0
    for s in range(4):
        chunk = (m >> SUIT_SHIFT[s]) & M9
        if trump < 0:
            total += PTS9_NO_TRUMP[chunk]
        elif s == trump:
            total += PTS9_TRUMP[chunk]
        else:
            total += PTS9_PLAIN[chunk]
    return total


@njit_no_runtime()
def trick_points(st):
    """Points of the cards in the current trick, under the trump as it stands."""
    total = 0
    trump = st[S_TRUMP]
    for i in range(st[S_POS]):
        total += card_value(st[S_TCARD + i], trump)
    return total

"""What the public record of a Plus-Minus Jass deal proves (J-11: a player's own hand, the
cards played and by whom, who showed out of which suit): the helpers the heuristic family
(strategies/jass/policies.py) and the learned family (strategies/jass/learned.py) both read.
"""

from __future__ import annotations

from analyzer.games.jass.cards import (
    BIT,
    FULL_DECK,
    HIGHER_TRUMP,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_STRENGTH_R,
)
from analyzer.games.jass.primitives import (
    S_LEADER,
    S_LED,
    S_N,
    S_POS,
    S_TRUMP,
    S_VOID,
    U0,
    U1,
    beats_best,
)
from analyzer.numba_compat import njit_no_runtime


@njit_no_runtime(inline="always")
def trump_like(st):
    """The cards that count as trumps now: the trump suit, or, while none is fixed, every card
    off the led suit (it would fix trump and count as one); none on a lead before trump."""
    trump = st[S_TRUMP]
    if trump >= 0:
        return SUIT_MASK[trump]
    if st[S_POS] > 0:
        return ~SUIT_MASK[st[S_LED]]
    return U0


@njit_no_runtime(inline="always")
def own_strength(card, trump):
    """Rank in the card's own order, trumps above every plain card."""
    if SUIT_OF[card] == trump:
        return 9 + TRUMP_STRENGTH_R[RANK_OF[card]]
    return RANK_OF[card]


@njit_no_runtime()
def unseen_cards(hand, played, n):
    """Cards neither in ``hand`` nor played yet in this deal (in other hands)."""
    seen = hand
    for i in range(n):
        seen |= played[i]
    return FULL_DECK & ~seen


@njit_no_runtime(inline="always")
def is_void(st, seat, s):
    """True once the public record shows ``seat`` holds no card of suit ``s``."""
    return ((st[S_VOID + seat] >> s) & 1) == 1


@njit_no_runtime()
def sure_winner(card, seat, st, unseen):
    """True when the public record proves that ``card``, played now, wins the trick.

    Only used once trump is fixed (before that any later player lacking the suit could fix
    trump and win). A later player is a threat unless the record shows it void in every suit
    that could beat the card: higher trumps for a trump; for a plain card, higher cards of its
    suit and any trump.
    """
    if not beats_best(card, st):
        return False
    return keeps_the_lead(card, st, unseen)


@njit_no_runtime()
def keeps_the_lead(card, st, unseen):
    """:func:`sure_winner` for a card that takes the lead now (``beats_best``, which the
    caller has found): True when no later player in the trick can be shown to beat it."""
    n = st[S_N]
    pos = st[S_POS]
    if pos == n - 1:
        return True
    trump = st[S_TRUMP]
    if trump < 0:
        return False
    s = SUIT_OF[card]
    if s == trump:
        higher = unseen & HIGHER_TRUMP[trump, TRUMP_STRENGTH_R[RANK_OF[card]] + 1]
        trumps_out = U0
        led_higher = U0
    else:
        higher = U0
        led_higher = unseen & SUIT_MASK[s] & ~((BIT[card] << U1) - U1)
        trumps_out = unseen & SUIT_MASK[trump]
    if higher == U0 and led_higher == U0 and trumps_out == U0:
        return True
    leader = st[S_LEADER]
    for k in range(pos + 1, n):
        p = (leader + k) % n
        if higher != U0 and not is_void(st, p, trump):
            return False
        if led_higher != U0 and not is_void(st, p, s):
            return False
        if trumps_out != U0 and not is_void(st, p, trump):
            return False
    return True


@njit_no_runtime()
def beatable(card, trump, unseen):
    """True when some unseen card ranks above ``card`` in its suit (or could trump it)."""
    s = SUIT_OF[card]
    if s == trump:
        return (unseen & HIGHER_TRUMP[trump, TRUMP_STRENGTH_R[RANK_OF[card]] + 1]) != U0
    if (unseen & SUIT_MASK[s] & ~((BIT[card] << U1) - U1)) != U0:
        return True
    return trump >= 0 and (unseen & SUIT_MASK[trump]) != U0



"""J-4..J-7 under ``seed`` with ``basic`` in every seat, the trick in local variables: the
play shared by the two loops specialised to such tables, the plain run
(:mod:`analyzer.engines.jass.basic_play`) and the search's rollout
(:func:`strategies.jass.play.rollout_basic`). One place for these game facts, so both
loops play the same cards as the general engine (tests/test_jass_basic_play.py,
tests/test_jass_basic_rollout.py).

The ideas of the hand-written C yardstick (scripts/cbase/jass.c):

* the trick in local variables (led suit, trump, the best power so far, its seat, the cards);
* J-7 as one table, ``cards.TRICK_POWER``: the trick goes to its card of highest power;
* J-4..J-6 under ``seed`` fused with ``basic``'s choice case by case (:func:`follow`): each
  case of the legal cards picks ``basic``'s card from the one or two suits it allows, by
  ``cards.BASIC_KEY9`` lookups of 9-bit suit patterns (the keys of
  ``strategies.jass.policies.basic_card``, so the same card with the same tie-breaks);
* every function here inlined into its caller: the plain run's :func:`play_tricks` gets
  ``n`` as a constant of each of its copies, so the seat arithmetic and the loops know it;
  the rollout, one copy with ``n`` at run time, plays :func:`follower` in a loop of its own
  that starts in the middle of a trick.

What the loops keep in the work arrays: ``hands`` (each card leaves its hand), ``taken`` and
``st[S_WON + seat]`` at each trick's end; the rest (trump, its fixer, the leader) is returned
to the caller, which writes what its readers need.
"""

from __future__ import annotations

import numpy as np

from analyzer.games.jass.cards import (
    BASIC_KEY9,
    BIT,
    HIGHER_TRUMP,
    M9,
    SUIT_OF,
    SUIT_SHIFT,
    TRICK_POWER,
    TRUMP_POWER,
)
from analyzer.games.jass.primitives import S_WON, U0
from analyzer.numba_compat import njit_no_runtime


@njit_no_runtime(inline="always")
def ix(i):
    """An index as uint64: numba then skips the negative-index wraparound code (a test and a
    select per access, measurable at some 20 table reads a card)."""
    return np.uint64(i)


@njit_no_runtime(inline="always")
def _key(t, hand, s):
    """``basic``'s key for the cards of suit ``s`` in ``hand`` counted plain (t = 0) or as
    trumps (t = 1), the suit or-ed in; NO_KEY9 or more when the hand has none."""
    return BASIC_KEY9[ix(t), (hand >> SUIT_SHIFT[ix(s)]) & M9] | (s << 4)


@njit_no_runtime(inline="always")
def _key_card(key):
    return ((key >> 4) & 3) * 9 + (key & 15)


@njit_no_runtime(inline="always")
def _suit_card(t, m9, s):
    """``basic``'s card among the (non-empty) 9-bit pattern ``m9`` of suit ``s``."""
    return s * 9 + (BASIC_KEY9[ix(t), m9] & 15)


@njit_no_runtime(inline="always")
def basic_any(hand, tsuits):
    """``basic`` over a whole hand (a lead, or a follower free to play anything); the suits
    with their bit set in ``tsuits`` count as trumps."""
    best = _key(tsuits & 1, hand, 0)
    best = min(best, _key((tsuits >> 1) & 1, hand, 1))
    best = min(best, _key((tsuits >> 2) & 1, hand, 2))
    best = min(best, _key((tsuits >> 3) & 1, hand, 3))
    return _key_card(best)


@njit_no_runtime(inline="always")
def follow(hand, led, trump, power):
    """A follower's card, J-5/J-6 under ``seed`` and ``basic`` fused: ``power`` is the best
    power in the trick so far (TRUMP_POWER or more once a trump is in it)."""
    led9 = (hand >> SUIT_SHIFT[ix(led)]) & M9
    if trump < 0:
        if led9 != U0:
            return _suit_card(0, led9, led)
        return basic_any(hand, 15)  # J-5: void, any card; it fixes trump, counts as one
    tr9 = (hand >> SUIT_SHIFT[ix(trump)]) & M9
    if led == trump:  # a trump if held
        if tr9 != U0:
            return _suit_card(1, tr9, trump)
        return basic_any(hand, 1 << trump)
    if power < TRUMP_POWER:  # no trump in the trick: follow or trump
        if led9 != U0:
            return _key_card(min(BASIC_KEY9[0, led9] | (led << 4),
                                 BASIC_KEY9[1, tr9] | (trump << 4)))
        return basic_any(hand, 1 << trump)
    # a trump in the trick: follow or over-trump; void: over-trump, else under-trump
    higher9 = tr9 & HIGHER_TRUMP[0, ix(power - TRUMP_POWER + 1)]
    if led9 != U0:
        return _key_card(min(BASIC_KEY9[0, led9] | (led << 4),
                             BASIC_KEY9[1, higher9] | (trump << 4)))
    if higher9 != U0:
        return _suit_card(1, higher9, trump)
    if tr9 != U0:
        return _suit_card(1, tr9, trump)
    return basic_any(hand, 1 << trump)


@njit_no_runtime(inline="always")
def power_of(trump, led, card):
    """J-7: the card's power in a trick led in ``led`` with ``trump`` (-1: none yet)."""
    return TRICK_POWER[ix(trump + 1), ix(led), ix(card)]


@njit_no_runtime(inline="always")
def follower(hands, seat, led, trump, fixer, power, best, trick):
    """``seat`` follows in the trick so far (``power`` its best power, held by ``best``;
    ``trick`` its cards): its card leaves its hand and joins the trick; J-5, the first card
    off the led suit fixes trump. Returns the new (trump, fixer, power, best, trick)."""
    hand = hands[ix(seat)]
    card = follow(hand, led, trump, power)
    s = SUIT_OF[ix(card)]
    if trump < 0 and s != led:  # J-5: the first card off suit fixes trump
        trump = s
        fixer = seat
    b = BIT[ix(card)]
    hands[ix(seat)] = hand & ~b
    trick |= b
    p = power_of(trump, led, card)
    if p > power:
        power = p
        best = seat
    return trump, fixer, power, best, trick


@njit_no_runtime(inline="always")
def end_trick(taken, st, best, trick):
    """J-7: the trick's cards go to its winner ``best``, who won one more trick."""
    taken[ix(best)] |= trick
    st[ix(S_WON + best)] += 1


@njit_no_runtime(inline="always")
def play_tricks(hands, taken, st, n, tricks, leader, trump, fixer):
    """Play ``tricks`` whole tricks, the first led by ``leader``, with ``trump`` and its
    ``fixer`` as they stand (-1: none yet); ``n`` a constant of the caller. Returns the
    (leader, trump, fixer) after them: the leader is the last trick's winner."""
    for _ in range(tricks):
        seat = leader
        hand = hands[ix(seat)]
        card = basic_any(hand, (1 << trump) if trump >= 0 else 0)  # J-4
        trick = BIT[ix(card)]
        hands[ix(seat)] = hand & ~trick
        led = SUIT_OF[ix(card)]
        power = power_of(trump, led, card)
        best = seat
        for _pos in range(1, n):
            seat += 1
            if seat == n:
                seat = 0
            trump, fixer, power, best, trick = follower(hands, seat, led, trump, fixer,
                                                        power, best, trick)
        end_trick(taken, st, best, trick)
        leader = best
    return leader, trump, fixer

"""The jitted Plus-Minus Jass strategies: one policy per family, dispatched on the family id.

Signature of a decision (J-11: a strategy sees its own hand and the public record only):

``choose_card(fam, prm, seat, hand, legal, st, played, taken, rng, aim) -> card``

* ``fam``, ``prm``: family id and this seat's parameter vector (float64[8]);
* ``hand``, ``legal``: the seat's own hand and the legal cards in it (uint64 masks);
* ``st``, ``played``, ``taken``: the public state (layout in analyzer.games.jass.primitives:
  trick so far, trump, who showed out of which suit, stick totals) and the cards each seat has
  played and won in this deal. Other hands are never passed, so no policy can look at them;
* ``rng``: the match's random stream (uint64[1]);
* ``aim``: what this seat decided to aim for at the start of the deal (:func:`begin_deal`).

Families:

* ``basic`` (0): the baseline of baseline-strategies.md, exactly.
* ``random`` (1): uniform over the legal cards, one draw from the match's stream per move.
* ``learned`` (5): a small network of ``pimc``'s card values (strategies/jass/learned.py).
* ``heuristic`` (2): aims high or low per deal, fights for tricks as hard as ``fight`` says,
  fixes trump by a pluggable rule and, with ``track=on``, reads the public record (unseen cards,
  who showed out of which suit) to find sure winners and safe ducks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.bits import popcount
from analyzer.games.jass.cards import (
    BASIC_KEY,
    BASIC_LOW_RANK,
    BIT,
    DEAL_TOTAL,
    LAST_TRICK_BONUS,
    M9,
    NINE_BIT,
    PTS9_PLAIN,
    PTS9_TRUMP,
    RANK_MASK,
    SUIT_MASK,
    SUIT_SHIFT,
    UNDER_BIT,
)
from analyzer.games.jass.primitives import (
    S_LED,
    S_N,
    S_NTRICKS,
    S_POS,
    S_STICKS,
    S_TRICK,
    S_TRUMP,
    U0,
    U1,
    beats_best,
    card_value,
    lowest_card,
    mask_points,
    nth_card,
    suit_count,
    trick_points,
)
from analyzer.numba_compat import njit_no_runtime
from analyzer.rng import randbelow
from strategies.jass.knobs import (
    AIM_HAND_MODE,
    AIM_HIGH,
    AIM_HIGH_MODE,
    AIM_LOW,
    AIM_LOW_MODE,
    AIM_NA,
    FAM_BASIC,
    FAM_HEURISTIC,
    FAM_LEARNED,
    FAM_RANDOM,
    P_AIM,
    P_FIGHT,
    P_GAP,
    P_REAIM,
    P_STRENGTH,
    P_TRACK,
    P_TRUMP,
    P_UNDER100,
    TR_BY_AIM,
    TR_FEWEST_POINTS,
    TR_LONGEST,
    TR_MOST_POINTS,
    TR_RANDOM,
    TR_SHORTEST,
    TR_UNDER_NINE,
)
from strategies.jass.learned import learned_card
from strategies.jass.public import (  # noqa: F401  (trump_like, unseen_cards: re-exported)
    beatable,
    own_strength,
    sure_winner,
    trump_like,
    unseen_cards,
)

BIG = np.int64(1) << np.int64(40)
S9 = np.uint64(9)
S18 = np.uint64(18)
S27 = np.uint64(27)
FAIR_PLAIN_POINTS = 120.0  # plain card points in the deck (J-8), shared out by hand size
WORTH_FIGHTING = 20.0  # trick points at which even fight=0 goes for the trick
MAX_PLAIN_CARD = 11  # the most a card of one's own adds to a trick short of a trump Under/9


# --- basic ---------------------------------------------------------------------------------------


@njit_no_runtime(inline="always")
def _ranks_present(m):
    """The 9-bit pattern of the ranks present in a card set (the four suits OR-ed)."""
    return np.int64((m | (m >> S9) | (m >> S18) | (m >> S27)) & M9)


@njit_no_runtime(inline="always")
def basic_card(legal, st):
    """baseline-strategies.md: fewest points as the card would count with the trump as it stands
    after playing it; ties to the lowest rank in its own order, then suit order B < S < R < A.

    ``as_trump`` is the set of cards that count as trumps: the trump suit, or, while none is
    fixed, every card off the led suit (it would fix trump and count as one). The keys are
    the table ``BASIC_KEY``'s; the lowest key among the legal cards counted plain is found in
    one lookup (``BASIC_LOW_RANK``: the best rank of the ranks present, then its lowest suit),
    the same among those counted as trumps, and the lower of the two keys wins (a plain and a
    trump card are of different suits, so they never tie). Measured: 18 ns a card for the
    scan of every legal card's key, about 9 with the lookups."""
    as_trump = trump_like(st)
    plain = legal & ~as_trump
    trumps = legal & as_trump
    best = -1
    best_key = BIG
    if plain != U0:
        best = lowest_card(plain & RANK_MASK[BASIC_LOW_RANK[0, _ranks_present(plain)]])
        best_key = BASIC_KEY[0, best]
    if trumps != U0:
        c = lowest_card(trumps & RANK_MASK[BASIC_LOW_RANK[1, _ranks_present(trumps)]])
        if BASIC_KEY[1, c] < best_key:
            best = c
    return best


# --- random --------------------------------------------------------------------------------------


@njit_no_runtime()
def random_card(legal, rng):
    """Uniform over ``legal``: one draw from the stream."""
    return nth_card(legal, randbelow(rng, popcount(legal)))


# --- trump choice --------------------------------------------------------------------------------


@njit_no_runtime()
def suit_trump_points(hand, s):
    """Points the cards of suit ``s`` in ``hand`` would count as trump."""
    return PTS9_TRUMP[(hand >> SUIT_SHIFT[s]) & M9]


@njit_no_runtime()
def pick_trump_suit(rule, hand, rng, aim):
    """The suit a trump-choice rule picks among the suits held in ``hand`` (all candidates).

    Keys (largest wins; remaining ties go to the lowest suit, B < S < R < A):
    longest: length, then trump points; under_nine: 2 x holds Under + holds 9, then length,
    then trump points; most_points: trump points, then length; shortest: fewest cards, then
    fewest trump points; fewest_points: fewest trump points, then fewest cards; random: uniform
    over the held suits in suit order (one draw from ``rng``); by_aim: under_nine when aiming
    high, fewest_points when aiming low, longest otherwise.
    """
    if rule == TR_BY_AIM:
        if aim == AIM_HIGH:
            rule = TR_UNDER_NINE
        elif aim == AIM_LOW:
            rule = TR_FEWEST_POINTS
        else:
            rule = TR_LONGEST
    if rule == TR_RANDOM:
        held = 0
        for s in range(4):
            if (hand & SUIT_MASK[s]) != U0:
                held += 1
        k = randbelow(rng, held)
        for s in range(4):
            if (hand & SUIT_MASK[s]) != U0:
                if k == 0:
                    return s
                k -= 1
        return -1
    best = -1
    best_key = -BIG
    for s in range(4):
        n = suit_count(hand, s)
        if n == 0:
            continue
        pts = suit_trump_points(hand, s)
        if rule == TR_LONGEST:
            key = n * 1000 + pts
        elif rule == TR_UNDER_NINE:
            un = 0
            if (hand & UNDER_BIT[s]) != U0:
                un += 2
            if (hand & NINE_BIT[s]) != U0:
                un += 1
            key = un * 100000 + n * 1000 + pts
        elif rule == TR_MOST_POINTS:
            key = pts * 100 + n
        elif rule == TR_SHORTEST:
            key = -(n * 1000 + pts)
        else:  # TR_FEWEST_POINTS
            key = -(pts * 100 + n)
        if key > best_key:
            best_key = key
            best = s
    return best


# --- heuristic helpers ---------------------------------------------------------------------------


@njit_no_runtime()
def pick_extreme(m, trump, by_value_first, low_value, low_strength):
    """The card of ``m`` minimising/maximising (value, strength) lexicographically.

    ``by_value_first``: compare points first, else strength first; ``low_*``: prefer low.
    Remaining ties go to the lowest card index (suit order, then rank).
    """
    best = -1
    best_key = -BIG
    while m != U0:
        c = lowest_card(m)
        m = m & (m - U1)
        v = card_value(c, trump)
        g = own_strength(c, trump)
        if low_value:
            v = -v
        if low_strength:
            g = -g
        key = v * 100 + g if by_value_first else g * 100 + v
        if key > best_key:
            best_key = key
            best = c
    return best


@njit(cache=True, inline="always")
def sure_winners(mask, seat, st, unseen):
    """The cards of ``mask`` that :func:`sure_winner` proves win the trick."""
    sure = U0
    m = mask
    while m != U0:
        c = lowest_card(m)
        m = m & (m - U1)
        if sure_winner(c, seat, st, unseen):
            sure |= BIT[c]
    return sure


@njit_no_runtime()
def fix_card(hand, suit):
    """The card a heuristic player fixes trump with: its lowest trump of that suit (any trump
    takes the lead in this trick, so it keeps the strong ones for later)."""
    return pick_extreme(hand & SUIT_MASK[suit], suit, False, True, True)


@njit_no_runtime()
def heuristic_aim(prm, seat, hand, st):
    """Aim for the deal: high (many points) or low (few), fixed for the deal."""
    mode = int(prm[P_AIM])
    if mode == AIM_HIGH_MODE:
        return AIM_HIGH
    if mode == AIM_LOW_MODE:
        return AIM_LOW
    if mode == AIM_HAND_MODE:
        pts = 0
        for s in range(4):
            pts += PTS9_PLAIN[(hand >> SUIT_SHIFT[s]) & M9]
        share = FAIR_PLAIN_POINTS * popcount(hand) / 36.0
        return AIM_HIGH if pts >= prm[P_STRENGTH] * share else AIM_LOW
    # standings: the player trailing the leader by `gap` sticks or more gambles on high
    n = st[S_N]
    mine = st[S_STICKS + seat]
    lead = 0
    for i in range(n):
        if i != seat and st[S_STICKS + i] > lead:
            lead = st[S_STICKS + i]
    return AIM_HIGH if lead - mine >= prm[P_GAP] else AIM_LOW


@njit_no_runtime()
def reaimed(prm, seat, hand, st, taken, aim):
    """reaim=on: once trump is fixed, the aim follows the points. The seat counts the points it
    has won so far plus those of its hand under the real trump, and aims high when that reaches
    ``strength`` x a fair share of the deal (157 / players), low otherwise. Before trump is
    fixed the aim of the deal's start stands."""
    trump = st[S_TRUMP]
    if trump < 0:
        return aim
    est = mask_points(taken[seat], trump) + mask_points(hand, trump)
    return AIM_HIGH if est >= prm[P_STRENGTH] * DEAL_TOTAL / st[S_N] else AIM_LOW


@njit_no_runtime()
def over_100(seat, st, taken):
    """under100=on: True when winning the current trick (or, leading, the seat's points so far)
    would risk reaching 100, where J-9 gives the most points nothing. Counts the seat's won
    points, the points in the trick, a card of up to 11 of its own and the last trick's 5."""
    trump = st[S_TRUMP]
    mine = mask_points(taken[seat], trump) if trump >= 0 else 0
    at_stake = trick_points(st) + MAX_PLAIN_CARD
    if st[S_TRICK] == st[S_NTRICKS] - 1:
        at_stake += LAST_TRICK_BONUS
    return mine + at_stake >= 100


@njit_no_runtime()
def heuristic_card(prm, seat, hand, legal, st, played, taken, rng, aim):
    """The heuristic family's move (see the module docstring and catalog for the knobs)."""
    trump = st[S_TRUMP]
    pos = st[S_POS]
    if trump < 0 and pos > 0 and (hand & SUIT_MASK[st[S_LED]]) == U0:
        return fix_card(hand, pick_trump_suit(int(prm[P_TRUMP]), hand, rng, aim))
    track = prm[P_TRACK] > 0.5
    n = st[S_N]
    unseen = U0
    if track:
        unseen = unseen_cards(hand, played, n)
    if prm[P_REAIM] > 0.5:
        aim = reaimed(prm, seat, hand, st, taken, aim)
    high = aim != AIM_LOW
    if high and prm[P_UNDER100] > 0.5 and over_100(seat, st, taken):
        high = False
    if pos == 0:
        if high:
            if track and trump >= 0:
                sure = sure_winners(legal, seat, st, unseen)
                if sure != U0:
                    return pick_extreme(sure, trump, True, False, False)
            plain = legal
            if trump >= 0:
                plain = legal & ~SUIT_MASK[trump]
            if plain == U0:
                return pick_extreme(legal, trump, False, False, False)
            return pick_extreme(plain, trump, False, False, False)
        cand = legal
        if track:
            safe = U0
            m = legal
            while m != U0:
                c = lowest_card(m)
                m = m & (m - U1)
                if beatable(c, trump, unseen):
                    safe |= BIT[c]
            if safe != U0:
                cand = safe
        return pick_extreme(cand, trump, False, True, True)
    # following
    win = U0
    m = legal
    while m != U0:
        c = lowest_card(m)
        m = m & (m - U1)
        if beats_best(c, st):
            win |= BIT[c]
    duck = legal & ~win
    last = pos == n - 1
    if high:
        want = trick_points(st) >= (1.0 - prm[P_FIGHT]) * WORTH_FIGHTING
        if want and win != U0:
            if last:
                return pick_extreme(win, trump, True, True, True)
            if track:
                sure = sure_winners(win, seat, st, unseen)
                if sure != U0:
                    return pick_extreme(sure, trump, True, True, True)
            return pick_extreme(win, trump, False, False, False)
        if duck != U0:
            return pick_extreme(duck, trump, True, True, True)
        return pick_extreme(win, trump, True, True, True)
    if duck != U0:  # aiming low: unload the strongest card that does not take the lead
        return pick_extreme(duck, trump, False, False, False)
    if last:  # the trick is ours anyway: keep points out, unload strength
        return pick_extreme(win, trump, True, True, False)
    return pick_extreme(win, trump, False, True, True)  # hope to be overtaken


# --- dispatch ------------------------------------------------------------------------------------


@njit_no_runtime()
def begin_deal(fam, prm, seat, hand, st):
    """Called once per seat after the deal: returns the seat's aim for the deal (or AIM_NA)."""
    if fam == FAM_HEURISTIC:
        return heuristic_aim(prm, seat, hand, st)
    return AIM_NA


@njit_no_runtime(inline="always")
def choose_card(fam, prm, seat, hand, legal, st, played, taken, rng, aim):
    """The card the seat's strategy plays (one of ``legal``)."""
    if fam == FAM_BASIC:
        return basic_card(legal, st)
    if fam == FAM_RANDOM:
        return random_card(legal, rng)
    if fam == FAM_LEARNED:
        return learned_card(prm, seat, hand, legal, st, played, taken)
    return heuristic_card(prm, seat, hand, legal, st, played, taken, rng, aim)


@njit_no_runtime()
def forced_trump_card(fam, prm, seat, hand, suit, st, played, taken, rng, aim):
    """The card the strategy plays when it must fix trump to ``suit`` (the counterfactual).

    It consumes as many draws from ``rng`` as the free decision would have, so the rest of the
    deal sees the same stream position under every candidate suit.
    """
    cards = hand & SUIT_MASK[suit]
    if fam == FAM_BASIC:
        return basic_card(cards, st)
    if fam == FAM_RANDOM:
        return random_card(cards, rng)  # one draw, like the free move over the whole hand
    if fam == FAM_LEARNED:
        return learned_card(prm, seat, hand, cards, st, played, taken)
    rule = int(prm[P_TRUMP])
    if rule == TR_RANDOM:
        pick_trump_suit(rule, hand, rng, aim)  # the free move's draw, result unused
    return fix_card(hand, suit)

"""The per-move core of Plus-Minus Jass, shared by the deal loop, the engine and the search.

It imports only the non-search policies:

* :func:`play_card` applies one legal card to the packed deal state (``hands``, ``played``,
  ``taken`` uint64[4] and the public state ``st``, layout in ``primitives``);
  :func:`play_card_no_bans` the same without the search's ``S_BAN`` inferences;
* :func:`rollout_basic` plays a deal on from any packed mid-deal state to its end with
  ``basic`` in every seat under ``seed``: the fast path of the search's playout
  (:func:`strategies.jass.loop.rollout`; every other table plays the one deal loop,
  :func:`strategies.jass.loop.run_deal`);
* :func:`deal_points`, :func:`deal_bonus`: J-8 points and the J-9 bonus sticks of remembered
  ties for the deal as it ended, without touching the match's own tie book.

Seats advance by a compare-and-subtract instead of ``% n``: n is a run-time value, so a modulo
is a real division (about 25 cycles), and the play loop needs one per card.
"""

from __future__ import annotations

import numpy as np

from analyzer.games.jass.cards import BIT, PAIR_SLOT, SUIT_OF
from analyzer.games.jass.primitives import (
    S_BAN,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_FIXER,
    S_HIGH_TRUMP,
    S_HIST,
    S_LAST_WINNER,
    S_LEADER,
    S_LED,
    S_N,
    S_NTRICKS,
    S_POS,
    S_SWISS,
    S_TCARD,
    S_TIES,
    S_TRICK,
    S_TRUMP,
    S_TSEAT,
    S_VOID,
    S_WON,
    ST,
    ST_SIZE,
    U0,
    ban_mask,
    mask_points,
    trump_strength,
)
from analyzer.numba_compat import njit_no_runtime
from strategies.jass.basic_tricks import basic_any, end_trick, follower, ix, power_of

DONE = 0  # the status of a deal played to its end (strategies.jass.loop)


@njit_no_runtime(inline="always")
def play_card(seat, card, hands, played, taken, st):
    """Apply one (legal) card: trick state, trump fixing (J-5), showing out, trick end (J-7),
    and what the card proves the seat lacks (``S_BAN``, J-11: read by the search)."""
    _apply(seat, card, hands, played, taken, st, True)


@njit_no_runtime(inline="always")
def play_card_no_bans(seat, card, hands, played, taken, st):
    """:func:`play_card` without the upkeep of ``S_BAN``, for loops whose public state no
    search strategy reads: the deal loop's without search
    (:func:`strategies.jass.loop.run_deal`: the engine's plain runs and the rollouts). Only the
    search reads ``S_BAN`` (every other policy decides on its hand, the trick,
    ``S_VOID`` and the cards played and taken), so the moves are the same; measured about
    10% of the play time of a ``basic`` deal."""
    _apply(seat, card, hands, played, taken, st, False)


@njit_no_runtime(inline="always")
def copy_state(hands, played, taken, st, h2, p2, t2, st2):
    """A deal's state (every hand, the cards played and won, the public state) into
    ``h2``, ``p2``, ``t2``, ``st2``: a copy to play a candidate card in (the search's worlds,
    the analysis, the value model's training leaves)."""
    for p in range(4):
        h2[p] = hands[p]
        p2[p] = played[p]
        t2[p] = taken[p]
    st2[:] = st


# where the order of play (S_HIST) ends in the public state
HIST_END = next(p.offset + p.size for p in ST.pieces if p.name == "hist")


@njit_no_runtime(inline="always")
def copy_state_to_play_on(hands, played, taken, st, h2, p2, t2, st2):
    """:func:`copy_state` without the order of play (``S_HIST``, which ``st2`` keeps as it
    was): for a copy that is only played on with :func:`play_card_no_bans` and policies that
    do not search, none of which read ``S_HIST`` (the search's replay reads it from the
    decision's own state). The search's leaves, where the whole copy cost measurable time."""
    for p in range(4):
        h2[p] = hands[p]
        p2[p] = played[p]
        t2[p] = taken[p]
    for i in range(S_HIST):
        st2[i] = st[i]
    for i in range(HIST_END, ST_SIZE):  # (nothing follows S_HIST today)
        st2[i] = st[i]


@njit_no_runtime(inline="always")
def _apply(seat, card, hands, played, taken, st, bans):
    """play_card's body; ``bans`` a constant of the caller (inlined, so the branch folds)."""
    b = BIT[card]
    n = st[S_N]
    pos = st[S_POS]
    s = SUIT_OF[card]
    if bans and pos > 0 and s != st[S_LED]:  # following suit proves nothing
        ban = ban_mask(card, st) & ~b  # the card itself is simply played
        if ban != U0:
            st[S_BAN + seat] |= np.int64(ban)
    hands[seat] &= ~b
    played[seat] |= b
    trump = st[S_TRUMP]
    st[S_TCARD + pos] = card
    st[S_TSEAT + pos] = seat
    st[S_HIST + st[S_TRICK] * n + pos] = card
    if pos == 0:
        st[S_LED] = s
        st[S_BEST_SEAT] = seat
        st[S_BEST_CARD] = card
        st[S_HIGH_TRUMP] = trump_strength(card) if s == trump else -1
    else:
        led = st[S_LED]
        if trump < 0:
            if s != led:  # J-5: the first card off suit fixes trump, already in this trick
                st[S_TRUMP] = s
                st[S_FIXER] = seat
                st[S_VOID + seat] |= 1 << led
                st[S_HIGH_TRUMP] = trump_strength(card)
                st[S_BEST_SEAT] = seat
                st[S_BEST_CARD] = card
            elif card > st[S_BEST_CARD]:  # same suit: card index order is plain rank order
                st[S_BEST_SEAT] = seat
                st[S_BEST_CARD] = card
        elif s == trump:
            g = trump_strength(card)
            if g > st[S_HIGH_TRUMP]:
                st[S_HIGH_TRUMP] = g
                st[S_BEST_SEAT] = seat
                st[S_BEST_CARD] = card
        elif s != led:
            # A plain card off the led suit proves the seat void in the led suit under both rule
            # sets; under `seed` it also proves no trump when trump was led or already in the
            # trick (the seat would have had to play one). S_BAN holds the exact inferences.
            st[S_VOID + seat] |= 1 << led
            if st[S_SWISS] == 0 and (led == trump or st[S_HIGH_TRUMP] >= 0):
                st[S_VOID + seat] |= 1 << trump
        elif st[S_HIGH_TRUMP] < 0 and card > st[S_BEST_CARD]:
            st[S_BEST_SEAT] = seat
            st[S_BEST_CARD] = card
    pos += 1
    if pos == n:
        w = st[S_BEST_SEAT]
        m = U0
        for i in range(n):
            m |= BIT[st[S_TCARD + i]]
        taken[w] |= m
        st[S_WON + w] += 1
        st[S_LEADER] = w
        st[S_TRICK] += 1
        st[S_LED] = -1
        st[S_HIGH_TRUMP] = -1
        st[S_BEST_SEAT] = -1
        st[S_BEST_CARD] = -1
        if st[S_TRICK] == st[S_NTRICKS]:
            st[S_LAST_WINNER] = w
        pos = 0
    st[S_POS] = pos


@njit_no_runtime(inline="always")
def to_move(st):
    """The seat whose turn it is (no division: leader + position wraps at most once)."""
    seat = st[S_LEADER] + st[S_POS]
    if seat >= st[S_N]:
        seat -= st[S_N]
    return seat


@njit_no_runtime()
def rollout_basic(hands, played, taken, st):
    """:func:`strategies.jass.loop.rollout` for ``basic`` in every seat under ``seed`` (issue
    13): the play of :mod:`strategies.jass.basic_tricks` (the plain run's: the trick in local
    variables, J-4..J-6 and ``basic`` fused by 9-bit key tables, J-7 as a power table), started
    from the packed state; the trick in progress (the trump-fixing card is usually in the middle of
    one, and trump may be unfixed yet) is read from ``st``: its leader, led suit, best seat
    and card, cards so far. Returns DONE.

    One loop whatever the trick position and the player count (``n`` at run time): two
    copies with ``n`` a constant, the whole trick in progress a loop of its own, ran no
    faster (0.99x C either way, scripts/cbase_jass.py --rounds) and cost 20 s more cold
    compile of every search kernel (its ``rollout`` compiled in 31-35 s instead of 18; the
    general loop alone: 10).

    Its readers: the search's :func:`strategies.jass.search.outcome` (``taken``, ``S_N``,
    ``S_TRUMP``, ``S_LAST_WINNER``, and ``S_DEAL_NO``, ``S_STICKS``, ``S_TIES``, which no rollout
    changes), scripts/bench_jass.py (the checksum of ``S_LAST_WINNER``, ``S_TRUMP``, ``taken``,
    ``S_WON``), tests/test_cbase_jass.py and tests/test_jass_basic_rollout.py (``taken``, ``S_WON``,
    ``S_LAST_WINNER``, ``S_TRUMP``, ``S_FIXER``, ...). It leaves what the deal loop
    (:func:`strategies.jass.loop.run_deal`) leaves in ``hands`` (empty), ``played``, ``taken``,
    ``rng`` and ``memo`` (``basic`` neither draws nor aims) and in ``st[S_TRUMP]``, ``S_FIXER``,
    ``S_LEADER``, ``S_POS``, ``S_TRICK``, ``S_LED``, ``S_BEST_SEAT``, ``S_BEST_CARD``,
    ``S_HIGH_TRUMP``, ``S_LAST_WINNER`` and ``S_WON``; the deal's constants (``S_N``, ``S_SWISS``,
    ``S_DEALER``, ``S_DEAL_NO``, ``S_FIRST``, ``S_NTRICKS``, ``S_STICKS``, ``S_TIES``) and ``S_BAN``
    neither loop touches. What it does not keep (no reader after a rollout; the deal loop writes
    it), left as it was: the order of play ``S_HIST`` of the cards it plays, the voids ``S_VOID``
    they show, and the trick slots ``S_TCARD``/``S_TSEAT`` (where the deal loop leaves the last
    trick)."""
    n = st[S_N]
    ntr = st[S_NTRICKS]
    t = st[S_TRICK]
    if t >= ntr:
        return DONE
    for i in range(n):  # every card still held is played by the deal's end
        played[i] |= hands[i]
    trump = st[S_TRUMP]
    fixer = st[S_FIXER]
    leader = st[S_LEADER]
    pos = st[S_POS]
    seat = leader
    led = -1
    best = -1
    power = -1
    trick = U0
    if pos > 0:  # the trick in progress
        seat = leader + pos - 1  # the last seat that played
        if seat >= n:
            seat -= n
        led = st[S_LED]
        best = st[S_BEST_SEAT]
        power = power_of(trump, led, st[S_BEST_CARD])
        for k in range(pos):
            trick |= BIT[st[S_TCARD + k]]
    while t < ntr:
        if pos == 0:  # J-4: the leader plays any card
            seat = leader
            hand = hands[ix(seat)]
            card = basic_any(hand, (1 << trump) if trump >= 0 else 0)
            trick = BIT[ix(card)]
            hands[ix(seat)] = hand & ~trick
            led = SUIT_OF[ix(card)]
            power = power_of(trump, led, card)
            best = seat
            pos = 1
        for _pos in range(pos, n):
            seat += 1
            if seat == n:
                seat = 0
            trump, fixer, power, best, trick = follower(hands, seat, led, trump, fixer, power,
                                                        best, trick)
        end_trick(taken, st, best, trick)
        leader = best
        t += 1
        pos = 0
    st[S_TRUMP] = trump
    st[S_FIXER] = fixer
    st[S_LEADER] = leader
    st[S_LAST_WINNER] = leader
    st[S_TRICK] = ntr
    st[S_POS] = 0
    st[S_LED] = -1
    st[S_BEST_SEAT] = -1
    st[S_BEST_CARD] = -1
    st[S_HIGH_TRUMP] = -1
    return DONE


@njit_no_runtime()
def deal_points(taken, st, points):
    """J-8 points of every seat with the trump as finally fixed, last trick included."""
    seat_points(taken, st[S_N], st[S_TRUMP], st[S_LAST_WINNER], points)


@njit_no_runtime(inline="always")
def seat_points(taken, n, trump, last, points):
    """:func:`deal_points` from its parts (``trump`` as finally fixed, -1: none; ``last`` the
    last trick's winner), inlined: a caller with ``n`` a constant gets a loop that knows it."""
    for i in range(n):
        points[i] = mask_points(taken[i], trump)
    points[last] += 5


@njit_no_runtime()
def deal_bonus(award, st, bonus):
    """J-9 bonus sticks this deal's ``award`` would collect from the remembered ties in the
    public state (a pending tie pays the one of its pair awarded a stick when the other is not);
    the tie book itself is not changed."""
    n = st[S_N]
    for i in range(n):
        bonus[i] = 0
    for i in range(n):
        for j in range(i + 1, n):
            c = st[S_TIES + PAIR_SLOT[i, j]]
            if c == 0:
                continue
            if award[i] > 0 and award[j] == 0:
                bonus[i] += c
            elif award[j] > 0 and award[i] == 0:
                bonus[j] += c

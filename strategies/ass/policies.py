"""Jitted policy families of Who's the Ass? and the dispatcher the engine calls.

Every policy has the signature ``(params, view, rng) -> move code``:

* ``params``  a tuple of 8 floats, the strategy's parameter vector (knobs: catalog.py); a
              tuple is passed by value, so it costs nothing per call;
* ``view``    int64[VIEW_LEN] (analyzer.games.ass.cards): the decider's own hand in slots
              0..15 (``view[kind]``), then the public state, then scratch space. It is a copy
              made for this decision and holds no other hand: ruling A-11 is enforced by what
              the policy is given;
* ``rng``     uint64[1], the game's own stream (analyzer.rng), for strategies that draw.

A policy may write into the view's scratch tail (from ``SCRATCH`` on) only: the engine keeps
the public state there. (The engine-vs-reference tests would catch a policy that does not:
the reference builds a fresh view for every decision.)

The engine calls a policy only when the player has a decision to make: never for a follower in
a normal round holding fewer than k cards (it must pass, A-6).

``decide`` dispatches on the integer family id with if/elif: one cacheable module, and, as
measured in the design notes, no slower than the alternatives.

``basic_packed`` is ``basic`` once more, on the engine's packed hand (moves.py) and the few
public facts it reads, passed as scalars: the engine's fast path for the yardstick strategy,
which so needs no view at all (no hand copy, no public state written before the decision).
It must decide exactly as ``basic``: the engine-vs-reference tests hold it to that (and when
it was written it agreed with ``basic`` on 46.8 million random hands and decision contexts).
"""

from __future__ import annotations

from numba import njit

from analyzer.games.ass.cards import (
    ASS,
    COPIES,
    JOKER,
    JOKER_HIGH,
    N_VALUES,
    PASS,
    PUB_ASS_ROUND,
    PUB_GAME,
    PUB_GAMES,
    PUB_HIGH,
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_TOTALS,
    SCRATCH,
)
from analyzer.games.ass.moves import (
    NUMBER_FIELDS,
    U0,
    at_least,
    count_of,
    enc,
    fields_above,
    lead_is_safe,
    legal_moves,
    lowest_kind,
)
from analyzer.rng import randbelow
from strategies.ass.catalog import (
    AJ_KEEP,
    AJ_THROW,
    HEURISTIC,
    J_AS_NEEDED,
    J_DUMP,
    J_FINISH,
    J_KEEP,
    J_KEEP_UNTIL,
    LEARNED,
    RANDOM,
    SLOT_ASS_JOKERS,
    SLOT_ASS_THROW,
    SLOT_CHASE,
    SLOT_JOKERS,
    SLOT_KEEP,
    SLOT_LEAD,
    SLOT_LEAD_ASS,
    SLOT_PASS,
)
from strategies.ass.learned import learned


@njit(cache=True, inline="always")  # into decide; the engine itself runs basic_packed
def basic(params, view, rng):
    """The baseline strategy, exactly as baseline-strategies.md specifies it."""
    jokers = view[JOKER]
    if view[PUB_POS] == 0:  # leading
        if view[PUB_MAY_LEAD_ASS] != 0:
            return enc(ASS, 1, 0)
        for w in range(1, N_VALUES + 1):
            if view[w] > 0:
                return enc(w, view[w], 0)
        return enc(JOKER_HIGH, 0, jokers)
    if view[PUB_ASS_ROUND] != 0:
        if jokers > 0:
            return enc(1, 0, 1)
        for w in range(1, N_VALUES + 1):
            if view[w] > 0:
                return enc(w, 1, 0)
        return PASS  # unreachable: a follower in an ass round always holds a card
    k = view[PUB_K]
    v = view[PUB_HIGH]
    for w in range(v + 1, N_VALUES + 1):
        if view[w] >= k:
            return enc(w, k, 0)
    for w in range(v + 1, N_VALUES + 1):
        if view[w] >= 1 and view[w] + jokers >= k:
            return enc(w, view[w], k - view[w])
    if jokers >= k and v < JOKER_HIGH:
        return enc(JOKER_HIGH, 0, k)
    return PASS


@njit(cache=True, inline="always")
def basic_packed(hand, pos, ass_round, may_lead_ass, k, high):
    """``basic`` on a packed hand: the same move for the same hand and public facts.

    ``hand`` is the decider's packed hand, the rest are the view's PUB_POS, PUB_ASS_ROUND,
    PUB_MAY_LEAD_ASS, PUB_K and PUB_HIGH. Each of basic's scans ("the lowest w with ...") is a
    mask of the fields that qualify and a count of trailing zeros.
    """
    jokers = count_of(hand, JOKER)
    if pos == 0:  # leading
        if may_lead_ass != 0:
            return enc(ASS, 1, 0)
        numbers = hand & NUMBER_FIELDS
        if numbers != U0:
            w = lowest_kind(numbers)
            return enc(w, count_of(hand, w), 0)
        return enc(JOKER_HIGH, 0, jokers)
    if ass_round != 0:
        if jokers > 0:
            return enc(1, 0, 1)
        numbers = hand & NUMBER_FIELDS
        if numbers != U0:
            return enc(lowest_kind(numbers), 1, 0)
        return PASS  # unreachable: a follower in an ass round always holds a card
    above = fields_above(high)
    if k <= COPIES:  # the lowest w above high with at least k cards (none when k > 8)
        m = at_least(hand, k) & above
        if m != U0:
            return enc(lowest_kind(m), k, 0)
    # else the lowest w above high with 1 <= count and count + jokers >= k
    need = max(k - jokers, 1)
    if need <= COPIES:
        m = at_least(hand, need) & above
        if m != U0:
            w = lowest_kind(m)
            c = count_of(hand, w)
            return enc(w, c, k - c)
    if jokers >= k and high < JOKER_HIGH:
        return enc(JOKER_HIGH, 0, k)
    return PASS


@njit(cache=True)
def random_policy(params, view, rng):
    """Uniform over the legal moves in canonical order; draws only when there is a choice."""
    n = legal_moves(view)
    if n == 1:
        return view[SCRATCH]
    return view[SCRATCH + randbelow(rng, n)]


@njit(cache=True, inline="always")
def _numbers(view):
    total = 0
    for w in range(1, N_VALUES + 1):
        total += view[w]
    return total


@njit(cache=True)
def jokers_allowed(mode, keep, size, size_after, numbers):
    """May a heuristic player use jokers in a play that leaves ``size_after`` cards?"""
    if mode in (J_AS_NEEDED, J_DUMP):
        return True
    if numbers == 0:  # nothing else left to play: jokers are the end the knob keeps them for
        return True
    if mode == J_KEEP:
        return False
    if mode == J_FINISH:
        return size_after == 0
    if mode == J_KEEP_UNTIL:
        return size <= keep
    return False


@njit(cache=True)
def trailing_late(view, late):
    """True in one of the last ``late`` games of a match (A-12) while the decider's running
    total is above the lowest of the others (it is behind). Never in a single game (the
    view's PUB_GAMES is 0 there), never in a match's first game (all totals are 0)."""
    games = view[PUB_GAMES]
    if late <= 0 or games == 0 or games - view[PUB_GAME] > late:
        return False
    seat = view[PUB_SEAT]
    own = view[PUB_TOTALS + seat]
    lowest = own
    for s in range(view[PUB_PLAYERS]):
        if s != seat:
            lowest = min(lowest, view[PUB_TOTALS + s])
    return own > lowest


@njit(cache=True)
def heuristic(params, view, rng):
    """The tunable family (knobs in catalog.py); all knobs at their defaults = basic."""
    mode = int(params[SLOT_JOKERS])
    keep = int(params[SLOT_KEEP])
    jokers = view[JOKER]
    numbers = _numbers(view)
    size = numbers + jokers + view[ASS]
    if view[PUB_POS] == 0:
        chase = int(params[SLOT_CHASE])
        racing = chase > 0 and trailing_late(view, chase)
        return _heuristic_lead(params, view, mode, jokers, numbers, size, racing)
    if view[PUB_ASS_ROUND] != 0:
        ass_jokers = int(params[SLOT_ASS_JOKERS])
        if ass_jokers == AJ_THROW:
            use_joker = jokers > 0
        elif ass_jokers == AJ_KEEP:
            use_joker = jokers > 0 and numbers == 0
        else:  # same: the jokers knob decides here too
            use_joker = jokers > 0 and jokers_allowed(mode, keep, size, size - 1, numbers)
        high = view[PUB_HIGH]
        if int(params[SLOT_ASS_THROW]) == 1:  # safe-high: a card below the table's highest
            if use_joker and high > 1:
                return enc(1, 0, 1)
            for w in range(high - 1, 0, -1):
                if view[w] > 0:
                    return enc(w, 1, 0)
        if use_joker:
            return enc(1, 0, 1)
        for w in range(1, N_VALUES + 1):
            if view[w] > 0:
                return enc(w, 1, 0)
        return enc(1, 0, 1)  # only jokers left, and the knob kept them: one must go
    k = view[PUB_K]
    v = view[PUB_HIGH]
    exact = int(params[SLOT_PASS]) == 1
    for w in range(v + 1, N_VALUES + 1):
        if view[w] >= k and (not exact or view[w] == k):
            return enc(w, k, 0)
    if jokers_allowed(mode, keep, size, size - k, numbers):
        for w in range(v + 1, N_VALUES + 1):
            if view[w] >= 1 and view[w] < k and view[w] + jokers >= k:
                return enc(w, view[w], k - view[w])
        if jokers >= k and v < JOKER_HIGH:
            return enc(JOKER_HIGH, 0, k)
    return PASS


@njit(cache=True)
def _heuristic_lead(params, view, mode, jokers, numbers, size, racing):
    if view[PUB_MAY_LEAD_ASS] != 0 and (int(params[SLOT_LEAD_ASS]) == 0 or size == view[ASS]):
        return enc(ASS, 1, 0)
    if numbers == 0:
        return enc(JOKER_HIGH, 0, jokers)
    w = 0
    for u in range(1, N_VALUES + 1):
        if view[u] > 0:
            w = u
            break
    if racing:  # chase: the biggest set (most cards, the higher value on ties), to go out fast
        for u in range(w + 1, N_VALUES + 1):
            if view[u] >= view[w]:
                w = u
    elif int(params[SLOT_LEAD]) == 1:  # safe: the lowest value whose whole set cannot be beaten
        for u in range(w, N_VALUES + 1):
            if view[u] > 0 and lead_is_safe(u, view[u], view):
                w = u
                break
    add = 0
    if mode == J_DUMP:
        add = jokers
    elif mode != J_AS_NEEDED and view[w] + jokers == size:
        add = jokers  # the lead empties the hand: every keeping mode keeps jokers for this
    return enc(w, view[w], add)


@njit(cache=True, inline="always")
def decide_other(fam, pp, view, rng):
    """The move of a non-search family that reads the view: every one but ``basic``, which
    the play loops decide on the packed hand (:func:`basic_packed`, or :func:`basic` from a
    view). The one list of these families: the engine, the rollout, the search's inference
    of the other seats and :func:`strategies.ass.dispatch.decide` all call it, so a family
    added here plays everywhere. Anything else gets an illegal code, which the engine reports.
    """
    if fam == RANDOM:
        return random_policy(pp, view, rng)
    elif fam == HEURISTIC:
        return heuristic(pp, view, rng)
    elif fam == LEARNED:
        return learned(pp, view, rng)
    return PASS - 1

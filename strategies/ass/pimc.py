"""The search families of Who's the Ass?: ``pimc`` and, for analysis only, ``peek``.

``pimc`` (perfect-information Monte Carlo). At a decision with more than one legal move:

1. *Candidates*: the moves it will search, at most ``candidates`` of them, in the order of a
   cheap prior: the rollout strategy's own move first, then the natural moves of the
   situation (:func:`_candidates`); each is checked legal.
2. *Worlds*: ``worlds`` deals of the cards it cannot see. Those are the deck minus its own
   hand, the cards gone and the cards on the table; the other seats get exactly their public
   hand sizes, uniformly at random, the rest is the out-of-play stack. The ass is always in
   play (A-2 puts it among the first 39 cards, and at least 39 are dealt), so when it is not
   in its own hand or on the table it goes to another seat, with odds in proportion to the
   hand sizes. Only what the view shows is used (A-11): its own hand and the public state.
3. *Rollouts*: every candidate is played in every world, and then every seat plays the
   ``rollout`` strategy to the end of the game (analyzer.games.ass.rollout.play_on). Every
   candidate meets the same worlds and, in world w, the same rollout stream (common random
   numbers), so the comparison between candidates is as sharp as the worlds allow.
4. It plays the candidate with the fewest minus points of its own at the end (A-10), summed
   over the worlds; ties go to the earlier candidate (so the rollout strategy's own move).

Randomness: the draws of the worlds and one 64-bit seed per world for its rollout stream all
come from the game's stream (analyzer.rng), in decision order, so a pimc game replays
identically from (seed, index). A decision with one legal move draws nothing.

``peek`` is the same search on the true deal: it is handed every hand (which A-11 forbids to
a player) and so needs no worlds: with a rollout strategy that does not draw it rolls each
candidate out once, with ``random`` rollouts ``worlds`` times on the same deal. It is not a
legal player; ``peek`` minus ``pimc`` measures what the hidden cards are worth to the search.

The rollout strategy is carried in one parameter slot (catalog.encode_rollout): its family id
and its eight knobs, decoded here into the tuple the policies take.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import analyzer.games.ass.rollout as rollout  # (a module: the import order is circular)
from analyzer.games.ass.cards import (
    ASS,
    COPIES,
    JOKER,
    JOKER_HIGH,
    N_JOKERS,
    N_VALUES,
    PASS,
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
    SCRATCH,
    VIEW_LEN,
)
from analyzer.games.ass.moves import (
    U0,
    U1,
    U4,
    count_of,
    enc,
    is_legal,
    legal_moves,
    move_delta,
    pack_counts,
)
from analyzer.rng import next_u64, randbelow
from analyzer.stack import stack_int64, stack_uint64
from strategies.ass.catalog import (
    BASIC,
    PEEK,
    RANDOM,
    ROLLOUT_FAMILY_SHIFT,
    ROLLOUT_KNOB_BITS,
    SLOT_CANDIDATES,
    SLOT_ROLLOUT,
    SLOT_WORLDS,
)
from strategies.ass.policies import basic, heuristic

MAX_CANDIDATES = 64
MAX_WORLDS = 256
MAX_PLAYERS = 12
# the literal sizes of the stack arrays in search_move must agree with these
assert VIEW_LEN == 1120 and MAX_WORLDS * MAX_PLAYERS == 3072
KNOB_MASK = (1 << ROLLOUT_KNOB_BITS) - 1
FAMILY_SHIFT = ROLLOUT_FAMILY_SHIFT


@njit(cache=True, inline="always")
def rollout_strategy(code):
    """(family, params tuple) of a rollout strategy encoded by catalog.encode_rollout."""
    x = np.int64(code)
    b = ROLLOUT_KNOB_BITS
    pp = (float(x & KNOB_MASK), float((x >> b) & KNOB_MASK),
          float((x >> (2 * b)) & KNOB_MASK), float((x >> (3 * b)) & KNOB_MASK),
          float((x >> (4 * b)) & KNOB_MASK), float((x >> (5 * b)) & KNOB_MASK),
          float((x >> (6 * b)) & KNOB_MASK), float((x >> (7 * b)) & KNOB_MASK))
    return x >> FAMILY_SHIFT, pp


@njit(cache=True, inline="always")
def score(hand):
    """Minus points of a packed hand (A-10), as engine.score."""
    total = count_of(hand, ASS) * 20 + count_of(hand, JOKER) * 14
    for w in range(1, N_VALUES + 1):
        total += w * count_of(hand, w)
    return total


@njit(cache=True)  # a call, not inlined: a dozen call sites would slow the cold compile
def _add(cands, m, move, view):
    """Append ``move`` to the candidates when legal and new; return the new count."""
    if not is_legal(move, view):
        return m
    for i in range(m):
        if cands[i] == move:
            return m
    cands[m] = move
    return m + 1


@njit(cache=True)
def _candidates(view, first, cands, limit):
    """The moves to search, in prior order, at most ``limit``; return how many.

    ``first`` (the rollout strategy's move) comes first; then, leading: the ass where allowed,
    every whole set of one value (lowest first), all jokers alone, every whole set with all
    jokers; following in an ass round: a joker as 1, one card of each value held (highest
    first), a joker as 14; following in a normal round: pass, the cheapest raise with each
    higher value (lowest first, jokers only to make up k), k jokers alone.
    """
    m = _add(cands, 0, first, view)
    jokers = view[JOKER]
    if view[PUB_POS] == 0:
        if view[PUB_MAY_LEAD_ASS] != 0:
            m = _add(cands, m, enc(ASS, 1, 0), view)
        for w in range(1, N_VALUES + 1):
            if view[w] > 0 and m < limit:
                m = _add(cands, m, enc(w, view[w], 0), view)
        if jokers > 0 and m < limit:
            m = _add(cands, m, enc(JOKER_HIGH, 0, jokers), view)
        for w in range(1, N_VALUES + 1):
            if view[w] > 0 and jokers > 0 and m < limit:
                m = _add(cands, m, enc(w, view[w], jokers), view)
    elif view[PUB_ASS_ROUND] != 0:
        if jokers > 0:
            m = _add(cands, m, enc(1, 0, 1), view)
        for w in range(N_VALUES, 0, -1):
            if view[w] > 0 and m < limit:
                m = _add(cands, m, enc(w, 1, 0), view)
        if jokers > 0 and m < limit:
            m = _add(cands, m, enc(JOKER_HIGH, 0, 1), view)
    else:
        m = _add(cands, m, PASS, view)
        k = view[PUB_K]
        for w in range(view[PUB_HIGH] + 1, N_VALUES + 1):
            if m >= limit:
                break
            c = min(view[w], k)
            if c >= 1 and c + jokers >= k:
                m = _add(cands, m, enc(w, c, k - c), view)
        if jokers >= k and m < limit:
            m = _add(cands, m, enc(JOKER_HIGH, 0, k), view)
    return min(m, limit)


@njit(cache=True)
def sample_world(view, rng, world, at, pool):
    """Deal the cards the decider cannot see into ``world[at : at + n]`` (packed hands).

    The decider's seat gets its own hand. Uses the view only: the unseen cards are the deck
    minus the own hand, the cards gone and the cards on the table; each other seat gets its
    public hand size of them, uniformly; the ass (when unseen) goes to another seat, chosen
    with odds in proportion to the hand sizes. ``pool`` is work space (int64, >= 110).
    """
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    total = 0
    for kind in range(1, JOKER + 1):
        unseen = (N_JOKERS if kind == JOKER else COPIES) - view[kind] - view[PUB_GONE + kind]
        unseen -= view[PUB_TABLE + kind]
        for _ in range(unseen):
            pool[total] = kind
            total += 1
    others = 0
    for s in range(n):
        world[at + s] = U0
        if s != me:
            others += view[PUB_SIZES + s]
    world[at + me] = pack_counts(view, 0)
    ass_at = -1
    if view[ASS] == 0 and view[PUB_TABLE + ASS] == 0 and others > 0:
        r = randbelow(rng, others)
        for s in range(n):
            if s != me:
                r -= view[PUB_SIZES + s]
                if r < 0:
                    ass_at = s
                    break
        world[at + ass_at] = U1
    left = total
    for s in range(n):
        if s == me:
            continue
        need = view[PUB_SIZES + s] - (1 if s == ass_at else 0)
        hand = world[at + s]
        need = min(need, left)  # (only a hand-built view that no game reaches lacks cards)
        for _ in range(need):  # partial Fisher-Yates: draw from the pool's first ``left``
            i = randbelow(rng, left)
            kind = pool[i]
            left -= 1
            pool[i] = pool[left]
            pool[left] = kind
            hand += U1 << (U4 * np.uint64(kind))
        world[at + s] = hand


@njit(cache=True)
def _roll(view, world, at, move, fam, pp, rview, rng, cur, gone, table0):
    """The decider plays ``move`` in ``world``, then everybody the rollout strategy to the
    end; return the decider's minus points (``cur`` and ``rview`` are work space)."""
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    for s in range(n):
        cur[s] = world[at + s]
        rview[PUB_SIZES + s] = view[PUB_SIZES + s]
    pos = view[PUB_POS]
    starter = view[PUB_STARTER]
    if pos == 0:  # leading: the round starts with this move
        delta = move_delta(move)
        c = (move >> 4) & 15
        j = move & 15
        cur[me] -= delta
        rview[PUB_SIZES + me] -= c + j
        high = move >> 8
        ass_round = 1 if high == ASS else 0
        k = 1 if ass_round else c + j
        table = delta
        high_seat = me
    else:
        k = view[PUB_K]
        high = view[PUB_HIGH]
        ass_round = view[PUB_ASS_ROUND]
        high_seat = view[PUB_HIGH_SEAT]
        table = table0
        if move != PASS:
            delta = move_delta(move)
            cur[me] -= delta
            table += delta
            rview[PUB_SIZES + me] -= ((move >> 4) & 15) + (move & 15)
            v = move >> 8
            if v > high or (ass_round and v == high):
                high = v
                high_seat = me
    status, _ = rollout.play_on(cur, n, fam, pp, rview, rng, gone, table, starter, -1, pos + 1,
                                k, high, high_seat, ass_round, view[PUB_ROUND])
    if status != rollout.OK:
        return 1 << 20  # a rollout strategy moved illegally: never prefer this candidate
    return score(cur[me])


@njit(cache=True)
def search_move(family, params, view, rng, packed):
    """The move of ``pimc`` (or ``peek``, which reads the true hands in ``packed``).

    ``view`` is the decider's view (A-11), ``rng`` the game's stream; ``packed`` (uint64[n])
    is read by ``peek`` only.
    """
    count = legal_moves(view)
    if count == 1:
        return view[SCRATCH]
    n = view[PUB_PLAYERS]
    fam, pp = rollout_strategy(params[SLOT_ROLLOUT])
    limit = min(max(int(params[SLOT_CANDIDATES]), 1), MAX_CANDIDATES)
    worlds = min(max(int(params[SLOT_WORLDS]), 1), MAX_WORLDS)
    if family == PEEK and fam != RANDOM:
        worlds = 1  # the true deal and a rollout that never draws: one rollout says it all
    # the prior's first move: the rollout strategy's own (basic's for random rollouts)
    first = basic(pp, view, rng) if fam in (BASIC, RANDOM) else heuristic(pp, view, rng)
    # work space on the stack: the engine's play loop runs without numba's runtime (stack.py)
    cands = stack_int64(64)  # MAX_CANDIDATES
    m = _candidates(view, first, cands, limit)
    if m == 1:
        return cands[0]
    world_hands = stack_uint64(3072)  # MAX_WORLDS * MAX_PLAYERS
    streams = stack_uint64(256)  # MAX_WORLDS
    pool = stack_int64(128)
    for w in range(worlds):
        if family == PEEK:
            for s in range(n):
                world_hands[w * n + s] = packed[s]
        else:
            sample_world(view, rng, world_hands, w * n, pool)
        streams[w] = next_u64(rng)
    rview = stack_int64(1120)  # VIEW_LEN
    for i in range(SCRATCH):
        rview[i] = 0
    cur = stack_uint64(16)
    roll_rng = stack_uint64(1)
    gone = pack_counts(view, PUB_GONE)
    table0 = pack_counts(view, PUB_TABLE)
    best = 0
    best_total = 1 << 62
    for i in range(m):
        total = 0
        for w in range(worlds):
            roll_rng[0] = streams[w]
            total += _roll(view, world_hands, w * n, cands[i], fam, pp, rview, roll_rng, cur,
                           gone, table0)
            if total >= best_total:  # cannot beat the best any more (ties go to the earlier)
                break
        if total < best_total:
            best_total = total
            best = i
    return cands[best]

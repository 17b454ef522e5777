"""The search families of Who's the Ass?: ``pimc`` and, for analysis only, ``peek``.

``pimc`` (perfect-information Monte Carlo). At a decision with more than one legal move:

1. *Candidates*: the moves it will search, at most ``candidates`` of them, in the order of a
   cheap prior: the rollout strategy's own move first, then the natural moves of the
   situation (:func:`_candidates`); each is checked legal.
2. *Worlds*: ``worlds`` deals of the cards it cannot see. Those are the deck minus its own
   hand, the cards gone and the cards on the table. Each other seat first gets the cards the
   public record shows it holds (the view's PUB_KNOWN: the ass with whoever is known to hold
   it, the cards of an ass round with its taker, less what it played since; cards.py), then
   the rest of its public hand size, uniformly at random from the other unseen cards; the
   rest is the out-of-play stack. (The ass is always in play, A-2, and its holder is always
   public; should a hand-built view not say, it goes to another seat, with odds in
   proportion to the places left in the hands.) Only what the view shows is used (A-11): its
   own hand and the public state. Knob ``infer``: ``voids`` is this; ``sizes`` ignores the
   known holdings (the worlds before they were public in the view, kept to measure what
   they are worth); ``policy`` (the default) also weighs the opponents' past moves:
   it draws ``oversample`` times ``worlds`` worlds and keeps the ``worlds`` in which the
   fewest of the opponents' decisions in this game's record differ from what the rollout
   strategy would have played with the hand the world gives them then
   (:func:`_mismatches`), as bridge's BEN keeps the deals that best explain the bidding; a
   kept world weighs ``eps`` to the power of its mismatches beyond the fewest (``eps`` = 1:
   all alike; ``oversample=1`` with ``eps`` < 1 weighs the worlds without choosing).
3. *Rollouts*: every candidate is played in every world, and then every seat plays the
   ``rollout`` strategy to the end of the game (strategies.ass.rollout.play_on). Every
   candidate meets the same worlds and, in world w, the same rollout stream (common random
   numbers), so the comparison between candidates is as sharp as the worlds allow.
4. It plays the candidate with the fewest minus points of its own at the end (A-10), summed
   over the worlds (with ``infer=policy`` each world weighted, knob ``eps``); ties go to the
   earlier candidate (so the rollout strategy's own move).

Randomness: the draws of the worlds and one 64-bit seed per world for its rollout stream all
come from the game's stream (analyzer.rng), in decision order, so a pimc game replays
identically from (seed, index). A decision with one legal move draws nothing.

The move record. ``search_move`` is handed ``trace``, the game's public record so far as the
engine's trace mode writes it (engine.py: per round the starter, the taker or winner, and
every seat's move in playing order from the starter; PASS for a pass), which the engine keeps
whenever a seat searches. Round ``view[PUB_ROUND]`` is the current one: its first
``view[PUB_POS]`` moves are read, nothing after them. A record shorter than that (a caller
without one, like dispatch.decide) turns ``infer=policy`` into ``voids``.

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

import strategies.ass.rollout as rollout
from analyzer.games.ass.cards import (
    ASS,
    COPIES,
    HAND_SLOTS,
    JOKER,
    JOKER_HIGH,
    N_JOKERS,
    N_VALUES,
    PASS,
    PUB_ASS_ROUND,
    PUB_GAME,
    PUB_GAMES,
    PUB_GONE,
    PUB_HIGH,
    PUB_HIGH_SEAT,
    PUB_K,
    PUB_KNOWN,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_SIZES,
    PUB_STARTER,
    PUB_TABLE,
    PUB_TOTALS,
    SCRATCH,
    VIEW_LEN,
)
from analyzer.games.ass.moves import (
    U0,
    U1,
    U4,
    U15,
    count_of,
    enc,
    follow_move,
    is_legal,
    lead_move,
    legal_moves,
    move_delta,
    pack_counts,
    unpack_to,
)
from analyzer.rng import next_u64, randbelow
from analyzer.stack import stack_int64, stack_uint64
from strategies.ass.catalog import (
    BASIC,
    INFER_POLICY,
    INFER_SIZES,
    PEEK,
    PIMC,
    RANDOM,
    ROLLOUT_FAMILY_SHIFT,
    ROLLOUT_KNOB_BITS,
    SLOT_CANDIDATES,
    SLOT_EPS,
    SLOT_INFER,
    SLOT_OVERSAMPLE,
    SLOT_ROLLOUT,
    SLOT_WORLDS,
    VALUE,
)
from strategies.ass.policies import basic, basic_packed, decide_other
from strategies.ass.value import leaf_value, leaf_values

MAX_CANDIDATES = 64
MAX_WORLDS = 256
MAX_PLAYERS = 12
MAX_OVERSAMPLE = 16
INCONSISTENT = 1 << 30  # the mismatches of a world that cannot explain the record
WEIGHT_ONE = 1 << 20  # a world's full weight (integer weights: sums stay exact)
# the literal sizes of the stack arrays in search_move must agree with these
assert VIEW_LEN == 1136 and (MAX_WORLDS + 1) * MAX_PLAYERS == 3084
assert MAX_PLAYERS * HAND_SLOTS == 192
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


search_candidates = _candidates  # public for analyzer/learn/ass_value.py (training leaves)


@njit(cache=True, inline="always")
def _size(hand):
    """The number of cards in a packed hand."""
    total = 0
    while hand != U0:
        total += np.int64(hand & U15)
        hand >>= U4
    return total


@njit(cache=True)
def sample_world(view, rng, world, at, pool, use_known):
    """Deal the cards the decider cannot see into ``world[at : at + n]`` (packed hands).

    The decider's seat gets its own hand. Uses the view only: the unseen cards are the deck
    minus the own hand, the cards gone and the cards on the table. With ``use_known`` every
    other seat first gets its known cards (PUB_KNOWN), which leave the pool; then each gets
    the rest of its public hand size from the pool, uniformly. The ass, when unseen and known
    nowhere (only a hand-built view; or ``use_known`` off), goes to another seat with odds in
    proportion to the places left in the hands. ``pool`` is work space (int64, >= 110).
    """
    deal_world(view, rng, world, at, pool, unseen_pool(view, pool, use_known), use_known)


@njit(cache=True)
def unseen_pool(view, pool, use_known):
    """Write the unseen cards (less the known holdings of the others, with ``use_known``)
    into ``pool``; return how many. The ass is never in the pool (deal_world places it)."""
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    total = 0
    for kind in range(1, JOKER + 1):
        unseen = (N_JOKERS if kind == JOKER else COPIES) - view[kind] - view[PUB_GONE + kind]
        unseen -= view[PUB_TABLE + kind]
        if use_known:
            for s in range(n):
                if s != me:
                    unseen -= count_of(np.uint64(view[PUB_KNOWN + s]), kind)
        for _ in range(unseen):
            pool[total] = kind
            total += 1
    return total


@njit(cache=True)
def deal_world(view, rng, world, at, pool, total, use_known):
    """sample_world's deal from the ``total`` cards unseen_pool wrote to ``pool``. The deal
    leaves the pool permuted, which serves the next deal as well (a partial Fisher-Yates
    draws uniformly whatever the order it starts from)."""
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    free = stack_int64(16)  # MAX_PLAYERS or more: the places left in each hand
    ass_known = False
    others = 0
    for s in range(n):
        world[at + s] = U0
        free[s] = 0
        if s == me:
            continue
        free[s] = view[PUB_SIZES + s]
        if use_known and view[PUB_KNOWN + s] != 0:
            known = np.uint64(view[PUB_KNOWN + s])
            world[at + s] = known
            ass_known = ass_known or (known & U15) != U0
            free[s] = max(free[s] - _size(known), 0)
        others += free[s]
    world[at + me] = pack_counts(view, 0)
    if view[ASS] == 0 and view[PUB_TABLE + ASS] == 0 and not ass_known and others > 0:
        r = randbelow(rng, others)
        for s in range(n):
            if s != me:
                r -= free[s]
                if r < 0:
                    world[at + s] += U1
                    free[s] -= 1
                    break
    left = total
    for s in range(n):
        if s == me:
            continue
        hand = world[at + s]
        need = min(free[s], left)  # (only a hand-built view that no game reaches lacks cards)
        for _ in range(need):  # partial Fisher-Yates: draw from the pool's first ``left``
            i = randbelow(rng, left)
            kind = pool[i]
            left -= 1
            pool[i] = pool[left]
            pool[left] = kind
            hand += U1 << (U4 * np.uint64(kind))
        world[at + s] = hand


@njit(cache=True)
def _record_since(view, trace, plus, minus, sizes):
    """What the move record says happened in this game so far, independent of any world.

    Fills ``plus[s * 16 + kind]`` with the cards seat s played, ``minus[s * 16 + kind]`` with
    the cards it took in ass rounds, and ``sizes[s]`` with its hand size at the start of the
    record; returns the cards gone at the start (packed). So a world's hand of seat s plus
    ``plus`` minus ``minus`` is the hand it gives s at the start of the record.
    """
    n = view[PUB_PLAYERS]
    last_round = view[PUB_ROUND]
    for i in range(n * HAND_SLOTS):
        plus[i] = 0
        minus[i] = 0
    for s in range(n):
        sizes[s] = view[PUB_SIZES + s]
    gone = pack_counts(view, PUB_GONE)
    for r in range(last_round + 1):
        starter = trace[r, 0] if r < last_round else view[PUB_STARTER]
        moves = n if r < last_round else view[PUB_POS]
        table = U0
        seat = starter
        for p in range(moves):
            move = trace[r, 2 + p]
            if move != PASS:
                c = (move >> 4) & 15
                j = move & 15
                plus[seat * HAND_SLOTS + (move >> 8)] += c  # c = 0 for jokers alone
                plus[seat * HAND_SLOTS + JOKER] += j
                sizes[seat] += c + j
                table += move_delta(move)
            seat = seat + 1 if seat + 1 < n else 0
        if r < last_round:
            if trace[r, 2] >> 8 == ASS:  # the taker took the round's cards
                taker = trace[r, 1]
                for kind in range(JOKER + 1):
                    minus[taker * HAND_SLOTS + kind] += count_of(table, kind)
                sizes[taker] -= _size(table)
            else:  # they left the game
                gone -= table
    return gone


@njit(cache=True)
def _mismatches(view, trace, world, at, plus, minus, sizes0, gone0, fam, pp, cur, wview,
                wrng, cap):
    """How many of the opponents' decisions in the move record the rollout strategy would
    have made otherwise, with the hands that the world ``world[at : at + n]`` gives them at
    the time; stops counting at ``cap``. INCONSISTENT for a world that cannot explain the
    record (no game reaches that: the known holdings rule it out).

    The hands at the start of the record are the world's plus what each seat played since
    minus what it took (``_record_since``); the record is then replayed move by move under
    the rules (A-5..A-8), and at every decision of a seat other than the decider (forced
    passes are none, A-6) the rollout strategy is asked: ``basic`` on the packed hand,
    ``heuristic`` on a view filled as the engine fills it (``wview``; the match facts copied
    from the decider's view).
    """
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    last_round = view[PUB_ROUND]
    for s in range(n):
        hand = U0
        for kind in range(JOKER + 1):
            c = count_of(world[at + s], kind) + plus[s * HAND_SLOTS + kind]
            c -= minus[s * HAND_SLOTS + kind]
            if c < 0 or c > 15:
                return INCONSISTENT
            hand += np.uint64(c) << (U4 * np.uint64(kind))
        cur[s] = hand
        wview[PUB_SIZES + s] = sizes0[s]
    gone = gone0
    blocked = -1
    miss = 0
    for r in range(last_round + 1):
        starter = trace[r, 0] if r < last_round else view[PUB_STARTER]
        moves = n if r < last_round else view[PUB_POS]
        table = U0
        k = 0
        high = 0
        ass_round = 0
        high_seat = starter
        seat = starter
        for p in range(moves):
            move = trace[r, 2 + p]
            if (p == 0 or wview[PUB_SIZES + seat] >= k) and seat != me:
                hand = cur[seat]
                may = 1 if p == 0 and (hand & U15) != U0 and seat != blocked else 0
                if fam == BASIC:
                    guess = basic_packed(hand, p, ass_round, may, k, high)
                else:  # heuristic or learned: on a view filled as the engine fills it
                    unpack_to(hand, wview, 0)
                    unpack_to(table, wview, PUB_TABLE)
                    unpack_to(gone, wview, PUB_GONE)
                    wview[PUB_POS] = p
                    wview[PUB_SEAT] = seat
                    wview[PUB_K] = k
                    wview[PUB_HIGH] = high
                    wview[PUB_ASS_ROUND] = ass_round
                    wview[PUB_MAY_LEAD_ASS] = may
                    wview[PUB_STARTER] = starter
                    wview[PUB_HIGH_SEAT] = high_seat
                    wview[PUB_ROUND] = r
                    guess = decide_other(fam, pp, wview, wrng)
                if guess != move:
                    miss += 1
                    if miss >= cap:
                        return miss
            if move != PASS:
                c = (move >> 4) & 15
                j = move & 15
                if count_of(cur[seat], move >> 8) < c or count_of(cur[seat], JOKER) < j:
                    return INCONSISTENT  # the world does not give the seat these cards
                delta = move_delta(move)
                cur[seat] -= delta
                table += delta
                wview[PUB_SIZES + seat] -= c + j
                v = move >> 8
                if p == 0:
                    high = v
                    ass_round = 1 if v == ASS else 0
                    k = 1 if ass_round else c + j
                elif v > high or (ass_round and v == high):
                    high = v
                    high_seat = seat
            seat = seat + 1 if seat + 1 < n else 0
        if r < last_round:
            if ass_round:
                cur[high_seat] += table
                wview[PUB_SIZES + high_seat] += _size(table)
                blocked = high_seat
            else:
                gone += table
                blocked = -1
    return miss


@njit(cache=True, inline="always")
def play_move(view, world, at, move, rview, cur, table0):
    """The decider plays ``move`` in ``world``: ``cur`` (and ``rview``'s hand sizes) get the
    world's hands after it; returns the round's (k, high, high_seat, ass_round, table). Public
    for the value model's training (analyzer/learn/ass_value.py), whose leaves start so."""
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    for s in range(n):
        cur[s] = world[at + s]
        rview[PUB_SIZES + s] = view[PUB_SIZES + s]
    if view[PUB_POS] == 0:  # leading: the round starts with this move
        table, k, high, ass_round = lead_move(move, me, cur, rview)
        return k, high, me, ass_round, table
    k = view[PUB_K]
    high = view[PUB_HIGH]
    ass_round = view[PUB_ASS_ROUND]
    high_seat = view[PUB_HIGH_SEAT]
    table = table0
    if move != PASS:
        table, high, high_seat = follow_move(move, me, cur, rview, table, high, high_seat,
                                             ass_round)
    return k, high, high_seat, ass_round, table


@njit(cache=True)
def play_out(view, world, at, move, fam, pp, rview, rng, cur, gone, table0):
    """The decider plays ``move`` in ``world``, then everybody the rollout strategy to the
    end; return the decider's minus points (float64; ``cur`` and ``rview`` are work space).
    With ``fam`` VALUE (``rollout=value``) ``basic`` finishes the round instead and the value
    model scores the next round's start (strategies/ass/value.py ``leaf_value``): the
    decider's expected minus points, exact when the round ends the game or, near its end
    (``pp[0]``: a seat can go out with that many leads; 0 with ``rollout=value-only``), once
    the finisher has played it out; ``cur`` then holds the hands at the round's (game's) end.

    Public for the analysis (analyzer.analysis.kernels), which scores every move of a
    position the way the search does. ``view``: the decider's view (cards.py); ``world``:
    packed hands, seat s at ``world[at + s]``; ``move``: a legal move code of the decider;
    ``fam``/``pp``: the rollout strategy's family id and parameters (:func:`rollout_strategy`);
    ``rview``: a VIEW_LEN work view whose public state beyond the seats' hand sizes is set
    up by the caller; ``rng``: the rollout's uint64[1] stream (advanced); ``cur``: uint64
    work space of n or more (the hands at the end); ``gone``/``table0``: the packed cards
    gone and on the table (as the view shows them). A rollout strategy that moves illegally
    scores 1 << 20."""
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    k, high, high_seat, ass_round, table = play_move(view, world, at, move, rview, cur, table0)
    starter = view[PUB_STARTER]
    pos = view[PUB_POS]
    if fam == VALUE:
        rview[PUB_PLAYERS] = n
        return leaf_value(cur, n, me, starter, pos + 1, k, high, high_seat, ass_round, table,
                          gone, rview, rng, view[PUB_ROUND], pp[0])
    status, _ = rollout.play_on(cur, n, fam, pp, rview, rng, gone, table, starter,
                                rollout.NO_BLOCK, pos + 1,
                                k, high, high_seat, ass_round, view[PUB_ROUND])
    if status != rollout.OK:
        return float(1 << 20)  # a rollout strategy moved illegally: never prefer this candidate
    return float(score(cur[me]))


@njit(cache=True)
def play_out_seats(view, world, at, move, fam, pp, rview, rng, cur, gone, table0, out):
    """:func:`play_out` for every seat: ``out[s]`` = seat s's minus points at the end of the
    game (with ``rollout=value``: its value of the leaf, exact when the game is over). For
    the analysis's timeline. Returns nothing; an illegal rollout move leaves 1 << 20."""
    n = view[PUB_PLAYERS]
    k, high, high_seat, ass_round, table = play_move(view, world, at, move, rview, cur, table0)
    starter = view[PUB_STARTER]
    pos = view[PUB_POS]
    if fam == VALUE:
        rview[PUB_PLAYERS] = n
        leaf_values(cur, n, starter, pos + 1, k, high, high_seat, ass_round, table, gone, rview,
                    rng, view[PUB_ROUND], out, pp[0])
        return
    status, _ = rollout.play_on(cur, n, fam, pp, rview, rng, gone, table, starter,
                                rollout.NO_BLOCK, pos + 1,
                                k, high, high_seat, ass_round, view[PUB_ROUND])
    for s in range(n):
        out[s] = float(score(cur[s])) if status == rollout.OK else float(1 << 20)


@njit(cache=True)
def policy_worlds(view, rng, trace, world_hands, worlds, n, pool, fam, pp, wview, oversample,
                  eps, misses):
    """``infer=policy``: draw ``oversample * worlds`` worlds and keep in ``world_hands`` the
    ``worlds`` with the fewest mismatches against the move record (:func:`_mismatches`). A
    drawn world replaces the worst kept one only when it has strictly fewer, so of equals the
    earlier drawn stay. Draws from ``rng`` only through deal_world. Then ``misses[w]``
    becomes kept world w's weight in the search, in units of 1 / WEIGHT_ONE: ``eps`` to
    the power of its mismatches beyond the fewest of any kept world (so with eps = 1 they
    all weigh alike).

    Public for the analysis (analyzer.analysis.kernels), which samples the worlds the
    search would weigh. ``trace``: the game's public move record (the engine's trace rows,
    starters, moves and takers, A-11); ``world_hands``: uint64 of (worlds + 1) * n packed
    hands (the last n a spare); ``pool``: int64 work space of 128; ``fam``/``pp``: the
    rollout strategy whose moves the opponents are measured against (with the value model,
    ``basic``); ``wview``: a VIEW_LEN
    work view; ``misses``: int64[worlds], the weights on return."""
    if fam == VALUE:  # the value model's worlds are weighed by basic's moves
        fam = BASIC
    plus = stack_int64(192)  # MAX_PLAYERS * HAND_SLOTS
    minus = stack_int64(192)
    sizes0 = stack_int64(16)
    cur = stack_uint64(16)
    wrng = stack_uint64(1)
    wrng[0] = 0  # heuristic draws nothing; a stream of its own all the same
    gone0 = _record_since(view, trace, plus, minus, sizes0)
    for i in range(SCRATCH):  # the match facts as the decider sees them
        wview[i] = view[i] if i >= PUB_TOTALS else 0
    wview[PUB_PLAYERS] = n
    wview[PUB_GAME] = view[PUB_GAME]
    wview[PUB_GAMES] = view[PUB_GAMES]
    spare = worlds * n
    worst = 0
    total = unseen_pool(view, pool, True)  # once: each deal leaves it fit for the next
    for t in range(worlds * oversample):
        at = t * n if t < worlds else spare
        deal_world(view, rng, world_hands, at, pool, total, True)
        cap = INCONSISTENT if t < worlds else misses[worst]
        miss = _mismatches(view, trace, world_hands, at, plus, minus, sizes0, gone0, fam, pp,
                           cur, wview, wrng, cap)
        if t < worlds:
            misses[t] = miss
        elif miss < misses[worst]:
            for s in range(n):
                world_hands[worst * n + s] = world_hands[spare + s]
            misses[worst] = miss
        else:
            continue
        if t >= worlds - 1:  # the worst kept world (the last of equals), for the next draw
            worst = 0
            for w in range(1, worlds):
                if misses[w] >= misses[worst]:
                    worst = w
            if misses[worst] == 0:
                break  # every kept world explains the record: none can replace one
    fewest = misses[0]
    for w in range(1, worlds):
        fewest = min(fewest, misses[w])
    for w in range(worlds):
        misses[w] = np.int64(WEIGHT_ONE * eps ** (misses[w] - fewest))


@njit(cache=True)
def deal_worlds(family, params, view, rng, packed, trace, fam, pp, worlds, world_hands,
                streams, pool, rview, weights):
    """The search's worlds (module docstring, step 2) into ``world_hands``, one rollout
    stream seed each into ``streams`` and each world's weight into ``weights``; returns how
    many worlds (peek with a rollout that never draws needs one)."""
    n = view[PUB_PLAYERS]
    infer = int(params[SLOT_INFER])
    if family == PEEK and fam != RANDOM:
        worlds = 1  # the true deal and a rollout that never draws: one rollout says it all
    if family == PEEK:
        for w in range(worlds):
            for s in range(n):
                world_hands[w * n + s] = packed[s]
            streams[w] = next_u64(rng)
            weights[w] = 1
    elif (family == PIMC and infer == INFER_POLICY and fam != RANDOM
          and trace.shape[0] > view[PUB_ROUND]):
        # random rollouts make every legal move as likely: nothing to infer from the record
        policy_worlds(view, rng, trace, world_hands, worlds, n, pool, fam, pp, rview,
                      min(max(int(params[SLOT_OVERSAMPLE]), 1), MAX_OVERSAMPLE),
                      min(max(params[SLOT_EPS], 0.0), 1.0), weights)
        for w in range(worlds):
            streams[w] = next_u64(rng)
    else:
        for w in range(worlds):
            sample_world(view, rng, world_hands, w * n, pool, infer != INFER_SIZES)
            streams[w] = next_u64(rng)
            weights[w] = 1
    return worlds


@njit(cache=True)
def search_move(family, params, view, rng, packed, trace):
    """The move of ``pimc`` (or ``peek``, which reads the true hands in ``packed``).

    ``view`` is the decider's view (A-11), ``rng`` the game's stream; ``packed`` (uint64[n])
    is read by ``peek`` only; ``trace`` is the game's public move record (module docstring),
    read with ``infer=policy`` only.
    """
    count = legal_moves(view)
    if count == 1:
        return view[SCRATCH]
    n = view[PUB_PLAYERS]
    fam, pp = rollout_strategy(params[SLOT_ROLLOUT])
    limit = min(max(int(params[SLOT_CANDIDATES]), 1), MAX_CANDIDATES)
    worlds = min(max(int(params[SLOT_WORLDS]), 1), MAX_WORLDS)
    # the prior's first move: the rollout strategy's own (basic's for random rollouts)
    # (the value model's: basic's, whose moves finish its rounds)
    if fam in (BASIC, RANDOM, VALUE):
        first = basic(pp, view, rng)
    else:
        first = decide_other(fam, pp, view, rng)
    # work space on the stack: the engine's play loop runs without numba's runtime (stack.py)
    cands = stack_int64(64)  # MAX_CANDIDATES
    m = _candidates(view, first, cands, limit)
    if m == 1:
        return cands[0]
    world_hands = stack_uint64(3084)  # (MAX_WORLDS + 1) * MAX_PLAYERS: the last, a spare
    streams = stack_uint64(256)  # MAX_WORLDS
    pool = stack_int64(128)
    rview = stack_int64(1136)  # VIEW_LEN
    weights = stack_int64(256)  # MAX_WORLDS
    worlds = deal_worlds(family, params, view, rng, packed, trace, fam, pp, worlds, world_hands,
                         streams, pool, rview, weights)
    for i in range(SCRATCH):
        rview[i] = 0
    cur = stack_uint64(16)
    roll_rng = stack_uint64(1)
    gone = pack_counts(view, PUB_GONE)
    table0 = pack_counts(view, PUB_TABLE)
    best = 0
    best_total = np.inf
    for i in range(m):
        total = 0.0
        for w in range(worlds):
            roll_rng[0] = streams[w]
            total += weights[w] * play_out(view, world_hands, w * n, cands[i], fam, pp, rview,
                                        roll_rng, cur, gone, table0)
            if total >= best_total:  # cannot beat the best any more (ties go to the earlier)
                break
        if total < best_total:
            best_total = total
            best = i
    return cands[best]


@njit(cache=True)
def search_values(family, params, view, rng, trace, cands, m, totals, squares):
    """pimc's value of each of the ``m`` moves ``cands[:m]`` (each legal for ``view``): every
    move rolled out in every world (no early stop), the decider's minus points weighted per
    world summed into ``totals[i]`` and their squares into ``squares[i]`` (float64); returns
    the sum of the worlds' weights (so the mean is ``totals / weight``). The worlds and their
    draws from ``rng`` are those of :func:`search_move` with the same arguments; for the
    decision data of analyzer/learn (cands: strategies/ass/learned.py ``candidates``)."""
    n = view[PUB_PLAYERS]
    fam, pp = rollout_strategy(params[SLOT_ROLLOUT])
    worlds = min(max(int(params[SLOT_WORLDS]), 1), MAX_WORLDS)
    world_hands = stack_uint64(3084)
    streams = stack_uint64(256)
    pool = stack_int64(128)
    rview = stack_int64(1136)
    weights = stack_int64(256)
    worlds = deal_worlds(family, params, view, rng, np.zeros(n, dtype=np.uint64), trace, fam,
                         pp, worlds, world_hands, streams, pool, rview, weights)
    for i in range(SCRATCH):
        rview[i] = 0
    cur = stack_uint64(16)
    roll_rng = stack_uint64(1)
    gone = pack_counts(view, PUB_GONE)
    table0 = pack_counts(view, PUB_TABLE)
    weight = 0.0
    for w in range(worlds):
        weight += float(weights[w])  # relative weights: one scale within a decision
    for i in range(m):
        totals[i] = 0.0
        squares[i] = 0.0
        for w in range(worlds):
            roll_rng[0] = streams[w]
            x = play_out(view, world_hands, w * n, cands[i], fam, pp, rview, roll_rng, cur, gone,
                         table0)
            wt = float(weights[w])
            totals[i] += wt * x
            squares[i] += wt * x * x
    return weight

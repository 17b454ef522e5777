"""Determinized Monte Carlo search for Plus-Minus Jass: the ``pimc`` and ``peek`` families.

At a decision with more than one legal card, ``pimc`` (perfect-information Monte Carlo):

1. draws ``worlds`` deals of the cards it cannot see to the other seats, each consistent with
   everything it has seen and nothing else (J-11): its own hand, every card played and by whom,
   each seat's hand size, and every inference the rules allow from the play (the public state's
   ``S_BAN`` masks: suits a seat showed out of, trumps it cannot hold after J-6 forced its hand);
2. for every candidate card, plays every world to the end of the deal with the ``rollout``
   policy (a non-search preset), with the same worlds and the same rollout streams for every
   candidate (common random numbers, so the comparison is paired);
3. plays the candidate with the best total outcome for itself: ``objective=deal`` its sticks
   from this deal under J-9 given the standings (the 100-point rule, and the remembered ties
   that this deal's sticks would pay); ``objective=match`` adds the match: +10 when the deal
   wins it the match (J-10), -10 when it makes another seat the winner, plus its sticks minus
   the most sticks another seat gets from the deal. Ties go to the earlier candidate in the
   prior order (cheapest card, dearest card, second cheapest, ... by ``basic``'s key), which
   also decides which ``candidates`` are searched when that knob caps them.

``infer=policy`` also asks how likely each world makes what the other seats did (the BEN
bridge program keeps 200 of 5,000 worlds this way). For every world it replays the deal so
far from that world's hands (:func:`replay_misses`: the public order of play, ``S_HIST``), asks
the rollout policy at every move of another seat which card it would have played there, and
counts the *misses*. It draws ``oversample`` x ``worlds`` worlds (fewer when ``worlds`` of
them miss nothing: no later world could be kept), keeps the ``worlds`` with the fewest misses
and weighs each by ``eps`` ** (its misses - the fewest): eps = 1 and oversample = 1 is
``infer=voids`` again, eps = 0 keeps only the most likely worlds. A policy that draws
counts a move as matching when a draw could have given it (``random``: any legal card), so
the replay never touches the game's stream. The decider's own moves carry no such weight:
its hand is the same in every world. The trump-fixing card of another seat is one of its
moves (the rollout policy fixes trump by its own rule), so a world in which the rollout
policy would have fixed another suit counts a miss.

Focus (``focus=z``, the default z = 2 with ``infer=voids``): plain search spends as many worlds
on a card that is clearly worst as on the two that are close. The focused search plays every
candidate in the first third of the ``worlds`` (at least 2), then, after every world, drops
each candidate whose mean loss to the leader exceeds z standard errors (paired over the
worlds both were played in: common random numbers make the comparison sharp) and plays the
candidates left in new worlds, one world at a time, until it has played as many leaves as
the plain search would (``worlds`` x candidates), one candidate is left, or it has drawn 3 x
``worlds`` worlds. The worlds are drawn as :func:`draw_worlds` draws them (its first worlds
are the plain search's). So a clear call costs fewer leaves, and a close call between two
cards is decided on up to 3 x ``worlds`` worlds instead of ``worlds``. ``focus=0`` is the
plain search; with ``infer=policy`` (its worlds drawn and weighed all at once) focus is off.

``peek`` is the same search on the true deal (every world is the real one): it sees every hand,
which J-11 forbids, so it is an upper bound for analysis and never a legal player.

All randomness comes from the game's own stream in decision order: per world, the sampler's
draws and then one 64-bit draw that seeds that world's rollout stream. The rollout player
(:func:`strategies.jass.play.rollout`) has its own dispatcher holding the non-search
families only, because numba cannot recurse engine -> policy -> engine.

World sampling: the hidden cards are dealt one by one, the cards fewest seats may hold first,
each to a seat drawn in proportion to the cards it still lacks among the seats that may hold
it and leave the rest of the deal completable (Hall's condition over the sets of seats, which
the true deal proves satisfiable). With no inference in play this is exactly a uniform random
deal of the hidden cards; with inferences it is a close approximation of uniform.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import popcount
from analyzer.games.jass.cards import BASIC_KEY, BIT, FULL_DECK, SUIT_MASK, SUIT_OF
from analyzer.games.jass.primitives import (
    S_BAN,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_DEAL_NO,
    S_DEALER,
    S_FIRST,
    S_FIXER,
    S_HIGH_TRUMP,
    S_HIST,
    S_LAST_WINNER,
    S_LEADER,
    S_LED,
    S_N,
    S_NTRICKS,
    S_POS,
    S_STICKS,
    S_SWISS,
    S_TIES,
    S_TRICK,
    S_TRUMP,
    ST_SIZE,
    U0,
    U1,
    legal_mask,
    lowest_card,
)
from analyzer.games.jass.scoring import base_sticks, match_winner
from analyzer.numba_compat import njit_no_runtime, njit_runtime
from analyzer.rng import next_u64, randbelow
from strategies.jass.knobs import (
    FAM_HEURISTIC,
    FAM_RANDOM,
    INFER_POLICY,
    OBJ_DEAL,
    P_CANDIDATES,
    P_EPS,
    P_FOCUS,
    P_INFER,
    P_OBJECTIVE,
    P_OVERSAMPLE,
    P_ROLLOUT,
    P_TRUMP,
    P_WORLDS,
    ROLLOUT_CHOICES,
    TR_RANDOM,
    VALUE_FINISHER,
    VALUE_ROLLOUT,
    WORLDS_AT_3,
    WORLDS_AT_4,
)
from strategies.jass.loop import rollout
from strategies.jass.play import (
    copy_state_to_play_on,
    deal_bonus,
    deal_points,
    play_card,
    play_card_no_bans,
    to_move,
)
from strategies.jass.policies import begin_deal, choose_card, fix_card, trump_like
from strategies.jass.value import LATE, finish_trick, value
from strategies.registry import N_PARAMS, catalog, resolve_values

MATCH_WEIGHT = 10  # objective=match: a won (lost) match counts as ten sticks
MAX_MISSES = 36  # infer=policy: more moves than a deal has


def _rollout_tables() -> tuple[np.ndarray, np.ndarray]:
    """Family id and parameter vector of every rollout choice (frozen into the kernels: after
    changing a preset, run ``make clean-cache``)."""
    fams = np.zeros(len(ROLLOUT_CHOICES), dtype=np.int64)
    prms = np.zeros((len(ROLLOUT_CHOICES), N_PARAMS), dtype=np.float64)
    book = catalog("jass", with_files=False)
    for k, name in enumerate(ROLLOUT_CHOICES):
        # not parse_strategy: a bad weights file stops only its users; ``value`` is its
        # finisher's (the policy that finishes its leaves' tricks: value.py)
        spec = book[VALUE_FINISHER if k == VALUE_ROLLOUT else name]
        fams[k] = spec.family
        prms[k] = resolve_values(spec, {})
    return fams, prms


ROLLOUT_FAMS, ROLLOUT_PRMS = _rollout_tables()


@njit_no_runtime()
def _hall_ok_after(rest, caps, outs, m, q, b):
    """True when the cards ``rest`` can still be dealt to the m other seats after the card
    ``b`` (a bit) went to seat ``q`` (``caps`` already counting it), given that they could
    be before. Hall's condition: for every set T of seats, the cards only seats of T may hold
    are no more than T's free places (``outs[t]``: the cards some seat outside T may hold).
    Placing the card took one place from the sets T that hold ``q`` and took the card from
    the count of the sets it could only go to: only a T with ``q`` in it and the card in
    ``outs[t]`` (a seat outside T could have taken it) can have lost its margin, so only
    those are counted; every other set keeps the margin it had."""
    for t in range(1, 1 << m):
        if not (t >> q) & 1 or (outs[t] & b) == U0:
            continue
        room = 0
        for k in range(m):
            if (t >> k) & 1:
                room += caps[k]
        if popcount(rest & ~outs[t]) > room:
            return False
    return True


@njit_no_runtime()
def sample_world(seat, hand, st, played, rng, wh, others, allow, caps, outs):
    """Deal the cards ``seat`` cannot see to the other seats (module docstring) into ``wh``
    (uint64[4]; ``wh[seat]`` = its own hand). Scratch: ``others``/``caps`` int64[4],
    ``allow`` uint64[4], ``outs`` uint64[8]; ``others`` int64[8]. Returns False only on an
    inconsistent state."""
    n = st[S_N]
    ntr = st[S_NTRICKS]
    unseen = FULL_DECK & ~hand
    for p in range(n):
        unseen &= ~played[p]
    m = 0
    free = True
    for p in range(4):
        wh[p] = U0
    wh[seat] = hand
    for p in range(n):
        if p == seat:
            continue
        others[m] = p
        allow[m] = unseen & ~np.uint64(st[S_BAN + p])
        if allow[m] != unseen:
            free = False
        caps[m] = ntr - popcount(played[p])
        m += 1
    if not free:
        for t in range(1 << m):
            o = U0
            for q in range(m):
                if not (t >> q) & 1:
                    o |= allow[q]
            outs[t] = o
    # the cards fewest seats may hold go first
    a0 = allow[0]
    a1 = allow[1]
    a2 = allow[2] if m > 2 else U0
    one = (a0 & ~a1 & ~a2) | (~a0 & a1 & ~a2) | (~a0 & ~a1 & a2)
    every = a0 & a1 & a2 if m > 2 else a0 & a1
    rest = unseen
    for group in range(3):
        if group == 0:
            g = one & unseen
        elif group == 1:
            g = unseen & ~one & ~every
        else:
            g = every & unseen
        # Hall's condition holds before each card (the true deal completes the start; each
        # card keeps it). A card one seat may hold goes there in every completion, and once
        # only cards every seat may hold are left any seat with a free place will do: only
        # the cards between (two of three seats at 4 players) can break it, so only they
        # are checked. The same seats, so the same draws, as checking every card.
        check = not free and group == 1
        while g != U0:
            c = lowest_card(g)
            g &= g - U1
            b = BIT[c]
            rest &= ~b
            total = 0
            for q in range(m):  # others[4 + q]: may seat q take the card
                ok = (allow[q] & b) != U0 and caps[q] > 0
                if ok and check:
                    caps[q] -= 1
                    ok = _hall_ok_after(rest, caps, outs, m, q, b)
                    caps[q] += 1
                others[4 + q] = 1 if ok else 0
                if ok:
                    total += caps[q]
            if total == 0:
                return False
            r = randbelow(rng, total)
            for q in range(m):
                if others[4 + q] == 0:
                    continue
                if r < caps[q]:
                    wh[others[q]] |= b
                    caps[q] -= 1
                    break
                r -= caps[q]
    return True


@njit_no_runtime()
def deal_start_state(st, s0):
    """The public state at the start of this deal (what ``engine.start_deal`` left), in
    ``s0``: the deal's constants of ``st`` (players, rules, dealer, first player, standings,
    remembered ties) and nothing of the play."""
    for i in range(ST_SIZE):
        s0[i] = 0
    s0[S_N] = st[S_N]
    s0[S_SWISS] = st[S_SWISS]
    s0[S_DEALER] = st[S_DEALER]
    s0[S_DEAL_NO] = st[S_DEAL_NO]
    s0[S_FIRST] = st[S_FIRST]
    s0[S_LEADER] = st[S_FIRST]
    s0[S_NTRICKS] = st[S_NTRICKS]
    for i in range(4):
        s0[S_STICKS + i] = st[S_STICKS + i]
    for i in range(6):
        s0[S_TIES + i] = st[S_TIES + i]
    s0[S_TRUMP] = -1
    s0[S_FIXER] = -1
    s0[S_LED] = -1
    s0[S_BEST_SEAT] = -1
    s0[S_BEST_CARD] = -1
    s0[S_HIGH_TRUMP] = -1
    s0[S_LAST_WINNER] = -1


@njit_no_runtime()
def policy_allows(fam, prm, who, hand, legal, st, played, taken, srng, aim, card):
    """True when the rollout policy, in seat ``who`` with ``hand``, could have played ``card``:
    its choice, for a policy that draws nothing; for one that draws, any card a draw could
    give (``random``: every legal card; the heuristic's trump=random: its fixing card in any
    suit it holds). ``srng`` is scratch: the game's stream is never touched."""
    if fam == FAM_RANDOM:
        return True
    if (fam == FAM_HEURISTIC and int(prm[P_TRUMP]) == TR_RANDOM and st[S_TRUMP] < 0
            and st[S_POS] > 0 and (hand & SUIT_MASK[st[S_LED]]) == U0):
        return card == fix_card(hand, SUIT_OF[card])
    return choose_card(fam, prm, who, hand, legal, st, played, taken, srng, aim) == card


@njit_no_runtime()
def replay_misses(seat, wh, st, played, fam, prm, h0, p0, t0, s0, memo, srng, limit):
    """infer=policy: how many of the other seats' moves so far in this deal the rollout policy
    would not have made, had the world ``wh`` been the deal. The deal is replayed from its
    start (the world's hands plus the cards each seat has played; the public order of play
    ``S_HIST``), and at every move of another seat the policy is asked, from that seat's
    world hand then and the public state then, which card it plays. The decider's own moves
    are replayed but not scored: its hand is the same in every world, so they say nothing
    about how the others' cards lie. Stops early, returning ``limit``, once the misses reach
    ``limit``. Scratch: ``h0``/``p0``/``t0`` uint64[4], ``s0`` int64[ST_SIZE], ``memo``
    int64[4], ``srng`` uint64[1]."""
    if limit <= 0:
        return 0
    n = st[S_N]
    total = 0
    for p in range(n):
        total += popcount(played[p])
    for p in range(4):
        h0[p] = wh[p] | played[p]
        p0[p] = U0
        t0[p] = U0
    deal_start_state(st, s0)
    for p in range(n):
        memo[p] = begin_deal(fam, prm, p, h0[p], s0)
    miss = 0
    for k in range(total):
        card = st[S_HIST + k]
        who = to_move(s0)
        if who != seat:
            hand = h0[who]
            legal = legal_mask(hand, s0)
            if (legal & (legal - U1)) != U0 and not policy_allows(
                    fam, prm, who, hand, legal, s0, p0, t0, srng, memo[who], card):
                miss += 1
                if miss >= limit:
                    return miss
        play_card(who, card, h0, p0, t0, s0)
    return miss


@njit_no_runtime()
def prior_order(legal, st, cands):
    """The candidates in prior order: by ``basic``'s key, cheapest, dearest, second cheapest,
    second dearest, ... Returns how many (all legal cards)."""
    as_trump = trump_like(st)
    k = 0
    m = legal
    while m != U0:
        c = lowest_card(m)
        m &= m - U1
        cands[k] = c
        k += 1
    # insertion sort by key (at most 12 cards)
    for i in range(1, k):
        c = cands[i]
        kc = BASIC_KEY[1, c] if (as_trump & BIT[c]) != U0 else BASIC_KEY[0, c]
        j = i - 1
        while j >= 0:
            d = cands[j]
            kd = BASIC_KEY[1, d] if (as_trump & BIT[d]) != U0 else BASIC_KEY[0, d]
            if kd <= kc:
                break
            cands[j + 1] = d
            j -= 1
        cands[j + 1] = c
    return k


@njit_no_runtime()
def interleave(cands, k, out):
    """cheapest, dearest, second cheapest, ... of a sorted list."""
    lo = 0
    hi = k - 1
    i = 0
    while lo <= hi:
        out[i] = cands[lo]
        i += 1
        lo += 1
        if lo <= hi:
            out[i] = cands[hi]
            i += 1
            hi -= 1


@njit_no_runtime(inline="always")
def match_term(seat, totals, st):
    """``objective=match``'s part for the match (J-10): +10 when the stick ``totals`` after
    the deal make the decider the winner, -10 when they make another seat the winner, 0
    otherwise or in a single deal."""
    if st[S_DEAL_NO] == 0:
        return 0
    w = match_winner(totals, st[S_N])
    if w == seat:
        return MATCH_WEIGHT
    return -MATCH_WEIGHT if w >= 0 else 0


@njit_no_runtime()
def outcome(seat, taken, st, objective, pts, award, bonus, newties, totals):
    """The decider's outcome of a finished deal (module docstring, ``objective``)."""
    n = st[S_N]
    deal_points(taken, st, pts)
    base_sticks(pts, n, award, newties)
    if st[S_DEAL_NO] > 0:
        deal_bonus(award, st, bonus)
    else:
        for i in range(n):
            bonus[i] = 0
    mine = award[seat] + bonus[seat]
    if objective == OBJ_DEAL:
        return mine
    best_other = 0
    for i in range(n):
        totals[i] = st[S_STICKS + i] + award[i] + bonus[i]
        if i != seat and award[i] + bonus[i] > best_other:
            best_other = award[i] + bonus[i]
    return mine - best_other + match_term(seat, totals, st)


@njit_no_runtime()
def value_leaf(seat, hands, played, taken, st, rfams, rprms, rng, memo, objective, ints):
    """``rollout=value``: the decider's outcome of a leaf (the candidate just played in a
    world; strategies/jass/value.py): ``learned`` finishes the trick; with at most ``LATE``
    tricks left it plays the deal to its end (``rfams``/``rprms``: learned in every seat) and
    the outcome is exact (:func:`outcome`); otherwise the value model's estimate of the sticks
    ``learned`` play would bring: ``objective=deal`` the decider's; ``match`` its estimate
    minus the best other seat's (at least 0), +-10 when the standings plus the estimates,
    rounded, make a match winner (an approximation: the model does not know the remembered
    ties' bonus). Changes the state; ``ints`` is scratch, int64[5, 8]."""
    finish_trick(hands, played, taken, st, rng)
    if st[S_NTRICKS] - st[S_TRICK] <= LATE:
        rollout(rfams, rprms, rng, hands, played, taken, st, memo)
        return outcome(seat, taken, st, objective, ints[0], ints[1], ints[2], ints[3],
                       ints[4])
    mine = value(seat, hands, taken, st)
    if objective == OBJ_DEAL:
        return mine
    n = st[S_N]
    totals = ints[4]
    best_other = 0.0
    for i in range(n):
        v = mine if i == seat else value(i, hands, taken, st)
        totals[i] = st[S_STICKS + i] + int(np.floor(v + 0.5))
        if i != seat and v > best_other:
            best_other = v
    return mine - best_other + match_term(seat, totals, st)


@njit_no_runtime()
def value_leaf_all(seat, hands, played, taken, st, rfams, rprms, rng, memo, ints, sticks,
                   points):
    """The analysis's :func:`value_leaf` for every seat (``objective=deal``): ``sticks[p]``
    seat p's (its value, or its exact sticks with the remembered ties' bonus when the leaf is
    played out), ``points[p]`` its card points when ``learned`` (``rfams``/``rprms``, the value
    choice's table) then plays the deal to its end. ``sticks[seat]`` is exactly what the
    decider's :func:`value_leaf` returns. Changes the state."""
    n = st[S_N]
    finish_trick(hands, played, taken, st, rng)
    over = st[S_NTRICKS] - st[S_TRICK] <= LATE
    if not over:
        for p in range(n):
            sticks[p] = value(p, hands, taken, st)
    rollout(rfams, rprms, rng, hands, played, taken, st, memo)
    outcome(seat, taken, st, OBJ_DEAL, ints[0], ints[1], ints[2], ints[3], ints[4])
    for p in range(n):
        if over:
            sticks[p] = ints[1, p] + ints[2, p]
        points[p] = ints[0, p]


@njit_no_runtime(inline="always")
def leaf_value(seat, card, seed, wh, played, taken, st, h2, p2, t2, st2, rk, rfams, rprms, rr,
               memo, objective, ints):
    """The decider's outcome of ``card`` played in world ``wh`` (its rollout stream seeded
    with ``seed``): the value leaf, or the rollout to the deal's end and its outcome. The
    world's state is copied first (``h2``/``p2``/``t2``/``st2`` scratch), all but the order
    of play (``copy_state_to_play_on``: only :func:`replay_misses` reads ``S_HIST``, from the
    decision's own state), and the card is played without the search's bans (``S_BAN``: only
    the draw of worlds reads them, from the decision's own state). What follows in the leaf
    reads neither, so the outcome is the one a whole copy gives (tests/test_jass_search.py)."""
    copy_state_to_play_on(wh, played, taken, st, h2, p2, t2, st2)
    play_card_no_bans(seat, card, h2, p2, t2, st2)
    rr[0] = seed
    if rk == VALUE_ROLLOUT:
        return value_leaf(seat, h2, p2, t2, st2, rfams, rprms, rr, memo, objective, ints)
    rollout(rfams, rprms, rr, h2, p2, t2, st2, memo)
    return outcome(seat, t2, st2, objective, ints[0], ints[1], ints[2], ints[3], ints[4])


@njit_no_runtime()
def world_leaves(seat, cands, nc, alive, seed, wh, played, taken, st, h2, p2, t2, st2, rk,
                 rfams, rprms, rr, memo, objective, ints, v):
    """Every candidate ``cands[ci]`` (ci < ``nc``) still ``alive`` played in world ``wh`` (its
    rollout stream seeded with ``seed``): its :func:`leaf_value` into ``v[ci]``, after every
    seat's aim for the deal (``begin_deal``, into ``memo``); returns how many leaves it
    played. Compiled without numba's runtime, as every function the leaves call: the search's
    own functions allocate and so count references, and a leaf inlined there counted them for
    every array it was handed (two atomic operations each, on every leaf: 13% of pimc's
    time at 4 players, measured with perf)."""
    n = st[S_N]
    for p in range(n):
        memo[p] = begin_deal(rfams[p], rprms[p], p, wh[p], st)
    used = 0
    for ci in range(nc):
        if alive[ci]:
            v[ci] = leaf_value(seat, cands[ci], seed, wh, played, taken, st, h2, p2, t2, st2,
                               rk, rfams, rprms, rr, memo, objective, ints)
            used += 1
    return used


@njit_no_runtime(inline="always")
def decision_worlds(prm, st):
    """The worlds of a decision: the knob ``worlds``, or with ``worlds=0`` (pimc's default)
    the player count's (knobs.WORLDS_AT_3, WORLDS_AT_4)."""
    worlds = int(prm[P_WORLDS])
    if worlds > 0:
        return worlds
    return WORLDS_AT_3 if st[S_N] == 3 else WORLDS_AT_4


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def draw_worlds(prm, seat, hand, st, played, rng, truth, peek):
    """The worlds a decision searches: ``(pool, seeds, keep, weight)``: ``pool[g]`` the hands
    of world g (uint64[4], every world drawn), ``seeds[g]`` its rollout stream; the search
    plays worlds ``keep[w]`` with weight ``weight[w]``. Draws, in this order, per world the
    sampler's cards and one 64-bit rollout seed. ``peek``: every world is ``truth``.
    infer=policy (module docstring): up to ``oversample`` x ``worlds`` worlds (no more once
    ``worlds`` of them miss nothing), the ``worlds`` with the fewest misses kept (earlier first
    among equals), weighted ``eps`` ** (misses - the fewest); otherwise every world drawn,
    weight 1. ``keep[0]`` is -1 on an inconsistent state."""
    worlds = decision_worlds(prm, st)
    policy = int(prm[P_INFER]) == INFER_POLICY and not peek
    over = max(1, int(prm[P_OVERSAMPLE])) if policy else 1
    rk = int(prm[P_ROLLOUT])
    rprm = ROLLOUT_PRMS[rk].copy()  # writable, as the engine's: one compile of each policy
    ngen = worlds * over
    pool = np.zeros((ngen, 4), dtype=np.uint64)
    seeds = np.zeros(ngen, dtype=np.uint64)
    miss = np.zeros(ngen, dtype=np.int64)
    keep = np.arange(worlds)
    weight = np.ones(worlds, dtype=np.float64)
    wh = np.zeros(4, dtype=np.uint64)
    allow = np.zeros(4, dtype=np.uint64)
    outs = np.zeros(8, dtype=np.uint64)
    others = np.zeros(8, dtype=np.int64)
    caps = np.zeros(4, dtype=np.int64)
    h0 = np.zeros(4, dtype=np.uint64)
    p0 = np.zeros(4, dtype=np.uint64)
    t0 = np.zeros(4, dtype=np.uint64)
    s0 = np.empty(ST_SIZE, dtype=np.int64)
    memo = np.zeros(4, dtype=np.int64)
    srng = np.zeros(1, dtype=np.uint64)
    # misses of the worlds so far, by count: a world that reaches the worlds-th fewest so far
    # can never be kept (that many earlier worlds miss no more), so its replay stops there;
    # once `worlds` worlds miss nothing, no more are drawn
    hist = np.zeros(MAX_MISSES + 2, dtype=np.int64)
    limit = MAX_MISSES + 1
    for g in range(ngen):
        if limit == 0:  # `worlds` worlds that miss nothing: no later world can be kept
            ngen = g
            break
        ok, seeds[g] = next_world(seat, hand, st, played, rng, truth, peek, wh, others, allow,
                                  caps, outs)
        if not ok:
            keep[0] = -1
            return pool, seeds, keep, weight
        for p in range(4):
            pool[g, p] = wh[p]
        if policy:
            m = replay_misses(seat, wh, st, played, ROLLOUT_FAMS[rk], rprm, h0, p0, t0, s0,
                              memo, srng, limit)
            miss[g] = m
            hist[m] += 1
            if g + 1 >= worlds:
                below = 0
                for v in range(MAX_MISSES + 1):
                    below += hist[v]
                    if below >= worlds:
                        limit = v
                        break
    if policy:
        eps = prm[P_EPS]
        kept = 0
        v = 0
        while kept < worlds:
            for g in range(ngen):
                if miss[g] == v and kept < worlds:
                    keep[kept] = g
                    kept += 1
            v += 1
        least = miss[keep[0]]
        for w in range(worlds):
            weight[w] = eps ** (miss[keep[w]] - least)
    return pool[:ngen], seeds[:ngen], keep, weight


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def rollout_tables(rk):
    """Every seat's rollout family and parameters for rollout choice ``rk`` (the search's
    leaves and playouts), writable copies as the engine's."""
    rfams = np.full(4, ROLLOUT_FAMS[rk], dtype=np.int64)
    rprms = np.empty((4, N_PARAMS), dtype=np.float64)
    for i in range(4):
        rprms[i, :] = ROLLOUT_PRMS[rk]
    return rfams, rprms


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def order_candidates(prm, legal, st, cands):
    """The candidates in prior order into ``cands`` (int64[12]); returns how many are
    searched (all, or the first ``candidates`` of them)."""
    sorted_c = np.empty(12, dtype=np.int64)
    nc = prior_order(legal, st, sorted_c)
    interleave(sorted_c, nc, cands)
    kcap = int(prm[P_CANDIDATES])
    if kcap > 0 and nc > kcap:
        nc = kcap
    return nc


@njit_no_runtime()
def next_world(seat, hand, st, played, rng, truth, peek, wh, others, allow, caps, outs):
    """Draw the next world into ``wh`` as :func:`draw_worlds` draws each (``peek``: the true
    deal, no draw), then its rollout seed: returns (ok, seed); ok is False only on an
    inconsistent state. Scratch as :func:`sample_world`'s."""
    if peek:
        for p in range(4):
            wh[p] = truth[p]
    elif not sample_world(seat, hand, st, played, rng, wh, others, allow, caps, outs):
        return False, np.uint64(0)
    return True, next_u64(rng)


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def search_values(prm, seat, hand, legal, st, played, taken, rng, truth, peek, cands, scores,
                  squares):
    """The search's values of the candidates (module docstring): writes the candidates in
    prior order to ``cands`` (int64[12]), each one's weighted total outcome over the worlds
    to ``scores`` and of its square to ``squares`` (float64[12]); returns (how many
    candidates, the worlds' total weight), or (-1, 0) on an inconsistent state. ``peek``:
    every world is ``truth`` (the real hands); otherwise ``truth`` is never read."""
    rk = int(prm[P_ROLLOUT])
    objective = int(prm[P_OBJECTIVE])
    rfams, rprms = rollout_tables(rk)
    nc = order_candidates(prm, legal, st, cands)
    for ci in range(12):
        scores[ci] = 0.0
        squares[ci] = 0.0
    wh = np.zeros(4, dtype=np.uint64)
    h2 = np.zeros(4, dtype=np.uint64)
    p2 = np.zeros(4, dtype=np.uint64)
    t2 = np.zeros(4, dtype=np.uint64)
    st2 = np.empty(ST_SIZE, dtype=np.int64)
    memo = np.zeros(4, dtype=np.int64)
    ints = np.zeros((5, 8), dtype=np.int64)
    rr = np.zeros(1, dtype=np.uint64)
    alive = np.ones(12, dtype=np.bool_)
    v = np.zeros(12, dtype=np.float64)
    pool, seeds, keep, weight = draw_worlds(prm, seat, hand, st, played, rng, truth, peek)
    if keep[0] < 0:
        return -1, 0.0
    total = 0.0
    for w in range(len(keep)):
        g = keep[w]
        if weight[w] == 0.0:
            continue
        total += weight[w]
        for p in range(4):
            wh[p] = pool[g, p]
        world_leaves(seat, cands, nc, alive, seeds[g], wh, played, taken, st, h2, p2, t2, st2,
                     rk, rfams, rprms, rr, memo, objective, ints, v)
        for ci in range(nc):
            scores[ci] += weight[w] * v[ci]
            squares[ci] += weight[w] * v[ci] * v[ci]
    return nc, total


@njit_no_runtime(inline="always")
def focus_first(worlds):
    """``focus``: the worlds in which every candidate is played (a third of ``worlds``, at
    least 2)."""
    return max(2, worlds // 3)


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def focused_card(prm, seat, hand, legal, st, played, taken, rng, truth, peek):
    """``focus=z`` (module docstring, "Focus"): the card of a search that plays every
    candidate in the first :func:`focus_first` worlds, then drops after every world each
    candidate whose mean loss to the leader (the best mean so far, paired over the worlds
    both were played in) exceeds z standard errors, and plays the candidates left in new
    worlds until it has played ``worlds`` x candidates leaves, one candidate is left, or
    3 x ``worlds`` worlds are drawn. Worlds are drawn one at a time, exactly as
    :func:`draw_worlds` draws them with ``infer=voids`` (its first worlds are the plain
    search's). The best mean of the candidates left wins, ties to the earlier."""
    worlds = decision_worlds(prm, st)
    z = prm[P_FOCUS]
    rk = int(prm[P_ROLLOUT])
    objective = int(prm[P_OBJECTIVE])
    rfams, rprms = rollout_tables(rk)
    cands = np.empty(12, dtype=np.int64)
    nc = order_candidates(prm, legal, st, cands)
    alive = np.ones(12, dtype=np.bool_)
    sums = np.zeros(12, dtype=np.float64)
    cross = np.zeros((12, 12), dtype=np.float64)  # sum over worlds of v_i * v_j
    v = np.zeros(12, dtype=np.float64)
    wh = np.zeros(4, dtype=np.uint64)
    h2 = np.zeros(4, dtype=np.uint64)
    p2 = np.zeros(4, dtype=np.uint64)
    t2 = np.zeros(4, dtype=np.uint64)
    st2 = np.empty(ST_SIZE, dtype=np.int64)
    memo = np.zeros(4, dtype=np.int64)
    ints = np.zeros((5, 8), dtype=np.int64)
    rr = np.zeros(1, dtype=np.uint64)
    allow = np.zeros(4, dtype=np.uint64)
    outs = np.zeros(8, dtype=np.uint64)
    others = np.zeros(8, dtype=np.int64)
    caps = np.zeros(4, dtype=np.int64)
    first = focus_first(worlds)
    budget = worlds * nc
    used = 0
    left = nc
    w = 0
    while w < 3 * worlds and left > 1:
        if w >= first and used + left > budget:
            break
        ok, seed = next_world(seat, hand, st, played, rng, truth, peek, wh, others, allow,
                              caps, outs)
        if not ok:
            return -1
        used += world_leaves(seat, cands, nc, alive, seed, wh, played, taken, st, h2, p2, t2,
                             st2, rk, rfams, rprms, rr, memo, objective, ints, v)
        for i in range(nc):
            if alive[i]:
                sums[i] += v[i]
                for j in range(nc):
                    if alive[j]:
                        cross[i, j] += v[i] * v[j]
        w += 1
        if w < first:
            continue
        lead = -1
        for i in range(nc):
            if alive[i] and (lead < 0 or sums[i] > sums[lead]):
                lead = i
        for i in range(nc):
            if not alive[i] or i == lead:
                continue
            gap = (sums[lead] - sums[i]) / w  # the mean loss to the leader
            sq = cross[lead, lead] - 2.0 * cross[lead, i] + cross[i, i]
            var = max(0.0, (sq - w * gap * gap) / (w - 1))
            if gap * gap * w > z * z * var:  # gap > z standard errors (gap > 0: lead leads)
                alive[i] = False
                left -= 1
    best = -1
    for i in range(nc):
        if alive[i] and (best < 0 or sums[i] > sums[best]):
            best = i
    return cands[best]


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def world_values(prm, seat, hand, legal, st, played, taken, rng, count):
    """Every candidate's outcome in each of ``count`` worlds drawn as :func:`focused_card`
    draws them: ``(cands, nc, values)``, ``values[w, ci]`` candidate ci's in world w. For the
    tests and benchmarks of ``focus`` (:func:`focus_choice_py` over these values is
    :func:`focused_card`'s card)."""
    rk = int(prm[P_ROLLOUT])
    objective = int(prm[P_OBJECTIVE])
    rfams, rprms = rollout_tables(rk)
    cands = np.empty(12, dtype=np.int64)
    nc = order_candidates(prm, legal, st, cands)
    values = np.zeros((count, 12), dtype=np.float64)
    nothing = np.zeros(4, dtype=np.uint64)
    wh = np.zeros(4, dtype=np.uint64)
    h2 = np.zeros(4, dtype=np.uint64)
    p2 = np.zeros(4, dtype=np.uint64)
    t2 = np.zeros(4, dtype=np.uint64)
    st2 = np.empty(ST_SIZE, dtype=np.int64)
    memo = np.zeros(4, dtype=np.int64)
    ints = np.zeros((5, 8), dtype=np.int64)
    rr = np.zeros(1, dtype=np.uint64)
    allow = np.zeros(4, dtype=np.uint64)
    outs = np.zeros(8, dtype=np.uint64)
    others = np.zeros(8, dtype=np.int64)
    caps = np.zeros(4, dtype=np.int64)
    alive = np.ones(12, dtype=np.bool_)
    v = np.zeros(12, dtype=np.float64)
    for w in range(count):
        ok, seed = next_world(seat, hand, st, played, rng, nothing, False, wh, others, allow,
                              caps, outs)
        if not ok:
            return cands, -1, values
        world_leaves(seat, cands, nc, alive, seed, wh, played, taken, st, h2, p2, t2, st2, rk,
                     rfams, rprms, rr, memo, objective, ints, v)
        for ci in range(nc):
            values[w, ci] = v[ci]
    return cands, nc, values


def focus_choice_py(values, nc: int, worlds: int, z: float,
                    dropped: dict[int, int] | None = None) -> tuple[int, int, int]:
    """:func:`focused_card`'s rule in plain Python over every candidate's outcome per world
    (``values[w, ci]``, e.g. from :func:`world_values`): ``(the candidate index chosen,
    worlds drawn, leaves played)``. ``dropped``, when given, receives the candidates the rule
    dropped, each with the number of worlds after which it was dropped."""
    import math

    alive = list(range(nc))
    first = max(2, worlds // 3)
    budget = worlds * nc
    used = 0
    w = 0
    while w < 3 * worlds and len(alive) > 1:
        if w >= first and used + len(alive) > budget:
            break
        used += len(alive)
        w += 1
        if w < first:
            continue
        mean = {i: sum(values[k][i] for k in range(w)) / w for i in alive}
        lead = max(alive, key=lambda i: (mean[i], -i))
        kept = []
        for i in alive:
            diffs = [values[k][lead] - values[k][i] for k in range(w)]
            gap = mean[lead] - mean[i]
            var = sum((d - gap) ** 2 for d in diffs) / (w - 1)
            if i != lead and gap > 0 and gap > z * math.sqrt(var / w):
                if dropped is not None:
                    dropped[i] = w
                continue
            kept.append(i)
        alive = kept
    mean = {i: sum(values[k][i] for k in range(w)) / max(w, 1) for i in alive}
    return max(alive, key=lambda i: (mean[i], -i)), w, used


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def search_card(prm, seat, hand, legal, st, played, taken, rng, truth, peek, min_cands):
    """The search's card (module docstring): the candidate of :func:`search_values` with the
    best total, ties to the earlier; with ``focus`` (and ``infer=voids``),
    :func:`focused_card`'s. With fewer than ``min_cands`` legal cards the only card is played
    without a draw."""
    nlegal = popcount(legal)
    if nlegal < min_cands:
        return lowest_card(legal)
    if prm[P_FOCUS] > 0.0 and int(prm[P_INFER]) != INFER_POLICY:
        return focused_card(prm, seat, hand, legal, st, played, taken, rng, truth, peek)
    cands = np.empty(12, dtype=np.int64)
    scores = np.zeros(12, dtype=np.float64)
    squares = np.zeros(12, dtype=np.float64)
    nc, _ = search_values(prm, seat, hand, legal, st, played, taken, rng, truth, peek, cands,
                          scores, squares)
    if nc < 0:
        return -1
    best = 0
    for ci in range(1, nc):
        if scores[ci] > scores[best]:
            best = ci
    return cands[best]


# (peek, min_cands) of pimc_card and peek_card as a typed tuple, not literals: numba compiles a
# callee once per literal value passed to it, and search_card is the biggest function of the
# engine (forced_card passes variables: with literals here it compiled four times).
_FLAGS = ((False, np.int64(2)), (True, np.int64(2)))


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def pimc_card(prm, seat, hand, legal, st, played, taken, rng):
    """``pimc``: the search over worlds sampled from what the seat has seen. It is given its
    own hand and the public state only (J-11)."""
    nothing = np.zeros(4, dtype=np.uint64)
    return search_card(prm, seat, hand, legal, st, played, taken, rng, nothing, *_FLAGS[0])


@njit_runtime()  # allocates: not inherited from _nrt=False callers
def peek_card(prm, seat, hands, legal, st, played, taken, rng):
    """``peek`` (NOT a legal player): the same search on the true deal ``hands``."""
    return search_card(prm, seat, hands[seat], legal, st, played, taken, rng, hands, *_FLAGS[1])

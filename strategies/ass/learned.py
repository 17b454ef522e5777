"""The ``learned`` family of Who's the Ass?: a small network over (information state, move)
features, trained from ``pimc``'s per-candidate values, evaluated inside the numba kernels;
with ``model=linear`` (``learned-linear``) the linear model over the same features that was
``learned`` before the network (the policy ``pimc``'s value model finishes rounds with).

What the model sees (ruling A-11): only the decider's view (analyzer.games.ass.cards), that
is its own hand and the public state: the round's lead size, highest value, whether it is an
ass round, its position, every hand's size, the cards gone and the cards on the table. It
never reads another hand (the view holds none), nor the public move record.

The decision. ``candidates`` lists the *natural moves* of the situation in a fixed order
(the moves ``pimc`` searches, strategies/ass/pimc.py ``_candidates``, without its limit):

* leading: the ass where A-8 allows it, every whole set of one value (lowest first), all
  jokers alone, every whole set with all jokers;
* following in an ass round: a joker as 1, one card of each value held (highest first), a
  joker as 14;
* following in a normal round: pass, the cheapest raise with each higher value (lowest
  first, jokers only to make up k), k jokers alone.

Each candidate gets ``N_FEATURES`` features (:func:`features`: what it plays, what it leaves
in the hand, whether the public record proves it safe, how close the others are to going
out), and a score under the decision's *phase* (leading, following in a normal round,
following in an ass round): the network's (:func:`choose_net`: one hidden layer of ``HIDDEN``
rectified units per phase) or the linear model's (the dot product with the phase's weights).
The score predicts the candidate's minus points relative to the decision's other candidates;
the move is the candidate with the lowest score, ties to the earlier. No random draws: a
learned seat replays identically from (seed, index) and never touches the game's stream.

The weights (strategies/ass/learned_weights.py: the files, their checks, their provenance)
are read once per process into :data:`WEIGHTS` (the network) and :data:`LINEAR_WEIGHTS`; the
kernels play with :data:`KERNEL_WEIGHTS` and :data:`LINEAR_KERNEL_WEIGHTS`, the same with
subnormal entries zero (the network's transposed, learned_weights.kernel_layout), which numba
freezes into the compiled kernels (analyzer/numba_env.py hashes the weights files with the
sources, so new weights recompile).

:func:`features_py`, :func:`choose_net_py` and :func:`choose_py` (linear) are the same models
in plain Python, written apart from the jitted code, for the reference engine
(analyzer/engines/ass/reference.py: :func:`choose_model_py`) and the tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
    PUB_K,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_SEAT,
    PUB_SIZES,
    SCRATCH,
)
from analyzer.games.ass.moves import enc, is_legal, lead_is_safe
from analyzer.rows import relu_layer_finish, relu_layer_start
from analyzer.stack import stack_float64, stack_int64
from strategies.ass.learned_weights import (  # noqa: F401  (re-exported for callers)
    BASE,
    BLOCKS,
    FEATURE_SET,
    HIDDEN,
    KERNEL_WEIGHTS,
    LINEAR_KERNEL_WEIGHTS,
    LINEAR_WEIGHTS,
    N_FEATURES,
    N_PARAMS,
    PHASES,
    WEIGHTS,
    WEIGHTS_ERROR,
    check_linear_weights,
    check_weights,
    load_weights,
    weights_digest,
)

LEAD, FOLLOW, ASS_FOLLOW = range(3)
MAX_CANDIDATES = 64
SLOT_MODEL = 1  # learned's knob ``model`` (strategies/ass/catalog.py): 0 net, 1 linear
MODEL_LINEAR = 1.0
SLOT_HOLD = 2  # learned's knob ``hold``: minus points added to passing's score


# --- the model, jitted ------------------------------------------------------------------------


@njit(cache=True)
def phase_of(view):
    if view[PUB_POS] == 0:
        return LEAD
    return ASS_FOLLOW if view[PUB_ASS_ROUND] != 0 else FOLLOW


@njit(cache=True)
def _add(view, m, move):
    if is_legal(move, view):
        view[SCRATCH + m] = move
        return m + 1
    return m


@njit(cache=True)
def candidates(view):
    """Write the natural moves (module docstring) to view[SCRATCH:]; return how many."""
    m = 0
    jokers = view[JOKER]
    if view[PUB_POS] == 0:
        if view[PUB_MAY_LEAD_ASS] != 0:
            m = _add(view, m, enc(ASS, 1, 0))
        for w in range(1, N_VALUES + 1):
            if view[w] > 0:
                m = _add(view, m, enc(w, view[w], 0))
        if jokers > 0:
            m = _add(view, m, enc(JOKER_HIGH, 0, jokers))
            for w in range(1, N_VALUES + 1):
                if view[w] > 0:
                    m = _add(view, m, enc(w, view[w], jokers))
    elif view[PUB_ASS_ROUND] != 0:
        if jokers > 0:
            m = _add(view, m, enc(1, 0, 1))
        for w in range(N_VALUES, 0, -1):
            if view[w] > 0:
                m = _add(view, m, enc(w, 1, 0))
        if jokers > 0:
            m = _add(view, m, enc(JOKER_HIGH, 0, 1))
    else:
        m = _add(view, m, PASS)
        k = view[PUB_K]
        for w in range(view[PUB_HIGH] + 1, N_VALUES + 1):
            c = min(view[w], k)
            if c >= 1 and c + jokers >= k:
                m = _add(view, m, enc(w, c, k - c))
        if jokers >= k:
            m = _add(view, m, enc(JOKER_HIGH, 0, k))
    return m


@njit(cache=True, inline="always")
def _move_parts(move):
    """(is a pass, value, count, jokers, minus points it plays) of an encoded move
    (moves.enc: value << 8 | count << 4 | jokers); the ass plays 20, a joker 14."""
    is_pass = move == PASS
    v = 0
    c = 0
    j = 0
    if not is_pass:
        v = move >> 8
        c = (move >> 4) & 15
        j = move & 15
    played = 0
    if not is_pass:
        if v == ASS:
            played = 20
        elif v <= N_VALUES:
            played = v * c
        played += 14 * j
    return is_pass, v, c, j, played


# The inputs "times danger" (BASE to 2 * BASE - 1): all 0.0 in a decision where no opponent
# holds 2 cards or fewer, most of a game's decisions; choose_net then skips their rows.
DANGER_INPUTS = ((1 << BASE) - 1) << BASE


@njit(cache=True, inline="always")
def no_danger(view):
    """True when every opponent holds more than 2 cards: :func:`features`' ``danger`` is 0,
    and choose_net leaves out the inputs it multiplies (one definition for both)."""
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    opp = 1 << 30
    for s in range(n):
        if s != me and view[PUB_SIZES + s] < opp:
            opp = view[PUB_SIZES + s]
    return opp > 2


@njit(cache=True)
def features(view, move, out, at):
    """The N_FEATURES features of ``move`` for the decider of ``view`` into ``out[at:]``.

    Base features (each then also times "danger", an opponent with at most 2 cards, and
    times the own hand size / 10): 0 pass; 1 the ass led; 2 cards played / 4; 3 jokers
    used / 2; 4 minus points played / 30; 5 the set's value / 13; 6 cards left / 10; 7 the
    hand empties; 8 one card left; 9 distinct kinds left / 8; 10 splits a value; 11 no other
    seat can beat it (public facts); 12 in an ass round: it is now the highest (would take);
    13 minus points of the 10s..13s and jokers left / 50; 14 cards of value 1..4 left / 10;
    15 the ass left in hand; 16 a raise by the last seat to act; 17 a raise: the seats still
    to act holding k cards or more / n.
    """
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    pos = view[PUB_POS]
    size = 0
    for kind in range(JOKER + 1):
        size += view[kind]
    danger = 0.0 if no_danger(view) else 1.0
    scale = size / 10.0
    is_pass, v, c, j, played = _move_parts(move)
    left = size - c - j
    kinds = 0
    high_pts = 0
    low = 0
    for kind in range(1, JOKER + 1):
        cnt = view[kind]
        if not is_pass and kind == v and v <= N_VALUES:
            cnt -= c
        if kind == JOKER:
            cnt -= j
        if cnt > 0:
            kinds += 1
            if kind >= 10:
                high_pts += cnt * (14 if kind == JOKER else kind)
            elif kind <= 4:
                low += cnt
    ass_left = view[ASS] - (1 if (not is_pass and v == ASS and pos == 0) else 0)
    split = 1.0 if (not is_pass and 1 <= v <= N_VALUES and c < view[v]) else 0.0
    safe = 0.0
    takes = 0.0
    last_raise = 0.0
    still = 0.0
    if not is_pass:
        if view[PUB_ASS_ROUND] != 0 and pos > 0:
            takes = 1.0 if v >= view[PUB_HIGH] else 0.0
        else:
            if v != ASS and lead_is_safe(v, c + j, view):
                safe = 1.0
            if pos > 0:
                if pos == n - 1:
                    last_raise = 1.0
                k = view[PUB_K]
                cnt = 0
                for p in range(pos + 1, n):
                    s = (me + p - pos) % n
                    if view[PUB_SIZES + s] >= k:
                        cnt += 1
                still = cnt / n  # (n >= 2 here: a follower has a seat before it)
    base = (
        1.0 if is_pass else 0.0,
        1.0 if (not is_pass and v == ASS and pos == 0) else 0.0,
        (c + j) / 4.0,
        j / 2.0,
        played / 30.0,
        (v / 13.0) if not is_pass else 0.0,
        left / 10.0,
        1.0 if left == 0 else 0.0,
        1.0 if left == 1 else 0.0,
        kinds / 8.0,
        split,
        safe,
        takes,
        high_pts / 50.0,
        low / 10.0,
        1.0 if ass_left > 0 else 0.0,
        last_raise,
        still,
    )
    for i in range(BASE):
        out[at + i] = base[i]
        out[at + BASE + i] = base[i] * danger
        out[at + 2 * BASE + i] = base[i] * scale


@njit(cache=True)
def score(view, move, weights, phase):
    """The model's score of ``move`` (lower is better) with ``weights`` (flat, by phase)."""
    f = stack_float64(64)  # N_FEATURES or more
    features(view, move, f, 0)
    total = 0.0
    at = phase * N_FEATURES
    for i in range(N_FEATURES):
        total += weights[at + i] * f[i]
    return total


@njit(cache=True)
def choose(view, weights, hold):
    """The candidate with the lowest score (ties to the earlier) under ``weights``, passing's
    score raised by ``hold`` minus points (the ``hold`` knob).

    The scores are :func:`score`'s, to the last bit (the same features, summed in the same
    order), computed faster: what does not depend on the move (the hand's kinds and points,
    the danger and scale, the others' sizes, the cards still unaccounted above each value)
    once per decision, not once per candidate (a rollout of ``learned`` asks this at every
    turn)."""
    m = candidates(view)
    if m == 1:
        return view[SCRATCH]
    n = view[PUB_PLAYERS]
    me = view[PUB_SEAT]
    pos = view[PUB_POS]
    ass_round = view[PUB_ASS_ROUND]
    k = view[PUB_K]
    size = 0
    for kind in range(JOKER + 1):
        size += view[kind]
    opp = 1 << 30
    most = 0
    for s in range(n):
        if s != me:
            if view[PUB_SIZES + s] < opp:
                opp = view[PUB_SIZES + s]
            if view[PUB_SIZES + s] > most:
                most = view[PUB_SIZES + s]
    danger = 1.0 if opp <= 2 else 0.0
    scale = size / 10.0
    # the hand's kinds, high points and low cards before the move (features' loop)
    kinds0 = 0
    high0 = 0
    low0 = 0
    for kind in range(1, JOKER + 1):
        cnt = view[kind]
        if cnt > 0:
            kinds0 += 1
            if kind >= 10:
                high0 += cnt * (14 if kind == JOKER else kind)
            elif kind <= 4:
                low0 += cnt
    # lead_is_safe's unaccounted cards: the most of any value above w (jokers apart)
    free_jokers = N_JOKERS - view[PUB_GONE + JOKER] - view[JOKER]
    above = stack_int64(16)
    above[N_VALUES] = -(1 << 30)
    above[JOKER_HIGH] = -(1 << 30)
    for w in range(N_VALUES - 1, -1, -1):
        above[w] = max(above[w + 1], COPIES - view[PUB_GONE + w + 1] - view[w + 1])
    last_raise = 1.0 if (pos > 0 and pos == n - 1) else 0.0
    still = 0.0
    if pos > 0:
        cnt = 0
        for p in range(pos + 1, n):
            s = (me + p - pos) % n
            if view[PUB_SIZES + s] >= k:
                cnt += 1
        still = cnt / n
    at = phase_of(view) * N_FEATURES
    b = stack_float64(32)  # BASE or more
    best = view[SCRATCH]
    best_score = 0.0
    for i in range(m):
        move = view[SCRATCH + i]
        is_pass, v, c, j, played = _move_parts(move)
        left = size - c - j
        kinds = kinds0
        high_pts = high0
        low = low0
        if not is_pass and 1 <= v <= N_VALUES and c > 0:
            kinds, high_pts, low = _less(kinds, high_pts, low, v, view[v], c)
        if j > 0:
            kinds, high_pts, low = _less(kinds, high_pts, low, JOKER, view[JOKER], j)
        led_ass = 1.0 if (not is_pass and v == ASS and pos == 0) else 0.0
        ass_left = view[ASS] - (1 if led_ass > 0.0 else 0)
        split = 1.0 if (not is_pass and 1 <= v <= N_VALUES and c < view[v]) else 0.0
        safe = 0.0
        takes = 0.0
        lr = 0.0
        st = 0.0
        if not is_pass:
            if ass_round != 0 and pos > 0:
                takes = 1.0 if v >= view[PUB_HIGH] else 0.0
            else:
                kk = c + j
                if v != ASS and (most < kk or (free_jokers < kk and above[v] + free_jokers < kk)):
                    safe = 1.0
                lr = last_raise
                st = still
        b[0] = 1.0 if is_pass else 0.0
        b[1] = led_ass
        b[2] = (c + j) / 4.0
        b[3] = j / 2.0
        b[4] = played / 30.0
        b[5] = (v / 13.0) if not is_pass else 0.0
        b[6] = left / 10.0
        b[7] = 1.0 if left == 0 else 0.0
        b[8] = 1.0 if left == 1 else 0.0
        b[9] = kinds / 8.0
        b[10] = split
        b[11] = safe
        b[12] = takes
        b[13] = high_pts / 50.0
        b[14] = low / 10.0
        b[15] = 1.0 if ass_left > 0 else 0.0
        b[16] = lr
        b[17] = st
        total = 0.0
        for f in range(BASE):
            total += weights[at + f] * b[f]
        for f in range(BASE):
            total += weights[at + BASE + f] * (b[f] * danger)
        for f in range(BASE):
            total += weights[at + 2 * BASE + f] * (b[f] * scale)
        if is_pass:
            total += hold
        if i == 0 or total < best_score:
            best_score = total
            best = move
    return best


@njit(cache=True, inline="always")
def _less(kinds, high_pts, low, kind, cnt, used):
    """features' counts of the hand's kinds, high points and low cards after ``used`` cards
    of ``kind`` (of ``cnt`` held) leave it."""
    after = cnt - used
    if cnt > 0:
        kinds -= 1
        if kind >= 10:
            high_pts -= cnt * (14 if kind == JOKER else kind)
        elif kind <= 4:
            low -= cnt
    if after > 0:
        kinds += 1
        if kind >= 10:
            high_pts += after * (14 if kind == JOKER else kind)
        elif kind <= 4:
            low += after
    return kinds, high_pts, low


@njit(cache=True)
def choose_net(view, weights, hold):
    """The candidate with the lowest network score (ties to the earlier) under ``weights``
    (the network's, in learned_weights.kernel_layout), passing's score raised by ``hold``
    minus points (the ``hold`` knob). Each hidden unit sums its bias and the inputs in order
    (analyzer/rows.py), as the twin does, leaving out the "times danger" inputs where the
    decision makes them all 0.0 (adding a weight times 0.0 leaves a sum as it is)."""
    m = candidates(view)
    if m == 1:
        return view[SCRATCH]
    f = stack_float64(64)  # N_FEATURES or more
    start = stack_float64(32)  # HIDDEN or more
    acc = stack_float64(32)
    at = phase_of(view) * N_PARAMS
    relu_layer_start(start, weights, at, HIDDEN, N_FEATURES, f, 0)  # the biases alone
    zero = DANGER_INPUTS if no_danger(view) else 0
    best = view[SCRATCH]
    best_score = 0.0
    for i in range(m):
        move = view[SCRATCH + i]
        features(view, move, f, 0)
        total = relu_layer_finish(start, acc, weights, at, HIDDEN, f, N_FEATURES, N_FEATURES,
                                  zero)
        if move == PASS:
            total += hold
        if i == 0 or total < best_score:
            best = move
            best_score = total
    return best


@njit(cache=True)
def learned(params, view, rng):
    """The ``learned`` policy (signature of strategies/ass/policies.py): the shipped network,
    or with ``model=linear`` (``learned-linear``) the linear model; ``hold``: passing's score
    raised by that many minus points."""
    if params[SLOT_MODEL] == MODEL_LINEAR:
        return choose(view, LINEAR_KERNEL_WEIGHTS, params[SLOT_HOLD])
    return choose_net(view, KERNEL_WEIGHTS, params[SLOT_HOLD])


assert N_FEATURES <= 64


# --- the same model in plain Python (the reference engine's twin) ------------------------------


def candidates_py(view) -> list[int]:
    """The natural moves of ``view``, in the order of :func:`candidates` (own code)."""
    from analyzer.games.ass.moves import is_legal as legal

    hand = [int(x) for x in view[: JOKER + 1]]
    jokers = hand[JOKER]
    out: list[int] = []
    if view[PUB_POS] == 0:
        order = ([enc(ASS, 1, 0)] if view[PUB_MAY_LEAD_ASS] else [])
        order += [enc(w, hand[w], 0) for w in range(1, N_VALUES + 1) if hand[w]]
        if jokers:
            order.append(enc(JOKER_HIGH, 0, jokers))
            order += [enc(w, hand[w], jokers) for w in range(1, N_VALUES + 1) if hand[w]]
    elif view[PUB_ASS_ROUND]:
        order = [enc(1, 0, 1)] if jokers else []
        order += [enc(w, 1, 0) for w in range(N_VALUES, 0, -1) if hand[w]]
        if jokers:
            order.append(enc(JOKER_HIGH, 0, 1))
    else:
        k = int(view[PUB_K])
        order = [PASS]
        for w in range(int(view[PUB_HIGH]) + 1, N_VALUES + 1):
            c = min(hand[w], k)
            if c >= 1 and c + jokers >= k:
                order.append(enc(w, c, k - c))
        if jokers >= k:
            order.append(enc(JOKER_HIGH, 0, k))
    for move in order:
        if legal.py_func(move, view) if hasattr(legal, "py_func") else legal(move, view):
            out.append(move)
    return out


def _safe_py(w: int, k: int, view, hand: list[int]) -> bool:
    """Nobody else can hold k cards above w: every other hand smaller than k, or too few
    unaccounted cards of every higher value (jokers included)."""
    n, me = int(view[PUB_PLAYERS]), int(view[PUB_SEAT])
    if max(int(view[PUB_SIZES + s]) for s in range(n) if s != me) < k:
        return True
    free = N_JOKERS - int(view[PUB_GONE + JOKER]) - hand[JOKER]
    return free < k and all(COPIES - int(view[PUB_GONE + u]) - hand[u] + free < k
                            for u in range(w + 1, N_VALUES + 1))


def features_py(view, move: int) -> list[float]:
    """:func:`features` in plain Python (same definitions, written over again)."""
    n, me, pos = int(view[PUB_PLAYERS]), int(view[PUB_SEAT]), int(view[PUB_POS])
    hand = [int(x) for x in view[: JOKER + 1]]
    size = sum(hand)
    others = [int(view[PUB_SIZES + s]) for s in range(n) if s != me]
    danger = 1.0 if min(others) <= 2 else 0.0
    if move == PASS:
        v = c = j = 0
        played = 0
    else:
        v, c, j = move >> 8, (move >> 4) & 15, move & 15
        played = (20 if v == ASS else v * c if v <= N_VALUES else 0) + 14 * j
    after = list(hand)
    if move != PASS:
        if v <= N_VALUES and not (v == ASS and pos > 0):
            after[v] -= c
        after[JOKER] -= j
    left = size - c - j
    held = [kind for kind in range(1, JOKER + 1) if after[kind] > 0]
    high_pts = sum(after[kind] * (14 if kind == JOKER else kind) for kind in held if kind >= 10)
    low = sum(after[kind] for kind in held if kind <= 4)
    led_ass = move != PASS and v == ASS and pos == 0
    safe = takes = last_raise = still = 0.0
    if move != PASS:
        if view[PUB_ASS_ROUND] and pos > 0:
            takes = float(v >= view[PUB_HIGH])
        else:
            if v != ASS and _safe_py(v, c + j, view, hand):
                safe = 1.0
            if pos > 0:
                last_raise = float(pos == n - 1)
                k = int(view[PUB_K])
                seats = [(me + p - pos) % n for p in range(pos + 1, n)]
                still = sum(1 for s in seats if view[PUB_SIZES + s] >= k) / n
    base = [float(move == PASS), float(led_ass), (c + j) / 4.0, j / 2.0, played / 30.0,
            v / 13.0 if move != PASS else 0.0, left / 10.0, float(left == 0), float(left == 1),
            len(held) / 8.0, float(move != PASS and 1 <= v <= N_VALUES and c < hand[v]),
            safe, takes, high_pts / 50.0, low / 10.0, float(hand[ASS] - led_ass > 0),
            last_raise, still]
    return base + [b * danger for b in base] + [b * (size / 10.0) for b in base]


def choose_py(view, weights, hold: float = 0.0) -> int:
    """:func:`choose` in plain Python: the lowest score, summed in the same order (passing's
    raised by ``hold``)."""
    moves = candidates_py(view)
    if len(moves) == 1:
        return moves[0]
    phase = 0 if view[PUB_POS] == 0 else (2 if view[PUB_ASS_ROUND] else 1)
    w = [float(x) for x in np.asarray(weights)[phase * N_FEATURES:(phase + 1) * N_FEATURES]]
    best, best_score = moves[0], None
    for move in moves:
        total = 0.0
        for wi, fi in zip(w, features_py(view, move), strict=True):
            total += wi * fi
        if move == PASS:
            total += hold
        if best_score is None or total < best_score:
            best, best_score = move, total
    return best


def choose_net_py(view, weights, hold: float = 0.0) -> int:
    """:func:`choose_net` in plain Python, on the network's weights as the file holds them
    (unit by unit): the lowest score, each unit summed in the same order (passing's raised
    by ``hold``)."""
    moves = candidates_py(view)
    if len(moves) == 1:
        return moves[0]
    phase = 0 if view[PUB_POS] == 0 else (2 if view[PUB_ASS_ROUND] else 1)
    w = [float(x) for x in np.asarray(weights)[phase * N_PARAMS:(phase + 1) * N_PARAMS]]
    w_in = [w[h * N_FEATURES:(h + 1) * N_FEATURES] for h in range(HIDDEN)]
    bias = w[HIDDEN * N_FEATURES:HIDDEN * N_FEATURES + HIDDEN]
    w_out = w[HIDDEN * N_FEATURES + HIDDEN:]
    best, best_score = moves[0], None
    for move in moves:
        x = features_py(view, move)
        total = 0.0
        for h in range(HIDDEN):
            a = bias[h]
            for wi, xi in zip(w_in[h], x, strict=True):
                a += wi * xi
            if a > 0.0:
                total += w_out[h] * a
        if move == PASS:
            total += hold
        if best_score is None or total < best_score:
            best, best_score = move, total
    return best


def choose_model_py(params, view) -> int:
    """The ``learned`` policy in plain Python with knobs ``params``: :func:`choose_net_py` on
    the network's weights, or with ``model=linear`` :func:`choose_py` on the linear model's."""
    if params[SLOT_MODEL] == MODEL_LINEAR:
        return choose_py(view, LINEAR_WEIGHTS, float(params[SLOT_HOLD]))
    return choose_net_py(view, WEIGHTS, float(params[SLOT_HOLD]))

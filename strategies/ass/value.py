"""The value model of Who's the Ass?: what pimc's search reads at its leaves with
``rollout=value`` (its default) instead of playing every world to the end of the game.

The leaf. pimc plays a candidate move in an imagined world (a deal of every hand,
strategies/ass/pimc.py); then :func:`finish_round` lets every seat still to move in the round
play the model's *finisher* (``learned`` in the shipped weights, ``basic`` in weights trained
so; the weights file says which), and the round ends (A-5..A-7). If a hand is empty then
(A-9), the game is over and the leaf is worth the decider's exact minus points (A-10). Near
the end, when the seat that leads the next round can go out with ``late`` leads or fewer
(:func:`near_end`; ``rollout=value``: one, catalog.VALUE_LATE_LEADS, so the game usually ends
in that round; ``rollout=value-only``: never), the finisher plays the game to its end and the
leaf is exact again: the network misjudges those leaves (docs/strategies.md), which are few
and short. Otherwise :func:`value` gives the decider's expected minus points at the end of the
game from the start of the next round: a small network's estimate of what the game would end
in if every seat played ``learned`` (strategies/ass/learned.py) from there, as
``pimc:rollout=learned`` rolls it out, for a fraction of its cost.

What the network reads (every hand: the leaf is a world the search imagined; what the search
may know is pimc's business, A-11): :func:`engineered`'s 40 numbers about the decider (its
minus points, hand size, values held, jokers, the ass, whether it leads, whether it may not
lead the ass) and about the race (the fewest leads another seat needs to go out, the smallest
hand, interactions of the two with the decider's minus points); then every seat's hand as 15
counts by kind, seats in playing order from the decider; then which seat leads the round and
which seat may not lead the ass (A-8), one-hot in the same order. One hidden layer of
``HIDDEN`` rectified units, one set of weights per player count (value_weights.py).

How it was trained (scripts/train_value.py, analyzer/learn/ass_value.py): in games where every
seat plays ``learned``, at each decision with a choice, every candidate pimc would search is
played, the finisher plays out the round as above, and the leaf is labelled with the decider's
minus points when every seat then plays ``learned`` to the end (``learned`` draws nothing, so
the label is exact). The network fits those labels and, mostly, their differences between the
leaves of one decision (what the search's choice reads).

:func:`value_py` and :func:`engineered_py` are the same model in plain Python, written apart,
for the tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.games.ass.cards import JOKER_HIGH, PASS, PUB_SIZES
from analyzer.games.ass.moves import U0, count_of, end_round, follow_move
from analyzer.stack import stack_float64, stack_uint64
from strategies.ass.catalog import BASIC, LEARNED
from strategies.ass.loop import ILLEGAL, OK, checked_inline
from strategies.ass.policies import basic_packed
from strategies.ass.rollout import START, play_on
from strategies.ass.value_weights import (  # noqa: F401  (re-exported for callers)
    B1,
    B2,
    FINISHER_NAME,
    HIDDEN,
    INPUTS,
    N_ENGINEERED,
    W1,
    W2,
    WEIGHTS_ERROR,
    check_weights,
)

assert N_ENGINEERED == 40 and HIDDEN <= 32  # the stack arrays of value() below
FINISHER = LEARNED if FINISHER_NAME == "learned" else BASIC  # who finishes a leaf's round
# the finisher's knobs: learned to the end, its linear model (learned-linear: the policy the
# shipped value model was trained on; retraining learned's network leaves pimc as it is)
FINISHER_PP = (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@njit(cache=True)
def _minus(hand):
    """Minus points of a packed hand (A-10: the ass 20, a joker 14, a number its value)."""
    total = 20 * count_of(hand, 0) + 14 * count_of(hand, 14)
    for v in range(1, 14):
        total += v * count_of(hand, v)
    return total


@njit(cache=True)
def engineered(packed, n, me, starter, blocked, out):
    """The 40 engineered inputs of seat ``me`` at the start of a round (``starter`` leads;
    ``blocked`` may not lead the ass, -1 for none) into ``out``."""
    for i in range(N_ENGINEERED):
        out[i] = 0.0
    dmin = 99
    smin = 99
    close = 0
    pts_me = 0.0
    size_me = 0
    d_me = 0
    jok_me = 0
    ass_me = 0
    hi_me = 0
    low_me = 0
    for s in range(n):
        h = packed[s]
        size = 0
        d = 0
        hi = 0
        low = 0
        for k in range(15):
            c = count_of(h, k)
            size += c
            if 1 <= k <= 13 and c > 0:
                d += 1
                if k >= 11:
                    hi += 1
                if k <= 5:
                    low += 1
        ass = count_of(h, 0)
        lead = d + ass  # leads it needs to go out, jokers riding along (leads_to_go_out)
        if s == me:
            pts_me = float(_minus(h))
            size_me = size
            d_me = lead
            jok_me = count_of(h, 14)
            ass_me = ass
            hi_me = hi
            low_me = low
        else:
            dmin = min(dmin, lead)
            smin = min(smin, size)
            if lead <= 2:
                close += 1
    pos = me - starter
    if pos < 0:
        pos += n
    leads = 1.0 if starter == me else 0.0
    barred = 1.0 if blocked == me else 0.0
    out[0] = 1.0
    out[1] = pts_me
    out[2] = size_me
    out[3] = d_me
    out[4] = jok_me
    out[5] = ass_me
    out[6] = leads
    out[7] = ass_me * barred
    out[8] = smin
    out[9] = dmin
    out[10] = pos / n
    b = min(max(dmin, 1), 6)
    out[10 + b] = pts_me  # 11..16: minus points by the race's nearest finish
    diff = min(max(d_me - dmin, -3), 3)
    out[20 + diff] = pts_me  # 17..23: by how many leads it is behind
    out[23 + b] = 20.0 * ass_me  # 24..29: the ass by the nearest finish
    out[30] = hi_me
    out[31] = pts_me * leads
    out[32] = close
    out[33] = pts_me * close
    out[34] = jok_me * pts_me / 20.0
    out[35] = low_me
    out[36] = d_me * d_me
    out[37] = pts_me * pos / n
    out[38] = hi_me * pts_me / 20.0
    out[39] = 20.0 * ass_me * barred * (1.0 if dmin <= 2 else 0.0)


@njit(cache=True)
def value(packed, n, me, starter, blocked):
    """Seat ``me``'s expected minus points at the end of the game from the start of a round
    (module docstring); ``packed`` every seat's hand."""
    f = stack_float64(40)  # N_ENGINEERED
    engineered(packed, n, me, starter, blocked, f)
    h = stack_float64(32)  # HIDDEN or more
    for j in range(HIDDEN):
        h[j] = B1[n, j]
    for i in range(N_ENGINEERED):
        x = f[i]
        if x != 0.0:
            for j in range(HIDDEN):
                h[j] += x * W1[n, i, j]
    for r in range(n):  # every hand, in playing order from the decider
        seat = me + r
        if seat >= n:
            seat -= n
        hand = packed[seat]
        base = N_ENGINEERED + 15 * r
        for k in range(15):
            c = count_of(hand, k)
            if c != 0:
                x = float(c)
                for j in range(HIDDEN):
                    h[j] += x * W1[n, base + k, j]
    r = starter - me
    if r < 0:
        r += n
    for j in range(HIDDEN):
        h[j] += W1[n, N_ENGINEERED + 15 * n + r, j]
    if blocked >= 0:
        r = blocked - me
        if r < 0:
            r += n
        for j in range(HIDDEN):
            h[j] += W1[n, N_ENGINEERED + 16 * n + r, j]
    t = B2[n]
    for j in range(HIDDEN):
        if h[j] > 0.0:
            t += h[j] * W2[n, j]
    return t


@njit(cache=True)
def finish_round(cur, n, starter, pos, k, high, high_seat, ass_round, table, gone, fam, pp,
                 rview, rng, rounds):
    """The seats at positions ``pos`` .. n-1 of the round under way play it out, ``basic``
    (``fam`` BASIC) or ``learned`` (LEARNED: ``rview`` holds every hand's size and is kept up
    to date; ``pp`` its knobs), A-6: a seat that cannot or will not beat passes (``basic``:
    nothing beats a 14 in a normal round); the round ends (A-7: an ass round's cards go to its
    taker, a normal round's leave the game). ``cur`` holds the hands, changed in place.
    Returns (over, next starter, blocked, gone): over when a hand is empty (A-9), blocked the
    seat that may not lead the ass next (A-8; -1 for none)."""
    if fam != BASIC or not (high == JOKER_HIGH and ass_round == 0):
        for p in range(pos, n):
            seat = starter + p
            if seat >= n:
                seat -= n
            hand = cur[seat]
            if fam == BASIC:
                move = basic_packed(hand, p, ass_round, 0, k, high)
            elif rview[PUB_SIZES + seat] < k:
                move = PASS
            else:
                move = checked_inline(fam, pp, seat, rview, rng, cur, hand, table, gone,
                                      np.int64(p), k, high, ass_round, np.int64(0), starter,
                                      high_seat, rounds)
                if move == ILLEGAL:
                    move = PASS  # (learned never moves illegally: tests/test_ass_learned.py)
            if move != PASS:
                table, high, high_seat = follow_move(move, seat, cur, rview, table, high,
                                                     high_seat, ass_round)
                if fam == BASIC and move >> 8 == JOKER_HIGH and ass_round == 0:
                    break
    gone, blocked = end_round(cur, rview, n, table, gone, high_seat, ass_round)
    over = False
    for s in range(n):
        if cur[s] == U0:
            over = True
    return over, high_seat, blocked, gone


@njit(cache=True, inline="always")
def leads_to_go_out(hand):
    """The leads a hand needs to go out: the values it holds, the ass one more (jokers join
    any lead, so jokers alone need none beyond their own); :func:`engineered` counts the same
    in its one pass over every hand."""
    leads = count_of(hand, 0)
    for v in range(1, 14):
        if count_of(hand, v) > 0:
            leads += 1
    return leads


@njit(cache=True, inline="always")
def near_end(cur, nxt, late):
    """Can ``nxt``, who leads the next round, go out with ``late`` leads or fewer?"""
    return leads_to_go_out(cur[nxt]) <= late


@njit(cache=True)
def _finish(cur, n, nxt, blocked, gone, rview, rng, rounds, late):
    """After the leaf's round (``nxt`` leads the next, ``blocked`` may not lead the ass):
    when ``late`` > 0 and the game is :func:`near_end`, the finisher plays it to its end in
    ``cur``; True when it did (the leaf is then exact), False when the network values it."""
    if late == 0 or not near_end(cur, nxt, late):
        return False
    work = stack_uint64(16)  # MAX_PLAYERS and more: a play-out cut short leaves cur as it was
    for s in range(n):
        work[s] = cur[s]
    status, _ = play_on(work, n, FINISHER, FINISHER_PP, rview, rng, gone, U0, nxt, blocked,
                        START, START, START, nxt, START, rounds + 1)
    if status != OK:  # (the round bound; learned-linear never moves illegally)
        return False
    for s in range(n):
        cur[s] = work[s]
    return True


@njit(cache=True)
def leaf_value(cur, n, me, starter, pos, k, high, high_seat, ass_round, table, gone, rview, rng,
               rounds, late=0):
    """The decider's value of the leaf (module docstring): :func:`finish_round` from the
    round's state by the model's finisher, then the exact minus points if the game is over
    or, near its end (``late``), once the finisher has played it out; else :func:`value`."""
    over, nxt, blocked, gone = finish_round(cur, n, starter, pos, k, high, high_seat, ass_round,
                                            table, gone, FINISHER, FINISHER_PP, rview, rng,
                                            rounds)
    if over or _finish(cur, n, nxt, blocked, gone, rview, rng, rounds, late):
        return float(_minus(cur[me]))
    return value(cur, n, me, nxt, blocked)


@njit(cache=True)
def leaf_values(cur, n, starter, pos, k, high, high_seat, ass_round, table, gone, rview, rng,
                rounds, out, late=0):
    """:func:`leaf_value` for every seat into ``out[:n]`` (the analysis's timeline)."""
    over, nxt, blocked, gone = finish_round(cur, n, starter, pos, k, high, high_seat, ass_round,
                                            table, gone, FINISHER, FINISHER_PP, rview, rng,
                                            rounds)
    over = over or _finish(cur, n, nxt, blocked, gone, rview, rng, rounds, late)
    for s in range(n):
        out[s] = float(_minus(cur[s])) if over else value(cur, n, s, nxt, blocked)


# --- the same model in plain Python, written apart (for the tests) ----------------------------

def _counts_py(hand: int) -> list[int]:
    return [(int(hand) >> (4 * k)) & 15 for k in range(15)]


def engineered_py(hands, me: int, starter: int, blocked: int) -> list[float]:
    """:func:`engineered` for ``hands`` (a list of packed hands)."""
    n = len(hands)
    counts = [_counts_py(h) for h in hands]

    def leads(c):
        return sum(1 for v in range(1, 14) if c[v]) + c[0]

    mine = counts[me]
    pts = float(20 * mine[0] + 14 * mine[14] + sum(v * mine[v] for v in range(1, 14)))
    others = [s for s in range(n) if s != me]
    dmin = min(leads(counts[s]) for s in others)
    smin = min(sum(counts[s]) for s in others)
    close = sum(1 for s in others if leads(counts[s]) <= 2)
    d_me = leads(mine)
    hi = sum(1 for v in (11, 12, 13) if mine[v])
    low = sum(1 for v in range(1, 6) if mine[v])
    pos = (me - starter) % n
    is_starter = 1.0 if starter == me else 0.0
    barred = 1.0 if blocked == me else 0.0
    f = [0.0] * N_ENGINEERED
    f[0:11] = [1.0, pts, sum(mine), d_me, mine[14], mine[0], is_starter, mine[0] * barred, smin,
               dmin, pos / n]
    b = min(max(dmin, 1), 6)
    f[10 + b] = pts
    f[20 + min(max(d_me - dmin, -3), 3)] = pts
    f[23 + b] = 20.0 * mine[0]
    f[30:40] = [hi, pts * is_starter, close, pts * close, mine[14] * pts / 20.0, low, d_me * d_me,
                pts * pos / n, hi * pts / 20.0, 20.0 * mine[0] * barred * (dmin <= 2)]
    return f


def inputs_py(hands, me: int, starter: int, blocked: int) -> list[float]:
    """Every input of the network for player count len(hands) (the first 40 + 17 n)."""
    n = len(hands)
    x = engineered_py(hands, me, starter, blocked)
    for r in range(n):
        x += [float(c) for c in _counts_py(hands[(me + r) % n])]
    x += [1.0 if (starter - me) % n == r else 0.0 for r in range(n)]
    x += [1.0 if blocked >= 0 and (blocked - me) % n == r else 0.0 for r in range(n)]
    return x


def value_py(hands, me: int, starter: int, blocked: int, w1=None, b1=None, w2=None,
             b2=None) -> float:
    """:func:`value` in plain Python (the weights in use unless given)."""
    n = len(hands)
    w1 = W1 if w1 is None else w1
    b1 = B1 if b1 is None else b1
    w2 = W2 if w2 is None else w2
    b2 = B2 if b2 is None else b2
    x = inputs_py(hands, me, starter, blocked)
    total = float(b2[n])
    for j in range(HIDDEN):
        a = float(b1[n, j]) + sum(x[i] * float(w1[n, i, j]) for i in range(len(x)) if x[i])
        if a > 0.0:
            total += a * float(w2[n, j])
    return total

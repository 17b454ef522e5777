"""Training Plus-Minus Jass's value model (strategies/jass/value.py): data and fit.

Data (:func:`leaves`). Single deals (seed, 0 .. deals-1) are dealt by the engine's own deal
(the ``seed`` rules, as a ``deals`` run deals them) and played by ``learned`` in every seat
(``learned-leaf``: the network pinned in learned-leaf.json, which finishes pimc's leaves). At
every decision with more than one legal card, every legal card is played on the true deal,
``learned`` finishes the trick (value.py ``finish_trick``) and, unless at most ``LATE``
tricks are left then (the search plays those out exactly), the leaf (every hand, every seat's
won cards, the trump, the next leader) is kept with its label: the decider's sticks from the
deal (J-9) when every seat plays ``learned`` from the leaf to the end. ``learned`` draws
nothing, so a label is the exact value of the leaf under ``learned`` play; the leaves of one
decision form a group. Nothing is random but the deals.

Fit: analyzer/learn/ass_value.py's :func:`fit` (the loss mixes the value's squared error and
its differences within a group, mostly the latter), one network per player count
(value_weights.row_of). The same data and seed give the same weights on one
machine.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from analyzer.bits import popcount
from analyzer.engines.jass.engine import deal_begin, new_work, unit_begin
from analyzer.games.jass.primitives import (
    S_LEADER,
    S_N,
    S_NTRICKS,
    S_POS,
    S_TRICK,
    S_TRUMP,
    ST_SIZE,
    U0,
    U1,
    legal_mask,
    lowest_card,
)
from analyzer.games.jass.scoring import base_sticks
from analyzer.learn.ass_value import fit, gather, predict, rounded
from analyzer.learn.ass_value import regret as ass_regret
from strategies.jass.knobs import FAM_LEARNED
from strategies.jass.loop import rollout
from strategies.jass.play import copy_state, deal_points, play_card_no_bans, to_move
from strategies.jass.policies import choose_card
from strategies.jass.value import LATE, LEARNED_PRM, finish_trick, inputs
from strategies.jass.value_weights import HIDDEN, INPUTS, ROWS, pack, row_of

MAX_LEAVES_PER_DEAL = 400  # room per deal (a deal has about a hundred)
# group, decider, trump, next leader, tricks complete, players, the card, the decider's place in
# its trick (0: it led), 1 when the card is learned's own choice, the deal's index
META = 10


@njit(cache=True)
def _generate(seed, first, count, n, hands_out, taken_out, meta, labels):
    """The leaves of deals first .. first+count-1 (module docstring) into the arrays; returns
    the rows written (it stops when they are full)."""
    fams = np.full(4, FAM_LEARNED, dtype=np.int64)
    prms = np.zeros((4, 8), dtype=np.float64)
    for i in range(4):  # learned-leaf: the policy pimc's leaves finish with
        prms[i, :] = LEARNED_PRM
    work = new_work()
    h2 = np.zeros(4, dtype=np.uint64)
    p2 = np.zeros(4, dtype=np.uint64)
    t2 = np.zeros(4, dtype=np.uint64)
    st2 = np.zeros(ST_SIZE, dtype=np.int64)
    memo = np.full(4, -1, dtype=np.int64)
    pts = np.zeros(4, dtype=np.int64)
    award = np.zeros(4, dtype=np.int64)
    newties = np.zeros(8, dtype=np.int64)
    rr = np.zeros(1, dtype=np.uint64)  # learned draws nothing
    row = 0
    group = 0
    for g in range(first, first + count):
        dealer, _ = unit_begin(seed, g, n, 1, work, True)
        deal_begin(work, n, False, dealer, 0, True, fams, prms)
        hands = work[2]
        played = work[3]
        taken = work[4]
        st = work[5]
        ntr = st[S_NTRICKS]
        while st[S_TRICK] < ntr:
            seat = to_move(st)
            hand = hands[seat]
            legal = legal_mask(hand, st)
            card = choose_card(FAM_LEARNED, prms[seat], seat, hand, legal, st, played, taken,
                               rr, -1)
            if popcount(legal) >= 2:
                m = legal
                while m != U0:
                    c = lowest_card(m)
                    m &= m - U1
                    if row >= labels.shape[0]:
                        return row
                    copy_state(hands, played, taken, st, h2, p2, t2, st2)
                    play_card_no_bans(seat, c, h2, p2, t2, st2)
                    finish_trick(h2, p2, t2, st2, rr)
                    if ntr - st2[S_TRICK] <= LATE:
                        continue
                    for p in range(4):
                        hands_out[row, p] = h2[p]
                        taken_out[row, p] = t2[p]
                    meta[row, 0] = group
                    meta[row, 1] = seat
                    meta[row, 2] = st2[S_TRUMP]
                    meta[row, 3] = st2[S_LEADER]
                    meta[row, 4] = st2[S_TRICK]
                    meta[row, 5] = n
                    meta[row, 6] = c
                    meta[row, 7] = st[S_POS]
                    meta[row, 8] = 1 if c == card else 0
                    meta[row, 9] = g
                    rollout(fams, prms, rr, h2, p2, t2, st2, memo)
                    deal_points(t2, st2, pts)
                    base_sticks(pts, n, award, newties)
                    labels[row] = award[seat]
                    row += 1
                group += 1
            play_card_no_bans(seat, card, hands, played, taken, st)
    return row


def leaves(players: int, first: int, deals: int, seed: int, limit: int):
    """(hands uint64[rows, 4], won cards uint64[rows, 4], meta int64[rows, META], labels
    int64[rows]) of deals (seed, first .. first+deals-1); at most ``limit`` rows."""
    room = min(limit, deals * MAX_LEAVES_PER_DEAL)
    hands = np.zeros((room, 4), dtype=np.uint64)
    taken = np.zeros((room, 4), dtype=np.uint64)
    meta = np.zeros((room, META), dtype=np.int64)
    labels = np.zeros(room, dtype=np.int64)
    rows = _generate(seed, first, deals, players, hands, taken, meta, labels)
    if rows == room < limit:
        raise RuntimeError("more leaves in a block of deals than MAX_LEAVES_PER_DEAL allows")
    return hands[:rows], taken[:rows], meta[:rows], labels[:rows]


@njit(cache=True)
def leaf_state(meta, st):
    """The public state value.py reads of a leaf (one row of ``meta``) into ``st``."""
    st[:] = 0
    n = meta[5]
    st[S_N] = n
    st[S_TRUMP] = meta[2]
    st[S_LEADER] = meta[3]
    st[S_TRICK] = meta[4]
    st[S_NTRICKS] = 36 // n


@njit(cache=True)
def _inputs_rows(hands, taken, meta, out):
    x = np.zeros(INPUTS)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    for i in range(hands.shape[0]):
        leaf_state(meta[i], st)
        inputs(meta[i, 1], hands[i], taken[i], st, x)
        for j in range(INPUTS):
            out[i, j] = x[j]


def input_rows(hands: np.ndarray, taken: np.ndarray, meta: np.ndarray) -> np.ndarray:
    """The network's inputs (float32[rows, INPUTS]) of every leaf, as value.py reads them."""
    out = np.zeros((len(hands), INPUTS), dtype=np.float32)
    _inputs_rows(hands, taken, meta, out)
    return out


def moments(x: np.ndarray, block: int = 65536) -> tuple[np.ndarray, np.ndarray]:
    """The columns' mean and standard deviation (+1e-6), summed in float64 block by block."""
    total = np.zeros(x.shape[1])
    for i in range(0, len(x), block):
        total += x[i:i + block].sum(0, dtype=np.float64)
    mu = total / len(x)
    dev = np.zeros(x.shape[1])
    for i in range(0, len(x), block):
        dev += ((x[i:i + block] - mu) ** 2).sum(0)
    return mu, np.sqrt(dev / len(x)) + 1e-6


def regret(pred: np.ndarray, y: np.ndarray, group: np.ndarray) -> float:
    """Mean over groups of the best label minus the label of the leaf the prediction ranks
    best: what choosing by the model costs in one world, in sticks (ass_value.regret, whose
    best is the lowest)."""
    return ass_regret(-pred, -y, group)


def train(players: list[int], leaves_per_count: int, seed: int, epochs: int = 8,
          say=print) -> tuple[np.ndarray, dict]:
    """Weights (ROWS x ROW, value_weights.pack) for every player count in ``players`` (3, 4)
    and their facts (per count: deals, leaves, held-out regret against the first card)."""
    w1 = np.zeros((ROWS, INPUTS, HIDDEN))
    b1 = np.zeros((ROWS, HIDDEN))
    w2 = np.zeros((ROWS, HIDDEN))
    b2 = np.zeros(ROWS)
    facts = {}
    for n in players:
        began = time.perf_counter()
        (hands, taken, meta, labels), deals = gather(
            lambda first, count, limit, n=n: leaves(n, first, count, seed, limit),
            leaves_per_count, 2)
        labels = labels.astype(np.float64)
        say(f"  {n} players: {deals:,} deals, {len(labels):,} leaves "
            f"({time.perf_counter() - began:.0f} s); fitting")
        held = meta[:, 0] % 10 == 0
        x = input_rows(hands[~held], taken[~held], meta[~held])
        r = row_of(n)
        W = fit(x, labels[~held], meta[~held, 0], seed, n, epochs=epochs, hidden=HIDDEN,
                moments=moments(x))
        del x
        w1[r], b1[r], w2[r], b2[r] = W
        pred = predict(input_rows(hands[held], taken[held], meta[held]), *W)
        g = meta[held, 0]
        facts[str(n)] = {
            "deals": deals, "leaves": int(len(labels)),
            "held_out_regret": round(regret(pred, labels[held], g), 4),
            "first_card_regret": round(regret(-np.arange(len(g), dtype=np.float64),
                                              labels[held], g), 4)}
        say(f"  {n} players: held-out regret {facts[str(n)]['held_out_regret']} sticks a "
            f"decision (the first card: {facts[str(n)]['first_card_regret']})")
        facts[str(n)]["seconds"] = round(time.perf_counter() - began, 1)
    return rounded(pack(w1, b1, w2, b2)), facts

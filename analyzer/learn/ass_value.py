"""Training Who's the Ass?'s value model (strategies/ass/value.py): data and fit.

Data (:func:`leaves`). Games (seed, 0 .. games-1) are dealt by the engine's own deal and
played by ``learned`` in every seat, its linear model (``learned-linear``: FINISHER_PP). At
every decision with more than one legal move, every candidate ``pimc`` would search (pimc.py
``_candidates``, at most 10, basic's move first) is played on the true deal, ``basic``
finishes the round (value.py ``finish_round``), and, unless that ended the game, the leaf
(every hand, the next round's leader, the seat that may not lead the ass) is kept with its
label: the decider's minus points at the end of the game when every seat plays ``learned``
from the leaf (strategies/ass/rollout.py ``play_on``). ``learned`` draws nothing, so a label
is the exact value of the leaf under ``learned`` play; the leaves of one decision form a
group. Nothing is random but the deals.

Fit (:func:`fit`). One network per player count (value.py: engineered inputs, every hand's
counts, two one-hots; one hidden layer of rectified units). The loss mixes the squared error
of the value (weight 1 - ``centred``) and of its differences within a group (weight
``centred``: what the search's choice reads). Adam on batches of whole groups, the groups
shuffled afresh every pass, the step falling tenfold over the passes; the start and every
shuffle drawn from ``numpy.random.default_rng((seed, players))``: the same data and seed give
the same weights on one machine.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from analyzer.engines.ass.engine import canonical_deck, dealt_hands, score
from analyzer.games.ass.cards import PASS, PUB_PLAYERS, PUB_SIZES, VIEW_LEN
from analyzer.games.ass.moves import (
    U0,
    U15,
    end_round,
    follow_move,
    hand_size,
    lead_move,
    legal_moves,
)
from analyzer.games.ass.rules import AssRules
from strategies.ass import rollout
from strategies.ass.catalog import BASIC, LEARNED
from strategies.ass.loop import ILLEGAL, OK, checked_inline, fill_view
from strategies.ass.pimc import play_move, search_candidates
from strategies.ass.policies import basic
from strategies.ass.value import FINISHER_PP, engineered, finish_round
from strategies.ass.value_weights import HIDDEN, INPUTS, N_ENGINEERED, ROWS

START = np.int64(0)
CANDIDATES = 10  # as pimc's default
EPOCHS = 4
GROUPS_PER_BATCH = 512
RATE = 0.003
CENTRED = 0.9
FINISHERS = {"basic": BASIC, "learned": LEARNED}
MAX_LEAVES_PER_GAME = 4000  # room per game (a game has a few hundred)


@njit(cache=True)
def _leaves_of(packed, n, seat, view, starter, pos, k, high, high_seat, ass_round, table, gone,
               rounds, pp, cands, cur, cur2, rview, rng, hands, meta, labels, row, group,
               finisher):
    m = search_candidates(view, basic(pp, view, rng), cands, CANDIDATES)
    if m < 2:
        return row
    for i in range(m):
        if row >= hands.shape[0]:
            return row
        # the decider's view is the game's (fill_view), the world the true deal
        kk, hh, hs, ar, tb = play_move(view, packed, 0, cands[i], rview, cur, table)
        rview[PUB_PLAYERS] = n
        over, nxt, blocked, g2 = finish_round(cur, n, starter, pos + 1, kk, hh, hs, ar, tb, gone,
                                              finisher, pp, rview, rng, rounds)
        if over:
            continue
        for s in range(n):
            hands[row, s] = cur[s]
            cur2[s] = cur[s]
            rview[PUB_SIZES + s] = hand_size(cur[s])
        rview[PUB_PLAYERS] = n
        status, _ = rollout.play_on(cur2, n, LEARNED, pp, rview, rng, g2, U0, nxt, blocked, START,
                                    START, START, nxt, START, rounds + 1)
        if status != OK:
            continue
        meta[row, 0] = group
        meta[row, 1] = nxt
        meta[row, 2] = blocked
        meta[row, 3] = seat
        labels[row] = score(cur2[seat])
        row += 1
    return row


@njit(cache=True)
def _generate(deals, n, hands, meta, labels, finisher):
    """Every deal's leaves into ``hands``/``meta``/``labels`` (module docstring); returns the
    rows written (it stops when they are full)."""
    pp = FINISHER_PP  # learned to the end, its linear model (strategies/ass/value.py)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rview = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)  # learned draws nothing
    packed = np.zeros(n, dtype=np.uint64)
    cur = np.zeros(n, dtype=np.uint64)
    cur2 = np.zeros(n, dtype=np.uint64)
    cands = np.zeros(64, dtype=np.int64)
    row = 0
    group = 0
    for g in range(deals.shape[0]):
        for s in range(n):
            packed[s] = deals[g, s]
            view[PUB_SIZES + s] = hand_size(packed[s])
        view[PUB_PLAYERS] = n
        starter = np.int64(0)
        for s in range(n):
            if (packed[s] & U15) != U0:
                starter = np.int64(s)  # the holder of the ass starts
        blocked = np.int64(-1)
        gone = U0
        rounds = np.int64(0)
        over = False
        while rounds < 200 and not over:
            hand = packed[starter]
            may = 1 if ((hand & U15) != U0 and starter != blocked) else 0
            fill_view(view, hand, U0, gone, START, starter, START, START, START, may, starter,
                      starter, rounds)
            if legal_moves(view) >= 2:
                row = _leaves_of(packed, n, starter, view, starter, START, START, START, starter,
                                 START, U0, gone, rounds, pp, cands, cur, cur2, rview, rng,
                                 hands, meta, labels, row, group, finisher)
                group += 1
                if row >= hands.shape[0]:
                    return row
            move = checked_inline(LEARNED, pp, starter, view, rng, packed, hand, U0, gone,
                                   START, START, START, START, may, starter, starter, rounds)
            if move == ILLEGAL:
                break
            table, k, high, ass_round = lead_move(move, starter, packed, view)
            high_seat = starter
            for pos in range(1, n):
                seat = starter + pos
                if seat >= n:
                    seat -= n
                hand = packed[seat]
                if view[PUB_SIZES + seat] < k:
                    continue  # a pass
                fill_view(view, hand, table, gone, np.int64(pos), seat, k, high, ass_round,
                          START, starter, high_seat, rounds)
                if legal_moves(view) >= 2:
                    row = _leaves_of(packed, n, seat, view, starter, np.int64(pos), k, high,
                                     high_seat, ass_round, table, gone, rounds, pp, cands, cur,
                                     cur2, rview, rng, hands, meta, labels, row, group,
                                     finisher)
                    group += 1
                    if row >= hands.shape[0]:
                        return row
                move = checked_inline(LEARNED, pp, seat, view, rng, packed, hand, table, gone,
                                       np.int64(pos), k, high, ass_round, START, starter,
                                       high_seat, rounds)
                if move == ILLEGAL:
                    over = True
                    break
                if move != PASS:
                    table, high, high_seat = follow_move(move, seat, packed, view, table, high,
                                                         high_seat, ass_round)
            gone, blocked = end_round(packed, view, n, table, gone, high_seat, ass_round)
            starter = high_seat
            rounds += 1
            for s in range(n):
                if packed[s] == U0:
                    over = True
    return row


def leaves(players: int, first: int, games: int, seed: int, limit: int,
           finisher: str = "learned"):
    """(hands uint64[rows, n], meta int64[rows, 4]: group, leader, blocked, decider; labels
    int64[rows]) of games (seed, first .. first+games-1); at most ``limit`` rows; ``finisher``
    plays out each leaf's round (basic or learned)."""
    rules = AssRules.for_players(players)
    deals = np.zeros((games, players), dtype=np.uint64)
    dealt_hands(seed, np.arange(first, first + games, dtype=np.int64), players,
                rules.per_player, canonical_deck(), deals)
    room = min(limit, games * MAX_LEAVES_PER_GAME)
    hands = np.zeros((room, players), dtype=np.uint64)
    meta = np.zeros((room, 4), dtype=np.int64)
    labels = np.zeros(room, dtype=np.int64)
    rows = _generate(deals, players, hands, meta, labels, FINISHERS[finisher])
    if rows == room < limit:
        raise RuntimeError("more leaves in a block of games than MAX_LEAVES_PER_GAME allows")
    return hands[:rows], meta[:rows], labels[:rows]


@njit(cache=True)
def _engineered_rows(hands, meta, n, out):
    f = np.zeros(N_ENGINEERED)
    for i in range(hands.shape[0]):
        engineered(hands[i], n, meta[i, 3], meta[i, 1], meta[i, 2], f)
        for j in range(N_ENGINEERED):
            out[i, j] = f[j]


def inputs(hands: np.ndarray, meta: np.ndarray) -> np.ndarray:
    """The network's inputs (float32[rows, 40 + 17 n]) of every leaf, as value.py reads them."""
    rows, n = hands.shape
    eng = np.zeros((rows, N_ENGINEERED), np.float32)
    _engineered_rows(hands, meta, n, eng)
    shifts = (4 * np.arange(15, dtype=np.uint64))[None, None, :]
    counts = ((hands[:, :, None] >> shifts) & np.uint64(15)).astype(np.float32)
    me = meta[:, 3]
    order = (me[:, None] + np.arange(n)[None, :]) % n
    by_seat = np.take_along_axis(counts, order[:, :, None], 1).reshape(rows, -1)
    lead = np.zeros((rows, n), np.float32)
    lead[np.arange(rows), (meta[:, 1] - me) % n] = 1.0
    barred = np.zeros((rows, n), np.float32)
    has = meta[:, 2] >= 0
    barred[np.arange(rows)[has], (meta[has, 2] - me[has]) % n] = 1.0
    return np.concatenate([eng, by_seat, lead, barred], 1)


def fit(x: np.ndarray, y: np.ndarray, group: np.ndarray, seed: int, players: int,
        epochs: int = EPOCHS, centred: float = CENTRED, progress=None, hidden: int = HIDDEN,
        moments=None):
    """One player count's network (W1 [inputs, hidden], B1, W2, B2) for inputs ``x``, labels
    ``y`` and groups ``group`` (contiguous runs of one number), as the module docstring says.
    Plus-Minus Jass's value model (jass_value.py) is fitted by this too, with ``moments`` (the
    inputs' mean and standard deviation, computed by the caller in blocks: ``x.std`` would
    hold a float64 copy of ``x``)."""
    rng = np.random.default_rng((seed, players))
    if moments is None:
        mu = x.mean(0, dtype=np.float64)
        sd = x.std(0, dtype=np.float64) + 1e-6
    else:
        mu, sd = (np.array(m, dtype=np.float64) for m in moments)
    mu[0], sd[0] = 0.0, 1.0  # the constant input
    xs = np.empty(x.shape, dtype=np.float32)
    for i in range(0, len(x), 65536):  # in blocks of rows: the same numbers, less memory
        xs[i:i + 65536] = ((x[i:i + 65536] - mu) / sd).astype(np.float32)
    y = y.astype(np.float64)
    ym = y.mean()
    yc = y - ym
    starts = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    ends = np.r_[starts[1:], len(group)]
    groups = len(starts)
    gid = np.repeat(np.arange(groups), ends - starts)
    within = yc - (np.bincount(gid, weights=yc) / np.bincount(gid))[gid]
    d = x.shape[1]
    params = [rng.normal(0.0, np.sqrt(2.0 / d), (d, hidden)), np.zeros(hidden),
              rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden), np.zeros(1)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    batches = max(1, groups // GROUPS_PER_BATCH)
    steps = epochs * batches
    t = 0
    for epoch in range(epochs):
        order = rng.permutation(groups)
        for b in range(batches):
            gs = order[b * GROUPS_PER_BATCH:(b + 1) * GROUPS_PER_BATCH]
            sizes = ends[gs] - starts[gs]
            idx = np.repeat(starts[gs] - np.r_[0, np.cumsum(sizes)[:-1]], sizes) + np.arange(
                sizes.sum())
            local = np.repeat(np.arange(len(gs)), sizes)
            xb = xs[idx].astype(np.float64)
            a = xb @ params[0] + params[1]
            h = np.maximum(a, 0.0)
            out = h @ params[2] + params[3][0]
            oc = out - (np.bincount(local, weights=out) / sizes)[local]
            grad = ((1.0 - centred) * (out - yc[idx]) + centred * (oc - within[idx])) * (
                2.0 / len(idx))
            g_w2 = h.T @ grad
            dh = np.outer(grad, params[2]) * (a > 0.0)
            grads = (xb.T @ dh, dh.sum(0), g_w2, np.array([grad.sum()]))
            t += 1
            rate = RATE * 0.1 ** (t / steps)
            for k, g in enumerate(grads):
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                params[k] -= rate * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v[k] / (1 - 0.999 ** t))
                                                              + 1e-8)
        if progress is not None:
            progress(epoch + 1)
    w1 = params[0] / sd[:, None]  # inputs as value.py reads them, unscaled
    b1 = params[1] - (mu / sd) @ params[0]
    return w1, b1, params[2].copy(), float(params[3][0] + ym)


def predict(x: np.ndarray, w1, b1, w2, b2) -> np.ndarray:
    return np.maximum(x.astype(np.float64) @ w1 + b1, 0.0) @ w2 + b2


def gather(block, wanted: int, meta_at: int, size: int = 1000) -> tuple[tuple, int]:
    """Leaves in blocks of ``size`` games (``block(first, count, limit)``: a tuple of arrays,
    the one at ``meta_at`` numbering its groups in column 0) until ``wanted`` of them, the
    groups numbered across the blocks. Returns (the arrays concatenated, the games played)."""
    games = got = groups = 0
    parts = []
    while got < wanted:
        arrays = block(games, size, wanted - got)
        meta = arrays[meta_at]
        meta[:, 0] += groups
        groups = int(meta[-1, 0]) + 1 if len(meta) else groups
        parts.append(arrays)
        got += len(meta)
        games += size
    return tuple(np.concatenate(column) for column in zip(*parts, strict=True)), games


def regret(pred: np.ndarray, y: np.ndarray, group: np.ndarray) -> float:
    """Mean over groups of the label of the leaf the prediction ranks best minus the best
    label: what choosing by the model costs in one world, in minus points."""
    starts = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    ends = np.r_[starts[1:], len(group)]
    return float(np.mean([y[s + np.argmin(pred[s:e])] - y[s:e].min()
                          for s, e in zip(starts, ends, strict=True)]))


def train(players: list[int], leaves_per_count: int, seed: int, finisher: str = "learned",
          say=print) -> tuple[np.ndarray, dict]:
    """Weights (ROWS x ROW, value_weights.pack) for every player count in ``players`` and
    their facts (per count: games, leaves, held-out regret against basic's move)."""
    from strategies.ass.value_weights import pack

    w1 = np.zeros((ROWS, INPUTS, HIDDEN))
    b1 = np.zeros((ROWS, HIDDEN))
    w2 = np.zeros((ROWS, HIDDEN))
    b2 = np.zeros(ROWS)
    facts = {}
    for n in players:
        began = time.perf_counter()
        (hands, meta, labels), games = gather(
            lambda first, count, limit, n=n: leaves(n, first, count, seed, limit, finisher),
            leaves_per_count, 1)
        x = inputs(hands, meta)
        held = meta[:, 0] % 10 == 0
        fit_rows = ~held
        say(f"  {n} players: {games:,} games, {len(labels):,} leaves "
            f"({time.perf_counter() - began:.0f} s); fitting")
        W = fit(x[fit_rows], labels[fit_rows], meta[fit_rows, 0], seed, n)
        pred = predict(x[held], *W)
        basic_first = np.where(np.r_[True, np.diff(meta[held, 0]) != 0], -1.0, 0.0)
        facts[str(n)] = {
            "games": games, "leaves": int(len(labels)),
            "held_out_regret": round(regret(pred, labels[held], meta[held, 0]), 3),
            "basic_regret": round(regret(basic_first, labels[held], meta[held, 0]), 3),
            "seconds": round(time.perf_counter() - began, 1)}
        say(f"  {n} players: held-out regret {facts[str(n)]['held_out_regret']} minus points a "
            f"decision (basic's move: {facts[str(n)]['basic_regret']})")
        d = x.shape[1]
        w1[n, :d], b1[n], w2[n], b2[n] = W
    return rounded(pack(w1, b1, w2, b2)), facts


def rounded(flat: np.ndarray) -> np.ndarray:
    """The weights to 6 significant digits: what the file keeps (a third of the full
    length), and so what is measured."""
    return np.array([float(f"{x:.6g}") for x in flat.reshape(-1)]).reshape(flat.shape)

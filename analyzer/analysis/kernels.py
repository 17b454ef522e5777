"""The jitted core of ``cardlab analyze``: every legal move rolled out on every sampled world.

The search players (strategies/ass/pimc.py, strategies/jass/search.py) keep only the best
candidate; the analysis needs the whole picture, so these routines return the outcome
matrix, one row per sampled world and one column per move, for *every* move given. All
moves meet the same worlds and, in world w, the same rollout stream (common random
numbers), so the difference of two columns is a paired sample.

Both routines use the search's own pieces and see only what the decider may know (A-11,
J-11): the worlds are the search's own, drawn by its own code with the knobs given (Who's the
Ass?: pimc.py ``deal_worlds``, from its hand, the public state with the known holdings and,
with ``infer=policy``, the public move record, ``oversample`` worlds drawn per world kept,
each kept world weighted ``eps`` per mismatch beyond the fewest; Plus-Minus Jass:
``draw_worlds``, with the bans the play proves and its ``infer``), each with its weight in
the search. The random draws all come from ``rng``.

Each routine is two kernels: one draws the worlds (all of them, as before), one rolls the
moves out on worlds ``w0 .. w1-1``. :func:`ass_outcomes` and :func:`jass_outcomes` call the
second on chunks of worlds of about a quarter of a second, and between chunks a Ctrl-C stops
the analysis (analyzer/runner/interrupts.py ``checked_interrupts``): a kernel of 20,000 worlds
in a match of 1,000 games would otherwise run for many minutes deaf to it. Every world's
rollouts depend on that world's own stream only, and the scratch arrays live across the
chunks as they lived across the worlds of the one loop before, so the results are the same,
bit for bit, whatever the chunks.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from analyzer.engines.ass.engine import deal_packed, match_shares, score
from analyzer.games.ass.cards import (
    PUB_GAME,
    PUB_GAMES,
    PUB_GONE,
    PUB_PLAYERS,
    PUB_SEAT,
    PUB_TABLE,
    PUB_TOTALS,
    SCRATCH,
    VIEW_LEN,
    WIN_SHARE_UNIT,
)
from analyzer.games.ass.moves import U0, pack_counts
from analyzer.games.jass.primitives import S_N, ST_SIZE
from analyzer.numba_compat import njit_runtime
from analyzer.rng import next_u64
from strategies.ass.catalog import BASIC, PIMC, SLOT_ROLLOUT, VALUE
from strategies.ass.pimc import deal_worlds, rollout_strategy
from strategies.ass.pimc import play_out as _roll
from strategies.ass.rollout import NO_BLOCK, START
from strategies.ass.rollout import play_on as ass_play_on
from strategies.jass.knobs import OBJ_DEAL, P_ROLLOUT, VALUE_ROLLOUT
from strategies.jass.loop import rollout
from strategies.jass.play import copy_state, play_card
from strategies.jass.policies import begin_deal
from strategies.jass.search import (
    ROLLOUT_FAMS,
    ROLLOUT_PRMS,
    draw_worlds,
    outcome,
    value_leaf_all,
)
from strategies.registry import N_PARAMS

# Typed values, not the literals True, False and OBJ_DEAL: numba compiles a callee once per
# literal argument value, so a literal here would compile a copy of the search's own functions
# (draw_worlds, outcome, deal_worlds) for the analysis alone instead of reusing theirs.
NO_PEEK = np.bool_(False)
PIMC_FAMILY = np.int64(PIMC)
DEAL_OBJECTIVE = np.int64(OBJ_DEAL)


@njit(cache=True)
def _ass_worlds(view, trace, worlds, params, rng, world_hands, streams, futures, weights,
                rview):
    """:func:`ass_outcomes`'s worlds: pimc's own (pimc.py ``deal_worlds`` with ``params``,
    pimc's parameter vector): every world's hands (``world_hands``), the seed of its rollout
    stream (``streams``) and its weight in the search (``weights``, pimc's ``eps``); then, in
    a match, the seed of every world's future deals (``futures``), all drawn from ``rng``;
    ``rview`` is the scratch view the rollouts use next."""
    fam, pp = rollout_strategy(params[SLOT_ROLLOUT])
    pool = np.zeros(128, dtype=np.int64)
    packed = np.zeros(view[PUB_PLAYERS], dtype=np.uint64)  # read by peek only
    deal_worlds(PIMC_FAMILY, params, view, rng, packed, trace, fam, pp, worlds, world_hands,
                 streams, pool, rview, weights)
    if view[PUB_GAMES] > 0:
        for w in range(worlds):
            futures[w] = next_u64(rng)
    for i in range(SCRATCH):
        rview[i] = 0


@njit(cache=True)
def _ass_rollouts(view, moves, rollout_code, world_hands, streams, futures, w0, w1, out, wins,
                  per_player, template, rview, cur, roll_rng, totals, shares, packed, deck):
    """:func:`ass_outcomes`'s rollouts on worlds ``w0 .. w1-1`` (the arrays after
    ``template`` are scratch, kept from one chunk of worlds to the next)."""
    n = view[PUB_PLAYERS]
    fam, pp = rollout_strategy(rollout_code)
    # the value model ends its leaves with the round: the match is played on by basic
    mfam = BASIC if fam == VALUE else fam
    match = view[PUB_GAMES] > 0
    gone = pack_counts(view, PUB_GONE)
    table0 = pack_counts(view, PUB_TABLE)
    me = view[PUB_SEAT]
    for w in range(w0, w1):
        for i in range(moves.shape[0]):
            roll_rng[0] = streams[w]
            out[w, i] = _roll(view, world_hands, w * n, moves[i], fam, pp, rview, roll_rng,
                              cur, gone, table0)
            if match:
                if fam == VALUE:  # this game to its end, for the match's totals
                    roll_rng[0] = streams[w]
                    _roll(view, world_hands, w * n, moves[i], mfam, pp, rview, roll_rng, cur,
                          gone, table0)
                for s in range(n):  # by the seats of this game
                    totals[s] = view[PUB_TOTALS + s] + score(cur[s])
                roll_rng[0] = futures[w]
                for g in range(view[PUB_GAME] + 1, view[PUB_GAMES]):
                    shift = g - view[PUB_GAME]  # the player of this game's seat s sits at s - shift
                    for s in range(SCRATCH):
                        rview[s] = 0
                    starter = deal_packed(roll_rng, n, per_player, template, deck, packed,
                                          rview)
                    ass_play_on(packed, n, mfam, pp, rview, roll_rng, U0, U0, starter, NO_BLOCK,
                                START, START, START, starter, START, START)
                    for s in range(n):
                        totals[(s + shift) % n] += score(packed[s])
                k = match_shares(totals, n, shares)
                wins[w, i] = shares[me] / WIN_SHARE_UNIT if k > 0 else 0.0


CHUNK_SECONDS = 0.25  # about this long per chunk of worlds: Ctrl-C is heard between chunks


def in_chunks(total: int, roll, check) -> None:
    """``roll(w0, w1)`` on consecutive chunks of ``0 .. total-1`` that take about
    :data:`CHUNK_SECONDS` each (one world first, then doubled or halved), ``check()``
    (analyzer/runner/interrupts.py ``checked_interrupts``: raises KeyboardInterrupt after a
    Ctrl-C) between two chunks, never inside a kernel."""
    w, size = 0, 1
    while w < total:
        end = min(total, w + size)
        began = time.perf_counter()
        roll(w, end)
        w = end
        check()
        took = time.perf_counter() - began
        if took < CHUNK_SECONDS / 2:
            size *= 2
        elif took > 2 * CHUNK_SECONDS and size > 1:
            size //= 2


def ass_outcomes(view, trace, moves, worlds, params, rng, out, wins, per_player, template
                 ) -> np.ndarray:
    """Who's the Ass?: ``out[w, i]`` = the decider's minus points at the end of the game when
    it plays ``moves[i]`` in sampled world w and everybody then plays the rollout strategy
    (``params[SLOT_ROLLOUT]``, catalog.encode_rollout) to the end. Returns the worlds'
    weights (int64, one per world: pimc's ``eps``; all alike with eps = 1).

    ``params`` is a ``pimc`` parameter vector (a tuple of 8 floats, as the engine passes it):
    the worlds are the ones ``pimc`` with these knobs draws (pimc.py ``deal_worlds``: with
    ``infer=policy``, when ``trace`` reaches the current round, ``oversample * worlds``
    worlds drawn and the ``worlds`` that best explain the opponents' moves kept, weighted
    ``eps`` per mismatch beyond the fewest; otherwise dealt from the view alone, known
    holdings respected unless ``infer=sizes``), ``worlds`` of them.

    In a match (``view[PUB_GAMES]`` > 0, A-12) also ``wins[w, i]``: the decider's share of
    the match win (1, 1/k for a k-way tie, or 0) when the rest of the match is played out as
    well: the running totals (PUB_TOTALS) plus this game's minus points, then every game
    left dealt afresh (engine.deal_packed: ``per_player`` cards each from ``template``, the
    canonical deck) from a stream of world w's own and played by the rollout strategy, the
    deal moving one seat on each game (A-3). Every move of world w meets the same future
    deals.

    ``view`` is the decider's view (A-11; not changed), ``trace`` the public move record
    (pimc.py's module docstring). The draws: the worlds and their rollout seeds as pimc
    draws them, then in a match one seed per world of its future deals. The rollouts run in
    chunks of worlds (module docstring)."""
    n = int(view[PUB_PLAYERS])
    world_hands = np.zeros((worlds + 1) * n, dtype=np.uint64)
    streams = np.zeros(worlds, dtype=np.uint64)
    futures = np.zeros(worlds, dtype=np.uint64)
    weights = np.zeros(worlds, dtype=np.int64)
    rview = np.zeros(VIEW_LEN, dtype=np.int64)
    from analyzer.runner.interrupts import checked_interrupts  # (not hashed with the kernels)

    params = tuple(float(v) for v in params)
    rollout_code = np.float64(params[SLOT_ROLLOUT])
    scratch = (rview, np.zeros(16, dtype=np.uint64), np.zeros(1, dtype=np.uint64),
               np.zeros(16, dtype=np.int64), np.zeros(16, dtype=np.int64),
               np.zeros(16, dtype=np.uint64), np.zeros(109, dtype=np.uint8))
    with checked_interrupts() as check:
        _ass_worlds(view, trace, worlds, params, rng, world_hands, streams, futures, weights,
                    rview)
        check()
        in_chunks(worlds, lambda w0, w1: _ass_rollouts(
            view, moves, rollout_code, world_hands, streams, futures, w0, w1, out, wins,
            per_player, template, *scratch), check)
    return weights


@njit_runtime()  # allocates (draw_worlds)
def _jass_worlds(prm, seat, hand, st, played, rng):
    """:func:`jass_outcomes`'s worlds: ``draw_worlds``'s (pool, seeds, keep, weight)."""
    nothing = np.zeros(4, dtype=np.uint64)
    return draw_worlds(prm, seat, hand, st, played, rng, nothing, NO_PEEK)


@njit_runtime()  # allocates (the rollout presets' arrays)
def jass_presets(prm):
    """The rollout preset of ``pimc`` parameter vector ``prm`` (its ``P_ROLLOUT``) in every
    seat: (families, parameter rows), as the search rolls out."""
    rk = int(prm[P_ROLLOUT])
    rfams = np.full(4, ROLLOUT_FAMS[rk], dtype=np.int64)
    rprms = np.empty((4, N_PARAMS), dtype=np.float64)
    for i in range(4):
        rprms[i, :] = ROLLOUT_PRMS[rk]
    return rfams, rprms


@njit(cache=True)
def jass_leaf(seat, card, wh, played, taken, st, rfams, rprms, by_value, seed, h2, p2, t2, st2,
              memo, rr, ints, vs, pv):
    """From world hands ``wh`` (their rollout memos in ``memo``): ``seat`` plays ``card``,
    then the search's evaluation: every seat plays its preset to the end of the deal on stream
    ``seed`` or, ``by_value`` (``rollout=value``), search.value_leaf_all. Every seat's outcome
    in ``vs[p]`` (its sticks from the deal, J-9 with the remembered ties' bonus, or the value
    model's estimate) and ``pv[p]`` (its card points at the deal's end; with the value model
    when learned plays on to the end). ``vs[seat]`` is the search's value of the card
    (``objective=deal``), to the bit. The inputs are not changed."""
    n = st[S_N]
    copy_state(wh, played, taken, st, h2, p2, t2, st2)
    play_card(seat, card, h2, p2, t2, st2)
    rr[0] = seed
    if by_value:
        value_leaf_all(seat, h2, p2, t2, st2, rfams, rprms, rr, memo, ints, vs, pv)
        return
    rollout(rfams, rprms, rr, h2, p2, t2, st2, memo)
    # with the deal objective ``outcome`` fills every seat's points, award and bonus
    outcome(seat, t2, st2, OBJ_DEAL, ints[0], ints[1], ints[2], ints[3], ints[4])
    for p in range(n):
        vs[p] = ints[1, p] + ints[2, p]
        pv[p] = ints[0, p]


@njit(cache=True)
def jass_begin(rfams, rprms, pool, g, st, wh, memo):
    """World ``g`` of ``pool`` into ``wh``, and every seat's rollout memo of it."""
    for p in range(4):
        wh[p] = pool[g, p]
    for p in range(st[S_N]):
        memo[p] = begin_deal(rfams[p], rprms[p], p, wh[p], st)


def jass_scratch() -> tuple:
    """The scratch arrays of the Jass rollouts (wh, h2, p2, t2, st2, memo, ints, rr, vs, pv),
    kept from one chunk of worlds to the next."""
    return (np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.empty(ST_SIZE, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros((5, 8), dtype=np.int64), np.zeros(1, dtype=np.uint64),
            np.zeros(4, dtype=np.float64), np.zeros(4, dtype=np.int64))


@njit_runtime()  # allocates (the rollout presets' arrays)
def _jass_rollouts(prm, seat, st, played, taken, cards, pool, seeds, keep, w0, w1, sticks,
                   points, wh, h2, p2, t2, st2, memo, ints, rr, vs, pv):
    """:func:`jass_outcomes`'s rollouts on kept worlds ``w0 .. w1-1`` (the arrays after
    ``points`` are scratch, kept from one chunk of worlds to the next)."""
    rfams, rprms = jass_presets(prm)
    by_value = int(prm[P_ROLLOUT]) == VALUE_ROLLOUT
    for w in range(w0, w1):
        g = keep[w]
        jass_begin(rfams, rprms, pool, g, st, wh, memo)
        for ci in range(cards.shape[0]):
            jass_leaf(seat, cards[ci], wh, played, taken, st, rfams, rprms, by_value, seeds[g],
                      h2, p2, t2, st2, memo, rr, ints, vs, pv)
            sticks[w, ci] = vs[seat]
            points[w, ci] = pv[seat]


def jass_outcomes(prm, seat, hand, st, played, taken, rng, cards, sticks, points, weights):
    """Plus-Minus Jass: for every sampled world w and card ``cards[i]``, the decider's sticks
    from the deal (J-9 given the standings and remembered ties in ``st``, as the search's
    ``objective=deal``) in ``sticks[w, i]`` and its card points (J-8) in ``points[w, i]``,
    when it plays the card and every seat then plays the rollout preset ``prm[P_ROLLOUT]``;
    the world's weight in the search (pimc's ``eps`` with ``infer=policy``; else 1) in
    ``weights[w]``.

    The worlds are ``draw_worlds(prm, ...)``'s, the search's own (``prm`` a ``pimc``
    parameter vector: its ``worlds``, ``infer``, ``oversample`` and ``eps``): dealt from the
    decider's hand and the public state only, with the bans the play proves. Returns the
    number of worlds kept (the rows filled), -1 on an inconsistent state. The inputs are not
    changed. The rollouts run in chunks of worlds (module docstring)."""
    from analyzer.runner.interrupts import checked_interrupts  # (not hashed with the kernels)

    with checked_interrupts() as check:
        pool, seeds, keep, weight = _jass_worlds(prm, seat, hand, st, played, rng)
        check()
        if keep[0] < 0:
            return -1
        weights[: len(keep)] = weight
        scratch = jass_scratch()
        in_chunks(len(keep), lambda w0, w1: _jass_rollouts(
            prm, seat, st, played, taken, cards, pool, seeds, keep, w0, w1, sticks, points,
            *scratch), check)
    return len(keep)

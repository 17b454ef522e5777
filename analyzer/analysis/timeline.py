"""Every seat's expected final result after every move of a recorded game: the evaluation
graph of the viewer (``replay --html --analyze``) and of the board's study mode.

The per-move analysis (annotate.py) values a position only for the player to move: a seat's
line would have a point at its own moves alone. Here, for every play t of a record, the
position before it is rebuilt from what the mover could know (ass.from_record /
jass.from_record, A-11 / J-11), its worlds are drawn exactly as the per-move analysis draws
them (kernels: the same world model, the same stream of (seed, index)), the move actually
played is rolled out in every world, and *every* seat's final result is kept per world (the
rollouts play every seat to the end, so they already hold every seat's score). The point
after move t is "every seat's expected result as the mover saw it", with a 95% t interval
over the worlds, inside the range of the game's result column.

With as many worlds and the same seed as the per-move analysis, the mover's own point is the
analysis's value of the move it played, to the bit (the same worlds, the same rollout
stream in each world). The cost per step is the worlds' draw plus one rollout per world,
against one rollout per legal move and world for the analysis.

Units: Who's the Ass?: minus points at the end of the game (in a match, of the game the move
belongs to; lower is better); Plus-Minus Jass: sticks from the deal (J-9, the remembered
ties' bonus included; higher is better), with the card points (J-8) beside them.

The rollouts run in chunks of worlds between which a Ctrl-C is heard (kernels.in_chunks);
every world's rollout depends on that world's stream alone, so the results are the same, bit
for bit, whatever the chunks.

Returned shape of :func:`game_timeline`::

    {"game", "unit", "worlds", "seed", "lower_is_better", "range": [low, high],
     "points": [{"part", "index", "seat", "value": [per seat], "low": [...],
                 "high": [...]}, ...]}

one point per play of the record in record order (as annotate's ``moves``: Who's the Ass?
matches game after game, Jass deal after deal); ``part`` is the game of the match or the deal
(0 for one game), ``index`` the play's number within it (``cardlab analyze --move``), ``seat``
the mover; ``low``/``high`` are None below values.MIN_INTERVAL_WORLDS worlds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from analyzer.analysis.kernels import (
    _ass_worlds,
    _jass_worlds,
    in_chunks,
    jass_begin,
    jass_leaf,
    jass_presets,
    jass_scratch,
)
from analyzer.games.ass.cards import PUB_GONE, PUB_PLAYERS, PUB_TABLE, VIEW_LEN
from analyzer.games.ass.moves import pack_counts
from analyzer.games.jass.primitives import S_N
from analyzer.numba_compat import njit_runtime
from strategies.ass.pimc import play_out_seats, rollout_strategy
from strategies.jass.knobs import P_ROLLOUT, VALUE_ROLLOUT

GAME_STRIDE = 1000  # stream index of a move: as annotate.GAME_STRIDE (the same worlds)


@njit(cache=True)
def _ass_step_rollouts(view, move, rollout_code, world_hands, streams, w0, w1, out, rview,
                       cur, roll_rng):
    """Worlds ``w0 .. w1-1``: the decider plays ``move`` (pimc's ``play_out``, as the analysis
    rolls it), everybody the rollout strategy to the end; ``out[w, s]`` = seat s's minus
    points at the end of the game in world w (with ``rollout=value``: its value of the leaf,
    pimc.py ``play_out_seats``)."""
    n = view[PUB_PLAYERS]
    fam, pp = rollout_strategy(rollout_code)
    gone = pack_counts(view, PUB_GONE)
    table0 = pack_counts(view, PUB_TABLE)
    res = np.zeros(16)
    for w in range(w0, w1):
        roll_rng[0] = streams[w]
        play_out_seats(view, world_hands, w * n, move, fam, pp, rview, roll_rng, cur, gone,
                       table0, res)
        for s in range(n):
            out[w, s] = res[s]


def ass_step(view, trace, move, worlds, params, rng):
    """Who's the Ass?: (the (worlds x seats) matrix of every seat's minus points at the end of
    the game when the decider of ``view`` plays ``move``, the worlds' weights), on the worlds
    kernels.ass_outcomes draws from ``rng`` with the same ``params`` (pimc's parameter
    vector; its ``_ass_worlds``) and rolled out by its rollout strategy."""
    from analyzer.runner.interrupts import checked_interrupts  # (not hashed with the kernels)
    from strategies.ass.catalog import SLOT_ROLLOUT

    n = int(view[PUB_PLAYERS])
    params = tuple(float(v) for v in params)
    rollout_code = np.float64(params[SLOT_ROLLOUT])
    world_hands = np.zeros((worlds + 1) * n, dtype=np.uint64)
    streams = np.zeros(worlds, dtype=np.uint64)
    futures = np.zeros(worlds, dtype=np.uint64)
    weights = np.zeros(worlds, dtype=np.int64)
    rview = np.zeros(VIEW_LEN, dtype=np.int64)
    out = np.zeros((worlds, n), dtype=np.float64)
    cur, roll_rng = np.zeros(16, dtype=np.uint64), np.zeros(1, dtype=np.uint64)
    with checked_interrupts() as check:
        _ass_worlds(view, trace, worlds, params, rng, world_hands, streams, futures, weights,
                    rview)
        check()
        in_chunks(worlds, lambda w0, w1: _ass_step_rollouts(
            view, np.int64(move), rollout_code, world_hands, streams, w0, w1, out, rview, cur,
            roll_rng), check)
    return out, weights


@njit_runtime()  # allocates (the rollout presets' arrays)
def _jass_step_rollouts(prm, seat, st, played, taken, card, pool, seeds, keep, w0, w1, sticks,
                        points, wh, h2, p2, t2, st2, memo, ints, rr, vs, pv):
    """Kept worlds ``w0 .. w1-1``: the decider plays ``card``, then pimc's evaluation
    (kernels.jass_leaf, as kernels.jass_outcomes evaluates it); ``sticks[w, s]`` = seat s's
    sticks from the deal (J-9 with the remembered ties' bonus; with the value model its
    estimate), ``points[w, s]`` its card points (J-8)."""
    n = st[S_N]
    rfams, rprms = jass_presets(prm)
    by_value = int(prm[P_ROLLOUT]) == VALUE_ROLLOUT
    for w in range(w0, w1):
        g = keep[w]
        jass_begin(rfams, rprms, pool, g, st, wh, memo)
        jass_leaf(seat, card, wh, played, taken, st, rfams, rprms, by_value, seeds[g], h2, p2,
                  t2, st2, memo, rr, ints, vs, pv)
        for p in range(n):
            sticks[w, p] = vs[p]
            points[w, p] = pv[p]


def jass_step(prm, seat, hand, st, played, taken, rng, card):
    """Plus-Minus Jass: (sticks, points), (kept worlds x seats) matrices of every seat's
    result of the deal when the decider plays ``card``, on the worlds kernels.jass_outcomes
    draws from ``rng`` with ``prm`` (its ``_jass_worlds``), and the kept worlds' weights;
    None on an inconsistent state."""
    from analyzer.runner.interrupts import checked_interrupts  # (not hashed with the kernels)

    n = int(st[S_N])
    with checked_interrupts() as check:
        pool, seeds, keep, weight = _jass_worlds(prm, seat, hand, st, played, rng)
        check()
        if keep[0] < 0:
            return None
        sticks = np.zeros((len(keep), n), dtype=np.float64)
        points = np.zeros((len(keep), n), dtype=np.int64)
        scratch = jass_scratch()
        in_chunks(len(keep), lambda w0, w1: _jass_step_rollouts(
            prm, seat, st, played, taken, np.int64(card), pool, seeds, keep, w0, w1, sticks,
            points, *scratch), check)
    return sticks, points, np.asarray(weight)[: len(keep)]


# --------------------------------------------------------------------- positions of a record
def point(game: str, matrix: np.ndarray, weights: np.ndarray | None = None
          ) -> dict[str, list]:
    """Per seat (a column of ``matrix``, worlds x seats): the mean and its 95% t interval,
    weighted by the worlds' ``weights`` in the search when they differ (as the analysis's
    values, values.move_rows), kept inside the range of the game's result column (None ends
    below MIN_INTERVAL_WORLDS worlds)."""
    from analyzer.analysis.values import (
        MIN_INTERVAL_WORLDS,
        _clip,
        _interval,
        effective_worlds,
        value_ranges,
    )

    bounds = value_ranges(game)[""]
    x = np.asarray(matrix, dtype=np.float64)
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if w.size and np.all(w == w[0]):
            w = None
        else:
            keep = w > 0
            x, w = x[keep], w[keep]
    few = (x.shape[0] if w is None else effective_worlds(w)) < MIN_INTERVAL_WORLDS
    out: dict[str, list] = {"value": [], "low": [], "high": []}
    for s in range(x.shape[1]):
        mean, low, high = _interval(x[:, s], w)
        low, high = _clip(low, high, bounds)
        out["value"].append(mean)
        out["low"].append(None if few else low)
        out["high"].append(None if few else high)
    return out


def _analysis(game: str):
    """The game's own analysis module (its adapter's ``analysis`` part)."""
    from analyzer.games import registry

    return registry.load(registry.get(game).part("analysis", "the analysis"))


def step_point(game: str, record: dict[str, Any], part: int, index: int, worlds: int,
               seed: int) -> dict[str, Any]:
    """The point after play ``index`` of part ``part`` (the game of a match, the deal): every
    seat's expected result as the mover saw it before moving (the game's analysis module
    gives the position, the move and the matrix of its rollouts)."""
    stream = part * GAME_STRIDE + index
    module = _analysis(game)
    pos, move = module.timeline_move(record, part, index)
    matrix, weights = module.timeline_matrix(pos, move, worlds, seed, stream)
    return {"part": part, "index": index, "seat": pos.seat, **point(game, matrix, weights)}


def plays(game: str, record: dict[str, Any]) -> list[tuple[int, int]]:
    """(part, index) of every play of a record, in record order."""
    return [(part, index) for _head, _who, _played, part, index, _pos
            in _analysis(game).record_plays(record)]


def game_timeline(game: str, record: dict[str, Any], *, worlds: int = 200, seed: int = 0,
                  progress=None) -> dict[str, Any]:
    """The evaluation graph's data of one record (module docstring); ``progress(done,
    total)`` after each point."""
    from analyzer.analysis.values import LOWER_IS_BETTER, THRESHOLDS, value_ranges

    todo = plays(game, record)
    points = []
    for part, index in todo:
        points.append(step_point(game, record, part, index, worlds, seed))
        if progress is not None:
            progress(len(points), len(todo))
    low, high = value_ranges(game)[""]
    return {"game": game, "unit": THRESHOLDS[game].unit, "worlds": worlds, "seed": seed,
            "lower_is_better": LOWER_IS_BETTER[game], "range": [low, high], "points": points}

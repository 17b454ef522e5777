"""Who's the Ass? search speed on one core: rollouts, and pimc in a game.

* ns per rollout from mid-game: ``strategies.ass.rollout.play_on`` from the state at the
  start of the middle round of recorded 4-player games (every seat ``basic``; the copy of the
  state before each rollout included), with ``basic`` and with ``careful`` rollouts; beside it
  the engine's own play loop (``play_packed``, ``basic``) from the same states, and the plain
  engine (``run_chunk``, ``basic`` everywhere, deal and result columns included) per game, all
  also per turn (a turn: one seat's move in a round, forced passes included).
* pimc in a game: one ``pimc`` seat (default knobs unless ``--pimc``) among ``basic`` players,
  games per second per core (process CPU time), decisions searched per game, and the worlds
  times candidates each decision rolls out (an upper bound on its rollouts: a candidate stops
  early once it cannot beat the best so far).

Run: ``.venv/bin/python scripts/bench_ass_search.py`` (about a minute; ``--quick`` for a smoke
run). Figures are best-of-N CPU time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_common import rate  # noqa: E402

from analyzer.engines.ass.engine import UNTRACED, play_packed  # noqa: E402
from analyzer.games.ass.cards import PUB_GONE, PUB_KNOWN, PUB_SIZES, VIEW_LEN  # noqa: E402
from analyzer.games.ass.moves import unpack_to  # noqa: E402
from strategies.ass.rollout import START, play_on  # noqa: E402


@njit
def _rollouts(states, sizes, gone, starters, blocked, rounds, n, fam, pp, repeats):
    """play_on from every state, ``repeats`` times; return the turns played."""
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    work = np.empty(n, dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    turns = 0
    for _ in range(repeats):
        for i in range(states.shape[0]):
            for s in range(n):
                work[s] = states[i, s]
                view[PUB_SIZES + s] = sizes[i, s]
            _, t = play_on(work, n, fam, pp, view, rng, gone[i], np.uint64(0), starters[i],
                           blocked[i], START, START, START, START, START, rounds[i])
            turns += t
    return turns


@njit
def _engine_from(states, sizes, gone, starters, blocked, rounds, n, families, params, repeats):
    """The engine's own play loop (play_packed) from every state, ``repeats`` times."""
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    work = np.empty(n, dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    trace = np.zeros((1, 14), dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    total = 0
    for _ in range(repeats):
        for i in range(states.shape[0]):
            for s in range(n):
                work[s] = states[i, s]
                view[PUB_SIZES + s] = sizes[i, s]
                view[PUB_KNOWN + s] = 0  # (nothing known: a take adds to it)
            unpack_to(gone[i], view, PUB_GONE)
            r, _, _ = play_packed(work, starters[i], blocked[i], n, families, params, view,
                                  rng, trace, UNTRACED, taken, (None, None))
            total += r
    return total


def mid_game_states(count: int, players: int = 4):
    """The state at the start of the middle round of ``count`` recorded basic games."""
    from analyzer.engines.ass.positions import state_at
    from analyzer.engines.ass.records import Tracer
    from analyzer.engines.kernel import RunSpec

    tracer = Tracer(RunSpec("ass", players, ("basic",), 99))
    states = np.zeros((count, players), dtype=np.uint64)
    sizes = np.zeros((count, players), dtype=np.int64)
    gone = np.zeros(count, dtype=np.uint64)
    starters = np.zeros(count, dtype=np.int64)
    blocked = np.full(count, -1, dtype=np.int64)
    rounds = np.zeros(count, dtype=np.int64)
    turns = 0
    for i in range(count):
        rec, _ = tracer.record(i)
        turns += len(rec["rounds"]) * players
        state = state_at(rec, len(rec["rounds"]) // 2, 0)
        for s, hand in enumerate(state["hands"]):
            states[i, s] = sum(c << (4 * k) for k, c in enumerate(hand))
            sizes[i, s] = sum(hand)
        gone[i] = sum(c << (4 * k) for k, c in enumerate(state["gone"]))
        starters[i], blocked[i], rounds[i] = state["starter"], state["blocked"], state["round"]
    return (states, sizes, gone, starters, blocked, rounds), turns / count


def bench_rollouts(count: int = 2000, repeats: int = 20, engine_games: int = 200_000) -> dict:
    from analyzer.engines.ass import kernel
    from analyzer.engines.kernel import RunSpec
    from strategies.registry import parse_strategy

    arrays, turns_per_game = mid_game_states(count)
    out: dict = {"states": count, "engine_turns_per_game": turns_per_game}
    for name in ("basic", "careful"):
        s = parse_strategy("ass", name)
        _rollouts(*arrays, 4, s.family, s.values, 1)  # compile
        turns = _rollouts(*arrays, 4, s.family, s.values, 1)
        per_s, _ = rate(lambda s=s: _rollouts(*arrays, 4, s.family, s.values, repeats),
                        count * repeats, 3)
        out[name] = {"ns_per_rollout": 1e9 / per_s, "turns_per_rollout": turns / count,
                     "ns_per_turn": 1e9 / per_s / (turns / count)}
    families = np.zeros(4, dtype=np.int64)
    params = np.zeros((4, 8))
    _engine_from(*arrays, 4, families, params, 1)
    per_s, _ = rate(lambda: _engine_from(*arrays, 4, families, params, repeats),
                    count * repeats, 3)
    out["engine_mid"] = {"ns_per_rollout": 1e9 / per_s,
                         "ns_per_turn": 1e9 / per_s / out["basic"]["turns_per_rollout"]}
    spec = RunSpec("ass", 4, ("basic",), 1)
    kernel.play_chunk(spec, 0, 10)
    games, _ = rate(lambda: kernel.play_chunk(spec, 0, engine_games), engine_games, 3)
    out["engine"] = {"ns_per_game": 1e9 / games,
                     "ns_per_turn": 1e9 / games / turns_per_game}
    return out


def bench_pimc(pimc: str = "pimc", games: int = 400) -> dict:
    from analyzer.engines.ass import kernel
    from analyzer.engines.kernel import RunSpec

    spec = RunSpec("ass", 4, (pimc, "basic", "basic", "basic"), 1)
    kernel.play_chunk(spec, 0, 2)
    per_s, _ = rate(lambda: kernel.play_chunk(spec, 0, games), games, 2)
    return {"strategy": pimc, "games_per_s": per_s, **_search_counts(pimc, min(games, 100))}


def _search_counts(pimc: str, games: int) -> dict:
    """Decisions searched per game and worlds x candidates per searched decision."""
    from analyzer.engines.ass.positions import state_at, view_of
    from analyzer.engines.ass.records import Tracer
    from analyzer.engines.kernel import RunSpec
    from analyzer.games.ass.moves import legal_moves
    from strategies.ass.catalog import BASIC, RANDOM
    from strategies.ass.pimc import _candidates, rollout_strategy
    from strategies.ass.policies import basic, heuristic
    from strategies.registry import parse_strategy

    s = parse_strategy("ass", pimc)
    worlds, limit = int(s.values[0]), int(s.values[1])
    fam, pp = rollout_strategy(s.values[2])
    tracer = Tracer(RunSpec("ass", 4, (pimc, "basic", "basic", "basic"), 1))
    searched = evaluations = 0
    cands = np.zeros(64, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    for index in range(games):
        rec, _ = tracer.record(index)
        for r, rnd in enumerate(rec["rounds"]):
            for p, play in enumerate(rnd["plays"]):
                if play["seat"] != 0:
                    continue
                view = view_of(state_at(rec, r, p))
                if legal_moves(view) < 2:  # one legal move (a forced pass too): no search
                    continue
                first = basic(pp, view, rng) if fam in (BASIC, RANDOM) else heuristic(pp, view, rng)
                m = _candidates(view, first, cands, limit)
                if m > 1:
                    searched += 1
                    evaluations += m * worlds
    return {"searched_per_game": searched / games,
            "rollouts_per_search": evaluations / max(searched, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, rough figures")
    parser.add_argument("--pimc", default="pimc", help="the pimc strategy to time")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    roll = bench_rollouts(*((200, 2, 20_000) if args.quick else ()))
    print("Who's the Ass? rollouts, 4 players, one core (best of 3 by CPU time)")
    print(f"{'':28} {'ns/rollout':>10} {'turns':>6} {'ns/turn':>8}")
    for name in ("basic", "careful"):
        f = roll[name]
        print(f"play_on from mid-game, {name:7} {f['ns_per_rollout']:>8,.0f} "
              f"{f['turns_per_rollout']:>6.1f} {f['ns_per_turn']:>8.1f}")
    m = roll["engine_mid"]
    print(f"engine play_packed from mid-game {m['ns_per_rollout']:>6,.0f} "
          f"{roll['basic']['turns_per_rollout']:>6.1f} {m['ns_per_turn']:>8.1f}   (basic)")
    e = roll["engine"]
    print(f"engine run_chunk, whole game  {e['ns_per_game']:>8,.0f} "
          f"{roll['engine_turns_per_game']:>6.1f} {e['ns_per_turn']:>8.1f}   (deal included)")
    print(f"rollouts per second: {1e9 / roll['basic']['ns_per_rollout']:,.0f} (basic), "
          f"{1e9 / roll['careful']['ns_per_rollout']:,.0f} (careful); a rollout turn costs "
          f"{roll['basic']['ns_per_turn'] / e['ns_per_turn']:.2f}x (basic) and "
          f"{roll['careful']['ns_per_turn'] / e['ns_per_turn']:.2f}x (careful) the engine's; "
          f"basic rollouts take {roll['basic']['ns_per_rollout'] / m['ns_per_rollout']:.2f}x "
          f"the engine's play loop from the same states")
    p = bench_pimc(args.pimc, 40 if args.quick else 400)
    print(f"{p['strategy']} in seat 0 among basic, 4 players: {p['games_per_s']:,.0f} games/s "
          f"per core; {p['searched_per_game']:.1f} decisions searched per game, "
          f"{p['rollouts_per_search']:.0f} worlds x candidates each (rollouts at most)")
    rollouts = p["games_per_s"] * p["searched_per_game"] * p["rollouts_per_search"]
    print(f"so at most {rollouts:,.0f} rollouts/s inside the search "
          f"({time.perf_counter() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()

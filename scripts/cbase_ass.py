"""The hand-written C engine of Who's the Ass? (scripts/cbase/ass.c), wrapped for the benches.

Issue 13 states its Who's the Ass? targets against a careful hand-written C engine of the same
rules, measured on the same machine: the numba engine at least 0.75x its speed per game, a
rollout from mid-game at least 126/180 = 0.70x. Absolute nanoseconds on a shared VM say
little, so scripts/bench_ass_split.py times this engine in the same run as the numba engine
and prints the ratios.

The C engine plays ``basic`` in every seat, 3 to 12 players, and plays exactly the numba
engine's games: the same minus points per (game, seat) and rounds per game as
``engine.run_chunk`` for every (seed, index), and the same final hands and turns as
``rollout.play_on`` from the same mid-game states (tests/test_cbase_ass.py holds it to both).

* :func:`play_games` -- minus points (games x n) and rounds (games) of games
  start..start+count-1, as the kernel's ``minus_points`` and ``rounds`` columns;
* :func:`game_rows` -- the same games with all twelve result columns of ``kernel.play_chunk``
  in its dtypes, fresh arrays per call as play_chunk allocates them: what "a game" costs the
  numba engine, so the per-game ratio compares the same work;
* :func:`rollouts` -- play on from ``bench_ass_search.mid_game_states``' arrays (the state
  copied before each rollout, as ``bench_ass_search._rollouts`` does);
* :func:`bench` -- C ns per game (deal, play, bookkeeping, game) and per rollout, best of N
  by CPU time (``bench_common.rate``), measured as bench_ass_split measures numba;
* :func:`interleaved` -- numba and C one after the other, N times in one process, medians
  (``.venv/bin/python scripts/cbase_ass.py --rounds 5``: steadier ratios on a shared machine).

Raises :class:`cbaseline.NoCompiler` when there is no C compiler (callers print a line).
"""

from __future__ import annotations

import ctypes
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import rate  # noqa: E402
from cbaseline import build, pointer  # noqa: E402

_I64 = ctypes.c_int64
_U64P = ctypes.POINTER(ctypes.c_uint64)
_I64P = ctypes.POINTER(ctypes.c_int64)
# kernel.play_chunk's result columns, in its order and dtypes (analyzer/games/ass/description.py)
ROW_DTYPES = {"index": np.int64, "seat": np.int16, "minus_points": np.int16,
              "ended_with_ass": np.bool_, "dealt_ass": np.bool_, "cards_left": np.int16,
              "jokers_left": np.int16, "ass_taken": np.int16, "went_out": np.bool_,
              "rounds": np.int16, "ass_rounds": np.int16, "out_seat": np.int16}
PER_PLAYER = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10, 12: 9}


@lru_cache(maxsize=1)
def library() -> ctypes.CDLL:
    """The compiled engine (built once per process), its entry points typed."""
    lib = build("ass")
    lib.ass_play_games.restype = _I64
    lib.ass_play_games.argtypes = [ctypes.c_uint64, _I64, _I64, ctypes.c_int32,
                                   ctypes.c_int32, _I64P, _I64P]
    lib.ass_game_rows.restype = _I64
    lib.ass_game_rows.argtypes = ([ctypes.c_uint64, _I64, _I64, ctypes.c_int32, ctypes.c_int32]
                                  + [ctypes.c_void_p] * len(ROW_DTYPES))
    lib.ass_deal_games.restype = _I64
    lib.ass_deal_games.argtypes = [ctypes.c_uint64, _I64, _I64, ctypes.c_int32,
                                   ctypes.c_int32]
    lib.ass_rollouts.restype = _I64
    lib.ass_rollouts.argtypes = [_U64P, _I64P, _I64P, _I64P, _I64, ctypes.c_int32, _I64, _U64P,
                                 _I64P]
    return lib


def _checked(check: int, what: str) -> int:
    if check <= np.iinfo(np.int64).min + (1 << 40):
        raise RuntimeError(f"C engine: {what} failed (bad arguments or the round bound hit)")
    return check


def play_games(seed: int, start: int, count: int, n: int,
               per_player: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Minus points (int64[count, n]) and rounds (int64[count]) of games start..start+count-1
    of ``seed`` with ``basic`` in every seat (per_player: the rulebook's by default)."""
    per_player = PER_PLAYER[n] if per_player is None else per_player
    minus = np.empty((count, n), dtype=np.int64)
    rounds = np.empty(count, dtype=np.int64)
    _checked(library().ass_play_games(seed, start, count, n, per_player, pointer(minus),
                                      pointer(rounds)), "play_games")
    return minus, rounds


def game_rows(seed: int, start: int, count: int, n: int,
              per_player: int | None = None) -> dict[str, np.ndarray]:
    """The twelve result columns of ``kernel.play_chunk`` for games start..start+count-1 of
    ``seed`` with ``basic`` in every seat, one row per (game, seat), fresh arrays."""
    per_player = PER_PLAYER[n] if per_player is None else per_player
    out = {name: np.empty(count * n, dtype=dt) for name, dt in ROW_DTYPES.items()}
    _checked(library().ass_game_rows(seed, start, count, n, per_player,
                                     *(a.ctypes.data for a in out.values())), "game_rows")
    return out


def _state_args(arrays, n: int) -> tuple:
    """The arrays the C rollouts read: packed hands, starters, blocked, rounds (basic needs
    neither the sizes, implicit in a packed hand, nor the cards gone)."""
    states, _sizes, _gone, starters, blocked, rounds = arrays
    held = tuple(np.ascontiguousarray(a, dtype=dt) for a, dt in (
        (states, np.uint64), (starters, np.int64), (blocked, np.int64), (rounds, np.int64)))
    count = held[1].shape[0]
    if held[0].shape != (count, n) or held[2].shape != (count,) or held[3].shape != (count,):
        raise ValueError(f"states must be [count, {n}], starters, blocked and rounds [count]")
    return held


def rollouts(arrays, n: int, rep: int = 1, outputs: bool = True):
    """Play on with ``basic`` from every state of ``arrays`` (mid_game_states' tuple: packed
    hands, sizes, gone, starters, blocked, rounds; each state at the start of a round),
    ``rep`` times each, the state copied before each rollout.

    Returns (final hands uint64[count, n], turns int64[count]: play_on's turns, every seat's
    turn in every round played) with ``outputs``, else the checksum alone (what the timing
    loop calls)."""
    states, starters, blocked, rounds = _state_args(arrays, n)
    count = states.shape[0]
    hands = np.empty((count, n), dtype=np.uint64) if outputs else None
    turns = np.empty(count, dtype=np.int64) if outputs else None
    check = _checked(library().ass_rollouts(
        pointer(states, ctypes.c_uint64), pointer(starters), pointer(blocked), pointer(rounds),
        count, n, rep, pointer(hands, ctypes.c_uint64) if outputs else None,
        pointer(turns) if outputs else None), "rollouts")
    return (hands, turns) if outputs else check


def bench(games: int = 200_000, states=2000, repeats: int = 3, n: int = 4,
          seed: int = 1) -> dict[str, float]:
    """C ns per game (deal, play, bookkeeping, game: as bench_ass_split splits numba's) and
    per rollout from mid-game (``rollout``), best of ``repeats`` by CPU time.

    * deal: the deals alone; play: deals and play without output columns, less the deal;
    * game: deals, play and the kernel's twelve result columns (:func:`game_rows`: fresh
      arrays each call, as the kernel's play_chunk allocates them); bookkeeping: game less
      deal and play;
    * rollout: ``states`` mid-game states (a count, or mid_game_states' arrays), each played
      on max(1, games // count // 4) times per call, as bench_ass_split times play_on.
    """
    lib = library()
    per_player = PER_PLAYER[n]

    def deal_only():
        return _checked(lib.ass_deal_games(seed, 0, games, n, per_player), "deal")

    def deal_play():
        return _checked(lib.ass_play_games(seed, 0, games, n, per_player, None, None), "play")

    ns = {"deal": 1e9 / rate(deal_only, games, repeats)[0]}
    both = 1e9 / rate(deal_play, games, repeats)[0]
    ns["game"] = 1e9 / rate(lambda: game_rows(seed, 0, games, n, per_player), games,
                            repeats)[0]
    ns["play"] = both - ns["deal"]
    ns["bookkeeping"] = ns["game"] - both
    if isinstance(states, int):
        from bench_ass_search import mid_game_states

        states, _ = mid_game_states(states, n)
    count = states[0].shape[0]
    rep = max(1, games // count // 4)
    ns["rollout"] = 1e9 / rate(lambda: rollouts(states, n, rep, outputs=False), count * rep,
                               repeats)[0]
    return ns


def interleaved(rounds: int = 5, games: int = 200_000, states: int = 2000,
                players: tuple[int, ...] = (4, 8)) -> dict:
    """A/B in one process: numba and C, one after the other, ``rounds`` times; per unit the
    medians of the CPU-time ns and of the per-round ratio C/numba (numba's share of C's
    speed), and its lowest and highest. Games: ``kernel.play_chunk`` against
    :func:`game_rows` (each with the kernel's 12 result columns); deal+play:
    bench_ass_split's jitted loop of ``start_game`` + ``play_packed`` against the C engine
    without columns; rollouts (4 players): ``bench_ass_search._rollouts`` (``basic``) against
    :func:`rollouts`, from the same mid-game states, each state played
    max(1, games // states // 4) times per call."""
    from ass_workloads import _deal_play_loop
    from bench_ass_search import _rollouts, mid_game_states

    from analyzer.engines.ass import kernel
    from analyzer.engines.ass.engine import canonical_deck
    from analyzer.engines.kernel import RunSpec
    from strategies.registry import parse_strategy

    arrays, _ = mid_game_states(states, 4)
    basic = parse_strategy("ass", "basic")
    rep = max(1, games // states // 4)
    lib = library()
    pairs = {}
    for n in players:
        spec = kernel.validate(RunSpec("ass", n, ("basic",), 1))
        pairs[f"game, {n} players"] = (
            lambda spec=spec: kernel.play_chunk(spec, 0, games),
            lambda n=n: game_rows(1, 0, games, n), games)
        families, params = kernel.engine_inputs(spec)
        pairs[f"deal+play, {n} players"] = (
            lambda n=n, f=families, p=params: _deal_play_loop(1, games, n, PER_PLAYER[n],
                                                              canonical_deck(), f, p),
            lambda n=n: lib.ass_play_games(1, 0, games, n, PER_PLAYER[n], None, None), games)
    pairs["rollout, 4 players"] = (
        lambda: _rollouts(*arrays, 4, basic.family, basic.values, rep),
        lambda: rollouts(arrays, 4, rep, outputs=False), states * rep)
    for numba_fn, c_fn, _ in pairs.values():  # compile, build, warm
        numba_fn()
        c_fn()
    ns: dict[str, dict[str, list[float]]] = {k: {"numba": [], "c": []} for k in pairs}
    for _ in range(rounds):
        for key, (numba_fn, c_fn, units) in pairs.items():
            ns[key]["numba"].append(1e9 / rate(numba_fn, units, 1)[0])
            ns[key]["c"].append(1e9 / rate(c_fn, units, 1)[0])
    out = {}
    for key, v in ns.items():
        ratios = np.divide(v["c"], v["numba"])
        out[key] = {"numba_ns": float(np.median(v["numba"])), "c_ns": float(np.median(v["c"])),
                    "speed_of_c": float(np.median(ratios)), "lowest": float(ratios.min()),
                    "highest": float(ratios.max())}
    return out


def main(argv: list[str] | None = None) -> None:
    """``python scripts/cbase_ass.py [--rounds 5]``: the interleaved A/B, printed."""
    import argparse

    parser = argparse.ArgumentParser(description=interleaved.__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=200_000)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    res = interleaved(args.rounds, args.games)
    print(f"numba and C interleaved {args.rounds} times in one process, medians of CPU-time "
          "ns (one core)")
    print(f"{'':25} {'numba ns':>9} {'C ns':>7} {'numba speed':>12} {'(lowest..highest)':>18}")
    for key, r in res.items():
        print(f"{key:25} {r['numba_ns']:>9,.0f} {r['c_ns']:>7,.0f} {r['speed_of_c']:>10.2f}xC "
              f"{r['lowest']:>8.2f}..{r['highest']:.2f}")
    print("game: kernel.play_chunk against C's deal, play and the same 12 result columns; "
          "deal+play: bench_ass_split's jitted loop against C without columns; rollout: "
          "bench_ass_search._rollouts (play_on) against C from the same 2,000 states")


if __name__ == "__main__":
    main()

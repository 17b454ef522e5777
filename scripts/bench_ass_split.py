"""Who's the Ass? per game split into deal, play and bookkeeping, and per rollout from
mid-game, numba against the pure-Python reference in the same run (used by scripts/bench.py).

* deal: a jitted loop of ``engine.start_game`` alone (seed the stream, reset, shuffle, deal);
* play: a jitted loop of ``start_game`` + ``engine.play_packed``, less the deal;
* bookkeeping: ``kernel.play_chunk`` (the runner's call: output columns, wrapper, result
  columns) less deal and play;
* rollout: ``rollout.play_on`` (``basic``) from the start of the middle round of recorded
  games (scripts/bench_ass_search.py's states, the copy of the state included).

The reference: ``reference.deal`` alone, ``reference.play_record`` less the deal, and
``reference.play_from`` from the same mid-game states. All figures ns, best of N CPU time.

The C yardstick of issue 13 (scripts/cbase/ass.c through scripts/cbase_ass.py: the same games
and rollouts, held to the numba engine by tests/test_cbase_ass.py) is timed in the same run,
split the same way, and the ratios printed against the issue's targets: numba at least 0.75x
C's speed per game (480 ns against C's 366 where the targets were set) and at least
126/180 = 0.70x per rollout. Without a C compiler a one-line note takes its place.
"""

from __future__ import annotations

import numpy as np
from ass_workloads import _deal_play_loop  # noqa: F401  (the loop timed here and by cbase_ass)
from bench_common import rate
from numba import njit

from analyzer.engines.ass.engine import canonical_deck, start_game
from analyzer.games.ass.cards import DECK_SIZE, VIEW_LEN

# Issue 13's targets as speed ratios numba/C (C ns / numba ns): at least this much of C's speed.
TARGETS = {"game": 0.75, "rollout": 126 / 180}


@njit
def _deal_loop(seed, count, n, per_player, template):
    packed = np.zeros(n, dtype=np.uint64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(DECK_SIZE, dtype=np.uint8)
    taken = np.zeros(n, dtype=np.int64)
    small = template.astype(np.uint8)
    check = np.uint64(0)
    for g in range(count):
        check += np.uint64(start_game(seed, g, n, per_player, small, deck, packed, view, rng,
                                      taken)) + packed[0]
    return check


def _reference_rollouts(arrays, n: int) -> None:
    """reference.play_from (basic everywhere) from every mid-game state."""
    from analyzer.engines.ass.reference import Player, Table, play_from
    from analyzer.games.ass.rules import AssRules
    from analyzer.rng import PyRng
    from strategies.registry import parse_strategy

    states, sizes, gone, starters, blocked, _ = arrays
    basic = parse_strategy("ass", "basic")
    for i in range(states.shape[0]):
        hands = [[int(states[i, s]) >> (4 * k) & 15 for k in range(15)] for s in range(n)]
        table = Table(AssRules(n, int(max(sizes[i]))), hands)
        table.gone = [int(gone[i]) >> (4 * k) & 15 for k in range(15)]
        rng = PyRng(0, i, 0)
        play_from(table, [Player(basic, rng) for _ in range(n)], int(starters[i]),
                  int(blocked[i]))


def bench_split(games: int = 200_000, ref_games: int = 300, states: int = 2000,
                repeats: int = 3, n: int = 4) -> dict:
    """The split of one game and a rollout, numba and reference; ns per unit."""
    from bench_ass_search import _rollouts, mid_game_states

    from analyzer.engines.ass import kernel
    from analyzer.engines.ass.reference import deal, play_record
    from analyzer.engines.kernel import RunSpec
    from analyzer.games.ass.rules import AssRules
    from analyzer.rng import PyRng
    from strategies.registry import parse_strategy, seat_strategies

    spec = kernel.validate(RunSpec("ass", n, ("basic",), 1))  # one strategy per seat
    per_player = spec.rules["per_player"]
    families, params = kernel.engine_inputs(spec)
    template = canonical_deck()
    _deal_loop(1, 10, n, per_player, template)
    _deal_play_loop(1, 10, n, per_player, template, families, params)
    kernel.play_chunk(spec, 0, 10)
    ns = {}
    ns["deal"] = 1e9 / rate(lambda: _deal_loop(1, games, n, per_player, template), games,
                            repeats)[0]
    both = 1e9 / rate(lambda: _deal_play_loop(1, games, n, per_player, template, families,
                                              params), games, repeats)[0]
    total = 1e9 / rate(lambda: kernel.play_chunk(spec, 0, games), games, repeats)[0]
    ns["play"] = both - ns["deal"]
    ns["bookkeeping"] = total - both
    ns["game"] = total
    arrays, _ = mid_game_states(states, n)
    basic = parse_strategy("ass", "basic")
    _rollouts(*arrays, n, basic.family, basic.values, 1)
    rep = max(1, games // states // 4)
    ns["rollout"] = 1e9 / rate(lambda: _rollouts(*arrays, n, basic.family, basic.values, rep),
                               states * rep, repeats)[0]
    c = c_yardstick(games, arrays, repeats, n)  # right after numba: the load changes by minutes
    rules = AssRules.for_players(n)
    field = seat_strategies("ass", ["basic"], n)
    ref = {"deal": 1e9 / rate(lambda: [deal(rules, PyRng(1, i, 0)) for i in range(ref_games)],
                              ref_games, 1)[0]}
    ref["game"] = 1e9 / rate(lambda: [play_record(1, i, field) for i in range(ref_games)],
                             ref_games, 1)[0]
    ref["play"] = ref["game"] - ref["deal"]  # the record's few lists go with play
    ref["bookkeeping"] = 0.0
    few = arrays if states <= ref_games else tuple(a[:ref_games] for a in arrays)
    ref["rollout"] = 1e9 / rate(lambda: _reference_rollouts(few, n), few[0].shape[0], 1)[0]
    return {"players": n, "numba_ns": ns, "reference_ns": ref, **c}


def c_yardstick(games: int, arrays, repeats: int, n: int) -> dict:
    """The C engine's split ({"c_ns": ...}), or {"c_note": why not} without a compiler."""
    from cbaseline import NoCompiler

    try:
        import cbase_ass

        return {"c_ns": cbase_ass.bench(games, arrays, repeats, n)}
    except NoCompiler as exc:
        return {"c_note": f"no C yardstick: {exc}"}


def print_split(res: dict) -> None:
    """Print :func:`bench_split`'s figures as a table (the C yardstick's columns with them)."""
    ns, ref, c = res["numba_ns"], res["reference_ns"], res.get("c_ns")
    print(f"Who's the Ass? ns per game, {res['players']} players, basic, one core "
          "(best of N by CPU time)")
    head = f"{'':12} {'numba ns':>10} {'reference ns':>13} {'speed-up':>9}"
    print(head + (f" {'C ns':>8} {'numba speed':>12}" if c else ""))
    for key in ("deal", "play", "bookkeeping", "game", "rollout"):
        label = "rollout*" if key == "rollout" else key
        speed = f"{ref[key] / ns[key]:>8,.0f}x" if ref[key] > 0 and ns[key] > 0 else ""
        line = f"{label:12} {ns[key]:>10,.0f} {ref[key]:>13,.0f} {speed:>9}"
        if c:
            ratio = f"{c[key] / ns[key]:>10.2f}xC" if c[key] > 0 and ns[key] > 0 else ""
            target = f"  (target >= {TARGETS[key]:.2f}xC)" if key in TARGETS else ""
            line += f" {c[key]:>8,.0f} {ratio:>12}{target}"
        print(line)
    print("* rollout: play_on (basic) from the start of the middle round of recorded games "
          "(reference: play_from)")
    if c:
        verdict = ", ".join(
            f"{key} {c[key] / ns[key]:.2f}x C's speed (numba/C time {ns[key] / c[key]:.2f}): "
            f"{'met' if c[key] / ns[key] >= TARGETS[key] else 'not met'}" for key in TARGETS)
        print("C: scripts/cbase/ass.c, the same games and rollouts (tests/test_cbase_ass.py), "
              "same run; \"0.75xC\" = numba at 0.75 of C's speed. Issue 13's targets: "
              f"{verdict}")
    else:
        print(res.get("c_note", "no C yardstick"))

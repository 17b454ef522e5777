"""cardlab's ``pimc`` against OpenSpiel's IS-MCTS bot at equal thinking time per move.

An outside yardstick: OpenSpiel's own imperfect-information search
(``open_spiel.python.algorithms.ismcts``, information-set MCTS with random rollouts) plays the
games that ``import cardlab.openspiel`` registers. Duplicate format: every deal is played
twice with the same seat as the *hero* and ``basic`` in every other seat, once with cardlab's
``pimc`` as the hero and once with IS-MCTS; the hero seat rotates with the deal. pimc plays
first; its mean CPU time per decision (``time.process_time``, measured on these very moves;
CPU time, not wall-clock time, so that other work on a shared machine does not count) is then
the time IS-MCTS gets for each of its decisions, but never fewer than 2 simulations (the first
only expands the root). A second IS-MCTS hero gets a fixed number of simulations a move
(``--ass-sims``, ``--jass-sims``): how it plays when given far more time. The result is the
per-deal paired difference of the hero's result with its 95% interval (normal approximation
over deals).

Who's the Ass?: one game (the hero's minus points, lower is better). Plus-Minus Jass: one
deal (the hero's sticks, J-9, higher is better; card points beside). Both are played through
cardlab.games (the reference engine step by step: pimc is the engine's own jitted search,
asked through the reference Player, as in ``cardlab simulate``); IS-MCTS sees the position
as cardlab shows a Python bot (the other hands redealt at random from what its seat cannot
see) and redeals them again for each simulation (``resample_from_infostate``).

    PYTHONPATH=. python scripts/openspiel_ismcts.py --deals 40

Needs the optional extra (``pip install -e '.[openspiel]'``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import numpy as np


def _ci(values: list[float]) -> tuple[float, float, float]:
    a = np.asarray(values, dtype=float)
    mean = float(a.mean())
    half = 1.96 * float(a.std(ddof=1)) / math.sqrt(len(a)) if len(a) > 1 else float("nan")
    return mean, mean - half, mean + half


class TimedISMCTS:
    """OpenSpiel's ISMCTSBot, searching for a wall-clock budget instead of a count."""

    def __init__(self, game: Any, seconds: float, uct_c: float, seed: int,
                 simulations: int = 2) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        rs = np.random.RandomState(seed)

        class Bot(ismcts.ISMCTSBot):
            def run_search(inner, state):  # noqa: N805  (ISMCTSBot.run_search, timed)
                inner.reset()
                legal = state.legal_actions()
                if len(legal) == 1:
                    return [(legal[0], 1.0)]
                inner._root_node = inner.create_new_node(state)
                end = time.process_time() + seconds
                n = 0
                # at least 2: the first only expands the root
                while n < max(2, simulations) or time.process_time() < end:
                    inner.run_simulation(inner.sample_root_state(state))
                    n += 1
                self.simulations.append(n)
                return inner.get_final_policy(state, inner._root_node)

        self.simulations: list[int] = []
        self.bot = Bot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c, 1, random_state=rs)
        self.bot.set_resampler(lambda s, p: s.resample_from_infostate(p, None))


class IsmctsSeat:
    """A cardlab bot (act(state, seat)) that asks OpenSpiel's IS-MCTS."""

    name = "ismcts"

    def __init__(self, short_name: str, params: dict[str, Any], seconds: float, uct_c: float,
                 seed: int, simulations: int = 2) -> None:
        import pyspiel

        import cardlab.openspiel  # noqa: F401  (registers the games)

        self.game = pyspiel.load_game(short_name, params)
        self.search = TimedISMCTS(self.game, seconds, uct_c, seed, simulations)
        self.times: list[float] = []

    def act(self, state: Any, seat: int) -> int:
        os_state = self.game.new_initial_state()
        os_state.inner = state
        t = time.process_time()
        action = int(self.search.bot.step(os_state))
        if len(state.legal_actions()) > 1:
            self.times.append(time.process_time() - t)
        return action


def _time_pimc(game: str, times: list[float]) -> Any:
    """Record the time of every pimc decision with more than one legal action; return the
    function that undoes it."""
    if game == "ass":
        from analyzer.engines.ass import reference

        original = reference.Player.move

        def move(self, table, turn, *rest):
            if not self.strategy.label().startswith("pimc"):
                return original(self, table, turn, *rest)
            t = time.process_time()
            out = original(self, table, turn, *rest)
            if len(reference.legal_moves(table.hands[turn.seat], turn)) > 1:
                times.append(time.process_time() - t)
            return out

        reference.Player.move = move
        return lambda: setattr(reference.Player, "move", original)
    else:
        from analyzer.engines.jass.reference import ReferenceJass

        original = ReferenceJass._strategy_card

        def card(self, seat, d, legal, *rest):
            t = time.process_time()
            out = original(self, seat, d, legal, *rest)
            if self.strategies[seat].label().startswith("pimc") and len(legal) > 1:
                times.append(time.process_time() - t)
            return out

        ReferenceJass._strategy_card = card
        return lambda: setattr(ReferenceJass, "_strategy_card", original)


def measure(game: str, players: int, deals: int, seed: int, pimc: str, uct_c: float,
            sims: int = 0) -> dict[str, Any]:
    from cardlab.games.play import play_game

    times: list[float] = []
    undo = _time_pimc(game, times)
    lineup = ["basic"] * players
    lineup[0] = pimc
    play_game(game, seed + 10_000, 0, players, lineup)  # compile the search first
    times.clear()
    results: dict[str, list[list[float]]] = {"pimc": []}
    finals = []
    for i in range(deals):
        hero = i % players
        lineup = ["basic"] * players
        lineup[hero] = pimc
        state = play_game(game, seed, i, players, lineup)
        finals.append((i, hero))
        results["pimc"].append(_hero(game, state, hero))
    undo()
    per_move = float(np.mean(times))
    short = "python_whos_the_ass" if game == "ass" else "python_plus_minus_jass"
    arms = {"ismcts": IsmctsSeat(short, {"players": players}, per_move, uct_c, seed)}
    if sims:
        arms[f"ismcts {sims}"] = IsmctsSeat(short, {"players": players}, 0.0, uct_c, seed, sims)
    for name, seat in arms.items():
        results[name] = []
        for i, hero in finals:
            lineup = ["basic"] * players
            lineup[hero] = seat
            state = play_game(game, seed, i, players, lineup)
            results[name].append(_hero(game, state, hero))
    return {"game": game, "players": players, "deals": deals, "pimc": pimc,
            "pimc_ms": 1000 * per_move, "pimc_moves": len(times),
            "arms": {name: (1000 * float(np.mean(seat.times)), len(seat.times),
                            float(np.mean(seat.search.simulations)))
                     for name, seat in arms.items()},
            "results": results}


def _hero(game: str, state: Any, hero: int) -> list[float]:
    if game == "ass":
        return [float(state.minus_points()[hero])]
    return [float(state.sticks()[hero]), float(state.points()[hero])]


def report(m: dict[str, Any]) -> list[str]:
    what = (["minus points"] if m["game"] == "ass" else ["sticks", "card points"])
    title = "Who's the Ass? games" if m["game"] == "ass" else "Plus-Minus Jass deals"
    lines = [f"{title}, {m['players']} players, {m['deals']} deals (each played once per "
             f"hero), hero `{m['pimc']}` against IS-MCTS, the other seats `basic`. Time per "
             f"decision: pimc {m['pimc_ms']:.1f} ms ({m['pimc_moves']} decisions)"]
    for name, (ms, moves, sims) in m["arms"].items():
        lines[-1] += f"; {name} {ms:.1f} ms ({moves} decisions, {sims:.1f} simulations each)"
    lines += ["", "| hero | " + " | ".join(what) + " |", "|---" * (len(what) + 1) + "|"]
    a = m["results"]["pimc"]
    for name in m["results"]:
        b = m["results"][name]
        cells = []
        for k in range(len(what)):
            mean, lo, hi = _ci([r[k] for r in b])
            cell = f"{mean:.2f} ({lo:.2f} to {hi:.2f})"
            if name != "pimc":
                d, dlo, dhi = _ci([x[k] - y[k] for x, y in zip(a, b, strict=True)])
                cell += f"; pimc - it: {d:+.2f} ({dlo:+.2f} to {dhi:+.2f})"
            cells.append(cell)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=40, help="deals (games) per game")
    p.add_argument("--seed", type=int, default=46)
    p.add_argument("--ass-players", type=int, default=4)
    p.add_argument("--jass-players", type=int, default=3)
    p.add_argument("--ass-pimc", default="pimc")
    p.add_argument("--jass-pimc", default="pimc")
    p.add_argument("--ass-sims", type=int, default=40,
                   help="a second IS-MCTS hero with this many simulations a move (0: none)")
    p.add_argument("--jass-sims", type=int, default=100)
    p.add_argument("--games", default="ass,jass")
    args = p.parse_args(argv)
    start = time.process_time()
    out = []
    for game in args.games.split(","):
        if game == "ass":  # minus points run to tens: UCT's exploration scaled to match
            m = measure("ass", args.ass_players, args.deals, args.seed, args.ass_pimc, 60.0,
                        args.ass_sims)
        else:
            m = measure("jass", args.jass_players, args.deals, args.seed, args.jass_pimc, 2.0,
                        args.jass_sims)
        out += report(m) + [""]
    out.append(f"({time.process_time() - start:.0f} s CPU time)")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

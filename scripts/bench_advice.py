"""Does ``cardlab analyze`` speak with the strongest player's voice, and how fast (issue 44)?

From games in which every seat plays ``pimc`` (its defaults), both games at two player counts
each (Who's the Ass? 4 and 6, Plus-Minus Jass 3 and 4), the positions before ``pimc``'s
non-forced moves are analysed at the analysis's default worlds (as ``cardlab analyze`` does,
the model of its defaults: pimc's worlds and evaluation). A position *agrees* when the
analysis's best move is the move ``pimc`` played, or ``pimc``'s move is within noise of the
best (its loss is not clear: the paired, selection-widened 95% interval of the loss reaches
0). Printed per game: the share that agrees (the aim: 95% or more) with its 95% interval, the
positions counted by the game (or deal) they come from, the unit that was randomised
(analyzer/stats/intervals.py ``clustered_share_interval``), the share where the best
is ``pimc``'s very move, and seconds per position (process CPU time, one core, after a
warm-up call that compiles or loads the kernels; the aim: 1 s or less). ``pimc``'s own move
carries its own sampling noise (Plus-Minus Jass: 24 worlds per decision, more on close
calls), and so does the share that agrees (a single move per position);
``--modal K`` also measures the agreement with the move ``pimc`` plays most often over K seeds
of its own, and the chance that a move of pimc's agrees (the share of its K seeds' moves that
agree, averaged over the positions: the expected agreement, without the noise of one move per
position; with its interval, counted by game as well; and per player count).

The positions: game after game of a run of seed ``--seed`` (index 0, 1, ...), every
``--stride``-th non-forced ``pimc`` move of each game, until ``--positions`` per game.
``--table NAME`` takes them from games where ``pimc`` sits in seat 0 among ``NAME`` players
instead (``pimc``'s moves only): the same question in another field. Where a position does
not agree, the line also says what ``pimc``'s move costs by the analysis (its loss against
the best), so a gap can be read in the game's own units.

Run: ``NUMBA_NUM_THREADS=1 .venv/bin/python scripts/bench_advice.py --positions 200``
(``--positions 20`` for a smoke run; ``--worlds N`` and ``--continuation NAME`` to try other
settings). A benchmark, not a test: the numbers depend on the machine and the seed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis import ass, jass  # noqa: E402
from analyzer.analysis.model import unit_words  # noqa: E402
from analyzer.analysis.values import loss_of  # noqa: E402
from analyzer.engines.ass.records import Tracer  # noqa: E402
from analyzer.engines.jass.records import trace_record  # noqa: E402
from analyzer.engines.kernel import RunSpec  # noqa: E402
from analyzer.games.jass.primitives import S_N  # noqa: E402
from analyzer.stats.intervals import clustered_share_interval  # noqa: E402

PLAYERS = {"ass": (4, 6), "jass": (3, 4)}


def seating(players: int, table: str | None) -> tuple[str, ...]:
    """Every seat ``pimc``; with ``table``, ``pimc`` in seat 0 and ``table`` in the others."""
    return ("pimc",) * players if table is None else ("pimc",) + (table,) * (players - 1)


def ass_positions(seed: int, players: int, stride: int, table: str | None = None):
    """(position, the move pimc played there, the game's index) of pimc's non-forced moves,
    game after game (with ``table``: the moves of seat 0, pimc, among ``table`` players)."""
    tracer = Tracer(RunSpec("ass", players, seating(players, table), seed))
    index = 0
    while True:
        record, status = tracer.record(index)
        assert status < 0, "an illegal move (engine bug)"
        taken = 0
        for k, (r, p) in enumerate(ass.plays_of(record)):
            rnd = record["rounds"][r]
            pos = ass.from_record(record, k)
            if (table is not None and pos.info["seat"] != 0) or ass.count_legal(pos) < 2:
                continue
            taken += 1
            if taken % stride == 0:
                play = rnd["plays"][p]
                yield pos, ass.move_text(ass.record_move(play, rnd["ass_round"]),
                                         rnd["ass_round"], p), index
        index += 1


def jass_positions(seed: int, players: int, stride: int, table: str | None = None):
    """(position, the card pimc played there, the deal's index) of pimc's non-forced moves,
    deal after deal (with ``table``: the moves of seat 0, pimc, among ``table`` players)."""
    spec = RunSpec("jass", players, seating(players, table), seed, mode="deals",
                   rules={"ruleset": "seed", "deal_cap": 200})
    index = 0
    while True:
        record = trace_record(spec, index)
        for d, deal in enumerate(record["deals"]):
            cards = [c for t in deal["tricks"] for c in t["cards"]]
            taken = 0
            for k, played in enumerate(cards):
                pos = jass.from_record(record, d, k)
                if (table is not None and pos.seat != 0) or len(jass.legal_cards(pos)) < 2:
                    continue
                taken += 1
                if taken % stride == 0:
                    yield pos, played, index
        index += 1


def run(game: str, args) -> list[dict]:
    """The positions of ``game``, analysed at each worlds count asked for."""
    module = ass if game == "ass" else jass
    source = ass_positions if game == "ass" else jass_positions
    extra = {} if args.continuation is None else {"continuation": args.continuation}
    counts = PLAYERS[game]
    picked = []
    for i, n in enumerate(counts):  # the positions split between the player counts
        want = args.positions // len(counts) + (i < args.positions % len(counts))
        gen = source(args.seed, n, args.stride, args.table)
        picked += [next(gen) for _ in range(want)]
    out = []
    for worlds in args.worlds or [module.DEFAULT_WORLDS]:
        module.analyze(picked[0][0], worlds, args.seed, 0, **extra)  # warm-up: compile, load
        same = modal_agree = 0
        oks, chances = [], []
        # the unit randomised is the game (deal): positions of one game are not independent
        games = [f"{players_of(game, pos)}:{index}" for pos, _, index in picked]
        by_players = Counter()
        positions = Counter(players_of(game, pos) for pos, _, _ in picked)
        times = []
        costs = []
        for i, (pos, played, _) in enumerate(picked):
            began = time.process_time()
            result = module.analyze(pos, worlds, args.seed, i, **extra)
            times.append(time.process_time() - began)
            ok = _agrees(game, result["moves"], played)
            oks.append(float(ok))
            if not ok:  # what pimc's move costs where the analysis calls it clearly worse
                costs.append(loss_of(game, next(r for r in result["moves"]
                                                if r["move"] == played))[0])
            by_players[players_of(game, pos)] += ok
            same += result["moves"][0]["move"] == played
            if args.modal:
                moves = picks(game, pos, args.modal, i)
                # pimc's decision without its own sampling noise: its most frequent move
                # (ties: the first seen), and the chance that one of its moves agrees
                modal_agree += _agrees(game, result["moves"], Counter(moves).most_common(1)[0][0])
                chances.append(sum(_agrees(game, result["moves"], m) for m in moves) / len(moves))
        agree = clustered_share_interval(oks, games)  # its value: the share that agrees
        out.append({"game": game, "players": counts, "positions": len(picked),
                    "worlds": worlds, "agree": agree.value, "agree_ci": agree,
                    "agree_by_players": {n: by_players[n] / positions[n] for n in counts},
                    "same": same / len(picked), "mean_s": sum(times) / len(times),
                    "max_s": max(times), "model": result["model"], "costs": costs,
                    "modal": modal_agree / len(picked) if args.modal else None,
                    "chance": clustered_share_interval(chances, games) if args.modal
                    else None,
                    "chance_by_players": {n: clustered_share_interval(
                        [c for c, g in zip(chances, games, strict=True)
                         if g.startswith(f"{n}:")],
                        [g for g in games if g.startswith(f"{n}:")])
                        for n in counts if positions[n]} if args.modal else None})
    return out


def players_of(game: str, pos) -> int:
    """The player count of a position."""
    return int(pos.info["players"]) if game == "ass" else int(pos.st[S_N])


def _agrees(game: str, rows: list[dict], move: str) -> bool:
    """The best move is ``move``, or ``move``'s loss is not clear (within noise)."""
    row = next(r for r in rows if r["move"] == move)
    _, low, _ = loss_of(game, row)
    return row["best"] or low is None or not low > 0


def _ends(est) -> str:
    """An interval's ends as "[low, high]" in percent."""
    return f"[{est.low:.1%}, {est.high:.1%}]"


def _cost_words(game: str, costs: list[float]) -> str:
    """Where the analysis calls pimc's move clearly worse, what it costs by the analysis."""
    if not costs:
        return ""
    return (f"; where they disagree ({len(costs)}), pimc's move costs {np.mean(costs):.3f} "
            f"{unit_words(game)} on average by the analysis (median {np.median(costs):.3f}, "
            f"max {max(costs):.3f})")


def picks(game: str, pos, k: int, i: int) -> list[str]:
    """The moves pimc (defaults) plays here with ``k`` seeds of its own (1000, 1001, ...)."""
    if game == "ass":
        ass_round, p = bool(pos.info["ass_round"]), int(pos.info["position_in_round"])
        return [ass.move_text(ass.pimc_move(pos, 1000 + s, i), ass_round, p) for s in range(k)]
    from analyzer.games.jass.cards import card_name

    return [card_name(jass.pimc_card(pos, 1000 + s, i)) for s in range(k)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200, help="positions per game (>= 1)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the games and the analysis")
    ap.add_argument("--stride", type=int, default=3, help="every k-th non-forced pimc move")
    ap.add_argument("--game", choices=("ass", "jass", "all"), default="all")
    ap.add_argument("--worlds", type=lambda t: [int(x) for x in t.split(",")], default=None,
                    help="worlds per position, or several separated by commas (default: the "
                    "analysis's own)")
    ap.add_argument("--continuation", default=None, help="default: pimc's own evaluation")
    ap.add_argument("--table", default=None, help="positions from games where pimc sits in "
                    "seat 0 among players of this strategy (its moves only; default: every "
                    "seat pimc)")
    ap.add_argument("--modal", type=int, default=0, help="also: agreement with the move pimc "
                    "plays most often over this many seeds of its own, and the chance that one "
                    "of its moves agrees (0: not measured)")
    args = ap.parse_args(argv)
    if args.positions < 1 or args.stride < 1:
        ap.error("--positions and --stride must be 1 or more")
    games = ("ass", "jass") if args.game == "all" else (args.game,)
    if args.table is not None:
        from strategies.registry import StrategyError, parse_strategy

        for game in games:
            try:
                parse_strategy(game, args.table)
            except StrategyError as e:
                ap.error(f"--table: {e}")
    for game in games:
        field = "all pimc" if args.table is None else f"pimc among {args.table}"
        for r in run(game, args):
            print(f"{game} ({' and '.join(map(str, r['players']))} players, {field}), seed "
                  f"{args.seed}: {r['positions']} non-forced positions at {r['worlds']:,} "
                  f"worlds: best = pimc's move or within noise {r['agree']:.1%} "
                  f"{_ends(r['agree_ci'])} (aim >= 95%; "
                  + ", ".join(f"{v:.1%} at {n} players" for n, v in r["agree_by_players"].items())
                  + "), "
                  f"best = pimc's move {r['same']:.1%}; {r['mean_s']:.3f} s per position "
                  f"(max {r['max_s']:.3f}; aim <= 1 s)" + _cost_words(game, r["costs"]) + (
                      "" if r["modal"] is None else
                      f"; best = pimc's most frequent move over {args.modal} seeds or within "
                      f"noise {r['modal']:.1%}; the chance that a move of pimc's agrees (its "
                      f"{args.modal} seeds' moves, averaged over the positions) "
                      f"{r['chance'].value:.1%} {_ends(r['chance'])} ("
                      + ", ".join(f"{c.value:.1%} {_ends(c)} at {n} players"
                                  for n, c in r["chance_by_players"].items()) + ")")
                  + f". {r['model']}",
                  flush=True)


if __name__ == "__main__":
    main()

"""The strongest player's targets (issue 44, item 1), measured side by side in one run.

For each game at two player counts (Who's the Ass? 4 and 6, Plus-Minus Jass 3 and 4):

* speed as one seat: units (Ass games, Jass deals) per CPU second of a table with the named
  player in seat 0 and the cheap policy (``basic`` in Who's the Ass?, ``aim-low`` in Jass) in
  the others, and its ratio to a table of the cheap policy alone, measured in the same run
  (the ratio is what compares across machines); the last column, the candidate's ratio over
  today's ``pimc``'s (with ``--jass-mode matches`` also per deal played: a match lasts as
  many deals as the seat's play makes it). Every table is timed in ``--speed-rounds`` rounds
  (default 3), each round timing all of them one after the other on the same units; rates
  and ratios are medians over the rounds (on a shared machine a single timing of the same
  work moved by a third while another job ran: 0.66 to 1.12 times ``pimc-rollouts``'s speed
  for one player);
* head to head on the same deals, seats rotated (``cardlab.compare``: the duplicate format,
  paired over deals, 95% intervals): the candidate against ``pimc:rollout=learned`` (in Who's
  the Ass? with its knobs and its learned as they were when it was measured: 128 worlds,
  infer=policy, the linear model now called ``learned-linear``) and
  against today's ``pimc`` as the issue found it (the preset ``pimc-rollouts`` in each game,
  pimc's defaults before the value model; the candidate is ``pimc`` with its defaults now).

Differences are the candidate minus the other, in the game's own metric (Who's the Ass?:
minus points per game, lower is better; Jass: the mode's metric, higher is better).

Run: ``NUMBA_NUM_THREADS=1 .venv/bin/python scripts/bench_strongest.py --games 300 --seed 1``
(``--speed-games N`` units per speed table, ``--speed-rounds R``, ``--players N`` one
player count,
``--ass-candidate``/``--jass-candidate`` the
player measured, ``--jass-mode deals|matches``, ``--json``, ``--game ass|jass``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHEAP = {"ass": "basic", "jass": "aim-low"}
PLAYERS = {"ass": (4, 6), "jass": (3, 4)}
CANDIDATE = {"ass": "pimc",  # its defaults: the value model at the leaves, 48 worlds
             "jass": "pimc"}  # its defaults: the value leaves, worlds by the player count, focus=2
# pimc as the issue found it ("today's pimc"): Who's the Ass?'s defaults before the value model
TODAY = {"ass": "pimc-rollouts", "jass": "pimc-rollouts"}
# the strong player with its knobs as they were (Who's the Ass?'s worlds and infer defaults
# have changed since, and its learned is a network now: the linear learned of then is
# learned-linear; Plus-Minus Jass's worlds and focus defaults have changed since)
STRONGS = {"ass": "pimc:worlds=128,rollout=learned-linear,infer=policy",  # as it was measured
           "jass": "pimc:worlds=16,rollout=learned,focus=0"}


def speed(game: str, players: int, player: str, units: int,
          mode: str) -> tuple[float, float | None]:
    """Units per CPU second of ``player`` in seat 0 among the cheap policy (after a warm-up
    unit that compiles or loads the kernels), and deals per CPU second (Jass matches: a match
    lasts as many deals as the table's play makes it, so its speed also depends on how the
    seat plays; None otherwise: the units are the deals or games)."""
    from analyzer.engines.kernel import RunSpec

    kernel = importlib.import_module(f"analyzer.engines.{game}.kernel")
    extra = {"mode": mode} if game == "jass" else {}
    spec = RunSpec(game, players, (player,) + (CHEAP[game],) * (players - 1), 1, **extra)
    kernel.play_chunk(spec, 0, 1)
    start = time.process_time()
    out = kernel.play_chunk(spec, 1, units)
    spent = max(time.process_time() - start, 1e-9)
    if game == "jass" and mode == "matches":
        return units / spent, int(out["deals"][out["seat"] == 0].sum()) / spent
    return units / spent, None


def head_to_head(game: str, players: int, a: str, b: str, games: int, seed: int,
                 mode: str) -> dict:
    """``a`` minus ``b`` on the same deals, seats rotated (cardlab.compare), paired."""
    import cardlab

    result = cardlab.compare(game, [a, b], players=players, games=games, seed=seed,
                             mode=mode if game == "jass" else "", workers=1)
    row = result.pairs.iloc[0]
    # the pairs name a strategy by its label (knobs in the catalogue's order, so not always
    # as written here): ``b`` is written as labelled, so the side is told by it
    if row["b"] == b:
        sign = 1.0
    elif row["a"] == b:
        sign = -1.0
    else:
        raise SystemExit(f"cannot tell the sides of {row['a']!r} - {row['b']!r}")
    low, high = sorted((sign * float(row["low"]), sign * float(row["high"])))
    return {"a": a, "b": b, "difference": sign * float(row["difference"]), "low": low,
            "high": high, "units": int(row["n_units"]),
            "metric": result.manifest.get("metric", "")}


def run(games: int, speed_games: int, seed: int, which: list[str], candidates: dict,
        jass_mode: str, rounds: int = 3, only: tuple[int, ...] = ()) -> list[dict]:
    rows = []
    for game in which:
        for n in PLAYERS[game]:
            if only and n not in only:
                continue
            cand = candidates[game]
            row = {"game": game, "players": n, "candidate": cand}
            row.update(speeds(game, n, {"pimc": TODAY[game], "strong": STRONGS[game],
                                        "candidate": cand}, speed_games, jass_mode, rounds))
            row["vs_strong"] = head_to_head(game, n, cand, STRONGS[game], games, seed, jass_mode)
            row["vs_pimc"] = head_to_head(game, n, cand, TODAY[game], games, seed, jass_mode)
            rows.append(row)
            print(line(row), flush=True)
    return rows


def speeds(game: str, n: int, players: dict[str, str], units: int, mode: str,
           rounds: int) -> dict:
    """The speed columns of a row: ``rounds`` rounds, each timing the cheap table and then
    every player of ``players`` (label: strategy) on the same units, one after the other; a
    rate is the median over the rounds, a ratio the median of the rounds' own ratios (a
    machine that slows down for a while, another job on the other core, moves every timing of
    a round alike and leaves its ratios as they were). ``speed_ratio``: the candidate's
    over today's pimc's (``deal_speed_ratio``: per deal played, Jass matches)."""
    from statistics import median

    cheap, cheap_deals, rate, deals = [], [], {k: [] for k in players}, {k: [] for k in players}
    for _ in range(rounds):
        c, cd = speed(game, n, CHEAP[game], max(units * 50, 1000), mode)
        cheap.append(c)
        cheap_deals.append(cd)
        for label, player in players.items():
            r, d = speed(game, n, player, units, mode)
            rate[label].append(r)
            deals[label].append(d)
    row = {"cheap_rate": median(cheap), "rounds": rounds}
    for label in players:
        row[f"{label}_rate"] = median(rate[label])
        row[f"{label}_ratio"] = median(r / c for r, c in zip(rate[label], cheap, strict=True))
        row[f"{label}_deal_ratio"] = None if deals[label][0] is None else median(
            d / c for d, c in zip(deals[label], cheap_deals, strict=True))
    row["speed_ratio"] = median(a / b for a, b in zip(rate["candidate"], rate["pimc"],
                                                      strict=True))
    row["deal_speed_ratio"] = None if deals["candidate"][0] is None else median(
        a / b for a, b in zip(deals["candidate"], deals["pimc"], strict=True))
    return row


HEADER = (f"{'game':5} {'n':>2} | {'pimc u/s':>9} {'ratio':>8} | {'strong u/s':>10} "
          f"{'ratio':>8} | {'cand u/s':>9} {'ratio':>8} | {'cand - strong (95%)':>24} | "
          f"{'cand - pimc (95%)':>24} | {'cand / pimc speed':>17}")


def _diff(d: dict) -> str:
    return f"{d['difference']:+.2f} [{d['low']:+.2f}, {d['high']:+.2f}]"


def line(row: dict) -> str:
    return (f"{row['game']:5} {row['players']:>2} | {row['pimc_rate']:9.1f} "
            f"{row['pimc_ratio']:8.2e} | {row['strong_rate']:10.1f} {row['strong_ratio']:8.2e} | "
            f"{row['candidate_rate']:9.1f} {row['candidate_ratio']:8.2e} | "
            f"{_diff(row['vs_strong']):>24} | {_diff(row['vs_pimc']):>24} | "
            f"{row['speed_ratio']:5.2f}" + (
                "" if row["deal_speed_ratio"] is None else
                f" ({row['deal_speed_ratio']:.2f}/deal)"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="deals per head-to-head")
    parser.add_argument("--speed-games", type=int, default=20, help="units per speed table")
    parser.add_argument("--speed-rounds", type=int, default=3,
                        help="rounds of speed tables, interleaved; medians over them")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=("ass", "jass"), action="append")
    parser.add_argument("--ass-candidate", default=CANDIDATE["ass"])
    parser.add_argument("--jass-candidate", default=CANDIDATE["jass"])
    parser.add_argument("--jass-mode", choices=("deals", "matches"), default="deals")
    parser.add_argument("--players", type=int, action="append", default=[],
                        help="only this player count (repeatable; default: both of each game)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 2 or args.speed_games < 1 or args.speed_rounds < 1:
        parser.error("--games must be at least 2, --speed-games and --speed-rounds at least 1")
    which = args.game or ["ass", "jass"]
    known = sorted({n for g in which for n in PLAYERS[g]})
    if any(n not in known for n in args.players):
        parser.error(f"--players must be one of {', '.join(map(str, known))}")
    print(f"seed {args.seed}, {args.games} deals per head-to-head; speed: units per CPU "
          f"second as one seat among {CHEAP['ass']} / {CHEAP['jass']}, ratio to a table of "
          f"those alone; strong = {', '.join(STRONGS[g] for g in which)}; differences "
          f"candidate minus other (Ass: minus points, lower is better; Jass {args.jass_mode}: "
          "higher is better)")
    print(HEADER, flush=True)
    rows = run(args.games, args.speed_games, args.seed, which,
               {"ass": args.ass_candidate, "jass": args.jass_candidate}, args.jass_mode,
               args.speed_rounds, tuple(args.players))
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

"""Benchmark of the Plus-Minus Jass engines on one core.

Deals and matches per second of the numba engine (the kernel's ``play_chunk``, called as a run
calls it: in chunks of the runner's size for the mode, ``--chunk`` for another) and of the
pure-Python reference engine, in the same run, for 3 and 4 players with ``basic`` everywhere
(``--strategy`` for another field), plus the process's peak memory and, with ``--compile``,
the first-call time with an empty and with a warm numba cache.

Also (``split``) the nanoseconds of one 4-player ``basic`` deal split into the deal (shuffle
and packets), the play (aims and 36 cards) and the bookkeeping (points, sticks, the chunk's
output columns), the nanoseconds of one rollout from the trump-fixing card
(``strategies.jass.loop.rollout``, the search's playout, from a packed state) and
(``search``) the speed of one ``pimc`` seat among ``basic`` players: deals/s, rollouts/s and
the cost of a rollout card against the plain engine's cost per card.

Beside them (``c``), issue 13's yardstick: the hand-written C engine of the same rules
(scripts/cbase/jass.c, built by scripts/cbaseline.py, checked against numba by
tests/test_cbase_jass.py; ``basic`` and the ``seed`` rule set only), timed the same way in the
same run: ns per single deal, per deal of a match and per rollout from the trump-fixing card,
and numba's speed as a fraction of C's (C ns / numba ns) against the issue's targets. Without a
C compiler a one-line note takes its place.

Run: ``.venv/bin/python scripts/bench_jass.py`` (about a minute); ``--quick`` for a smoke run.
Timings on a shared machine are noisy: the figures are the best of N by process CPU time,
wall-clock figures beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
if "numba" not in sys.modules:  # one core (the kernels are serial); numba refuses a change
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # once its threads run (the test suite)


from bench_common import chunk_units, in_chunks, peak_rss_mb, probe_compile, rate  # noqa: E402
from jass_workloads import _cpu, _deal_and_play, _deal_only, _fix_states, _rollouts  # noqa: E402,F401

from analyzer.engines.jass import engine  # noqa: E402

_COMPILE_PROBE = """
import json, time
t0 = time.perf_counter()
from analyzer.engines.jass import kernel
from analyzer.engines.kernel import RunSpec
kernel.play_chunk(RunSpec("jass", 4, ("basic",), 1, mode="deals"), 0, 1)
t1 = time.perf_counter()
kernel.warmup()
t2 = time.perf_counter()
print(json.dumps({"first_deal_s": t1 - t0, "all_kernels_s": t2 - t0}))
"""


PLURAL = {"deal": "deals", "match": "matches"}


def bench_jass(
    players: tuple[int, ...] = (3, 4),
    deals: int = 400_000,
    matches: int = 40_000,
    ref_deals: int = 2_000,
    ref_matches: int = 150,
    repeats: int = 3,
    strategy: str = "basic",
    ruleset: str = "seed",
    compile_probe: bool = False,
    split: bool = True,
    search: tuple[str, ...] = (),
    search_deals: int = 200,
    chunk: int | None = None,
    c_engine: bool = True,
) -> dict[str, object]:
    """Measure the numba engine and the reference engine; return the figures as a dict.

    Each row: players, engine (numba/reference), unit (deal/match), count, per-second rates
    by CPU time and by wall time. numba plays each measurement's units in ``play_chunk`` calls
    of ``chunk`` units as the runner does (None: the runner's chunk size for the mode; 0: one call,
    bench_common.in_chunks), its result columns allocated once per call. With ``c_engine``, the C
    yardstick's figures under ``c`` (or why not, under ``c_note``).
    """
    from analyzer.engines.jass import kernel
    from analyzer.engines.jass.reference import ReferenceJass
    from analyzer.engines.kernel import RunSpec
    from analyzer.games.jass.rules import make_rules
    from strategies.registry import seat_strategies

    rows = []
    rules = {"ruleset": ruleset}
    for n in players:
        for mode, count in (("deals", deals), ("matches", matches)):
            spec = RunSpec("jass", n, (strategy,), seed=1, mode=mode, rules=rules)
            kernel.play_chunk(spec, 0, 10)  # compile or load from the cache
            run = in_chunks(lambda start, k, s=spec: kernel.play_chunk(s, start, k), count,
                            chunk, game="jass", mode=mode)
            cpu, wall = rate(run, count, repeats)
            rows.append({"players": n, "engine": "numba", "unit": kernel.UNIT[mode],
                         "count": count, "per_s_cpu": cpu, "per_s_wall": wall})
        ref = ReferenceJass(make_rules(n, rules), seat_strategies("jass", [strategy], n))
        ref.play_single_deal(1, 0)  # jitted policies called from Python compile on first use
        cpu, wall = rate(lambda r=ref: [r.play_single_deal(1, i) for i in range(ref_deals)],
                          ref_deals, 1)
        rows.append({"players": n, "engine": "reference", "unit": "deal", "count": ref_deals,
                     "per_s_cpu": cpu, "per_s_wall": wall})
        cpu, wall = rate(lambda r=ref: [r.play_match(1, i) for i in range(ref_matches)],
                          ref_matches, 1)
        rows.append({"players": n, "engine": "reference", "unit": "match",
                     "count": ref_matches, "per_s_cpu": cpu, "per_s_wall": wall})
    result: dict[str, object] = {"strategy": strategy, "ruleset": ruleset, "rows": rows,
                                 "peak_rss_mb": peak_rss_mb()}
    c_lib = None
    if c_engine:
        c_lib, note = _c_engine(strategy, ruleset)
        if c_lib is None:
            result["c_note"] = note
    if split:
        result["split"] = bench_split(deals=max(deals // 2, 1_000), repeats=repeats,
                                      c_lib=c_lib)
    if c_lib is not None:
        result["c"] = bench_c(c_lib, rows, players, deals, matches, repeats,
                              result.get("split"), chunk)
    result["search"] = [bench_search(s, deals=search_deals) for s in search]
    if compile_probe:
        with tempfile.TemporaryDirectory() as cold:
            result["compile_cold"] = probe_compile(_COMPILE_PROBE, cold)
            result["compile_warm"] = probe_compile(_COMPILE_PROBE, cold)
    return result


def bench_split(deals: int = 200_000, repeats: int = 3, n: int = 4,
                c_lib=None) -> dict[str, float]:
    """ns per 4-player basic deal of the general loop (the one every table but ``basic``
    alone under ``seed`` plays): deal, play, bookkeeping (the rest of its chunk kernel,
    ``engine.deals_chunk``); the default run's ``play_chunk`` (the ``basic``-alone loop,
    analyzer/engines/jass/basic_play.py) beside it (``default_ns``); and ns per rollout from
    the trump-fixing card (best of ``repeats``);
    with ``c_lib`` (scripts/cbase_jass.load()) also the C engine's rollout of the same states,
    measured the same way (``c_rollout_ns``)."""
    from analyzer.engines.jass import kernel
    from analyzer.engines.kernel import RunSpec
    from strategies.registry import engine_arrays, seat_strategies

    fams, prms = engine_arrays(seat_strategies("jass", ["basic"], n))
    spec = RunSpec("jass", n, ("basic",), seed=1, mode="deals")
    def general():
        return engine.deals_chunk(1, 0, deals, n, False, fams, prms, None)

    _deal_only(1, 10, n), _deal_and_play(1, 10, n, fams, prms), kernel.play_chunk(spec, 0, 10)
    engine.deals_chunk(1, 0, 10, n, False, fams, prms, None)
    deal = min(_cpu(lambda: _deal_only(1, deals, n)) for _ in range(repeats)) / deals
    both = min(_cpu(lambda: _deal_and_play(1, deals, n, fams, prms))
               for _ in range(repeats)) / deals
    total = min(_cpu(general) for _ in range(repeats)) / deals
    default = min(_cpu(lambda: kernel.play_chunk(spec, 0, deals))
                  for _ in range(repeats)) / deals
    out_u, out_s, rows = _fix_states(1, min(deals, 50_000), n, fams, prms)
    reps = max(1, deals // max(rows, 1))
    for play in (0, 1, 2):
        _rollouts(out_u, out_s, rows, fams, prms, 1, play)
    with_play = min(_cpu(lambda: _rollouts(out_u, out_s, rows, fams, prms, reps, 1))
                    for _ in range(repeats))
    traced = min(_cpu(lambda: _rollouts(out_u, out_s, rows, fams, prms, reps, 2))
                 for _ in range(repeats))
    copy_only = min(_cpu(lambda: _rollouts(out_u, out_s, rows, fams, prms, reps, 0))
                    for _ in range(repeats))
    cards = _rollouts(out_u, out_s, rows, fams, prms, 1, 0)[1] / rows
    per_rollout = (with_play - copy_only) / (rows * reps)
    per_traced = (traced - copy_only) / (rows * reps)
    ns = 1e9
    out = {"deal_ns": deal * ns, "play_ns": (both - deal) * ns,
           "bookkeeping_ns": (total - both) * ns, "total_ns": total * ns,
           "default_ns": default * ns,
           "rollout_ns": per_rollout * ns, "rollout_cards": cards,
           "run_deal_ns": per_traced * ns,
           "rollout_ns_per_card": per_rollout * ns / cards, "play_ns_per_card": (both - deal)
           * ns / 36}
    if c_lib is not None:
        import cbase_jass

        c = cbase_jass.time_rollouts(out_u, out_s, rows, reps, repeats, c_lib)
        if c["checksum"] != _rollouts(out_u, out_s, rows, fams, prms, 1, 1)[0]:
            raise RuntimeError("the C and numba rollouts of the same states differ")
        out["c_rollout_ns"] = c["rollout_ns"]
        out["c_rollout_ns_per_card"] = c["rollout_ns_per_card"]
        out["c"] = cbase_jass.time_split(n, deals, repeats, lib=c_lib)
    return out


def _c_engine(strategy: str, ruleset: str):
    """The built C engine, or None and the reason in one line."""
    if strategy != "basic" or ruleset != "seed":
        return None, "only for basic under the seed rule set"
    import cbase_jass
    import cbaseline

    try:
        return cbase_jass.load(), ""
    except cbaseline.NoCompiler as exc:
        return None, str(exc)


def bench_c(lib, rows, players, deals, matches, repeats, split,
            chunk: int | None = None) -> dict[str, object]:
    """The C engine timed as the numba rows were (same counts, best of ``repeats`` by CPU
    time), and numba's speed as a fraction of C's (C ns / numba ns) per player count and
    mode: ``ratio`` against C writing the kernel's columns into fresh arrays in the same
    chunks as numba (the same work), ``ratio_buffer`` against C writing int64 rows into one
    reused buffer; with the rollout of the split's states when there is a split."""
    import cbase_jass

    c = cbase_jass.bench(players, deals, matches, repeats, lib=lib, chunk=chunk)
    numba = {(r["players"], r["unit"]): r["per_s_cpu"] for r in rows
             if r["engine"] == "numba"}
    ratios = []
    for r in c["rows"]:  # type: ignore[union-attr]
        per_unit = 1e9 / numba[(r["players"], r["unit"])]
        numba_ns = per_unit if r["unit"] == "deal" else per_unit / r["deals_per_match"]
        ratios.append({"players": r["players"], "unit": r["unit"],
                       "c_ns": r["ns_per_deal_rows"], "c_buffer_ns": r["ns_per_deal"],
                       "numba_ns": numba_ns, "ratio": r["ns_per_deal_rows"] / numba_ns,
                       "ratio_buffer": r["ns_per_deal"] / numba_ns,
                       "target": cbase_jass.TARGETS[r["unit"]]})
    if split and "c_rollout_ns" in split:
        ratios.append({"players": 4, "unit": "rollout", "c_ns": split["c_rollout_ns"],
                       "numba_ns": split["rollout_ns"],
                       "ratio": split["c_rollout_ns"] / split["rollout_ns"],
                       "target": cbase_jass.TARGETS["rollout"]})
    return {"flags": " ".join(cbase_jass.cbaseline.FLAGS), "rows": c["rows"],
            "ratios": ratios}


def bench_search(strategy: str = "pimc", deals: int = 200, n: int = 4) -> dict[str, float]:
    """One search seat (seat 0) among basic players, single deals: deals/s by CPU time, and the
    rollouts it plays per second (worlds x candidates searched, counted from the records)."""
    from analyzer.engines.jass import kernel
    from analyzer.engines.jass.records import trace_record
    from analyzer.engines.jass.reference import legal_cards
    from analyzer.engines.kernel import RunSpec
    from analyzer.games.jass.cards import parse_card
    from strategies.registry import parse_strategy

    field = (strategy,) + ("basic",) * (n - 1)
    spec = RunSpec("jass", n, field, seed=1, mode="deals")
    kernel.play_chunk(spec, 0, 2)
    cpu = _cpu(lambda: kernel.play_chunk(spec, 0, deals))
    worlds = parse_strategy("jass", strategy).values[0]
    cap = int(parse_strategy("jass", strategy).values[2])
    cands = 0
    sample = min(deals, 40)
    for i in range(sample):  # candidates searched per deal, from the records
        deal = trace_record(spec, i)["deals"][0]
        hands = [[parse_card(c) for c in h] for h in deal["hands"]]
        trump = -1
        for trick in deal["tricks"]:
            cards: list[int] = []
            for pos, name in enumerate(trick["cards"]):
                seat = (trick["leader"] + pos) % n
                c = parse_card(name)
                if seat == 0:
                    k = len(legal_cards(hands[0], cards, trump, "seed"))
                    if k >= 2:
                        cands += min(k, cap) if cap > 0 else k
                if trump < 0 and cards and c // 9 != cards[0] // 9:
                    trump = c // 9
                hands[seat].remove(c)
                cards.append(c)
    rollouts_per_deal = worlds * cands / sample
    return {"strategy": strategy, "deals_per_s": deals / cpu,
            "rollouts_per_deal": rollouts_per_deal,
            "rollouts_per_s": rollouts_per_deal * deals / cpu}


def print_jass(result: dict[str, object]) -> None:
    print(f"Plus-Minus Jass, strategy {result['strategy']}, rule set {result['ruleset']}, "
          "one core (best of N by CPU time; wall time in brackets)")
    for r in result["rows"]:  # type: ignore[union-attr]
        print(f"  {r['players']} players  {r['engine']:<9} {PLURAL[r['unit']] + '/s':<10} "
              f"{r['per_s_cpu']:>12,.0f}  ({r['per_s_wall']:,.0f} wall)")
    numba = {(r["players"], r["unit"]): r["per_s_cpu"] for r in result["rows"]
             if r["engine"] == "numba"}
    for r in result["rows"]:
        if r["engine"] == "reference":
            ratio = numba[(r["players"], r["unit"])] / r["per_s_cpu"]
            print(f"  {r['players']} players  numba / reference ({PLURAL[r['unit']]}): "
                  f"{ratio:,.0f}x")
    print(f"  peak memory: {result['peak_rss_mb']:.0f} MiB")
    if "split" in result:
        sp = result["split"]
        print(f"  4 players, basic, one deal of the general loop: {sp['total_ns']:,.0f} ns = "
              f"deal {sp['deal_ns']:,.0f} + play {sp['play_ns']:,.0f} + bookkeeping "
              f"{sp['bookkeeping_ns']:,.0f}; the default run (the basic-alone loop, "
              f"play_chunk): {sp['default_ns']:,.0f} ns")
        print(f"  rollout from the trump-fixing card: {sp['rollout_ns']:,.0f} ns "
              f"({sp['rollout_cards']:.1f} cards, {sp['rollout_ns_per_card']:.1f} ns a card; "
              f"the plain engine's play: {sp['play_ns_per_card']:.1f} ns a card); the same "
              f"playout through the records' loop (engine.run_deal): {sp['run_deal_ns']:,.0f} ns")
    if "c" in result:
        print_c(result["c"])  # type: ignore[arg-type]
        if "split" in result and "c" in result["split"]:  # type: ignore[operator]
            cs = result["split"]["c"]  # type: ignore[index]
            print(f"    4 players, basic, one deal in C: {cs['total_ns']:,.0f} ns = deal "
                  f"{cs['deal_ns']:,.0f} + play {cs['play_ns']:,.0f} + bookkeeping "
                  f"{cs['bookkeeping_ns']:,.0f} (numba's split above)")
    elif "c_note" in result:
        print(f"  C yardstick (issue 13): not measured, {result['c_note']}")
    for s in result.get("search", []):
        print(f"  {s['strategy']} in seat 0 among basic (4 players, deals): "
              f"{s['deals_per_s']:,.0f} deals/s, {s['rollouts_per_deal']:,.0f} rollouts a deal, "
              f"{s['rollouts_per_s']:,.0f} rollouts/s")
    for key in ("compile_cold", "compile_warm"):
        if key in result:
            print(f"  {key.replace('_', ' ')}: {result[key]}")


_TARGET_TEXT = {
    "deal": "790 ns C / 850 ns",
    "match": "822 ns C / 850 ns",
    "rollout": "17 ns a card x 24.8 cards = 422 ns C / 450 ns",
}
_UNIT_TEXT = {"deal": "single deal", "match": "deal of a match",
              "rollout": "rollout from the trump-fixing card"}


def print_c(c: dict[str, object]) -> None:
    """The C yardstick's lines: ns beside numba's and the ratio against issue 13's target."""
    print(f"  C yardstick (scripts/cbase/jass.c, {c['flags']}; same deals, same run; C "
          "writing the kernel's columns into fresh arrays, in brackets into one reused "
          "buffer):")
    for r in c["ratios"]:  # type: ignore[union-attr]
        buffer = (f" ({r['c_buffer_ns']:,.0f} ns, {r['ratio_buffer']:.2f}x)"
                  if "c_buffer_ns" in r else "")
        print(f"    {r['players']} players, ns per {_UNIT_TEXT[r['unit']]}: C {r['c_ns']:,.0f}, "
              f"numba {r['numba_ns']:,.0f}; numba at {r['ratio']:.2f}x C's speed{buffer} "
              f"(issue 13's target at least {r['target']:.2f}x = {_TARGET_TEXT[r['unit']]})")


def main(argv: list[str] | None = None) -> None:
    """Command line: print the table and, with --json, write the figures to a file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--strategy", default="basic")
    parser.add_argument("--ruleset", default="seed", choices=["seed", "swiss"])
    parser.add_argument("--compile", action="store_true", help="also time cold/warm compile")
    parser.add_argument("--json", type=Path, help="write the figures as JSON to this file")
    parser.add_argument("--search", action="append", default=[], metavar="STRATEGY",
                        help="also time this search strategy in seat 0 among basic players "
                             "(repeatable), e.g. --search pimc --search pimc:worlds=64")
    parser.add_argument("--search-deals", type=int, default=200)
    parser.add_argument("--chunk", type=chunk_units, default=None, metavar="UNITS",
                        help="numba's play_chunk calls of this many deals or matches (default: "
                             "the runner's chunk size for each mode; 0: one call of all)")
    args = parser.parse_args(argv)
    sizes = (dict(deals=20_000, matches=2_000, ref_deals=100, ref_matches=10, repeats=1)
             if args.quick else {})
    result = bench_jass(strategy=args.strategy, ruleset=args.ruleset,
                        compile_probe=args.compile, search=tuple(args.search),
                        search_deals=args.search_deals, chunk=args.chunk, **sizes)
    print_jass(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

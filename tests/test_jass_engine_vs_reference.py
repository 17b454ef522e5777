"""The numba engine against the pure-Python reference, move for move.

Whole matches and single deals over both player counts, both rule sets and every built-in
strategy (720 matches and 576 deals in make test, 2,880 and 2,400 in make test-deep): each
record (hands, every card of every trick, trump, points, sticks, totals, winner) must be
identical, and every record must pass the independent rules check.
"""

import pytest
from depth import cases  # tests/ is on sys.path

from analyzer.engines.jass.kernel import play_chunk
from analyzer.engines.jass.records import check_record, trace_record
from analyzer.engines.jass.reference import ReferenceJass
from analyzer.engines.kernel import RunSpec
from analyzer.games.jass.rules import make_rules
from strategies.registry import catalog, seat_strategies

SEARCH = ("pimc", "peek")  # tested with few worlds in test_jass_search.py
# learned: its reference twin sums the network in plain Python (about 1 ms a card), so 60
# matches per case took 15-20 s; tests/test_jass_learned.py plays learned seats (both player
# counts and rule sets, mixed tables, learned rollouts) against the reference instead
SLOW_TWINS = ("learned",)
BUILTIN = [name for name in catalog("jass") if name not in SEARCH + SLOW_TWINS]
MIXED = ["adaptive", "random", "basic", "aim-low"]
FIELDS = [[name] for name in BUILTIN] + [MIXED, ["aim-high", "catch-up", "heuristic:fight=1"]]
MATCHES_PER_CASE = cases(15, 60)
DEALS_PER_CASE = cases(12, 50)


def _first_difference(a: dict, b: dict) -> str:
    for key in a:
        if a[key] != b.get(key):
            if key != "deals":
                return f"{key}: {a[key]} != {b.get(key)}"
            for k, (x, y) in enumerate(zip(a[key], b[key], strict=False)):
                for kk in x:
                    if x[kk] != y.get(kk):
                        return f"deal {k + 1} {kk}: {x[kk]} != {y.get(kk)}"
    return "lengths differ"


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("ruleset", ["seed", "swiss"])
@pytest.mark.parametrize("field", FIELDS, ids=lambda f: "+".join(f))
def test_engine_matches_reference_move_for_move(players, ruleset, field):
    field = (field * players)[:players] if len(field) > 1 else field
    rules = {"ruleset": ruleset}
    seed = 1000 + players * 10 + (ruleset == "swiss")
    ref = ReferenceJass(make_rules(players, rules), seat_strategies("jass", field, players))
    spec = RunSpec("jass", players, tuple(field), seed=seed, rules=rules)
    table = play_chunk(spec, 0, MATCHES_PER_CASE)
    for i in range(MATCHES_PER_CASE):
        mine = trace_record(spec, i)
        theirs = ref.play_match(seed, i)
        assert mine == theirs, f"match {i}: {_first_difference(mine, theirs)}"
        assert check_record(mine) == []
        # the chunked kernel agrees with the traced unit
        rows = slice(i * players, (i + 1) * players)
        assert list(table["sticks"][rows]) == mine["deals"][-1]["totals"]
        assert table["deals"][i * players] == len(mine["deals"])
    spec_d = RunSpec("jass", players, tuple(field), seed=seed, mode="deals", rules=rules)
    deals = play_chunk(spec_d, 0, DEALS_PER_CASE)
    for i in range(DEALS_PER_CASE):
        mine = trace_record(spec_d, i)
        theirs = ref.play_single_deal(seed, i)
        assert mine == theirs, f"deal {i}: {_first_difference(mine, theirs)}"
        assert check_record(mine) == []
        rows = slice(i * players, (i + 1) * players)
        assert list(deals["points"][rows]) == mine["deals"][0]["points"]
        assert list(deals["sticks"][rows]) == mine["deals"][0]["sticks"]

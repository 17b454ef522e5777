"""Smoke test of scripts/bench_jass.py: it runs and reports every figure it promises."""

from script_module import load


def test_bench_jass_reports_numba_and_reference_rates():
    module = load("bench_jass")
    result = module.bench_jass(players=(3, 4), deals=500, matches=20, ref_deals=4,
                               ref_matches=1, repeats=1)
    rows = result["rows"]
    keys = {(r["players"], r["engine"], r["unit"]) for r in rows}
    assert keys == {(n, e, u) for n in (3, 4) for e in ("numba", "reference")
                    for u in ("deal", "match")}
    assert all(r["per_s_cpu"] > 0 and r["per_s_wall"] > 0 for r in rows)
    assert result["peak_rss_mb"] > 0
    if "c_note" in result:  # no C compiler here: the yardstick is left out with its reason
        assert result["c_note"]
        return
    ratios = {(r["players"], r["unit"]): r for r in result["c"]["ratios"]}
    assert set(ratios) == {(3, "deal"), (3, "match"), (4, "deal"), (4, "match"), (4, "rollout")}
    assert all(r["c_ns"] > 0 and r["numba_ns"] > 0 and 0 < r["target"] < 1
               for r in ratios.values())

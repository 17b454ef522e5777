"""Smoke test of scripts/bench.py's Who's the Ass? part: it runs and reports its figures."""

from script_module import load


def test_bench_ass_reports_numba_and_reference_rates(capsys):
    module = load("bench")
    result = module.bench_ass(games=2000, ref_games=5, players=(3, 4), repeats=1,
                              compile_probe=False)
    assert set(result["engines"]) == {3, 4}
    for figures in result["engines"].values():
        assert figures["numba_cpu"] > figures["reference_cpu"] > 0
    assert result["peak_rss_mb"] > 0
    module.print_ass(result)
    assert "games/s" in capsys.readouterr().out

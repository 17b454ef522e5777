"""Smoke test of scripts/bench_ass_search.py: it runs and reports its rollout figures."""

from script_module import load


def test_bench_ass_search_reports_rollouts_beside_the_engine(monkeypatch):
    import numba

    # The script's jitted helpers compile here, and numba rereads its environment on every
    # compile: scripts/bench_jass.py, which test_ass_bench imports into this process, sets
    # NUMBA_NUM_THREADS, which numba refuses to change once its threads run.
    monkeypatch.setenv("NUMBA_NUM_THREADS", str(numba.config.NUMBA_NUM_THREADS))
    module = load("bench_ass_search")
    result = module.bench_rollouts(count=20, repeats=1, engine_games=500)
    for name in ("basic", "careful", "engine_mid", "engine"):
        assert result[name]["ns_per_turn"] > 0
    # from the middle of a game a rollout has fewer turns than a whole game
    assert 0 < result["basic"]["turns_per_rollout"] < result["engine_turns_per_game"]
    counts = module._search_counts("pimc:worlds=4,candidates=3", 2)
    assert counts["searched_per_game"] > 0
    assert 0 < counts["rollouts_per_search"] <= 12

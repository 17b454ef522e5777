"""Issue 45: ``study all`` runs the studies the study registry declares for the suite (one
list: each StudyDescription's ``suite``, in the registry's order), with the same studies, the
same order and the same arguments as before the list moved there."""

import pytest

from analyzer.studies import registry, suite

RUNS = ("run_seats", "run_jokers", "run_trump", "run_compare", "run_ladder",
        "run_best_response", "run_fields")
ORDER = ("seats", "jokers", "trump", "compare", "ladder", "best-response", "fields")
# what ``study all --seed 7`` (scale 1) asked of each study before the list moved
CALLS = [
    ("run_seats", (), {"games": 50000, "seed": 7}),
    ("run_jokers", (), {"games": 3000, "slow_games": 150, "seed": 7}),
    ("run_trump", (), {"deals": 10000, "choosers": ("re-aim", "learned", "pimc"),
                       "slow_deals": 100, "seed": 7}),
    ("run_compare", ("jass", ("basic", "aim-high", "aim-low", "adaptive"), (4,)),
     {"games": 10000, "until_sure": True, "seed": 7}),
    ("run_ladder", (("ass", "jass"),), {"games": 2000, "seed": 7}),
    ("run_best_response", (("ass", "jass"),),
     {"games": {"ass": 100000, "jass": 10000}, "confirm": 1000,
      "knobs": ("jokers", "ass_throw", "lead", "aim", "trump"), "seed": 7}),
    ("run_fields", (), {"games": 1000, "trump_deals": 3000, "seats_games": 5000, "seed": 7}),
]


def test_the_suites_studies_are_the_registrys_one_list():
    declared = tuple(n for n in registry.names() if registry.get(n).suite)
    assert suite.studies() == declared == ORDER


def test_study_all_asks_the_same_of_every_study_in_the_same_order(monkeypatch):
    seen = []
    for name in RUNS:
        monkeypatch.setattr(suite, name,
                            lambda backend, *a, _n=name, **kw: seen.append((_n, a, kw)))
    list(suite.run_all("backend", 1.0, seed=7))
    assert seen == CALLS


def test_study_all_checks_the_output_folder_of_each_suite_study(monkeypatch, tmp_path, cli):
    from analyzer.studies import results

    checked = []
    monkeypatch.setattr(results, "check_study_target",
                        lambda out, study: checked.append(study))
    monkeypatch.setattr(suite, "run_all", lambda *a, **kw: iter(()))

    class NoWarming:
        def __init__(self, *a, **kw):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    monkeypatch.setattr(suite, "Warming", NoWarming)
    code, _, err = cli("study", "all", "-o", tmp_path / "out", "-q")
    assert code == 0, err
    assert tuple(checked) == ORDER


@pytest.mark.parametrize("name", ORDER)
def test_each_suite_study_names_its_suite_run(name):
    path = registry.get(name).suite
    from analyzer.games.registry import load

    assert path and callable(load(path))

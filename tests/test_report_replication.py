"""Issue 43, item 8: replication is a command.

``cardlab study all --seed N`` plays every study at master seed N; ``cardlab study
replicate`` reruns a finished suite at another seed and compares every claim, cell by cell;
the report shows the comparison and data/findings.json says for each claim whether it
replicated.
"""

import json

import pytest

from analyzer.studies.claims import Cell, Claim, several
from analyzer.studies.results import save_study
from reports.replication import (
    CHOICE,
    CLEAR_ONE,
    CONTRADICTION,
    NONE,
    SAME,
    compare,
    rerun_commands,
)


def test_issue43_item8_study_all_plays_every_study_at_the_given_seed(monkeypatch):
    from analyzer.studies import suite

    seen = {}
    for name in ("run_seats", "run_jokers", "run_trump", "run_compare", "run_ladder",
                 "run_best_response", "run_fields"):
        monkeypatch.setattr(suite, name, lambda *a, _n=name, **kw: seen.setdefault(_n, kw))
    list(suite.run_all(None, 0.01, seed=60013))
    assert len(seen) == 7 and all(kw.get("seed") == 60013 for kw in seen.values()), seen
    seen.clear()
    list(suite.run_all(None, 0.01))  # no seed: each study its own default, as before
    assert all("seed" not in kw for kw in seen.values())


def _diff(kind, value, players=4, choice="hoard", against="as-needed"):
    cell = Cell(players, None, "basic", None, choice, "difference", value, value - 1,
                value + 1, True)
    return Claim(f"c-{players}-{kind}", "q", f"s {kind}", "ass", "jokers", "", kind,
                 "differences", (cell,), against=against)


def _best(choice, clear_over=None, players=4):
    best = Cell(players, "seed", None, "high", choice, "sticks_loss", 0.3, 0.29, 0.31, True)
    best_probe = Claim("", "", "", "jass", "trump", "", "best", "rules", ())
    parts = [(best_probe, best)]
    if clear_over:
        pair = Cell(players, "seed", None, "high", clear_over, "difference", 0.1, 0.05,
                    0.15, True)
        parts.append((Claim("", "", "", "jass", "trump", "", "positive", "pairs", (),
                            against=choice), pair))
    return several(f"t-{choice}", "s", parts, game="jass", study="trump")


def test_issue43_item8_claims_are_compared_cell_by_cell():
    first = [_diff("positive", 2.0), _diff("positive", 2.0, players=5),
             _diff("unclear", 0.1, players=6), _best("longest", clear_over="most_points"),
             _best("fewest_points", players=3)]
    other = [_diff("positive", 1.5), _diff("negative", -2.0, players=5),
             _diff("positive", 1.2, players=6), _best("most_points", clear_over="longest"),
             _best("most_points", players=3)]
    result = compare(first, other, seed=7)
    assert result.statuses == [SAME, CONTRADICTION, CLEAR_ONE, CONTRADICTION, CHOICE]
    assert compare(first, [], seed=7).statuses == [NONE] * 5
    counts = result.counts()
    assert counts[CONTRADICTION] == 2 and counts[SAME] == 1
    assert "master seed 7" in result.summary() and "must be 0" in result.summary()


def test_issue43_item8_the_rerun_is_each_study_s_own_command_at_the_new_seed():
    from analyzer.runner.synthetic import SyntheticTrumpBackend
    from analyzer.studies.trump import run_trump

    study = run_trump(SyntheticTrumpBackend(), players=[3], rulesets=["seed"], deals=50,
                      seed=4)
    (args,) = rerun_commands([study], "runs/again", 60013)
    assert args[:2] == ["study", "trump"]
    assert args[args.index("--seed") + 1] == "60013" and args.count("--seed") == 1
    assert args[args.index("--out") + 1] == "runs/again"


def _trump_at(seed):
    from analyzer.runner.synthetic import SyntheticTrumpBackend
    from analyzer.studies.trump import run_trump

    return run_trump(SyntheticTrumpBackend(), players=[3, 4], rulesets=["seed"], deals=300,
                     choosers=["random"], seed=seed)


def test_issue43_item8_the_report_says_for_each_claim_whether_it_replicated(tmp_path):
    from reports.build import write_report

    index = write_report([_trump_at(0)], tmp_path / "rep", None, replica=[_trump_at(60013)])
    doc = json.loads((tmp_path / "rep" / "data" / "findings.json").read_text())
    assert doc["claims"] and all("replicated" in c for c in doc["claims"])
    assert doc["replication"]["seed"] == 60013
    assert doc["replication"]["counts"][CONTRADICTION] == 0
    assert sum(doc["replication"]["counts"].values()) == len(doc["claims"])
    assert "Replication: the whole suite was run again at master seed 60013" in \
        index.read_text()


def test_issue43_item8_replicate_never_writes_over_the_suite_it_replicates(tmp_path, cli):
    save_study(_trump_at(0), tmp_path / "res")
    for out, seed, words in ((tmp_path / "res", "5", "apart from --from"),
                             (tmp_path / "res" / "x", "5", "apart from --from"),
                             (tmp_path / "again", "0", "already played")):
        code, _, err = cli("study", "replicate", "--from", tmp_path / "res", "--seed", seed,
                           "--out", out)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]


@pytest.mark.parametrize("seed", ["-1", str(2**63)])
def test_issue43_item8_study_all_refuses_a_bad_seed_in_one_line(cli, tmp_path, seed):
    code, _, err = cli("study", "all", "--seed", seed, "--out", tmp_path / "res")
    assert code == 2 and "--seed" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "res").exists()

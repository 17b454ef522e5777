"""Issue 21, item 1: every key finding is a claim checked cell by cell (reports/claims.py).

A claim is stated only for the cells where it holds; where the best choice differs between
cells it is split, never pooled (Simpson's paradox); a claim the table does not bear out is
not printed but becomes an alert naming the cells; every report writes data/findings.json.
"""


import numpy as np
import pandas as pd

from analyzer.studies.results import StudyResult, base_manifest
from reports.claims import Cell, Claim, check
from reports.findings import Finding, vetted
from reports.studies.trump import trump_finding

RULES = ("fewest_points", "most_points", "longest")


def _rules_row(players, rule, decisions, loss):
    half = 0.01
    return {"players": players, "ruleset": "seed", "aim": "low", "rule": rule,
            "decisions": decisions, "sticks_loss": loss, "sticks_loss_low": loss - half,
            "sticks_loss_high": loss + half, "points_loss": np.nan, "points_loss_low": np.nan,
            "points_loss_high": np.nan, "picked_best": 0.5, "best": False}


def _simpson_study() -> StudyResult:
    """Fewest points is best at 3 players and at 4 players most points is, but pooled over
    the two (4 players has many more decisions and low losses) most points looks best."""
    rows = [
        _rules_row(3, "fewest_points", 100, 0.50), _rules_row(3, "most_points", 100, 0.60),
        _rules_row(3, "longest", 100, 0.70),
        _rules_row(4, "fewest_points", 10_000, 0.31), _rules_row(4, "most_points", 10_000, 0.30),
        _rules_row(4, "longest", 10_000, 0.40),
    ]
    manifest = base_manifest("trump", game="jass", mode="deals", seed=0, deals=10_000,
                             players=[3, 4], rules_sets=["seed"], strategies=["adaptive"])
    return StudyResult("trump", {"rules": pd.DataFrame(rows)}, manifest)


def test_pooling_that_reverses_the_best_choice_gives_claims_per_cell():
    study = _simpson_study()
    rules = study.table("rules")
    pooled = rules.groupby("rule").apply(
        lambda g: np.average(g["sticks_loss"], weights=g["decisions"]), include_groups=False)
    assert pooled.idxmin() == "most_points"  # the pooled answer is wrong at 3 players
    finding = trump_finding(study)
    claims = [c for c in finding.claims if c.id != "trump-verdict"]  # the verdict spans cells
    by_players = {c.cells[0].players: c for c in claims}
    assert set(by_players) == {3, 4}
    assert [x.choice for x in by_players[3].cells] == ["fewest_points"]
    assert [x.choice for x in by_players[4].cells] == ["most_points"]
    for claim in claims:
        assert len({c.players for c in claim.cells}) == 1  # never pooled across counts
        assert all(c.holds for c in claim.cells)
        assert check(claim, study) == []
    assert "3 players" in finding.detail and "4 players" in finding.detail
    assert finding.verdict == "It depends on the player count."


def test_a_planted_false_claim_is_refused_and_becomes_an_alert():
    study = _simpson_study()
    false_cell = Cell(3, "seed", "adaptive", "low", "most_points", "sticks_loss", 0.60, 0.59,
                      0.61, True)
    planted = Claim("planted", "q", "At 3 players fix the suit with the most points.", "jass",
                    "trump", "", "best", "rules", (false_cell,),
                    extra={"exclude": ["as-played"]})
    problems = check(planted, study)
    assert len(problems) == 1 and "3 players" in problems[0] and "most_points" in problems[0]
    wrong_number = Claim("wrong", "q", "s", "jass", "trump", "", "best", "rules",
                         (Cell(3, "seed", "adaptive", "low", "fewest_points", "sticks_loss",
                               0.45, 0.44, 0.46, True),), extra={"exclude": ["as-played"]})
    assert "the table says 0.5" in check(wrong_number, study)[0]
    good = trump_finding(study)
    finding = Finding("trump", good.question, good.verdict,
                      good.detail + " " + planted.sentence, (*good.claims, planted))
    kept, alerts = vetted(finding, study)
    assert planted.sentence not in kept.detail
    assert planted not in kept.claims and len(kept.claims) == len(good.claims)
    assert len(alerts) == 1 and "planted" in alerts[0].text and "3 players" in alerts[0].text

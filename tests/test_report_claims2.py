"""Issue 43: answers that cannot contradict their own tables.

Every clause of a sentence comes from a cell the claim carries, decided by the same test that
filled the study table's ``clear`` column: the report never re-decides what a table decided,
never pools clauses over cells, never quotes a value outside its own interval; and every part
of a study draws from the study's seed.
"""

import numpy as np
import pandas as pd

from analyzer.studies.claims import Cell, Claim, check, make_cell, probe
from analyzer.studies.results import StudyResult, base_manifest
from reports.findings import chooser_claims, trump_claims


def _trump_manifest():
    return base_manifest("trump", game="jass", mode="deals", seed=0, deals=1000,
                         players=[4], rules_sets=["seed", "swiss"], strategies=["adaptive"])


# ------------------------------------------------------------------ 1: one test per question
def _chooser_row(rule, own_minus, half, p_holm, best=False, ruleset="seed"):
    loss = 0.5 + (own_minus if rule != "as-played" else 0.0)
    row = {"chooser": "pimc", "players": 4, "ruleset": ruleset, "rule": rule,
           "decisions": 400, "sticks_loss": loss, "sticks_loss_low": loss - 0.05,
           "sticks_loss_high": loss + 0.05, "own_minus": own_minus,
           "own_minus_low": own_minus - half, "own_minus_high": own_minus + half,
           "own_minus_half": half, "p": np.nan, "p_holm": p_holm,
           "clear": bool(p_holm < 0.05), "best_rule": best}
    if rule == "as-played":
        row.update(own_minus=np.nan, own_minus_low=np.nan, own_minus_high=np.nan,
                   own_minus_half=np.nan, p_holm=np.nan, clear=False)
    return row


def _chooser_study():
    """pimc against the best fixed rule: +0.09 +- 0.089 excludes 0 on its own, but Holm over
    the rules says p 0.149: not clear (the table's ``clear`` column)."""
    rows = [_chooser_row("as-played", 0, 0, np.nan),
            _chooser_row("longest", 0.09, 0.089, 0.149, best=True),
            _chooser_row("most_points", 0.20, 0.05, 0.001)]
    return StudyResult("trump", {"choosers": pd.DataFrame(rows)}, _trump_manifest())


def test_issue43_item1_chooser_summary_uses_the_tables_holm_clear_column():
    study = _chooser_study()
    claims = chooser_claims(study)
    assert len(claims) == 1
    claim = claims[0]
    assert "clearly more" not in claim.sentence and "clearly fewer" not in claim.sentence
    assert "not clearly" in claim.sentence and "Holm" in claim.sentence
    assert check(claim, study) == []
    # the clause is decided by the table's clear column: flip it and the claim fails
    table = study.tables["choosers"].copy()
    table.loc[table["rule"] == "longest", "clear"] = True
    assert check(claim, StudyResult("trump", {"choosers": table}, study.manifest)) != []
    # and a clear column that says clear makes the sentence say clearly
    clear = StudyResult("trump", {"choosers": table}, study.manifest)
    said = chooser_claims(clear)[0]
    assert "clearly more" in said.sentence and check(said, clear) == []


# ------------------------------------------------------------------ 2: no pooled clause
def _rule_row(ruleset, rule, loss):
    return {"players": 4, "ruleset": ruleset, "aim": "high", "rule": rule, "decisions": 1000,
            "sticks_loss": loss, "sticks_loss_low": loss - 0.01,
            "sticks_loss_high": loss + 0.01, "points_loss": np.nan, "points_loss_low": np.nan,
            "points_loss_high": np.nan, "picked_best": 0.5, "best": False}


def _pair_row(ruleset, a, b, diff, half):
    return {"players": 4, "ruleset": ruleset, "aim": "high", "a": a, "b": b,
            "difference": diff, "low": diff - half, "high": diff + half, "half": half}


def _runner_up_study():
    """Longest suit is best under both rule sets; under the seed rules most points is not
    clearly worse, under the Swiss rules every other rule is clearly worse."""
    rules = [_rule_row(rs, r, x) for rs in ("seed", "swiss")
             for r, x in (("longest", 0.30), ("most_points", 0.31), ("fewest_points", 0.50))]
    pairs = [_pair_row("seed", "most_points", "longest", 0.01, 0.02),
             _pair_row("seed", "fewest_points", "longest", 0.20, 0.02),
             _pair_row("swiss", "most_points", "longest", 0.05, 0.02),
             _pair_row("swiss", "fewest_points", "longest", 0.20, 0.02)]
    return StudyResult("trump", {"rules": pd.DataFrame(rules), "pairs": pd.DataFrame(pairs)},
                       _trump_manifest())


def test_issue43_item2_runners_up_are_said_per_cell_and_carried_by_the_claim():
    study = _runner_up_study()
    claims = trump_claims(study)
    by_set = {}
    for claim in claims:
        assert check(claim, study) == [], claim.id
        sets = {c.ruleset for c in claim.cells}
        for rs in sets:
            by_set.setdefault(rs, []).append(claim)
    (seed,), (swiss,) = by_set["seed"], by_set["swiss"]
    assert seed is not swiss  # never one clause over both rule sets
    assert "not clearly fewer than most points" in seed.sentence.replace("the suit with the ",
                                                                         "")
    assert "clearly fewer than every other rule" in swiss.sentence
    assert "not clearly" not in swiss.sentence
    # the runner-up clause carries its cells: a pairs table where most points is clearly
    # worse under the seed rules fails the claim that says it is not
    pairs = study.tables["pairs"].copy()
    pairs.loc[(pairs["ruleset"] == "seed") & (pairs["a"] == "most_points"),
              ["difference", "low", "high"]] = [0.05, 0.03, 0.07]
    tampered = StudyResult("trump", {**study.tables, "pairs": pairs}, study.manifest)
    assert check(seed, tampered) != []


# ------------------------------------------------------------------ 4: a dropped sign
def _strong_study():
    rows = []
    for seat, (effect, half) in enumerate([(-0.138, 0.123), (0.05, 0.12), (0.04, 0.12),
                                           (0.048, 0.12), (0.0, 0.12), (0.0, 0.12)]):
        rows.append({"field": "learned", "players": 6, "seat": seat, "games": 5000,
                     "minus_points": 5 + effect, "seat_effect": effect,
                     "seat_effect_low": effect - half, "seat_effect_high": effect + half})
    return StudyResult("seats", {"strong": pd.DataFrame(rows)}, {})


def test_issue43_item4_the_largest_effect_keeps_its_sign():
    from analyzer.studies.seats import strong_claim

    study = _strong_study()
    claim = strong_claim(study, "learned", 5000)
    top = next(c for c in claim.cells if c.metric == "seat_effect"
               and c.value != 0 and abs(c.value) > 0.1)
    assert top.value == -0.138 and top.low <= top.value <= top.high
    assert "-0.14" in claim.sentence or "−0.14" in claim.sentence
    assert check(claim, study) == []


def test_issue43_item4_a_cell_outside_its_own_bounds_never_holds():
    study = _strong_study()
    reader = probe("ass", "seats", "value", "strong", extra={"key": "seat"})
    cell = make_cell(reader, study, 6, "0", "seat_effect", field_="learned")
    flipped = Claim("x", "q", "s", "ass", "seats", "", "value", "strong",
                    (Cell(6, None, "learned", None, "0", "seat_effect", 0.138, cell.low,
                          cell.high, True),), extra={"key": "seat"})
    problems = check(flipped, study)
    assert problems and "0.138" in problems[0]
    # a table whose own value lies outside its interval: no statement on it holds
    table = study.tables["strong"].copy()
    table.loc[0, "seat_effect"] = 0.138
    broken = StudyResult("seats", {"strong": table}, {})
    assert not make_cell(reader, broken, 6, "0", "seat_effect", field_="learned").holds
    same = Claim("y", "q", "s", "ass", "seats", "", "value", "strong",
                 (make_cell(reader, broken, 6, "0", "seat_effect", field_="learned"),),
                 extra={"key": "seat"})
    assert check(same, broken) != []

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
from reports.studies.trump import chooser_claims, trump_claims


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


# ------------------------------------------------------------------ 3: every part's seed
class _BothGames:
    """Who's the Ass? rows and Jass trump counterfactuals from the synthetic backends."""

    def __init__(self):
        from analyzer.runner.synthetic import SyntheticAssBackend, SyntheticTrumpBackend

        self.ass = SyntheticAssBackend(effects={"h1": 2.0}, seat_slope=0.5)
        self.jass = SyntheticTrumpBackend()
        self.workers = 1

    def validate(self, spec):
        return (self.ass if spec.game == "ass" else self.jass).validate(spec)

    def canonical(self, game, text):
        return text

    def __getattr__(self, name):  # collect, matches (Who's the Ass?) and the rest
        return getattr(self.ass, name)

    def table(self, name, spec, start, count):
        return self.jass.table(name, spec, start, count)


def _study_at(name: str, seed: int) -> StudyResult:
    from analyzer.runner.synthetic import SyntheticAssBackend, SyntheticTrumpBackend
    from analyzer.studies.best_response import run_best_response
    from analyzer.studies.compare import run_compare
    from analyzer.studies.fields import run_fields
    from analyzer.studies.jokers import run_jokers
    from analyzer.studies.ladder import run_ladder
    from analyzer.studies.seats import run_seats
    from analyzer.studies.trump import run_trump

    ass = SyntheticAssBackend
    makers = {
        "seats": lambda: run_seats(ass(seat_slope=0.5), players=[3, 4], games=200,
                                   strong_fields=("x",), strong_players=(4,), slow_games=100,
                                   seed=seed),
        "compare": lambda: run_compare(ass(effects={"good": -1.0}), "ass", ["good", "a"],
                                       players=[4], games=200, seed=seed),
        "trump": lambda: run_trump(SyntheticTrumpBackend(), players=[3], rulesets=["seed"],
                                   deals=100, choosers=["hindsight"], seed=seed),
        "jokers": lambda: run_jokers(ass(effects={"joker-hoarder": 3.0}), players=[4],
                                     keep=[0, 4], games=100, seed=seed),
        "fields": lambda: run_fields(_BothGames(), ["F1", "F2"], players=[4], games=50,
                                     seats_games=50, trump_fields=["adaptive"],
                                     trump_deals=50, seed=seed),
        "ladder": lambda: run_ladder(ass(effects={"s1": -1.0, "s2": 0.0, "s3": 1.0}), "ass",
                                     ["s1", "s2", "s3"], players=[4], games=120,
                                     probe_deals=0, seatings=20, seed=seed),
        "best-response": lambda: run_best_response(
            ass(effects={"basic": 1.0}), "ass", ["basic"], players=[4], games=200,
            confirm=20, knobs=["lead"], slow_share=2, seed=seed),
    }
    return makers[name]()


# tables that hold no played number (what was run, not what came of it)
_NOT_PLAYED: set[tuple[str, str]] = set()


def test_issue43_item3_every_table_that_plays_games_follows_the_study_seed():
    for name in ("seats", "compare", "trump", "jokers", "fields", "ladder", "best-response"):
        a, b = _study_at(name, 2), _study_at(name, 60013)
        assert a.manifest.get("seed") == 2 and b.manifest.get("seed") == 60013, name
        for table in a.tables:
            if (name, table) in _NOT_PLAYED:
                continue
            numbers_a = a.table(table).select_dtypes("number")
            numbers_b = b.table(table).select_dtypes("number")
            if numbers_a.empty and numbers_b.empty:  # nothing played there (no rows)
                continue
            assert not numbers_a.equals(numbers_b), f"{name}/{table} ignores the seed"


# ------------------------------------------------------------------ 6: the smaller ones
SIX = ("longest", "most_points", "under_nine", "fewest_points", "shortest", "random")


def _fields_trump_study():
    """At 3 players fewest points loses least and all six rules are tied; at 4 players the
    longest suit is best, tied with most points and Under+Nine."""
    rows = []
    losses = {3: dict(zip(SIX, (0.42, 0.43, 0.44, 0.40, 0.45, 0.46), strict=True)),
              4: dict(zip(SIX, (0.30, 0.31, 0.31, 0.50, 0.52, 0.60), strict=True))}
    for n, by_rule in losses.items():
        for aim in ("high", "n/a"):
            for rule, x in by_rule.items():
                top = n == 3 or rule in ("longest", "most_points", "under_nine")
                rows.append({"field": "adaptive", "players": n, "ruleset": "seed", "aim": aim,
                             "rule": rule, "decisions": 500, "sticks_loss": x,
                             "sticks_loss_low": x - 0.03, "sticks_loss_high": x + 0.03,
                             "own_choice_is": "", "top": top})
    return StudyResult("fields", {"trump": pd.DataFrame(rows)}, {})


def test_issue43_item6_fields_trump_says_where_another_rule_is_best_and_all_are_tied():
    from analyzer.studies.fields import trump_field_claims

    study = _fields_trump_study()
    claims = trump_field_claims(study)
    for claim in claims:
        assert check(claim, study) == [], claim.id
        assert "aiming n/a" not in claim.sentence
    high = next(c for c in claims if c.id == "fields-trump-high")
    assert "fewest points" in high.sentence and "3 players" in high.sentence
    assert "every one of the 6 rules is tied" in high.sentence
    assert any(c.sentence.startswith("Choosers without an aim") for c in claims)
    # the clause is the cells': fewest points no longer best at 3 players fails the claim
    table = study.tables["trump"].copy()
    table.loc[(table["players"] == 3) & (table["rule"] == "fewest_points"), "sticks_loss"] = 0.5
    assert check(high, StudyResult("fields", {"trump": table}, {})) != []


def _numbers(text: str) -> list[tuple[float, float]]:
    import re

    return [(float(a.replace("−", "-")), float(b)) for a, b in
            re.findall(r"([+\-−]?\d+\.\d+) ± (\d+\.\d+)", text)]


def test_issue43_item6_a_not_clearly_seat_sentence_prints_the_interval_it_was_judged_on():
    from reports.studies.seats import seats_finding

    # seat 5 at 6 players: +0.25 ± 0.20 excludes 0 on its own, not once picked of 6
    rows = []
    for seat in range(6):
        effect = 0.25 if seat == 5 else -0.05
        rows.append({"players": 6, "seat": seat, "games": 5000, "minus_points": 5 + effect,
                     "seat_effect": effect, "seat_effect_low": effect - 0.2,
                     "seat_effect_high": effect + 0.2, "exact_inside": True})
    study = StudyResult("seats", {"seats": pd.DataFrame(rows)},
                        base_manifest("seats", game="ass", seed=0, games=5000, players=[6],
                                      strategies=["basic"]))
    finding = seats_finding(study)
    top = finding.claims[0]
    assert "not clearly" in top.sentence and check(top, study) == []
    shown = _numbers(top.sentence)
    assert shown and all(v - h <= 0 <= v + h for v, h in shown)


def test_issue43_item6_jokers_precision_names_the_pair_and_until_sure_counts_are_cells():
    import inspect

    from analyzer.studies import compare, jokers

    assert "headline pair" not in inspect.getsource(jokers._precision_claim).split('"""')[2]
    source = inspect.getsource(compare._claims)
    assert '"seq_units", field_=field_)' in source
    # the count of units is its own exact cell (value = low = high), never a value beside
    # the difference's bounds
    from analyzer.runner.synthetic import SyntheticAssBackend

    result = compare.run_compare(SyntheticAssBackend(effects={"good": -1.0}), "ass",
                                 ["good", "a"], players=[4], games=300, until_sure=True)
    seq = next(c for c in result.claims if c.id.endswith("until-sure"))
    units = [c for c in seq.cells if c.metric == "seq_units"]
    assert units and all(c.value == c.low == c.high for c in units)
    assert all(c.low <= c.value <= c.high for c in seq.cells if np.isfinite(c.low))
    assert check(seq, result) == []


# ------------------------------------------------------------------ 5: say only what is clear
def _aim_study():
    """Two player counts and two aims (seed rules). At 3 players aiming high most points is
    best with fewest points tied, aiming low fewest points is best: fewest points is best or
    tied for both aims. At 4 players the longest suit is best for both aims, every other rule
    clearly worse. So the answer depends on the player count, not clearly on the aim."""
    best = {(3, "high"): ("most_points", {"fewest_points": (0.005, 0.006),
                                          "longest": (0.1, 0.02)}),
            (3, "low"): ("fewest_points", {"most_points": (0.1, 0.02),
                                           "longest": (0.2, 0.02)}),
            (4, "high"): ("longest", {"most_points": (0.1, 0.02),
                                      "fewest_points": (0.2, 0.02)}),
            (4, "low"): ("longest", {"most_points": (0.1, 0.02),
                                     "fewest_points": (0.05, 0.02)})}
    rules, pairs = [], []
    for (n, aim), (top, others) in best.items():
        rules.append({**_rule_row("seed", top, 0.3), "players": n, "aim": aim})
        for rule, (d, h) in others.items():
            rules.append({**_rule_row("seed", rule, 0.3 + d), "players": n, "aim": aim})
            pairs.append({**_pair_row("seed", rule, top, d, h), "players": n, "aim": aim})
    return StudyResult("trump", {"rules": pd.DataFrame(rules), "pairs": pd.DataFrame(pairs)},
                       _trump_manifest())


def test_issue43_item5_the_verdict_names_only_the_dependence_that_is_clear():
    from reports.findings import vetted
    from reports.studies.trump import trump_finding

    study = _aim_study()
    finding = trump_finding(study)
    assert finding.verdict == "It depends on the player count."
    verdict = next(c for c in finding.claims if c.id == "trump-verdict")
    assert verdict.sentence == finding.verdict and check(verdict, study) == []
    # make fewest points clearly worse than most points at 3 players aiming high: now no
    # rule is best or tied for both aims at 3 players, and the aim is shown too
    pairs = study.tables["pairs"].copy()
    at = (pairs["players"] == 3) & (pairs["aim"] == "high") & (pairs["a"] == "fewest_points")
    pairs.loc[at, ["difference", "low", "high"]] = [0.05, 0.03, 0.07]
    shown = StudyResult("trump", {**study.tables, "pairs": pairs}, study.manifest)
    assert trump_finding(shown).verdict == "It depends on the player count and your aim."
    # the verdict is a claim on its cells: against the first tables' answer, it is withdrawn
    stale = trump_finding(shown)
    kept, alerts = vetted(stale, study)
    assert kept.verdict == "See below." and any("trump-verdict" in a.text for a in alerts)


# ------------------------------------------------------------------ 10: a decision table
def test_issue43_item10_the_trump_answer_is_a_decision_table_from_its_cells(tmp_path):
    from reports.studies.trump import trump_decision_table, trump_finding

    study = _aim_study()
    table = trump_decision_table(trump_finding(study).claims)
    assert len(table) == 4 and list(table["players"]) == [3, 3, 4, 4]
    row = table[(table["players"] == 3) & (table["aim"].str.contains("many"))].iloc[0]
    assert row["fix"] == "most points" or "most" in row["fix"]
    assert row["runner-up is"] == "tied" and "fewest" in row["runner-up"]
    four = table[table["players"] == 4]
    assert (four["runner-up is"] == "clearly worse").all()
    # the table is its cells': planting a clear runner-up changes the row
    pairs = study.tables["pairs"].copy()
    at = (pairs["players"] == 3) & (pairs["aim"] == "high") & (pairs["a"] == "fewest_points")
    pairs.loc[at, ["difference", "low", "high"]] = [0.05, 0.03, 0.07]
    planted = StudyResult("trump", {**study.tables, "pairs": pairs}, study.manifest)
    again = trump_decision_table(trump_finding(planted).claims)
    row = again[(again["players"] == 3) & (again["aim"].str.contains("many"))].iloc[0]
    assert row["runner-up is"] == "clearly worse"
    # with choosers: the strong player's judgement beside the best fixed rule
    both = StudyResult("trump", {**study.tables, **_chooser_study().tables}, study.manifest)
    table = trump_decision_table(trump_finding(both).claims)
    judged = table[table["players"] == 4]["own judgement minus the fixed rule"]
    assert judged.str.contains("pimc: \\+0.09").all() and judged.str.contains("not clear").all()
    # the report's first screen shows the table itself; only the sentences fold under it
    from reports.html import SectionContent, findings_html

    page = findings_html([SectionContent("trump", [], [], "", [], "", {},
                                         finding=trump_finding(both))])
    assert 'class="decision"' in page
    assert page.index('class="decision"') < page.index("<details>")


# ------------------------------------------------------------------ 9: a cost curve
class _AssWithJokersLeft:
    """The synthetic Who's the Ass? rows with a ``jokers_left`` column, as the kernel's: the
    hoarder ends holding a joker on a known share of games (a hashed draw per game and seat),
    and those jokers are 14 of its minus points there."""

    def __init__(self, **kw):
        from analyzer.runner.synthetic import SyntheticAssBackend

        self.inner = SyntheticAssBackend(**kw)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def collect(self, spec, count, start=0):
        rows = self.inner.collect(spec, count, start)
        if spec.mode == "matches":
            return rows
        label = np.array(spec.strategies, dtype=object)[rows["seat"].to_numpy()]
        draw = (rows["index"].to_numpy(np.int64) * 7919
                + rows["seat"].to_numpy(np.int64) * 104729) % 10
        held = ((label == "joker-hoarder") & (draw < 2)).astype(np.int16)
        rows["jokers_left"] = held
        rows["minus_points"] = rows["minus_points"] + 14.0 * held
        return rows


JOKER_EFFECTS = {"joker-hoarder": 3.0, "joker-hoarder:ass_jokers=throw": 1.5,
                 **{f"hold-jokers:keep={k}": max(0, 8 - k) * 0.4 for k in range(14)}}


def _joker_study(backend=None):
    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.jokers import run_jokers

    backend = backend or SyntheticAssBackend(effects=JOKER_EFFECTS)
    return run_jokers(backend, players=[4, 6], keep=[0, 4, 8], games=300)


def test_issue43_item9_jokers_lead_with_the_cost_of_holding_them_back_k_cards():
    from reports.studies.jokers import jokers_finding

    study = _joker_study()
    finding = jokers_finding(study)
    first = finding.claims[0]
    assert first.id == "jokers-cost-curve-4" and check(first, study) == []
    words = first.sentence
    assert words.startswith("How long is it worth holding jokers? At 4 players")
    assert (words.index("until 8 cards") < words.index("until 4 cards")
            < words.index("until 0 cards") < words.index("(the hoarder)"))
    assert any(c.id == "jokers-cost-curve-6" for c in finding.claims)
    # every figure is a cell: a planted difference fails the claim
    curve = study.tables["cost_curve"].copy()
    hit = (curve["players"] == 4) & (curve["policy"] == "keep-until-4") \
        & (curve["field"] == "basic")
    curve.loc[hit, ["cost", "cost_low", "cost_high"]] += 5
    planted = StudyResult("jokers", {**study.tables, "cost_curve": curve}, study.manifest)
    assert check(first, planted) != []


def test_issue43_item9_the_cost_curve_is_per_field_and_player_count_on_the_same_deals():
    """Item 9, part 1: the curve for the study's field and every strong field (learned at the
    full budget, pimc on its slow budget with a few points of the sweep), each a cell of table
    cost_curve, paired on the same deals: intervals over deals."""
    from analyzer.studies.jokers import SLOW_KEEP
    from reports.studies.jokers import jokers_finding

    study = _joker_study()
    curve = study.table("cost_curve")
    assert set(curve["field"]) == {"basic", "learned", "pimc"}
    assert set(curve["players"]) == {4, 6}
    for (n, f), part in curve.groupby(["players", "field"]):
        assert "hoard" in set(part["policy"]), (n, f)
        kept = {int(k) for k in part["keep"].dropna()}
        assert kept == ({0, 4, 8} & set(SLOW_KEEP) if f == "pimc" else {0, 4, 8}), (n, f)
        assert (part["clear"] == ((part["cost_low"] > 0) | (part["cost_high"] < 0))).all()
    basic = curve[(curve["field"] == "basic") & (curve["players"] == 4)]
    assert (basic["deals"] == 300).all() and (basic["seat_games"] == 1200).all()
    pimc = curve[curve["field"] == "pimc"]
    assert (pimc["deals"] < 300).all()  # the slow budget: one seat per deal, few deals
    # the synthetic hoarder costs 3.0: its interval covers that against every field
    hoard = curve[curve["policy"] == "hoard"]
    assert ((hoard["cost_low"] < 3.0) & (hoard["cost_high"] > 3.0)).all()
    first = jokers_finding(study).claims[0]
    assert {c.field for c in first.cells} == {"basic", "learned", "pimc"}
    assert first.sentence.index("Against basic") < first.sentence.index("Against learned") \
        < first.sentence.index("Against pimc")
    # "(not clear)" is the clear column's word, cell by cell
    for c in first.cells:
        row = curve[(curve["players"] == 4) & (curve["field"] == c.field)
                    & (curve["policy"] == c.choice)].iloc[0]
        assert (c.low > 0 or c.high < 0) == bool(row["clear"])
    assert first.sentence.count("(not clear)") == sum(
        not bool(x) for x in curve[curve["players"] == 4]["clear"])


def test_issue43_item9_the_hoarders_no_joker_cost_is_split_into_ass_round_jokers():
    """Item 9, part 2: with no joker dealt, the jokers the hoarder holds at the end came
    from ass rounds; table ass_jokers splits its cost into those jokers (14 each, less
    as-needed's) and the rest, field by field, and a claim renders it from those cells."""
    from reports.studies.jokers import jokers_finding

    study = _joker_study(_AssWithJokersLeft(effects=JOKER_EFFECTS))
    t = study.table("ass_jokers")
    assert set(t["field"]) == {"basic", "learned", "pimc"} and set(t["players"]) == {4, 6}
    hoarding = study.table("hoarding")
    for r in t.itertuples():
        h = hoarding[(hoarding["players"] == r.players) & (hoarding["field"] == r.field)
                     & (hoarding["a"] == "hoard") & (hoarding["jokers_dealt"] == "0")]
        assert np.isclose(r.cost, float(h["cost"].iloc[0]))  # the same seat-games
        assert np.isclose(r.held_cost + r.rest, r.cost)
        assert 0.1 < r.ends_holding < 0.3 and r.ends_holding_b == 0
        assert np.isclose(r.held_cost, 14 * r.ends_holding, atol=1e-9)
    claim = next(c for c in jokers_finding(study).claims if c.id == "jokers-ass-round-jokers")
    assert check(claim, study) == []
    assert {c.field for c in claim.cells} == {"basic", "learned", "pimc"}
    assert "ass round" in claim.sentence
    planted = t.copy()
    planted.loc[planted["field"] == "pimc", ["held_cost", "held_cost_low",
                                             "held_cost_high"]] += 50
    again = StudyResult("jokers", {**study.tables, "ass_jokers": planted}, study.manifest)
    assert check(claim, again) != []


def test_issue43_item5_the_joker_verdict_says_it_depends_only_on_opposite_clear_signs():
    from reports.studies.jokers import joker_verdict

    assert joker_verdict({"positive"}) == "No."
    assert joker_verdict({"negative"}) == "Yes."
    assert "depends" not in joker_verdict({"positive", "unclear"})
    assert joker_verdict({"positive", "unclear"}).startswith("No:")
    assert "depends" not in joker_verdict({"negative", "unclear"})
    assert joker_verdict({"unclear"}) == "Not clearly either way."
    assert "depends" in joker_verdict({"positive", "negative"})
    assert "depends" in joker_verdict({"positive", "negative", "unclear"})


def test_issue43_item9_the_report_shows_the_cost_curve_as_a_figure_and_a_folded_table(tmp_path):
    from reports.views import study_figures, study_views

    study = _joker_study(_AssWithJokersLeft(effects=JOKER_EFFECTS))
    figures = study_figures(study, tmp_path)
    assert figures[0].file == "jokers_cost_curve.png" and (tmp_path / figures[0].file).exists()
    views = study_views(study)
    assert views[0].source == "cost_curve"
    assert len(views[0].frame) == len(study.table("cost_curve"))
    assert set(views[0].frame["opponents"]) == {"basic", "learned", "pimc"}
    assert any(v.source == "ass_jokers" for v in views)


def test_issue43_item9_the_headline_says_whether_it_replicated_at_another_seed():
    """Item 9, part 3: the headline's figure is its cell's interval; with a replica (the
    same study at another seed, cardlab study replicate) the verdict says whether the
    headline replicated there, by the replication's own comparison, with both figures."""
    from analyzer.numbers import interval
    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.claims import half
    from analyzer.studies.jokers import run_jokers
    from reports.findings import key_finding
    from reports.studies.jokers import jokers_finding

    def at(seed, hoard=3.0):
        backend = SyntheticAssBackend(effects={**JOKER_EFFECTS, "joker-hoarder": hoard})
        return run_jokers(backend, players=[4], keep=[0, 8], games=300, seed=seed,
                          strong=())

    first = at(0)
    assert "replicat" not in jokers_finding(first).verdict
    replica = at(7)
    verdict = key_finding(first, [replica]).verdict
    head = next(c for c in jokers_finding(replica).claims
                if c.id.startswith("jokers-hoard-headline-"))
    assert "The headline replicated at master seed 7" in verdict
    assert interval(head.cells[0].value, half(head.cells[0])) in verdict
    # the verdict holds on both seeds but the figures are further apart than chance allows
    assert "its figure not within chance" in key_finding(first, [at(7, 4.5)]).verdict
    # a replica where hoarding saves: not replicated
    assert "did not replicate" in key_finding(first, [at(7, -3.0)]).verdict


def test_issue43_item9_the_report_built_with_a_replica_says_the_headline_replicated(tmp_path):
    import json

    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.jokers import run_jokers
    from reports.build import write_report

    def at(seed):
        return run_jokers(SyntheticAssBackend(effects=JOKER_EFFECTS), players=[4], keep=[0, 8],
                          games=200, seed=seed, strong=(), matches=0)

    index = write_report([at(0)], tmp_path / "rep", None, replica=[at(7)])
    assert "The headline replicated at master seed 7" in index.read_text()
    doc = json.loads((tmp_path / "rep" / "data" / "findings.json").read_text())
    head = [c for c in doc["claims"] if c["id"].startswith("jokers-hoard-headline-")]
    assert head and head[0]["replicated"] == "same"

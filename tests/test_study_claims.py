"""Issue 21, item 1: every study sentence is rendered from a claim checked cell by cell.

For each study, the sentences it prints are exactly the sentences of its claims, every claim
holds when re-checked against the study's tables, and the claims survive saving and loading.
A claim its tables do not bear out is never printed: it becomes an alert naming the cells,
in the study and in the report; where pooling over player counts would reverse the best
choice, the study speaks per player count.
"""

import copy
import functools
import json
import re
from dataclasses import replace

import pytest

from analyzer.runner.synthetic import SyntheticAssBackend, SyntheticTrumpBackend
from analyzer.studies.best_response import run_best_response
from analyzer.studies.claims import Cell, Claim, check, make_cell, probe, several
from analyzer.studies.compare import run_compare
from analyzer.studies.fields import run_fields
from analyzer.studies.jokers import run_jokers
from analyzer.studies.ladder import run_ladder
from analyzer.studies.results import StudyResult, load_study, save_study
from analyzer.studies.seats import run_seats
from analyzer.studies.trump import run_trump

JOKER_EFFECTS = {
    "joker-hoarder": 3.0, "joker-hoarder:ass_jokers=throw": 1.5, "joker-dumper": 0.0,
    "finisher": 1.0, "heuristic": 0.5,
    **{f"hold-jokers:keep={k}": abs(k - 4) * 0.5 for k in range(14)},
}
LADDER_EFFECTS = {"s1": -3.0, "s2": -1.0, "s3": 0.0, "s4": 0.0, "s5": 2.0}


def _studies():
    ass = SyntheticAssBackend
    yield "seats", lambda: run_seats(ass(seat_slope=0.5), players=[3, 4], games=600,
                                     strong_fields=("x",), strong_players=(4,), slow_games=200)
    yield "compare", lambda: run_compare(ass(effects={"good": -1.0}), "ass",
                                         ["good", "a", "b"], players=[4, 5], games=400)
    yield "compare-until-sure", lambda: run_compare(
        ass(effects={"good": -1.0}), "ass", ["good", "a"], players=[4], games=600,
        until_sure=True)
    yield "trump", lambda: run_trump(SyntheticTrumpBackend(), players=[3, 4],
                                     rulesets=["seed", "swiss"], deals=300,
                                     choosers=["hindsight", "random", "x"], slow_deals=40)
    yield "jokers", lambda: run_jokers(ass(effects=JOKER_EFFECTS), players=[4, 6],
                                       keep=[0, 4, 8], games=300)
    yield "fields", lambda: run_fields(ass(effects={"h1": 2.0}), ["F1", "F2"], players=[4],
                                       games=200, seats_games=200, trump_fields=())
    # 50 seatings of 6 deals, not 200 of 1.5 (a quarter of the runs): the same claims
    yield "ladder", lambda: run_ladder(ass(effects=LADDER_EFFECTS), "ass", list(LADDER_EFFECTS),
                                       players=[4], games=300, probe_deals=0, slow=["s5"],
                                       seatings=50)
    yield "best-response", lambda: run_best_response(
        ass(effects={"basic": 1.0}), "ass", ["basic", "careful"], players=[4], games=200,
        confirm=30, knobs=["lead"], slow_share=2)


_MAKERS = dict(_studies())


@functools.cache
def _made(name: str) -> StudyResult:
    return _MAKERS[name]()


def _fresh(name: str) -> StudyResult:
    """A copy of the study, played once per test process (tests change their copies)."""
    return copy.deepcopy(_made(name))


STUDIES = {name: functools.partial(_fresh, name) for name in _MAKERS}


@pytest.fixture(scope="module", params=list(STUDIES))
def study(request):
    return STUDIES[request.param]()


def test_each_study_prints_exactly_its_claims_and_every_claim_holds(study, tmp_path):
    assert study.claims and study.alerts == []
    assert study.headlines == [c.sentence for c in study.claims]
    for claim in study.claims:
        assert check(claim, study) == [], claim.id
        assert claim.study == study.study and claim.game
        assert all(c.holds for c in claim.cells)
    back = load_study(save_study(study, tmp_path))
    assert back.claims == study.claims or [c.to_json() for c in back.claims] == [
        json.loads(json.dumps(c.to_json())) for c in study.claims]
    assert back.headlines == study.headlines
    for claim in back.claims:  # re-checked against the tables read back from disk
        assert check(claim, back) == [], claim.id


def test_fields_trump_merges_are_rechecked_as_identical():
    class TwoFields(SyntheticTrumpBackend):
        def table(self, name, spec, start, count):
            shift = 1 if spec.strategies[0] == "y" else 0
            return super().table(name, replace(spec, seed=spec.seed + shift), start, count)

    from analyzer.studies.fields import trump_field_claims, trump_field_tables

    result = StudyResult("fields", trump_field_tables(TwoFields(), ["x", "y", "z"],
                                                      players=[3, 4], deals=300), {})
    result.say(trump_field_claims(result))
    assert result.alerts == [] and result.headlines == [c.sentence for c in result.claims]
    assert all(check(c, result) == [] for c in result.claims)
    merged = next(c for c in result.claims if c.id == "fields-trump-merged-x")
    assert merged.sentence.startswith("x = z: the trump rules lose exactly the same")
    assert check(merged, result) == []
    # z's losses changed in one cell: the merge no longer holds there and is withdrawn
    table = result.tables["trump_merged"].copy()
    table.loc[table.index[0], "sticks_loss"] += 0.5
    tampered = StudyResult("fields", {**result.tables, "trump_merged": table}, {})
    problems = check(merged, tampered)
    assert len(problems) == 1 and "differ in sticks_loss" in problems[0]
    assert tampered.say([merged]).headlines == [] and len(tampered.alerts) == 1


class _ByPlayers(SyntheticAssBackend):
    """A strategy's effect depends on the player count: "x@4" is "x" at 4 players."""

    def collect(self, spec, count, start=0):
        mine = tuple(f"{s}@{spec.players}" for s in spec.strategies)
        return super().collect(replace(spec, strategies=mine), count, start)


def test_pooling_that_reverses_the_best_choice_gives_sentences_per_player_count():
    """At 4 players A is best; at 5 players B is, by far more, so that the mean over both
    player counts (what a pooled sentence would say) names B. The study speaks per count."""
    effects = {"A@4": -0.6, "B@4": 0.0, "A@5": 0.0, "B@5": -4.0}
    result = run_compare(_ByPlayers(effects=effects), "ass", ["A", "B"], players=[4, 5],
                         games=1500)
    ranking = result.table("ranking")
    pooled = ranking.groupby("strategy")["mean"].mean()
    assert pooled.idxmin() == "B"  # pooled over the counts: B
    best = {c.cells[0].players: c for c in result.claims if c.id.endswith("-best")}
    assert best[4].cells[0].choice == "A" and best[5].cells[0].choice == "B"
    for claim in result.claims:
        assert len({c.players for c in claim.cells}) == 1  # never pooled across counts
    assert best[4].sentence.startswith("At 4 players (Who's the Ass?), A is best")
    assert best[5].sentence.startswith("At 5 players (Who's the Ass?), B is best")
    assert best[4].sentence in result.headlines and best[5].sentence in result.headlines


def _planted(result: StudyResult) -> Claim:
    """'Seat 0 is the worst seat at 4 players', where the table says otherwise."""
    table = result.table("seats")
    part = table[table["players"] == 4]
    wrong = str(int(part.loc[part["seat_effect"].idxmin(), "seat"]))
    reader = probe("ass", "seats", "best", "seats", better="higher", extra={"key": "seat"})
    cell = make_cell(reader, result, 4, wrong, "seat_effect")
    assert not cell.holds
    return several("planted", f"At 4 players seat {wrong} pays most.",
                   [(reader, replace(cell, holds=True))], game="ass", study="seats")


def test_a_planted_false_study_claim_is_refused_and_becomes_an_alert(tmp_path):
    result = run_seats(SyntheticAssBackend(seat_slope=1.5), players=[4], games=600,
                       strong_fields=())
    good = list(result.headlines)
    planted = _planted(result)
    result.say([planted])
    assert planted.sentence not in result.headlines and result.headlines == good
    assert len(result.alerts) == 1
    assert "planted" in result.alerts[0] and "4 players" in result.alerts[0]
    # a planted number is refused too, naming the table's value
    cell = result.claims[0].cells[-1]
    moved = replace(result.claims[0], id="moved",
                    cells=(*result.claims[0].cells[:-1], replace(cell, value=cell.value + 1)))
    assert any("the table says" in p for p in check(moved, result))


def test_the_report_refuses_a_failing_study_claim_and_lists_the_others(tmp_path):
    """A study folder whose manifest carries a claim its tables do not bear out (edited by
    hand, or from another version): the report prints neither the sentence nor the claim,
    and says why in an alert; every study claim that holds is in findings.json."""
    from reports.build import build_report

    result = run_seats(SyntheticAssBackend(seat_slope=1.5), players=[4], games=600,
                       strong_fields=())
    planted = _planted(result)
    result.claims.append(planted)
    result.headlines.append(planted.sentence)  # as if it had been printed
    save_study(result, tmp_path / "results")
    index = build_report(tmp_path / "results", tmp_path / "out")
    html = index.read_text()
    assert planted.sentence not in html
    assert "A statement was withdrawn because the table does not bear it out (planted)" in html
    doc = json.loads((index.parent / "data" / "findings.json").read_text())
    ids = {c["id"] for c in doc["claims"]}
    assert "planted" not in ids
    assert {c.id for c in result.claims if c.id != "planted"} <= ids
    for raw in doc["claims"]:
        assert set(raw) >= {"id", "question", "sentence", "game", "study", "command", "cells"}
        for c in raw["cells"]:
            assert set(c) == {"players", "ruleset", "field", "aim", "choice", "metric",
                              "value", "low", "high", "holds"}
        assert raw["study"] == "seats" and raw["command"].startswith("cardlab study seats")
        claim = Claim.from_json(raw)
        assert all(c.holds for c in claim.cells) and check(claim, result) == [], raw["id"]


def test_claims_round_trip_through_json_with_missing_numbers():
    cell = Cell(4, None, "basic", None, "hoard", "variance_reduction", float("nan"),
                float("nan"), float("nan"), True)
    claim = Claim("x", "q", "s", "ass", "jokers", "", "value", "differences", (cell,))
    back = Claim.from_json(json.loads(json.dumps(claim.to_json())))
    assert back.cells[0].players == 4 and back.cells[0].value != back.cells[0].value  # NaN
    assert replace(back, cells=()) == replace(claim, cells=())


def test_a_report_of_every_study_lists_each_study_claim_and_each_holds(tmp_path):
    """findings.json holds every study's claims (ladder, fields with merged trump fields,
    best response, compare, ...), each with the study's command, each holding when re-read."""
    from analyzer.studies.fields import trump_field_claims, trump_field_tables
    from reports.build import build_report

    class TwoFields(SyntheticTrumpBackend):
        def table(self, name, spec, start, count):
            shift = 1 if spec.strategies[0] == "y" else 0
            return super().table(name, replace(spec, seed=spec.seed + shift), start, count)

    fields = STUDIES["fields"]()
    fields.tables.update(trump_field_tables(TwoFields(), ["x", "y", "z"], players=[4],
                                            deals=200))
    fields.manifest["trump"] = {"fields": ["x", "y", "z"], "deals": 200, "players": [4],
                                "rulesets": ["seed"]}
    fields.say(trump_field_claims(fields))
    studies = [fields] + [STUDIES[name]() for name in ("ladder", "best-response", "compare",
                                                       "trump")]
    for s in studies:
        save_study(s, tmp_path / "results")
    index = build_report(tmp_path / "results", tmp_path / "out")
    doc = json.loads((index.parent / "data" / "findings.json").read_text())
    by_study = {s.study: s for s in studies}
    ids = {c["id"] for c in doc["claims"]}
    for s in studies:
        assert s.alerts == [] and {c.id for c in s.claims} <= ids, s.study
    assert "fields-trump-merged-x" in ids
    for raw in doc["claims"]:
        assert raw["command"].startswith("cardlab study "), raw["id"]
        claim = Claim.from_json(raw)
        assert check(claim, by_study[raw["study"]]) == [], raw["id"]
    assert "A statement was withdrawn" not in index.read_text()


def test_a_study_folder_with_an_unreadable_claim_is_refused_in_one_line(tmp_path):
    from analyzer.errors import CardlabError

    folder = save_study(STUDIES["compare"](), tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["claims"][0]["cells"][0]["players"] = "four"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CardlabError, match="a saved claim cannot be read"):
        load_study(folder)


def test_the_study_command_prints_a_withdrawn_claim_as_an_alert_not_a_sentence(tmp_path,
                                                                              capsys):
    from analyzer.cli.study_commands import _finish

    result = run_seats(SyntheticAssBackend(seat_slope=1.5), players=[4], games=300,
                       strong_fields=())
    planted = _planted(result)
    result.say([planted])
    _finish(result, tmp_path / "results")
    out = capsys.readouterr().out
    assert planted.sentence not in out.replace("\n  ", " ")
    assert "! alert: A statement was withdrawn" in out and "(planted)" in out
    assert load_study(tmp_path / "results" / "seats").alerts == result.alerts


def test_a_claim_on_a_missing_table_or_column_fails_its_check_instead_of_crashing():
    result = STUDIES["compare"]()
    claim = result.claims[0]
    for broken in (replace(claim, kind="best", table="nosuch", extra={}),
                   replace(claim, kind="value", extra={}, cells=(
                       replace(claim.cells[0], metric="nosuch"),))):
        problems = check(broken, result)
        assert problems and "nosuch" in " ".join(problems)


class _HoardByPlayers(SyntheticAssBackend):
    """Hoarding costs 2 minus points a game at 4 players and saves 2 at 6; hoarding only in
    normal rounds makes no difference."""

    def collect(self, spec, count, start=0):
        self.effects = {"joker-hoarder": 2.0 if spec.players == 4 else -2.0}
        return super().collect(spec, count, start)


def test_a_joker_answer_whose_sign_differs_by_player_count_is_said_count_by_count():
    result = run_jokers(_HoardByPlayers(), players=[4, 6], keep=[3], games=300, matches=0)
    assert result.alerts == []
    hoard = next(c for c in result.claims if c.id == "jokers-hoard-vs-as-needed")
    assert "costs minus points at some player counts and saves them at others" in hoard.sentence
    assert re.search(r"as needed: costs [\d.]+ ± [\d.]+ at 4 players, saves [\d.]+ ± [\d.]+ "
                     r"at 6 players, per game\.$", hoard.sentence), hoard.sentence
    kinds = {c.players: k["kind"] for c, k in zip(hoard.cells, hoard.extra["statements"],
                                                   strict=True)}
    assert set(kinds.values()) == {"positive", "negative"}  # as stored: opposite signs
    normal = next(c for c in result.claims if c.id == "jokers-hoard-normal-vs-as-needed")
    assert "makes no clear difference in minus points" in normal.sentence
    assert all(k["kind"] == "unclear" for k in normal.extra["statements"])

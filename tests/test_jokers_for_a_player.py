"""Issue 21 item 4: the joker question answered for a player: two hoarders, the cost by the
jokers dealt and by field (a strong one included), what strong play does with its jokers,
and a top sentence that names the field, every claim checked cell by cell."""

import numpy as np
import pytest

from analyzer.cli.app import run_app
from analyzer.engines.ass.reference import deal
from analyzer.games.ass.cards import JOKER
from analyzer.games.ass.rules import AssRules
from analyzer.rng import PyRng
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.jokers import habits_of, habits_rows, jokers_dealt, run_jokers
from reports.claims import check
from reports.studies.jokers import jokers_finding

EFFECTS = {"joker-hoarder": 3.0, "joker-hoarder:ass_jokers=throw": 1.0, "heuristic": 0.0}


@pytest.fixture(scope="module")
def synthetic():
    return run_jokers(SyntheticAssBackend(effects=EFFECTS), players=[3, 4], keep=[2],
                      games=800, slow_games=400, seed=5)


@pytest.mark.parametrize("players", [3, 4, 6, 8, 10, 12])
def test_jokers_dealt_is_the_reference_deal(players):
    """The vectorised count of jokers per seat is the reference engine's deal, exactly."""
    indices = np.array([0, 1, 7, 123, 99_999, 2**40 + 3])
    got = jokers_dealt(11, indices, players)
    for row, index in zip(got, indices, strict=True):
        hands, _ = deal(AssRules.for_players(players), PyRng(11, int(index), 0))
        assert list(row) == [h[JOKER] for h in hands]


def test_jokers_two_hoarders_by_jokers_dealt_and_by_field(synthetic):
    """Both hoarders (never at all; never in normal rounds) against as-needed, against the
    field and against pimc, on every deal ('any') and by the jokers dealt to the seat."""
    assert synthetic.manifest["policies"]["hoard"] == "joker-hoarder"
    assert synthetic.manifest["policies"]["hoard-normal"] == "joker-hoarder:ass_jokers=throw"
    h = synthetic.table("hoarding")
    assert set(h["field"]) == {"basic", "learned", "pimc"}
    assert set(h["a"]) == {"hoard", "hoard-normal"}
    assert set(h["jokers_dealt"]) == {"any", "0", "1", "2+"}
    pairs = synthetic.table("differences")
    for (n, f, a), part in h.groupby(["players", "field", "a"]):
        by = part.set_index("jokers_dealt")
        buckets = by.loc[["0", "1", "2+"]]
        assert buckets["share"].sum() == pytest.approx(1.0)
        # the buckets split every seat-game: their weighted costs add up to the whole
        assert (buckets["cost"] * buckets["share"]).sum() == pytest.approx(by.loc["any", "cost"])
        true = EFFECTS[synthetic.manifest["policies"][a]] - EFFECTS["heuristic"]
        assert abs(by.loc["any", "cost"] - true) < 1.6 * by.loc["any", "half"]
        if f == "basic":  # the same number as the study's table of pairs
            row = pairs[(pairs["players"] == n) & (pairs["a"] == a) & (pairs["b"] == "as-needed")]
            assert by.loc["any", "cost"] == pytest.approx(row["difference"].iloc[0])
            assert by.loc["any", "seat_games"] == 800 * n
        else:  # one seat per deal against a strong field: learned on the full budget, pimc
            deals = 400 if f == "pimc" else 800  # on its slow share
            assert by.loc["any", "seat_games"] == deals == by.loc["any", "deals"]


def test_jokers_top_sentence_names_the_field_and_every_claim_holds(synthetic):
    finding = jokers_finding(synthetic)
    # the answer leads with the cost curve (issue 43 item 9); then the hoarder's headline
    assert finding.claims[0].id.startswith("jokers-cost-curve-")
    top = next(c for c in finding.claims if c.id.startswith("jokers-hoard-headline"))
    assert top.sentence.startswith("Against basic opponents at 4 players, hoarding jokers "
                                   "(never playing one while number cards remain, not even "
                                   "into an ass round) costs ")
    assert "with no joker dealt" in top.sentence and "against pimc opponents" in top.sentence
    assert finding.detail.startswith(finding.claims[0].sentence) and top.sentence in \
        finding.detail
    fields = set()
    for claim in finding.claims:
        assert check(claim, synthetic) == [], claim.id
        assert all(c.field for c in claim.cells)
        fields |= {c.field for c in claim.cells}
    assert fields == {"basic", "learned", "pimc"}
    # a claim whose cells do not hold is refused cell by cell
    from dataclasses import replace
    wrong = replace(top, kind="negative")
    assert check(wrong, synthetic)


def test_jokers_habits_are_read_from_a_game_record():
    """Seat 0: a joker as a filler with a 7, a joker into an ass round as 1, a joker alone;
    hand sizes are counted before each play, cards taken in an ass round included."""
    record = {
        "hands": [["2", "7", "J", "J", "J"], ["5", "9", "9", "A"], ["3", "4", "8"]],
        "rounds": [
            {"starter": 0, "ass_round": False,
             "plays": [{"seat": 0, "cards": ["7", "J"]}, {"seat": 1, "cards": ["9", "9"]},
                       {"seat": 2, "pass": True}], "winner": 1},
            {"starter": 1, "ass_round": True,
             "plays": [{"seat": 1, "cards": ["A"]}, {"seat": 2, "cards": ["3"]},
                       {"seat": 0, "cards": ["J"], "joker_value": 1}], "winner": 2},
            {"starter": 2, "ass_round": False,
             "plays": [{"seat": 2, "cards": ["4"]}, {"seat": 0, "cards": ["J"]},
                       {"seat": 1, "pass": True}], "winner": 0},
        ],
        "final_hands": [["2"], ["5"], ["8", "A", "3", "J"]],
    }
    counts = habits_of([record, record], [0, 2])
    assert list(counts["jokers_played"]) == [3, 0]
    assert counts["filler"][0] == counts["alone"][0] == counts["ass_as_1"][0] == 1
    assert counts["hand_size_sum"][0] == 5 + 3 + 2
    assert list(counts["ends_with_joker"]) == [0, 1]
    row = habits_rows(counts, 0.95)
    assert row["ends_with_joker"] == 0.5 and row["ass_as_1"] == pytest.approx(1 / 3)
    assert row["hand_size"] == pytest.approx(10 / 3)


def test_jokers_habits_of_pimc_and_careful_from_traced_games():
    """The real engine's traces: pimc and careful, one seat against basic."""
    from analyzer.runner.play import KernelBackend

    result = run_jokers(KernelBackend(workers=1), players=[4], keep=[1], games=20, matches=0,
                        slow_games=4, habit_games=24, seed=3)
    habits = result.table("habits").set_index("strategy")
    assert list(habits.index) == ["pimc", "careful"]
    assert (habits["seat_games"] == 24).all()
    shares = habits[["filler", "alone", "ass_as_1", "ass_as_14"]].sum(axis=1)
    assert np.allclose(shares, 1.0)
    assert habits["hand_size"].between(1, 26).all()
    # the study's sentence: per player count, every share with its interval, never pooled
    line = next(h for h in result.headlines if h.startswith("What players do with their"))
    assert "at 4 players, pimc ends " in line and "; careful ends " in line
    assert "pooled" not in line and line.count("[") >= 8  # 4 shares x 2 players, each [lo, hi]
    claim = next(c for c in result.claims if c.sentence == line)
    assert {c.metric for c in claim.cells} >= {"ends_with_joker", "filler", "ass_as_1"}


@pytest.mark.parametrize("args,text", [
    (["--slow-games", "1"], "--slow-games must be at least 2; got 1"),
    (["--habit-games", "-1"], "--habit-games must be 0 or more; got -1"),
])
def test_jokers_bad_slow_budgets_are_refused(capsys, tmp_path, args, text):
    with pytest.raises(SystemExit) as stop:
        run_app(["study", "jokers", "--out", str(tmp_path / "o"), *args])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("error: ") and text in err
    assert not (tmp_path / "o").exists()


def test_jokers_with_none_dealt_the_hoarder_differs_only_after_an_ass_round_joker():
    """Why table ass_jokers reads the hoarder's cost with no joker dealt as ass-round jokers:
    with none dealt, the hoarder and using jokers as needed play the very same game until
    the seat takes a joker in an ass round (A-7), so on real games where it takes none the
    two end alike, and the only jokers the hoarder ends holding were taken in ass rounds."""
    from analyzer.engines.ass.records import Tracer
    from analyzer.runner.play import KernelBackend, make_spec

    backend, players, seed = KernelBackend(), 4, 0
    tracers = {label: Tracer(make_spec(backend, "ass", players,
                                       [label, "basic", "basic", "basic"], seed))
               for label in ("joker-hoarder", "heuristic")}
    dealt = jokers_dealt(seed, np.arange(80), players)[:, 0]
    took, calm = 0, 0
    for index in np.flatnonzero(dealt == 0):
        hoard, _ = tracers["joker-hoarder"].record(int(index))
        needed, _ = tracers["heuristic"].record(int(index))
        taken = sum(any("J" in (p.get("cards") or []) for p in rnd["plays"])
                    for rnd in hoard["rounds"] if rnd["ass_round"] and rnd["winner"] == 0)
        if taken:
            took += 1
        else:
            calm += 1
            assert hoard["final_hands"] == needed["final_hands"], index
            assert "J" not in hoard["final_hands"][0]
    assert took and calm

"""The checklist "Adding a strategy" (docs/strategies.md), followed step by step with a toy:
a preset registered with one ``register(StrategySpec(...))`` (as a line of
strategies/ass/catalog.py would), tested on a hand-built decision, checked against the
reference engine as the engine-vs-reference test checks every catalogued name, and played
through ``cardlab.simulate`` and ``cardlab.compare``; then a bot in plain Python, the other
way the checklist names, through the same two calls."""

import pytest
from test_ass_strategies import play  # tests/ is on sys.path: the checklist's test file

import cardlab
import strategies.registry as registry
from analyzer.engines.ass.records import Tracer, verify_record
from analyzer.engines.ass.reference import play_record
from analyzer.engines.kernel import RunSpec
from strategies.ass.catalog import HEURISTIC, HEURISTIC_PARAMS
from strategies.registry import StrategySpec, register, seat_strategies

TOY = "toy-keeper"


@pytest.fixture
def toy(monkeypatch):
    """Step 1: the preset, one ``register(StrategySpec(...))`` (undone after the test)."""
    registry.catalog("ass")  # the built-in catalogue loaded first, as on import
    monkeypatch.setitem(registry._CATALOGS, "ass", dict(registry._CATALOGS["ass"]))
    return register(StrategySpec(
        "ass", TOY, HEURISTIC, "keeps its jokers while number cards remain; safe leads",
        HEURISTIC_PARAMS, preset={"jokers": "keep", "lead": "safe"}))


def test_step1_the_preset_is_a_strategy_by_its_name(toy):
    assert TOY in cardlab.strategies("ass")
    assert registry.parse_strategy("ass", TOY).label() == TOY
    with_knob = registry.parse_strategy("ass", f"{TOY}:jokers=as-needed")
    assert with_knob.label() != TOY  # its knobs stay open, as every preset's


def test_step2_its_behaviour_on_a_hand_built_decision(toy):
    follow = dict(pos=1, k=2, high=5)  # a pair of 5s to beat
    hand = ["2", "3", "4", "7", "J"]
    assert play("basic", hand, **follow) == ["7", "J"]
    assert play(TOY, hand, **follow) == "pass"  # jokers=keep: no joker while numbers remain


def test_step3_the_engine_plays_it_as_the_reference_does(toy):
    """What tests/test_ass_engine_vs_reference.py and the legality test do for every
    registered name, for the toy: whole game records equal, and legal by the independent
    rules check."""
    for players in (3, 5):
        texts = [TOY, "basic", "careful", TOY, "basic"][:players]
        for game in range(6):
            fast, status = Tracer(RunSpec("ass", players, tuple(texts), 21)).record(game)
            assert status == -1
            assert fast == play_record(21, game, seat_strategies("ass", texts, players))
            assert verify_record(fast) == []


def test_step4_it_plays_in_simulate_and_compare(toy):
    rows = cardlab.simulate("ass", 4, [TOY, "basic", "basic", "basic"], games=100, seed=1,
                            workers=1)
    assert len(rows) == 400
    assert list(rows["strategy"][:4]) == [TOY, "basic", "basic", "basic"]
    result = cardlab.compare("ass", [TOY, "basic"], players=4, games=40, seed=1, workers=1)
    assert sorted(result.ranking["strategy"]) == sorted([TOY, "basic"])


class Lowest:
    """A bot in plain Python (docs/python.md): the first legal action."""

    name = "lowest"

    def act(self, state, seat):
        return state.legal_actions()[0]


def test_a_python_bot_plays_in_simulate_and_compare():
    rows = cardlab.simulate("ass", 4, [Lowest(), "basic", "basic", "basic"], games=10, seed=1)
    assert len(rows) == 40 and list(rows["strategy"][:2]) == ["lowest", "basic"]
    result = cardlab.compare("ass", [Lowest(), "basic"], players=4, games=10, seed=1)
    assert sorted(result.ranking["strategy"]) == ["basic", "lowest"]


def test_the_checklist_names_this_walk_through_and_the_files_a_newcomer_touches():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs/strategies.md").read_text()
    start = text.index("**Adding a strategy**")
    checklist = text[start:text.index("## Strong play", start)]
    for piece in ("tests/test_toy_strategy.py", "strategies/<game>/catalog.py",
                  "strategies/<game>/policies.py", "tests/test_<game>_strategies.py",
                  "docs/python.md", "The files a newcomer touches"):
        assert piece in checklist, piece

"""cardlab.games.jass.State: the step-wise deal against the numba engine, clones, what a seat
sees, and random play to the end."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.engines.jass.kernel import play_chunk
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError
from cardlab.games.jass import NUM_ACTIONS, TENSOR_SIZE, State
from cardlab.games.play import RandomBot, collect_rows, play_game

FIELDS = [("basic",), ("random",), ("aim-low", "random", "basic", "adaptive")]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("ruleset", ["seed", "swiss"])
@pytest.mark.parametrize("field", FIELDS, ids="+".join)
def test_registered_strategies_through_the_state_give_the_engines_rows(players, ruleset, field):
    """Every card asked through State (legal_actions, apply_action) with the engines'
    strategies and draws: the final deal rows equal the numba engine's, column for column."""
    texts = tuple((list(field) * players)[:players])
    seed = 500 + players
    rules = {"ruleset": ruleset}
    engine = play_chunk(RunSpec("jass", players, texts, seed, mode="deals", rules=rules), 0, 6)
    mine = collect_rows("jass", players, list(texts), 6, seed, rules=rules)
    for column, values in engine.items():
        assert list(mine[column]) == list(values), column


@pytest.mark.parametrize("field", [("random",), ("aim-low", "pimc:worlds=4", "random")],
                         ids="+".join)
def test_a_deal_card_by_card_is_the_engines_trace(field):
    """The cards asked through State, trick by trick, are the numba engine's trace."""
    from analyzer.engines.jass.records import trace_record

    texts = tuple((list(field) * 3)[:3])
    spec = RunSpec("jass", 3, texts, 11, mode="deals")
    for index in range(3):
        state = play_game("jass", 11, index, 3, list(texts))
        record = trace_record(spec, index)["deals"][0]
        assert state.d.tricks == record["tricks"]
        assert state.points() == record["points"]
        assert state.returns() == [float(s) for s in record["sticks"]]


def test_clone_is_independent():
    s = State.new_deal(5, 2, 3)
    before = s.information_state_string(0)
    c = s.clone()
    while not c.is_terminal():
        c.apply_action(c.legal_actions()[0])
    assert s.information_state_string(0) == before and not s.is_terminal()
    assert s.returns() == [0.0] * 3 and sum(c.points()) == 157


def _swap_hidden(state: State, seat: int) -> State:
    other = state.clone()
    hands = other.d.hands
    seats = [s for s in range(other.n) if s != seat]
    pool = [c for s in seats for c in hands[s]]
    np.random.default_rng(2).shuffle(pool)
    for s in seats:
        size = len(hands[s])
        hands[s], pool = sorted(pool[:size]), pool[size:]
        other.dealt[s] = hands[s] + other.d.played[s]
    return other


@pytest.mark.parametrize("players", [3, 4])
def test_information_state_shows_no_other_hand(players):
    s = State.new_deal(9, 1, players)
    bot = RandomBot(4)
    for _ in range(7):
        s.apply_action(bot.act(s, s.current_player()))
    for seat in range(players):
        swapped = _swap_hidden(s, seat)
        assert swapped.d.hands != s.d.hands
        assert swapped.information_state_string(seat) == s.information_state_string(seat)
        assert swapped.information_state_tensor(seat) == s.information_state_tensor(seat)
        assert len(s.information_state_tensor(seat)) == TENSOR_SIZE


def test_an_illegal_card_is_one_line_naming_the_ruling():
    s = State.new_deal(3, 0, 4)
    s.apply_action(s.legal_actions()[0])
    seat = s.current_player()
    held = [c for c in s.d.hands[seat] if c not in s.legal_actions()]
    assert held  # this deal: seat 1 holds cards it may not play
    with pytest.raises(CardlabError, match=r"J-5") as e:
        s.apply_action(held[0])
    assert "\n" not in str(e.value)
    with pytest.raises(CardlabError, match="does not hold"):
        s.apply_action(35)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([3, 4]),
       ruleset=st.sampled_from(["seed", "swiss"]), pick=st.integers(0, 2**31))
def test_random_legal_play_always_reaches_the_end(seed, players, ruleset, pick):
    s = State.new_deal(seed, 0, players, {"ruleset": ruleset})
    rng = np.random.default_rng(pick)
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal and all(0 <= a < NUM_ACTIONS for a in legal)
        s.apply_action(legal[rng.integers(len(legal))])
    assert s.current_player() < 0 and s.legal_actions() == []
    assert sum(s.points()) == 157 and sum(s.d.won) == 36 // players
    assert all(r in (0.0, 1.0, 2.0) for r in s.returns())


def test_the_documented_examples_run():
    import doctest

    import cardlab.games.jass

    failures, tried = doctest.testmod(cardlab.games.jass)
    assert tried >= 6 and failures == 0


class BasicBot:
    """Plus-Minus Jass ``basic`` written against the State."""

    name = "my-basic"

    def act(self, state, seat):
        from analyzer.engines.jass.reference import ReferenceJass

        return ReferenceJass._basic(state.d, state.legal_actions())


def test_a_python_bot_takes_a_seat_in_simulate_and_compare():
    import cardlab

    mine = cardlab.simulate("jass", 3, ["aim-low", BasicBot(), "random"], games=10, seed=8)
    engine = cardlab.simulate("jass", 3, ["aim-low", "basic", "random"], games=10, seed=8,
                              mode="deals")
    assert list(mine["strategy"][:3]) == ["aim-low", "my-basic", "random"]
    assert mine.attrs["mode"] == "deals"
    assert mine.drop(columns="strategy").equals(engine.drop(columns="strategy"))
    c = cardlab.compare("jass", [BasicBot(), "aim-low"], players=3, games=6, seed=2)
    assert sorted(c.ranking["strategy"]) == ["aim-low", "my-basic"]


def test_a_bot_is_shown_its_own_information_and_other_hands_redealt():
    """What a bot gets cannot peek: its information state is the true one, the hands it
    cannot see are redealt, never giving a seat a card the record proves it lacks."""
    import cardlab.games.play as play

    shown = []

    class Spy:
        name = "spy"

        def act(self, state, seat):
            shown.append(state)
            return state.legal_actions()[-1]

    truth = State.new_deal(6, 2, 3)
    redealt = 0
    for _ in range(30):
        seat = truth.current_player()
        before = truth.clone()
        truth.apply_action(play._ask_bot(Spy(), truth, seat, play.resample_hands_for("jass"),
                                         play.PyRng(6, 2, 99).randbelow))
        got = shown[-1]
        assert got.rng is None
        assert got.information_state_string(seat) == before.information_state_string(seat)
        assert got.information_state_tensor(seat) == before.information_state_tensor(seat)
        for s in range(3):
            assert len(got.d.hands[s]) == len(before.d.hands[s])
            assert not set(got.d.hands[s]) & before.ref.banned_cards(before.d, s)
        redealt += got.d.hands != before.d.hands
    assert redealt >= 20

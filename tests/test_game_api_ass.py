"""cardlab.games.ass.State: the step-wise game against the numba engine, clones, what a seat
sees, and random play to the end."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.engines.ass.kernel import play_chunk
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError
from cardlab.games.ass import NUM_ACTIONS, TENSOR_SIZE, State
from cardlab.games.play import RandomBot, collect_rows, play_game

FIELDS = [("basic",), ("random",), ("careful", "random", "basic", "learned")]


@pytest.mark.parametrize("players", [3, 4, 7])
@pytest.mark.parametrize("field", FIELDS, ids="+".join)
def test_registered_strategies_through_the_state_give_the_engines_rows(players, field):
    """Every move asked through State (legal_actions, apply_action) with the engines'
    strategies and draws: the final rows equal the numba engine's, column for column."""
    texts = tuple((list(field) * players)[:players])
    seed = 300 + players
    engine = play_chunk(RunSpec("ass", players, texts, seed), 0, 8)
    mine = collect_rows("ass", players, list(texts), 8, seed)
    for column, values in engine.items():
        assert list(mine[column]) == list(values), column


@pytest.mark.parametrize("field", [("random",), ("careful", "basic", "random", "pimc", "learned")],
                         ids="+".join)
def test_a_game_move_by_move_is_the_engines_trace(field):
    """The moves asked through State, round by round, are the numba engine's trace."""
    from analyzer.engines.ass.records import Tracer

    texts = tuple((list(field) * 5)[:5])
    for index in range(3):
        state = play_game("ass", 11, index, 5, list(texts))
        record, status = Tracer(RunSpec("ass", 5, texts, 11)).record(index)
        assert status == -1
        assert state.rounds == record["rounds"]
        assert [-r for r in state.returns()] == record["penalties"]


def test_clone_is_independent():
    s = State.new_game(5, 2, 4)
    before = s.information_state_string(0)
    c = s.clone()
    while not c.is_terminal():
        c.apply_action(c.legal_actions()[-1])
    assert s.information_state_string(0) == before and not s.is_terminal()
    assert s.returns() == [0.0] * 4 and min(c.returns()) < 0


def _swap_hidden(state: State, seat: int) -> State:
    """The same public record with every other hand's cards shuffled among the others."""
    other = state.clone()
    hands = other.table.hands
    seats = [s for s in range(other.n) if s != seat]
    pool = [k for s in seats for k, c in enumerate(hands[s]) for _ in range(c)]
    np.random.default_rng(1).shuffle(pool)
    for s in seats:
        size = sum(hands[s])
        hands[s] = [0] * len(hands[s])
        for k in pool[:size]:
            hands[s][k] += 1
        pool = pool[size:]
        other.dealt[s] = list(hands[s])
    return other


def test_information_state_shows_no_other_hand():
    """Swapping the other hands changes neither the text nor the tensor of a seat."""
    s = State.new_game(9, 0, 4)
    bot = RandomBot(3)
    for _ in range(12):
        s.apply_action(bot.act(s, s.current_player()))
    for seat in range(4):
        swapped = _swap_hidden(s, seat)
        assert swapped.table.hands != s.table.hands
        assert swapped.information_state_string(seat) == s.information_state_string(seat)
        assert swapped.information_state_tensor(seat) == s.information_state_tensor(seat)
        assert len(s.information_state_tensor(seat)) == TENSOR_SIZE
    own = s.information_state_string(0)
    assert own != s.information_state_string(1)


def test_an_illegal_action_is_one_line_naming_the_ruling():
    s = State.new_game(7, 0, 4)
    s.apply_action(s.legal_actions()[0])  # the ass
    with pytest.raises(CardlabError, match=r"A-7") as e:
        s.apply_action(16)
    assert "\n" not in str(e.value)
    with pytest.raises(CardlabError, match="A-6"):
        t = State.from_position([["3"], ["5", "J"], ["9"]], starter=0)
        t.apply_action(t.legal_actions()[0])
        t.apply_action(3 * 256 + 16)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 12), pick=st.integers(0, 2**31))
def test_random_legal_play_always_reaches_the_end(seed, players, pick):
    s = State.new_game(seed, 0, players)
    rng = np.random.default_rng(pick)
    cards = sum(map(sum, s.table.hands))
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal and all(0 <= a < NUM_ACTIONS for a in legal)
        assert len(set(legal)) == len(legal)
        s.apply_action(legal[rng.integers(len(legal))])
        assert sum(map(sum, s.table.hands)) + sum(s.table.gone) + sum(s.on_table) == cards
    assert s.current_player() < 0 and s.legal_actions() == []
    assert any(sum(h) == 0 for h in s.table.hands)
    assert all(r <= 0 for r in s.returns())


def test_the_documented_examples_run():
    import doctest

    import cardlab.games.ass

    failures, tried = doctest.testmod(cardlab.games.ass, optionflags=doctest.ELLIPSIS)
    assert tried >= 8 and failures == 0


class BasicBot:
    """``basic`` written against the State: what a researcher's bot looks like."""

    name = "my-basic"

    def act(self, state, seat):
        from analyzer.engines.ass.reference import basic_move
        from analyzer.engines.ass.state import action_of

        return action_of(basic_move(state.table.hands[seat], state.turn))


def test_a_python_bot_takes_a_seat_in_simulate_and_plays_like_its_twin():
    import cardlab

    mine = cardlab.simulate("ass", 4, [BasicBot(), "careful", "basic", "random"], games=12,
                            seed=3)
    engine = cardlab.simulate("ass", 4, ["basic", "careful", "basic", "random"], games=12,
                              seed=3)
    assert list(mine["strategy"][:4]) == ["my-basic", "careful", "basic", "random"]
    assert mine.drop(columns="strategy").equals(engine.drop(columns="strategy"))
    assert cardlab.summarize(mine)["strategy"].tolist()[0] == "my-basic"


def test_a_python_bot_in_compare_and_its_errors():
    import cardlab

    c = cardlab.compare("ass", [BasicBot(), "careful"], players=3, games=8, seed=2)
    assert sorted(c.ranking["strategy"]) == ["careful", "my-basic"]

    class Cheat:
        name = "cheat"

        def act(self, state, seat):
            return 16  # the ass, always

    with pytest.raises(CardlabError, match="A-"):
        cardlab.simulate("ass", 3, [Cheat(), "basic", "basic"], games=3, seed=1)
    with pytest.raises(CardlabError, match="mode games only"):
        cardlab.simulate("ass", 3, [BasicBot()], games=3, mode="matches")
    named = BasicBot()
    named.name = "basic"
    with pytest.raises(CardlabError, match="registered strategy"):
        cardlab.compare("ass", [named, "careful"], players=3, games=4)


def test_the_examples_in_docs_python_md_run():
    """docs/python.md "A game step by step" and its bot example (the >>> blocks)."""
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "docs" / "python.md"
    failures, tried = doctest.testfile(str(path), module_relative=False,
                                       optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried >= 12 and failures == 0


def test_a_bot_is_shown_its_own_information_and_other_hands_redealt():
    """What a bot gets cannot peek: its information state is the true one, the hands it
    cannot see are redealt (the same sizes, the holdings the record shows kept)."""
    shown = []

    class Spy:
        name = "spy"

        def act(self, state, seat):
            shown.append(state)
            return state.legal_actions()[-1]

    import cardlab.games.play as play

    truth = State.new_game(4, 1, 4)
    redealt = 0
    for _ in range(20):
        seat = truth.current_player()
        before = truth.clone()
        truth.apply_action(play._ask_bot(Spy(), truth, seat, play.resample_hands_for("ass"),
                                         play.PyRng(4, 1, 99).randbelow))
        got = shown[-1]
        assert got.rng is None
        assert got.information_state_string(seat) == before.information_state_string(seat)
        assert got.information_state_tensor(seat) == before.information_state_tensor(seat)
        for s in range(4):
            assert sum(got.table.hands[s]) == sum(before.table.hands[s])
            assert all(g >= k for g, k in zip(got.table.hands[s], before.table.known[s],
                                              strict=True))
        redealt += got.table.hands != before.table.hands
    assert redealt >= 15

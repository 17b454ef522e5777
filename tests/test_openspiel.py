"""cardlab.openspiel: both games registered with OpenSpiel pass its own random-play checks
(skipped where the optional extra, open-spiel, is not installed)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardlab.openspiel  # noqa: E402,F401  (registers the games)
from analyzer.games import registry  # noqa: E402

CASES = [("python_whos_the_ass", {"players": 3}), ("python_whos_the_ass", {"players": 4}),
         ("python_whos_the_ass", {"players": 12}),
         ("python_plus_minus_jass", {"players": 3}),
         ("python_plus_minus_jass", {"players": 4, "ruleset": "swiss"})]


@pytest.mark.parametrize(("name", "params"), CASES)
def test_openspiels_random_simulation_checks_pass(name, params):
    """pyspiel.random_sim_test: legal actions, chance outcomes summing to 1, returns within
    the declared utilities, information states, serialization by history."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_facts_come_from_the_descriptions():
    for name, game, params in [("python_whos_the_ass", "ass", {"players": 5}),
                               ("python_plus_minus_jass", "jass", {"players": 3})]:
        g = pyspiel.load_game(name, params)
        t = g.get_type()
        d = registry.get(game)
        assert (t.min_num_players, t.max_num_players) == (d.min_players, d.max_players)
        assert t.long_name.startswith(d.title)
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert g.num_players() == params["players"]
    worst = next(c for c in registry.get("ass").mode("games").columns
                 if c.name == "minus_points").high
    assert pyspiel.load_game("python_whos_the_ass").min_utility() == -worst
    assert pyspiel.load_game("python_plus_minus_jass").max_utility() == 2.0


def _deal(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


@pytest.mark.parametrize("name", ["python_whos_the_ass", "python_plus_minus_jass"])
def test_resampling_keeps_the_information_state_and_redeals_the_rest(name):
    game = pyspiel.load_game(name, {"players": 4})
    rng = np.random.default_rng(5)
    state = _deal(game, rng)
    for _ in range(9):
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    other_hands = set()
    for _ in range(10):
        r = state.resample_from_infostate(seat, None)
        assert r.information_state_string(seat) == state.information_state_string(seat)
        assert r.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert r.legal_actions() == state.legal_actions()
        other_hands.add(str(r))
    assert len(other_hands) > 1


def test_openspiels_ismcts_bot_plays_a_move():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_plus_minus_jass", {"players": 3})
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20,
                           random_state=rng)
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, None))
    state = _deal(game, np.random.default_rng(2))
    assert bot.step(state) in state.legal_actions()


def test_the_documented_examples_run():
    import doctest

    failures, tried = doctest.testmod(cardlab.openspiel)
    assert tried >= 5 and failures == 0


def test_the_ismcts_script_reports_paired_intervals(capsys):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import openspiel_ismcts

    from analyzer.engines.jass.reference import ReferenceJass

    before = ReferenceJass._strategy_card
    assert openspiel_ismcts.main(["--deals", "3", "--games", "jass", "--jass-sims", "3"]) == 0
    out = capsys.readouterr().out
    assert "| pimc |" in out and "| ismcts 3 |" in out and "pimc - it:" in out
    assert ReferenceJass._strategy_card is before  # the timing is undone

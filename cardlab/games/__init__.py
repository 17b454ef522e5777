"""Both games one move at a time, for game-AI research: ``cardlab.games.ass.State`` (Who's the
Ass?, one game) and ``cardlab.games.jass.State`` (Plus-Minus Jass, one deal).

The interface is OpenSpiel's: ``legal_actions()``, ``apply_action(a)``, ``clone()``,
``current_player()``, ``is_terminal()``, ``returns()``, ``information_state_string(seat)``,
``information_state_tensor(seat)``, ``action_to_string(a)``. The states are the readable
reference engines run step by step, so a game played through them with cardlab's strategies is
the numba engine's game, move for move (tests/test_game_api_ass.py, test_game_api_jass.py).

A bot written in plain Python against this interface (an object with ``act(state, seat) ->
action``; :mod:`cardlab.games.play`) plays in :func:`cardlab.simulate` and
:func:`cardlab.compare` beside the registered strategies, slowly (the reference engine's
speed, thousands of moves a second rather than millions). ``import cardlab.openspiel``
registers both games with OpenSpiel.
"""

from cardlab.games.play import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]

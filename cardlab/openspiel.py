"""Both games as OpenSpiel Python games: ``import cardlab.openspiel`` registers them.

``pyspiel.load_game("python_whos_the_ass", {"players": 4})`` (3..12 players, one game) and
``pyspiel.load_game("python_plus_minus_jass", {"players": 3, "ruleset": "swiss"})`` (3 or 4
players, one deal). Needs the optional extra: ``pip install 'cardlab[openspiel]'``.

>>> import pyspiel
>>> import cardlab.openspiel
>>> game = pyspiel.load_game("python_plus_minus_jass", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_utility()
(3, 36, 2.0)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # the deal, card by card
(True, 36)

The facts OpenSpiel asks for come from cardlab's game descriptions
(``analyzer.games.registry``): the players, the title, the utilities (the range of
``minus_points`` and of a deal's ``sticks``). Both games are sequential, with explicit chance
(the deal: Who's the Ass? first the seat that gets the ass, A-2, then every other card by kind
with its probability from the cards left; Plus-Minus Jass every card), imperfect information
and general sums. The moves after the deal are :mod:`cardlab.games`' states (their actions,
returns and information states: a seat's own hand and the public record, A-11 / J-11);
``resample_from_infostate`` redeals the hidden hands consistently with a seat's information
(what IS-MCTS needs). The engines' deal of a ``(seed, index)`` is not reproduced here:
OpenSpiel draws the deal itself.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from analyzer.engines.ass.reference import KINDS
from analyzer.engines.ass.state import NUM_ACTIONS as ASS_ACTIONS
from analyzer.engines.ass.state import TENSOR_SIZE as ASS_TENSOR
from analyzer.engines.ass.state import action_text
from analyzer.engines.ass.state import resample_hands as ass_resample
from analyzer.engines.jass.state import NUM_ACTIONS as JASS_ACTIONS
from analyzer.engines.jass.state import TENSOR_SIZE as JASS_TENSOR
from analyzer.engines.jass.state import resample_hands as jass_resample
from analyzer.games import registry
from analyzer.games.ass.cards import ASS_WINDOW, COPIES, JOKER, N_JOKERS, N_VALUES, card_name
from analyzer.games.ass.rules import AssRules
from analyzer.games.jass.cards import N_CARDS
from analyzer.games.jass.cards import card_name as jass_card_name
from analyzer.games.jass.rules import make_rules
from cardlab.games.ass import State as AssState
from cardlab.games.jass import State as JassState

__all__ = ["ASS_NAME", "JASS_NAME"]

ASS_NAME = "python_whos_the_ass"
JASS_NAME = "python_plus_minus_jass"
_rng = random.Random(0)  # resample_from_infostate's draws when no sampler is given


def _column(game: str, mode: str, name: str) -> Any:
    return next(c for c in registry.get(game).mode(mode).columns if c.name == name)


def _game_type(game: str, short: str, params: dict[str, Any]) -> pyspiel.GameType:
    d = registry.get(game)
    return pyspiel.GameType(
        short_name=short,
        long_name=f"{d.title} (cardlab)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=d.max_players,
        min_num_players=d.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=params,
    )


_ASS_TYPE = _game_type("ass", ASS_NAME, {"players": 4})
_JASS_TYPE = _game_type("jass", JASS_NAME, {"players": 4, "ruleset": "seed"})


class _Observer:
    """The information state of a seat (cardlab.games' text and tensor), as OpenSpiel's
    observer interface wants it."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = state.inner.information_state_tensor(player)

    def string_from(self, state: Any, player: int) -> str:
        return state.info_string(player)


class _CardState(pyspiel.State):
    """The deal by chance, then the cardlab.games state; shared by both games."""

    inner: Any

    def current_player(self) -> int:
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        if self.inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions()

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> list[float]:
        if self.inner is None:
            return [0.0] * self.get_game().num_players()
        return self.inner.returns()

    def resample_from_infostate(self, player: int, sampler: Any = None) -> _CardState:
        """A state with the same information state for ``player``: the other hands redealt
        from what it cannot see, consistently with the public record (A-11, J-11). The draws
        come from this module's own generator; ``sampler`` is accepted and not used."""
        out = self.clone()
        if self.inner is not None:
            out.inner = self._resample(self.inner, player, lambda n: _rng.randrange(n))
        return out

    def __str__(self) -> str:
        return "dealing" if self.inner is None else str(self.inner)


class WhosTheAssState(_CardState):
    """Who's the Ass? in OpenSpiel: chance deals, then one game."""

    _resample = staticmethod(ass_resample)

    def __init__(self, game: WhosTheAssGame) -> None:
        super().__init__(game)
        self.rules: AssRules = game.rules
        self.inner = None
        self.ass_seat = -1
        self.hands = [[0] * KINDS for _ in range(self.rules.players)]
        self.left = [0] + [COPIES] * N_VALUES + [N_JOKERS]  # the undealt cards by kind

    def _next_seat_to_deal(self) -> int:
        per = self.rules.per_player
        return next(s for s in range(self.rules.players) if sum(self.hands[s]) < per)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.rules.players
        if self.ass_seat < 0:  # the ass among the first 39 cards of the stack
            return [(s, len(range(s, ASS_WINDOW, n)) / ASS_WINDOW) for s in range(n)]
        total = sum(self.left)
        return [(k, self.left[k] / total) for k in range(1, JOKER + 1) if self.left[k]]

    def _apply_action(self, action: int) -> None:
        if self.inner is not None:
            self.inner.apply_action(action)
            return
        if self.ass_seat < 0:
            self.ass_seat = int(action)
            self.hands[self.ass_seat][0] = 1
        else:
            self.hands[self._next_seat_to_deal()][action] += 1
            self.left[action] -= 1
        if all(sum(h) == self.rules.per_player for h in self.hands):
            from analyzer.engines.ass.reference import dealt_known

            self.inner = AssState(self.rules, self.hands, self.ass_seat,
                                  known=dealt_known(self.rules.players, self.ass_seat))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.ass_seat < 0:
                return f"the ass to seat {action}"
            return f"deal {card_name(action)}"
        return action_text(int(action))

    def info_string(self, player: int) -> str:
        if self.inner is None:
            return f"seat {player}: dealing {' '.join(map(str, self.hands[player]))}"
        return self.inner.information_state_string(player)


class WhosTheAssGame(pyspiel.Game):
    """Who's the Ass?, one game (A-1..A-11), ``players`` 3..12."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 4))
        self.rules = AssRules.for_players(players)
        worst = _column("ass", "games", "minus_points").high
        cards = self.rules.cards_dealt
        info = pyspiel.GameInfo(
            num_distinct_actions=ASS_ACTIONS,
            max_chance_outcomes=max(KINDS, players),
            num_players=players,
            min_utility=-float(worst),
            max_utility=0.0,
            utility_sum=None,
            # every round but an ass round removes a card, an ass round follows at most
            # one such round; each round asks every seat once
            max_game_length=(2 * cards + 1) * players,
        )
        super().__init__(_ASS_TYPE, info, params)

    def new_initial_state(self) -> WhosTheAssState:
        return WhosTheAssState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(ASS_TENSOR)


class PlusMinusJassState(_CardState):
    """Plus-Minus Jass in OpenSpiel: chance deals the 36 cards, then one deal."""

    _resample = staticmethod(jass_resample)

    def __init__(self, game: PlusMinusJassGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.inner = None
        self.deck: list[int] = []  # the cards dealt so far: seat s gets the s-th hand's share

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(N_CARDS) if c not in self.deck]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.inner is not None:
            self.inner.apply_action(action)
            return
        self.deck.append(int(action))
        if len(self.deck) == N_CARDS:
            size = N_CARDS // self.rules.players
            self.inner = JassState(self.rules, [self.deck[s * size:(s + 1) * size]
                                                for s in range(self.rules.players)])

    def _action_to_string(self, player: int, action: int) -> str:
        name = jass_card_name(int(action))
        return f"deal {name}" if player == pyspiel.PlayerId.CHANCE else name

    def info_string(self, player: int) -> str:
        if self.inner is None:
            size = N_CARDS // self.rules.players
            mine = self.deck[player * size:(player + 1) * size]
            return f"seat {player}: dealing {' '.join(jass_card_name(c) for c in mine)}"
        return self.inner.information_state_string(player)


class PlusMinusJassGame(pyspiel.Game):
    """Plus-Minus Jass, one deal (J-1..J-9), ``players`` 3 or 4, ``ruleset`` seed or swiss."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 4))
        self.rules = make_rules(players, {"ruleset": str(params.get("ruleset", "seed"))})
        sticks = _column("jass", "deals", "sticks")
        info = pyspiel.GameInfo(
            num_distinct_actions=JASS_ACTIONS,
            max_chance_outcomes=N_CARDS,
            num_players=players,
            min_utility=float(sticks.low),
            max_utility=float(sticks.high),
            utility_sum=None,
            max_game_length=N_CARDS,
        )
        super().__init__(_JASS_TYPE, info, params)

    def new_initial_state(self) -> PlusMinusJassState:
        return PlusMinusJassState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(JASS_TENSOR)


pyspiel.register_game(_ASS_TYPE, WhosTheAssGame)
pyspiel.register_game(_JASS_TYPE, PlusMinusJassGame)

"""Plus-Minus Jass one card at a time: ``State``, a single deal (J-1..J-9).

>>> from cardlab.games.jass import State
>>> s = State.new_deal(seed=3, index=0, players=4)
>>> s.current_player(), [s.action_to_string(a) for a in s.legal_actions()][:4]
(0, ['B6', 'BO', 'S6', 'S7'])
>>> s.apply_action(s.legal_actions()[0])
>>> s.current_player(), [s.action_to_string(a) for a in s.legal_actions()]
(1, ['B7', 'B10', 'BK'])
>>> s.apply_action(35)
Traceback (most recent call last):
...
analyzer.errors.CardlabError: seat 1 does not hold AA; legal: B7 B10 BK

One deal as the ``deals`` mode plays it: seat n-1 deals, seat 0 leads the first trick (J-3),
the deal's sticks alone (J-9, no remembered ties: a match's memory is not part of a deal).
Actions (fixed, 36): the card ids, ``suit * 9 + rank`` with suits B S R A (bells, shields,
roses, acorns) and ranks 6 7 8 9 10 U O K A; ``action_to_string`` gives the card's name
(``B7``, ``RU``). ``returns()`` is each seat's sticks of the deal (0, 1 or 2) at the end, 0
before; ``points()`` the card points (J-8). The information state of a seat (J-11) is its own
hand and the public record (every card and who played it, trump and who fixed it, the tricks
won), never another hand.
"""

from __future__ import annotations

from typing import Any

from analyzer.engines.jass.state import (
    NUM_ACTIONS,
    TENSOR_FIELDS,
    TENSOR_SIZE,
    TERMINAL,
    JassState,
)
from analyzer.errors import CardlabError
from analyzer.games.jass.cards import card_name
from analyzer.games.jass.names import card_of
from analyzer.games.jass.rules import make_rules

__all__ = ["NUM_ACTIONS", "TENSOR_FIELDS", "TENSOR_SIZE", "TERMINAL", "State"]


class State(JassState):
    """A deal of Plus-Minus Jass in progress (the module docstring says what is what)."""

    @classmethod
    def new_deal(cls, seed: int, index: int, players: int,  # type: ignore[override]
                 rules: dict[str, Any] | None = None) -> State:
        """Deal ``index`` of ``seed`` with 3 or 4 players as ``cardlab simulate --mode
        deals`` deals it; ``rules`` as RunSpec rules (``ruleset``: seed or swiss)."""
        return super().new_deal(seed, index, players, rules)  # type: ignore[return-value]

    new_game = new_deal

    @classmethod
    def from_position(cls, hands: list[list[str]], rules: dict[str, Any] | None = None
                      ) -> State:
        """A deal typed by hand: every seat's cards by name (``R10``, ``Rosen-10``, ``EU``:
        games.jass.names; all 36, 12 or 9 each); seat n-1 deals, seat 0 leads.

        >>> hands = [["B6", "B7", "B8", "B9", "B10", "BU", "BO", "BK", "BA", "S6", "S7", "S8"],
        ...          ["S9", "S10", "SU", "SO", "SK", "SA", "R6", "R7", "R8", "R9", "R10", "RU"],
        ...          ["RO", "RK", "RA", "A6", "A7", "A8", "A9", "A10", "AU", "AO", "AK", "AA"]]
        >>> s = State.from_position(hands, rules={"ruleset": "swiss"})
        >>> s.current_player(), s.action_to_string(s.legal_actions()[0])
        (0, 'B6')
        """
        cards = []
        for h in hands:
            try:
                cards.append([card_of(name) for name in h])
            except (ValueError, AttributeError) as exc:
                raise CardlabError(f"in {h}: {exc}") from None
        return cls(make_rules(len(hands), rules), cards)

    def action_to_string(self, action: int) -> str:
        """The card's name (``B7``, ``RU``)."""
        action = int(action)
        if not 0 <= action < NUM_ACTIONS:
            raise CardlabError(f"a Plus-Minus Jass action is a card id 0..35; got {action}")
        return card_name(action)


# --- the Python bots' table (cardlab.games.play, through the game's adapter's ``python``) ---
from analyzer.engines.jass.state import resample_hands as resample_hands  # noqa: E402

PYTHON_MODE = "deals"  # a table with a bot plays single deals


def play_entries(seed: int, index: int, players: int, entries: list[Any],
                 rules: dict[str, Any] | None, ask: Any) -> State:
    """Deal ``index`` of ``seed`` played to the end, one parsed strategy or bot per seat
    (``ask(bot, state, seat)``: the bot's action; a bot's seat counts as ``basic`` where the
    registered seats' aims are set); the final state."""
    from cardlab.games.play import is_bot
    from strategies.registry import parse_strategy

    state = State.new_deal(seed, index, players, rules)
    standins = [parse_strategy("jass", "basic") if is_bot(e) else e for e in entries]
    aims = state.aims(standins)
    while not state.is_terminal():
        seat = state.current_player()
        action = (ask(entries[seat], state, seat) if is_bot(entries[seat]) else
                  state.strategy_action(standins, aims, state.rng))
        state.apply_action(action)
    return state


def result_rows(index: int, state: State) -> dict[str, list[Any]]:
    """The engine's result columns (mode ``deals``) of a finished state."""
    n = state.n
    d = state.d
    return {
        "index": [index] * n, "seat": list(range(n)), "points": state.points(),
        "tricks": list(d.won), "sticks": state.sticks(),
        "fixed_trump": [d.fixer == s for s in range(n)], "trump": [d.trump] * n,
        "last_trick": [d.last_winner == s for s in range(n)],
    }

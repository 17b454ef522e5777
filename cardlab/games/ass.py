"""Who's the Ass? one move at a time: ``State``, a single game (A-1..A-11).

>>> from cardlab.games.ass import State
>>> s = State.new_game(seed=7, index=0, players=4)
>>> s.current_player()                      # the seat dealt the ass starts (A-8)
1
>>> [s.action_to_string(a) for a in s.legal_actions()[:3]]
['A', '2', '2 J']
>>> s.apply_action(16)                       # lead the ass (code 0*256 + 1*16 + 0)
>>> s.current_player(), s.legal_actions()[:3]
(2, [257, 272, 528])
>>> [s.action_to_string(a) for a in s.legal_actions()]
['J as 1', '1', '2', '3', '4', '7', '9', '10', 'J']
>>> s.apply_action(16)  # the ass is not seat 2's: # doctest: +ELLIPSIS
Traceback (most recent call last):
...
analyzer.errors.CardlabError: seat 2 cannot play A here (A-7: ...); legal: J as 1, 1, ..., J

Actions (fixed, :data:`NUM_ACTIONS` of them): the move codes of analyzer/games/ass/cards.py,
``v*256 + c*16 + j`` for ``c`` cards of kind ``v`` (0 the ass, 1..13, 14 jokers alone) and
``j`` jokers; a pass is 0. In an ass round a lone joker is ``1*256 + 1`` (worth 1, ``J as 1``)
or ``14*256 + 1`` (worth 14, ``J``). Seats that must pass (A-6: fewer cards than the lead) are not
asked. ``returns()`` is minus the minus points (A-10) of each seat at the end, 0 before.
The information state of a seat (A-11) is its own hand and the public record (every move and
who made it, cards gone, hand sizes, what the record shows each seat holds), never another hand.
"""

from __future__ import annotations

from typing import Any

from analyzer.engines.ass.reference import KINDS
from analyzer.engines.ass.state import (
    NUM_ACTIONS,
    PASS_ACTION,
    TENSOR_FIELDS,
    TENSOR_SIZE,
    TERMINAL,
    AssState,
    action_text,
)
from analyzer.errors import CardlabError
from analyzer.games.ass.names import kind_of
from analyzer.games.ass.rules import AssRules, rules_from_options

__all__ = ["NUM_ACTIONS", "PASS_ACTION", "TENSOR_FIELDS", "TENSOR_SIZE", "TERMINAL", "State"]


class State(AssState):
    """A game of Who's the Ass? in progress (the module docstring says what is what)."""

    @classmethod
    def new_game(cls, seed: int, index: int, players: int,  # type: ignore[override]
                 rules: dict[str, Any] | None = None) -> State:
        """Game ``index`` of ``seed`` with ``players`` (3..12) as ``cardlab simulate`` deals
        it; ``rules`` as RunSpec rules (``per_player`` only, fixed by the player count)."""
        rules_from_options(players, dict(rules or {}))
        return super().new_game(seed, index, players)  # type: ignore[return-value]

    @classmethod
    def from_position(cls, hands: list[list[str]], starter: int, blocked: int = -1,
                      gone: list[str] | None = None) -> State:
        """A position typed by hand: every seat's cards by name ("1".."13", "J" or "joker",
        "A" or "ass", in any case; games.ass.names), the seat that starts the round and the seat
        that may not lead the ass (A-8; -1 none).

        >>> s = State.from_position([["3", "3"], ["5", "J"], ["A", "9"]], starter=0)
        >>> [s.action_to_string(a) for a in s.legal_actions()]
        ['3', '3 3']
        """
        n = len(hands)
        if not 2 <= n <= 12 or not 0 <= starter < n or not -1 <= blocked < n:
            raise CardlabError("a position needs 2 to 12 hands, a starter among them and "
                               "blocked -1 or a seat")
        counts = [[0] * KINDS for _ in hands]
        try:
            for seat, names in enumerate(hands):
                for name in names:
                    counts[seat][kind_of(name)] += 1
            out = [0] * KINDS
            for name in gone or []:
                out[kind_of(name)] += 1
        except (ValueError, AttributeError) as e:
            raise CardlabError(str(e)) from None
        if not counts[starter] or not sum(counts[starter]):
            raise CardlabError(f"the starter, seat {starter}, has no cards")
        rules = AssRules(n, max(len(h) for h in hands))
        return cls(rules, counts, starter, blocked, gone=out)

    def action_to_string(self, action: int) -> str:
        """``pass`` or the cards of the move (``7 7 J``; ``J as 14`` in an ass round)."""
        return action_text(int(action))


# --- the Python bots' table (cardlab.games.play, through the game's adapter's ``python``) ---
from analyzer.engines.ass.state import resample_hands as resample_hands  # noqa: E402

PYTHON_MODE = "games"  # a table with a bot plays single games


def play_entries(seed: int, index: int, players: int, entries: list[Any],
                 rules: dict[str, Any] | None, ask: Any) -> State:
    """Game ``index`` of ``seed`` played to the end, one parsed strategy or bot per seat
    (``ask(bot, state, seat)``: the bot's action); the final state."""
    from analyzer.engines.ass.reference import Player
    from cardlab.games.play import is_bot

    state = State.new_game(seed, index, players, rules)
    seats = [e if is_bot(e) else Player(e, state.rng) for e in entries]
    while not state.is_terminal():
        seat = state.current_player()
        who = seats[seat]
        action = ask(who, state, seat) if is_bot(who) else state.strategy_move(who)
        state.apply_action(action)
    return state


def result_rows(index: int, state: State) -> dict[str, list[Any]]:
    """The engine's result columns (mode ``games``) of a finished state."""
    from analyzer.games.ass.cards import ASS, JOKER

    n = state.n
    hands = state.table.hands
    sizes = [sum(h) for h in hands]
    out_seat = next((s for s in range(n) if sizes[s] == 0), -1)
    return {
        "index": [index] * n, "seat": list(range(n)),
        "minus_points": state.minus_points(),
        "ended_with_ass": [h[ASS] > 0 for h in hands],
        "dealt_ass": [s == state.rounds[0]["starter"] for s in range(n)],
        "cards_left": sizes, "jokers_left": [h[JOKER] for h in hands],
        "ass_taken": list(state.taken), "went_out": [z == 0 for z in sizes],
        "rounds": [len(state.rounds)] * n,
        "ass_rounds": [sum(r["ass_round"] for r in state.rounds)] * n,
        "out_seat": [out_seat] * n,
    }

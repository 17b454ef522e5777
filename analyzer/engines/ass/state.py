"""Who's the Ass? one move at a time: the reference engine's rules as a step-wise state.

:class:`AssState` is one single game (A-1..A-11) that waits for each move instead of asking a
strategy: ``legal_actions()``, ``apply_action(a)``, ``clone()``. It is built on the reference
engine (:mod:`analyzer.engines.ass.reference`): its deal, its :class:`~reference.Table` and
:class:`~reference.Turn`, its legal-move generator and its scoring, so a game played through
it with the reference's strategies is the reference's game, move for move (and so the numba
engine's: tests/test_game_api_ass.py).

Actions are the move codes of cards.py (``v*256 + c*16 + j``), except that a pass is 0 (the
code of "no card of kind 0", which is no move) so that every action is a non-negative int
below :data:`NUM_ACTIONS`. Seats whose turn is a forced pass (A-6: fewer cards than the lead's
size) are not asked, as in the engines: the state passes for them.

What a seat may see (A-11) is its own hand and the public record: every move and who made it,
the cards gone, the table, every hand's size and the holdings the record shows
(``Table.known``). :meth:`AssState.information_state_string` and
:meth:`AssState.information_state_tensor` hold exactly that, never another hand.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from analyzer.errors import CardlabError
from analyzer.games.ass.cards import (
    ASS,
    COPIES,
    JOKER,
    JOKER_HIGH,
    N_JOKERS,
    N_VALUES,
    PASS,
    decode,
    encode,
    hand_names,
    move_cards,
)
from analyzer.games.ass.rules import MAX_PLAYERS, AssRules
from analyzer.rng import PyRng

from .reference import (
    KINDS,
    Player,
    Table,
    Turn,
    deal,
    dealt_known,
    legal_moves,
    minus_points,
    put_down,
)

PASS_ACTION = 0
NUM_ACTIONS = encode(JOKER_HIGH, COPIES, N_JOKERS) + 1
TERMINAL = -4  # current_player() of a finished game (OpenSpiel's kTerminalPlayerId)
# information_state_tensor layout (all seats relative to nothing: absolute seat numbers)
_SEATS = MAX_PLAYERS
TENSOR_FIELDS = (
    ("hand", KINDS),  # own counts by kind
    ("gone", KINDS),  # cards out of the game
    ("table", KINDS),  # cards on the table this round
    ("sizes", _SEATS),  # every seat's hand size
    ("known", _SEATS * KINDS),  # what the record shows each seat holds
    ("seat", _SEATS),  # one-hot: the observing seat
    ("to_move", _SEATS),  # one-hot: the seat to move (all 0 at the end)
    ("starter", _SEATS),  # one-hot: the round's starter
    ("high_seat", _SEATS),  # one-hot: who played the highest set so far this round
    ("round", 5),  # k, high value, ass round, may lead the ass, round number
)
TENSOR_SIZE = sum(size for _, size in TENSOR_FIELDS)


def action_of(move: tuple[int, int, int] | None) -> int:
    """The action of a reference move (None = pass)."""
    return PASS_ACTION if move is None else encode(*move)


def move_of(action: int) -> tuple[int, int, int] | None:
    """The reference move of an action (None = pass)."""
    return None if action == PASS_ACTION else decode(action)


def action_text(action: int) -> str:
    """``pass``, or the cards of the move as the records name them (``7 7 J``, ``A``; a lone
    joker played as a 1 in an ass round: ``J as 1``)."""
    if action == PASS_ACTION:
        return "pass"
    v, c, j = decode(action)
    text = " ".join(move_cards(action))
    return "J as 1" if (v, c, j) == (1, 0, 1) else text


def _ruling(turn: Turn) -> str:
    if turn.position == 0:
        return "A-5: the starter leads any set of one value; A-8: the ass alone where allowed"
    if turn.ass_round:
        return "A-7: in an ass round every player plays exactly one card"
    return "A-6: pass, or exactly as many cards as led, of a higher value"


class AssState:
    """One game of Who's the Ass? in progress (see the module docstring)."""

    def __init__(self, rules: AssRules, hands: list[list[int]], starter: int,
                 blocked: int = -1, known: list[list[int]] | None = None,
                 gone: list[int] | None = None, rng: PyRng | None = None) -> None:
        self.rules = rules
        self.n = rules.players
        self.table = Table(rules, [list(h) for h in hands],
                           known=known or [[0] * KINDS for _ in range(self.n)])
        if gone:
            self.table.gone = list(gone)
        self.dealt = [list(h) for h in hands]
        self.rng = rng  # the game's stream after the deal (what the engine's strategies draw)
        self.rounds: list[dict[str, Any]] = []  # finished rounds, as record rounds
        self.taken = [0] * self.n  # ass rounds taken by seat
        self.history: list[tuple[int, int]] = []  # (seat, action) of every asked move
        self.done = False
        self._begin_round(starter, blocked)

    @classmethod
    def new_game(cls, seed: int, index: int, players: int) -> AssState:
        """Game ``index`` of ``seed`` as the engines deal it (A-2, A-3)."""
        rules = AssRules.for_players(players)
        rng = PyRng(seed, index, 0)
        hands, ass_seat = deal(rules, rng)
        return cls(rules, hands, ass_seat, known=dealt_known(players, ass_seat), rng=rng)

    # --- the round in progress ------------------------------------------------------------

    def _begin_round(self, starter: int, blocked: int) -> None:
        hands = self.table.hands
        self.starter = starter
        self.blocked = blocked
        self.turn = Turn(seat=starter, position=0,
                         may_lead_ass=hands[starter][ASS] > 0 and starter != blocked)
        self.on_table = [0] * KINDS
        self.high_seat = starter
        self.plays: list[dict[str, Any]] = []
        self.log_row = [starter, PASS] + [PASS] * self.n
        self.table.log.append(self.log_row)

    def _skip_forced_passes(self) -> None:
        """Pass for seats that cannot follow (A-6: fewer than k cards); end the round when
        every seat has moved."""
        while True:
            if self.turn.position == self.n:
                self._end_round()
                return
            seat = self.turn.seat
            if self.turn.ass_round or self.table.size(seat) >= self.turn.k:
                return
            self.plays.append({"seat": seat, "pass": True})
            self._next_seat()

    def _next_seat(self) -> None:
        self.turn.position += 1
        self.turn.seat = (self.starter + self.turn.position) % self.n

    def _end_round(self) -> None:
        table, turn = self.table, self.turn
        if turn.ass_round:  # the taker takes every card of the round, the ass included
            for kind in range(KINDS):
                table.hands[self.high_seat][kind] += self.on_table[kind]
                table.known[self.high_seat][kind] += self.on_table[kind]
            self.taken[self.high_seat] += 1
        else:  # played cards leave the game
            for kind in range(KINDS):
                table.gone[kind] += self.on_table[kind]
        self.log_row[1] = self.high_seat
        table.round_number += 1
        self.rounds.append({"starter": self.starter, "ass_round": turn.ass_round,
                            "plays": self.plays, "winner": self.high_seat})
        self.on_table = [0] * KINDS  # the round's cards are taken or gone
        if any(table.size(s) == 0 for s in range(self.n)):
            self.done = True
            return
        self._begin_round(self.high_seat, self.high_seat if turn.ass_round else -1)

    # --- the game API -----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or TERMINAL (-4) when the game is over."""
        return TERMINAL if self.done else self.turn.seat

    def is_terminal(self) -> bool:
        return self.done

    def legal_moves(self) -> list[tuple[int, int, int] | None]:
        """The reference's legal moves of the seat to move (None = pass), canonical order."""
        if self.done:
            return []
        return legal_moves(self.table.hands[self.turn.seat], self.turn)

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move, ascending (pass = 0 first)."""
        return [action_of(m) for m in self.legal_moves()]

    def apply_action(self, action: int) -> None:
        """Play ``action`` for the seat to move; an illegal one raises CardlabError."""
        if self.done:
            raise CardlabError("the game is over (A-9): no more moves")
        action = int(action)
        if action not in self.legal_actions():
            what = action_text(action) if 0 <= action < NUM_ACTIONS else str(action)
            legal = ", ".join(map(action_text, self.legal_actions()))
            raise CardlabError(f"seat {self.turn.seat} cannot play {what} here "
                               f"({_ruling(self.turn)}); legal: {legal}")
        self._play(move_of(action))

    def _play(self, move: tuple[int, int, int] | None) -> None:
        table, turn, seat = self.table, self.turn, self.turn.seat
        self.history.append((seat, action_of(move)))
        if move is None:
            self.plays.append({"seat": seat, "pass": True})
        else:
            value, numbers, jokers = move
            hands, known = table.hands, table.known
            self.log_row[2 + turn.position] = encode(*move)
            if value <= N_VALUES:  # it played some of what it was known to hold
                known[seat][value] = max(0, known[seat][value] - numbers)
            known[seat][JOKER] = max(0, known[seat][JOKER] - jokers)
            play: dict[str, Any] = {"seat": seat, "cards": move_cards(encode(*move))}
            if turn.position > 0 and turn.ass_round and jokers:
                play["joker_value"] = value
            if put_down(hands[seat], self.on_table, turn, move):
                self.high_seat = seat
            self.plays.append(play)
        self._next_seat()
        self._skip_forced_passes()

    def clone(self) -> AssState:
        """An independent copy (the rng stream included)."""
        return copy.deepcopy(self)

    def minus_points(self) -> list[int]:
        """Minus points of every hand now (A-10)."""
        return [minus_points(h) for h in self.table.hands]

    def returns(self) -> list[float]:
        """Per seat, minus its minus points (A-10) at the end; 0 for every seat before."""
        if not self.done:
            return [0.0] * self.n
        return [float(-p) for p in self.minus_points()]

    def strategy_move(self, player: Player) -> int:
        """The action a reference :class:`Player` (a registered strategy) chooses here."""
        move = player.move(self.table, self.turn, self.starter, self.high_seat, self.on_table)
        return action_of(move)

    def view(self) -> np.ndarray:
        """The jitted strategies' view (cards.py layout) of the seat to move."""
        return self.table.view(self.turn, self.starter, self.high_seat, self.on_table)

    # --- what a seat may see (A-11) ----------------------------------------------------------

    def information_state_string(self, seat: int) -> str:
        """Seat ``seat``'s own hand (dealt and now) and the public record, as text."""
        t = self.table
        lines = [f"seat {seat} of {self.n}",
                 f"dealt: {' '.join(hand_names(self.dealt[seat])) or '-'}",
                 f"hand: {' '.join(hand_names(t.hands[seat])) or '-'}",
                 "sizes: " + " ".join(str(t.size(s)) for s in range(self.n)),
                 f"gone: {' '.join(hand_names(t.gone)) or '-'}",
                 "known: " + " | ".join(" ".join(hand_names(k)) or "-" for k in t.known)]
        for rnd in self.rounds + ([] if self.done else [None]):
            if rnd is None:
                starter, plays, end = self.starter, self.plays, ""
            else:
                starter, plays, end = rnd["starter"], rnd["plays"], f" -> {rnd['winner']}"
            moves = ", ".join(f"{p['seat']}: " + ("pass" if p.get("pass") else
                                                  " ".join(p["cards"]) +
                                                  (f"={p['joker_value']}" if "joker_value" in p
                                                   else ""))
                              for p in plays)
            lines.append(f"round {starter}: {moves}{end}")
        lines.append("over" if self.done else f"to move: {self.turn.seat}")
        return "\n".join(lines)

    def information_state_tensor(self, seat: int) -> list[float]:
        """Seat ``seat``'s own hand and the public state as TENSOR_SIZE numbers
        (TENSOR_FIELDS: counts, one-hot seats, the round's facts)."""
        t, turn = self.table, self.turn
        out: list[float] = []
        out += t.hands[seat]
        out += t.gone
        out += self.on_table
        out += [t.size(s) if s < self.n else 0 for s in range(_SEATS)]
        for s in range(_SEATS):
            out += t.known[s] if s < self.n else [0] * KINDS
        for who in (seat, -1 if self.done else turn.seat, self.starter, self.high_seat):
            out += [1 if s == who else 0 for s in range(_SEATS)]
        out += [turn.k, turn.high, int(turn.ass_round), int(turn.may_lead_ass),
                t.round_number]
        return [float(x) for x in out]

    def __str__(self) -> str:
        hands = " | ".join(" ".join(hand_names(h)) or "-" for h in self.table.hands)
        return f"hands: {hands}\n{self.information_state_string(self.turn.seat)}"


def unseen_counts(state: AssState, seat: int) -> list[int]:
    """The cards ``seat`` cannot see, by kind: the deck less its hand, the cards gone and the
    cards on the table (the undealt rest included)."""
    total = [0] * KINDS
    total[ASS] = 1
    for v in range(1, N_VALUES + 1):
        total[v] = COPIES
    total[JOKER] = N_JOKERS
    t = state.table
    return [total[k] - t.hands[seat][k] - t.gone[k] - state.on_table[k] for k in range(KINDS)]


def resample_hands(state: AssState, seat: int, draw) -> AssState:
    """A copy of ``state`` whose other hands are redealt from what ``seat`` cannot see,
    consistent with its information state: the same sizes, every seat keeping what the
    record shows it holds (``known``), the rest drawn without replacement (``draw(n)``: a
    uniform int below n)."""
    out = state.clone()
    t = out.table
    pool = unseen_counts(state, seat)
    others = [s for s in range(out.n) if s != seat]
    for s in others:
        for k in range(KINDS):
            pool[k] -= t.known[s][k]
    cards = [k for k in range(KINDS) for _ in range(pool[k])]
    for i in range(len(cards) - 1, 0, -1):
        j = draw(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    pos = 0
    for s in others:
        need = state.table.size(s) - sum(t.known[s])
        hand = list(t.known[s])
        for k in cards[pos:pos + need]:
            hand[k] += 1
        pos += need
        t.hands[s] = hand
        out.dealt[s] = list(hand)  # not the real deal: a seat's dealt hand is private
    return out

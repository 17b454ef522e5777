"""Plus-Minus Jass one card at a time: the reference engine's rules as a step-wise state.

:class:`JassState` is one single deal (J-1..J-9, the ``deals`` mode: seat n-1 deals, seat 0
leads, sticks for this deal alone, no remembered ties) that waits for each card instead of
asking a strategy. It is built on the reference engine (:mod:`analyzer.engines.jass.reference`):
its deal order, its ``_Deal`` bookkeeping, ``legal_cards``, ``trick_winner``, the public
inferences (``_note_showing_out``, ``banned_cards``), ``points`` and J-9's ``deal_sticks``, so a
deal played through it with the reference's strategies is the reference's deal, card for card
(and so the numba engine's: tests/test_game_api_jass.py).

Actions are the card ids 0..35 (suit * 9 + rank; suits bells, shields, roses, acorns; ranks
6 7 8 9 10 U O K A; ``cards.card_name``). Returns are each seat's sticks of the deal (J-9: 0, 1
or 2); points and tricks are there too (:meth:`JassState.points`).

What a seat may see (J-11) is its own hand and the public record (every card and who played
it, trump and who fixed it, the tricks won); the information state holds that, never another
hand.
"""

from __future__ import annotations

import copy
from typing import Any

from analyzer.errors import CardlabError
from analyzer.games.jass.cards import (
    N_CARDS,
    N_SUITS,
    SUIT_LETTERS,
    card_name,
    cards_mask,
    hand_names,
)
from analyzer.games.jass.rules import JassRules, make_rules
from analyzer.games.jass.sticks import deal_sticks
from analyzer.rng import PyRng
from strategies.registry import Strategy

from .reference import ReferenceJass, _Deal, legal_cards

NUM_ACTIONS = N_CARDS
TERMINAL = -4
MAX_SEATS = 4
TENSOR_FIELDS = (
    ("hand", N_CARDS),  # own cards
    ("played", MAX_SEATS * N_CARDS),  # every seat's played cards
    ("trick", MAX_SEATS * N_CARDS),  # the cards of the trick in progress, by seat
    ("trump", N_SUITS + 1),  # one-hot trump suit, last: none yet
    ("fixer", MAX_SEATS),  # one-hot: who fixed trump
    ("seat", MAX_SEATS),  # one-hot: the observing seat
    ("to_move", MAX_SEATS),  # one-hot: the seat to move
    ("leader", MAX_SEATS),  # one-hot: who led the trick in progress
    ("won", MAX_SEATS),  # tricks won by seat
)
TENSOR_SIZE = sum(size for _, size in TENSOR_FIELDS)


def deal_hands(rng: PyRng, players: int, dealer: int) -> list[list[int]]:
    """The engines' deal (J-2): a Fisher-Yates shuffle, packets of three in playing order."""
    deck = list(range(N_CARDS))
    for i in range(N_CARDS - 1, 0, -1):
        j = rng.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    first = (dealer + 1) % players
    hands: list[list[int]] = [[] for _ in range(players)]
    for k, c in enumerate(deck):
        hands[(first + (k // 3) % players) % players].append(c)
    return hands


class JassState:
    """One deal of Plus-Minus Jass in progress (see the module docstring)."""

    def __init__(self, rules: JassRules, hands: list[list[int]], dealer: int | None = None,
                 rng: PyRng | None = None) -> None:
        self.rules = rules
        self.n = rules.players
        if sorted(c for h in hands for c in h) != list(range(N_CARDS)) or len(hands) != self.n \
                or any(len(h) != N_CARDS // self.n for h in hands):
            raise CardlabError(f"a Plus-Minus Jass deal gives all 36 cards, {N_CARDS // self.n} "
                               f"to each of the {self.n} seats (J-2)")
        self.dealer = self.n - 1 if dealer is None else dealer
        self.d = _Deal(self.n, self.dealer, hands)
        self.dealt = [list(h) for h in self.d.hands]
        # the reference's bookkeeping (views, inferences, points); strategies only for drivers
        self.ref = ReferenceJass(rules, [])
        self.rng = rng
        self.history: list[tuple[int, int]] = []

    @classmethod
    def new_deal(cls, seed: int, index: int, players: int,
                 rules: dict[str, Any] | None = None) -> JassState:
        """Single deal ``index`` of ``seed`` as the engines deal it (``deals`` mode)."""
        jr = make_rules(players, rules)
        rng = PyRng(seed, index, 0)
        return cls(jr, deal_hands(rng, players, players - 1), players - 1, rng=rng)

    # --- the game API -----------------------------------------------------------------------

    @property
    def tricks_total(self) -> int:
        return N_CARDS // self.n

    def is_terminal(self) -> bool:
        return len(self.d.tricks) == self.tricks_total

    def current_player(self) -> int:
        """The seat to play, or TERMINAL (-4) after the last trick."""
        if self.is_terminal():
            return TERMINAL
        return (self.d.leader + len(self.d.trick)) % self.n

    def legal_actions(self) -> list[int]:
        """The cards the seat to play may play (J-4..J-6), ascending."""
        if self.is_terminal():
            return []
        d = self.d
        return legal_cards(d.hands[self.current_player()], d.trick, d.trump, self.rules.ruleset)

    def apply_action(self, action: int) -> None:
        """Play card ``action`` for the seat to play; an illegal one raises CardlabError."""
        if self.is_terminal():
            raise CardlabError("the deal is over: every card is played (J-8)")
        action = int(action)
        legal = self.legal_actions()
        if action not in legal:
            seat = self.current_player()
            what = card_name(action) if 0 <= action < N_CARDS else str(action)
            if action not in self.d.hands[seat]:
                why = f"seat {seat} does not hold {what}"
            else:
                why = (f"seat {seat} may not play {what} here (J-5: follow the led suit; J-6: "
                       f"the trump rules, {self.rules.ruleset} reading)")
            raise CardlabError(f"{why}; legal: {' '.join(card_name(c) for c in legal)}")
        self._play(action)

    def _play(self, card: int) -> None:
        d, seat = self.d, self.current_player()
        self.history.append((seat, card))
        self.ref.lay(d, seat, card)
        if len(d.trick) == self.n:  # J-7
            self.ref.close_trick(d)

    def clone(self) -> JassState:
        """An independent copy (the rng stream included)."""
        return copy.deepcopy(self)

    def points(self) -> list[int]:
        """Card points by seat (J-8, the last trick's 5 included) of the finished deal."""
        if not self.is_terminal():
            raise CardlabError("points are counted when the deal is over (J-8)")
        return self.ref.points(self.d)

    def sticks(self) -> list[int]:
        """Sticks of this deal by seat (J-9 cases 1-3, no remembered ties)."""
        return deal_sticks(self.points())[0]

    def returns(self) -> list[float]:
        """Per seat, its sticks of the deal (J-9) at the end; 0 for every seat before."""
        if not self.is_terminal():
            return [0.0] * self.n
        return [float(s) for s in self.sticks()]

    # --- registered strategies (drivers) -----------------------------------------------------

    def aims(self, strategies: list[Strategy]) -> list[int]:
        """Each seat's aim for the deal as the engines ask it before the first card."""
        self.ref.strategies = list(strategies)
        aims = [0] * self.n
        for k in range(self.n):
            seat = (self.d.first + k) % self.n
            aims[seat] = self.ref._aim(seat, self.d, [0] * self.n, 0)
        return aims

    def strategy_action(self, strategies: list[Strategy], aims: list[int], rng: PyRng) -> int:
        """The card the registered strategy of the seat to play chooses (the reference's
        ``_strategy_card``, the same draws from ``rng``)."""
        self.ref.strategies = list(strategies)
        seat = self.current_player()
        return self.ref._strategy_card(seat, self.d, self.legal_actions(), rng, aims[seat],
                                       [0] * self.n, 0)

    # --- what a seat may see (J-11) ----------------------------------------------------------

    def information_state_string(self, seat: int) -> str:
        """Seat ``seat``'s own hand (dealt and now) and the public record, as text."""
        d = self.d
        trump = SUIT_LETTERS[d.trump] if d.trump >= 0 else "-"
        lines = [f"seat {seat} of {self.n}, dealer {self.dealer}",
                 f"dealt: {' '.join(hand_names(cards_mask(self.dealt[seat])))}",
                 f"hand: {' '.join(hand_names(cards_mask(d.hands[seat]))) or '-'}",
                 f"trump: {trump}" + (f" fixed by {d.fixer}" if d.fixer >= 0 else "")]
        for t in d.tricks:
            lines.append(f"trick {t['leader']}: {' '.join(t['cards'])} -> {t['winner']}")
        if d.trick:
            lines.append(f"trick {d.leader}: {' '.join(card_name(c) for c in d.trick)}")
        lines.append("over" if self.is_terminal() else f"to move: {self.current_player()}")
        return "\n".join(lines)

    def information_state_tensor(self, seat: int) -> list[float]:
        """Seat ``seat``'s own hand and the public state as TENSOR_SIZE numbers."""
        d = self.d
        out = [0.0] * TENSOR_SIZE
        for c in d.hands[seat]:
            out[c] = 1.0
        base = N_CARDS
        for s in range(self.n):
            for c in d.played[s]:
                out[base + s * N_CARDS + c] = 1.0
        base += MAX_SEATS * N_CARDS
        for s, c in zip(d.trick_seats, d.trick, strict=True):
            out[base + s * N_CARDS + c] = 1.0
        base += MAX_SEATS * N_CARDS
        out[base + (d.trump if d.trump >= 0 else N_SUITS)] = 1.0
        base += N_SUITS + 1
        if d.fixer >= 0:
            out[base + d.fixer] = 1.0
        base += MAX_SEATS
        out[base + seat] = 1.0
        base += MAX_SEATS
        if not self.is_terminal():
            out[base + self.current_player()] = 1.0
        base += MAX_SEATS
        out[base + d.leader] = 1.0
        base += MAX_SEATS
        for s in range(self.n):
            out[base + s] = float(d.won[s])
        return out

    def __str__(self) -> str:
        hands = " | ".join(" ".join(hand_names(cards_mask(h))) or "-" for h in self.d.hands)
        who = self.current_player()
        return f"hands: {hands}\n{self.information_state_string(max(who, 0))}"


def resample_hands(state: JassState, seat: int, draw, tries: int = 1000) -> JassState:
    """A copy of ``state`` whose other hands are redealt from the cards ``seat`` has not seen,
    consistent with its information state: the same sizes, and no seat given a card the
    public record proves it lacks (J-5, J-6: ``banned_cards``). Cards are placed in random
    order, each with a uniform ``draw(n)`` among the seats that may hold it and have room
    (close to, not exactly, uniform over the consistent deals); a dead end starts again."""
    d = state.d
    others = [s for s in range(state.n) if s != seat]
    pool = [c for s in others for c in d.hands[s]]
    banned = {s: state.ref.banned_cards(d, s) for s in others}
    sizes = {s: len(d.hands[s]) for s in others}
    for _ in range(tries):
        cards = list(pool)
        for i in range(len(cards) - 1, 0, -1):
            j = draw(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        cards.sort(key=lambda c: sum(c not in banned[s] for s in others))  # stable
        hands: dict[int, list[int]] = {s: [] for s in others}
        for c in cards:
            room = [s for s in others if c not in banned[s] and len(hands[s]) < sizes[s]]
            if not room:
                break
            hands[room[draw(len(room))]].append(c)
        else:
            out = state.clone()
            for s in others:
                out.d.hands[s] = sorted(hands[s])
                out.dealt[s] = sorted(hands[s] + out.d.played[s])  # private: not the deal
            return out
    return state.clone()  # the true hands are always consistent

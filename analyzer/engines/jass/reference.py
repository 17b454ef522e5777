"""Plus-Minus Jass in plain, readable Python: the reference the numba engine is checked against.

It implements rulings J-1..J-10 directly from their text with lists and sets, draws from the same
(seed, index) stream in the same order as the engine, and returns game records (game-records.md)
that must equal the engine's trace, move for move. Its ``basic`` and ``random`` strategies are
written out again here from baseline-strategies.md and ``learned`` through its plain-Python
twin; the other families (heuristic, the search) are called through the engine's own
dispatcher (:func:`strategies.jass.dispatch.decide`) with a public view built from this
engine's own state, so the comparison also checks that the public view (J-11) the engine hands
to strategies is right.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from analyzer.games.jass.cards import (
    LAST_TRICK_BONUS,
    N_CARDS,
    N_RANKS,
    PAIR_SLOT,
    PLAIN_POINTS_R,
    SUIT_LETTERS,
    TRUMP_STRENGTH_R,
    UNDER,
    card_name,
    card_points,
    cards_mask,
    hand_names,
)
from analyzer.games.jass.primitives import (
    S_BAN,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_DEAL_NO,
    S_DEALER,
    S_FIRST,
    S_FIXER,
    S_HIGH_TRUMP,
    S_HIST,
    S_LAST_WINNER,
    S_LEADER,
    S_LED,
    S_N,
    S_NTRICKS,
    S_POS,
    S_STICKS,
    S_SWISS,
    S_TCARD,
    S_TIES,
    S_TRICK,
    S_TRUMP,
    S_TSEAT,
    S_VOID,
    S_WON,
    ST_SIZE,
)
from analyzer.games.jass.rules import JassRules
from analyzer.games.jass.sticks import deal_sticks
from analyzer.rng import PyRng
from strategies.jass.knobs import (
    AIM_LABELS,
    AIM_NA,
    FAM_BASIC,
    FAM_LEARNED,
    FAM_PEEK,
    FAM_PIMC,
    FAM_RANDOM,
)
from strategies.registry import Strategy


def suit(card: int) -> int:
    """Suit of a card: 0..3 = bells, shields, roses, acorns."""
    return card // N_RANKS


def rank(card: int) -> int:
    """Rank of a card in plain order: 0..8 = 6 7 8 9 10 U O K A (J-1)."""
    return card % N_RANKS


def trump_rank(card: int) -> int:
    """Place of a card in the trump order 6 7 8 10 O K A 9 U (J-1)."""
    return int(TRUMP_STRENGTH_R[rank(card)])


def legal_cards(hand: list[int], trick: list[int], trump: int, ruleset: str) -> list[int]:
    """The cards of ``hand`` that may be played on ``trick`` (cards so far), J-4..J-6."""
    if not trick:
        return sorted(hand)  # J-4
    led = suit(trick[0])
    of_led = [c for c in hand if suit(c) == led]
    if trump < 0:  # J-5
        return sorted(of_led) if of_led else sorted(hand)
    trumps = [c for c in hand if suit(c) == trump]
    if led == trump:
        if ruleset == "swiss":
            forced = [c for c in trumps if rank(c) != UNDER]
            return sorted(trumps) if forced else sorted(hand)
        return sorted(trumps) if trumps else sorted(hand)
    trumps_in_trick = [c for c in trick if suit(c) == trump]
    if not trumps_in_trick:
        return sorted(of_led + trumps) if of_led else sorted(hand)
    top = max(trump_rank(c) for c in trumps_in_trick)
    higher = [c for c in trumps if trump_rank(c) > top]
    lower = [c for c in trumps if trump_rank(c) < top]
    if of_led:
        return sorted(of_led + higher)
    if ruleset == "swiss":
        if len(trumps) == len(hand):
            return sorted(hand)
        return sorted(c for c in hand if c not in lower)
    if higher:
        return sorted(higher)
    if lower:
        return sorted(lower)
    return sorted(hand)


def trick_winner(trick: list[int], trump: int) -> int:
    """Position in the trick of the winning card (J-7)."""
    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: trump_rank(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: rank(trick[i]))


def pay_ties(pending: Counter[tuple[int, int]], award: list[int],
             new_ties: list[tuple[int, int]]) -> list[int]:
    """J-9 remembered ties: pay and forget the pending ties of which exactly one player was
    awarded a stick in this deal (one extra stick per pending tie of the pair), then remember
    this deal's ties, which therefore cannot pay in the deal that made them. Returns the bonus
    sticks per seat; ``pending`` is updated in place."""
    bonus = [0] * len(award)
    for (a, b), count in list(pending.items()):
        if (award[a] > 0) != (award[b] > 0):
            bonus[a if award[a] > 0 else b] += count
            del pending[(a, b)]
    pending.update(new_ties)
    return bonus


class _Deal:
    """One deal in progress, in readable form."""

    def __init__(self, n: int, dealer: int, hands: list[list[int]]) -> None:
        self.n = n
        self.dealer = dealer
        self.first = (dealer + 1) % n
        self.hands = [sorted(h) for h in hands]
        self.trump = -1
        self.fixer = -1
        self.leader = self.first
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.taken: list[list[int]] = [[] for _ in range(n)]
        self.won = [0] * n
        self.showed_out: list[set[int]] = [set() for _ in range(n)]
        # moves that went off the led suit: (seat, card, trick before it, trump); what they
        # prove a seat lacks is worked out only when a search strategy asks (banned_cards)
        self.off_suit: list[tuple[int, int, list[int], int]] = []
        self.tricks: list[dict[str, Any]] = []
        self.history: list[int] = []  # every card of the deal in playing order (public)
        self.last_winner = -1


class ReferenceJass:
    """A match (or a single deal) of Plus-Minus Jass, played in plain Python."""

    def __init__(self, rules: JassRules, strategies: list[Strategy]) -> None:
        self.rules = rules
        self.n = rules.players
        self.strategies = strategies
        self._pending: Counter[tuple[int, int]] = Counter()  # the match's remembered ties

    # --- strategies ------------------------------------------------------------------------

    def _view(self, d: _Deal, sticks: list[int], deal_no: int,
              pending: Counter[tuple[int, int]] | None = None, bans: bool = True) -> np.ndarray:
        """The public state in the engine's layout (primitives.S_*), built from this deal
        (``bans=False`` leaves S_BAN empty: only the search strategies read it)."""
        st = [0] * ST_SIZE  # a list, turned into the engine's array at the end
        st[S_N] = self.n
        st[S_SWISS] = 1 if self.rules.swiss else 0
        st[S_TRUMP] = d.trump
        st[S_FIXER] = d.fixer
        st[S_LEADER] = d.leader
        st[S_POS] = len(d.trick)
        st[S_TRICK] = len(d.tricks)
        st[S_LED] = suit(d.trick[0]) if d.trick else -1
        st[S_BEST_SEAT] = -1
        st[S_BEST_CARD] = -1
        st[S_HIGH_TRUMP] = -1
        if d.trick:
            w = trick_winner(d.trick, d.trump)
            st[S_BEST_SEAT] = d.trick_seats[w]
            st[S_BEST_CARD] = d.trick[w]
            trumps = [trump_rank(c) for c in d.trick if suit(c) == d.trump]
            st[S_HIGH_TRUMP] = max(trumps) if trumps else -1
        st[S_LAST_WINNER] = -1
        st[S_DEALER] = d.dealer
        st[S_DEAL_NO] = deal_no
        st[S_FIRST] = d.first
        st[S_NTRICKS] = N_CARDS // self.n
        st[S_TCARD:S_TCARD + len(d.trick)] = d.trick
        st[S_TSEAT:S_TSEAT + len(d.trick_seats)] = d.trick_seats
        st[S_HIST:S_HIST + len(d.history)] = d.history
        for i in range(self.n):
            st[S_VOID + i] = sum(1 << s for s in d.showed_out[i])
            st[S_STICKS + i] = sticks[i]
            st[S_WON + i] = d.won[i]
            if bans:
                st[S_BAN + i] = cards_mask(sorted(self.banned_cards(d, i)))
        for (a, b), count in (pending or {}).items():
            st[S_TIES + int(PAIR_SLOT[a, b])] = count
        return np.array(st, dtype=np.int64)

    def _aim(self, seat: int, d: _Deal, sticks: list[int], deal_no: int) -> int:
        from strategies.jass.policies import begin_deal

        s = self.strategies[seat]
        if s.family in (FAM_BASIC, FAM_RANDOM, FAM_LEARNED):
            return AIM_NA
        prm = np.array(s.values, dtype=np.float64)
        hand = np.uint64(cards_mask(d.hands[seat]))
        view = self._view(d, sticks, deal_no, self._pending, bans=False)
        return int(begin_deal(s.family, prm, seat, hand, view))

    def _strategy_card(self, seat: int, d: _Deal, legal: list[int], rng: PyRng, aim: int,
                       sticks: list[int], deal_no: int) -> int:
        s = self.strategies[seat]
        if s.family == FAM_BASIC:
            return self._basic(d, legal)
        if s.family == FAM_RANDOM:
            return legal[rng.randbelow(len(legal))]
        from strategies.jass.dispatch import decide

        played = np.array([cards_mask(p) for p in d.played] + [0] * (4 - self.n),
                          dtype=np.uint64)
        taken = np.array([cards_mask(t) for t in d.taken] + [0] * (4 - self.n), dtype=np.uint64)
        hands = np.array([cards_mask(h) for h in d.hands] + [0] * (4 - self.n), dtype=np.uint64)
        state = rng.as_array()
        prm = np.array(s.values, dtype=np.float64)
        legal_mask = np.uint64(cards_mask(legal))
        view = self._view(d, sticks, deal_no, self._pending,
                          bans=s.family in (FAM_PIMC, FAM_PEEK))
        if s.family == FAM_LEARNED:  # the model's plain-Python twin, same weights
            from strategies.jass.learned import choose_py, weights_py

            card = choose_py(seat, hands[seat], legal_mask, view, played, taken, weights_py(prm))
        else:  # the engine's own dispatcher: a legal player gets its hand, peek every hand
            card = int(decide(s.family, prm, seat, hands, legal_mask, view, played, taken, state,
                              aim))
        rng.load_array(state)
        return card

    @staticmethod
    def _basic(d: _Deal, legal: list[int]) -> int:
        """baseline-strategies.md, Plus-Minus Jass ``basic``."""

        def key(c: int) -> tuple[int, int, int]:
            trump_after = d.trump
            if trump_after < 0 and d.trick and suit(c) != suit(d.trick[0]):
                trump_after = suit(c)  # this card fixes trump and counts as one
            is_trump = suit(c) == trump_after
            # mid-deal with no trump yet, an 8 counts 0 (plain points)
            pts = card_points(c, trump_after) if trump_after >= 0 else int(PLAIN_POINTS_R[rank(c)])
            own_rank = trump_rank(c) if is_trump else rank(c)
            return pts, own_rank, suit(c)

        return min(legal, key=key)

    # --- play ------------------------------------------------------------------------------

    def _play_deal(self, rng: PyRng, dealer: int, sticks: list[int], deal_no: int,
                   record: dict[str, Any]) -> _Deal:
        n = self.n
        deck = list(range(N_CARDS))
        for i in range(N_CARDS - 1, 0, -1):  # Fisher-Yates, as the engine
            j = rng.randbelow(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        first = (dealer + 1) % n
        hands: list[list[int]] = [[] for _ in range(n)]
        for k, c in enumerate(deck):  # J-2: packets of three in playing order
            hands[(first + (k // 3) % n) % n].append(c)
        d = _Deal(n, dealer, hands)
        record["dealer"] = dealer
        record["hands"] = [hand_names(cards_mask(h)) for h in d.hands]
        aims = [0] * n
        for k in range(n):
            seat = (first + k) % n
            aims[seat] = self._aim(seat, d, sticks, deal_no)
        record["aims"] = [AIM_LABELS[a] for a in aims]
        for _ in range(N_CARDS // n):
            for k in range(n):
                seat = (d.leader + k) % n
                legal = legal_cards(d.hands[seat], d.trick, d.trump, self.rules.ruleset)
                card = self._strategy_card(seat, d, legal, rng, aims[seat], sticks, deal_no)
                if card not in legal:
                    raise RuntimeError(f"strategy at seat {seat} played illegal {card_name(card)}")
                self.lay(d, seat, card)
            self.close_trick(d)
        record["tricks"] = d.tricks
        record["trump"] = SUIT_LETTERS[d.trump] if d.trump >= 0 else None
        record["fixer"] = d.fixer if d.fixer >= 0 else None
        return d

    def lay(self, d: _Deal, seat: int, card: int) -> None:
        """``seat`` plays ``card`` (legal) to the trick: what it shows of the hand (J-11), the
        trump it fixes when it does not follow the led suit (J-5)."""
        self._note_showing_out(d, seat, card)
        if d.trump < 0 and d.trick and suit(card) != suit(d.trick[0]):
            d.trump, d.fixer = suit(card), seat  # J-5
        d.hands[seat].remove(card)
        d.played[seat].append(card)
        d.history.append(card)
        d.trick.append(card)
        d.trick_seats.append(seat)

    @staticmethod
    def close_trick(d: _Deal) -> None:
        """The full trick goes to its winner, who leads the next (J-7)."""
        w = d.trick_seats[trick_winner(d.trick, d.trump)]
        d.tricks.append({"leader": d.leader, "cards": [card_name(c) for c in d.trick],
                         "winner": w})
        d.taken[w].extend(d.trick)
        d.won[w] += 1
        d.leader = w
        d.last_winner = w
        d.trick, d.trick_seats = [], []

    def _note_showing_out(self, d: _Deal, seat: int, card: int) -> None:
        """Record what a card proves about the seat's hand (public inference, J-11)."""
        if not d.trick:
            return
        led = suit(d.trick[0])
        if suit(card) == led:
            return  # following suit is always allowed: it proves nothing
        d.off_suit.append((seat, card, list(d.trick), d.trump))
        if d.trump < 0:
            d.showed_out[seat].add(led)  # J-5: it would have had to follow
            return
        if suit(card) == d.trump:
            return  # trumping is allowed while holding the led suit
        d.showed_out[seat].add(led)
        trump_in_trick = any(suit(c) == d.trump for c in d.trick)
        if self.rules.ruleset == "seed" and (led == d.trump or trump_in_trick):
            d.showed_out[seat].add(d.trump)  # seed: a held trump would have been forced

    def banned_cards(self, d: _Deal, seat: int) -> set[int]:
        """The cards the play so far proves ``seat`` does not hold (J-5, J-6): for each of its
        moves off the led suit, every card x that, held beside the card played, would have
        made that card illegal (every J-5/J-6 restriction reads "who holds X must play X", so
        pairs decide it)."""
        out: set[int] = set()
        for s, card, trick, trump in d.off_suit:
            if s == seat:
                out.update(x for x in range(N_CARDS) if x != card and card not in legal_cards(
                    [card, x], trick, trump, self.rules.ruleset))
        return out

    def points(self, d: _Deal) -> list[int]:
        """J-8: card points with the trump as finally fixed, +5 for the last trick."""
        pts = [sum(card_points(c, d.trump) for c in d.taken[i]) for i in range(self.n)]
        pts[d.last_winner] += LAST_TRICK_BONUS
        return pts

    def _header(self, seed: int, index: int, mode: str) -> dict[str, Any]:
        return {
            "game": "jass", "version": 1, "seed": seed, "index": index, "players": self.n,
            "strategies": [s.label() for s in self.strategies],
            "rules": self.rules.as_dict(), "mode": mode,
        }

    def play_match(self, seed: int, index: int) -> dict[str, Any]:
        """Play match ``index`` of ``seed`` (J-10) and return its record."""
        n = self.n
        rng = PyRng(seed, index, 0)
        dealer = rng.randbelow(n)
        out = self._header(seed, index, "matches")
        out["first_dealer"] = dealer
        sticks = [0] * n
        pending: Counter[tuple[int, int]] = Counter()
        self._pending = pending
        deals = []
        winner = None
        for deal_no in range(1, self.rules.deal_cap + 1):
            rec: dict[str, Any] = {}
            d = self._play_deal(rng, dealer, sticks, deal_no, rec)
            pts = self.points(d)
            award, new_ties = deal_sticks(pts)
            bonus = pay_ties(pending, award, new_ties)
            sticks = [sticks[i] + award[i] + bonus[i] for i in range(n)]
            rec.update(points=pts, sticks=[award[i] + bonus[i] for i in range(n)],
                       totals=list(sticks), bonus=bonus)
            deals.append(rec)
            top = max(sticks)
            if top >= 7 and sticks.count(top) == 1:
                winner = sticks.index(top)
                break
            dealer = (dealer + 1) % n
        out["deals"] = deals
        out["winner"] = winner
        out["capped"] = winner is None
        return out

    def play_single_deal(self, seed: int, index: int) -> dict[str, Any]:
        """Play single deal ``index`` of ``seed`` (seat n-1 deals) and return its record."""
        n = self.n
        rng = PyRng(seed, index, 0)
        out = self._header(seed, index, "deals")
        out["first_dealer"] = n - 1
        self._pending = Counter()
        rec: dict[str, Any] = {}
        d = self._play_deal(rng, n - 1, [0] * n, 0, rec)
        pts = self.points(d)
        award, _ = deal_sticks(pts)  # no memory: a tied stick goes to nobody
        rec.update(points=pts, sticks=award, totals=list(award), bonus=[0] * n)
        out["deals"] = [rec]
        out["winner"] = None
        out["capped"] = False
        return out

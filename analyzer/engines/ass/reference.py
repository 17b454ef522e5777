"""The reference engine of Who's the Ass?: the rules in plain Python, written to be read.

Single games (``play_record``) and matches of K games (``play_match_record``, ruling A-12).

It plays the same games as the numba engine (:mod:`analyzer.engines.ass.engine`) from the same
(seed, index), but shares none of its game logic: its own deal, its own legal-move generator,
its own rounds and scoring. Tests compare the two move for move.

Strategies: ``basic`` and ``random`` are implemented here again, independently, from their
specifications (baseline-strategies.md; the canonical move order in cards.py), with the same
random draws; ``learned`` is evaluated by its plain-Python twin (strategies/ass/learned.py
``choose_model_py``: its own candidates, features and sums), with the same weights. Every other
strategy (the ``heuristic`` family and its presets, the search
families ``pimc`` and ``peek``) is asked through the same jitted policy the engine calls, given
the same view (own hand + public state; ``peek`` also every hand), so the comparison checks the
engine's bookkeeping for them, not the policy's own logic.

A hand is a list of 15 counts by card kind: 0 the ass, 1..13 number values, 14 jokers.
A move is a triple (v, c, j): c cards of kind v plus j jokers (see cards.py), or None to pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.games.ass.cards import (
    ASS,
    ASS_WINDOW,
    COPIES,
    JOKER,
    JOKER_HIGH,
    N_JOKERS,
    N_VALUES,
    PASS,
    PUB_ASS_ROUND,
    PUB_GAME,
    PUB_GAMES,
    PUB_GONE,
    PUB_HIGH,
    PUB_HIGH_SEAT,
    PUB_K,
    PUB_KNOWN,
    PUB_MAY_LEAD_ASS,
    PUB_PLAYERS,
    PUB_POS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_SIZES,
    PUB_STARTER,
    PUB_TABLE,
    PUB_TOTALS,
    VIEW_LEN,
    decode,
    encode,
    hand_names,
    move_cards,
    penalty,
)
from analyzer.games.ass.rules import AssRules
from analyzer.rng import PyRng
from strategies.ass.catalog import BASIC, LEARNED, RANDOM, SEARCH_FAMILIES
from strategies.registry import Strategy

Move = tuple[int, int, int]
KINDS = JOKER + 1
NIBBLES = np.array([1 << (4 * kind) for kind in range(KINDS)], dtype=np.int64)


def deal(rules: AssRules, rng: PyRng) -> tuple[list[list[int]], int]:
    """Deal one game (A-2, A-3): the hands by seat and the seat that holds the ass."""
    deck = [value for value in range(1, N_VALUES + 1) for _ in range(COPIES)]
    deck += [JOKER] * N_JOKERS
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates, top of the stack = position 0
        j = rng.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    ass_position = rng.randbelow(ASS_WINDOW)
    deck.insert(ass_position, ASS)
    hands = [[0] * KINDS for _ in range(rules.players)]
    for position in range(rules.cards_dealt):
        hands[position % rules.players][deck[position]] += 1
    return hands, ass_position % rules.players


@dataclass
class Turn:
    """What the player about to move faces: the round so far and the public record."""

    seat: int
    position: int  # 0 = the starter, who leads
    k: int = 0  # set size of the round, 0 before the lead
    high: int = 0  # highest value played so far
    ass_round: bool = False
    may_lead_ass: bool = False


def put_down(hand: list[int], on_table: list[int], turn: Turn, move: Move) -> bool:
    """Move the cards of ``move`` (legal, not a pass) from ``hand`` onto the table and update
    the round: the lead fixes its kind and set size (A-5, A-7); a later play is the round's
    highest when it beats it (legal means strictly higher, A-6) or, in an ass round, equals it
    (A-7: the last of equal highest cards takes). Returns whether its player now holds the
    round's highest play (the lead always does)."""
    value, numbers, jokers = move
    if value <= N_VALUES:  # the ass (value 0) or number cards; jokers alone have c = 0
        hand[value] -= numbers
        on_table[value] += numbers
    hand[JOKER] -= jokers
    on_table[JOKER] += jokers
    if turn.position == 0:
        turn.ass_round = value == ASS
        turn.k = 1 if turn.ass_round else numbers + jokers
        turn.high = value
        turn.may_lead_ass = False
        return True
    if value > turn.high or (turn.ass_round and value == turn.high):
        turn.high = value
        return True
    return False


def legal_moves(hand: list[int], turn: Turn) -> list[Move | None]:
    """Every legal move (None = pass) in canonical order (ascending move code, pass first)."""
    moves: set[Move] = set()
    jokers = hand[JOKER]
    can_pass = False
    if turn.position == 0:  # any set; A-8: the ass alone where allowed
        if hand[ASS] and turn.may_lead_ass:
            moves.add((ASS, 1, 0))
        for value in range(1, N_VALUES + 1):
            for numbers in range(1, hand[value] + 1):
                for used in range(jokers + 1):
                    moves.add((value, numbers, used))
        for used in range(1, jokers + 1):
            moves.add((JOKER_HIGH, 0, used))  # jokers alone are worth 14
    elif turn.ass_round:  # exactly one card of any value, a joker as 1 or as 14
        for value in range(1, N_VALUES + 1):
            if hand[value]:
                moves.add((value, 1, 0))
        if jokers:
            moves.add((1, 0, 1))
            moves.add((JOKER_HIGH, 0, 1))
    else:  # pass, or exactly k cards of a higher value
        can_pass = True
        for value in range(turn.high + 1, N_VALUES + 1):
            for numbers in range(1, hand[value] + 1):
                if numbers <= turn.k and turn.k - numbers <= jokers:
                    moves.add((value, numbers, turn.k - numbers))
        if turn.high < JOKER_HIGH and jokers >= turn.k:
            moves.add((JOKER_HIGH, 0, turn.k))
    ordered: list[Move | None] = sorted(moves, key=lambda m: encode(*m))
    return ([None] if can_pass else []) + ordered


def basic_move(hand: list[int], turn: Turn) -> Move | None:
    """``basic``, written again from baseline-strategies.md."""
    jokers = hand[JOKER]
    numbers = [w for w in range(1, N_VALUES + 1) if hand[w]]
    if turn.position == 0:
        if turn.may_lead_ass:
            return (ASS, 1, 0)
        if numbers:
            return (numbers[0], hand[numbers[0]], 0)
        return (JOKER_HIGH, 0, jokers)
    if turn.ass_round:
        return (1, 0, 1) if jokers else (numbers[0], 1, 0)
    k, v = turn.k, turn.high
    for w in range(v + 1, N_VALUES + 1):
        if hand[w] >= k:
            return (w, k, 0)
    for w in range(v + 1, N_VALUES + 1):
        if hand[w] >= 1 and hand[w] + jokers >= k:
            return (w, hand[w], k - hand[w])
    if jokers >= k and v < JOKER_HIGH:
        return (JOKER_HIGH, 0, k)
    return None


@dataclass
class Table:
    """The whole game state: hands, cards gone, the public round record.

    ``known[s]`` (counts by kind) is what the public record shows seat s holds (A-11): the
    ass with the seat that starts the first round (A-8), the cards of an ass round with its
    taker (A-7), less what the seat played since, never below 0. ``log`` is the public move
    record, one row per round as the engine's trace: starter, winner, every seat's move code
    in playing order from the starter (PASS for a pass); the search reads it.
    """

    rules: AssRules
    hands: list[list[int]]
    gone: list[int] = field(default_factory=lambda: [0] * KINDS)
    round_number: int = 0
    known: list[list[int]] = field(default_factory=list)
    log: list[list[int]] = field(default_factory=list)
    # in a match: the game's number, the number of games, the running totals by seat
    game_number: int = 0
    games: int = 0
    totals: list[int] = field(default_factory=list)

    def size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def view(self, turn: Turn, starter: int, high_seat: int, on_table: list[int]) -> np.ndarray:
        """The view a jitted policy gets: own hand, then the public state (cards.py layout)."""
        view = np.zeros(VIEW_LEN, dtype=np.int64)
        view[:KINDS] = self.hands[turn.seat]
        view[PUB_K] = turn.k
        view[PUB_HIGH] = turn.high
        view[PUB_ASS_ROUND] = int(turn.ass_round)
        view[PUB_MAY_LEAD_ASS] = int(turn.may_lead_ass)
        view[PUB_SEAT] = turn.seat
        view[PUB_PLAYERS] = self.rules.players
        view[PUB_POS] = turn.position
        view[PUB_STARTER] = starter
        view[PUB_HIGH_SEAT] = high_seat
        view[PUB_ROUND] = self.round_number
        view[PUB_GONE : PUB_GONE + KINDS] = self.gone
        view[PUB_TABLE : PUB_TABLE + KINDS] = on_table
        n = self.rules.players
        view[PUB_SIZES : PUB_SIZES + n] = np.sum(self.hands, axis=1)
        view[PUB_GAME] = self.game_number
        view[PUB_GAMES] = self.games
        view[PUB_TOTALS : PUB_TOTALS + len(self.totals)] = self.totals
        if self.known:  # each seat's known counts packed 4 bits a kind, kind 0 lowest
            view[PUB_KNOWN : PUB_KNOWN + len(self.known)] = np.array(self.known) @ NIBBLES
        return view

    def record_array(self) -> np.ndarray:
        """The move record so far as the engine's trace array (rows: rounds)."""
        width = 2 + max(self.rules.players, 12)
        out = np.full((len(self.log), width), PASS, dtype=np.int64)
        for r, row in enumerate(self.log):
            out[r, : len(row)] = row
        return out


class Player:
    """One seat's strategy, as the reference engine asks it for moves."""

    def __init__(self, strategy: Strategy, rng: PyRng) -> None:
        self.strategy = strategy
        self.rng = rng  # the game's one stream, shared by every seat in decision order

    def move(self, table: Table, turn: Turn, starter: int, high_seat: int,
             on_table: list[int]) -> Move | None:
        hand = table.hands[turn.seat]
        if self.strategy.family == BASIC:
            return basic_move(hand, turn)
        if self.strategy.family == RANDOM:
            moves = legal_moves(hand, turn)
            return moves[0] if len(moves) == 1 else moves[self.rng.randbelow(len(moves))]
        if self.strategy.family == LEARNED:  # the same model, in plain Python (no draws)
            from strategies.ass.learned import choose_model_py

            code = choose_model_py(self.strategy.values,
                                   table.view(turn, starter, high_seat, on_table))
            return None if code == PASS else decode(code)
        from strategies.ass.dispatch import decide  # the jitted family, through the same view

        state = self.rng.as_array()
        view = table.view(turn, starter, high_seat, on_table)
        if self.strategy.family in SEARCH_FAMILIES:
            # pimc and peek: the jitted search, given the same view (and, for peek, which is
            # no legal player, every hand packed as the engine keeps them)
            from strategies.ass.pimc import search_move

            packed = np.array([sum(count << (4 * kind) for kind, count in enumerate(h))
                               for h in table.hands], dtype=np.uint64)
            code = int(search_move(self.strategy.family, tuple(self.strategy.values), view,
                                   state, packed, table.record_array()))
        else:
            code = int(decide(self.strategy.family, tuple(self.strategy.values), view, state))
        self.rng.load_array(state)
        return None if code == PASS else decode(code)


class IllegalMove(AssertionError):
    """A strategy chose a move that the reference's legal-move generator does not list."""


def play_round(table: Table, players: list[Player], starter: int, blocked: int) -> dict[str, Any]:
    """Play one round from ``starter`` (A-5..A-8); return it as a record round."""
    n = table.rules.players
    hands = table.hands
    on_table = [0] * KINDS
    turn = Turn(seat=starter, position=0,
                may_lead_ass=hands[starter][ASS] > 0 and starter != blocked)
    plays: list[dict[str, Any]] = []
    high_seat = starter
    log_row = [starter, PASS] + [PASS] * n
    table.log.append(log_row)
    known = table.known or [[0] * KINDS for _ in range(n)]
    table.known = known
    for position in range(n):
        seat = (starter + position) % n
        turn.seat, turn.position = seat, position
        if position > 0 and not turn.ass_round and table.size(seat) < turn.k:
            move = None  # fewer than k cards (or none): the player passes
        else:
            move = players[seat].move(table, turn, starter, high_seat, on_table)
            if move not in legal_moves(hands[seat], turn):
                raise IllegalMove(f"seat {seat} chose {move} in round {table.round_number}")
        if move is None:
            plays.append({"seat": seat, "pass": True})
            continue
        value, numbers, jokers = move
        log_row[2 + position] = encode(*move)
        if value <= N_VALUES:  # it played some of what it was known to hold, or others
            known[seat][value] = max(0, known[seat][value] - numbers)
        known[seat][JOKER] = max(0, known[seat][JOKER] - jokers)
        play: dict[str, Any] = {"seat": seat, "cards": move_cards(encode(*move))}
        if position > 0 and turn.ass_round and jokers:
            play["joker_value"] = value
        if put_down(hands[seat], on_table, turn, move):
            high_seat = seat
        plays.append(play)
    if turn.ass_round:  # the taker takes every card of the round, the ass included
        for kind in range(KINDS):
            hands[high_seat][kind] += on_table[kind]
            known[high_seat][kind] += on_table[kind]  # seen taken
    else:  # played cards leave the game
        for kind in range(KINDS):
            table.gone[kind] += on_table[kind]
    log_row[1] = high_seat
    table.round_number += 1
    return {"starter": starter, "ass_round": turn.ass_round, "plays": plays, "winner": high_seat}


def play_from(table: Table, players: list[Player], starter: int,
              blocked: int = -1) -> list[dict[str, Any]]:
    """Play rounds until a round ends with an empty hand (A-9); return the record rounds."""
    rounds = []
    while True:
        record = play_round(table, players, starter, blocked)
        rounds.append(record)
        blocked = record["winner"] if record["ass_round"] else -1
        starter = record["winner"]
        if any(table.size(seat) == 0 for seat in range(table.rules.players)):
            return rounds


def minus_points(hand: list[int]) -> int:
    """A-10: ass 20, joker 14, number cards their value."""
    return sum(penalty(kind) * count for kind, count in enumerate(hand))


def dealt_known(players: int, starter: int) -> list[list[int]]:
    """The known holdings after the deal: the first round's starter holds the ass, and
    everybody knows it (A-8 makes the ass's holder start; A-2: the ass is always dealt)."""
    known = [[0] * KINDS for _ in range(players)]
    known[starter][ASS] = 1
    return known


def play_record(seed: int, index: int, strategies: list[Strategy]) -> dict[str, Any]:
    """Play game (seed, index) with one strategy per seat; return its game record."""
    rules = AssRules.for_players(len(strategies))
    rng = PyRng(seed, index, 0)
    hands, ass_seat = deal(rules, rng)
    dealt = [hand_names(h) for h in hands]
    table = Table(rules, hands, known=dealt_known(rules.players, ass_seat))
    players = [Player(s, rng) for s in strategies]
    rounds = play_from(table, players, ass_seat)
    return {
        "game": "ass",
        "version": 1,
        "seed": seed,
        "index": index,
        "players": rules.players,
        "strategies": [s.label() for s in strategies],
        "rules": rules.options(),
        "hands": dealt,
        "rounds": rounds,
        "final_hands": [hand_names(h) for h in table.hands],
        "penalties": [minus_points(h) for h in table.hands],
    }


def play_position(
    hands: list[list[str]],
    strategies: list[str],
    starter: int,
    blocked: int = -1,
    gone: list[str] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Play on from a hand-built position (same interface as records.play_position)."""
    from analyzer.games.ass.cards import card_kind
    from strategies.registry import parse_strategy

    counts = [[0] * KINDS for _ in hands]
    for seat, names in enumerate(hands):
        for name in names:
            counts[seat][card_kind(name)] += 1
    rules = AssRules(len(hands), max(len(h) for h in hands))
    table = Table(rules, counts)
    for name in gone or []:
        table.gone[card_kind(name)] += 1
    rng = PyRng(seed, 0, 0)
    players = [Player(parse_strategy("ass", s), rng) for s in strategies]
    rounds = play_from(table, players, starter, blocked)
    taken = [0] * len(hands)
    for rnd in rounds:
        if rnd["ass_round"]:
            taken[rnd["winner"]] += 1
    return {
        "rounds": rounds,
        "final_hands": [hand_names(h) for h in table.hands],
        "penalties": [minus_points(h) for h in table.hands],
        "taken": taken,
        "status": -1,
    }


# The match's dealer stream, as in the numba engine: the first dealer is drawn on this
# stream of (seed, index); game g of the match is dealt and played on stream g.
DEALER_STREAM = 0xFFFFFFFF


def match_winners(totals: list[int]) -> list[int]:
    """A-12: every player tied for the fewest total minus points (each gets 1/k of a win)."""
    low = min(totals)
    return [p for p, t in enumerate(totals) if t == low]


def play_match_record(seed: int, index: int, strategies: list[Strategy],
                      games: int | None = None) -> dict[str, Any]:
    """Play match (seed, index) of ``games`` games (default: one per player), one strategy
    per player; return its match record (game-records.md, A-12)."""
    rules = AssRules.for_players(len(strategies))
    n = rules.players
    games = n if games is None else games
    first = PyRng(seed, index, DEALER_STREAM).randbelow(n)
    totals = [0] * n
    played = []
    for g in range(games):
        dealer = (first + g) % n
        seat_players = [(dealer + 1 + s) % n for s in range(n)]  # seat s of dealer d
        rng = PyRng(seed, index, g)
        hands, ass_seat = deal(rules, rng)
        dealt = [hand_names(h) for h in hands]
        table = Table(rules, hands, game_number=g, games=games,
                      totals=[totals[p] for p in seat_players],
                      known=dealt_known(n, ass_seat))
        players = [Player(strategies[p], rng) for p in seat_players]
        rounds = play_from(table, players, ass_seat)
        penalties = [minus_points(h) for h in table.hands]
        for s, p in enumerate(seat_players):
            totals[p] += penalties[s]
        played.append({
            "dealer": dealer,
            "seat_players": seat_players,
            "hands": dealt,
            "rounds": rounds,
            "final_hands": [hand_names(h) for h in table.hands],
            "penalties": penalties,
        })
    return {
        "game": "ass",
        "version": 1,
        "mode": "matches",
        "seed": seed,
        "index": index,
        "players": n,
        "strategies": [s.label() for s in strategies],
        "rules": {**rules.options(), "games_per_match": games},
        "first_dealer": first,
        "games": played,
        "totals": totals,
        "winners": match_winners(totals),
    }

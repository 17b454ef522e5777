"""Who's the Ass? records in words and replayed in plain Python (no numba, no engines).

What replays, the report and the game viewer share: :func:`play_move` reads a record play
as a move (v, c, j); :func:`play_words` writes a play with every joker as the value it played
as (``7 7 J=7``); :data:`CARD_LEGEND` says what the card names mean and how cards score;
:func:`hand_counts` and :func:`hands_after_rounds` replay a record's hands (A-7: the taker of
an ass round picks up every card on the table).
"""

from __future__ import annotations

from typing import Any

from analyzer.games.ass.cards import JOKER, JOKER_HIGH, card_kind, hand_names


def play_move(play: dict[str, Any], ass_round: bool) -> tuple[int, int, int] | None:
    """The move (v, c, j) of a record play, None for a pass."""
    if play.get("pass"):
        return None
    kinds = [card_kind(name) for name in play["cards"]]
    jokers = kinds.count(JOKER)
    numbers = [k for k in kinds if k != JOKER]
    if numbers:
        if len(set(numbers)) != 1:
            raise ValueError(f"a set holds one value (A-4); got {play['cards']}")
        return numbers[0], len(numbers), jokers
    if ass_round and "joker_value" in play:
        return int(play["joker_value"]), 0, jokers
    return JOKER_HIGH, 0, jokers


CARD_LEGEND = (
    "Cards: 1 to 13 number cards, J a joker, A the ass. A joker is written with the value it "
    "played as: J=7 joins a set of 7s, a set of jokers only is worth 14 (J=14), and in an ass "
    "round a joker counts 1 or 14. Minus points at the end (A-10): every card left in hand, a "
    "number card its value, a joker 14, the ass 20."
)


def play_value(play: dict[str, Any], ass_round: bool) -> int | None:
    """The value a record play played as (0 for the ass, 14 for jokers only or a high joker),
    None for a pass."""
    move = play_move(play, ass_round)
    return None if move is None else move[0]


def play_words(play: dict[str, Any], ass_round: bool) -> str:
    """A record play's cards with every joker written as the value it played as
    (``7 7 J=7``, ``J=14 J=14``, ``J=1``), or ``pass``."""
    value = play_value(play, ass_round)
    if value is None:
        return "pass"
    return " ".join(f"J={value}" if name == "J" else name for name in play["cards"])


def hand_counts(names: list[str]) -> list[int]:
    """Counts by kind (0..14) of a list of record card names."""
    counts = [0] * (JOKER + 1)
    for name in names:
        counts[card_kind(name)] += 1
    return counts


def hands_after_rounds(record: dict[str, Any]) -> list[list[list[str]]]:
    """Every seat's hand (record names) after each round of a game record, replayed in plain
    Python: played cards leave the hand, and the taker of an ass round (A-7) picks up every
    card on the table, the ass included."""
    hands = [hand_counts(h) for h in record["hands"]]
    out = []
    for rnd in record["rounds"]:
        table = [0] * (JOKER + 1)
        for play in rnd["plays"]:
            move = play_move(play, rnd["ass_round"])
            if move is None:
                continue
            for name in play["cards"]:
                hands[play["seat"]][card_kind(name)] -= 1
                table[card_kind(name)] += 1
        if rnd["ass_round"]:
            for kind, count in enumerate(table):
                hands[rnd["winner"]][kind] += count
        out.append([hand_names(h) for h in hands])
    return out

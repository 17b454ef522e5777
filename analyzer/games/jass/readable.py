"""Plus-Minus Jass records in words (no numba, no engines): what replays, the report and the
game viewer share.

:data:`CARD_LEGEND` says what the card names mean and how cards score (J-8, J-9);
:func:`trump_fix` finds the card that fixed trump (J-5); :func:`sticks_words` says who got
sticks in a deal and why (J-9, with :func:`analyzer.games.jass.sticks.explain_sticks`).
"""

from __future__ import annotations

from typing import Any

from analyzer.games.jass.sticks import explain_sticks

CARD_LEGEND = (
    "Cards: suit letter + rank. Suits B bells, S shields, R roses, A acorns; ranks 6 7 8 9, "
    "10 Banner, U Under, O Ober, K King, A Ace (so AU is the Under of acorns, RA the Ace of "
    "roses). Card points (J-8): Ace 11, Banner 10, King 4, Ober 3, Under 2; in trump the Under "
    "20 and the 9 14; with no trump in the whole deal every 8 counts 8; the last trick 5 more; "
    "157 in a deal. Sticks (J-9) go to the most and the fewest points of a deal."
)


def trump_fix(deal: dict[str, Any], n: int) -> tuple[int, int, int] | None:
    """Where trump was fixed in a deal record: (trick number from 0, position in the trick,
    seat) of the first card that did not follow the led suit (J-5), or None (no trump)."""
    for t, trick in enumerate(deal["tricks"]):
        led = trick["cards"][0][0]
        for k, card in enumerate(trick["cards"][1:], start=1):
            if card[0] != led:
                return t, k, (trick["leader"] + k) % n
    return None


def sticks_words(deal: dict[str, Any]) -> str:
    """J-9 for one deal record in words: who got sticks for the card points and why, plus the
    extra sticks paid for remembered ties (``bonus``)."""
    words = explain_sticks(list(deal["points"]))
    paid = [(s, b) for s, b in enumerate(deal.get("bonus") or []) if b]
    if paid:
        words += "; a remembered tie pays: " + ", ".join(
            f"seat {s} gets {b} extra stick{'s' if b != 1 else ''}" for s, b in paid)
    return words

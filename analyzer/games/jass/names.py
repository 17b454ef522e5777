"""Plus-Minus Jass cards as players type them: the one parser of typed cards (``cardlab
analyze jass``'s --hand, --tricks and --trump, the board's typed positions, the Python API's
``State.from_position``).

Besides the record names (suit letter B S R A + rank 6 7 8 9 10 U O K A; cards.card_name) it
reads, in any case, the German-Swiss suit names players use (Schellen, Schilten, Rosen,
Eicheln, also singular) and ``E`` for Eicheln, the English ones (bells, shields, roses,
acorns), the rank words (Banner, Under/Unter, Ober, König/Koenig/King, Ass/Ace), a suit word
and a rank written together, with a hyphen or with a space (``Rosen Ass``, ``Eichel-Ober``,
``Schellenkönig``). ``S`` stays Schilten (shields), as in records: Schellen are ``B`` (bells),
so ``Sch...`` alone is ambiguous. docs/analyzing.md has the table.
"""

from __future__ import annotations

import re
import unicodedata

from analyzer.games.jass.cards import N_RANKS

# suit index (0..3 = bells, shields, roses, acorns) of every suit word, lower case
SUIT_WORDS = {
    "b": 0, "schellen": 0, "schelle": 0, "bells": 0, "bell": 0,
    "s": 1, "schilten": 1, "schilte": 1, "shields": 1, "shield": 1,
    "r": 2, "rosen": 2, "rose": 2, "roses": 2,
    "a": 3, "e": 3, "eicheln": 3, "eichel": 3, "acorns": 3, "acorn": 3,
}
# rank index (0..8 = 6 7 8 9 10 U O K A) of every rank word, lower case
RANK_WORDS = {
    "6": 0, "7": 1, "8": 2, "9": 3, "10": 4, "banner": 4,
    "u": 5, "under": 5, "unter": 5, "o": 6, "ober": 6,
    "k": 7, "könig": 7, "koenig": 7, "king": 7, "a": 8, "ass": 8, "ace": 8,
}
ALLOWED = ("a card is a suit and a rank, in any case: suits B or Schellen (bells), S or "
           "Schilten (shields), R or Rosen (roses), A or E or Eicheln (acorns); ranks 6 7 8 9, "
           "10 or Banner, U or Under, O or Ober, K or König (Koenig, King), A or Ass (Ace); "
           "e.g. R10, AU, EA, 'Rosen Ass', Eichel-Ober")
SUIT_ALLOWED = "a suit: B or Schellen, S or Schilten, R or Rosen, A or E or Eicheln, or none"


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip()).lower()


def card_of(name: str) -> int:
    """The card (``suit * 9 + rank``) of one typed name; ValueError naming what is allowed,
    saying so when the name is ambiguous."""
    text = _fold(name)
    found = set()
    for suit_word, suit in SUIT_WORDS.items():
        if not text.startswith(suit_word):
            continue
        rest = text[len(suit_word):]
        if rest[:1] in ("-", "_", " "):
            rest = rest[1:].strip()
        rank = RANK_WORDS.get(rest)
        if rank is not None:
            found.add(suit * N_RANKS + rank)
    if len(found) == 1:
        return found.pop()
    if len(found) > 1 or text.startswith("sch"):
        raise ValueError(f"ambiguous card {name!r}: Sch... is Schellen (B, bells) or Schilten "
                         f"(S, shields); {ALLOWED}")
    raise ValueError(f"unknown card {name!r}; {ALLOWED}")


def cards_of(text: str) -> list[int]:
    """The cards of a typed list (spaces or commas between cards); a suit word followed by a
    rank word with a space between (``Rosen Ass``) is one card."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    out = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if _fold(token) in SUIT_WORDS and i + 1 < len(tokens) \
                and _fold(tokens[i + 1]) in RANK_WORDS:
            out.append(card_of(f"{token} {tokens[i + 1]}"))
            i += 2
            continue
        out.append(card_of(token))
        i += 1
    return out


def suit_of(name: str) -> int:
    """The suit index of a typed suit (``R``, ``Rosen``, ``roses``, ``E``), -1 for ``none``;
    ValueError naming what is allowed."""
    text = _fold(name)
    if text == "none":
        return -1
    if text in SUIT_WORDS:
        return SUIT_WORDS[text]
    raise ValueError(f"unknown suit {name!r}; {SUIT_ALLOWED}")

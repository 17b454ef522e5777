"""Who's the Ass? cards as players type them: the one parser of typed cards (``cardlab
analyze ass``'s --hand, --round, --gone and --known, the board's typed positions, the Python
API's ``State.from_position``).

Besides the record names (``1``..``13``, ``J`` the joker, ``A`` the ass; cards.CARD_NAMES)
it reads the words players use, in any case: ``joker`` and ``ass`` (docs/analyzing.md has the
table). Records are read strictly by :func:`analyzer.games.ass.cards.card_kind`.
"""

from __future__ import annotations

import re

from analyzer.games.ass.cards import ASS, JOKER, N_VALUES

ALLOWED = "cards are 1..13, J or joker (a joker), A or ass (the ass), in any case"

_KINDS = {str(v): v for v in range(1, N_VALUES + 1)}
_KINDS.update({"j": JOKER, "joker": JOKER, "a": ASS, "ass": ASS})


def kind_of(name: str) -> int:
    """The kind (cards.py) of one typed card name; ValueError naming what is allowed."""
    kind = _KINDS.get(name.strip().lower())
    if kind is None:
        raise ValueError(f"unknown card {name!r}; {ALLOWED}")
    return kind


def kinds_of(text: str) -> list[int]:
    """The kinds of a typed list of cards (spaces or commas between them)."""
    return [kind_of(name) for name in re.split(r"[\s,]+", text.strip()) if name]


def joker_declared(text: str) -> int | None:
    """The value of a joker typed as played for a value (``J=14``, ``joker = 1``), None when
    ``text`` is not of that form."""
    m = re.fullmatch(r"(?:j|joker)\s*=\s*([0-9]+)", text.strip(), flags=re.IGNORECASE)
    return int(m.group(1)) if m else None

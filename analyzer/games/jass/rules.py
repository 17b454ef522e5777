"""The rules options of Plus-Minus Jass (rulings J-1..J-11) and their validation.

Options (the ``rules`` dict of a run spec and of every record):

``ruleset``  ``"seed"`` (default) or ``"swiss"``: which J-6 reading governs play after trump is
             fixed. ``seed`` follows the seed text (trump led: a trump must be played when held;
             with a trump in the trick a player without the led suit must over-trump, else
             under-trump). ``swiss`` is common Swiss practice: the trump Under is never forced
             when trump is led, and a player without the led suit may play any card except a
             trump lower than the highest trump in the trick (unless it holds only trumps).
``deal_cap`` the most deals a match may last (J-10). Matches nearly always end within about
             15 to 30 deals; a match still undecided after ``deal_cap`` deals (default 200) is
             stopped, reported with ``capped = True`` and ``winner = -1``, so that a pathological
             strategy pairing can never hang a run.

Players: 3 or 4 (J-2: 12 or 9 cards each).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.errors import CardlabError

RULESETS = ("seed", "swiss")
DEFAULT_DEAL_CAP = 200
MAX_DEAL_CAP = 10_000
PLAYERS = (3, 4)


@dataclass(frozen=True)
class JassRules:
    """A validated rules configuration."""

    players: int
    ruleset: str = "seed"
    deal_cap: int = DEFAULT_DEAL_CAP

    @property
    def swiss(self) -> bool:
        """True under the ``swiss`` J-6 variant."""
        return self.ruleset == "swiss"

    @property
    def hand_size(self) -> int:
        """J-2: every card is dealt, 9 each with 4 players, 12 each with 3."""
        return 36 // self.players

    def as_dict(self) -> dict[str, Any]:
        """The rules options as written into specs and records."""
        return {"ruleset": self.ruleset, "deal_cap": self.deal_cap}


def make_rules(players: int, options: dict[str, Any] | None = None) -> JassRules:
    """Validate ``players`` and the rules ``options``; fill in defaults."""
    options = dict(options or {})
    if players not in PLAYERS:
        raise CardlabError(f"Plus-Minus Jass needs 3 or 4 players, got {players}")
    unknown = set(options) - {"ruleset", "deal_cap"}
    if unknown:
        raise CardlabError(
            f"unknown jass rules option(s) {', '.join(sorted(unknown))}; allowed: ruleset, deal_cap"
        )
    ruleset = options.get("ruleset", "seed")
    if ruleset not in RULESETS:
        raise CardlabError(f"jass ruleset must be one of {', '.join(RULESETS)}; got {ruleset!r}")
    cap = options.get("deal_cap", DEFAULT_DEAL_CAP)
    try:
        cap_int = int(cap)
    except (TypeError, ValueError):
        raise CardlabError(f"deal_cap must be a whole number, got {cap!r}") from None
    if cap_int != cap or not 1 <= cap_int <= MAX_DEAL_CAP:
        raise CardlabError(f"deal_cap must be a whole number in 1..{MAX_DEAL_CAP}, got {cap!r}")
    return JassRules(players=players, ruleset=ruleset, deal_cap=cap_int)

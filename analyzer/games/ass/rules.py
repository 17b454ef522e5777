"""The rules config of Who's the Ass? (rulings A-1..A-3): players and cards dealt per player.

There are no rule variants for this game; the option ``per_player`` is derived from the
player count by the rulebook's table and may not be overridden. A match (A-12, mode
``matches``) has one more option, ``games_per_match`` (K, default the number of players).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.errors import CardlabError

MIN_PLAYERS = 3
MAX_PLAYERS = 12
MAX_GAMES_PER_MATCH = 1000
# The rulebook's table: cards dealt per player.
PER_PLAYER = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10, 12: 9}


@dataclass(frozen=True)
class AssRules:
    """Rules in force for one run: the player count and the cards each player is dealt."""

    players: int
    per_player: int

    @classmethod
    def for_players(cls, players: int) -> AssRules:
        """The rules for ``players`` players (3..12), per_player from the rulebook table."""
        check_players(players)
        return cls(players, PER_PLAYER[players])

    @property
    def cards_dealt(self) -> int:
        """Cards in play after the deal (players x per_player)."""
        return self.players * self.per_player

    def options(self) -> dict[str, Any]:
        """The rules options as they appear in RunSpec.rules and in game records."""
        return {"per_player": self.per_player}


def check_players(players: int) -> int:
    """Raise CardlabError unless 3 <= players <= 12."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CardlabError(
            f"Who's the Ass? needs {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players}"
        )
    return players


def rules_from_options(players: int, options: dict[str, Any],
                       matches: bool = False) -> AssRules:
    """Check user rules options and return the rules in force.

    The known option is ``per_player``, and it must equal the rulebook's value for the
    player count (it is derived, not a free parameter); with ``matches`` also
    ``games_per_match`` (checked by :func:`games_per_match`).
    """
    rules = AssRules.for_players(players)
    known = {"per_player", "games_per_match"} if matches else {"per_player"}
    unknown = sorted(set(options) - known)
    if unknown:
        if unknown == ["games_per_match"]:
            raise CardlabError("games_per_match applies to matches (mode matches), not to "
                               "single games")
        raise CardlabError(
            f"unknown Who's the Ass? rules option(s) {', '.join(unknown)}; "
            "the options are per_player, derived from the player count, and for matches "
            "games_per_match"
        )
    given = options.get("per_player", rules.per_player)
    if given != rules.per_player:
        raise CardlabError(
            f"per_player is fixed by the rulebook table: {rules.per_player} for {players} "
            f"players; got {given}"
        )
    return rules


def games_per_match(players: int, options: dict[str, Any]) -> int:
    """K, the games of a match (A-12): ``options["games_per_match"]`` or, by default, the
    number of players (every player deals once). Raise CardlabError unless 1 <= K <= 1000."""
    given = options.get("games_per_match", players)
    try:
        k = int(given)
        if k != float(given):
            raise ValueError
    except (TypeError, ValueError):
        raise CardlabError(f"games_per_match must be a whole number; got {given!r}") from None
    if not 1 <= k <= MAX_GAMES_PER_MATCH:
        raise CardlabError(
            f"games_per_match must be between 1 and {MAX_GAMES_PER_MATCH}; got {k}"
        )
    return k

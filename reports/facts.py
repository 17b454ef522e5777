"""Facts about a study's numbers that come from the game's description, not from its manifest.

Which way is better for a result column and what one unit is (a game, a deal, a match) are
facts of the game (:mod:`analyzer.games.registry`: its ``Measure`` and ``Mode``). A study's
manifest records them too, but a manifest is a file anyone can edit; the report reads them
from the description, and falls back to the manifest only for what the description does not
know (a column without a declared direction, whose direction the user gave the study; an
unknown game or mode of an old result).
"""

from __future__ import annotations

from analyzer.errors import CardlabError
from analyzer.games.registry import get as game_description


def better(manifest: dict, game: str | None = None, metric: str | None = None) -> str:
    """"lower" or "higher": the game's direction for ``metric`` (default: the manifest's game
    and metric); the manifest's ``better`` only for a column the game gives no direction."""
    game = str(game if game is not None else manifest.get("game") or "")
    metric = str(metric if metric is not None else manifest.get("metric") or "")
    try:
        measure = game_description(game).measure(metric)
    except CardlabError:  # an unknown game in an old manifest
        measure = None
    if measure is not None:
        return measure.better
    said = manifest.get("better")
    return str(said) if said in ("lower", "higher") else "lower"


def unit(manifest: dict, game: str | None = None) -> str:
    """What one unit of the study is (game, deal, match): the game's mode; the manifest's
    ``unit`` only where the game or mode is unknown (an old result)."""
    game = str(game if game is not None else manifest.get("game") or "")
    try:
        return game_description(game).mode(str(manifest.get("mode") or "")).unit
    except CardlabError:
        return str(manifest.get("unit") or "game")


def lower_is_better(game: str) -> bool:
    """Whether ``game``'s main measure (its default mode's ranking column: minus points,
    match wins) is better low, from its description (the viewer's and the board's graphs)."""
    description = game_description(game)
    return better({}, game, description.mode("").default_metric) == "lower"

"""Python bots beside cardlab's strategies: games played through the step-wise states.

A *bot* is any object with a method ``act(state, seat) -> action``: ``state`` is a
``cardlab.games.ass.State`` or ``cardlab.games.jass.State`` at the bot's turn, ``seat`` its
seat, and the answer one of ``state.legal_actions()``. The state a bot gets is a copy in which
every other hand has been redealt at random from the cards the seat cannot see, consistently
with the public record (the same hand sizes, what the record shows a seat holds, the suits a
seat has shown it lacks): reading its internals tells nothing that the information state does
not, and the bot may ``clone()`` and play it forward to search. A ``name`` attribute (else the
class name) labels its seat in the rows.

:func:`play_game` plays one game (Who's the Ass?) or deal (Plus-Minus Jass) with any mix of
registered strategy labels and bots; registered seats play exactly as in the engines (the same
moves from the same draws), so a table of registered strategies alone gives the engine's rows.
:func:`cardlab.simulate` and :func:`cardlab.compare` use it when a strategy is a bot. It runs
the readable reference engine, one Python call per move: slow (about 100 games or deals a
second with one quick bot seat, less with a slow bot; the engines are thousands of times
faster), for a bot's first numbers, not for a million games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.rng import PyRng

# the stream of (seed, index) that redeals the hidden hands a bot is shown (the game's own
# stream 0 stays the engines' draws)
BOT_STREAM = 0xB07


class Bot(Protocol):
    """A strategy in plain Python: ``act(state, seat)`` returns a legal action."""

    def act(self, state: Any, seat: int) -> int: ...


class RandomBot:
    """A uniformly random legal action, from its own generator (``seed``)."""

    def __init__(self, seed: int = 0, name: str = "random-bot") -> None:
        self.rng = np.random.default_rng(seed)
        self.name = name

    def act(self, state: Any, seat: int) -> int:
        legal = state.legal_actions()
        return int(legal[int(self.rng.integers(len(legal)))])


def is_bot(entry: Any) -> bool:
    """True for a bot object (not a strategy label)."""
    return not isinstance(entry, str) and callable(getattr(entry, "act", None))


def bot_label(bot: Any) -> str:
    """The label of a bot's seat in rows and rankings."""
    return str(getattr(bot, "name", None) or type(bot).__name__)


def _entries(game: str, players: int, entries: Sequence[Any]) -> list[Any]:
    """One Strategy or bot per seat."""
    from strategies.registry import parse_strategy

    entries = list(entries)
    if len(entries) == 1:
        entries *= players
    if len(entries) != players:
        raise CardlabError(f"{len(entries)} strategies for {players} players; give one for "
                           "every seat, or one per seat")
    out = []
    for e in entries:
        if is_bot(e):
            out.append(e)
        elif isinstance(e, str):
            out.append(parse_strategy(game, e))
        else:
            raise CardlabError(f"a strategy is a label such as 'basic' or an object with "
                               f"act(state, seat); got {type(e).__name__}")
    return out


def _ask_bot(bot: Any, state: Any, seat: int, resample: Any, draw: Any) -> int:
    shown = resample(state, seat, draw)
    shown.rng = None
    action = bot.act(shown, seat)
    try:
        return int(action)
    except (TypeError, ValueError):
        raise CardlabError(f"bot {bot_label(bot)} returned {action!r}, not an action "
                           "(an int from legal_actions())") from None


def _python(game: str) -> Any:
    """The game's Python module (its adapter's ``python``: ``State``, ``PYTHON_MODE``,
    ``resample_hands``, ``play_entries``, ``result_rows``); one line for an unknown game."""
    from analyzer.games import registry

    return registry.load(registry.get(game).part("python", "a Python bot"))


def resample_hands_for(game: str) -> Any:
    """The function that redeals the hands a seat cannot see (``resample_hands``)."""
    return _python(game).resample_hands


def play_game(game: str, seed: int, index: int, players: int, strategies: Sequence[Any],
              rules: dict[str, Any] | None = None) -> Any:
    """Play game (Who's the Ass?) or single deal (Plus-Minus Jass) ``index`` of ``seed`` to
    the end, one strategy label or bot per seat; return the final state. An illegal action
    from a bot raises CardlabError naming the ruling."""
    entries = _entries(game, players, strategies)
    module = _python(game)
    draw = PyRng(seed, index, BOT_STREAM).randbelow
    resample_hands = module.resample_hands

    def ask(bot: Any, state: Any, seat: int) -> int:
        return _ask_bot(bot, state, seat, resample_hands, draw)

    return module.play_entries(seed, index, players, entries, rules, ask)


def game_rows(game: str, index: int, state: Any) -> dict[str, list[Any]]:
    """The engine's result columns (``games`` / ``deals`` mode) of a finished state."""
    return _python(game).result_rows(index, state)


def check_mode(game: str, mode: str) -> str:
    """The mode a table with a bot plays: Who's the Ass? games, Plus-Minus Jass deals (the
    game's ``PYTHON_MODE``)."""
    from analyzer.games import registry

    want = _python(game).PYTHON_MODE
    if mode and mode != want:
        unit = registry.get(game).mode(want).unit
        raise CardlabError(f"a Python bot plays {game} in mode {want} only (one "
                           f"{unit} per index), not {mode}")
    return want


def collect_rows(game: str, players: int, strategies: Sequence[Any], count: int, seed: int,
                 start: int = 0, rules: dict[str, Any] | None = None) -> pd.DataFrame:
    """The per-seat rows of units start..start+count-1 played through :func:`play_game`,
    with the numba engine's columns and dtypes."""
    from analyzer.games import registry

    mode = registry.get(game).mode(check_mode(game, ""))
    columns: dict[str, list[Any]] = {c: [] for c in mode.dtypes()}
    for index in range(start, start + count):
        state = play_game(game, seed, index, players, strategies, rules)
        for c, values in game_rows(game, index, state).items():
            columns[c].extend(values)
    return pd.DataFrame({c: np.array(v, dtype=mode.dtypes()[c]) for c, v in columns.items()})


class BotBackend:
    """The studies' backend (:class:`analyzer.runner.play.Backend`) for fields with bots:
    a table with a bot is played here, through :func:`collect_rows`; a table of registered
    strategies alone by the engines (``KernelBackend``), which give the same rows."""

    def __init__(self, game: str, bots: Sequence[Any], workers: int | None = None) -> None:
        from analyzer.runner.play import KernelBackend
        from strategies.registry import StrategyError, parse_strategy

        self.kernel = KernelBackend(workers=workers)
        self.bots: dict[str, Any] = {}
        for bot in bots:
            label = bot_label(bot)
            try:
                parse_strategy(game, label)
            except (StrategyError, CardlabError):
                pass
            else:
                raise CardlabError(f"bot name {label!r} is a registered strategy of {game}; "
                                   "give the bot another name")
            if label in self.bots and self.bots[label] is not bot:
                raise CardlabError(f"two bots are named {label!r}; give each its own name")
            self.bots[label] = bot

    def _stand_in(self, spec: Any) -> Any:
        from dataclasses import replace

        return replace(spec, strategies=tuple("basic" if s in self.bots else s
                                              for s in spec.strategies))

    def validate(self, spec: Any) -> Any:
        from dataclasses import replace

        if not any(s in self.bots for s in spec.strategies):
            return self.kernel.validate(spec)
        mode = check_mode(spec.game, spec.mode)
        checked = self.kernel.validate(replace(self._stand_in(spec), mode=mode))
        return replace(checked, strategies=tuple(spec.strategies))

    def canonical(self, game: str, text: Any) -> str:
        if is_bot(text):
            return bot_label(text)
        if text in self.bots:
            return text
        return self.kernel.canonical(game, text)

    def identity(self, game: str, text: str) -> str:
        return f"bot {text}" if text in self.bots else self.kernel.identity(game, text)

    def collect(self, spec: Any, count: int, start: int = 0) -> pd.DataFrame:
        if not any(s in self.bots for s in spec.strategies):
            return self.kernel.collect(spec, count, start)
        seats = [self.bots.get(s, s) for s in spec.strategies]
        return collect_rows(spec.game, spec.players, seats, count, spec.seed, start,
                            spec.rules)

    def collect_many(self, jobs: Sequence[tuple[Any, int, int]], concat: bool = False
                     ) -> list[pd.DataFrame] | pd.DataFrame:
        frames = [self.collect(spec, count, start) for spec, count, start in jobs]
        return pd.concat(frames, ignore_index=True) if concat else frames

    def table(self, name: str, spec: Any, start: int, count: int) -> pd.DataFrame:
        raise CardlabError(f"the {name} study plays registered strategies only, not bots")

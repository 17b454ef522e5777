"""The kernel module of Who's the Ass? (the contract of analyzer.games.kernel).

One index is one game. ``play_chunk`` returns one row per (game, seat), ordered by index then
seat; a game's rows depend on (spec, index) alone, so any chunking gives the same table.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from analyzer.errors import CardlabError
from analyzer.games.ass.rules import check_players, rules_from_options
from analyzer.games.kernel import RunSpec, check_game_and_mode, check_seed_and_strategies
from analyzer.summary import Metric
from strategies.registry import engine_arrays, parse_strategy

UNIT = {"games": "game"}
MODES = ("games",)

COLUMNS = {
    "index": "game number within the run (with the seed it identifies the game)",
    "seat": "seat in dealing order, 0 gets the first card, n-1 deals (A-3)",
    "minus_points": "minus points at the end: ass 20, joker 14, number its value (A-10)",
    "ended_with_ass": "the seat held the ass at the end",
    "dealt_ass": "the seat was dealt the ass (and so started the first round)",
    "cards_left": "cards in hand at the end",
    "jokers_left": "jokers in hand at the end",
    "ass_taken": "ass rounds in which the seat took the cards",
    "went_out": "the seat had no cards at the end",
    "rounds": "rounds in the game",
    "ass_rounds": "ass rounds in the game",
    "out_seat": "lowest seat number with no cards at the end (the game's first 'winner')",
}
UNIT_COLUMNS = ("rounds", "ass_rounds", "out_seat")
DTYPES = {
    "index": np.int64,
    "seat": np.int16,
    "minus_points": np.int16,
    "ended_with_ass": np.bool_,
    "dealt_ass": np.bool_,
    "cards_left": np.int16,
    "jokers_left": np.int16,
    "ass_taken": np.int16,
    "went_out": np.bool_,
    "rounds": np.int16,
    "ass_rounds": np.int16,
    "out_seat": np.int16,
}
SEAT_METRICS = [
    Metric("minus_points", "mean minus points"),
    Metric("ended_with_ass", "P(end with ass) %", 100.0),
    Metric("dealt_ass", "P(dealt ass) %", 100.0),
]


def validate(spec: RunSpec) -> RunSpec:
    """Check a run of Who's the Ass? and return it with mode and rules filled in.

    Raises CardlabError for a wrong game, mode, player count, seed, rules option or strategy.
    A single strategy is applied to every seat.
    """
    mode = check_game_and_mode(spec, "ass", MODES)
    check_players(spec.players)
    rules = rules_from_options(spec.players, spec.rules)
    strategies = check_seed_and_strategies(spec)
    return replace(spec, mode=mode, rules=rules.options(), strategies=strategies)


def engine_inputs(spec: RunSpec) -> tuple[np.ndarray, np.ndarray]:
    """Family ids and parameter matrix of a validated spec's seats."""
    return engine_arrays([parse_strategy("ass", t) for t in spec.strategies])


def play_chunk(spec: RunSpec, start: int, count: int) -> dict[str, np.ndarray]:
    """Play games start..start+count-1 of ``spec``; one row per (game, seat)."""
    from analyzer.games.ass.engine import canonical_deck, run_chunk

    spec = validate(spec)
    if start < 0 or count < 0:
        raise CardlabError(f"start and count must be >= 0; got {start}, {count}")
    n = spec.players
    rows = count * n
    out = {name: np.empty(rows, dtype=dt) for name, dt in DTYPES.items()}
    out["index"][:] = np.repeat(np.arange(start, start + count, dtype=np.int64), n)
    out["seat"][:] = np.tile(np.arange(n, dtype=np.int16), count)
    families, params = engine_inputs(spec)
    bad = run_chunk(
        spec.seed, start, count, n, spec.rules["per_player"], families, params, canonical_deck(),
        out["minus_points"], out["ended_with_ass"], out["dealt_ass"], out["cards_left"],
        out["jokers_left"], out["ass_taken"], out["went_out"], out["rounds"],
        out["ass_rounds"], out["out_seat"],
    )
    if bad >= 0:
        _report_illegal(spec, start + bad)
    return out


def _report_illegal(spec: RunSpec, index: int) -> None:
    """Replay a game in which a strategy moved illegally and raise with the details."""
    from analyzer.games.ass.records import trace_record

    _, status = trace_record(spec, index)
    who = f"strategy {spec.strategies[status]!r} at seat {status}" if status >= 0 else "a seat"
    raise RuntimeError(
        f"engine bug: {who} made an illegal move in game seed={spec.seed} index={index}"
    )


def warmup() -> None:
    """Compile (or load from the cache) every kernel a run uses, on a tiny run."""
    spec = RunSpec("ass", 4, ("basic", "random", "heuristic", "careful"), seed=0)
    play_chunk(spec, 0, 2)

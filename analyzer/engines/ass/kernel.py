"""The kernel module of Who's the Ass? (the contract of analyzer.engines.kernel).

Two modes. ``games`` (default): one index is one game, one row per (game, seat). ``matches``
(A-12): one index is one match of K games (rules option ``games_per_match``, default the
number of players), one row per (match, player): the ``seat`` column is then the *player*
(0..n-1), whose strategy is ``spec.strategies[player]`` and who sits in seat
(player - dealer - 1) mod n of a game dealt by ``dealer``. Rows depend on (spec, index) alone,
so any chunking gives the same table.

How a match maps to deals (engine.py): game g of match i is dealt and played on stream g of
(seed, i), the first dealer is drawn on a stream of its own; so game 0 of match i is single
game i's deal, and a match with K = 1 is single game i with the players seated by the draw.
"""

from __future__ import annotations

import numpy as np

from analyzer.engines.ass.runspec import checked, engine_inputs, validate
from analyzer.engines.kernel import RunSpec
from analyzer.errors import CardlabError
from analyzer.games.ass.description import DESCRIPTION
from analyzer.metrics import Metric

__all__ = ["engine_inputs", "validate"]  # the contract's validate, with the kernel's own names

# Modes, units, result columns (names, dtypes, meanings) and the per-seat table come from
# the game's one description (analyzer/games/ass/description.py); these are views of it.
UNIT = DESCRIPTION.units()
MODES = tuple(m.name for m in DESCRIPTION.modes)
MODE_COLUMNS = {m.name: m.column_descriptions() for m in DESCRIPTION.modes}
GAME_COLUMNS = MODE_COLUMNS["games"]
MATCH_COLUMNS = MODE_COLUMNS["matches"]
COLUMNS = DESCRIPTION.columns()
MODE_UNIT_COLUMNS = {m.name: m.unit_columns() for m in DESCRIPTION.modes}
UNIT_COLUMNS = tuple(dict.fromkeys(c for cols in MODE_UNIT_COLUMNS.values() for c in cols))
# What a row's ``seat`` column stands for, by mode (for table headers).
ROW_NAMES = {m.name: m.row_name for m in DESCRIPTION.modes}
DTYPES = {name: np.dtype(dt) for name, dt in DESCRIPTION.mode("games").dtypes().items()}
MATCH_DTYPES = {name: np.dtype(dt) for name, dt in DESCRIPTION.mode("matches").dtypes().items()}
MODE_METRICS = {m.name: list(m.metrics) for m in DESCRIPTION.modes}
SEAT_METRICS = MODE_METRICS["games"]


def seat_metrics(mode: str) -> list[Metric]:
    """The per-seat (per-player in matches) metrics of a mode."""
    return MODE_METRICS[mode or MODES[0]]


def play_chunk(spec: RunSpec, start: int, count: int) -> dict[str, np.ndarray]:
    """Play units start..start+count-1 of ``spec``: one row per (game, seat), or in mode
    ``matches`` one row per (match, player)."""
    from analyzer.engines.ass.engine import canonical_deck, run_chunk, variant_for

    spec, strategies = checked(spec)  # parsed once: checked, then the engine's arrays
    if start < 0 or count < 0:
        raise CardlabError(f"start and count must be >= 0; got {start}, {count}")
    if spec.mode == "matches":
        return _match_chunk(spec, start, count, strategies)
    n = spec.players
    rows = count * n
    out = {name: np.empty(rows, dtype=dt) for name, dt in DTYPES.items()}
    families, params = engine_inputs(spec, strategies)
    bad = run_chunk(spec.seed, start, count, n, spec.rules["per_player"], families, params,
                    canonical_deck(), *out.values(), variant_for(families))
    if bad >= 0:
        _report_illegal(spec, start + bad)
    return out


def _match_chunk(spec: RunSpec, start: int, count: int, strategies: list
                 ) -> dict[str, np.ndarray]:
    """Play matches start..start+count-1 of a validated spec (``strategies``: its seats'
    parsed strategies); one row per (match, player)."""
    from analyzer.engines.ass.engine import canonical_deck, run_match_chunk, variant_for

    n = spec.players
    rows = count * n
    out = {name: np.empty(rows, dtype=dt) for name, dt in MATCH_DTYPES.items()}
    out["index"][:] = np.repeat(np.arange(start, start + count, dtype=np.int64), n)
    out["seat"][:] = np.tile(np.arange(n, dtype=np.int16), count)
    families, params = engine_inputs(spec, strategies)
    bad = run_match_chunk(
        spec.seed, start, count, n, spec.rules["per_player"], spec.rules["games_per_match"],
        families, params, canonical_deck(), out["total"], out["won"], out["tied"],
        out["win_share"], out["winners"], out["first_dealer"], variant_for(families),
    )
    if bad >= 0:
        _report_illegal(spec, start + bad)
    return out


def _report_illegal(spec: RunSpec, index: int) -> None:
    """Replay a game in which a strategy moved illegally and raise with the details."""
    from analyzer.engines.ass.records import trace_match_record, trace_record

    trace = trace_match_record if spec.mode == "matches" else trace_record
    _, status = trace(spec, index)
    where = "player" if spec.mode == "matches" else "seat"
    who = (f"strategy {spec.strategies[status]!r} at {where} {status}"
           if 0 <= status < spec.players else f"a {where}")
    from analyzer.games.ass.description import DESCRIPTION

    unit = DESCRIPTION.mode(spec.mode).unit
    raise RuntimeError(
        f"engine bug: {who} made an illegal move in {unit} seed={spec.seed} index={index}"
    )


def warmup() -> None:
    """Compile (or load from the cache) the kernel of the default run (single games,
    ``basic`` everywhere) on a tiny run. The engine compiles one play loop per mode and
    variant of table (engine.variant_for: ``basic`` alone, other families, search), each on
    its first call: a run of another table or of matches compiles (or loads) its own on its
    first chunk. Warming every one would make the first default run wait for all of them
    to compile when the cache is empty (docs/performance.md has the cold-compile times)."""
    play_chunk(RunSpec("ass", 4, ("basic",), seed=0), 0, 2)


def warmup_tables() -> None:
    """Compile (or load from the cache) the kernels of both modes for a table of ``basic``
    alone and for a table with the other non-search families: what runs of several
    strategies need (a prewarm before studies). The search variant compiles on its first
    pimc or peek chunk."""
    for mode in MODES:
        for table in (("basic",), ("basic", "random", "heuristic", "careful")):
            play_chunk(RunSpec("ass", 4, table, seed=0, mode=mode), 0, 2)


def warm_studies() -> None:
    """What ``study all`` compiles for this game beyond :func:`warmup`: the studies' mixed
    tables and matches (their play-loop variants, not the search) and the trace mode that
    replays the report's sample games (analyzer.studies.suite, the game's adapter)."""
    from analyzer.engines.ass.records import Tracer

    warmup_tables()
    Tracer(validate(RunSpec("ass", 4, ("basic",) * 4, seed=0, mode="games"))).record(0)

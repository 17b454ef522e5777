"""The kernel module of Plus-Minus Jass (the contract of analyzer.engines.kernel).

Two modes. ``matches`` (default): one index is one whole match (J-10), one row per (match,
seat) with seats fixed for the match (J-3). ``deals``: one index is one single deal, one row
per (deal, seat) with seats relative to the dealer (0 = first to play, n-1 = the dealer). A
unit's rows depend on (spec, index) alone, so any chunking gives the same table.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from analyzer.engines.kernel import RunSpec, check_game_and_mode, parse_seed_and_strategies
from analyzer.errors import CardlabError
from analyzer.games.jass.description import DESCRIPTION
from analyzer.games.jass.rules import make_rules
from analyzer.metrics import Metric
from strategies.jass.knobs import FAM_BASIC, SEARCH_FAMILIES
from strategies.registry import engine_arrays, parse_strategies

# Modes, units, result columns (names, dtypes, meanings) and the per-seat table come from
# the game's one description (analyzer/games/jass/description.py); these are views of it.
MODES = tuple(m.name for m in DESCRIPTION.modes)
UNIT = DESCRIPTION.units()
MODE_COLUMNS = {m.name: m.column_descriptions() for m in DESCRIPTION.modes}
MATCH_COLUMNS = MODE_COLUMNS["matches"]
DEAL_COLUMNS = MODE_COLUMNS["deals"]
COLUMNS = DESCRIPTION.columns()
MODE_UNIT_COLUMNS = {m.name: m.unit_columns() for m in DESCRIPTION.modes}
UNIT_COLUMNS = tuple(dict.fromkeys(c for cols in MODE_UNIT_COLUMNS.values() for c in cols))
MODE_METRICS = {m.name: list(m.metrics) for m in DESCRIPTION.modes}
SEAT_METRICS = MODE_METRICS["matches"]


def seat_metrics(mode: str) -> list[Metric]:
    """The per-seat metrics of a mode (SEAT_METRICS is the default mode's)."""
    return MODE_METRICS[mode or MODES[0]]


def validate(spec: RunSpec) -> RunSpec:
    """Check a Plus-Minus Jass run and return it with mode, rules and strategies filled in.

    Raises CardlabError for a wrong game, mode, player count, seed, rules option or strategy.
    A single strategy is applied to every seat.
    """
    return checked(spec)[0]


def checked(spec: RunSpec) -> tuple[RunSpec, list]:
    """:func:`validate`, with the seats' parsed strategies for :func:`engine_inputs` (a
    chunk's spec is parsed once)."""
    mode = check_game_and_mode(spec, "jass", MODES)
    rules = make_rules(spec.players, spec.rules)
    strategies, parsed = parse_seed_and_strategies(spec)
    return replace(spec, mode=mode, rules=rules.as_dict(), strategies=strategies), parsed


def engine_inputs(spec: RunSpec, strategies: list | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Family ids and parameter matrix of a validated spec's seats (from ``strategies``, the
    seats' parsed strategies :func:`checked` gives, else parsed from the spec)."""
    if strategies is None:
        strategies = parse_strategies("jass", spec.strategies)
    return engine_arrays(strategies)


def play_chunk(spec: RunSpec, start: int, count: int) -> dict[str, np.ndarray]:
    """Play units start..start+count-1 of ``spec``; one row per (unit, seat)."""
    spec, strategies = checked(spec)  # parsed once: checked, then the engine's arrays
    if start < 0 or count < 0:
        raise CardlabError(f"start and count must be >= 0; got {start}, {count}")
    n = spec.players
    fams, prms = engine_inputs(spec, strategies)
    swiss = spec.rules["ruleset"] == "swiss"
    out: dict[str, np.ndarray] = {
        "index": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int16), count),
    }
    chunk = chunk_kernel(spec.mode, fams, swiss)
    if spec.mode == "matches":
        status, bad, sticks, won, bonus, deals, capped, winner, first = chunk(
            spec.seed, start, count, n, swiss, spec.rules["deal_cap"], fams, prms
        )
        _check(spec, status, bad)
        out["sticks"] = sticks
        out["won"] = won
        out["bonus_sticks"] = bonus
        out["deals"] = np.repeat(deals, n)
        out["capped"] = np.repeat(capped, n)
        out["winner"] = np.repeat(winner, n)
        out["first_dealer"] = np.repeat(first, n)
    else:
        status, bad, points, tricks, sticks, fixed, last, trump = chunk(
            spec.seed, start, count, n, swiss, fams, prms
        )
        _check(spec, status, bad)
        out["points"] = points
        out["tricks"] = tricks
        out["sticks"] = sticks
        out["fixed_trump"] = fixed
        out["trump"] = np.repeat(trump, n)
        out["last_trick"] = last
    return out


def basic_alone(fams: np.ndarray, swiss: bool) -> bool:
    """True for the tables the specialised loop plays (analyzer/engines/jass/basic_play.py):
    every seat ``basic`` and the ``seed`` rule set."""
    return not swiss and bool((fams == FAM_BASIC).all())


def chunk_kernel(mode: str, fams: np.ndarray, swiss: bool):
    """The chunk kernel that plays a table, all with the signature of ``engine.deals_chunk``
    (seed, start, count, n, swiss, fams, prms) or, in matches mode, ``engine.matches_chunk``
    (seed, start, count, n, swiss, cap, fams, prms): the ``basic``-alone loop for
    :func:`basic_alone` tables, the search variant for tables with a search seat (only then is
    the search compiled), else the general plain loop."""

    if basic_alone(fams, swiss):
        return _BASIC_CHUNKS[mode]
    search = bool(np.isin(fams, SEARCH_FAMILIES).any())
    return (_SEARCH_CHUNKS if search else _GENERAL_CHUNKS)[mode]


def _general(mode: str, search: bool | None):
    """The general loop of ``mode`` with the engine's ``search`` argument fixed: None (no
    search seat) or True; its type picks the code of each compiled copy."""

    def chunk(*args):
        from analyzer.engines.jass import engine

        play = engine.matches_chunk if mode == "matches" else engine.deals_chunk
        return play(*args, search)

    return chunk


_GENERAL_CHUNKS = {mode: _general(mode, None) for mode in ("matches", "deals")}
_SEARCH_CHUNKS = {mode: _general(mode, True) for mode in ("matches", "deals")}


def _basic_matches(seed, start, count, n, swiss, cap, fams, prms):
    from analyzer.engines.jass.basic_play import matches_chunk_basic

    return matches_chunk_basic(seed, start, count, n, cap)


def _basic_deals(seed, start, count, n, swiss, fams, prms):
    from analyzer.engines.jass.basic_play import deals_chunk_basic

    return deals_chunk_basic(seed, start, count, n)


_BASIC_CHUNKS = {"matches": _basic_matches, "deals": _basic_deals}


def _check(spec: RunSpec, status: int, index: int) -> None:
    """Turn an engine status into an error naming the strategy that moved illegally."""
    from analyzer.engines.jass.engine import DONE, ILLEGAL

    if status == DONE:
        return
    seat = int(status) - ILLEGAL
    raise RuntimeError(
        f"strategy bug: {spec.strategies[seat]!r} at seat {seat} chose an illegal card in "
        f"jass {spec.mode} seed={spec.seed} index={index}"
    )


def warmup() -> None:
    """Compile (or load from the cache) the kernels of the default run, a table of ``basic``
    alone (analyzer/engines/jass/basic_play.py), in both modes. Another table compiles (or loads)
    the general loop on its first chunk; :func:`warmup_tables` warms that too."""
    for mode in MODES:
        play_chunk(RunSpec("jass", 4, ("basic",), seed=0, mode=mode), 0, 2)


def warmup_tables() -> None:
    """:func:`warmup` and the general loop of both modes for a table with the other
    non-search families (a prewarm before studies). The search variant compiles on its first
    pimc or peek chunk."""
    warmup()
    for mode in MODES:
        spec = RunSpec("jass", 4, ("basic", "random", "aim-high", "adaptive"), seed=0, mode=mode)
        play_chunk(spec, 0, 2)

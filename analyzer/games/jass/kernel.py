"""The kernel module of Plus-Minus Jass (the contract of analyzer.games.kernel).

Two modes. ``matches`` (default): one index is one whole match (J-10), one row per (match,
seat) with seats fixed for the match (J-3). ``deals``: one index is one single deal, one row
per (deal, seat) with seats relative to the dealer (0 = first to play, n-1 = the dealer). A
unit's rows depend on (spec, index) alone, so any chunking gives the same table.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from analyzer.errors import CardlabError
from analyzer.games.jass.rules import make_rules
from analyzer.games.kernel import RunSpec, check_game_and_mode, check_seed_and_strategies
from analyzer.summary import Metric
from strategies.jass.knobs import SEARCH_FAMILIES
from strategies.registry import engine_arrays, parse_strategy

MODES = ("matches", "deals")
UNIT = {"matches": "match", "deals": "deal"}

MATCH_COLUMNS = {
    "index": "match number within the run (with the seed it identifies the match)",
    "seat": "the player's seat, fixed for the whole match, in playing order (J-3)",
    "sticks": "final stick total (J-9, bonus sticks included)",
    "won": "the seat won the match (J-10)",
    "bonus_sticks": "extra sticks from remembered ties, over the match (J-9)",
    "deals": "deals played in the match",
    "capped": "the match hit the deal cap without a winner",
    "winner": "the winning seat, -1 if capped",
    "first_dealer": "the seat drawn to deal first",
}
DEAL_COLUMNS = {
    "index": "deal number within the run (with the seed it identifies the deal)",
    "seat": "position relative to the dealer: 0 plays first, n-1 deals (J-3)",
    "points": "card points won, last trick included (J-8; a deal totals 157)",
    "tricks": "tricks won",
    "sticks": "sticks for this deal alone (J-9 without remembered ties)",
    "fixed_trump": "the seat played the card that fixed trump (J-5)",
    "trump": "trump suit: -1 none, 0..3 = bells, shields, roses, acorns",
    "last_trick": "the seat won the last trick (+5)",
}
COLUMNS = {**MATCH_COLUMNS, **{k: v for k, v in DEAL_COLUMNS.items() if k not in MATCH_COLUMNS}}
MODE_COLUMNS = {"matches": MATCH_COLUMNS, "deals": DEAL_COLUMNS}
UNIT_COLUMNS = ("deals", "capped", "winner", "first_dealer", "trump")
MODE_UNIT_COLUMNS = {
    "matches": ("deals", "capped", "winner", "first_dealer"),
    "deals": ("trump",),
}

MODE_METRICS = {
    "matches": [
        Metric("sticks", "mean final sticks"),
        Metric("won", "P(win) %", 100.0),
    ],
    "deals": [
        Metric("points", "mean points"),
        Metric("sticks", "mean sticks"),
        Metric("fixed_trump", "P(fixed trump) %", 100.0),
    ],
}
SEAT_METRICS = MODE_METRICS["matches"]


def seat_metrics(mode: str) -> list[Metric]:
    """The per-seat metrics of a mode (SEAT_METRICS is the default mode's)."""
    return MODE_METRICS[mode or MODES[0]]


def validate(spec: RunSpec) -> RunSpec:
    """Check a Plus-Minus Jass run and return it with mode, rules and strategies filled in.

    Raises CardlabError for a wrong game, mode, player count, seed, rules option or strategy.
    A single strategy is applied to every seat.
    """
    mode = check_game_and_mode(spec, "jass", MODES)
    rules = make_rules(spec.players, spec.rules)
    strategies = check_seed_and_strategies(spec)
    return replace(spec, mode=mode, rules=rules.as_dict(), strategies=strategies)


def engine_inputs(spec: RunSpec) -> tuple[np.ndarray, np.ndarray]:
    """Family ids and parameter matrix of a validated spec's seats."""
    return engine_arrays([parse_strategy("jass", t) for t in spec.strategies])


def play_chunk(spec: RunSpec, start: int, count: int) -> dict[str, np.ndarray]:
    """Play units start..start+count-1 of ``spec``; one row per (unit, seat)."""
    from analyzer.games.jass import engine

    spec = validate(spec)
    if start < 0 or count < 0:
        raise CardlabError(f"start and count must be >= 0; got {start}, {count}")
    n = spec.players
    fams, prms = engine_inputs(spec)
    swiss = spec.rules["ruleset"] == "swiss"
    out: dict[str, np.ndarray] = {
        "index": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int16), count),
    }
    search = bool(np.isin(fams, SEARCH_FAMILIES).any())  # only then compile the search
    if spec.mode == "matches":
        chunk = engine.matches_chunk_search if search else engine.matches_chunk
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
        chunk = engine.deals_chunk_search if search else engine.deals_chunk
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


def _check(spec: RunSpec, status: int, index: int) -> None:
    """Turn an engine status into an error naming the strategy that moved illegally."""
    from analyzer.games.jass.engine import DONE, ILLEGAL

    if status == DONE:
        return
    seat = int(status) - ILLEGAL
    raise RuntimeError(
        f"strategy bug: {spec.strategies[seat]!r} at seat {seat} chose an illegal card in "
        f"jass {spec.mode} seed={spec.seed} index={index}"
    )


def warmup() -> None:
    """Compile (or load from the cache) every kernel a run uses, on a tiny run of each mode."""
    for mode in MODES:
        spec = RunSpec("jass", 4, ("basic", "random", "aim-high", "adaptive"), seed=0, mode=mode)
        play_chunk(spec, 0, 2)

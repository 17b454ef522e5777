"""Annotate a whole recorded game: every move of the chosen seats against the best move.

:func:`annotate_game` is the interface the replay commands and the game viewer use. For every
play of the record, in record order, the position before it is rebuilt from what the mover
could know (ass.from_record / jass.from_record), every legal move is rolled out on the same
worlds (analysis.ass.analyze / analysis.jass.analyze: pimc's worlds and evaluation, or a
what-if ``continuation``), and the
played move's *loss* against the best is read with its paired 95% interval; a clear loss of
an inaccuracy's size or more gets a label (values.THRESHOLDS, docs/analyzing.md).

Returned shape::

    {"game": "ass" | "jass", "unit": ..., "worlds": N, "seed": S, "model": the model line,
     "thresholds": {...},
     "moves": [{"seat", "move", "best", "loss", "loss_low", "loss_high", "label",
                "index", "value", "best_value", "forced", "analysed", "alternatives", ...}, ...],
     "players": [{"seat" | "player", "moves", "inaccuracy", "mistake", "blunder",
                  "lost", "lost_low", "lost_high"}, ...]}

``moves`` holds one entry per play of the record, in record order (Who's the Ass? matches:
game after game, with ``game`` and ``player``; Plus-Minus Jass: deal after deal, with
``deal``). ``index`` is the play's number as ``cardlab analyze --move`` takes it. ``value`` and
``best_value`` are the expected outcomes (the game's unit, as ``analyze``'s ``value``) after
the played and the best move: the position's evaluation, for a bar beside the board.
``alternatives`` lists the three best moves (and the played one when it is not among them),
best first, as ``{"move", "value", "low", "high", "diff", "diff_low", "diff_high"}``. An
entry of a seat that was not analysed keeps ``seat``, ``move`` and ``index`` and has null
``best``, ``loss``, ``loss_low``, ``loss_high``, ``label``, ``value``, ``best_value`` and
``"analysed": false``. A forced move (one legal move) has loss 0, no label and
``"forced": true``. ``players`` sums, per analysed seat
(per player in a Who's the Ass? match, whose seat changes from game to game), the losses of
the labelled moves: ``lost`` with an interval whose half-width is the root of the summed
squared half-widths (every move has worlds of its own, so the estimates are independent).

Every move draws from its own streams of (seed, index): the result depends on the seed
alone, whichever seats are chosen.
"""

from __future__ import annotations

import math
from typing import Any

from analyzer.analysis.values import (
    MIN_INTERVAL_WORLDS,
    THRESHOLDS,
    TOO_FEW,
    label,
    loss_of,
)

LABELS = ("inaccuracy", "mistake", "blunder")
GAME_STRIDE = 1000  # stream index of a move: game (deal) * GAME_STRIDE + its index


def annotate_game(game: str, record: dict[str, Any], *, seats: list[int] | None = None,
                  worlds: int | None = None, seed: int = 0,
                  continuation: str | None = None) -> dict[str, Any]:
    """The annotation of one game (match, deal) record; see the module docstring. The game's
    analysis module (its adapter's ``analysis``) lists the record's plays. ``worlds`` None:
    the analysis's default; ``continuation``: analyze's what-if (None: pimc's own
    evaluation)."""
    from analyzer.analysis.model import model_line, search_values
    from analyzer.games import registry

    description = registry.get(game)
    module = registry.load(description.part("analysis", "the analysis"))
    worlds = module.DEFAULT_WORLDS if worlds is None else worlds
    moves = list(_moves(game, module, record, seats, worlds, seed, continuation))
    key = description.mode(record.get("mode") or "").row_name
    t = THRESHOLDS[game]
    return {"game": game, "unit": t.unit, "worlds": worlds, "seed": seed,
            "model": model_line(game, continuation, search_values(game, continuation)),
            "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake,
                           "blunder": t.blunder},
            **({"intervals": TOO_FEW} if worlds < MIN_INTERVAL_WORLDS else {}),
            "moves": moves, "players": summary(moves, key)}


def _moves(game, module, record, seats, worlds, seed, continuation):
    """Every play of the record (``module.record_plays``: the head of its entry, who made
    it, the move, its part and number, and the position before it) against the best move."""
    for head, who, played, part, k, position in module.record_plays(record):
        if seats is not None and who not in seats:
            yield {**head, **_skipped(played)}
            continue
        result = module.analyze(position(), worlds, seed, part * GAME_STRIDE + k,
                                continuation)
        yield {**head, **_entry(game, result, played)}


def _entry(game: str, result: dict[str, Any], played: str) -> dict[str, Any]:
    rows = result["moves"]
    best = rows[0]
    row = next(r for r in rows if r["move"] == played)
    loss, low, high = loss_of(game, row)
    forced = len(rows) == 1
    return {"move": played, "best": best["move"], "loss": loss, "loss_low": low,
            "loss_high": high, "label": None if forced else label(game, loss, low or 0.0),
            "value": row["value"], "best_value": best["value"], "forced": forced,
            "analysed": True, "alternatives": _alternatives(rows, played)}


def _alternatives(rows: list[dict[str, Any]], played: str) -> list[dict[str, Any]]:
    """The three best moves (and the played one, when it is not among them) with their values
    and their difference to the best, each with its 95% interval (None where there is none)."""
    keys = ("move", "value", "low", "high", "diff", "diff_low", "diff_high")
    top = rows[:3] + [r for r in rows[3:] if r["move"] == played]
    return [{k: r.get(k) for k in keys} for r in top]


def _skipped(played: str) -> dict[str, Any]:
    return {"move": played, "best": None, "loss": None, "loss_low": None, "loss_high": None,
            "label": None, "value": None, "best_value": None, "forced": None,
            "analysed": False, "alternatives": []}


def summary(moves: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """Per seat (``key`` "seat") or player: analysed moves, labels, and the loss to clear
    errors (the labelled moves) with its interval."""
    out: dict[int, dict[str, Any]] = {}
    halves: dict[int, float] = {}
    for m in moves:
        if not m.get("analysed"):
            continue
        who = m[key]
        s = out.setdefault(who, {key: who, "moves": 0, **{name: 0 for name in LABELS},
                                 "lost": 0.0})
        halves.setdefault(who, 0.0)
        s["moves"] += 1
        if m["label"]:
            s[m["label"]] += 1
            s["lost"] += m["loss"]
            halves[who] += ((m["loss_high"] - m["loss_low"]) / 2) ** 2
    rows = []
    for who in sorted(out):
        s = out[who]
        half = math.sqrt(halves[who])
        s["lost_low"], s["lost_high"] = max(s["lost"] - half, 0.0), s["lost"] + half
        rows.append(s)
    return rows

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
    """The annotation of one game (match, deal) record; see the module docstring. ``worlds``
    None: the analysis's default; ``continuation``: analyze's what-if (None: pimc's own
    evaluation)."""
    from analyzer.analysis.model import DEFAULT_WORLDS, model_line, search_values

    worlds = DEFAULT_WORLDS[game] if worlds is None else worlds
    if game == "ass":
        moves = list(_ass_moves(record, seats, worlds, seed, continuation))
        key = "player" if record.get("mode") == "matches" else "seat"
    elif game == "jass":
        moves = list(_jass_moves(record, seats, worlds, seed, continuation))
        key = "seat"
    else:
        raise ValueError(f"unknown game {game!r}")
    t = THRESHOLDS[game]
    return {"game": game, "unit": t.unit, "worlds": worlds, "seed": seed,
            "model": model_line(game, continuation, search_values(game, continuation)),
            "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake,
                           "blunder": t.blunder},
            **({"intervals": TOO_FEW} if worlds < MIN_INTERVAL_WORLDS else {}),
            "moves": moves, "players": summary(moves, key)}


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


def _ass_moves(record, seats, worlds, seed, continuation):
    from analyzer.analysis import ass

    games = record["games"] if record.get("mode") == "matches" else [record]
    for g, game in enumerate(games):
        view = {**game, "players": record["players"]}
        number = g if record.get("mode") == "matches" else None
        for k, (r, p) in enumerate(ass.plays_of(view)):
            rnd = game["rounds"][r]
            play = rnd["plays"][p]
            seat = play["seat"]
            played = ass.move_text(ass.record_move(play, rnd["ass_round"]), rnd["ass_round"], p)
            head: dict[str, Any] = {"seat": seat, "index": k}
            who = seat
            if number is not None:
                who = game["seat_players"][seat]
                head.update(game=number, player=who)
            if seats is not None and who not in seats:
                yield {**head, **_skipped(played)}
                continue
            pos = ass.from_record(record, k, number)
            result = ass.analyze(pos, worlds, seed, g * GAME_STRIDE + k, continuation)
            yield {**head, **_entry("ass", result, played)}


def _jass_moves(record, seats, worlds, seed, continuation):
    from analyzer.analysis import jass

    for d, deal in enumerate(record["deals"]):
        cards = [c for t in deal["tricks"] for c in t["cards"]]
        seat_of = [(t["leader"] + i) % record["players"] for t in deal["tricks"]
                   for i in range(len(t["cards"]))]
        for k, played in enumerate(cards):
            head = {"seat": seat_of[k], "index": k, "deal": d}
            if seats is not None and seat_of[k] not in seats:
                yield {**head, **_skipped(played)}
                continue
            pos = jass.from_record(record, d, k)
            result = jass.analyze(pos, worlds, seed, d * GAME_STRIDE + k, continuation)
            yield {**head, **_entry("jass", result, played)}


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

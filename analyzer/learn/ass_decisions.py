"""Decision data of Who's the Ass?: what ``pimc`` thinks of every natural move.

Game ``index`` of a run (seed, players, searcher) is dealt and played as the reference engine
plays game (seed, index) (analyzer/engines/ass/reference.py: the same deal, the same stream),
with the searcher in every seat. At every decision with more than one natural move
(strategies/ass/learned.py ``candidates``) the searcher values each of them with ``pimc``'s
search (strategies/ass/pimc.py ``search_values``: the same worlds for every candidate, every
candidate rolled out in every world) and plays the one with the fewest expected minus
points (ties to the earlier). One row per candidate:

``index`` game, ``decision`` its number within the game, ``seat``, ``phase`` (0 leading, 1
following, 2 ass round), ``move`` (code, cards.py), ``chosen`` (played), ``value`` (mean
minus points of the decider at the end of the game over the worlds), ``spread`` (their
standard deviation), ``worlds`` (how many), ``f0``.. (the model's features, float32).

The features are computed from the decider's view only (A-11), by the very function the
``learned`` policy evaluates, so training sees exactly what play sees.
"""

from __future__ import annotations

import numpy as np

from analyzer.engines.ass.reference import (
    Player,
    Table,
    Turn,
    deal,
    dealt_known,
    play_from,
)
from analyzer.games.ass.cards import PASS, SCRATCH, decode
from analyzer.games.ass.rules import AssRules
from analyzer.rng import PyRng
from strategies.ass import learned
from strategies.ass.catalog import SEARCH_FAMILIES
from strategies.ass.pimc import search_values
from strategies.registry import Strategy

FEATURE_COLUMNS = tuple(f"f{i}" for i in range(learned.N_FEATURES))
COLUMNS = ("index", "decision", "seat", "phase", "move", "chosen", "value", "spread",
           "worlds") + FEATURE_COLUMNS


class _Recorder(Player):
    """A search seat that records every decision with a choice into ``rows``."""

    def __init__(self, strategy: Strategy, rng: PyRng, rows: dict, game: int) -> None:
        super().__init__(strategy, rng)
        self.rows = rows
        self.game = game

    def move(self, table: Table, turn: Turn, starter: int, high_seat: int, on_table: list[int]):
        view = table.view(turn, starter, high_seat, on_table)
        m = int(learned.candidates(view))
        cands = view[SCRATCH:SCRATCH + m].copy()
        if m == 1:
            code = int(cands[0])
            return None if code == PASS else decode(code)
        totals = np.zeros(m)
        squares = np.zeros(m)
        state = self.rng.as_array()
        weight = float(search_values(self.strategy.family, tuple(self.strategy.values), view,
                                     state, table.record_array(), cands, m, totals, squares))
        self.rng.load_array(state)
        mean = totals / weight
        spread = np.sqrt(np.maximum(squares / weight - mean * mean, 0.0))
        best = int(np.argmin(mean))  # the first of equals
        feats = np.zeros(learned.N_FEATURES)
        rows = self.rows
        decision = rows["_decisions"]
        rows["_decisions"] = decision + 1
        phase = int(learned.phase_of(view))
        worlds = int(self.strategy.values[0])
        for i in range(m):
            learned.features(view, int(cands[i]), feats, 0)
            rows["index"].append(self.game)
            rows["decision"].append(decision)
            rows["seat"].append(turn.seat)
            rows["phase"].append(phase)
            rows["move"].append(int(cands[i]))
            rows["chosen"].append(i == best)
            rows["value"].append(float(mean[i]))
            rows["spread"].append(float(spread[i]))
            rows["worlds"].append(worlds)
            rows["features"].append(feats.astype(np.float32))
        code = int(cands[best])
        return None if code == PASS else decode(code)


def play_games(seed: int, start: int, count: int, players: int,
               searcher: Strategy) -> dict[str, np.ndarray]:
    """The decision rows (module docstring) of games ``start .. start+count-1``."""
    if searcher.family not in SEARCH_FAMILIES or searcher.spec.name == "peek":
        raise ValueError("the searcher must be pimc")
    rows: dict = {name: [] for name in COLUMNS[:9]}
    rows["features"] = []
    rules = AssRules.for_players(players)
    for index in range(start, start + count):
        rows["_decisions"] = 0
        rng = PyRng(seed, index, 0)
        hands, ass_seat = deal(rules, rng)
        table = Table(rules, hands, known=dealt_known(players, ass_seat))
        seats = [_Recorder(searcher, rng, rows, index) for _ in range(players)]
        play_from(table, seats, ass_seat)
    feats = (np.vstack(rows["features"]) if rows["features"]
             else np.zeros((0, learned.N_FEATURES), dtype=np.float32))
    out = {
        "index": np.array(rows["index"], dtype=np.int64),
        "decision": np.array(rows["decision"], dtype=np.int32),
        "seat": np.array(rows["seat"], dtype=np.int8),
        "phase": np.array(rows["phase"], dtype=np.int8),
        "move": np.array(rows["move"], dtype=np.int32),
        "chosen": np.array(rows["chosen"], dtype=bool),
        "value": np.array(rows["value"], dtype=np.float64),
        "spread": np.array(rows["spread"], dtype=np.float64),
        "worlds": np.array(rows["worlds"], dtype=np.int16),
    }
    for i, name in enumerate(FEATURE_COLUMNS):
        out[name] = np.ascontiguousarray(feats[:, i])
    return out


CHUNK = 25  # games per part file


def plan_of(seed: int, start: int, count: int, players: int, searcher: Strategy) -> dict:
    """The run plan of a decisions run (analyzer/runner/manifest.py's format, kind
    ``decisions``): what fixes its rows."""
    import analyzer
    from analyzer.runner import manifest as mf

    return mf.normalized({
        "format": mf.FORMAT, "format_version": mf.FORMAT_VERSION, "kind": "decisions",
        "game": "ass", "mode": "games", "unit": "game", "seed": seed, "start": start,
        "count": count, "games": count, "players": players,
        "searcher": searcher.definition(), "features": learned.FEATURE_SET,
        "weights": learned.weights_digest(learned.WEIGHTS.reshape(learned.PHASES, -1)),
        "columns": list(COLUMNS),
        "stored": "per chunk, one row per candidate move of every search decision",
        "version": analyzer.__version__,
    })


def run_decisions(out, seed: int, count: int, players: int, searcher: Strategy,
                  resume: bool, progress: bool, start: int = 0) -> dict:
    """Play games ``start .. start+count-1`` and write their decision rows to the run folder
    ``out`` (one part per CHUNK games, atomically; resumable: finished parts are verified and
    kept, the rest is played). Returns the manifest."""
    from analyzer.runner import folder as fo
    from analyzer.runner.chunks import Chunk
    from analyzer.runner.progress import RunProgress

    plan = plan_of(seed, start, count, players, searcher)
    folder = fo.prepare(out, plan, resume)
    from analyzer.runner import manifest as mf

    with folder.locked():
        folder.remove_temporaries()
        check = folder.verify(plan)
        if check.damage:
            raise fo.damaged_error(folder, check, "nothing was played")
        done = {(c.start, c.count) for c, _ in check.parts}
        chunks = [Chunk(s, min(CHUNK, start + count - s))
                  for s in range(start, start + count, CHUNK)]
        finished = sum(c.count for c in chunks if (c.start, c.count) in done)
        meta = mf.to_bytes(plan)
        with RunProgress(count, finished, "game", progress) as bar:
            for chunk in chunks:
                if (chunk.start, chunk.count) in done:
                    continue
                rows = play_games(seed, chunk.start, chunk.count, players, searcher)
                fo.write_part(folder.path, chunk, rows, meta)
                finished += chunk.count
                bar.advance(chunk.count, finished)
        check = folder.verify(plan)
        if check.damage or check.done != count:
            raise fo.damaged_error(folder, check, "the run did not complete")
        rows = sum(fo.pq.read_metadata(p).num_rows for _, p in check.parts)
        manifest = {**plan, "complete": True, "rows": None, "parts": len(check.parts),
                    "candidate_rows": rows}
        folder.write_manifest(manifest)
    return manifest

"""The run folder of decision data, for every game with a learned family: ``cardlab decisions
GAME`` writes one.

A game's decisions module (analyzer/learn/<game>_decisions.py) provides ``GAME``, ``UNIT``
(what an index is: a game or a deal), ``CHUNK`` (units per part file), ``COLUMNS``, ``MODEL``
(its learned module: ``FEATURE_SET``, ``WEIGHTS``, ``weights_digest``) and ``play_games(seed,
start, count, players, searcher)`` (the rows of units start .. start+count-1); this module
plans, writes and verifies the folder: one Parquet part per chunk, atomically with its
checksum, ``_manifest.json`` last (kind ``decisions``); ``--resume`` keeps the verified parts
and plays the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.rng import PyRng
from strategies.registry import Strategy

MIX_SEP = "+"  # separates the strategies of a field mix (strategy knobs use ':' ',' '=')
FIELD_STREAM = 0x4D4958  # the stream of (seed, index) that draws a unit's field ("MIX")
# with a field mix, the stream of (seed, index) of the searcher's labels ("LAB"): the unit
# is then played exactly as the reference engine plays it with the drawn seats
LABEL_STREAM = 0x4C4142


def parse_mix(game: str, text: str, option: str = "--field-mix") -> tuple[Strategy, ...]:
    """The strategies of a field mix ``a+b+c`` (a strategy may repeat: it is drawn more
    often). ``pimc`` (any knobs) and ``learned`` are allowed; ``peek`` (it sees the hidden
    cards) is not. A bad mix raises one line (CardlabError)."""
    from strategies.registry import StrategyError, parse_strategy

    allowed = (f"strategies of {game} separated by '{MIX_SEP}', e.g. "
               f"aim-low{MIX_SEP}learned{MIX_SEP}pimc")
    items = text.split(MIX_SEP)
    if not text.strip() or any(not item.strip() for item in items):
        raise CardlabError(f"{option} {text!r} has an empty entry; give {allowed}")
    mix = []
    for item in items:
        try:
            strategy = parse_strategy(game, item.strip())
        except StrategyError as exc:
            raise CardlabError(f"{option}: {exc}") from None
        if "not-a-player" in strategy.spec.tags:
            raise CardlabError(f"{option}: {item.strip()!r} sees the hidden cards and is no "
                               f"opponent to learn against; give {allowed}")
        mix.append(strategy)
    return tuple(mix)


def mix_label(mix: Sequence[Strategy]) -> str:
    """The text of a field mix (:func:`parse_mix` reads it back)."""
    return MIX_SEP.join(s.label() for s in mix)


def draw_field(mix: Sequence, seed: int, index: int, players: int) -> list:
    """One entry of ``mix`` per seat for unit (seed, index), each drawn uniformly and
    independently from the stream :data:`FIELD_STREAM` of (seed, index) (no other draw of
    the unit uses it): reproducible, and the same whichever seat the learner takes (the
    learner's seat's draw is drawn and ignored)."""
    rng = PyRng(seed, index, FIELD_STREAM)
    return [mix[rng.randbelow(len(mix))] for _ in range(players)]


def columns(rows: dict, n_features: int) -> dict[str, np.ndarray]:
    """The columns of a part from the lists a recorder filled (``features``: one float32
    vector per row, stored as f0, f1, ...)."""
    feats = (np.vstack(rows["features"]) if rows["features"]
             else np.zeros((0, n_features), dtype=np.float32))
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
    for i in range(n_features):
        out[f"f{i}"] = np.ascontiguousarray(feats[:, i])
    return out


def phase_data(frame: pd.DataFrame, phases: int):
    """Per phase with rows: (phase, inputs float64[rows, features], values, decision number
    of each row 0..); decisions are told apart by (``run``, ``index``, ``decision``), ``run``
    optional (one data set)."""
    keys = ["index", "decision"] + (["run"] if "run" in frame.columns else [])
    columns = feature_columns(frame)
    for phase in range(phases):
        part = frame[frame["phase"] == phase]
        if len(part) == 0:
            continue
        group = part.groupby(keys, sort=True).ngroup().to_numpy()
        yield (phase, part[columns].to_numpy(dtype=np.float64),
               part["value"].to_numpy(dtype=np.float64), group)


def feature_columns(frame: pd.DataFrame) -> list[str]:
    """The feature columns f0, f1, ... of decision rows, in order."""
    return sorted((c for c in frame.columns if c[0] == "f" and c[1:].isdigit()),
                  key=lambda c: int(c[1:]))


def plan_of(game, seed: int, start: int, count: int, players: int, searcher: Strategy,
            field: Strategy | tuple[Strategy, ...] | None = None) -> dict:
    """The run plan of a decisions run (analyzer/runner/manifest.py's format, kind
    ``decisions``): what fixes its rows. ``game``: the game's decisions module; ``field``:
    the other seats' strategy where the searcher values one seat's decisions, or a tuple:
    the mix each other seat is drawn from (:func:`draw_field`); recorded only then, so the
    plans of runs without one read as before."""
    import analyzer
    from analyzer.runner import manifest as mf

    model = game.MODEL
    if field is None:
        extra = {}
    elif isinstance(field, tuple):
        extra = {"field_mix": [s.definition() for s in field]}
    else:
        extra = {"field": field.definition()}
    return mf.normalized({**extra,
        "format": mf.FORMAT, "format_version": mf.FORMAT_VERSION, "kind": "decisions",
        "game": game.GAME, "mode": game.UNIT + "s", "unit": game.UNIT, "seed": seed,
        "start": start, "count": count, game.UNIT + "s": count, "players": players,
        "searcher": searcher.definition(), "features": model.FEATURE_SET,
        "weights": model.weights_digest(model.WEIGHTS.reshape(model.PHASES, -1)),
        "columns": list(game.COLUMNS),
        "stored": "per chunk, one row per candidate move of every search decision",
        "version": analyzer.__version__,
    })


def repair_command(out, plan: dict) -> str:
    """The command that repairs the decisions run folder ``out`` of ``plan``: the command
    that wrote it (every option from the plan) plus ``--resume --repair``."""
    import shlex

    from strategies.registry import from_definition

    game = plan["game"]
    words = ["cardlab", "decisions", game, "--out", str(out), "--games", str(plan["count"]),
             "--seed", str(plan["seed"]), "--start", str(plan["start"]), "--players",
             str(plan["players"]), "--searcher",
             from_definition(game, plan["searcher"]).label()]
    if plan.get("field"):
        words += ["--strategy", from_definition(game, plan["field"]).label()]
    if plan.get("field_mix"):
        words += ["--field-mix", mix_label([from_definition(game, d)
                                            for d in plan["field_mix"]])]
    return shlex.join([*words, "--resume", "--repair"])


def damaged(folder, check, plan: dict, action: str, how: str | None = None):
    """The error for a damaged decisions run folder (runner/folder.py ``damaged_error``'s
    form): one detail line per damaged file, and the command that repairs it (``how``, or
    :func:`repair_command`)."""
    from analyzer.runner import folder as fo

    n = len(check.damage)
    if all(d.movable for d in check.damage):
        try:
            how = how or f"`{repair_command(folder.path, plan)}`"
        except (KeyError, TypeError, ValueError):  # an edited plan: no command to rebuild
            how = "the command that wrote it plus --resume --repair"
        advice = (f"repair it with {how} (damaged files move to "
                  f"{folder.path / fo.DAMAGED_DIR} and exactly their ranges are played again)")
    else:
        advice = "restore the edited file or start a new --out"
    return fo.DamagedRunError(
        f"run folder {folder.path} is damaged ({n} file{'s' if n != 1 else ''}); {action}; "
        + advice, [d.line(folder.path) for d in check.damage])


def run_decisions(game, out, seed: int, count: int, players: int, searcher: Strategy,
                  resume: bool, progress: bool, start: int = 0,
                  field: Strategy | tuple[Strategy, ...] | None = None,
                  repair: bool = False) -> dict:
    """Play units ``start .. start+count-1`` of ``game`` (its decisions module) and write
    their decision rows to the run folder ``out`` (one part per ``game.CHUNK`` units,
    atomically; resumable: finished parts are verified and kept, the rest is played).
    Ctrl-C stops it after the game (deal) in hand, never inside the search's kernels. With
    ``repair`` (and ``resume``) damaged parts move to ``_damaged/`` and are played again.
    Returns the manifest."""
    from analyzer.runner import folder as fo
    from analyzer.runner import manifest as mf
    from analyzer.runner.chunks import Chunk
    from analyzer.runner.interrupts import checked_interrupts
    from analyzer.runner.progress import RunProgress

    plan = plan_of(game, seed, start, count, players, searcher, field)
    folder = fo.prepare(out, plan, resume)
    with folder.locked():
        folder.remove_temporaries()
        check = folder.verify(plan)
        if check.damage:
            if not repair:
                raise damaged(folder, check, plan, "nothing was played")
            folder.repair(check)  # the damaged pieces to _damaged/, their ranges played again
            check = folder.verify(plan)
            if check.damage:
                raise damaged(folder, check, plan, "the repair did not fix it")
        done = {(c.start, c.count) for c, _ in check.parts}
        size = game.CHUNK
        chunks = [Chunk(s, min(size, start + count - s)) for s in range(start, start + count, size)]
        finished = sum(c.count for c in chunks if (c.start, c.count) in done)
        meta = mf.to_bytes(plan)
        with RunProgress(count, finished, game.UNIT, progress) as bar, \
                checked_interrupts() as check:
            for chunk in chunks:
                if (chunk.start, chunk.count) in done:
                    continue
                rows = game.play_games(seed, chunk.start, chunk.count, players, searcher,
                                       field, check=check)
                fo.write_part(folder.path, chunk, rows, meta)
                finished += chunk.count
                bar.advance(chunk.count, finished)
        check = folder.verify(plan)
        if check.damage or check.done != count:
            raise damaged(folder, check, plan, "the run did not complete")
        rows = sum(fo.pq.read_metadata(p).num_rows for _, p in check.parts)
        manifest = {**plan, "complete": True, "rows": None, "parts": len(check.parts),
                    "candidate_rows": rows}
        folder.write_manifest(manifest)
    return manifest

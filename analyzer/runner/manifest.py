"""What a run folder's manifest says: everything that fixes the results, nothing that does not.

The *plan* is written when a run starts (``_run.json``) and into every part file's Parquet
key-value metadata (key ``cardlab.manifest``); the *manifest* (``_manifest.json``) is the plan
plus completion facts and is written last, atomically, so a folder without it never looks
complete. Two runs with equal plans give identical rows (the reproducibility contract), which
is why resuming compares plans and nothing else. Worker count, chunk size and backend are not
in the plan: they cannot change a result.

The files start with ``_`` because pyarrow (and so ``pandas.read_parquet(folder)``) skips such
names when it reads a folder as one dataset; a plain ``manifest.json`` would make it fail.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import analyzer
from analyzer.engines.kernel import RunSpec
from strategies.registry import StrategyError, from_definition, parse_strategies, pinned

FORMAT = "cardlab-run"
FORMAT_VERSION = 1
RUN_FILE = "_run.json"
MANIFEST_FILE = "_manifest.json"
METADATA_KEY = b"cardlab.manifest"
MOMENTS_KEY = b"cardlab.moments"  # a rows part's per-seat moments (exact JSON)
RANGE_KEY = b"cardlab.range"  # the units a part holds, "start-stop" (stop exclusive)
KINDS = ("rows", "aggregate", "decisions")  # decisions: analyzer/learn, rows per search decision


def plural(unit: str) -> str:
    """'game' -> 'games', 'match' -> 'matches', 'deal' -> 'deals'."""
    return unit + ("es" if unit.endswith(("ch", "sh", "s", "x")) else "s")


def _mode(game: str, mode: str):
    from analyzer.games import registry

    return registry.get(game).mode(mode)


def mode_columns(game: str, mode: str) -> dict[str, str]:
    """The result columns of ``game`` in ``mode``: {name: description}, from the game's
    description (analyzer.games.registry), in the order play_chunk returns them."""
    return _mode(game, mode).column_descriptions()


def mode_unit_columns(game: str, mode: str) -> list[str]:
    """The columns of ``mode`` that describe the whole unit (the same on every seat's row)."""
    return list(_mode(game, mode).unit_columns())


def mode_metrics(game: str, mode: str) -> list:
    """The per-seat metrics (analyzer.metrics.Metric) of ``game`` in ``mode``, each with its
    factor from stored to natural units: the game's Measure.scale of the column."""
    from analyzer.games import registry

    description = registry.get(game)
    return [m.in_units(description.measure(m.column)) for m in _mode(game, mode).metrics]


def row_name(game: str, mode: str) -> str:
    """What a result row's ``seat`` stands for ("seat", or "player" in ass matches)."""
    return _mode(game, mode).row_name


def describe_strategies(spec: RunSpec) -> list[dict[str, Any]]:
    """One entry per seat: the text given, the name, a label, every parameter as the command
    line writes it, and the fully resolved definition (registry ``Strategy.definition``:
    family and every knob as its exact float), which makes the run stand alone: a file
    preset is recorded resolved, and two plans are equal only if they play the same. A knob
    left at the player count's value (Jass ``pimc``'s ``worlds=0``) is also recorded as it
    played at the run's player count (``at_players``, registry ``Strategy.by_players_at``), so
    that resume and replay see a change of that value."""
    out = []
    for seat, (text, s) in enumerate(zip(spec.strategies,
                                         parse_strategies(spec.game, spec.strategies),
                                         strict=True)):
        entry = {"seat": seat, "strategy": text, "name": s.name, "label": s.label(),
                 "params": s.describe_params(), "definition": s.definition()}
        at = s.by_players_at(spec.players)
        if at:
            entry["at_players"] = at
        out.append(entry)
    return out


def resolved_strategies(spec: RunSpec) -> dict[str, dict[str, Any]]:
    """Each distinct strategy text of ``spec`` -> its resolved definition, as this process
    reads it now (what worker processes are handed: registry ``pinned``)."""
    texts = list(dict.fromkeys(spec.strategies))
    return {t: s.definition() for t, s in zip(texts, parse_strategies(spec.game, texts),
                                               strict=True)}


def recorded_strategies(plan: dict) -> dict[str, dict[str, Any]]:
    """Each strategy text of a plan -> the definition the run recorded; empty for a folder
    written before definitions were recorded (its texts are then read from the catalogue)."""
    out: dict[str, dict[str, Any]] = {}
    for entry in plan.get("strategies") or []:
        if isinstance(entry, dict) and isinstance(entry.get("definition"), dict):
            out[str(entry["strategy"])] = entry["definition"]
    return out


def pinned_to_plan(plan: dict):
    """A context in which the plan's strategy texts read as the plan recorded them (registry
    ``pinned``); a one-line StrategyError if a recorded definition is not valid."""
    recorded = recorded_strategies(plan)
    for definition in recorded.values():
        try:
            from_definition(plan["game"], definition)
        except StrategyError as exc:
            raise StrategyError(f"the run's recorded strategies: {exc}") from None
    return pinned(plan["game"], recorded)


LEARNED = "learned"  # the family whose weights file (strategies/<game>/learned.json) play reads
# a knob value that reads a value model (strategies/<game>/value.json; pimc:rollout=value),
# whose rounds (tricks) are finished by the game's pinned learned model (below), so it reads
# those weights too
VALUE = "value"
# A game's pinned learned model: a second weights file of the learned family, the one its value
# model was trained on and finishes its leaves with, kept apart so that retraining learned
# leaves pimc as it is: Who's the Ass?'s linear model of before
# (strategies/ass/learned-linear.json, model=linear, the preset learned-linear), Plus-Minus
# Jass's leaf network (strategies/jass/learned-leaf.json, model=leaf, learned-leaf). The kind
# weights_in_use names it by; the plan records its digest as "<its name>_weights"
# (linear_weights, leaf_weights).
PINNED = "pinned"


def _pinned_module(game: str):
    """A game's learned_weights module when it has a pinned model (``PINNED``,
    ``PINNED_FILE``, ``PINNED_WEIGHTS``, ``PINNED_READERS``), else None."""
    import importlib

    try:
        module = importlib.import_module(f"strategies.{game}.learned_weights")
    except ModuleNotFoundError:  # a game with no learned family
        return None
    return module if hasattr(module, "PINNED") else None


def _pinned_readers(game: str) -> tuple[str, ...]:
    """The knob values that read a game's pinned learned model (none without one)."""
    module = _pinned_module(game)
    return module.PINNED_READERS if module else ()


def pinned_key(game: str) -> str | None:
    """The plan's key for the digest of ``game``'s pinned model ("linear_weights" in Who's
    the Ass?, "leaf_weights" in Plus-Minus Jass), None without one."""
    module = _pinned_module(game)
    return f"{module.PINNED}_weights" if module else None


def _knobs(strategy) -> list[tuple]:
    """(param, the value as it is written) of every knob of a Strategy."""
    return [(p, p.show(strategy.values[p.slot])) for p in strategy.spec.params]


def _knob_values(strategy) -> list[str]:
    return [shown for _, shown in _knobs(strategy)]


def _pinned_model(strategy, values=None) -> bool:
    """A learned seat playing its game's pinned model (model=linear, model=leaf); with
    ``values``, whether those knobs (its name's own: what its description's digest names)
    select it."""
    module = _pinned_module(strategy.spec.game)
    values = strategy.values if values is None else values
    return module is not None and any(
        p.name == "model" and p.show(values[p.slot]) == module.PINNED
        for p in strategy.spec.params)


def _seat_reads(strategy, pinned: bool) -> str | None:
    """How a learned seat reads the pinned model's weights (``pinned``) or learned.json's:
    "family" when its name's description names their digest, "knob" when a knob switched
    the model away from its name's (``learned:model=leaf``: the plan records the digest)."""
    from strategies.registry import resolve_values

    if _pinned_model(strategy) != pinned:
        return None
    named = _pinned_model(strategy, resolve_values(strategy.spec, {}))
    return "family" if named == pinned else "knob"


def reads_weights(strategy) -> str | None:
    """How a Strategy reads its game's learned weights (learned.json): ``"family"`` (a
    ``learned`` seat: its description names the weights' sha256), ``"knob"`` (a knob names
    learned, as ``pimc:rollout=learned`` or ``learned-4``: nothing in its definition says
    which weights), or None."""
    if strategy.family_name() == LEARNED:
        return _seat_reads(strategy, False)
    pinned = _pinned_readers(strategy.spec.game)
    for p, shown in _knobs(strategy):
        if shown in pinned:
            continue
        if shown.startswith(LEARNED) or shown in getattr(p, "extras", {}):
            return "knob"
    return None


def reads_pinned_weights(strategy) -> str | None:
    """How a Strategy reads its game's pinned learned weights (Who's the Ass?'s linear model,
    Plus-Minus Jass's leaf network): ``"family"`` (``learned-linear``, ``learned-leaf``: its
    description names their sha256), ``"knob"`` (``pimc:rollout=value``, whose leaves they
    finish, or a rollout by the pinned preset), or None."""
    if strategy.family_name() == LEARNED:
        return _seat_reads(strategy, True)
    pinned = _pinned_readers(strategy.spec.game)
    return "knob" if any(v in pinned for v in _knob_values(strategy)) else None


def reads_value_weights(strategy) -> bool:
    """Whether a Strategy reads its game's value model: a knob names one of the evaluations
    its rollout knob takes besides strategies (``extras``: ``value``, Who's the Ass?'s
    ``value-only``)."""
    return any(shown in getattr(p, "extras", {}) for p, shown in _knobs(strategy))


def weights_in_use(game: str, kind: str = "learned") -> tuple[str, object]:
    """(sha256 of ``game``'s weights of ``kind`` (learned, value, or its pinned model: "pinned"
    or the game's own name for it, "linear" or "leaf") this process plays, their ModelFile)."""
    import importlib

    pinned = _pinned_module(game)
    if pinned is not None and kind in (PINNED, pinned.PINNED):
        return pinned.PINNED_FILE.digest(pinned.PINNED_WEIGHTS), pinned.PINNED_FILE
    module = importlib.import_module(f"strategies.{game}.{kind}_weights")
    if kind == LEARNED:
        return module.MODEL.digest(module.WEIGHTS), module.MODEL
    return module.MODEL.digest(module.FLAT), module.MODEL


def build_plan(spec: RunSpec, kernel: ModuleType, start: int, count: int, kind: str) -> dict:
    """The plan of a run of ``count`` units from index ``start`` of a validated ``spec``."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    plan: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": kind,
        "game": spec.game,
        "mode": spec.mode,
        "unit": _mode(spec.game, spec.mode).unit,
        "seed": spec.seed,
        "start": start,
        "count": count,
        spec.mode: count,
        "players": spec.players,
        "rules": spec.rules,
        "strategies": describe_strategies(spec),
        "spec": spec.to_dict(),
        "columns": mode_columns(spec.game, spec.mode),
        "unit_columns": mode_unit_columns(spec.game, spec.mode),
        "version": analyzer.__version__,
    }
    strategies = parse_strategies(spec.game, spec.strategies)
    if any(reads_weights(s) == "knob" for s in strategies):
        # the weights a rollout by learned reads: replay and resume check them (a learned
        # seat's own description names them already; runs without either read as before)
        plan["weights"] = {spec.game: weights_in_use(spec.game)[0]}
    if any(reads_value_weights(s) for s in strategies):
        plan["value_weights"] = {spec.game: weights_in_use(spec.game, VALUE)[0]}
    if any(reads_pinned_weights(s) == "knob" for s in strategies):
        plan[pinned_key(spec.game)] = {spec.game: weights_in_use(spec.game, PINNED)[0]}
    if kind == "aggregate":
        plan["stored"] = (
            "per chunk, counts per (seat, given, given_value, column, value): every result "
            "column's histogram per seat, overall (given '') and split by each boolean "
            "outcome column (given, given_value 0/1)"
        )
    else:
        plan["stored"] = "per chunk, one row per (index, seat) with the result columns"
    return normalized(plan)


def normalized(doc: dict) -> dict:
    """The document as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(doc))


def to_bytes(doc: dict) -> bytes:
    """JSON text of a plan or manifest (key order kept: columns stay in table order)."""
    return (json.dumps(doc, indent=1) + "\n").encode()


def differences(old: dict, new: dict, limit: int = 6) -> list[str]:
    """Human-readable 'where: old -> new' for the values on which two plans differ.

    Nested values are compared leaf by leaf (``strategies[0].strategy: " basic" -> "basic"``)
    so the difference itself is shown, never cut off; at most ``limit`` entries, then a count.
    """
    diffs: list[str] = []
    for key in sorted(set(old) | set(new)):
        if key in ("spec",):  # repeated in the keys above; say it once
            continue
        _leaf_differences(key, old.get(key, _ABSENT), new.get(key, _ABSENT), diffs)
    if len(diffs) > limit:
        diffs = diffs[:limit] + [f"and {len(diffs) - limit} more"]
    return diffs


_ABSENT = object()


def _leaf_differences(where: str, a: Any, b: Any, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            _leaf_differences(f"{where}.{key}", a.get(key, _ABSENT), b.get(key, _ABSENT), out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _leaf_differences(f"{where}[{i}]", x, y, out)
    elif a != b or type(a) is not type(b):
        out.append(f"{where}: {_show(a)} -> {_show(b)}")


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "(absent)"
    text = json.dumps(value, sort_keys=True, ensure_ascii=True)
    return text if len(text) <= 200 else text[:197] + "..."


def spec_of(plan: dict) -> RunSpec:
    """The validated RunSpec a plan was made from (a decisions folder has none: one line)."""
    if plan.get("kind") == "decisions" or "spec" not in plan:
        from analyzer.errors import CardlabError

        raise CardlabError(
            "this run folder holds the search decisions `cardlab decisions` wrote, not games: "
            "there is no per-seat table to summarize and no game to replay (`cardlab train "
            "--from` reads it)" if plan.get("kind") == "decisions" else
            "this run folder's plan has no run spec: not a run of games cardlab can read")
    return RunSpec.from_dict(plan["spec"])

"""Study 7 (Who's the Ass?): does the joker answer hold whatever the opponents?

The size, and even the sign, of a study's answer can depend on the field of opponents. This
study asks the joker question, holding jokers against using them as needed *with everything
else equal* (the same strategy with only the ``jokers`` knob changed: ``keep`` against
``as-needed``), against several fields: by default ``basic``, the strongest hand-made preset
(``careful``), ``tuned`` and ``random``. The strategy whose joker knob is changed is the field's
own strategy when it has that knob (so the seat differs from the table only in its joker
policy), else ``heuristic``.

Each pair plays seat by seat against the field on the same deals; the difference
hold - as-needed is taken per deal with its 95% interval over deals. Claims that a cell is
"clearly" non-zero are corrected over all cells (Holm). The answer ends with one robustness
sentence: the range over all fields and player counts when every cell has the same clear
sign, otherwise the fields where it differs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.stats.duplicate import seat_swaps
from analyzer.stats.hygiene import holm, two_sided_p
from analyzer.stats.intervals import mean_interval, t_quantile
from analyzer.studies.play import Backend, make_spec, play_arrangements
from analyzer.studies.results import StudyResult, base_manifest
from analyzer.studies.text import decimals_for, pm

DEFAULT_FIELDS = ("basic", "careful", "tuned", "random")
VALUE = "minus_points"


def hold_and_use(field: str) -> tuple[str, str]:
    """(hold, use) strategy texts: the field's strategy (or heuristic) with jokers=keep and
    jokers=as-needed, everything else as it is."""
    from strategies.registry import StrategyError, parse_strategy

    try:
        s = parse_strategy("ass", field)
        names = {p.name for p in s.spec.params}
    except StrategyError:
        names = set()
    base = field if "jokers" in names else "heuristic"
    sep = "," if ":" in base else ":"
    return f"{base}{sep}jokers=keep", f"{base}{sep}jokers=as-needed"


def _per_deal(backend: Backend, spec, label: str, field: str, count: int) -> tuple[np.ndarray,
                                                                                  bytes]:
    games, _ = play_arrangements(backend, spec, seat_swaps(label, [field], spec.players), count)
    mine = games[games["seat"] == games["arrangement"]]
    fp = np.ascontiguousarray(mine.sort_values(["index", "arrangement"])
                              .select_dtypes("number").to_numpy(np.float64)).tobytes()
    return mine.groupby("index")[VALUE].mean().to_numpy(np.float64), fp


def robustness_sentence(cells: pd.DataFrame) -> str:
    """One sentence over all (field, players) cells of hold - as-needed."""
    fields = list(dict.fromkeys(cells["field"]))
    counts = sorted(cells["players"].unique())
    where = f"{len(fields)} fields ({', '.join(fields)}) and {len(counts)} player counts"
    if (cells["clear"] & (cells["difference"] > 0)).all():
        word = "costs"
    elif (cells["clear"] & (cells["difference"] < 0)).all():
        word = "saves"
    else:
        word = None
    if word is not None:
        lo, hi = cells["difference"].abs().min(), cells["difference"].abs().max()
        d = decimals_for(float(cells["half"].min()))
        return (f"In all {where}, holding jokers {word} between {lo:.{d}f} and {hi:.{d}f} "
                "minus points per game against using them as needed (everything else equal; "
                "each cell clear after Holm's correction over all cells).")
    parts = []
    for f in fields:
        part = cells[cells["field"] == f]
        costs = part[part["clear"] & (part["difference"] > 0)]["players"].tolist()
        saves = part[part["clear"] & (part["difference"] < 0)]["players"].tolist()
        open_ = part[~part["clear"]]["players"].tolist()
        bits = ([f"costs at {_list(costs)}"] if costs else []) + \
               ([f"saves at {_list(saves)}"] if saves else []) + \
               ([f"is not clear at {_list(open_)}"] if open_ else [])
        parts.append(f"against {f} it {', '.join(bits)} players")
    return ("Whether holding jokers pays depends on the field: " + "; ".join(parts) +
            " (Holm's correction over all cells).")


def _list(xs: list[int]) -> str:
    return ", ".join(str(int(x)) for x in xs)


def run_joker_fields(
    backend: Backend,
    fields: Sequence[str] = DEFAULT_FIELDS,
    players: Sequence[int] = (3, 4, 5, 6, 8),
    games: int = 2000,
    seed: int = 2,
    level: float = 0.95,
    pairs: dict[str, tuple[str, str]] | None = None,
) -> StudyResult:
    """Holding minus using jokers, per field and player count, with a robustness sentence.

    ``pairs`` maps a field to its (hold, use) strategy texts (default: :func:`hold_and_use`).
    """
    if games < 2:
        raise CardlabError(f"the fields study needs at least 2 games, got {games}")
    labels = [backend.canonical("ass", f) for f in fields]
    if not labels:
        raise CardlabError("name at least one field")
    t0 = time.perf_counter()
    rows, lines = [], []
    for f in labels:
        hold, use = (pairs or {}).get(f) or hold_and_use(f)
        hold, use = backend.canonical("ass", hold), backend.canonical("ass", use)
        for n in players:
            spec = make_spec(backend, "ass", n, [f] * n, seed, mode="games")
            h, fp_h = _per_deal(backend, spec, hold, f, games)
            u, fp_u = _per_deal(backend, spec, use, f, games)
            est = mean_interval(h - u, level)
            rows.append({"field": f, "players": n, "hold": hold, "use": use,
                         "difference": est.value, "low": est.low, "high": est.high,
                         "half": est.half, "deals": est.n, "identical": fp_h == fp_u,
                         "hold_mean": float(h.mean()), "use_mean": float(u.mean())})
    cells = pd.DataFrame(rows)
    se = cells["half"] / t_quantile(level, max(1, games - 1))
    cells["p"] = np.where(se > 0, two_sided_p((cells["difference"] / se.where(se > 0, 1.0))
                                              .to_numpy()), 1.0)
    cells["p_holm"] = holm(cells["p"].to_numpy())
    cells["clear"] = (cells["p_holm"] < 1 - level) & ~cells["identical"]
    for f in labels:
        part = cells[cells["field"] == f]
        same = part[part["identical"]]["players"].tolist()
        text = "; ".join(f"{int(r['players'])} players {pm(r['difference'], r['half'])}"
                         for _, r in part[~part["identical"]].iterrows())
        line = (f"Against {f} ({part['hold'].iloc[0]} minus {part['use'].iloc[0]}), holding "
                f"jokers minus using them: {text or 'no difference'} minus points per game")
        if same:
            line += (f"; at {_list(same)} players both play exactly the same games (merged, "
                     "not compared)")
        lines.append(line + ".")
    lines.append(robustness_sentence(cells[~cells["identical"]]) if (~cells["identical"]).any()
                 else "Holding and using jokers played identical games in every cell.")
    manifest = base_manifest(
        "fields", game="ass", seed=seed, games=games, players=list(players), field=labels,
        level=level, metric="minus_points", better="lower",
        design="per field: the field's strategy (or heuristic) with jokers=keep and with "
               "jokers=as-needed, each seat by seat against the field on the same deals; "
               "intervals over deals; 'clear' after Holm over all cells",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    return StudyResult("fields", {"cells": cells}, manifest, lines)

"""Study 7: do the joker and trump answers hold whatever the opponents?

The size, and even the sign, of a study's answer can depend on the field of opponents. This
study asks the joker question, holding jokers against using them as needed *with everything
else equal* (the same strategy with only the ``jokers`` knob changed: ``keep`` against
``as-needed``), against several fields: by default ``basic``, the strongest hand-made preset
(``careful``), ``tuned`` and ``random``. The strategy whose joker knob is changed is the field's
own strategy when it has that knob (so the seat differs from the table only in its joker
policy), else ``heuristic``.

The trump question (Plus-Minus Jass) is asked the same way: the trump study
(:mod:`analyzer.studies.trump`) is run with each field of players (default ``adaptive``,
``aim-low``, ``catch-up``, ``tuned``), and the best rule per player count, rule set and aim
is compared across fields in one sentence per aim.

``pimc`` (and any strategy tagged ``slow``) is not a default field: at a few hundred games
per second per search seat it would take the demo several minutes per field. It is a field
the user turns on (``cardlab study fields --add-field pimc``); a slow field plays
1/``slow_share`` of each budget (default 1/10), its cells saying how many deals they rest on.

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
from analyzer.numbers import count as count_words
from analyzer.runner.play import Backend, make_spec, play_arrangements
from analyzer.stats.duplicate import seat_swaps
from analyzer.stats.hygiene import holm, two_sided_p
from analyzer.stats.intervals import mean_interval, t_quantile
from analyzer.studies.results import StudyResult, base_manifest
from analyzer.text import decimals_for, pm

DEFAULT_FIELDS = ("basic", "careful", "tuned", "random")
VALUE = "minus_points"
SLOW_SHARE = 10  # a field tagged slow (pimc) plays 1/SLOW_SHARE of each budget


def field_budget(game: str, field: str, budget: int, slow_share: int, least: int = 10) -> int:
    """``budget``, or 1/``slow_share`` of it (at least ``least``) for a field tagged slow."""
    from analyzer.studies.trump import is_slow

    return max(least, budget // slow_share) if is_slow(game, field) else budget


def with_added(ass_fields: list[str], jass_fields: list[str], added: Sequence[str]
               ) -> tuple[list[str], list[str]]:
    """The joker/seat fields (Who's the Ass?) and trump fields (Jass) with each of ``added``
    appended where it names a strategy of that game; a name of neither game is an error."""
    from strategies.registry import StrategyError, parse_strategy

    out = (list(ass_fields), list(jass_fields))
    for name in added:
        hits = 0
        for game, fields in zip(("ass", "jass"), out, strict=True):
            try:
                parse_strategy(game, name)
            except StrategyError:
                continue
            hits += 1
            if name not in fields:
                fields.append(name)
        if not hits:
            raise CardlabError(f"--add-field {name!r} is a strategy of neither game")
    return out


def _t_se(half: pd.Series, n: pd.Series, level: float) -> pd.Series:
    """Standard errors from interval half-widths over ``n`` units each."""
    q = [t_quantile(level, max(1, int(k) - 1)) for k in n]
    return half / np.asarray(q, dtype=np.float64)


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
    slow_share: int = SLOW_SHARE,
) -> StudyResult:
    """Holding minus using jokers, per field and player count, with a robustness sentence.

    ``pairs`` maps a field to its (hold, use) strategy texts (default: :func:`hold_and_use`).
    A field tagged slow (pimc) plays ``games // slow_share`` games per player count.
    """
    if games < 2:
        raise CardlabError(f"the fields study needs at least 2 games, got {games}")
    labels = [backend.canonical("ass", f) for f in fields]
    if not labels:
        raise CardlabError("name at least one field")
    t0 = time.perf_counter()
    rows, lines = [], []
    if slow_share < 1:
        raise CardlabError(f"the slow share must be at least 1, got {slow_share}")
    for f in labels:
        hold, use = (pairs or {}).get(f) or hold_and_use(f)
        hold, use = backend.canonical("ass", hold), backend.canonical("ass", use)
        count = field_budget("ass", f, games, slow_share)
        for n in players:
            spec = make_spec(backend, "ass", n, [f] * n, seed, mode="games")
            h, fp_h = _per_deal(backend, spec, hold, f, count)
            u, fp_u = _per_deal(backend, spec, use, f, count)
            est = mean_interval(h - u, level)
            rows.append({"field": f, "players": n, "hold": hold, "use": use,
                         "difference": est.value, "low": est.low, "high": est.high,
                         "half": est.half, "deals": est.n, "identical": fp_h == fp_u,
                         "hold_mean": float(h.mean()), "use_mean": float(u.mean())})
    cells = pd.DataFrame(rows)
    se = _t_se(cells["half"], cells["deals"], level)
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
        fewer = int(part["deals"].iloc[0])
        if fewer != games:
            line += f" ({count_words(fewer)} games per player count: a slow field)"
        lines.append(line + ".")
    lines.append(robustness_sentence(cells[~cells["identical"]]) if (~cells["identical"]).any()
                 else "Holding and using jokers played identical games in every cell.")
    manifest = base_manifest(
        "fields", game="ass", seed=seed, games=games, players=list(players), field=labels,
        slow_share=slow_share, level=level, metric="minus_points", better="lower",
        design="per field: the field's strategy (or heuristic) with jokers=keep and with "
               "jokers=as-needed, each seat by seat against the field on the same deals; "
               "intervals over deals; 'clear' after Holm over all cells",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    return StudyResult("fields", {"cells": cells}, manifest, lines)


TRUMP_FIELDS = ("adaptive", "aim-low", "catch-up", "tuned")


def trump_across_fields(backend: Backend, fields: Sequence[str] = TRUMP_FIELDS,
                        players: Sequence[int] = (3, 4), rulesets: Sequence[str] = ("seed",),
                        deals: int = 10_000, seed: int = 3, level: float = 0.95,
                        slow_share: int = SLOW_SHARE) -> tuple[pd.DataFrame, list[str]]:
    """The trump study per field: its rules table with a ``field`` column, and sentences
    (a field tagged slow plays ``deals // slow_share`` deals)."""
    from analyzer.studies.trump import AS_PLAYED, RULE_WORDS, run_trump

    frames, pair_frames, lines = [], [], []
    for f in fields:
        res = run_trump(backend, players, rulesets, [f],
                        field_budget("jass", f, deals, slow_share, least=2), seed, level)
        rules = res.table("rules").copy()
        pairs = res.table("pairs").copy()
        label = backend.canonical("jass", f)
        rules.insert(0, "field", label)
        pairs.insert(0, "field", label)
        # the strategy's own choice is a rule's equal when it loses exactly the same
        same = pairs[(pairs["a"] == AS_PLAYED) & (pairs["difference"] == 0)
                     & (pairs["half"] == 0)]
        rules["own_choice_is"] = ""
        for _, row in same.iterrows():
            hit = ((rules["players"] == row["players"]) & (rules["ruleset"] == row["ruleset"])
                   & (rules["aim"] == row["aim"]) & (rules["rule"] == AS_PLAYED))
            rules.loc[hit, "own_choice_is"] = row["b"]
        frames.append(rules)
        pair_frames.append(pairs)
    # fields whose named rules lose exactly the same on every cell are one field here (e.g.
    # players that differ only in their own trump choice): merged, named together
    firsts: dict[bytes, str] = {}
    alias: dict[str, str] = {}
    for rules in frames:
        named_rows = rules[rules["rule"] != AS_PLAYED].drop(columns=["field", "own_choice_is"])
        fp = np.ascontiguousarray(named_rows.select_dtypes("number")
                                  .to_numpy(np.float64)).tobytes()
        alias[rules["field"].iloc[0]] = firsts.setdefault(fp, rules["field"].iloc[0])
    for kept in dict.fromkeys(alias.values()):
        same = [f for f, k in alias.items() if k == kept and f != kept]
        if same:
            lines.append(f"{' = '.join([kept, *same])}: the trump rules lose exactly the same "
                         f"with these players (they differ at most in their own trump choice),"
                         f" so they count as one field below.")
    frames = [f for f in frames if alias[f["field"].iloc[0]] == f["field"].iloc[0]]
    pair_frames = [p for p in pair_frames if alias[p["field"].iloc[0]] == p["field"].iloc[0]]
    table = pd.concat(frames, ignore_index=True)
    pairs = pd.concat(pair_frames, ignore_index=True)
    keys = ["field", "players", "ruleset", "aim"]
    named = table[table["rule"] != AS_PLAYED]
    # a rule is "top" in a cell when it is the best or not clearly worse than the best
    worse = pairs[pairs["low"] > 0].set_index([*keys, "a"]).index
    named = named.assign(top=[tuple(k) not in worse for k in
                              named[[*keys, "rule"]].itertuples(index=False)])
    table = table.merge(named[[*keys, "rule", "top"]], on=[*keys, "rule"], how="left")
    for aim, part in named.groupby("aim", sort=True):
        n_cells = part[keys].drop_duplicates().shape[0]
        nf = part["field"].nunique()
        cells = (f"{nf} field{'s' if nf > 1 else ''}, {n_cells} (field, players, rule set) "
                 f"cell{'s' if n_cells > 1 else ''}")
        top = part[part["top"]].groupby("rule").size()
        always = [r for r, c in top.items() if c == n_cells]
        if always:
            rows = part[part["rule"].isin(always)]
            lo, hi = rows["sticks_loss"].min(), rows["sticks_loss"].max()
            half = float(((rows["sticks_loss_high"] - rows["sticks_loss_low"]) / 2).min())
            d = decimals_for(half)
            names = " and ".join(RULE_WORDS.get(r, r) for r in always)
            where = f"in all {cells}" if nf > 1 else f"in {cells} ({part['field'].iloc[0]})"
            lines.append(
                f"Choosers aiming {aim}: {where}, fixing {names} is the best rule or "
                f"not clearly worse than it ({lo:.{d}f} to {hi:.{d}f} sticks lost per decision "
                "against the best suit in hindsight).")
        else:
            best = (part.sort_values("sticks_loss", kind="stable")
                    .groupby(keys, sort=False).head(1))
            by = "; ".join(
                f"{f}: " + ", ".join(f"{RULE_WORDS.get(r['rule'], r['rule'])} at "
                                     f"{int(r['players'])} players ({r['ruleset']})"
                                     for _, r in g.sort_values("players").iterrows())
                for f, g in best.groupby("field", sort=False))
            lines.append(f"Choosers aiming {aim}: no rule is best or tied for best in every "
                         f"cell ({cells}); the rule that loses least: {by}.")
    own = table[(table["rule"] == AS_PLAYED) & (table["own_choice_is"] != "")]
    for (f, aim), part in own.groupby(["field", "aim"], sort=False):
        rule = part["own_choice_is"].iloc[0]
        lines.append(f"{f}, aiming {aim}: its own choice is {RULE_WORDS.get(rule, rule)} on "
                     "every decision (identical losses), so the two are not compared.")
    return table, lines


def run_fields(backend: Backend, fields: Sequence[str] = DEFAULT_FIELDS,
               players: Sequence[int] = (3, 4, 5, 6, 8), games: int = 2000, seed: int = 2,
               trump_fields: Sequence[str] = TRUMP_FIELDS, trump_deals: int = 10_000,
               seats_games: int = 20_000, level: float = 0.95,
               slow_share: int = SLOW_SHARE) -> StudyResult:
    """The joker answer across fields and, unless their budgets are 0, the trump answer and
    the seat effects across fields. Fields tagged slow (pimc) play 1/``slow_share`` of each
    budget."""
    result = run_joker_fields(backend, fields, players, games, seed, level,
                              slow_share=slow_share)
    if seats_games:
        table, lines = seats_across_fields(backend, fields, games=seats_games, level=level,
                                           slow_share=slow_share)
        result.tables["seats"] = table
        result.headlines.extend(lines)
        result.manifest["seats"] = {"fields": list(fields), "games": seats_games,
                                    "players": [4, 6]}
    if trump_deals and trump_fields:
        table, lines = trump_across_fields(backend, trump_fields, deals=trump_deals,
                                           level=level, slow_share=slow_share)
        result.tables["trump"] = table
        result.headlines.extend(lines)
        result.manifest["trump"] = {"fields": list(trump_fields), "deals": trump_deals,
                                    "players": [3, 4], "rulesets": ["seed"]}
    return result


SEATS_FIELDS = DEFAULT_FIELDS


def seats_across_fields(backend: Backend, fields: Sequence[str] = SEATS_FIELDS,
                        players: Sequence[int] = (4, 6), games: int = 20_000, seed: int = 1,
                        level: float = 0.95, slow_share: int = SLOW_SHARE
                        ) -> tuple[pd.DataFrame, list[str]]:
    """The seats study (Who's the Ass?) per field: seat effects with a ``field`` column, and
    one sentence on whether any seat pays clearly more or less than the average seat,
    corrected over every (field, players, seat) cell (Holm)."""
    from analyzer.studies.seats import run_seats

    frames = []
    for f in fields:
        count = field_budget("ass", f, games, slow_share)
        t = run_seats(backend, players, [f], count, seed, level).table("seats").copy()
        t.insert(0, "field", backend.canonical("ass", f))
        t["field_games"] = count
        frames.append(t)
    table = pd.concat(frames, ignore_index=True)
    half = (table["seat_effect_high"] - table["seat_effect_low"]) / 2
    se = _t_se(half, table["field_games"], level)
    z = (table["seat_effect"] / se.where(se > 0, np.nan)).to_numpy()
    table["p_holm"] = holm(np.where(np.isfinite(z), two_sided_p(np.nan_to_num(z)), 1.0))
    table["clear"] = table["p_holm"] < 1 - level
    where = (f"{table['field'].nunique()} fields ({', '.join(dict.fromkeys(table['field']))}) "
             f"at {_list(sorted(table['players'].unique()))} players")
    top = table.loc[table["seat_effect"].abs().idxmax()]
    top_text = (f"seat {int(top['seat'])} at {int(top['players'])} players against "
                f"{top['field']}: {pm(top['seat_effect'], _half(top))}")
    clear = table[table["clear"]]
    if clear.empty:
        line = (f"In all {where}, no seat pays clearly more or less than the average seat at "
                f"its table after Holm's correction over all {len(table)} seats (largest "
                f"effect: {top_text} minus points per game).")
    else:
        cells = "; ".join(f"seat {int(r['seat'])} at {int(r['players'])} players against "
                          f"{r['field']} {pm(r['seat_effect'], _half(r))}"
                          for _, r in clear.iterrows())
        line = (f"Across {where}, seats that pay clearly more (+) or less (-) than the average "
                f"seat after Holm's correction over all {len(table)} seats: {cells} minus "
                "points per game; every other seat is not clearly different.")
    return table, [line]


def _half(row: pd.Series) -> float:
    return float((row["seat_effect_high"] - row["seat_effect_low"]) / 2)

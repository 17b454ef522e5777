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
from dataclasses import replace

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.numbers import count as count_words
from analyzer.runner.play import Backend, make_spec, play_arrangements
from analyzer.stats.duplicate import seat_swaps
from analyzer.stats.hygiene import holm, two_sided_p
from analyzer.stats.intervals import mean_interval, t_quantile
from analyzer.studies.claims import Cell, Claim, half, make_cell, probe, several
from analyzer.studies.defaults import FIELDS, TRUMP_FIELDS
from analyzer.studies.registry import question
from analyzer.studies.results import StudyResult, base_manifest
from analyzer.text import decimals_for, pm

# The study asks one question per game: joker holding (Who's the Ass?) and trump (Jass).
ASS, JASS = "ass", "jass"

DEFAULT_FIELDS = FIELDS
VALUE = "minus_points"
SLOW_SHARE = 10  # a field tagged slow (pimc) plays 1/SLOW_SHARE of each budget


def field_budget(game: str, field: str, budget: int, slow_share: int, least: int = 10) -> int:
    """``budget``, or 1/``slow_share`` of it (at least ``least``) for a field tagged slow."""
    from strategies.registry import is_slow

    return max(least, budget // slow_share) if is_slow(game, field) else budget


def with_added(ass_fields: list[str], jass_fields: list[str], added: Sequence[str]
               ) -> tuple[list[str], list[str]]:
    """The joker/seat fields (Who's the Ass?) and trump fields (Jass) with each of ``added``
    appended where it names a strategy of that game; a name of neither game is an error."""
    from strategies.registry import StrategyError, parse_strategy

    out = (list(ass_fields), list(jass_fields))
    for name in added:
        hits = 0
        for game, fields in zip((ASS, JASS), out, strict=True):
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
        s = parse_strategy(ASS, field)
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


def _probe(kind: str, table: str, key: str = "field", **extra) -> Claim:
    return probe(ASS, "fields", kind, table, extra={"key": key, **extra})


def _cell(result: StudyResult, reader: Claim, players: int, choice: str, metric: str,
          field_: str | None, **kw) -> tuple[Claim, Cell]:
    return reader, make_cell(reader, result, players, choice, metric, field_=field_, **kw)


def _state(result: StudyResult, row: pd.Series) -> list[tuple[Claim, Cell]]:
    """A joker cell of table ``cells``: its difference and whether it is clear (Holm)."""
    n, f = int(row["players"]), str(row["field"])
    return [_cell(result, _probe("value", "cells"), n, f, "difference", f),
            _cell(result, _probe("equals", "cells", equals=str(bool(row["clear"]))), n, f,
                  "clear", f)]


def robustness_claim(result: StudyResult) -> Claim:
    """One sentence over all (field, players) cells of hold - as-needed that do not play
    identical games, as a claim on each cell's difference and Holm verdict."""
    every = result.table("cells")
    cells = every[~every["identical"].astype(bool)]
    q = question("fields")
    if cells.empty:
        parts = [_cell(result, _probe("equals", "cells", equals="True"), int(r["players"]),
                       str(r["field"]), "identical", str(r["field"]))
                 for _, r in every.iterrows()]
        return several("fields-jokers-robust", "Holding and using jokers played identical "
                       "games in every cell.", parts, game=ASS, study="fields", question=q)
    parts = [x for _, r in cells.iterrows() for x in _state(result, r)]
    fields = list(dict.fromkeys(cells["field"]))
    counts = sorted(cells["players"].unique())
    where = f"{len(fields)} fields ({', '.join(fields)}) and {len(counts)} player counts"
    if (cells["clear"] & (cells["difference"] > 0)).all():
        word = "costs"
    elif (cells["clear"] & (cells["difference"] < 0)).all():
        word = "saves"
    else:
        word = None
    values = [c.value for r, c in parts if c.metric == "difference"]
    if word is not None:
        lo, hi = min(abs(v) for v in values), max(abs(v) for v in values)
        d = decimals_for(float(cells["half"].min()))
        sentence = (f"In all {where}, holding jokers {word} between {lo:.{d}f} and {hi:.{d}f} "
                    "minus points per game against using them as needed (everything else "
                    "equal; each cell clear after Holm's correction over all cells).")
    else:
        bits_by_field = []
        for f in fields:
            part = cells[cells["field"] == f]
            costs = part[part["clear"] & (part["difference"] > 0)]["players"].tolist()
            saves = part[part["clear"] & (part["difference"] < 0)]["players"].tolist()
            open_ = part[~part["clear"]]["players"].tolist()
            bits = ([f"costs at {_list(costs)}"] if costs else []) + \
                   ([f"saves at {_list(saves)}"] if saves else []) + \
                   ([f"is not clear at {_list(open_)}"] if open_ else [])
            bits_by_field.append(f"against {f} it {', '.join(bits)} players")
        sentence = ("Whether holding jokers pays depends on the field: "
                    + "; ".join(bits_by_field) + " (Holm's correction over all cells).")
    return several("fields-jokers-robust", sentence, parts, game=ASS, study="fields",
                   question=q)


def field_claims(result: StudyResult, games: int) -> list[Claim]:
    """One claim per field of table ``cells``: hold - as-needed at each player count, the
    player counts where both play the same games, and the budget of a slow field."""
    cells = result.table("cells")
    claims = []
    for f in dict.fromkeys(cells["field"].astype(str)):
        part = cells[cells["field"].astype(str) == f]
        first = int(part["players"].iloc[0])
        parts = [_cell(result, _probe("equals", "cells", equals=str(part[col].iloc[0])),
                       first, f, col, f) for col in ("hold", "use")]
        said = []
        for _, r in part.iterrows():
            n = int(r["players"])
            if r["identical"]:
                parts.append(_cell(result, _probe("equals", "cells", equals="True"), n, f,
                                   "identical", f))
            else:
                parts.append(_cell(result, _probe("value", "cells"), n, f, "difference", f))
                said.append(f"{n} players {pm(parts[-1][1].value, half(parts[-1][1]))}")
        same = [c.players for r, c in parts if c.metric == "identical"]
        line = (f"Against {f} ({part['hold'].iloc[0]} minus {part['use'].iloc[0]}), holding "
                f"jokers minus using them: {'; '.join(said) or 'no difference'} minus points "
                "per game")
        if same:
            line += (f"; at {_list(same)} players both play exactly the same games (merged, "
                     "not compared)")
        parts.append(_cell(result, _probe("value", "cells", exact=True), first, f, "deals", f))
        fewer = int(parts[-1][1].value)
        if fewer != games:
            line += f" ({count_words(fewer)} games per player count: a slow field)"
        claims.append(several(f"fields-jokers-{f}", line + ".", parts, game=ASS,
                              study="fields", question=question("fields")))
    return claims


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
    labels = [backend.canonical(ASS, f) for f in fields]
    if not labels:
        raise CardlabError("name at least one field")
    t0 = time.perf_counter()
    rows = []
    if slow_share < 1:
        raise CardlabError(f"the slow share must be at least 1, got {slow_share}")
    for f in labels:
        hold, use = (pairs or {}).get(f) or hold_and_use(f)
        hold, use = backend.canonical(ASS, hold), backend.canonical(ASS, use)
        count = field_budget(ASS, f, games, slow_share)
        for n in players:
            spec = make_spec(backend, ASS, n, [f] * n, seed, mode="games")
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
    manifest = base_manifest(
        "fields", game=ASS, seed=seed, games=games, players=list(players), field=labels,
        slow_share=slow_share, level=level, metric="minus_points", better="lower",
        design="per field: the field's strategy (or heuristic) with jokers=keep and with "
               "jokers=as-needed, each seat by seat against the field on the same deals; "
               "intervals over deals; 'clear' after Holm over all cells",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    result = StudyResult("fields", {"cells": cells}, manifest)
    return result.say([*field_claims(result, games), robustness_claim(result)])




def trump_across_fields(backend: Backend, fields: Sequence[str] = TRUMP_FIELDS,
                        players: Sequence[int] = (3, 4), rulesets: Sequence[str] = ("seed",),
                        deals: int = 10_000, seed: int = 3, level: float = 0.95,
                        slow_share: int = SLOW_SHARE) -> tuple[pd.DataFrame, list[str]]:
    """The trump study per field: its rules table with a ``field`` column, and the sentences
    of :func:`trump_field_claims` (a field tagged slow plays ``deals // slow_share``
    deals)."""
    tables = trump_field_tables(backend, fields, players, rulesets, deals, seed, level,
                                slow_share)
    result = StudyResult("fields", tables, {})
    return tables["trump"], result.say(trump_field_claims(result)).headlines


def trump_field_tables(backend: Backend, fields: Sequence[str] = TRUMP_FIELDS,
                       players: Sequence[int] = (3, 4), rulesets: Sequence[str] = ("seed",),
                       deals: int = 10_000, seed: int = 3, level: float = 0.95,
                       slow_share: int = SLOW_SHARE) -> dict[str, pd.DataFrame]:
    """Table ``trump``: the trump study's rules table per field (``field`` column, ``top``:
    the best rule or not clearly worse, ``own_choice_is``: the rule the strategy's own choice
    equals); table ``trump_merged``: the named rules of fields that lose exactly as an earlier
    field (``merged_into``), which count as that field."""
    from analyzer.studies.trump import AS_PLAYED, run_trump

    frames, pair_frames = [], []
    for f in fields:
        res = run_trump(backend, players, rulesets, [f],
                        field_budget(JASS, f, deals, slow_share, least=2), seed, level)
        rules = res.table("rules").copy()
        pairs = res.table("pairs").copy()
        label = backend.canonical(JASS, f)
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
    merged = [f[f["rule"] != AS_PLAYED].assign(merged_into=alias[f["field"].iloc[0]])
              for f in frames if alias[f["field"].iloc[0]] != f["field"].iloc[0]]
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
    out = {"trump": table}
    if merged:
        out["trump_merged"] = pd.concat(merged, ignore_index=True)
    return out


def trump_field_claims(result: StudyResult) -> list[Claim]:
    """The trump answer across fields as claims on tables ``trump`` (and ``trump_merged``):
    the fields merged because their rules lose exactly alike, per aim the rule that is best
    or not clearly worse in every (field, players, rule set) cell (else the best per cell),
    and the fields whose own choice equals a rule."""
    from analyzer.studies.trump import AS_PLAYED, RULE_WORDS

    table = result.table("trump")
    q = question("fields")
    claims = []
    if "trump_merged" in result.tables:
        merged = result.table("trump_merged")
        for kept, part in merged.groupby("merged_into", sort=False):
            same = list(dict.fromkeys(part["field"].astype(str)))
            reader = probe(JASS, "fields", "identical", "trump",
                           extra={"key": "field", "also": ["trump_merged"]})
            parts = []
            for _, r in part.iterrows():
                exact = replace(reader, extra={**reader.extra, "where": {"rule": r["rule"]}})
                parts.append(_cell(result, exact, int(r["players"]), f"{kept}={r['field']}",
                                   "sticks_loss", None, ruleset=str(r["ruleset"]),
                                   aim=str(r["aim"])))
            claims.append(several(
                f"fields-trump-merged-{kept}",
                f"{' = '.join([str(kept), *same])}: the trump rules lose exactly the same "
                f"with these players (they differ at most in their own trump choice),"
                f" so they count as one field below.", parts, game=JASS, study="fields",
                question=q))
    keys = ["field", "players", "ruleset", "aim"]
    named = table[table["rule"] != AS_PLAYED]
    for aim, part in named.groupby("aim", sort=True):
        who = AIM_WHO.get(str(aim), f"Choosers aiming {aim}")
        n_cells = part[keys].drop_duplicates().shape[0]
        nf = part["field"].nunique()
        cells = (f"{nf} field{'s' if nf > 1 else ''}, {n_cells} (field, players, rule set) "
                 f"cell{'s' if n_cells > 1 else ''}")
        top = part[part["top"].astype(bool)].groupby("rule").size()
        always = [r for r, c in top.items() if c == n_cells]
        parts = []
        if always:
            for _, r in part[part["rule"].isin(always)].iterrows():
                at = dict(ruleset=str(r["ruleset"]), aim=str(aim))
                parts.append(_cell(result, _probe("equals", "trump", "rule", equals="True"),
                                   int(r["players"]), str(r["rule"]), "top", str(r["field"]),
                                   **at))
                parts.append(_cell(result, _probe("value", "trump", "rule"), int(r["players"]),
                                   str(r["rule"]), "sticks_loss", str(r["field"]), **at))
            losses = [c for _, c in parts if c.metric == "sticks_loss"]
            lo, hi = min(c.value for c in losses), max(c.value for c in losses)
            d = decimals_for(min(half(c) for c in losses))
            names = " and ".join(RULE_WORDS.get(r, r) for r in always)
            where = f"in all {cells}" if nf > 1 else f"in {cells} ({part['field'].iloc[0]})"
            sentence = (f"{who}: {where}, fixing {names} is the best rule or "
                        f"not clearly worse than it ({lo:.{d}f} to {hi:.{d}f} sticks lost per "
                        "decision against the best suit in hindsight)")
            # the cells where that is not the whole answer: another rule loses least, or
            # every rule is tied (no rule clearly worse), each said from its own cells
            notes = _trump_cell_notes(result, part, keys, str(aim), always, parts)
            sentence += ("; but " + "; ".join(notes) + "." if notes else ".")
        else:
            best = (part.sort_values("sticks_loss", kind="stable")
                    .groupby(keys, sort=False).head(1))
            reader = _probe("best", "trump", "rule", exclude=[AS_PLAYED])
            for _, r in best.iterrows():
                parts.append(_cell(result, reader, int(r["players"]), str(r["rule"]),
                                   "sticks_loss", str(r["field"]), ruleset=str(r["ruleset"]),
                                   aim=str(aim)))
            by = "; ".join(
                f"{f}: " + ", ".join(f"{RULE_WORDS.get(r['rule'], r['rule'])} at "
                                     f"{int(r['players'])} players ({r['ruleset']})"
                                     for _, r in g.sort_values("players").iterrows())
                for f, g in best.groupby("field", sort=False))
            sentence = (f"{who}: no rule is best or tied for best in every "
                        f"cell ({cells}); the rule that loses least: {by}.")
        claims.append(several(f"fields-trump-{aim}", sentence, parts, game=JASS,
                              study="fields", question=q))
    own = table[(table["rule"] == AS_PLAYED) & (table["own_choice_is"] != "")]
    for (f, aim, rule), part in own.groupby(["field", "aim", "own_choice_is"], sort=False):
        parts = [_cell(result, _probe("equals", "trump", "rule", equals=str(rule)),
                       int(r["players"]), AS_PLAYED, "own_choice_is", str(f),
                       ruleset=str(r["ruleset"]), aim=str(aim)) for _, r in part.iterrows()]
        where = ", ".join(f"{c.players} players ({c.ruleset})" for _, c in parts)
        who = AIM_WHO.get(str(aim), f"aiming {aim}").replace("Choosers ", "")
        claims.append(several(
            f"fields-trump-own-{f}-{aim}-{rule}",
            f"{f}, {who}, at {where}: its own choice is {RULE_WORDS.get(rule, rule)} on "
            "every decision (identical losses), so the two are not compared.", parts,
            game=JASS, study="fields", question=q))
    return claims


AIM_WHO = {"high": "Choosers aiming high", "low": "Choosers aiming low",
           "n/a": "Choosers without an aim"}


def _trump_cell_notes(result: StudyResult, part: pd.DataFrame, keys: list[str], aim: str,
                      always: list[str], parts: list[tuple[Claim, Cell]]) -> list[str]:
    """For each (field, players, rule set) cell of ``part`` where a rule outside ``always``
    loses least, or where no rule is clearly worse than the best: the rule that loses least
    and the rules tied with it, in words, their cells appended to ``parts``."""
    from analyzer.studies.trump import RULE_WORDS

    notes = []
    for (f, n, rs, _), cell in part.groupby(keys, sort=True):
        best = str(cell.loc[cell["sticks_loss"].idxmin(), "rule"])
        tied = cell["top"].astype(bool)
        if best in always and not tied.all():
            continue
        at = dict(ruleset=str(rs), aim=aim)
        parts.append(_cell(result, _probe("best", "trump", "rule", exclude=["as-played"]),
                           int(n), best, "sticks_loss", str(f), **at))
        b = parts[-1][1]
        for _, r in cell.iterrows():
            parts.append(_cell(result, _probe("equals", "trump", "rule",
                                              equals=str(bool(r["top"]))),
                               int(n), str(r["rule"]), "top", str(f), **at))
        said = [c for _, c in parts[-len(cell):]]
        ties = [c.choice for c in said if c.choice != best and bool(tied[cell["rule"]
                                                                       == c.choice].iloc[0])]
        what = (f"every one of the {len(said)} rules is tied with it (none clearly worse)"
                if len(ties) == len(said) - 1 else
                "tied with " + " and ".join(RULE_WORDS.get(t, t) for t in ties) if ties else
                "clearly ahead of every other rule")
        notes.append(f"at {int(n)} players ({f}, {rs}) {RULE_WORDS.get(best, best)} loses "
                     f"least ({pm(b.value, half(b))}), {what}")
    return notes


def run_fields(backend: Backend, fields: Sequence[str] = DEFAULT_FIELDS,
               players: Sequence[int] = (3, 4, 5, 6, 8), games: int = 2000, seed: int = 2,
               trump_fields: Sequence[str] = TRUMP_FIELDS, trump_deals: int = 10_000,
               seats_games: int = 20_000, level: float = 0.95,
               slow_share: int = SLOW_SHARE) -> StudyResult:
    """The joker answer across fields and, unless their budgets are 0, the trump answer and
    the seat effects across fields, every part on the deals of ``seed`` (the manifest's).
    Fields tagged slow (pimc) play 1/``slow_share`` of each budget."""
    result = run_joker_fields(backend, fields, players, games, seed, level,
                              slow_share=slow_share)
    if seats_games:
        result.tables["seats"] = seats_field_table(backend, fields, games=seats_games,
                                                   seed=seed, level=level,
                                                   slow_share=slow_share)
        result.say([seats_field_claim(result)])
        result.manifest["seats"] = {"fields": list(fields), "games": seats_games,
                                    "players": [4, 6], "seed": seed}
    if trump_deals and trump_fields:
        result.tables.update(trump_field_tables(backend, trump_fields, deals=trump_deals,
                                                seed=seed, level=level,
                                                slow_share=slow_share))
        result.say(trump_field_claims(result))
        result.manifest["trump"] = {"fields": list(trump_fields), "deals": trump_deals,
                                    "players": [3, 4], "rulesets": ["seed"], "seed": seed}
    return result


SEATS_FIELDS = DEFAULT_FIELDS


def seats_across_fields(backend: Backend, fields: Sequence[str] = SEATS_FIELDS,
                        players: Sequence[int] = (4, 6), games: int = 20_000, seed: int = 1,
                        level: float = 0.95, slow_share: int = SLOW_SHARE
                        ) -> tuple[pd.DataFrame, list[str]]:
    """The seats study (Who's the Ass?) per field: seat effects with a ``field`` column
    (:func:`seats_field_table`), and the sentence of :func:`seats_field_claim`."""
    table = seats_field_table(backend, fields, players, games, seed, level, slow_share)
    result = StudyResult("fields", {"seats": table}, {})
    return table, result.say([seats_field_claim(result)]).headlines


def seats_field_table(backend: Backend, fields: Sequence[str] = SEATS_FIELDS,
                      players: Sequence[int] = (4, 6), games: int = 20_000, seed: int = 1,
                      level: float = 0.95, slow_share: int = SLOW_SHARE) -> pd.DataFrame:
    """Seat effects per field, ``clear`` after Holm over every (field, players, seat)."""
    from analyzer.studies.seats import run_seats

    frames = []
    for f in fields:
        count = field_budget(ASS, f, games, slow_share)
        t = run_seats(backend, players, [f], count, seed, level,
                      strong_fields=()).table("seats").copy()
        t.insert(0, "field", backend.canonical(ASS, f))
        t["field_games"] = count
        frames.append(t)
    table = pd.concat(frames, ignore_index=True)
    half_ = (table["seat_effect_high"] - table["seat_effect_low"]) / 2
    se = _t_se(half_, table["field_games"], level)
    z = (table["seat_effect"] / se.where(se > 0, np.nan)).to_numpy()
    table["p_holm"] = holm(np.where(np.isfinite(z), two_sided_p(np.nan_to_num(z)), 1.0))
    table["clear"] = table["p_holm"] < 1 - level
    return table


def seats_field_claim(result: StudyResult) -> Claim:
    """Whether any seat pays clearly more or less than the average seat, corrected over
    every (field, players, seat) cell (Holm), and the largest effect, as a claim on table
    ``seats``."""
    table = result.table("seats")
    parts = [_cell(result, _probe("equals", "seats", "seat", equals=str(bool(r["clear"]))),
                   int(r["players"]), str(int(r["seat"])), "clear", str(r["field"]))
             for _, r in table.iterrows()]
    where = (f"{table['field'].nunique()} fields ({', '.join(dict.fromkeys(table['field']))}) "
             f"at {_list(sorted(table['players'].unique()))} players")
    top = table.loc[table["seat_effect"].abs().idxmax()]
    largest = probe(ASS, "fields", "best", "seats", better="higher",
                    extra={"key": "seat", "all_players": True, "all_fields": True, "abs": True})
    parts.append(_cell(result, largest, int(top["players"]), str(int(top["seat"])),
                       "seat_effect", str(top["field"])))
    t = parts[-1][1]
    top_text = f"seat {t.choice} at {t.players} players against {t.field}: {pm(t.value, half(t))}"
    clear = table[table["clear"]]
    if clear.empty:
        line = (f"In all {where}, no seat pays clearly more or less than the average seat at "
                f"its table after Holm's correction over all {len(table)} seats (largest "
                f"effect: {top_text} minus points per game, its own 95% interval, before "
                "the correction).")
    else:
        named = []
        for _, r in clear.iterrows():
            parts.append(_cell(result, _probe("value", "seats", "seat"), int(r["players"]),
                               str(int(r["seat"])), "seat_effect", str(r["field"])))
            c = parts[-1][1]
            named.append(f"seat {c.choice} at {c.players} players against {c.field} "
                         f"{pm(c.value, half(c))}")
        line = (f"Across {where}, seats that pay clearly more (+) or less (-) than the average "
                f"seat after Holm's correction over all {len(table)} seats: {'; '.join(named)} "
                "minus points per game; every other seat is not clearly different.")
    return several("fields-seats", line, parts, game=ASS, study="fields",
                   question=question("fields"))

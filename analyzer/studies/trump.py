"""Study 3 (Plus-Minus Jass): what is a trump-choice rule worth?

The first player who cannot follow suit fixes trump (J-5). The counterfactual table of
:mod:`analyzer.engines.jass.trump_value` replays each deal once per suit that player could fix,
everything else equal, and records the chooser's points and sticks for each, which suit each
choice rule would pick (``pick_<rule>``) and which one the chooser's strategy chose
(``chosen``). Against the best choice in hindsight a rule's *loss* on a deal is:

* sticks: best sticks over the candidate suits minus the sticks of the rule's suit;
* points: for a chooser aiming high, the most points over the candidates minus the rule's;
  aiming low, the rule's points minus the fewest; for a strategy without an aim (n/a) there
  is no "best" in points, so only the sticks loss is given.

Rules are compared paired on the same decisions. Results by player count, rule set, the
chooser's aim, and by hand features (length of the longest suit; holding Under and Nine of
one suit).

Choosers. Besides the table's own players (``strategies``), each strategy of ``choosers``
(default ``re-aim``, which re-aims once trump is known and keeps re-aiming in every replay,
and the search ``pimc``) plays a table of its own, in every seat, and the counterfactual is
taken there as well. The ``choosers`` table gives, per chooser, player count and rule set,
its own choice's loss against the best suit in hindsight (sticks; card points over the
decisions where it has an aim) and every named rule's loss *on the same decisions*, with
the paired difference own minus rule; "clearly" is decided after Holm's correction over the
rules of that group. Each chooser is measured on its own table's decisions (the play before
the choice differs between choosers), so choosers are not compared with each other here.
Choosers tagged ``slow`` (``pimc``) play ``slow_deals`` deals (default ``deals //
SLOW_SHARE``); choosers whose loss tables are identical are merged and named together.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.numbers import count, interval
from analyzer.runner.play import Backend, make_spec, seat_field
from analyzer.seeds import DEFAULT_SEED
from analyzer.stats.hygiene import holm, two_sided_p
from analyzer.stats.intervals import mean_interval, t_quantile
from analyzer.stats.paired import paired_difference
from analyzer.studies.claims import (
    Cell,
    Claim,
    difference_kind,
    half,
    make_cell,
    probe,
    several,
)
from analyzer.studies.defaults import TRUMP_CHOOSERS
from analyzer.studies.registry import question, study_game
from analyzer.studies.results import StudyResult, base_manifest
from analyzer.text import pm
from strategies.registry import is_slow

GAME = study_game("trump")  # the game this study plays (the study registry)

AS_PLAYED = "as-played"  # the chooser's own strategy, from the ``chosen`` column
DEFAULT_CHOOSERS = TRUMP_CHOOSERS
SLOW_SHARE = 20  # slow choosers (pimc: ~1,200 deals/s per seat) play deals // SLOW_SHARE
RULE_WORDS = {
    "longest": "the longest suit", "under_nine": "the suit with Under and Nine",
    "most_points": "the suit with the most points", "shortest": "the shortest suit",
    "fewest_points": "the suit with the fewest points", "random": "a random suit",
    AS_PLAYED: "the strategy's own choice",
}


def decision_keys(table: pd.DataFrame) -> list[str]:
    """Columns that identify one trump decision (index, and deal when present)."""
    return ["index", "deal"] if "deal" in table.columns else ["index"]


def rule_names(table: pd.DataFrame) -> list[str]:
    """The choice rules of the table (pick_<rule> columns), plus the strategy's own choice."""
    rules = [c[len("pick_"):] for c in table.columns if c.startswith("pick_")]
    return [*rules, AS_PLAYED] if "chosen" in table.columns else rules


def losses(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (decision, rule): the rule's sticks and points loss, and hand features."""
    if table.empty:
        raise CardlabError("the counterfactual table is empty: no trump decision was recorded")
    keys = decision_keys(table)
    t = table.copy()
    g = t.groupby(keys, sort=True)
    t["best_sticks"] = g["sticks"].transform("max")
    t["max_points"] = g["points"].transform("max")
    t["min_points"] = g["points"].transform("min")
    t["under_nine_suit"] = t["has_under"].astype(bool) & t["has_nine"].astype(bool)
    feats = g.agg(longest=("length", "max"), candidates=("suit", "size"))
    feats["under_nine"] = t.groupby(keys, sort=True)["under_nine_suit"].any()
    frames = []
    for rule in rule_names(table):
        col = "chosen" if rule == AS_PLAYED else f"pick_{rule}"
        picked = t[t[col].astype(bool)]
        dup = picked.duplicated(keys)
        if dup.any():
            raise CardlabError(f"rule {rule!r} picks more than one suit in a decision")
        aim = picked["aim"].astype(str)
        points_loss = np.where(aim == "high", picked["max_points"] - picked["points"],
                               np.where(aim == "low", picked["points"] - picked["min_points"],
                                        np.nan))
        part = picked[keys].copy()
        part["rule"] = rule
        part["aim"] = aim.to_numpy()
        part["sticks_loss"] = (picked["best_sticks"] - picked["sticks"]).to_numpy(float)
        part["points_loss"] = points_loss.astype(float)
        part["picked_best"] = part["sticks_loss"].to_numpy() == 0
        frames.append(part)
    out = pd.concat(frames, ignore_index=True)
    return out.merge(feats.reset_index(), on=keys, how="left")


def _interval_cols(x: np.ndarray, prefix: str, level: float) -> dict:
    x = x[np.isfinite(x)]
    est = mean_interval(x, level)
    return {prefix: est.value, f"{prefix}_low": est.low, f"{prefix}_high": est.high}


def summarise(loss: pd.DataFrame, by: list[str], level: float) -> pd.DataFrame:
    """Mean sticks and points loss per rule within groups ``by``; best rule marked."""
    rows = []
    for key, part in loss.groupby([*by, "rule"], sort=False):
        key = key if isinstance(key, tuple) else (key,)
        rows.append({
            **dict(zip([*by, "rule"], key, strict=True)), "decisions": len(part),
            **_interval_cols(part["sticks_loss"].to_numpy(float), "sticks_loss", level),
            **_interval_cols(part["points_loss"].to_numpy(float), "points_loss", level),
            "picked_best": float(part["picked_best"].mean()),
        })
    table = pd.DataFrame(rows)
    table["best"] = False
    named = table[table["rule"] != AS_PLAYED] if len(table) else table
    if len(named):
        idx = named.groupby(by, sort=False)["sticks_loss"].idxmin() if by else [
            named["sticks_loss"].idxmin()]
        table.loc[list(np.ravel(idx)), "best"] = True
    return table


def rule_pairs(loss: pd.DataFrame, by: list[str], level: float) -> pd.DataFrame:
    """The best rule (least sticks loss) of each group against every other, paired."""
    keys = decision_keys(loss)
    rows = []
    for key, part in loss.groupby(by, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        wide = part.pivot_table(index=keys, columns="rule", values="sticks_loss")
        wide = wide.dropna()
        if len(wide) < 2:
            continue
        # the best named rule; the strategy's own choice is compared with it, not chosen
        named = [c for c in wide.columns if c != AS_PLAYED] or list(wide.columns)
        best = wide[named].mean().idxmin()
        for other in wide.columns:
            if other == best:
                continue
            cmp = paired_difference(wide[other].to_numpy(), wide[best].to_numpy(), level)
            rows.append({**dict(zip(by, key, strict=True)), "a": other, "b": best,
                         **cmp.to_dict()})
    return pd.DataFrame(rows)


RULESET_WORDS = {"seed": "seed rules", "swiss": "Swiss rules"}
AIM_WORDS = {"high": "playing for many points", "low": "playing for few points",
             "n/a": "without an aim"}


def _probe(kind: str, table: str, **kw) -> Claim:
    return probe(GAME, "trump", kind, table, **kw)


def rule_claims(result: StudyResult) -> list[Claim]:
    """One claim per (players, rule set, aim) of table ``rules``: the named rule that loses
    fewest sticks, whether the next is clearly worse (paired, table ``pairs``), the rule best
    by card points where it differs, and the strategy's own choice."""
    rules = result.table("rules")
    pairs = result.table("pairs")
    field_ = "/".join(result.manifest.get("strategies") or [])
    q = question("trump")
    claims = []
    for (players, ruleset, aim), part in rules.groupby(["players", "ruleset", "aim"],
                                                      sort=True):
        n, rs, aim = int(players), str(ruleset), str(aim)
        part = part.sort_values("sticks_loss", kind="stable")
        named = part[part["rule"] != AS_PLAYED]

        def cell(reader: Claim, rule: str, metric: str, n: int = n, rs: str = rs,
                 aim: str = aim) -> tuple[Claim, Cell]:
            return reader, make_cell(reader, result, n, rule, metric, ruleset=rs,
                                     field_=field_, aim=aim)

        best = cell(_probe("best", "rules", extra={"exclude": [AS_PLAYED]}),
                    str(named["rule"].iloc[0]), "sticks_loss")
        b = best[1]
        parts = [best, cell(_probe("value", "rules", extra={"exact": True}), b.choice,
                            "decisions")]
        text = (f"{n} players, {RULESET_WORDS.get(rs, rs)}, "
                f"{AIM_WORDS.get(aim, 'aiming ' + aim)}: fixing "
                f"{RULE_WORDS.get(b.choice, b.choice)} loses least, "
                f"{pm(b.value, half(b))} sticks per choice against the best suit in "
                "hindsight")
        if len(named) > 1:
            runner = str(named["rule"].iloc[1])
            sel = pairs[(pairs["players"] == n) & (pairs["ruleset"] == rs)
                        & (pairs["aim"] == aim) & (pairs["a"] == runner)
                        & (pairs["b"] == b.choice)]
            if len(sel):
                d = sel.iloc[0]
                kind = difference_kind(float(d["low"]), float(d["high"]))
                parts.append(cell(_probe(kind, "pairs", against=b.choice), runner,
                                  "difference"))
                diff = parts[-1][1]
                clear = "clearly" if kind == "positive" else "not clearly"
                text += (f"; next, {RULE_WORDS.get(runner, runner)} is {clear} worse "
                         f"({interval(diff.value, half(diff), signed=True)})")
        if aim in ("high", "low"):
            by_points = str(named.sort_values("points_loss", kind="stable")["rule"].iloc[0])
            if by_points != b.choice:
                parts.append(cell(_probe("best", "rules", extra={"exclude": [AS_PLAYED]}),
                                  by_points, "points_loss"))
                bp = parts[-1][1]
                text += (f"; counting card points instead, {RULE_WORDS.get(by_points)}"
                         f" is best ({pm(bp.value, half(bp))} points lost)")
        if (part["rule"] == AS_PLAYED).any():
            parts.append(cell(_probe("value", "rules"), AS_PLAYED, "sticks_loss"))
            o = parts[-1][1]
            text += f"; the strategy's own choice loses {pm(o.value, half(o))}"
        claims.append(several(f"trump-{n}-{rs}-{aim}",
                              text + f" ({count(parts[1][1].value)} choices).", parts,
                              game=GAME, study="trump", question=q))
    return claims


def headlines(rules: pd.DataFrame, pairs: pd.DataFrame) -> list[str]:
    """The sentences of :func:`rule_claims` on these tables (those that hold)."""
    result = StudyResult("trump", {"rules": rules, "pairs": pairs}, {})
    return result.say(rule_claims(result)).headlines


def _play_losses(backend: Backend, labels: Sequence[str], players: Sequence[int],
                 rulesets: Sequence[str], deals: int, seed: int) -> tuple[pd.DataFrame, list]:
    """The loss rows of one table of players (``labels`` around the table), every player
    count and rule set, with ``players`` and ``ruleset`` columns; and the specs run."""
    frames, specs = [], []
    for n in players:
        for ruleset in rulesets:
            spec = make_spec(backend, GAME, n, seat_field(labels, n), seed, mode="deals",
                             rules={"ruleset": ruleset})
            specs.append(spec.to_dict())
            loss = losses(backend.table("trump", spec, 0, deals))
            loss.insert(0, "players", n)
            loss.insert(1, "ruleset", ruleset)
            frames.append(loss)
    return pd.concat(frames, ignore_index=True), specs


def chooser_table(loss: pd.DataFrame, level: float) -> pd.DataFrame:
    """Per (chooser, players, ruleset, rule): the loss on the chooser's own decisions, and
    for each named rule the paired difference own choice minus rule (Holm over the rules)."""
    keys = decision_keys(loss)
    rows = []
    for (chooser, players, ruleset), part in loss.groupby(["chooser", "players", "ruleset"],
                                                          sort=False):
        sticks = part.pivot(index=keys, columns="rule", values="sticks_loss")
        points = part.pivot(index=keys, columns="rule", values="points_loss")
        best = part.pivot(index=keys, columns="rule", values="picked_best")
        if AS_PLAYED not in sticks.columns or len(sticks) < 2:
            continue
        own = sticks[AS_PLAYED].to_numpy(float)
        group = []
        for rule in [AS_PLAYED, *[c for c in sticks.columns if c != AS_PLAYED]]:
            row = {"chooser": chooser, "players": players, "ruleset": ruleset, "rule": rule,
                   "decisions": len(sticks),
                   **_interval_cols(sticks[rule].to_numpy(float), "sticks_loss", level),
                   **_interval_cols(points[rule].to_numpy(float), "points_loss", level),
                   "aimed": int(np.isfinite(points[rule].to_numpy(float)).sum()),
                   "picked_best": float(best[rule].astype(float).mean())}
            if rule == AS_PLAYED:
                row.update(own_minus=np.nan, own_minus_low=np.nan, own_minus_high=np.nan,
                           own_minus_half=np.nan, p=np.nan)
            else:
                d = paired_difference(own, sticks[rule].to_numpy(float), level).difference
                se = d.half / t_quantile(level, max(1, d.n - 1)) if d.half > 0 else 0.0
                p = float(two_sided_p(d.value / se)) if se > 0 else (1.0 if d.value == 0
                                                                     else 0.0)
                row.update(own_minus=d.value, own_minus_low=d.low, own_minus_high=d.high,
                           own_minus_half=d.half, p=p)
            group.append(row)
        named = [r for r in group if r["rule"] != AS_PLAYED]
        adjusted = holm([r["p"] for r in named])
        top = min(named, key=lambda r: r["sticks_loss"])["rule"] if named else None
        for r, q in zip(named, adjusted, strict=True):
            r["p_holm"] = float(q)
            r["clear"] = bool(q < 1 - level) and r["own_minus"] != 0
        for r in group:
            r.setdefault("p_holm", np.nan)
            r.setdefault("clear", False)
            r["best_rule"] = r["rule"] == top
        rows.extend(group)
    return pd.DataFrame(rows)


def _phrase(value: float, half: float, signed: bool = False) -> str:
    """``value ± half``; exactly ``0`` when every decision gave 0 (no "0.000 ± 0.000")."""
    if value == 0 and half == 0:
        return "0"
    half = half if np.isfinite(half) else 0.0
    return interval(value, half, signed=True) if signed else pm(value, half)


def chooser_claims(result: StudyResult) -> list[Claim]:
    """One claim per (chooser, players, rule set) of table ``choosers``: its own choice
    against the best suit in hindsight, beside the longest-suit rule and the best fixed rule
    on the same decisions (paired, Holm over the rules)."""
    table = result.table("choosers")
    q = question("trump")
    claims = []
    for (chooser, players, ruleset), part in table.groupby(["chooser", "players", "ruleset"],
                                                           sort=False):
        n, rs, who = int(players), str(ruleset), str(chooser)

        def cell(reader: Claim, rule: str, metric: str, n: int = n, rs: str = rs,
                 who: str = who) -> tuple[Claim, Cell]:
            return reader, make_cell(reader, result, n, rule, metric, ruleset=rs, field_=who)

        figure = _probe("value", "choosers")
        exact = _probe("value", "choosers", extra={"exact": True})
        own = cell(figure, AS_PLAYED, "sticks_loss")
        decisions = cell(exact, AS_PLAYED, "decisions")
        parts = [own, decisions]
        rules = part[part["rule"] != AS_PLAYED].set_index("rule")
        o = own[1]
        text = (f"{n} players, {RULESET_WORDS.get(rs, rs)}: {who}'s trump "
                f"choice loses {_phrase(o.value, half(o))} sticks "
                "per decision against the best suit in hindsight")
        aimed = part.loc[part["rule"] == AS_PLAYED, "aimed"].iloc[0]
        if aimed > 1:
            parts += [cell(figure, AS_PLAYED, "points_loss"), cell(exact, AS_PLAYED, "aimed")]
            pts, am = parts[-2][1], parts[-1][1]
            text += (f" ({_phrase(pts.value, half(pts))} card points "
                     f"over the {count(am.value)} decisions where it has an aim)")
        bits = []
        for rule in dict.fromkeys(["longest", *rules.index[rules["best_rule"]]]):
            if rule not in rules.index:
                continue
            is_best = bool(rules.loc[rule, "best_rule"])
            reader = (_probe("best", "choosers", extra={"exclude": [AS_PLAYED]}) if is_best
                      else figure)
            parts.append(cell(reader, str(rule), "sticks_loss"))
            loss = parts[-1][1]
            parts.append(cell(_probe("value", "choosers"), str(rule), "own_minus"))
            d = parts[-1][1]
            what = (f"the best fixed rule here, {RULE_WORDS.get(rule, rule)}, loses"
                    if is_best else f"{RULE_WORDS.get(rule, rule)} loses")
            if d.value == 0 and d.low == d.high:
                verdict = "it fixed the same suit on every decision"
            else:
                clear = bool(rules.loc[rule, "clear"])
                parts.append(cell(_probe("equals", "choosers", extra={"equals": str(clear)}),
                                  str(rule), "clear"))
                verdict = (("clearly less" if d.value < 0 else "clearly more")
                           if clear else "not clearly more or less")
                verdict = (f"{who}'s choice loses {verdict}: "
                           f"{_phrase(d.value, half(d), True)}")
            bits.append(f"{what} {_phrase(loss.value, half(loss))} ({verdict})")
        if bits:
            text += "; on the same decisions " + "; ".join(bits)
        claims.append(several(
            f"trump-chooser-{who}-{n}-{rs}",
            text + f"; {count(decisions[1].value)} choices, its own choice paired with "
                   f"each rule, Holm over the {len(rules)} rules.",
            parts, game=GAME, study="trump", question=q))
    return claims


def run_trump(
    backend: Backend,
    players: Sequence[int] = (3, 4),
    rulesets: Sequence[str] = ("seed", "swiss"),
    strategies: Sequence[str] = ("adaptive",),
    deals: int = 20_000,
    seed: int = DEFAULT_SEED,
    level: float = 0.95,
    choosers: Sequence[str] = (),
    slow_deals: int | None = None,
) -> StudyResult:

    """Counterfactual trump choices on ``deals`` deals per (player count, rule set); each of
    ``choosers`` on a table of its own (``slow_deals`` deals for those tagged slow)."""
    if deals < 2:
        raise CardlabError(f"the trump study needs at least 2 deals, got {deals}")
    slow = max(2, deals // SLOW_SHARE) if slow_deals is None else slow_deals
    if slow < 2:
        raise CardlabError(f"slow choosers need at least 2 deals, got {slow}")
    labels = [backend.canonical(GAME, s) for s in strategies] or ["adaptive"]
    field = "/".join(labels)
    extra = [c for c in dict.fromkeys(backend.canonical(GAME, c) for c in choosers)
             if [c] != labels]
    t0 = time.perf_counter()
    loss, specs = _play_losses(backend, labels, players, rulesets, deals, seed)
    budgets = {field: deals}
    chooser_frames = [loss.assign(chooser=field)]
    firsts: dict[bytes, str] = {_fingerprint(loss): field}
    merged: dict[str, list[str]] = {field: []}
    for c in extra:
        budgets[c] = slow if is_slow(GAME, c) else deals
        closs, cspecs = _play_losses(backend, [c], players, rulesets, budgets[c], seed)
        specs.extend(cspecs)
        kept = firsts.setdefault(_fingerprint(closs), c)
        if kept != c:
            merged[kept].append(c)
            continue
        merged[c] = []
        chooser_frames.append(closs.assign(chooser=c))
    by = ["players", "ruleset", "aim"]
    rules = summarise(loss, by, level)
    pairs = rule_pairs(loss, by, level)
    longest = summarise(loss, ["players", "ruleset", "longest"], level)
    longest.insert(2, "feature", "longest suit")
    longest = longest.rename(columns={"longest": "value"})
    un = summarise(loss, ["players", "ruleset", "under_nine"], level)
    un.insert(2, "feature", "Under and Nine of one suit")
    un = un.rename(columns={"under_nine": "value"})
    un["value"] = un["value"].map({True: "yes", False: "no"})
    longest["value"] = longest["value"].astype(int).astype(str)
    features = pd.concat([longest, un], ignore_index=True)
    chooser_loss = pd.concat(chooser_frames, ignore_index=True)
    names = {k: " = ".join([k, *v]) for k, v in merged.items()}
    chooser_loss["chooser"] = chooser_loss["chooser"].map(names)
    ctable = chooser_table(chooser_loss, level)
    manifest = base_manifest(
        "trump", game=GAME, mode="deals", seed=seed, deals=deals, players=list(players),
        rules_sets=list(rulesets), strategies=labels, level=level, runs=specs,
        choosers=extra, slow_deals=slow, chooser_deals=budgets,
        design="counterfactual: each deal replayed with every suit the chooser could fix; "
               "rules compared paired on the same decisions; each chooser on a table of its "
               "own, its choice paired with every rule on its own decisions (Holm over the "
               "rules)",
        metric="loss against the best suit in hindsight (sticks; card points by aim)",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    result = StudyResult("trump", {"rules": rules, "pairs": pairs, "features": features,
                                   "choosers": ctable}, manifest)
    return result.say(rule_claims(result) + (chooser_claims(result) if extra else []))


def _fingerprint(loss: pd.DataFrame) -> bytes:
    """The loss rows as bytes: choosers with equal prints chose and lost exactly alike."""
    cols = ["players", "index", "sticks_loss", "points_loss"]
    x = loss.sort_values([*decision_keys(loss), "players", "ruleset", "rule"])
    return (np.ascontiguousarray(x[cols].to_numpy(np.float64)).tobytes()
            + "|".join(x["rule"].astype(str) + x["aim"].astype(str)).encode())

"""Study 3 (Plus-Minus Jass): what is a trump-choice rule worth?

The first player who cannot follow suit fixes trump (J-5). The counterfactual table of
:mod:`analyzer.games.jass.trump_value` replays each deal once per suit that player could fix,
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
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.errors import CardlabError
from analyzer.numbers import count, interval
from analyzer.rng import DEFAULT_SEED
from analyzer.stats.intervals import mean_interval
from analyzer.stats.paired import paired_difference
from analyzer.studies.play import Backend, make_spec, seat_field
from analyzer.studies.results import StudyResult, base_manifest
from analyzer.studies.text import pm

AS_PLAYED = "as-played"  # the chooser's own strategy, from the ``chosen`` column
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


def headlines(rules: pd.DataFrame, pairs: pd.DataFrame) -> list[str]:
    """Plain-language answers from the tables: one short sentence per group."""
    lines = []
    for (players, ruleset, aim), part in rules.groupby(["players", "ruleset", "aim"],
                                                      sort=True):
        part = part.sort_values("sticks_loss", kind="stable")
        named = part[part["rule"] != AS_PLAYED]
        best = named.iloc[0]
        runner = named.iloc[1] if len(named) > 1 else None
        own = part[part["rule"] == AS_PLAYED]
        half = (best["sticks_loss_high"] - best["sticks_loss_low"]) / 2
        text = (f"{players} players, {RULESET_WORDS.get(ruleset, ruleset)}, "
                f"{AIM_WORDS.get(aim, 'aiming ' + str(aim))}: fixing "
                f"{RULE_WORDS.get(best['rule'], best['rule'])} loses least, "
                f"{pm(best['sticks_loss'], half)} sticks per choice against the best suit in "
                "hindsight")
        if runner is not None:
            sel = pairs[(pairs["players"] == players) & (pairs["ruleset"] == ruleset)
                        & (pairs["aim"] == aim) & (pairs["a"] == runner["rule"])]
            if len(sel):
                d = sel.iloc[0]
                clear = "clearly" if d["low"] > 0 else "not clearly"
                text += (f"; next, {RULE_WORDS.get(runner['rule'], runner['rule'])} is "
                         f"{clear} worse ({interval(d['difference'], d['half'], signed=True)})")
        if aim in ("high", "low"):
            by_points = named.sort_values("points_loss", kind="stable").iloc[0]
            if by_points["rule"] != best["rule"]:
                bh = (by_points["points_loss_high"] - by_points["points_loss_low"]) / 2
                text += (f"; counting card points instead, {RULE_WORDS.get(by_points['rule'])}"
                         f" is best ({pm(by_points['points_loss'], bh)} points lost)")
        if len(own):
            o = own.iloc[0]
            oh = (o["sticks_loss_high"] - o["sticks_loss_low"]) / 2
            text += f"; the strategy's own choice loses {pm(o['sticks_loss'], oh)}"
        lines.append(text + f" ({count(best['decisions'])} choices).")
    return lines


def run_trump(
    backend: Backend,
    players: Sequence[int] = (3, 4),
    rulesets: Sequence[str] = ("seed", "swiss"),
    strategies: Sequence[str] = ("adaptive",),
    deals: int = 20_000,
    seed: int = DEFAULT_SEED,
    level: float = 0.95,
) -> StudyResult:
    """Counterfactual trump choices on ``deals`` deals per (player count, rule set)."""
    if deals < 2:
        raise CardlabError(f"the trump study needs at least 2 deals, got {deals}")
    labels = [backend.canonical("jass", s) for s in strategies] or ["adaptive"]
    t0 = time.perf_counter()
    frames, specs = [], []
    for n in players:
        for ruleset in rulesets:
            spec = make_spec(backend, "jass", n, seat_field(labels, n), seed, mode="deals",
                             rules={"ruleset": ruleset})
            specs.append(spec.to_dict())
            loss = losses(backend.counterfactual(spec, 0, deals))
            loss.insert(0, "players", n)
            loss.insert(1, "ruleset", ruleset)
            frames.append(loss)
    loss = pd.concat(frames, ignore_index=True)
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
    manifest = base_manifest(
        "trump", game="jass", mode="deals", seed=seed, deals=deals, players=list(players),
        rules_sets=list(rulesets), strategies=labels, level=level, runs=specs,
        design="counterfactual: each deal replayed with every suit the chooser could fix; "
               "rules compared paired on the same decisions",
        metric="loss against the best suit in hindsight (sticks; card points by aim)",
        elapsed_s=round(time.perf_counter() - t0, 2),
    )
    return StudyResult("trump", {"rules": rules, "pairs": pairs, "features": features},
                       manifest, headlines(rules, pairs))

"""The report's first screen: one plain verdict per question, and the alerts.

Every verdict is read off the study's own tables (nothing is recomputed from games): a short
answer ("No.", "Hardly.", "aim-low wins.") followed by the number behind it with its 95%
interval. Alerts list what a careful reader should know before trusting a number: where
pairing did not narrow the interval, where a sequential comparison ran out of budget, where a
correctness check missed more often than chance allows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.games.registry import title as game_title
from analyzer.numbers import count, interval, number
from analyzer.studies import registry as studies
from analyzer.studies.results import StudyResult
from analyzer.studies.text import is_rate, metric_words
from reports.figures import compare_unit, diff_against
from reports.names import policy_label, rule_label, rule_phrase


@dataclass(frozen=True)
class Finding:
    """A question's plain answer (``verdict``) and the number behind it (``detail``)."""

    study: str
    question: str
    verdict: str
    detail: str


@dataclass(frozen=True)
class Alert:
    """Something to know before trusting a number, and where it comes from."""

    study: str
    text: str


def _hi(row: pd.Series, col: str) -> float:
    return (row[col + "_high"] - row[col + "_low"]) / 2


# ---------------------------------------------------------------------------- findings
def seats_finding(result: StudyResult) -> Finding:
    """Does the seat matter? Largest seat effect and how many seats differ clearly."""
    t = result.table("seats")
    clear = int(((t["seat_effect_low"] > 0) | (t["seat_effect_high"] < 0)).sum())
    expected = 0.05 * len(t)
    top = t.loc[t["seat_effect"].abs().idxmax()]
    size = abs(top["seat_effect"]) / max(float(t["minus_points"].mean()), 1e-9)
    if clear <= expected + 2 * math.sqrt(expected) + 1:
        verdict = "Hardly."
    elif size < 0.05:
        verdict = "A little."
    else:
        verdict = "Yes."
    average = float(t[t["players"] == top["players"]]["minus_points"].mean())
    detail = (f"The biggest difference from the table's average seat is "
              f"{interval(top['seat_effect'], _hi(top, 'seat_effect'), signed=True)} minus "
              f"points per game (seat {int(top['seat'])} at {int(top['players'])} players, where "
              f"the average seat pays {number(average, 1)}). "
              f"{clear} of {len(t)} seats differ clearly from their table's average; about "
              f"{expected:.0f} would by chance alone.")
    return Finding("seats", question("seats"), verdict, detail)


def jokers_finding(result: StudyResult) -> Finding:
    """Hoarding against using jokers as needed, at every player count."""
    pol = result.table("policies")
    pairs = result.table("differences")
    parts = []
    for n in sorted(pol["players"].unique()):
        d = diff_against(pairs[pairs["players"] == n], "hoard", "as-needed")
        if len(d):
            parts.append((int(n), float(d["difference"].iloc[0]), float(d["half"].iloc[0])))
    if not parts:
        return Finding("jokers", question("jokers"), "See below.", "")
    costs = [p for p in parts if p[1] - p[2] > 0]
    saves = [p for p in parts if p[1] + p[2] < 0]
    verdict = ("No." if len(costs) == len(parts) else
               "Yes." if len(saves) == len(parts) else "It depends on the player count.")
    lo, hi = min(parts, key=lambda p: p[1]), max(parts, key=lambda p: p[1])
    span = (f"{interval(lo[1], lo[2])} minus points per game at {lo[0]} players"
            if lo is hi else
            f"{interval(lo[1], lo[2])} (at {lo[0]} players) to {interval(hi[1], hi[2])} "
            f"(at {hi[0]} players) minus points per game")
    best = []
    for n in sorted(pol["players"].unique()):
        part = pol[pol["players"] == n].sort_values("mean", kind="stable")
        best.append(policy_label(str(part["strategy"].iloc[0])))
    common = max(set(best), key=best.count)
    how = "costs" if hi[1] > 0 else "saves"
    detail = (f"Hoarding jokers (never playing one while number cards remain) {how} {span} "
              f"compared with using them as needed, on the same deals and seats. The best "
              f"policy at most player counts: {common}.")
    return Finding("jokers", question("jokers"), verdict, detail)


def _pooled(part: pd.DataFrame, col: str) -> tuple[float, float]:
    """Decision-weighted mean of independent groups and the half-width of that mean."""
    w = part["decisions"].to_numpy(float)
    halves = ((part[col + "_high"] - part[col + "_low"]) / 2).to_numpy(float)
    mean = float(np.average(part[col].to_numpy(float), weights=w))
    half = float(math.sqrt(np.sum((w * halves) ** 2)) / w.sum())
    return mean, half


def trump_finding(result: StudyResult) -> Finding:
    """The rule that loses fewest sticks, per aim, pooled over player counts and rule sets."""
    rules = result.table("rules")
    named = rules[(rules["rule"] != "as-played") & np.isfinite(rules["sticks_loss"])]
    advice = []
    for aim in [a for a in ("high", "low", "n/a") if a in set(named["aim"])]:
        sub = named[named["aim"] == aim]
        pooled = {r: _pooled(g, "sticks_loss") for r, g in sub.groupby("rule")}
        best = min(pooled, key=lambda r: pooled[r][0])
        worst = max(pooled, key=lambda r: pooled[r][0])
        who = {"high": "Playing for many points", "low": "Playing for few points",
               "n/a": "Without an aim"}[aim]
        advice.append((who, best, pooled[best], worst, pooled[worst]))
    if not advice:
        return Finding("trump", question("trump"), "See below.", "")
    if len({a[1] for a in advice}) == 1:
        verdict = f"Fix {rule_phrase(advice[0][1])}."
    else:
        verdict = "It depends on your aim."
    detail = " ".join(
        f"{who}: fix {rule_phrase(best)}; it loses {interval(*b)} sticks per trump choice "
        f"against the best suit in hindsight (the worst way, {rule_label(worst)}: "
        f"{interval(*w)})."
        for who, best, b, worst, w in advice)
    detail += _choosers_detail(result)
    return Finding("trump", question("trump"), verdict,
                   detail + " Lost sticks: how many fewer sticks the chooser gets than with "
                   "the suit that would have been best, knowing every hand.")


def _choosers_detail(result: StudyResult) -> str:
    """Each chooser's own choice and the longest-suit rule on the same decisions, pooled
    over player counts and rule sets ("" without choosers)."""
    if "choosers" not in result.tables:
        return ""
    c = result.table("choosers")
    if c["chooser"].nunique() < 2:
        return ""
    parts = []
    for name, part in c.groupby("chooser", sort=False):
        own = _pooled(part[part["rule"] == "as-played"], "sticks_loss")
        longest = part[part["rule"] == "longest"]
        text = f"{name}'s own choice loses {interval(*own)}"
        if len(longest):
            rule = _pooled(longest, "sticks_loss")
            text += f" (the longest suit on the same decisions: {interval(*rule)})"
        parts.append(text)
    return (" Choosers, each on a table of its own, in sticks per trump choice: "
            + "; ".join(parts) + ".")


def compare_finding(result: StudyResult) -> Finding:
    """The best strategy, whether it is clearly ahead of every other, and the fair share."""
    rank = result.table("ranking")
    pairs = result.table("pairs")
    m = result.manifest
    metric = str(m.get("metric", ""))
    rate = is_rate(metric)
    unit = compare_unit(m)
    n = int(sorted(rank["players"].unique())[0])
    part = rank[rank["players"] == n].sort_values("rank")
    best = part.iloc[0]
    p = pairs[pairs["players"] == n]
    unclear = []
    for other in part["strategy"].iloc[1:]:
        d = diff_against(p, str(best["strategy"]), str(other))
        if len(d) and abs(float(d["difference"].iloc[0])) <= float(d["half"].iloc[0]):
            unclear.append(str(other))
    value = interval(best["mean"], best["half"], percent=rate)
    fair = f" against a fair share of {100 / n:.0f}%" if metric == "won" else ""
    game = game_title(str(m.get("game")))
    units = "matches" if unit == "match" else unit + "s"
    if unclear:
        verdict = f"No clear winner between {best['strategy']} and {', '.join(unclear)}."
    else:
        verdict = f"{best['strategy']} wins."
    what = (f"wins {value} of its matches{fair}" if metric == "won" else
            f"has a {metric_words(metric)} of {value} per {unit}")
    detail = (f"At {n} players of {game}, {best['strategy']} {what}, with every strategy in "
              "every seat of the same "
              f"{count(best['deals'])} {units}"
              + ("." if unclear else ", clearly ahead of every other strategy."))
    return Finding("compare", f"Which strategy wins? ({game})", verdict, detail)


def ladder_finding(result: StudyResult) -> Finding:
    """The strongest strategy of each game (its first tier) at the smallest player count."""
    ratings = result.table("ratings")
    games = list(dict.fromkeys(ratings["game"])) if "game" in ratings else [""]
    verdicts, details = [], []
    for g in games:
        part = ratings[ratings["game"] == g] if g else ratings
        n = int(sorted(part["players"].unique())[0])
        part = part[part["players"] == n].sort_values("rank")
        top = part[part["tier"] == part["tier"].iloc[0]]
        names = [str(x) for x in top["strategy"]]
        title = game_title(str(g)) if g else "the game"
        named = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        verdicts.append(f"{title}: {named}" + (" (tied)" if len(names) > 1 else ""))
        best = top.iloc[0]
        details.append(
            f"at {n} players of {title}, {best['strategy']} rates "
            f"{interval(best['rating'], (best['high'] - best['low']) / 2, signed=True)} "
            f"against the average of the same deals' tables, rank "
            f"{int(best['rank_low'])}-{int(best['rank_high'])} of {len(part)}")
    detail = ("On mixed tables of the same deals, every strategy in every seat: "
              + "; ".join(details) + ". Strategies in one tier cannot be separated after "
              "Holm's correction over all pairs.")
    return Finding("ladder", question("ladder"), "; ".join(verdicts) + ".", detail)


FINDINGS = {"seats": seats_finding, "jokers": jokers_finding, "trump": trump_finding,
            "compare": compare_finding, "ladder": ladder_finding}


def question(study: str) -> str:
    """The question ``study`` answers for players (the study registry)."""
    return studies.get(study).question


def key_finding(result: StudyResult) -> Finding | None:
    """The study's one-line answer, or None for a study without one."""
    make = FINDINGS.get(result.study)
    return make(result) if make else None


# ------------------------------------------------------------------------------ alerts
def _pair_alerts(study: str, pairs: pd.DataFrame) -> list[Alert]:
    out = []
    if "variance_reduction" not in pairs:
        return out
    weak = pairs[pairs["variance_reduction"] < 1]
    if len(weak):
        names = ", ".join(f"{r.a} vs {r.b}" + (f" at {int(r.players)} players"
                                                if "players" in pairs else "")
                          for r in weak.head(4).itertuples())
        more = f" and {len(weak) - 4} more" if len(weak) > 4 else ""
        out.append(Alert(study, (
            f"Pairing did not narrow the interval for {len(weak)} of {len(pairs)} comparisons "
            f"({names}{more}; variance reduction {number(weak['variance_reduction'].min(), 2)}× "
            f"to {number(weak['variance_reduction'].max(), 2)}×, below 1): there the same "
            "deals did not cancel luck, and the paired intervals are as wide as, or wider "
            "than, unpaired ones.")))
    if "seq_stopped_by" in pairs:
        spent = pairs[pairs["seq_stopped_by"] == "budget"]
        if len(spent):
            names = ", ".join(f"{r.a} vs {r.b}" for r in spent.head(4).itertuples())
            out.append(Alert(study, (
                f"--until-sure spent its whole budget on {len(spent)} comparison"
                f"{'s' if len(spent) > 1 else ''} without a clear answer ({names}): raise "
                "--games to decide them.")))
    return out


def study_alerts(result: StudyResult) -> list[Alert]:
    """What to know before trusting this study's numbers."""
    out: list[Alert] = []
    if result.study == "seats":
        t = result.table("seats")
        missed = int((~t["exact_inside"].astype(bool)).sum())
        expected = 0.05 * len(t)
        if missed > expected + 3 * math.sqrt(expected) + 1:
            out.append(Alert("seats", (
                f"Correctness check: the simulated chance to be dealt the ass missed its exact "
                f"value for {missed} of {len(t)} seats, more than the about {expected:.0f} "
                "chance allows. See the appendix.")))
    if result.study == "jokers":
        out += _pair_alerts("jokers", result.table("differences"))
    if result.study == "compare":
        out += _pair_alerts("compare", result.table("pairs"))
        budget = result.manifest.get("games")
        rank = result.table("ranking")
        if budget and len(rank) and int(rank["deals"].max()) < int(budget):
            out.append(Alert("compare", (
                f"--until-sure stopped after {count(rank['deals'].max())} of a budget of "
                f"{count(budget)} per player count; the tables show the "
                f"{count(rank['deals'].max())} played.")))
    if result.study == "trump":
        rules = result.table("rules")
        few = rules[rules["decisions"] < 100]
        if len(few):
            out.append(Alert("trump", (
                f"{len(few)} rows of the trump table rest on fewer than 100 trump choices; "
                "their intervals are wide.")))
    return out

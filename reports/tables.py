"""Study tables as people read them: chosen columns, ``mean ± half`` cells, rounded numbers.

The full tidy tables travel with the report as CSV files; the HTML shows these readable views.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyzer.numbers import bounds, count, decimals_for, interval, number, percent
from analyzer.studies.results import StudyResult
from analyzer.text import is_rate
from reports.names import aim_label, policy_label, rule_label, ruleset_label


@dataclass(frozen=True)
class TableView:
    """A readable table, its title, and the study table (CSV) it comes from."""

    title: str
    frame: pd.DataFrame
    source: str
    appendix: bool = False  # a correctness check: shown in the report's appendix


def interval_cell(value: float, low: float, high: float, rate: bool = False,
                  signed: bool = False) -> str:
    """``value ± half`` rounded to the interval (``rate``: in percent)."""
    return interval(value, (high - low) / 2, percent=rate, signed=signed)


def _cells(df: pd.DataFrame, col: str, rate: bool = False) -> list[str]:
    return [interval_cell(v, lo, hi, rate)
            for v, lo, hi in zip(df[col], df[col + "_low"], df[col + "_high"], strict=True)]


def _counts(values) -> list[str]:
    return [count(v) for v in values]


def seats_views(result: StudyResult) -> list[TableView]:
    """Per (players, seat): minus points, ass penalty; the dealt-ass check in the appendix."""
    t = result.table("seats")
    view = pd.DataFrame({
        "players": t["players"], "seat": t["seat"], "strategy": t["strategy"],
        "games": _counts(t["games"]),
        "minus points": _cells(t, "minus_points"),
        "vs average seat": [interval_cell(v, lo, hi, signed=True) for v, lo, hi in
                            zip(t["seat_effect"], t["seat_effect_low"], t["seat_effect_high"],
                                strict=True)],
        "ass penalty": _cells(t, "ass_penalty"),
        "ends with the ass": _cells(t, "p_end_ass", rate=True),
    })
    check = pd.DataFrame({
        "players": t["players"], "seat": t["seat"], "games": _counts(t["games"]),
        "dealt the ass (simulated)": _cells(t, "p_dealt_ass", rate=True),
        "dealt the ass (exact)": [percent(x, 2) for x in t["p_dealt_ass_exact"]],
        "exact inside the interval": ["yes" if x else "no" for x in t["exact_inside"]],
    })
    views = [TableView("Every seat at every player count (per game)", view, "seats")]
    if "strong" in result.tables and len(result.table("strong")):
        s = result.table("strong")
        views.append(TableView("Under strong play: every seat at the strong field's tables",
                               pd.DataFrame({
            "field": s["field"], "players": s["players"], "seat": s["seat"],
            "games": _counts(s["games"]), "minus points": _cells(s, "minus_points"),
            "vs average seat": [interval_cell(v, lo, hi, signed=True) for v, lo, hi in
                                zip(s["seat_effect"], s["seat_effect_low"],
                                    s["seat_effect_high"], strict=True)],
            "ass penalty": _cells(s, "ass_penalty"),
        }), "strong"))
    return [*views,
            TableView("Chance to be dealt the ass: simulated against exact", check, "seats",
                      appendix=True)]


def _rank_view(t: pd.DataFrame, names: dict, rate: bool, unit: str,
               dealt: str | None = None) -> pd.DataFrame:
    """Ranking rows; ``names`` are the columns that name the strategy (default: as given)."""
    return pd.DataFrame({
        "players": t["players"], "rank": t["rank"], **(names or {"strategy": t["strategy"]}),
        f"mean per {unit} ± 95%": [interval_cell(m, lo, hi, rate) for m, lo, hi in
                                   zip(t["mean"], t["low"], t["high"], strict=True)],
        f"{dealt or _plural(unit)} played": _counts(t["deals"]), "games": _counts(t["games"]),
    })


def _plural(unit: str) -> str:
    return "matches" if unit == "match" else unit + "s"


def _pair_view(t: pd.DataFrame, rate: bool, unit: str) -> pd.DataFrame:
    scale = 100.0 if rate else 1.0
    pts = " (percentage points)" if rate else ""
    view = pd.DataFrame({
        "players": t["players"], "a": t["a"], "b": t["b"],
        f"a − b ± 95%{pts}": [interval(d * scale, h * scale, signed=True) for d, h in
                              zip(t["difference"], t["half"], strict=True)],
        "unpaired ±": [number(u * scale, decimals_for(h * scale))
                       for u, h in zip(t["unpaired_half"], t["half"], strict=True)],
        "variance reduction": ["n/a" if pd.isna(v) else f"{number(v, 1)}×"
                               for v in t["variance_reduction"]],
        f"{_plural(unit)}": _counts(t["n_units"]),
    })
    if "seq_answer" in t:
        view["until sure"] = [f"{a} after {count(n)} ({'clear' if s == 'answer' else 'budget'})"
                              for a, n, s in zip(t["seq_answer"], t["seq_units"],
                                                 t["seq_stopped_by"], strict=True)]
    return view


JOKERS_DEALT_WORDS = {"any": "any", "0": "0", "1": "1", "2+": "2 or more"}


def _share_cells(t: pd.DataFrame, col: str, bounded: bool = False) -> list[str]:
    """Shares in percent with their interval: ``bounded`` (a Wilson interval, not symmetric)
    as the share and its bounds; a share with no spread (0 or all) alone."""
    out = []
    for v, lo, hi in zip(t[col], t[col + "_low"], t[col + "_high"], strict=True):
        if not hi - lo > 0:
            out.append(percent(v))
        elif bounded:
            out.append(f"{percent(v)} {bounds(lo, hi, percent=True)}")
        else:
            out.append(interval_cell(v, lo, hi, True))
    return out


def jokers_views(result: StudyResult) -> list[TableView]:
    """Policies ranked per player count, their paired differences, the two hoarders by field
    and jokers dealt, and what pimc and careful do with their jokers."""
    words = result.manifest.get("policy_words") or {}

    def label(name: str) -> str:
        return words.get(name) or policy_label(name)

    pol = result.table("policies")
    rank = _rank_view(pol, {"policy": [label(s) for s in pol["strategy"]],
                            "strategy": pol["label"]}, False, "game", "deals")
    diffs = result.table("differences").copy()
    diffs["a"] = [label(s) for s in diffs["a"]]
    diffs["b"] = [label(s) for s in diffs["b"]]
    views = [TableView("Joker policies, ranked per player count (minus points)", rank,
                       "policies"),
             TableView("Paired differences (same deals, same seats; minus points per game)",
                       _pair_view(diffs, False, "deal"), "differences")]
    if "hoarding" in result.tables:
        h = result.table("hoarding")
        views.append(TableView(
            "Hoarding against using jokers as needed, by field and by jokers dealt to the seat "
            "(minus points per game; above 0 costs)", pd.DataFrame({
                "players": h["players"], "field": h["field"],
                "policy": [label(s) for s in h["a"]],
                "jokers dealt": [JOKERS_DEALT_WORDS.get(str(b), str(b))
                                 for b in h["jokers_dealt"]],
                "cost ± 95%": [interval_cell(v, lo, hi, signed=True) for v, lo, hi
                               in zip(h["cost"], h["cost_low"], h["cost_high"], strict=True)],
                "share of seat-games": [percent(x) for x in h["share"]],
                "seat-games": _counts(h["seat_games"]), "deals": _counts(h["deals"]),
                "design": h["design"]}), "hoarding"))
    if "habits" in result.tables:
        t = result.table("habits")
        views.append(TableView(
            "What players do with their jokers (one seat against the field, traced games)",
            pd.DataFrame({
                "players": t["players"], "field": t["field"], "player": t["strategy"],
                "games ending with a joker": _share_cells(t, "ends_with_joker", True),
                "jokers played per game": [number(x, 2) for x in t["jokers_per_game"]],
                "as fillers in sets": _share_cells(t, "filler"),
                "alone (normal round)": _share_cells(t, "alone"),
                "as a 1 into an ass round": _share_cells(t, "ass_as_1"),
                "as a 14 into an ass round": _share_cells(t, "ass_as_14"),
                "hand size at a joker play": _cells(t, "hand_size"),
                "games": _counts(t["seat_games"])}), "habits"))
    if "match_wins" in result.tables:  # the chance to win a match of K = players games
        wins = result.table("match_wins")
        view = pd.DataFrame({
            "players": wins["players"], "games per match": wins["games_per_match"],
            "rank": wins["rank"], "policy": [label(s) for s in wins["strategy"]],
            "strategy": wins["label"],
            "P(win match) ± 95%": [interval_cell(m, lo, hi, True) for m, lo, hi
                                   in zip(wins["mean"], wins["low"], wins["high"],
                                          strict=True)],
            "matches": _counts(wins["matches"]),
        })
        views.append(TableView("Joker policies: chance to win a match (ties shared)", view,
                               "match_wins"))
        mdiffs = result.table("match_differences").copy()
        mdiffs["a"] = [label(s) for s in mdiffs["a"]]
        mdiffs["b"] = [label(s) for s in mdiffs["b"]]
        views.append(TableView("Share of match wins against using jokers as needed (same "
                               "matches)", _pair_view(mdiffs, True, "match"),
                               "match_differences"))
    return views


def compare_views(result: StudyResult) -> list[TableView]:
    """Ranking and pairwise differences."""
    from reports.figures import compare_unit

    rate = is_rate(str(result.manifest.get("metric", "")))
    unit = compare_unit(result.manifest)
    return [TableView("Ranking", _rank_view(result.table("ranking"), {}, rate, unit),
                      "ranking"),
            TableView("Pairwise differences", _pair_view(result.table("pairs"), rate, unit),
                      "pairs")]


def _loss_cells(t: pd.DataFrame, col: str) -> list[str]:
    return ["–" if pd.isna(v) else interval_cell(v, lo, hi)
            for v, lo, hi in zip(t[col], t[col + "_low"], t[col + "_high"], strict=True)]


def trump_views(result: StudyResult) -> list[TableView]:
    """Loss per rule by group; best rule against the others; loss by hand feature."""
    rules = result.table("rules")
    view = pd.DataFrame({
        "players": rules["players"], "rule set": [ruleset_label(r) for r in rules["ruleset"]],
        "aim": [aim_label(a) for a in rules["aim"]],
        "rule": [rule_label(r) for r in rules["rule"]], "choices": _counts(rules["decisions"]),
        "sticks lost ± 95%": _loss_cells(rules, "sticks_loss"),
        "points lost ± 95%": _loss_cells(rules, "points_loss"),
        "picked the best suit": [percent(x, 1) for x in rules["picked_best"]],
        "best rule": ["★" if b else "" for b in rules["best"]],
    })
    feats = result.table("features")
    fview = pd.DataFrame({
        "players": feats["players"], "rule set": [ruleset_label(r) for r in feats["ruleset"]],
        "feature": feats["feature"], "value": feats["value"],
        "rule": [rule_label(r) for r in feats["rule"]], "choices": _counts(feats["decisions"]),
        "sticks lost ± 95%": _loss_cells(feats, "sticks_loss"),
        "points lost ± 95%": _loss_cells(feats, "points_loss"),
    })
    views = [TableView("Loss against the best suit in hindsight, per rule", view, "rules")]
    pairs = result.table("pairs")
    if len(pairs):
        pview = pd.DataFrame({
            "players": pairs["players"], "rule set": [ruleset_label(r) for r in pairs["ruleset"]],
            "aim": [aim_label(a) for a in pairs["aim"]],
            "rule": [rule_label(r) for r in pairs["a"]],
            "best rule": [rule_label(r) for r in pairs["b"]],
            "extra sticks lost ± 95% (paired)": [
                interval_cell(d, lo, hi) for d, lo, hi in
                zip(pairs["difference"], pairs["low"], pairs["high"], strict=True)],
            "choices": _counts(pairs["n_units"]),
        })
        views.append(TableView("Each rule against the best one, on the same decisions", pview,
                               "pairs"))
    if "choosers" in result.tables and len(result.table("choosers")):
        c = result.table("choosers")
        views.append(TableView("Each chooser's own choice, and every rule on the same decisions",
                               pd.DataFrame({
            "chooser": c["chooser"], "players": c["players"],
            "rule set": [ruleset_label(r) for r in c["ruleset"]],
            "choice": [rule_label(r) for r in c["rule"]], "choices": _counts(c["decisions"]),
            "sticks lost ± 95%": _loss_cells(c, "sticks_loss"),
            "points lost ± 95% (aimed)": _loss_cells(c, "points_loss"),
            "own choice minus this ± 95% (paired)": [
                "" if pd.isna(d) else interval(d, h, signed=True)
                for d, h in zip(c["own_minus"], c["own_minus_half"], strict=True)],
            "clear (Holm)": ["" if r == "as-played" else ("yes" if x else "no")
                             for r, x in zip(c["rule"], c["clear"], strict=True)],
            "picked the best suit": [percent(x, 1) for x in c["picked_best"]],
        }), "choosers"))
    views.append(TableView("Loss by hand feature", fview, "features"))
    return views


def rounded_view(df: pd.DataFrame) -> pd.DataFrame:
    """A table without a view of its own, as people read it: an estimate with ``_low`` /
    ``_high`` columns (or the column just before ``low``/``high``) becomes one ``value ± half``
    cell rounded to its interval, whole numbers get separators, other floats 4 significant
    digits. The full precision stays in the CSV beside the report."""
    out = {}
    cols = list(df.columns)
    bare = "low" in cols and "high" in cols and cols.index("low") > 0
    main = cols[cols.index("low") - 1] if bare else None
    skip = {"low", "high", "half"} if bare else set()
    for col in cols:
        if col in skip or (col.endswith(("_low", "_high", "_half"))
                           and col.rsplit("_", 1)[0] in cols):
            continue
        values = df[col]
        if col == main or (f"{col}_low" in cols and f"{col}_high" in cols):
            low = df["low"] if col == main else df[f"{col}_low"]
            high = df["high"] if col == main else df[f"{col}_high"]
            out[f"{col} ± 95%"] = [interval_cell(v, lo, hi) for v, lo, hi in
                                   zip(values, low, high, strict=True)]
        elif pd.api.types.is_bool_dtype(values):
            out[col] = ["yes" if x else "no" for x in values]
        elif pd.api.types.is_integer_dtype(values):
            out[col] = _counts(values)
        elif pd.api.types.is_float_dtype(values):
            out[col] = ["" if pd.isna(x) else f"{x:.4g}" for x in values]
        else:
            out[col] = values
    return pd.DataFrame(out)

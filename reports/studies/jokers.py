"""The jokers study's report parts: the cost curve first among its tables, the hoarder's
no-joker cost, its key finding (which says whether it replicated at another seed), the
pairing alert and its sample game."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.numbers import bounds, count, interval, number, percent
from analyzer.studies.claims import half
from analyzer.studies.registry import study_game
from analyzer.studies.results import StudyResult
from reports.claims import Cell, Claim, difference_kind, make_cell, probe, several
from reports.figures import FigureInfo, _errors, _grid, _save
from reports.findings import Alert, Finding, _field, pair_alerts, question
from reports.names import policy_label
from reports.reproduce import study_command
from reports.samples import jokers_drawing
from reports.tables import TableView, _cells, _counts, _pair_view, _rank_view, interval_cell


def views(result: StudyResult) -> list[TableView]:
    """The cost curve (per player count and field) first, then the study's other tables,
    then where the hoarder's no-joker cost comes from."""
    import pandas as pd

    from analyzer.numbers import count, interval, percent

    out = jokers_views(result)
    if "cost_curve" in result.tables and len(result.table("cost_curve")):
        t = result.table("cost_curve")
        at = curve_positions(t)
        t = t.assign(_x=[at.get(str(p), (99.0, ""))[0] for p in t["policy"]])
        t = t.sort_values(["players", "field", "_x"], kind="stable")
        words = {"hoard": "hoard: never while number cards remain",
                 "hoard-normal": "hoard in normal rounds only"}
        out.insert(0, TableView(
            "How long is it worth holding jokers: keeping them until k cards are left, against "
            "using them as needed (minus points per game; above 0 costs)", pd.DataFrame({
                "players": t["players"], "opponents": t["field"],
                "keep jokers": [words[str(p)] if str(p) in words else
                                f"until {int(k)} cards are left"
                                for p, k in zip(t["policy"], t["keep"], strict=True)],
                "cost ± 95%": [interval(v, (hi - lo) / 2, signed=True) for v, lo, hi
                               in zip(t["cost"], t["cost_low"], t["cost_high"], strict=True)],
                "clear": ["yes" if c else "no" for c in t["clear"]],
                "deals": [count(d) for d in t["deals"]], "design": t["design"]}),
            "cost_curve"))
    if "ass_jokers" in result.tables and len(result.table("ass_jokers")):
        a = result.table("ass_jokers")

        def cells(col: str) -> list[str]:
            return [interval(v, (hi - lo) / 2, signed=True) for v, lo, hi
                    in zip(a[col], a[f"{col}_low"], a[f"{col}_high"], strict=True)]

        out.append(TableView(
            "The hoarder with no joker dealt: its cost, the part that is the jokers it ends "
            "holding (all taken in ass rounds, 14 each, less as-needed's) and the rest "
            "(minus points per game)", pd.DataFrame({
                "players": a["players"], "opponents": a["field"], "cost ± 95%": cells("cost"),
                "ass-round jokers held ± 95%": cells("held_cost"), "rest ± 95%": cells("rest"),
                "ends holding a joker": [percent(x) for x in a["ends_holding"]],
                "as needed ends holding one": [percent(x) for x in a["ends_holding_b"]],
                "seat-games": [count(x) for x in a["seat_games"]], "design": a["design"]}),
            "ass_jokers"))
    return out


def alerts(result: StudyResult) -> list[Alert]:
    """Differences that pairing did not narrow."""
    return pair_alerts("jokers", result.table("differences"))


def diff_against(pairs: pd.DataFrame, name: str, ref: str) -> pd.DataFrame:
    """Rows of ``pairs`` giving ``name - ref`` (sign flipped where stored as ref - name)."""
    direct = pairs[(pairs["a"] == name) & (pairs["b"] == ref)]
    flipped = pairs[(pairs["a"] == ref) & (pairs["b"] == name)].copy()
    flipped["difference"] = -flipped["difference"]
    flipped["low"], flipped["high"] = -flipped["high"], -flipped["low"]
    flipped["a"], flipped["b"] = name, ref
    return pd.concat([direct, flipped], ignore_index=True)


def curve_positions(curve: pd.DataFrame) -> dict[str, tuple[float, str]]:
    """Policy -> (x, tick label) on the cost curve's axis: cards kept back until k, fewest
    kept back (largest k) on the left, hoarding in normal rounds only and the hoarder (the
    extreme) after the smallest k."""
    keeps = sorted({int(k) for k in curve["keep"].dropna()}, reverse=True)
    out = {f"keep-until-{k}": (float(i), str(k)) for i, k in enumerate(keeps)}
    out["hoard-normal"] = (len(keeps) + 0.5, "hoard in\nnormal\nrounds")
    out["hoard"] = (len(keeps) + 2.2, "hoarder")
    return out


def joker_curve_figure(result: StudyResult, folder: Path) -> FigureInfo | None:
    """How long is it worth holding jokers: the cost of keeping them back until k cards
    against using them as needed, one panel per player count, one line per field, 95%
    error bars (table ``cost_curve``)."""
    if "cost_curve" not in result.tables or not len(result.table("cost_curve")):
        return None
    curve = result.table("cost_curve")
    at = curve_positions(curve)
    counts = sorted(int(n) for n in curve["players"].unique())
    fields = list(dict.fromkeys(curve["field"].astype(str)))
    fig, axes = _grid(len(counts), width=3.6, height=3.0, max_cols=3)
    for ax, n in zip(axes, counts, strict=True):
        for i, f in enumerate(fields):
            part = curve[(curve["players"] == n) & (curve["field"].astype(str) == f)]
            part = part[part["policy"].isin(list(at))]
            if not len(part):
                continue
            x = np.array([at[p][0] for p in part["policy"]]) + (i - (len(fields) - 1) / 2) * 0.12
            order = np.argsort(x)
            part, x = part.iloc[order], x[order]
            sweep = part["keep"].notna().to_numpy()  # the sweep a line, the hoarders dots
            ax.errorbar(x[sweep], part["cost"][sweep], yerr=_errors(part[sweep], "cost"),
                        fmt="o-", ms=3, capsize=2, lw=1, color=f"C{i}",
                        label=f"{f} ({int(part['deals'].max()):,} deals)")
            ax.errorbar(x[~sweep], part["cost"][~sweep], yerr=_errors(part[~sweep], "cost"),
                        fmt="D", ms=4, capsize=2, color=f"C{i}")
        ticks = sorted(at.values())
        ax.axvline(ticks[-3][0] + 0.75, color="grey", lw=0.5, ls=":")
        ax.set_xticks([t for t, _ in ticks], [w for _, w in ticks], fontsize=7)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel("keep jokers until k cards are left", fontsize=8)
        ax.set_ylabel("minus points per game\nvs as needed", fontsize=8)
        ax.legend(fontsize=7, title="opponents", title_fontsize=7)
    return FigureInfo(_save(fig, folder, "jokers_cost_curve.png"),
                      "How long is it worth holding jokers?",
                      "What keeping jokers back until only k cards are left costs against using "
                      "them as needed (above 0 costs), on the same deals and seats, per player "
                      "count and opponents; the hoarder (never a joker while number cards "
                      "remain) is the extreme on the right. Bars: 95% intervals over deals. "
                      "The slow field (pimc) plays fewer deals and a few points of the sweep.",
                      wide=True)


def jokers_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """The cost curve per player count and field first; the keep-until sweep as lines with
    bands, and the named policies as paired dots."""
    pol = result.table("policies")
    pairs = result.table("differences")
    counts = sorted(pol["players"].unique())
    colours = [f"C{i}" for i in range(len(counts))]
    out = []
    lead = joker_curve_figure(result, folder)
    if lead is not None:
        out.append(lead)

    sweep = pol[pol["keep"].notna()]
    if len(sweep):
        fig = Figure(figsize=(8, 4.6), layout="constrained")
        ax = fig.subplots()
        for n, colour in zip(counts, colours, strict=True):
            part = sweep[sweep["players"] == n].sort_values("keep")
            d = pd.concat([diff_against(pairs[pairs["players"] == n], s, "as-needed")
                           for s in part["strategy"]], ignore_index=True)
            d["keep"] = d["a"].map(dict(zip(part["strategy"], part["keep"], strict=True)))
            d = d.sort_values("keep")
            ax.plot(d["keep"], d["difference"], marker="o", color=colour, label=f"{n} players")
            ax.fill_between(d["keep"], d["low"], d["high"], color=colour, alpha=0.2)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(sorted(sweep["keep"].astype(int).unique()))
        ax.set_xlabel("k: jokers are kept until only k cards are left in hand")
        ax.set_ylabel("minus points per game\nvs using jokers as needed")
        ax.set_title("Keeping jokers until k cards are left (below 0 is better)")
        ax.legend(fontsize=8, title="bands: 95% intervals", title_fontsize=8)
        out.append(FigureInfo(_save(fig, folder, "jokers_sweep.png"),
                              "Keep jokers until k cards are left: the sweep",
                              "Difference in minus points per game against using jokers as "
                              "needed, on the same deals and seats (below 0 is better). The "
                              "band is the 95% interval of the paired difference."))

    named = [s for s in ("hoard", "finish", "dump") if s in set(pol["strategy"])]
    if named and "as-needed" in set(pol["strategy"]):
        fig = Figure(figsize=(8, 1.4 + 0.35 * len(named) * len(counts)), layout="constrained")
        ax = fig.subplots()
        step = 0.8 / len(counts)
        # the first player count on top in every group, as in the legend
        for i, (n, colour) in enumerate(zip(counts, colours, strict=True)):
            d = pd.concat([diff_against(pairs[pairs["players"] == n], s, "as-needed")
                           for s in named], ignore_index=True)
            y = (len(named) - 1 - np.arange(len(named))) + 0.4 - (i + 0.5) * step
            ax.errorbar(d["difference"], y, fmt="o", color=colour, label=f"{n} players",
                        xerr=np.vstack([d["difference"] - d["low"], d["high"] - d["difference"]]),
                        capsize=2)
        ax.set_yticks(len(named) - 1 - np.arange(len(named)),
                      [f"{policy_label(s)}\n({pol[pol['strategy'] == s]['label'].iloc[0]})"
                       for s in named], fontsize=8)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("minus points per game vs using jokers as needed (left of 0 is better)")
        ax.set_title("Joker policies against using jokers as needed (95% intervals)")
        ax.legend(fontsize=8, loc="best")
        out.append(FigureInfo(_save(fig, folder, "jokers_policies.png"),
                              "Named joker policies against using jokers as needed",
                              "Paired differences in minus points per game on the same deals "
                              "and seats, one dot per player count (the legend's order, top to "
                              "bottom); right of zero costs points, left of zero saves them."))
    return out


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


JOKER_HEADLINE_PLAYERS = 4  # the player count of the joker answer's first sentence


HOARD_WORDS = {"hoard": "hoarding jokers (never playing one while number cards remain, not "
                        "even into an ass round)",
               "hoard-normal": "hoarding jokers in normal rounds only (throwing them into ass "
                               "rounds)"}


DEALT_WORDS = {"0": "with no joker dealt", "1": "with one", "2+": "with two or more"}


def _field_words(field_: str) -> str:
    names = field_.split(",")
    return f"{names[0]} opponents" if len(names) == 1 else "a field of " + ", ".join(names)


def _hoard_cell(result: StudyResult, command: str, name: str, n: int, field_: str,
                bucket: str = "any") -> tuple[Cell, str] | None:
    """The cell of ``name`` - as-needed at (n, field, jokers dealt) in table ``hoarding``,
    with what its interval says (the claim kind that holds there); None where the bucket has
    no games."""
    try:
        cell = make_cell(_hoard_claim("", "", command, name, "unclear", []), result, n,
                         bucket, "cost", field_=field_)
    except KeyError:
        return None
    if not (math.isfinite(cell.low) and math.isfinite(cell.high)):
        return None
    kind = difference_kind(cell.low, cell.high)  # the statement its own interval bears out
    return replace(cell, holds=True), kind


def _hoard_claim(id_: str, sentence: str, command: str, name: str, kind: str,
                 cells: list[Cell]) -> Claim:
    """A claim on ``name`` - as-needed in table ``hoarding``, its cells keyed by the jokers
    dealt ("any": every deal)."""
    return Claim(id_, question("jokers"), sentence, study_game("jokers"), "jokers", command,
                 kind, "hoarding", tuple(cells), against="as-needed",
                 extra={"key": "jokers_dealt", "where": {"a": name, "b": "as-needed"},
                        "effect": kind, "policy": name})


def _cost_words(cell: Cell, kind: str) -> str:
    """The cell's difference: its size where the sentence says costs or saves, signed where
    it says no clear difference."""
    half = (cell.high - cell.low) / 2
    if kind == "unclear":
        return interval(cell.value, half, signed=True)
    return interval(abs(cell.value), half)


def _verb(kind: str) -> str:
    return {"positive": "costs", "negative": "saves",
            "unclear": "makes no clear difference in"}[kind]


def _amount(kind: str, what: str) -> str:
    """'costs 15.1 ± 0.5 minus points per game' / 'makes no clear difference (-0.3 ± 0.9
    minus points per game)'."""
    if kind == "unclear":
        return f"makes no clear difference ({what} minus points per game)"
    return f"{_verb(kind)} {what} minus points per game"


def jokers_claims(result: StudyResult) -> list[Claim]:
    """The joker answer as claims on table ``hoarding`` (cells per player count and field):
    first the headline (hoarding at all times against using jokers as needed at 4 players,
    by the jokers dealt to the seat, against each field), then each hoarder at every player
    count and field, grouped by what the paired interval says; then what strong play does
    with its jokers (table ``habits``). Results without table ``hoarding`` (older studies):
    the hoard - as-needed pairs of table ``differences``."""
    if "hoarding" not in result.tables:
        return _pair_claims(result)
    t = result.table("hoarding")
    command = study_command(result) or ""
    fields = list(dict.fromkeys(t["field"].astype(str)))
    main = fields[0]
    counts = sorted(int(n) for n in t["players"].unique())
    n0 = JOKER_HEADLINE_PLAYERS if JOKER_HEADLINE_PLAYERS in counts else counts[0]
    claims: list[Claim] = cost_curve_claims(result, command, n0)
    top = _hoard_cell(result, command, "hoard", n0, main)
    if top is not None:
        head, kind = top
        cells = [head]
        dealt = []
        for bucket in DEALT_WORDS:
            got = _hoard_cell(result, command, "hoard", n0, main, bucket)
            if got is not None and got[1] == kind:
                cells.append(got[0])
                dealt.append(f"{_cost_words(got[0], kind)} {DEALT_WORDS[bucket]}")
        others = []
        for f in fields[1:]:
            got = _hoard_cell(result, command, "hoard", n0, f)
            if got is not None and got[1] == kind:
                cells.append(got[0])
                others.append(f"against {_field_words(f)} {_cost_words(got[0], kind)}")
        sentence = (f"Against {_field_words(main)} at {n0} players, {HOARD_WORDS['hoard']} "
                    f"{_amount(kind, _cost_words(head, kind))} compared with using them as "
                    "needed on the same deals and seats"
                    + (f" ({', '.join(dealt)})" if dealt else "")
                    + (f"; {'; '.join(others)}" if others else "") + ".")
        claims.append(_hoard_claim(f"jokers-hoard-headline-{kind}", sentence, command, "hoard",
                                   kind, cells))
    for name in ("hoard", "hoard-normal"):
        groups: dict[str, list[Cell]] = {}
        for f in fields:
            for n in counts:
                got = _hoard_cell(result, command, name, n, f)
                if got is not None:
                    groups.setdefault(got[1], []).append(got[0])
        for kind, cells in groups.items():
            each = "; ".join(
                f"against {_field_words(f)}: " + ", ".join(
                    f"{_cost_words(c, kind)} at {c.players} players" for c in cells
                    if c.field == f)
                for f in fields if any(c.field == f for c in cells))
            sentence = (f"{HOARD_WORDS[name][0].upper()}{HOARD_WORDS[name][1:]} {_verb(kind)} "
                        f"minus points per game against using them as needed ({each}).")
            claims.append(_hoard_claim(f"jokers-{name}-{kind}", sentence, command, name, kind,
                                       cells))
    source = ass_jokers_claim(result, command, n0)
    if source is not None:
        claims.append(source)
    habits = _habits_claim(result, command, n0)
    if habits is not None:
        claims.append(habits)
    return claims


def _curve_words(name: str, keep: float) -> str:
    if name == "hoard":
        return "never while number cards remain (the hoarder)"
    if name == "hoard-normal":
        return "never in normal rounds, thrown into ass rounds"
    k = int(keep)
    return "until 1 card is left" if k == 1 else f"until {k} cards are left"


def _curve_order(part: pd.DataFrame) -> pd.DataFrame:
    """Fewest cards kept back first (largest k), then hoarding in normal rounds only, then
    the hoarder (the extreme)."""
    rank = {"hoard-normal": 1, "hoard": 2}
    key = [(rank.get(str(p), 0), -(k if np.isfinite(k) else 0))
           for p, k in zip(part["policy"], part["keep"].astype(float), strict=True)]
    return part.iloc[sorted(range(len(part)), key=lambda i: key[i])]


def curve_claims(result: StudyResult, command: str, first: int) -> list[Claim]:
    """How long is it worth holding jokers? Per player count (``first`` first), for each
    field (the study's, then each strong field), what keeping them back until k cards are
    left costs against using them as needed on the same deals and seats (table
    ``cost_curve``), fewest cards kept back first, the hoarder as the extreme: one claim per
    player count, every figure a cell, each "(not clear)" its cell's ``clear`` test."""
    t = result.table("cost_curve")
    game = study_game("jokers")
    fields = list(dict.fromkeys(t["field"].astype(str)))
    counts = sorted({int(n) for n in t["players"]}, key=lambda n: (n != first, n))
    claims = []
    for n in counts:
        parts, by_field = [], []
        for f in fields:
            part = _curve_order(t[(t["players"] == n) & (t["field"].astype(str) == f)])
            said = []
            for r in part.itertuples():
                kind = difference_kind(float(r.cost_low), float(r.cost_high))
                reader = probe(game, "jokers", kind, "cost_curve", against=str(r.b),
                               extra={"key": "policy"})
                cell = make_cell(reader, result, n, str(r.policy), "cost", field_=f)
                parts.append((reader, cell))
                clear = "" if kind != "unclear" else " (not clear)"
                said.append(f"{_curve_words(str(r.policy), float(r.keep))}: "
                            f"{interval(cell.value, half(cell), signed=True)}{clear}")
            if said:
                deals = int(part["deals"].max())
                by_field.append(f"Against {_field_words(f)} ({count(deals)} deals): "
                                + "; ".join(said) + ".")
        if not parts:
            continue
        sentence = (f"How long is it worth holding jokers? At {n} players, keeping them back "
                    "costs (minus points per game against using them as needed on the same "
                    "deals and seats): " + " ".join(by_field))
        claims.append(several(f"jokers-cost-curve-{n}", sentence, parts, game=game,
                              study="jokers", question=question("jokers"), command=command))
    return claims


def ass_jokers_claim(result: StudyResult, command: str, first: int) -> Claim | None:
    """Where the hoarder's cost with no joker dealt comes from, field by field at ``first``
    players (table ``ass_jokers``): with none dealt every joker it holds at the end was
    taken in an ass round; the part of the cost those jokers are, and the rest, each judged
    by its own interval."""
    if "ass_jokers" not in result.tables or not len(result.table("ass_jokers")):
        return None
    t = result.table("ass_jokers")
    n = first if first in set(t["players"]) else int(t["players"].min())
    game = study_game("jokers")
    parts, said = [], []

    def cell(kind: str, metric: str, f: str) -> Cell:
        reader = probe(game, "jokers", kind, "ass_jokers", against="as-needed",
                       extra={"key": "policy"})
        got = make_cell(reader, result, n, "hoard", metric, field_=f)
        parts.append((reader, got))
        return got

    for r in t[t["players"] == n].itertuples():
        f = str(r.field)
        total = cell("value", "cost", f)
        held = cell(difference_kind(float(r.held_cost_low), float(r.held_cost_high)),
                    "held_cost", f)
        rest_kind = difference_kind(float(r.rest_low), float(r.rest_high))
        rest = cell(rest_kind, "rest", f)
        ends = cell("value", "ends_holding", f)
        ends_b = cell("value", "ends_holding_b", f)
        rest_words = (f"the rest {interval(rest.value, half(rest), signed=True)}, "
                      + ("not clearly different from 0" if rest_kind == "unclear"
                         else "clearly " + ("above" if rest_kind == "positive" else "below")
                         + " 0"))
        said.append(f"Against {_field_words(f)}: it ends {_share_words(ends)} of these games "
                    f"holding a joker (using them as needed: {_share_words(ends_b)}); of its "
                    f"{interval(total.value, half(total), signed=True)}, those jokers are "
                    f"{interval(held.value, half(held), signed=True)} and {rest_words}.")
    if not parts:
        return None
    sentence = (f"Where the hoarder's cost with no joker dealt to its seat comes from, at {n} "
                "players: every joker it then holds was taken in an ass round (A-7: the taker "
                "of an ass round takes the cards, jokers included). In minus points per game "
                "against using them as needed, its cost splits into the jokers it holds at the "
                "end (14 each, less those of using them as needed) and the rest (what holding "
                "them back does to the rest of its game). " + " ".join(said))
    return several("jokers-ass-round-jokers", sentence, parts, game=game, study="jokers",
                   question=question("jokers"), command=command)


def _share_words(cell: Cell) -> str:
    if not (math.isfinite(cell.low) and math.isfinite(cell.high)):
        return percent(cell.value)
    return f"{percent(cell.value)} [{percent(cell.low)}, {percent(cell.high)}]"


def cost_curve_claims(result: StudyResult, command: str, first: int) -> list[Claim]:
    """How long is it worth holding jokers? Per player count (``first`` first), what keeping
    them back until k cards are left costs against using them as needed on the same deals
    and seats, for every k of the study's sweep (fewest cards kept back first), with the
    hoarder (never a joker while number cards remain) as the extreme: one claim per player
    count on table ``differences``, every figure a cell, "not clear" where its interval
    says so. [] for a study without the sweep."""
    if "cost_curve" in result.tables and len(result.table("cost_curve")):
        return curve_claims(result, command, first)
    keep = sorted({int(k) for k in result.manifest.get("keep") or []}, reverse=True)
    pairs = result.table("differences") if "differences" in result.tables else None
    if not keep or pairs is None:
        return []
    field_ = _field(result)
    game = study_game("jokers")
    names = [(f"keep-until-{k}", "until 1 card is left" if k == 1 else
              f"until {k} cards are left") for k in keep] + [
        ("hoard", "never while number cards remain (the hoarder)")]
    counts = sorted({int(n) for n in pairs["players"]}, key=lambda n: (n != first, n))
    claims = []
    for n in counts:
        parts, said = [], []
        for name, words in names:
            row = pairs[(pairs["players"] == n)
                        & (((pairs["a"] == name) & (pairs["b"] == "as-needed"))
                           | ((pairs["a"] == "as-needed") & (pairs["b"] == name)))]
            if len(row) != 1:
                continue
            a, b = str(row["a"].iloc[0]), str(row["b"].iloc[0])
            kind = difference_kind(float(row["low"].iloc[0]), float(row["high"].iloc[0]))
            reader = probe(game, "jokers", kind, "differences", against=b)
            cell = make_cell(reader, result, n, a, "difference", field_=field_)
            parts.append((reader, cell))
            sign = 1.0 if a == name else -1.0  # the words speak of keeping minus as-needed
            clear = "" if kind != "unclear" else " (not clear)"
            cost = interval(sign * cell.value, (cell.high - cell.low) / 2, signed=True)
            said.append(f"{words}: {cost}{clear}")
        if not parts:
            continue
        sentence = (f"How long is it worth holding jokers? At {n} players against "
                    f"{_field_words(field_)}, keeping them back costs, in minus points per "
                    "game against using them as needed on the same deals and seats: "
                    + "; ".join(said) + ".")
        claims.append(several(f"jokers-cost-curve-{n}", sentence, parts, game=game,
                              study="jokers", question=question("jokers"), command=command))
    return claims


def _habits_claim(result: StudyResult, command: str, n0: int) -> Claim | None:
    """What strong play does with its jokers at ``n0`` players (or the first count traced):
    who ends fewest games holding a joker and throws the smallest share of its jokers alone
    as a 1 into an ass round, with every player's numbers."""
    if "habits" not in result.tables:
        return None
    h = result.table("habits")
    h = h[np.isfinite(h["ends_with_joker"])]
    if not len(h):
        return None
    n = n0 if n0 in set(h["players"]) else int(h["players"].min())
    part = h[h["players"] == n]
    field_ = str(part["field"].iloc[0])
    reader = probe(study_game("jokers"), "jokers", "best", "habits", better="lower",
                   extra={"key": "strategy"})
    cells = []
    for metric in ("ends_with_joker", "ass_as_1"):
        values = part[metric].astype(float)
        if not np.isfinite(values).all():
            continue
        best = str(part.loc[values.idxmin(), "strategy"])
        cells.append(make_cell(reader, result, n, best, metric, field_=field_))
    if not cells:
        return None
    rows = list(part.itertuples())

    def each(col: str) -> str:
        return ", ".join(f"{r.strategy} {percent(getattr(r, col))}" for r in rows)

    sentence = (f"What strong play does with its jokers (one seat against "
                f"{_field_words(field_)}, {n} players, {count(part['seat_games'].min())} "
                f"traced games each): share of games ending with a joker in hand: "
                f"{each('ends_with_joker')}; of the jokers played, as fillers inside "
                f"number-card sets: {each('filler')}; alone as a 1 into an ass round: "
                f"{each('ass_as_1')}.")
    return Claim("jokers-habits", question("jokers"), sentence, study_game("jokers"),
                 "jokers", command, "best", "habits", tuple(cells), better="lower",
                 extra={"key": "strategy"})


def _pair_claims(result: StudyResult) -> list[Claim]:
    """Hoarding against using jokers as needed, per player count, grouped by what the paired
    interval says (clearly costs, clearly saves, not clear), each naming the field. Cells are
    read as the table stores the pair (hoard - as-needed, or the reverse)."""
    pairs = result.table("differences")
    field_ = _field(result)
    command = study_command(result) or ""
    pair = pairs[pairs["a"].isin(["hoard", "as-needed"]) & pairs["b"].isin(["hoard", "as-needed"])]
    groups: dict[tuple[str, str, str], list] = {}
    for row in pair.sort_values("players").itertuples():
        kind = difference_kind(float(row.low), float(row.high))
        sign = 1.0 if row.a == "hoard" else -1.0  # the words speak of hoard - as-needed
        effect = difference_kind(sign * row.low if sign > 0 else -row.high,
                                 sign * row.high if sign > 0 else -row.low)
        reader = probe(study_game("jokers"), "jokers", kind, "differences", against=str(row.b))
        cell = make_cell(reader, result, int(row.players), str(row.a), "minus_points",
                         field_=field_)
        groups.setdefault((effect, kind, str(row.b)), []).append((cell, sign))
    claims = []
    for (effect, kind, against), cells in groups.items():
        each = "; ".join(f"{c.players} players: "
                         f"{interval(sign * c.value, (c.high - c.low) / 2, signed=True)}"
                         for c, sign in cells)
        sentence = (f"Against a table of {field_}, hoarding jokers (never playing one while "
                    f"number cards remain) {_verb(effect)} minus points per game compared with "
                    f"using them as needed, on the same deals and seats ({each}).")
        claims.append(Claim(f"jokers-hoard-{effect}-{len(claims) + 1}", question("jokers"),
                            sentence, study_game("jokers"), "jokers", command, kind, "differences",
                            tuple(c for c, _ in cells), against=against,
                            extra={"effect": effect}))
    return claims


def joker_verdict(effects: set[str]) -> str:
    """Is it worth holding jokers, from what the hoarder's claims say cell by cell
    (``positive``: hoarding clearly costs, ``negative``: clearly saves, ``unclear``): "it
    depends" only where it clearly costs in some cells and clearly saves in others; an
    unclear cell beside clear ones of one sign is no dependence."""
    if effects == {"positive"}:
        return "No."
    if effects == {"negative"}:
        return "Yes."
    if "positive" in effects and "negative" in effects:
        return "It depends on the player count and the field."
    if "positive" in effects:
        return ("No: hoarding jokers costs wherever the difference is clear, and never "
                "clearly saves.")
    if "negative" in effects:
        return ("Yes where it is clear: hoarding jokers saves wherever the difference is "
                "clear, and never clearly costs.")
    return "Not clearly either way."


def headline_replication(claims: list[Claim], replica: StudyResult) -> str:
    """Whether the joker headline (hoarding against using jokers as needed at the headline
    player count and field) replicated in ``replica``, the same study at another seed: its
    verdict compared cell by cell as the replication compares every claim
    (reports/replication.py), and its figure beside the replica's, with their difference and
    that difference's 95% interval (the two seeds are independent). '' where either has no
    headline."""
    from reports.replication import SAME, compare

    mine = next((c for c in claims if c.id.startswith("jokers-hoard-headline-")), None)
    theirs = next((c for c in jokers_claims(replica)
                   if c.id.startswith("jokers-hoard-headline-")), None)
    if mine is None or theirs is None:
        return ""
    a, b = mine.cells[0], theirs.cells[0]
    if (a.players, a.field, a.choice) != (b.players, b.field, b.choice):
        return ""
    seed = replica.manifest.get("seed")
    at = f"master seed {seed}" if seed is not None else "another seed"
    status = compare([mine], [theirs], seed).statuses[0]
    d = a.value - b.value
    hd = math.hypot(half(a), half(b))
    within = abs(d) <= hd
    figures = (f"{interval(a.value, half(a))} here, {interval(b.value, half(b))} at {at} "
               f"(they differ by {number(abs(d), 2)}, {'within' if within else 'beyond'} the "
               f"{number(hd, 2)} that chance allows at 95%)")
    if status != SAME:
        return f"The headline did not replicate at {at} ({status}): {figures}."
    if within:
        return f"The headline replicated at {at}: {figures}."
    low, high = min(a.low, b.low), max(a.high, b.high)
    return (f"The headline's verdict replicated at {at}, its figure not within chance: "
            f"{figures}; both seeds together support {number(low, 1)} to {number(high, 1)} "
            "minus points per game.")


def jokers_finding(result: StudyResult, replica: StudyResult | None = None) -> Finding:
    """Hoarding against using jokers as needed, naming the field: the headline at 4 players
    by jokers dealt and by field, each hoarder at every player count and field, and what
    strong play does with its jokers. With ``replica`` (the same study at another seed) the
    verdict says whether the headline replicated there (:func:`headline_replication`)."""
    pol = result.table("policies")
    claims = jokers_claims(result)
    if not claims:
        return Finding("jokers", question("jokers"), "See below.", "")
    effects = {c.extra["effect"] for c in claims
               if "effect" in c.extra and c.extra.get("policy", "hoard") == "hoard"}
    verdict = joker_verdict(effects)
    if replica is not None:
        verdict = " ".join(x for x in (verdict, headline_replication(claims, replica)) if x)
    best = []
    for n in sorted(pol["players"].unique()):
        part = pol[pol["players"] == n].sort_values("mean", kind="stable")
        best.append(policy_label(str(part["strategy"].iloc[0])))
    common = max(set(best), key=best.count)
    detail = " ".join(c.sentence for c in claims) + (
        f" The policy with the fewest minus points at most player counts: {common}.")
    return Finding("jokers", question("jokers"), verdict, detail, tuple(claims))


figures = jokers_figures
finding = jokers_finding
REPLICATES = True  # the key finding says whether its headline replicated
drawing = jokers_drawing

"""The ladder study's report parts: ratings with rank intervals; every pair as a table.

The pairwise differences were once a heatmap with two numbers in each of up to 13 x 13 cells:
about 5 pixels tall as the page shows it. They read better as the sortable table "Every pair"
(ladder_views), one row a pair."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyzer.games.registry import get as game_description
from analyzer.games.registry import title as game_title
from analyzer.numbers import interval
from analyzer.studies.results import StudyResult
from analyzer.text import is_rate, metric_words
from reports import facts
from reports.claims import Claim, make_cell, probe
from reports.figures import BLUE, FigureInfo, _grid, _save
from reports.findings import Finding, question
from reports.reproduce import study_command
from reports.tables import TableView, interval_cell


def ladder_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Per game: ratings with 95% intervals per player count (the pairs: a table)."""
    ratings, pairs = result.table("ratings"), result.table("pairs")
    if "game" not in ratings:
        return _game_figures(result.manifest, ratings, pairs, folder, "ladder")
    out = []
    for game in ratings["game"].unique():
        info = {**result.manifest, **result.manifest.get("by_game", {}).get(game, {}),
                "game": game}
        out += _game_figures(info, ratings[ratings["game"] == game],
                             pairs[pairs["game"] == game], folder, f"ladder_{game}")
    return out


def _game_figures(manifest: dict, ratings: pd.DataFrame, pairs: pd.DataFrame, folder: Path,
                  stem: str) -> list[FigureInfo]:
    metric = metric_words(str(manifest.get("metric", "value")))
    better = facts.better(manifest)  # the game's direction, not the file's
    game = game_title(str(manifest.get("game")))
    margin = margin_text(manifest, str(manifest.get("game")))
    counts = sorted(ratings["players"].unique())
    out = []
    fig, axes = _grid(len(counts), width=5.0, height=0.8 + 0.42 * ratings["strategy"].nunique())
    for ax, n in zip(axes, counts, strict=True):
        part = ratings[ratings["players"] == n].sort_values("rank", ascending=False)
        ax.errorbar(part["rating"], range(len(part)), xerr=part["half"], fmt="o", color=BLUE,
                    ecolor="black", capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(range(len(part)),
                      [f"{m}  (group {t})" for m, t in zip(part["members"], part["tier"],
                                                          strict=True)], fontsize=7)
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel(f"{metric} vs table average\n({better} is better)", fontsize=8)
    fig.suptitle(f"{game}: the ladder on mixed tables\n(95% CI over the seatings)", fontsize=10)
    out.append(FigureInfo(_save(fig, folder, f"{stem}_ratings.png"), f"The ladder ({game})",
                          "Each strategy's rating (its result minus the average of the same "
                          "deals' tables) with its 95% interval over the seatings; best at the "
                          "top; groups are cut only where every strategy above is clearly "
                          + (f"more than {margin} ahead of" if margin else "separated from")
                          + " every one below. Every pair's difference, with the intervals "
                          "that hold for all pairs at once: the table \"Every pair\" below.",
                          wide=len(counts) > 1))

    return out


def ladder_views(result: StudyResult) -> list[TableView]:
    """The ladder (ratings, the ranks the corrected tests allow, groups) and the pairwise
    table."""
    r = result.table("ratings")
    game = {"game": r["game"]} if "game" in r else {}
    by_game = result.manifest.get("by_game") or {}

    def rate(g) -> bool:  # a yes/no metric (Jass: won): ratings in percentage points
        return is_rate(str((by_game.get(g) or result.manifest).get("metric", "")))

    rates = [rate(g) for g in (r["game"] if "game" in r else [None] * len(r))]
    ladder = pd.DataFrame({
        **game, "players": r["players"], "group": r["tier"],
        "ranks": [str(lo) if lo == hi else f"{lo}-{hi}"
                  for lo, hi in zip(r["rank_low"], r["rank_high"], strict=True)],
        "strategy": r["members"],
        "rating ± 95%": [interval_cell(v, lo, hi, pct, signed=True) for v, lo, hi, pct in
                         zip(r["rating"], r["low"], r["high"], rates, strict=True)],
        "mean": r["mean"].round(4), "deals": r["deals"],
    })
    if "entrant" in r:  # strategies tagged slow play a share of the deals
        ladder["plays"] = r["entrant"].map({True: "entrant (share of the deals)",
                                            False: "every deal"})
    if "pl" in r:  # Plackett-Luce on the finishing orders, beside the score model
        ladder["Plackett-Luce strength [95%]"] = [
            f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            for v, lo, hi in zip(r["pl"], r["pl_low"], r["pl_high"], strict=True)]
        ladder["PL rank 95%"] = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in
                                 zip(r["pl_rank_low"], r["pl_rank_high"], strict=True)]
    p = result.table("pairs")
    prates = [rate(g) for g in (p["game"] if "game" in p else [None] * len(p))]
    pairs = pd.DataFrame({
        **({"game": p["game"]} if "game" in p else {}), "players": p["players"],
        "a": p["a"], "b": p["b"],
        "a - b ± 95%": [interval_cell(v, lo, hi, pct, signed=True) for v, lo, hi, pct in
                        zip(p["difference"], p["low"], p["high"], prates, strict=True)],
        "simultaneous ± 95%": [interval_cell(v, lo, hi, pct, signed=True) for v, lo, hi, pct in
                               zip(p["difference"], p["sim_low"], p["sim_high"], prates,
                                   strict=True)],
        "p (Holm)": p["p_holm"].map(lambda x: f"{x:.3g}"),
        "clear": p["clear"].map({True: "yes", False: "no"}),
        "variance reduction": p["variance_reduction"].map(lambda x: f"{x:.1f}x"),
    })
    if "apart" in p and (p["margin"] > 0).any():  # the groups count differences beyond it
        pairs.insert(pairs.columns.get_loc("clear") + 1, "beyond the margin",
                     [("yes" if x else "no") + f" (margin {pct_margin(mg, r)})"
                      for x, mg, r in zip(p["apart"], p["margin"], prates, strict=True)])
    return [TableView("The ladder", ladder, "ratings"),
            TableView("Every pair (Holm over all pairs)", pairs, "pairs")]





def pct_margin(margin: float, rate: bool) -> str:
    """A ladder margin as the tables print differences: points for a rate."""
    return f"{margin * 100:g} points" if rate else f"{margin:g}"




def _left_out(manifest: dict, games: list) -> list[str]:
    """The registered strategies the ladder did not rate (tagged slow or not a player)."""
    from strategies.registry import catalog

    by_game = manifest.get("by_game") or {}
    out = []
    for g in games:
        rated = set((by_game.get(g) or {}).get("strategies") or manifest.get("strategies") or [])
        try:
            book = catalog(str(g), with_files=False)
        except Exception:  # an unknown game in an old manifest: nothing to say
            continue
        out += [f"{name} ({game_title(str(g))})" for name, spec in book.items()
                if name not in rated and set(spec.tags) & {"slow", "not-a-player"}]
    return out


def margin_text(manifest: dict, game: str) -> str:
    """The ladder's margin for ``game`` in words ('' when 0 or not recorded)."""
    from analyzer.studies.ladder import margin_words

    m = (manifest.get("by_game") or {}).get(game) or manifest
    margin, metric = m.get("margin"), m.get("metric")
    if not margin or not metric:
        return ""
    try:
        unit = game_description(str(game)).mode(str(m.get("mode") or "")).unit
    except Exception:  # an unknown game or mode in an old manifest: the bare unit word
        unit = "deal"
    return margin_words(float(margin), str(metric), unit)


def ladder_finding(result: StudyResult) -> Finding:
    """The first group of each game's ladder at each player count, one claim per cell; which
    strategies entered on a share of the deals (tagged slow), and which were not rated."""
    ratings = result.table("ratings")
    m = result.manifest
    games = list(dict.fromkeys(ratings["game"])) if "game" in ratings else [""]
    command = study_command(result) or ""
    verdicts, claims = [], []
    for g in games:
        whole = ratings[ratings["game"] == g] if g else ratings
        title = game_title(str(g)) if g else "the game"
        for n in sorted(whole["players"].unique()):
            part = whole[whole["players"] == n].sort_values("rank")
            top = part[part["tier"] == part["tier"].min()]
            names = [str(x) for x in top["strategy"]]
            reader = probe(str(g), "ladder", "top-group", "ratings")
            field_ = ",".join(str(x) for x in part["strategy"])
            cells = tuple(make_cell(reader, result, int(n), name, "rating", field_=field_)
                          for name in names)
            named = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            verdicts.append(f"{title}, {int(n)} players: {named}"
                            + (" (the strongest is one of them)" if len(names) > 1 else ""))
            pct = is_rate(str(((m.get("by_game") or {}).get(g) or m).get("metric", "")))
            ratings_words = "; ".join(
                f"{c.choice} {interval(c.value, (c.high - c.low) / 2, signed=True, percent=pct)}"
                for c in cells)
            beyond = margin_text(m, g)
            beyond = f" more than {beyond}" if beyond else ""
            ahead = (f"each of them clearly{beyond} ahead of every strategy outside the group"
                     if len(names) > 1 else f"clearly{beyond} ahead of every other")
            sentence = (f"At {int(n)} players of {title}, on mixed tables of the same deals "
                        f"with every strategy in every seat and the seating drawn afresh for "
                        f"every few deals, the first group of the {len(part)} rated strategies "
                        f"({', '.join(part['strategy'])}) is {named}, {ahead} (rating against "
                        f"the average table: {ratings_words}).")
            claims.append(Claim(f"ladder-{g}-{int(n)}", question("ladder"), sentence, str(g),
                                "ladder", command, "top-group", "ratings", cells))
            slow = ([str(x) for x in part.loc[part["entrant"].astype(bool), "strategy"]]
                    if "entrant" in part else [])
            if slow and set(names) <= set(slow):  # the best without the slow search as well
                rest = part[~part["strategy"].isin(slow)]
                first = [str(x) for x in rest.loc[rest["tier"] == rest["tier"].min(),
                                                  "strategy"]]
                reader = probe(str(g), "ladder", "top-group", "ratings",
                               extra={"exclude": slow})
                fast = tuple(make_cell(reader, result, int(n), name, "rating", field_=field_)
                             for name in first)
                words = "; ".join(
                    c.choice + " " + interval(c.value, (c.high - c.low) / 2, signed=True,
                                              percent=pct) for c in fast)
                listed = (first[0] if len(first) == 1 else
                          ", ".join(first[:-1]) + " and " + first[-1])
                verdicts[-1] += f", then {listed}"
                claims.append(Claim(
                    f"ladder-{g}-{int(n)}-without-slow", question("ladder"),
                    f"Without {' and '.join(slow)} (a search, tagged slow), the first group "
                    f"at {int(n)} players of {title} is {listed} ({words}).", str(g), "ladder",
                    command, "top-group", "ratings", fast, extra={"exclude": slow}))
    margins = [f"{margin_text(m, g)} in {game_title(str(g)) if g else 'the game'}"
               for g in games if margin_text(m, g)]
    detail = " ".join(c.sentence for c in claims) + (
        " Groups are cut only where every strategy above is clearly "
        + (f"more than the margin ({'; '.join(margins)}) ahead of" if margins else
           "separated from")
        + " every one below (Holm's correction over all pairs); intervals are taken over the "
        "seatings.")
    entrants = list(dict.fromkeys(m.get("entrants") or []))
    if entrants:
        detail += (f" {' and '.join(entrants)} (tagged slow) played 1/{m.get('slow_share')} of "
                   "the budget, taking every seat at tables of the others, and is rated on the "
                   "same scale.")
    if "left_out" in m:
        by_reason: dict[tuple[str, str], list[str]] = {}
        for x in m["left_out"]:
            by_reason.setdefault((x["strategy"], x["reason"]), []).append(
                game_title(str(x.get("game") or m.get("game"))))
        left = [f"{name} ({' and '.join(dict.fromkeys(where))}): {reason}"
                for (name, reason), where in by_reason.items()]
        if left:
            detail += f" Not rated: {'; '.join(left)}."
    else:  # a manifest from before the ladder recorded what it left out
        left = _left_out(m, games)
        if left:
            detail += (f" Not rated (tagged slow or not a player): "
                       f"{', '.join(map(str, left))}.")
    return Finding("ladder", question("ladder"), "; ".join(verdicts) + ".", detail,
                   tuple(claims))


figures = ladder_figures
views = ladder_views
finding = ladder_finding

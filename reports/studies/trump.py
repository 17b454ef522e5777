"""The trump study's report parts: the rules and choosers against the best suit in hindsight,
and its sample deal."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.numbers import interval, number, percent
from analyzer.studies.claims import statement
from analyzer.studies.registry import study_game
from analyzer.studies.results import StudyResult
from reports.claims import Cell, Claim, difference_kind, make_cell, probe, scope_words, several
from reports.figures import BLUE, GREY, MIN_CELL, ORANGE, FigureInfo, _grid, _heatmap, _save
from reports.findings import Alert, Finding, _field, question
from reports.names import aim_label, rule_label, rule_phrase, ruleset_label
from reports.reproduce import study_command
from reports.samples import trump_drawing
from reports.tables import TableView, _counts, interval_cell


def alerts(result: StudyResult) -> list[Alert]:
    """Rows of the trump table that rest on few trump choices."""
    rules = result.table("rules")
    few = rules[rules["decisions"] < 100]
    if len(few):
        return [Alert("trump", (
            f"{len(few)} rows of the trump table rest on fewer than 100 trump choices; "
            "their intervals are wide."))]
    return []


# --------------------------------------------------------------------------------- trump
def trump_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Loss of each choice rule by group (dots with intervals), and by longest suit."""
    rules = result.table("rules")
    groups = list(rules.groupby(["players", "ruleset"], sort=True))
    aims = [a for a in ("high", "low", "n/a") if a in set(rules["aim"])]
    out = []
    for col, unit, fname in (("sticks_loss", "sticks", "trump_sticks_loss.png"),
                             ("points_loss", "card points", "trump_points_loss.png")):
        shown = rules[np.isfinite(rules[col].astype(float))]
        if shown.empty:
            continue
        fig, axes = _grid(len(groups), width=4.6, height=3.6, max_cols=2)
        for ax, ((players, ruleset), _) in zip(axes, groups, strict=True):
            part = shown[(shown["players"] == players) & (shown["ruleset"] == ruleset)]
            names = list(dict.fromkeys(part["rule"]))
            present = [a for a in aims if a in set(part["aim"])]
            step = 0.7 / max(len(present), 1)
            for i, aim in enumerate(present):
                sub = part[part["aim"] == aim].set_index("rule").reindex(names)
                y = len(names) - 1 - np.arange(len(names)) + 0.35 - (i + 0.5) * step
                ax.errorbar(sub[col], y, fmt="o", color=f"C{i}", label=aim_label(aim),
                            xerr=np.vstack([sub[col] - sub[col + "_low"],
                                            sub[col + "_high"] - sub[col]]), capsize=2)
            ax.set_yticks(len(names) - 1 - np.arange(len(names)),
                          [rule_label(r) for r in names], fontsize=8)
            ax.set_xlim(left=0)
            ax.set_title(f"{players} players, {ruleset_label(ruleset)}", fontsize=9)
            ax.set_xlabel(f"{unit} lost per trump choice (less is better)", fontsize=8)
            ax.tick_params(axis="x", labelsize=8)
            ax.legend(fontsize=7)
        fig.suptitle(f"Trump choice: {unit} lost against the best suit in hindsight",
                     fontsize=10)
        out.append(FigureInfo(
            _save(fig, folder, fname), f"Trump rules: {unit} lost",
            f"Mean {unit} a chooser loses per trump choice against the best suit in "
            "hindsight, for each way of choosing and each aim, with 95% intervals; the axis "
            "starts at zero (no loss), less is better. \"strategy's own choice\" is what the "
            "players' strategy fixed.", wide=len(groups) > 1, extra=col == "points_loss"))

    if "choosers" in result.tables and result.table("choosers")["chooser"].nunique() > 1:
        out.append(_choosers_figure(result.table("choosers"), folder))
    feats = result.table("features")
    longest = feats[(feats["feature"] == "longest suit")]
    if len(longest):
        # pool the groups weighted by their decisions; hide cells with too few to read
        w = longest.assign(total=longest["sticks_loss"] * longest["decisions"])
        sums = w.groupby(["rule", "value"])[["total", "decisions"]].sum()
        pooled = (sums["total"] / sums["decisions"]).where(sums["decisions"] >= MIN_CELL)
        matrix = pooled.unstack("value")
        matrix = matrix[sorted(matrix.columns, key=int)]
        matrix.index = [rule_label(r) for r in matrix.index]
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.subplots()
        _heatmap(ax, matrix, ".2f", "sticks lost per trump choice", fig)
        ax.set_xlabel("cards in the chooser's longest suit")
        ax.set_ylabel("how the suit is chosen")
        ax.set_title("Trump choice: sticks lost by the length of the longest suit")
        out.append(FigureInfo(_save(fig, folder, "trump_by_length.png"),
                              "Trump rules by hand: the longest suit",
                              "Mean sticks lost per trump choice, by rule and by the length of "
                              "the chooser's longest suit (all player counts, rule sets and "
                              f"aims together; cells with fewer than {MIN_CELL} choices are "
                              "left empty).", extra=True))
    return out


def _choosers_figure(c: pd.DataFrame, folder: Path) -> FigureInfo:
    """Per (players, rule set): each chooser's own loss, beside the longest-suit rule and the
    best fixed rule on the same decisions (95% intervals)."""
    groups = list(c.groupby(["players", "ruleset"], sort=True))
    choosers = list(dict.fromkeys(c["chooser"]))
    fig, axes = _grid(len(groups), width=4.6, height=0.9 + 0.5 * len(choosers), max_cols=2)
    marks = (("own", "o", BLUE, "its own choice"), ("longest", "s", GREY, "longest suit"),
             ("best", "D", ORANGE, "best fixed rule on its decisions"))
    for ax, ((players, ruleset), part) in zip(axes, groups, strict=True):
        for k, (key, marker, color, label) in enumerate(marks):
            xs, lo, hi, ys = [], [], [], []
            for i, name in enumerate(choosers):
                sub = part[part["chooser"] == name]
                row = (sub[sub["rule"] == "as-played"] if key == "own" else
                       sub[sub["rule"] == "longest"] if key == "longest" else
                       sub[sub["best_rule"].astype(bool)])
                if row.empty:
                    continue
                r = row.iloc[0]
                xs.append(r["sticks_loss"])
                lo.append(r["sticks_loss"] - r["sticks_loss_low"])
                hi.append(r["sticks_loss_high"] - r["sticks_loss"])
                ys.append(len(choosers) - 1 - i + 0.2 - 0.2 * k)
            ax.errorbar(xs, ys, xerr=[lo, hi], fmt=marker, color=color, capsize=2,
                        label=label, mfc="none" if key != "own" else color)
        ax.set_yticks(len(choosers) - 1 - np.arange(len(choosers)), choosers, fontsize=8)
        ax.set_xlim(left=0)
        ax.set_title(f"{players} players, {ruleset_label(ruleset)}", fontsize=9)
        ax.set_xlabel("sticks lost per trump choice (less is better)", fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        ax.legend(fontsize=6)
    fig.suptitle("Trump choosers: sticks lost against the best suit in hindsight", fontsize=10)
    return FigureInfo(
        _save(fig, folder, "trump_choosers.png"), "Trump choosers against the best suit",
        "Each chooser on a table of its own: sticks its own trump choice loses per decision "
        "against the best suit in hindsight (filled), and on the very same decisions the "
        "longest-suit rule and the rule that lost least there (hollow), with 95% intervals.",
        wide=len(groups) > 1)


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


AIM_WHO = {"high": "Playing for many points", "low": "Playing for few points",
           "n/a": "Without an aim"}


def trump_claims(result: StudyResult) -> list[Claim]:
    """One claim per aim and per group of cells (player count x rule set) that agree on the
    rule losing fewest sticks and on the rules it is not clearly ahead of: never pooled across
    cells whose best rule or runners-up differ. Each claim carries, beside the best rule of
    each cell, the paired comparison (table ``pairs``) behind every "not clearly fewer" and
    "clearly fewer" it says."""
    rules = result.table("rules")
    named = rules[(rules["rule"] != AS_PLAYED_RULE) & np.isfinite(rules["sticks_loss"])]
    field_ = _field(result)
    command = study_command(result) or ""
    rulesets = sorted({str(r) for r in named["ruleset"]}) if "ruleset" in named else []
    claims = []
    for aim in [a for a in ("high", "low", "n/a") if a in set(named["aim"])]:
        sub = named[named["aim"] == aim]
        reader = probe(study_game("trump"), "trump", "best", "rules",
                       extra={"exclude": [AS_PLAYED_RULE]})
        groups: dict[tuple[str, tuple[str, ...]], list[tuple[Claim, Cell]]] = {}
        for (n, rs), part in sub.groupby(["players", "ruleset"], sort=True):
            best = part.loc[part["sticks_loss"].idxmin(), "rule"]
            cell = make_cell(reader, result, int(n), str(best), "sticks_loss",
                             ruleset=str(rs), field_=field_, aim=str(aim))
            pairs = _runner_up_cells(result, cell)
            close = tuple(c.choice for r, c in pairs if r.kind != "positive")
            groups.setdefault((str(best), close), []).append((reader, cell))
            groups[(str(best), close)] += pairs
        for i, ((rule, close), parts) in enumerate(groups.items()):
            group = [c for r, c in parts if r.table == "rules"]
            lo = min(c.value for c in group)
            hi = max(c.value for c in group)
            where = scope_words(group, rulesets)
            size = (f"{number(lo, 3)} sticks per trump choice" if len(group) == 1 else
                    f"{number(lo, 3)} to {number(hi, 3)} sticks per trump choice")
            compared = [c for r, c in parts if r.table == "pairs"]
            ending = (f", though not clearly fewer than "
                      f"{' or '.join(rule_label(x) for x in close)}." if close else
                      ", clearly fewer than every other rule." if compared else ".")
            sentence = (f"{AIM_WHO[aim]}, at {where} (a table of {field_}): fix "
                        f"{rule_phrase(rule)}; it loses {size} against the best suit in "
                        "hindsight, the fewest of the named rules there" + ending)
            claims.append(several(f"trump-{aim}-{i + 1}", sentence, parts,
                                  game=study_game("trump"), study="trump",
                                  question=question("trump"), command=command))
    return claims


AS_PLAYED_RULE = "as-played"


def _runner_up_cells(result: StudyResult, best: Cell) -> list[tuple[Claim, Cell]]:
    """Every named rule against the best one of cell ``best``, paired on the same decisions
    (table ``pairs``, rule minus best), as a cell stating what its interval says: ``unclear``
    (not clearly worse) or ``positive`` (clearly worse; ``negative`` only in a table whose
    best is not its best, which the best rule's own cell then fails). [] without a pairs
    table."""
    if "pairs" not in result.tables:
        return []
    pairs = result.table("pairs")
    p = pairs[(pairs["players"] == best.players)
              & (pairs["ruleset"].astype(str) == str(best.ruleset))
              & (pairs["aim"].astype(str) == str(best.aim)) & (pairs["b"] == best.choice)
              & (pairs["a"] != AS_PLAYED_RULE)]
    out = []
    for row in p.itertuples():
        kind = difference_kind(float(row.low), float(row.high))
        reader = probe(study_game("trump"), "trump", kind, "pairs", against=best.choice)
        out.append((reader, make_cell(reader, result, best.players, str(row.a), "difference",
                                      ruleset=best.ruleset, aim=best.aim)))
    return out


def chooser_claims(result: StudyResult) -> list[Claim]:
    """Each chooser's own choice against the best fixed rule on its own decisions, per player
    count and rule set (paired, the choosers table's ``own_minus``), grouped by what the
    study decided: the table's ``clear`` column (Holm over the rules), never the plain
    interval. Each cell of a claim carries the difference, the table's verdict and its
    Holm-adjusted p."""
    if "choosers" not in result.tables:
        return []
    c = result.table("choosers")
    best = c[c["best_rule"].astype(bool)]
    command = study_command(result) or ""
    claims = []
    game = study_game("trump")
    for chooser, part in best.groupby("chooser", sort=False):
        groups: dict[str, list[tuple[Claim, Cell]]] = {}
        for row in part.itertuples():
            clear = bool(row.clear)
            kind = ("unclear" if not clear else
                    "negative" if row.own_minus < 0 else "positive")
            at = dict(ruleset=str(row.ruleset), field_=str(chooser))
            diff = probe(game, "trump", "value", "choosers")
            said = probe(game, "trump", "equals", "choosers", extra={"equals": str(clear)})
            p = probe(game, "trump", "value", "choosers", extra={"exact": True})
            groups.setdefault(kind, []).extend(
                (r, make_cell(r, result, int(row.players), str(row.rule), m, **at))
                for r, m in ((diff, "own_minus"), (said, "clear"), (p, "p_holm")))
        for kind, parts in groups.items():
            what = {"negative": "loses clearly fewer sticks", "positive":
                    "loses clearly more sticks", "unclear": "is not clearly better or worse"}[kind]
            diffs = [x for r, x in parts if x.metric == "own_minus"]
            ps = {(x.players, x.ruleset): x for r, x in parts if x.metric == "p_holm"}
            each = "; ".join(
                f"{x.players} players, {x.ruleset}: "
                f"{interval(x.value, (x.high - x.low) / 2, signed=True)} against "
                f"{rule_label(x.choice)}, Holm-adjusted p "
                f"{number(ps[(x.players, x.ruleset)].value, 3)}" for x in diffs)
            sentence = (f"{chooser}'s own trump choice (a table of {chooser}) {what} than "
                        f"the best fixed rule on the same decisions ({each}; clear only "
                        "after Holm's correction over the rules, as in the study's table).")
            claims.append(several(f"trump-chooser-{chooser}-{kind}", sentence, parts,
                                  game=game, study="trump", question=question("trump"),
                                  command=command))
    return claims


FACTOR_WORDS = {"players": "the player count", "aim": "your aim", "ruleset": "the rule set"}


def _trump_cells(claims: list[Claim]) -> dict[tuple, tuple[Cell, list[tuple[Claim, Cell]]]]:
    """Per (players, rule set, aim): the best rule's cell and its paired comparisons, as the
    trump claims carry them."""
    out: dict[tuple, tuple[Cell, list[tuple[Claim, Cell]]]] = {}
    for claim in claims:
        for i, cell in enumerate(claim.cells):
            stated = statement(claim, i)
            key = (cell.players, cell.ruleset, cell.aim)
            if stated.table == "rules":
                out[key] = (cell, out.get(key, (cell, []))[1])
            else:
                out.setdefault(key, (cell, []))[1].append((stated, cell))
    return out


def _top(best: Cell, pairs: list[tuple[Claim, Cell]]) -> set[str]:
    """The best rule of a cell and the rules not clearly worse than it there."""
    return {best.choice} | {c.choice for r, c in pairs if r.kind != "positive"}


def trump_verdict(result: StudyResult, claims: list[Claim]) -> tuple[str, Claim | None]:
    """The trump answer's first words, saying only what is clear, as a claim on its cells: a
    rule to fix where one is best or not clearly worse in every cell; otherwise each of
    player count, aim and rule set that the answer clearly depends on: two cells that differ
    only in it share no rule that is best or not clearly worse in both (each other rule is
    clearly worse in one of them, paired on the same decisions)."""
    cells = _trump_cells(claims)
    if not cells:
        return "See below.", None
    reader = probe(study_game("trump"), "trump", "best", "rules",
                   extra={"exclude": [AS_PLAYED_RULE]})
    tops = {k: _top(best, pairs) for k, (best, pairs) in cells.items()}
    common = set.intersection(*tops.values())
    parts: list[tuple[Claim, Cell]] = []
    if common:
        everywhere = [r for r in common if all(b.choice == r for b, _ in cells.values())]
        rule = (everywhere or sorted(common))[0]
        for best, pairs in cells.values():
            parts.append((reader, best))
            parts += [(r, c) for r, c in pairs if c.choice == rule]
        verdict = (f"Fix {rule_phrase(rule)}." if everywhere else
                   f"Fix {rule_phrase(rule)} (the best, or not clearly worse, everywhere).")
    else:
        shown = []
        for i, factor in enumerate(("players", "ruleset", "aim")):
            for a, b in ((a, b) for a in cells for b in cells if a < b):
                same = all(a[j] == b[j] for j in range(3) if j != i)
                if same and a[i] != b[i] and not tops[a] & tops[b]:
                    shown.append(factor)
                    for key in (a, b):
                        parts.append((reader, cells[key][0]))
                        parts += cells[key][1]
                    break
        if shown:
            words = [FACTOR_WORDS[f] for f in ("players", "aim", "ruleset") if f in shown]
            verdict = "It depends on " + (" and ".join(words)) + "."
        else:
            for best, pairs in cells.values():
                parts.append((reader, best))
                parts += pairs
            verdict = ("No one rule is best or tied everywhere, but no single factor (player "
                       "count, aim, rule set) clearly decides it alone.")
    return verdict, several("trump-verdict", verdict, parts, game=study_game("trump"),
                            study="trump", question=question("trump"),
                            command=study_command(result) or "")


def trump_decision_table(claims: Iterable[Claim]) -> pd.DataFrame:
    """The trump answer as a table a player can read at the table, rendered from the cells of
    the (vetted) trump claims only: per player count, rule set and aim, the rule to fix and
    its loss, the runner-up and whether it is clearly worse or tied (paired on the same
    decisions), and beside it what each strong chooser's own judgement does against the
    best fixed rule (the choosers table, 'clear' after Holm). Empty without trump claims."""
    claims = list(claims)
    cells = _trump_cells([c for c in claims if c.id.startswith("trump-")
                          and not c.id.startswith(("trump-chooser-", "trump-verdict"))])
    judged: dict[tuple, list[str]] = {}
    for claim in claims:
        if not claim.id.startswith("trump-chooser-"):
            continue
        flags = {(c.players, c.ruleset, c.field): c for i, c in enumerate(claim.cells)
                 if c.metric == "clear"}
        for c in claim.cells:
            if c.metric != "own_minus":
                continue
            flag = flags.get((c.players, c.ruleset, c.field))
            said = statement(claim, claim.cells.index(flag)).extra.get("equals") if flag \
                else None
            verdict = "clear" if said == "True" else "not clear"
            judged.setdefault((c.players, c.ruleset), []).append(
                f"{c.field}: {interval(c.value, (c.high - c.low) / 2, signed=True)} "
                f"({verdict})")
    rows = []
    for (n, rs, aim), (best, pairs) in sorted(cells.items(), key=lambda x: (
            x[0][0], str(x[0][1]), str(x[0][2]))):
        tied = [p for p in pairs if p[0].kind != "positive"]  # not clearly worse
        runner = min(tied or pairs, key=lambda p: p[1].value, default=None)
        rows.append({
            "players": n, "rule set": rs, "aim": AIM_WHO.get(str(aim), str(aim)).lower(),
            "fix": rule_label(best.choice),
            "sticks lost": interval(best.value, (best.high - best.low) / 2),
            "runner-up": rule_label(runner[1].choice) if runner else "",
            "runner-up is": ("" if runner is None else "clearly worse" if
                             runner[0].kind == "positive" else "tied"),
            "own judgement minus the fixed rule": "; ".join(judged.get((n, rs), [])),
        })
    return pd.DataFrame(rows)


def trump_finding(result: StudyResult) -> Finding:
    """The rule that loses fewest sticks, per aim and per cell (player count, rule set),
    stated for each group of cells that agree (analyzer/studies/claims.py); the verdict says
    only the dependence that is clear (:func:`trump_verdict`)."""
    claims = trump_claims(result)
    if not claims:
        return Finding("trump", question("trump"), "See below.", "")
    verdict, said = trump_verdict(result, claims)
    choosers = chooser_claims(result)
    detail = " ".join(c.sentence for c in claims + choosers)
    return Finding("trump", question("trump"), verdict,
                   detail + " Lost sticks: how many fewer sticks the chooser gets than with "
                   "the suit that would have been best, knowing every hand.",
                   tuple(([said] if said else []) + claims + choosers))


figures = trump_figures
views = trump_views
finding = trump_finding
drawing = trump_drawing

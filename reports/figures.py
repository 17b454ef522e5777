"""Figures of study results as stand-alone PNG files (matplotlib's Agg renderer, no pyplot).

Each ``<study>_figures(result, folder)`` function writes that study's figures into ``folder``
and returns a :class:`FigureInfo` per file, with a title and a caption for the HTML report.
Every figure carries its own title and axis labels, so a PNG pasted alone into a slide or a
chat still says what it shows. Error bars and bands are the 95% intervals of the tables.

A figure wider than a phone shows whole (NARROW_WIDTH_IN) is saved a second time for phones
into ``folder``/NARROW, laid out for the width: small multiples one panel under the other,
a single panel narrower (the text keeps its size, long titles wrap). The page shows that
variant on a phone (reports.html); the PNG files for slides are the ones in ``folder``. A
figure too crowded to narrow (its layout would collapse) gets no variant and scrolls inside
its box on a phone, as every figure did before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from weakref import WeakKeyDictionary

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analyzer.games.registry import title as game_title
from analyzer.numbers import interval
from analyzer.studies.results import StudyResult
from analyzer.text import is_rate, metric_words
from reports import facts
from reports.names import aim_label, policy_label, rule_label, ruleset_label

DPI = 110
BLUE, ORANGE, GREY = "#2b6cb0", "#dd6b20", "#718096"
MIN_CELL = 30  # fewest decisions behind a heatmap cell worth showing


@dataclass(frozen=True)
class FigureInfo:
    """A written figure: file name (relative to the figures folder), title and caption."""

    file: str
    title: str
    caption: str
    wide: bool = False  # spans the page's full width (small multiples)
    appendix: bool = False  # a correctness check, not an answer: shown in the appendix
    extra: bool = False  # a closer look, folded under "More figures"


MIN_FONT_PT = 8.0  # the smallest text in a figure: 12 pixels at DPI, 9 when shown at 3/4
NARROW_WIDTH_IN = 3.6  # a phone's figure: 396 pixels at DPI, at 3/4 whole on a 360-px phone
NARROW = "narrow"  # the figures folder's subfolder of the phones' variants (for the page)
_GRIDS: WeakKeyDictionary = WeakKeyDictionary()  # small multiples: figure -> their layout


def _save(fig: Figure, folder: Path, name: str) -> str:
    """Write ``fig`` as ``folder``/``name`` at DPI, no text smaller than MIN_FONT_PT (the
    page shows a figure at 3/4 of its size or more: reports.html)."""
    from matplotlib.text import Text

    folder.mkdir(parents=True, exist_ok=True)
    for text in fig.findobj(Text):
        if text.get_fontsize() < MIN_FONT_PT:
            text.set_fontsize(MIN_FONT_PT)
    FigureCanvasAgg(fig)
    fig.savefig(folder / name, dpi=DPI)
    if fig.get_size_inches()[0] > NARROW_WIDTH_IN + 1e-9:
        import warnings

        _narrow(fig)
        (folder / NARROW).mkdir(exist_ok=True)
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            fig.savefig(folder / NARROW / name, dpi=DPI)
        if any("constrained_layout not applied" in str(w.message) for w in said):
            (folder / NARROW / name).unlink()  # too crowded to narrow: the phone scrolls it
    return name


def _narrow(fig: Figure) -> None:
    """Lay ``fig`` out for a phone (module docstring): small multiples (:func:`_grid`) in one
    column, a panel at most NARROW_WIDTH_IN wide; the heights stay."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):  # a title wider than the phone's figure takes two lines
        text.set_wrap(True)
    grid = _GRIDS.get(fig)
    if grid is None:
        fig.set_size_inches(NARROW_WIDTH_IN, fig.get_size_inches()[1])
        return
    axes, count, width, height = grid
    for ax in axes[count:]:  # the hidden cells of the last row
        ax.remove()
    column = fig.add_gridspec(count, 1)
    for i, ax in enumerate(axes[:count]):
        ax.set_subplotspec(column[i, 0])
    fig.set_size_inches(min(width, NARROW_WIDTH_IN), height * count + 0.6)


def _grid(count: int, width: float = 3.2, height: float = 2.6,
          max_cols: int = 5) -> tuple[Figure, list]:
    cols = min(count, max_cols)
    rows = math.ceil(count / cols)
    fig = Figure(figsize=(width * cols, height * rows + 0.6), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel().tolist()
    for ax in axes[count:]:
        ax.set_visible(False)
    if cols > 1:
        _GRIDS[fig] = (axes, count, width, height)
    return fig, axes[:count]


def _errors(df: pd.DataFrame, col: str) -> np.ndarray:
    return np.vstack([df[col] - df[col + "_low"], df[col + "_high"] - df[col]])


def _heatmap(ax, matrix: pd.DataFrame, fmt: str, label: str, fig: Figure) -> None:
    data = matrix.to_numpy(dtype=float)
    im = ax.imshow(np.ma.masked_invalid(data), aspect="auto", cmap="viridis", origin="lower")
    ax.set_xticks(range(matrix.shape[1]), [str(c) for c in matrix.columns])
    ax.set_yticks(range(matrix.shape[0]), [str(i) for i in matrix.index])
    finite = data[np.isfinite(data)]
    mid = (finite.min() + finite.max()) / 2 if finite.size else 0
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            if np.isfinite(data[i, j]):
                ax.text(j, i, format(data[i, j], fmt), ha="center", va="center", fontsize=7,
                        color="black" if data[i, j] > mid else "white")
    fig.colorbar(im, ax=ax, label=label, shrink=0.9)


# --------------------------------------------------------------------------------- seats
def seats_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Bars by seat with error bars; players x seat heatmaps; dealt-ass check."""
    t = result.table("seats")
    counts = sorted(t["players"].unique())
    out = []

    # seats as dots with their intervals around the table's average seat (paired on the
    # same games); every panel on the same scale, centred on zero: nothing is magnified
    span = float(np.nanmax(np.abs(t[["seat_effect_low", "seat_effect_high"]].to_numpy())))
    span = 1.15 * (span if np.isfinite(span) and span > 0 else 1.0)
    fig, axes = _grid(len(counts), width=2.9, height=2.5)
    for ax, n in zip(axes, counts, strict=True):
        part = t[t["players"] == n]
        ax.axhline(0, color=GREY, lw=1)
        ax.errorbar(part["seat"], part["seat_effect"], yerr=_errors(part, "seat_effect"),
                    fmt="o", ms=4, color=BLUE, ecolor=BLUE, elinewidth=1.2, capsize=2)
        ax.set_ylim(-span, span)
        average = float(part["minus_points"].mean())
        ax.set_title(f"{n} players (average seat {average:.1f})", fontsize=9)
        ax.set_xticks(part["seat"])
        ax.set_xlabel(SEAT_AXIS, fontsize=8)
        ax.set_ylabel("vs average seat", fontsize=8)
        ax.tick_params(labelsize=7)
    fig.suptitle("Who's the Ass?: each seat's minus points against the average seat")
    out.append(FigureInfo(_save(fig, folder, "seats_by_seat.png"),
                          "Each seat against the average seat",
                          "A dot is a seat's minus points per game minus the average of all "
                          "seats at its table, on the very same games; whiskers are 95% "
                          "intervals. The grey line is the average seat (its minus points per "
                          "game in each panel's title): a dot above it pays more. Every panel "
                          "has the same scale, centred on the average.",
                          wide=len(counts) > 2))

    for col, fname, title, label in (
        ("minus_points", "seats_heatmap.png", "Expected minus points, players × seat",
         "minus points per game"),
        ("ass_penalty", "seats_ass_penalty.png",
         "Expected ass penalty, players × seat",
         "minus points per game from the ass (20 × chance to end with it)"),
    ):
        matrix = t.pivot(index="players", columns="seat", values=col)
        fig = Figure(figsize=(9, 5), layout="constrained")
        ax = fig.subplots()
        _heatmap(ax, matrix, ".1f", label, fig)
        ax.set_xlabel("seat (0 = first card; the dealer is the last seat)")
        ax.set_ylabel("players")
        ax.set_title("Who's the Ass?: " + title[0].lower() + title[1:])
        out.append(FigureInfo(_save(fig, folder, fname), title,
                              f"Each cell is the mean {label} of one seat at one player count; "
                              "empty cells are seats that do not exist at that count.",
                              extra=True))

    fig = Figure(figsize=(6, 5), layout="constrained")
    ax = fig.subplots()
    ax.errorbar(t["p_dealt_ass_exact"], t["p_dealt_ass"], yerr=_errors(t, "p_dealt_ass"),
                fmt="o", ms=3, color=BLUE, ecolor=GREY, capsize=2, label="simulated, 95% CI")
    lim = [0, float(max(t["p_dealt_ass_high"].max(), t["p_dealt_ass_exact"].max())) * 1.05]
    ax.plot(lim, lim, color=ORANGE, lw=1, label="exact = simulated")
    ax.set_xlabel("exact chance (the ass lies among the first 39 cards, dealt in turn)")
    ax.set_ylabel("simulated chance")
    ax.set_title("Chance to be dealt the ass: simulated vs exact")
    ax.legend(fontsize=8)
    out.append(FigureInfo(_save(fig, folder, "seats_dealt_ass.png"),
                          "Chance to be dealt the ass: simulated against exact",
                          "One point per (player count, seat); points on the orange line agree "
                          "with the exact value that follows from the deal alone (rulings A-2 "
                          "and A-3: the ass is shuffled among the first 39 cards, which are "
                          "dealt one at a time around the table).", appendix=True))
    return out


# -------------------------------------------------------------------------------- jokers
# seats in dealing order (seat 0 gets the first card); A-8: the ass holder starts
SEAT_AXIS = "seat (0 is dealt first; the ass holder starts)"


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


# -------------------------------------------------------------------------------- compare
def compare_unit(manifest: dict) -> str:
    """What one compared unit is: a game, a deal or a match, from the game's description
    (reports/facts.py; a manifest's ``unit`` only for an unknown game or mode)."""
    from reports.facts import unit

    return unit(manifest)


def compare_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Ranking with intervals and a fair-share line, and a heatmap of the differences."""
    rank = result.table("ranking")
    pairs = result.table("pairs")
    metric_col = str(result.manifest.get("metric", "value"))
    metric = metric_words(metric_col)
    rate = is_rate(metric_col)
    scale = 100.0 if rate else 1.0
    better = facts.better(result.manifest)  # the game's direction, not the file's
    unit = compare_unit(result.manifest)
    game = game_title(str(result.manifest.get("game")))
    counts = sorted(rank["players"].unique())
    out = []
    fig, axes = _grid(len(counts), width=5.0, height=1.3 + 0.45 * rank["strategy"].nunique())
    for ax, n in zip(axes, counts, strict=True):
        part = rank[rank["players"] == n].sort_values("rank", ascending=False)
        ax.errorbar(part["mean"] * scale, range(len(part)), xerr=part["half"] * scale, fmt="o",
                    color=BLUE, ecolor=BLUE, capsize=3)
        if metric_col == "won":
            ax.axvline(100.0 / n, color=ORANGE, ls="--", lw=1,
                       label=f"fair share: 1 in {n} = {100 / n:.0f}%")
        else:
            ax.axvline(float(part["mean"].mean()) * scale, color=ORANGE, ls="--", lw=1,
                       label="average of the strategies")
        ax.set_yticks(range(len(part)), part["strategy"], fontsize=8)
        ax.set_ylim(-0.6, len(part) - 0.4)
        if rate:  # a rate's axis starts at 0%: the gaps are not magnified
            ax.set_xlim(0, 1.1 * max(100.0 / n, float(part["high"].max()) * scale))
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel(f"{metric}{' (%)' if rate else ''} per {unit} ({better} is better)",
                      fontsize=8)
        ax.legend(fontsize=7, loc="lower right" if better == "higher" else "lower left")
    fig.suptitle(f"{game}: ranking, every strategy in every seat (95% intervals)", fontsize=10)
    out.append(FigureInfo(_save(fig, folder, "compare_ranking.png"), "Ranking",
                          f"Mean {metric} per {unit} with its 95% interval; best at the top. "
                          "The dashed line is the fair share (what a strategy gets when all "
                          "are equal). Intervals of single means include deal luck; the "
                          "paired differences below do not.", wide=len(counts) > 1))

    fig, axes = _grid(len(counts), width=5.6, height=4.4)
    for ax, n in zip(axes, counts, strict=True):
        part = pairs[pairs["players"] == n]
        names = list(rank[rank["players"] == n].sort_values("rank")["strategy"])
        matrix = pd.DataFrame(np.nan, index=names, columns=names)
        for _, row in part.iterrows():
            matrix.loc[row["a"], row["b"]] = row["difference"] * scale
            matrix.loc[row["b"], row["a"]] = -row["difference"] * scale
        data = matrix.to_numpy(dtype=float)
        span = np.nanmax(np.abs(data)) if np.isfinite(data).any() else 1.0
        im = ax.imshow(np.ma.masked_invalid(data), cmap="RdBu_r" if better == "lower" else "RdBu",
                       vmin=-span, vmax=span)
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
        ax.set_yticks(range(len(names)), names, fontsize=8)
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if i != j:
                    half = _pair_half(part, a, b) * scale
                    dark = abs(data[i, j]) > 0.6 * span
                    ax.text(j, i, interval(data[i, j], half, signed=True).replace(" ± ", "\n± "),
                            ha="center", va="center", fontsize=7,
                            color="white" if dark else "black")
        ax.set_title(f"{n} players: row minus column", fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.8,
                     label=("percentage points" if rate else metric) + f" per {unit}")
    units = "matches" if unit == "match" else unit + "s"
    fig.suptitle(f"Pairwise differences in {metric}, on the same {units}", fontsize=10)
    out.append(FigureInfo(_save(fig, folder, "compare_pairs.png"), "Pairwise differences",
                          f"Each cell is row minus column in {metric}"
                          f"{' (percentage points)' if rate else ''} per {unit}, with its 95% "
                          f"paired interval ({better} is better).", wide=len(counts) > 1))
    return out


def _pair_half(part: pd.DataFrame, a: str, b: str) -> float:
    hit = part[((part["a"] == a) & (part["b"] == b)) | ((part["a"] == b) & (part["b"] == a))]
    return float(hit["half"].iloc[0]) if len(hit) else math.nan


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

"""Figures of study results as stand-alone PNG files (matplotlib's Agg renderer, no pyplot).

Each ``<study>_figures(result, folder)`` function writes that study's figures into ``folder``
and returns a :class:`FigureInfo` per file, with a title and a caption for the HTML report.
Every figure carries its own title and axis labels, so a PNG pasted alone into a slide or a
chat still says what it shows. Error bars and bands are the 95% intervals of the tables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analyzer.studies.results import StudyResult
from analyzer.studies.text import metric_words

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


def _save(fig: Figure, folder: Path, name: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig)
    fig.savefig(folder / name, dpi=DPI)
    return name


def _grid(count: int, width: float = 3.2, height: float = 2.6) -> tuple[Figure, list]:
    cols = min(count, 5)
    rows = math.ceil(count / cols)
    fig = Figure(figsize=(width * cols, height * rows + 0.6), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel().tolist()
    for ax in axes[count:]:
        ax.set_visible(False)
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

    fig, axes = _grid(len(counts))
    for ax, n in zip(axes, counts, strict=True):
        part = t[t["players"] == n]
        ax.bar(part["seat"], part["minus_points"], yerr=_errors(part, "minus_points"),
               color=BLUE, ecolor="black", capsize=2)
        lo = (part["minus_points_low"].min())
        hi = (part["minus_points_high"].max())
        pad = max(hi - lo, 1.0) * 0.3
        ax.set_ylim(lo - pad, hi + pad)  # bars start off zero: the seat differences matter
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel("seat (0 = first card, last = dealer)", fontsize=7)
        ax.set_ylabel("minus points per game", fontsize=7)
        ax.set_xticks(part["seat"])
        ax.tick_params(labelsize=7)
    fig.suptitle("Who's the Ass?: expected minus points by seat (95% intervals)")
    out.append(FigureInfo(_save(fig, folder, "seats_minus_points.png"),
                          "Expected minus points by seat",
                          "One panel per player count; bars are the mean minus points per game "
                          "of each seat, whiskers the 95% interval. The y axis does not start "
                          "at zero, so that the differences between seats show.",
                          wide=len(counts) > 2))

    for col, fname, title, label in (
        ("minus_points", "seats_heatmap.png", "Expected minus points, players x seat",
         "minus points per game"),
        ("ass_penalty", "seats_ass_penalty.png",
         "Expected ass penalty (20 x chance to end with the ass), players x seat",
         "minus points per game from the ass"),
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
                              "empty cells are seats that do not exist at that count."))

    # the seat effect alone (a seat's minus points minus its game's seat average, paired on
    # the same games), so that the seat pattern is not drowned by the player count's effect
    effect = t.pivot(index="players", columns="seat", values="seat_effect")
    fig = Figure(figsize=(9, 5), layout="constrained")
    ax = fig.subplots()
    span = float(np.nanmax(np.abs(effect.to_numpy()))) or 1.0
    im = ax.imshow(np.ma.masked_invalid(effect.to_numpy(dtype=float)), aspect="auto",
                   cmap="RdBu_r", vmin=-span, vmax=span, origin="lower")
    ax.set_xticks(range(effect.shape[1]), [str(c) for c in effect.columns])
    ax.set_yticks(range(effect.shape[0]), [str(i) for i in effect.index])
    half = t.pivot(index="players", columns="seat", values="seat_effect_high") - effect
    for i in range(effect.shape[0]):
        for j in range(effect.shape[1]):
            v = effect.iloc[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:+.2f}\n±{half.iloc[i, j]:.2f}", ha="center", va="center",
                        fontsize=6)
    fig.colorbar(im, ax=ax, label="minus points vs the average seat", shrink=0.9)
    ax.set_xlabel("seat (0 = first card; the dealer is the last seat)")
    ax.set_ylabel("players")
    ax.set_title("Who's the Ass?: seat effect (minus points vs the average seat, ±95%)")
    out.append(FigureInfo(_save(fig, folder, "seats_effect.png"),
                          "Seat effect, players x seat",
                          "Each seat's minus points minus the average of all seats in the same "
                          "game, averaged over games; red seats pay more than average, blue "
                          "seats less. The ± is the 95% interval of that paired difference."))

    fig = Figure(figsize=(6, 5), layout="constrained")
    ax = fig.subplots()
    ax.errorbar(t["p_dealt_ass_exact"], t["p_dealt_ass"], yerr=_errors(t, "p_dealt_ass"),
                fmt="o", ms=3, color=BLUE, ecolor=GREY, capsize=2, label="simulated, 95% CI")
    lim = [0, float(max(t["p_dealt_ass_high"].max(), t["p_dealt_ass_exact"].max())) * 1.05]
    ax.plot(lim, lim, color=ORANGE, lw=1, label="exact = simulated")
    ax.set_xlabel("exact chance |{p in 0..38 : p mod n = s}| / 39")
    ax.set_ylabel("simulated chance")
    ax.set_title("Chance to be dealt the ass: simulated vs exact")
    ax.legend(fontsize=8)
    out.append(FigureInfo(_save(fig, folder, "seats_dealt_ass.png"),
                          "Chance to be dealt the ass: simulated against exact",
                          "One point per (player count, seat); points on the orange line agree "
                          "with the exact value that follows from rulings A-2 and A-3."))
    return out


# -------------------------------------------------------------------------------- jokers
def diff_against(pairs: pd.DataFrame, name: str, ref: str) -> pd.DataFrame:
    """Rows of ``pairs`` giving ``name - ref`` (sign flipped where stored as ref - name)."""
    direct = pairs[(pairs["a"] == name) & (pairs["b"] == ref)]
    flipped = pairs[(pairs["a"] == ref) & (pairs["b"] == name)].copy()
    flipped["difference"] = -flipped["difference"]
    flipped["low"], flipped["high"] = -flipped["high"], -flipped["low"]
    flipped["a"], flipped["b"] = name, ref
    return pd.concat([direct, flipped], ignore_index=True)


def jokers_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """The keep-until sweep as lines with bands, and the named policies as paired bars."""
    pol = result.table("policies")
    pairs = result.table("differences")
    counts = sorted(pol["players"].unique())
    colours = [f"C{i}" for i in range(len(counts))]
    out = []

    sweep = pol[pol["keep"].notna()]
    if len(sweep):
        fig = Figure(figsize=(8, 5), layout="constrained")
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
        ax.set_xlabel("k: jokers are kept until only k cards are left in hand")
        ax.set_ylabel("minus points per game vs using jokers as needed")
        ax.set_title("Keeping jokers until k cards are left (band: 95% paired interval)")
        ax.legend(fontsize=8)
        out.append(FigureInfo(_save(fig, folder, "jokers_sweep.png"),
                              "Keep jokers until k cards are left: the sweep",
                              "Difference in minus points per game against using jokers as "
                              "needed, on the same deals and seats (below 0 is better). The "
                              "band is the 95% interval of the paired difference."))

    named = [s for s in ("hoard", "finish", "dump") if s in set(pol["strategy"])]
    if named and "as-needed" in set(pol["strategy"]):
        fig = Figure(figsize=(8, 1.2 + 0.9 * len(named) * len(counts) / 2), layout="constrained")
        ax = fig.subplots()
        height = 0.8 / len(counts)
        for i, (n, colour) in enumerate(zip(counts, colours, strict=True)):
            d = pd.concat([diff_against(pairs[pairs["players"] == n], s, "as-needed")
                           for s in named], ignore_index=True)
            y = np.arange(len(named)) + i * height
            ax.barh(y, d["difference"], height=height, color=colour, label=f"{n} players",
                    xerr=np.vstack([d["difference"] - d["low"], d["high"] - d["difference"]]),
                    ecolor="black", capsize=2)
        ax.set_yticks(np.arange(len(named)) + 0.4 - height / 2, named)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("minus points per game vs using jokers as needed (lower is better)")
        ax.set_title("Joker policies against 'as needed', same deals and seats (95% CI)")
        ax.legend(fontsize=8)
        out.append(FigureInfo(_save(fig, folder, "jokers_policies.png"),
                              "Named joker policies against using jokers as needed",
                              "Paired differences in minus points per game; bars right of zero "
                              "cost points, bars left of zero save them."))
    return out


# -------------------------------------------------------------------------------- compare
def compare_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Ranking with intervals, and a heatmap of the pairwise differences."""
    rank = result.table("ranking")
    pairs = result.table("pairs")
    metric = metric_words(str(result.manifest.get("metric", "value")))
    better = result.manifest.get("better", "lower")
    counts = sorted(rank["players"].unique())
    out = []
    fig, axes = _grid(len(counts), width=4.2, height=0.6 + 0.45 * rank["strategy"].nunique())
    for ax, n in zip(axes, counts, strict=True):
        part = rank[rank["players"] == n].sort_values("rank", ascending=False)
        ax.errorbar(part["mean"], range(len(part)), xerr=part["half"], fmt="o", color=BLUE,
                    ecolor="black", capsize=3)
        ax.set_yticks(range(len(part)), part["strategy"], fontsize=8)
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel(f"{metric} ({better} is better)", fontsize=8)
    fig.suptitle(f"{result.manifest.get('game')}: ranking in duplicate format (95% CI)")
    out.append(FigureInfo(_save(fig, folder, "compare_ranking.png"), "Ranking",
                          "Mean per deal with its 95% interval; best at the top. Intervals of "
                          "single means include deal luck; the paired differences below do "
                          "not.", wide=len(counts) > 1))

    fig, axes = _grid(len(counts), width=4.6, height=3.6)
    for ax, n in zip(axes, counts, strict=True):
        part = pairs[pairs["players"] == n]
        names = list(rank[rank["players"] == n].sort_values("rank")["strategy"])
        matrix = pd.DataFrame(np.nan, index=names, columns=names)
        for _, row in part.iterrows():
            matrix.loc[row["a"], row["b"]] = row["difference"]
            matrix.loc[row["b"], row["a"]] = -row["difference"]
        data = matrix.to_numpy(dtype=float)
        span = np.nanmax(np.abs(data)) if np.isfinite(data).any() else 1.0
        im = ax.imshow(np.ma.masked_invalid(data), cmap="RdBu_r" if better == "lower" else "RdBu",
                       vmin=-span, vmax=span)
        ax.set_xticks(range(len(names)), names, rotation=45, ha="right", fontsize=7)
        ax.set_yticks(range(len(names)), names, fontsize=7)
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if i != j:
                    half = _pair_half(part, a, b)
                    dark = abs(data[i, j]) > 0.6 * span
                    ax.text(j, i, f"{data[i, j]:+.2f}\n±{half:.2f}", ha="center", va="center",
                            fontsize=6, color="white" if dark else "black")
        ax.set_title(f"{n} players: row minus column", fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.8)
    fig.suptitle(f"Pairwise differences in {metric}, paired on the same deals")
    out.append(FigureInfo(_save(fig, folder, "compare_pairs.png"), "Pairwise differences",
                          f"Each cell is row minus column in {metric} per deal with its 95% "
                          f"paired interval ({better} is better).", wide=len(counts) > 1))
    return out


def _pair_half(part: pd.DataFrame, a: str, b: str) -> float:
    hit = part[((part["a"] == a) & (part["b"] == b)) | ((part["a"] == b) & (part["b"] == a))]
    return float(hit["half"].iloc[0]) if len(hit) else math.nan


# --------------------------------------------------------------------------------- trump
def trump_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Loss of each choice rule by group (bars with error bars), and by longest suit."""
    rules = result.table("rules")
    groups = list(rules.groupby(["players", "ruleset"], sort=True))
    aims = [a for a in ("high", "low", "n/a") if a in set(rules["aim"])]
    out = []
    for col, unit, fname in (("sticks_loss", "sticks", "trump_sticks_loss.png"),
                             ("points_loss", "card points", "trump_points_loss.png")):
        shown = rules[np.isfinite(rules[col].astype(float))]
        if shown.empty:
            continue
        fig, axes = _grid(len(groups), width=4.4, height=3.4)
        for ax, ((players, ruleset), _) in zip(axes, groups, strict=True):
            part = shown[(shown["players"] == players) & (shown["ruleset"] == ruleset)]
            names = list(dict.fromkeys(part["rule"]))
            present = [a for a in aims if a in set(part["aim"])]
            width = 0.8 / max(len(present), 1)
            for i, aim in enumerate(present):
                sub = part[part["aim"] == aim].set_index("rule").reindex(names)
                x = np.arange(len(names)) + i * width
                ax.bar(x, sub[col], width=width, label=f"aims {aim}", color=f"C{i}",
                       yerr=np.vstack([sub[col] - sub[col + "_low"],
                                       sub[col + "_high"] - sub[col]]),
                       ecolor="black", capsize=2)
            ax.set_xticks(np.arange(len(names)) + 0.4 - width / 2, names, rotation=35,
                          ha="right", fontsize=7)
            ax.set_title(f"{players} players, rule set {ruleset}", fontsize=9)
            ax.set_ylabel(f"{unit} lost per decision", fontsize=8)
            ax.legend(fontsize=7)
        fig.suptitle(f"Trump choice: {unit} lost against the best suit in hindsight (95% CI)")
        out.append(FigureInfo(
            _save(fig, folder, fname), f"Trump rules: {unit} lost",
            f"Mean {unit} a chooser loses per trump decision against the best suit in "
            "hindsight, per choice rule and aim; lower is better. 'as-played' is the "
            "strategy's own choice.", wide=len(groups) > 1))

    feats = result.table("features")
    longest = feats[(feats["feature"] == "longest suit")]
    if len(longest):
        # pool the groups weighted by their decisions; hide cells with too few to read
        w = longest.assign(total=longest["sticks_loss"] * longest["decisions"])
        sums = w.groupby(["rule", "value"])[["total", "decisions"]].sum()
        pooled = (sums["total"] / sums["decisions"]).where(sums["decisions"] >= MIN_CELL)
        matrix = pooled.unstack("value")
        matrix = matrix[sorted(matrix.columns, key=int)]
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.subplots()
        _heatmap(ax, matrix, ".2f", "sticks lost per decision", fig)
        ax.set_xlabel("length of the chooser's longest candidate suit")
        ax.set_ylabel("choice rule")
        ax.set_title("Trump choice: sticks lost by the length of the longest suit")
        out.append(FigureInfo(_save(fig, folder, "trump_by_length.png"),
                              "Trump rules by hand: the longest suit",
                              "Mean sticks lost per decision, by rule and by the length of the "
                              "chooser's longest candidate suit (all player counts, rule sets "
                              f"and aims together; cells with fewer than {MIN_CELL} decisions "
                              "are left empty)."))
    return out


FIGURES = {"seats": seats_figures, "jokers": jokers_figures, "compare": compare_figures,
           "trump": trump_figures}


def study_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Write every figure of ``result`` into ``folder``."""
    if result.study in ("ladder", "fields"):
        from reports.ladder import fields_figures, ladder_figures

        return (ladder_figures if result.study == "ladder" else fields_figures)(result, folder)
    make = FIGURES.get(result.study)
    return make(result, folder) if make else []

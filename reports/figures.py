"""Figures of study results as stand-alone PNG files (matplotlib's Agg renderer, no pyplot):
what every study's figures share (the writer, the grid, the colours).

Each study's ``figures(result, folder)`` (its report module, reports/studies/<study>.py)
writes its figures into ``folder`` and returns a :class:`FigureInfo` per file, with a title
and a caption for the HTML report.
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


# -------------------------------------------------------------------------------- jokers
# seats in dealing order (seat 0 gets the first card); A-8: the ass holder starts
SEAT_AXIS = "seat (0 is dealt first; the ass holder starts)"


# -------------------------------------------------------------------------------- compare
def compare_unit(manifest: dict) -> str:
    """What one compared unit is: a game, a deal or a match, from the game's description
    (reports/facts.py; a manifest's ``unit`` only for an unknown game or mode)."""
    from reports.facts import unit

    return unit(manifest)


def _pair_half(part: pd.DataFrame, a: str, b: str) -> float:
    hit = part[((part["a"] == a) & (part["b"] == b)) | ((part["a"] == b) & (part["b"] == a))]
    return float(hit["half"].iloc[0]) if len(hit) else math.nan

"""The fields study's report parts: holding against using jokers, by field."""

from __future__ import annotations

from pathlib import Path

from analyzer.studies.results import StudyResult
from reports.figures import FigureInfo, _grid, _save


def fields_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Holding minus using jokers by player count, one line per field, with 95% intervals."""
    cells = result.table("cells")
    fig, axes = _grid(1, width=5.6, height=3.6)
    ax = axes[0]
    for i, (name, part) in enumerate(cells.groupby("field", sort=False)):
        x = part["players"].to_numpy() + (i - 1.5) * 0.08
        ax.errorbar(x, part["difference"], yerr=part["half"], fmt="o-", capsize=3, label=name)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("players", fontsize=8)
    ax.set_ylabel("hold minus as-needed (minus points)", fontsize=8)
    ax.legend(title="field", fontsize=7)
    fig.suptitle("Who's the Ass?: holding jokers against using them, by field (95% CI)",
                 fontsize=10)
    return [FigureInfo(_save(fig, folder, "fields_jokers.png"), "Holding jokers, by field",
                       "Minus points per game of the field's strategy with jokers=keep minus "
                       "the same with jokers=as-needed, one seat against the field, on the "
                       "same deals (above 0: holding costs).")]


figures = fields_figures

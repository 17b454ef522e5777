"""The best-response study's report parts: the gain of one seat against each field."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.games.registry import title as game_title
from analyzer.studies.results import StudyResult
from analyzer.text import metric_words
from reports import facts
from reports.figures import BLUE, FigureInfo, _grid, _save


def best_response_figures(result: StudyResult, folder: Path) -> list[FigureInfo]:
    """Per game: the best-response gain against each field with its 95% interval."""
    gains = result.table("gains")
    games = list(dict.fromkeys(gains["game"])) if "game" in gains else [""]
    fig, axes = _grid(len(games), width=4.8, height=0.9 + 0.45 * max(
        len(gains[gains["game"] == g]) if g else len(gains) for g in games))
    by_game = result.manifest.get("by_game", {})
    for ax, g in zip(axes, games, strict=True):
        part = gains[gains["game"] == g] if g else gains
        info = {**result.manifest, **by_game.get(g, {})}
        metric = metric_words(str(info.get("metric", "value")))
        verb = "saved" if facts.better(info, g or None) == "lower" else "gained"
        labels = [f"{f} ({int(n)} players)" + (" = own best response" if same else "")
                  for f, n, same in zip(part["field"], part["players"], part["identical"],
                                        strict=True)]
        y = np.arange(len(part))[::-1]
        ax.errorbar(part["gain"], y, xerr=part["half"], fmt="o", color=BLUE, ecolor="black",
                    capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(y, labels, fontsize=7)
        ax.set_title(game_title(str(g or info.get("game"))), fontsize=9)
        ax.set_xlabel(f"{metric} {verb} by one seat (95% CI)", fontsize=8)
    fig.suptitle("Best response: what one seat gains by playing differently, per field",
                 fontsize=10)
    return [FigureInfo(_save(fig, folder, "best_response_gains.png"),
                       "The best-response gain, per field",
                       "For each field (its strategy in every other seat), how much one seat "
                       "gains by playing the strategy tuned against that table instead of the "
                       "field's own, measured on held-out deals with each in every seat; "
                       "95% intervals. A lower bound on how exploitable the table is.",
                       wide=len(games) > 1)]


figures = best_response_figures

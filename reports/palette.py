"""The palette the analysis board (analyzer/board/board.html) and the game viewer
(reports/viewer.py) share: one stylesheet source both pages read, so a seat, a label or a
warning has the same colour in both.

:data:`PALETTE_CSS` is a ``:root`` block of CSS custom properties: the page's ink, muted text,
lines, background, panels, accent, bad and good, the highlight and the graph's cursor mark,
the three labels' colours, and one colour per seat (``--seat0`` .. ``--seat11``, the most
players of a game) that the pages' scripts read for the evaluation graph's lines
(``getComputedStyle(document.documentElement).getPropertyValue('--seat' + s)``).
"""

from __future__ import annotations

SEAT_COLOURS = ("#1f5fae", "#b3261e", "#1e7a3c", "#c05600", "#6a3d9a", "#00838f", "#8d6e00",
                "#ad1457", "#37474f", "#5d4037", "#2e7d32", "#283593")

_BASE = {
    "ink": "#1d232a", "muted": "#5b6570", "line": "#d5dae0", "bg": "#f6f7f9", "card": "#fff",
    "accent": "#1f5fae", "bad": "#b3261e", "good": "#1e7a3c", "hi": "#fff4c2",
    "mark": "#d4b000", "inaccuracy": "#8a6d00", "mistake": "#c05600", "blunder": "#b3261e",
}

PALETTE_CSS = (":root{" + ";".join(f"--{k}:{v}" for k, v in _BASE.items()) + ";"
               + ";".join(f"--seat{s}:{c}" for s, c in enumerate(SEAT_COLOURS)) + "}")

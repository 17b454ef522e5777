"""The self-contained HTML page: one index.html with embedded CSS, relative links only.

No scripts, fonts, styles or images from anywhere else: the report opens offline in any
browser straight from the folder (file://), and the whole folder can be zipped and mailed.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from reports.figures import FigureInfo
from reports.tables import TableView

TITLES = {
    "seats": "Which seat pays? Expected minus points and the ass by seat (Who's the Ass?)",
    "jokers": "Is it worth holding jokers? (Who's the Ass?)",
    "trump": "Which trump rule? Trump choice against the best choice in hindsight "
             "(Plus-Minus Jass)",
    "compare": "Head to head: strategies in duplicate format",
    "ladder": "The ladder: every strategy rated on mixed tables",
    "best-response": "How exploitable is a table? The best-response gain of one seat",
    "fields": "Does the joker answer hold whatever the opponents? (Who's the Ass?)",
}
# Manifest fields shown in the summary list (the full manifest is linked and folded out).
SUMMARY_KEYS = ("game", "mode", "players", "strategies", "field", "games", "deals", "seed",
                "rules", "rules_sets", "metric", "better", "design", "level", "version",
                "created_utc", "elapsed_s")

_NUMBERLIKE = re.compile(r"^[-+−]?[0-9.]")

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1a202c;
background:#f7fafc;line-height:1.45}
main{max-width:1100px;margin:0 auto;padding:1.5rem}
h1{font-size:1.8rem;margin:.2rem 0}h2{font-size:1.35rem;margin-top:0}
nav ul{padding-left:1.2rem}
section{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:1.2rem 1.4rem;
margin:1.5rem 0}
.answer{background:#ebf8ff;border-left:5px solid #2b6cb0;padding:.6rem 1rem;margin:.8rem 0}
.answer p{margin:.35rem 0;font-size:1.05rem}
.more{color:#4a5568}
.figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:1rem}
figure{margin:0}figure.wide{grid-column:1/-1}
figure img{max-width:100%;height:auto;border:1px solid #e2e8f0}
figcaption{font-size:.88rem;color:#4a5568}
.scroll{overflow-x:auto;max-height:28rem;overflow-y:auto;border:1px solid #e2e8f0}
table{border-collapse:collapse;font-size:.85rem;width:100%}
th,td{padding:.25rem .55rem;border-bottom:1px solid #edf2f7;text-align:right;
white-space:nowrap}
th{background:#edf2f7;position:sticky;top:0}
td.t,th.t{text-align:left}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;font-size:.88rem}
dt{font-weight:600}dd{margin:0;word-break:break-word}
pre{font-size:.78rem;background:#f7fafc;padding:.6rem;overflow-x:auto;max-height:24rem}
footer{color:#718096;font-size:.85rem;text-align:center;padding:1rem}
"""


@dataclass(frozen=True)
class SectionContent:
    """Everything one study contributes to the page (paths relative to index.html)."""

    study: str
    headlines: Sequence[str]
    figures: Sequence[FigureInfo]
    figure_dir: str
    tables: Sequence[TableView]
    data_dir: str
    manifest: dict


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _say(text: str) -> str:
    """A headline for the page: escaped, with the terminal's "+/-" shown as "±"."""
    return _e(text.replace("+/-", "±"))


def _is_text(column) -> bool:
    """Left-align words (strategy names); numbers and "12.3 ± 0.4" cells stay right-aligned."""
    if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
        return False
    values = [str(v) for v in column if str(v)]
    return bool(values) and not all(_NUMBERLIKE.match(v) for v in values)


def table_html(view: TableView, data_dir: str) -> str:
    """One readable table with a link to its full CSV."""
    df = view.frame
    text_cols = {c for c in df.columns if _is_text(df[c])}
    head = "".join(f'<th class="{"t" if c in text_cols else ""}">{_e(c)}</th>'
                   for c in df.columns)
    rows = []
    for rec in df.itertuples(index=False):
        cells = "".join(f'<td class="{"t" if c in text_cols else ""}">{_e(v)}</td>'
                        for c, v in zip(df.columns, rec, strict=True))
        rows.append(f"<tr>{cells}</tr>")
    return (f"<h3>{_e(view.title)}</h3>"
            f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            f'<p class="more">Full table: <a href="{_e(data_dir)}/{_e(view.source)}.csv">'
            f"{_e(view.source)}.csv</a></p>")


def manifest_html(manifest: dict, data_dir: str) -> str:
    """The numbers' provenance: key fields as a list, the whole manifest folded out."""
    items = []
    for key in SUMMARY_KEYS:
        if manifest.get(key) not in (None, "", [], {}):
            value = manifest[key]
            shown = value if isinstance(value, str) else json.dumps(value)
            items.append(f"<dt>{_e(key)}</dt><dd>{_e(shown)}</dd>")
    runs = manifest.get("runs") or []
    items.append(f"<dt>runs</dt><dd>{len(runs)} run specs (each: game, players, one strategy "
                 "per seat, seed, mode, rules)</dd>")
    body = json.dumps({k: v for k, v in manifest.items() if k != "headlines"}, indent=2,
                      default=str)
    return (f"<h3>Manifest</h3><dl>{''.join(items)}</dl>"
            f'<p class="more">Same manifest, same numbers: '
            f'<a href="{_e(data_dir)}/manifest.json">manifest.json</a></p>'
            f"<details><summary>Full manifest</summary><pre>{_e(body)}</pre></details>")


def section_html(s: SectionContent) -> str:
    """One study: answer first, then figures, tables and the manifest."""
    top, rest = list(s.headlines[:3]), list(s.headlines[3:])
    answer = "".join(f"<p>{_say(h)}</p>" for h in top)
    more = ("<ul class=\"more\">" + "".join(f"<li>{_say(h)}</li>" for h in rest) + "</ul>"
            if rest else "")
    figs = "".join(
        f'<figure class="{"wide" if f.wide else ""}"><a href="{_e(s.figure_dir)}/{_e(f.file)}">'
        f'<img src="{_e(s.figure_dir)}/{_e(f.file)}" alt="{_e(f.title)}"></a>'
        f"<figcaption><b>{_e(f.title)}.</b> {_e(f.caption)}</figcaption></figure>"
        for f in s.figures)
    tables = "".join(table_html(t, s.data_dir) for t in s.tables)
    return (f'<section id="{_e(s.study)}"><h2>{_e(TITLES.get(s.study, s.study))}</h2>'
            f'<div class="answer">{answer}</div>{more}'
            f'<div class="figs">{figs}</div>{tables}{manifest_html(s.manifest, s.data_dir)}'
            "</section>")


def page_html(sections: Sequence[SectionContent], version: str, created: str) -> str:
    """The whole index.html."""
    toc = "".join(f'<li><a href="#{_e(s.study)}">{_e(TITLES.get(s.study, s.study))}</a></li>'
                  for s in sections)
    body = "".join(section_html(s) for s in sections)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>cardlab report</title><style>{CSS}</style></head><body><main>"
        "<h1>cardlab report</h1>"
        "<p>Monte Carlo answers for Who's the Ass? and Plus-Minus Jass. Every ± is a 95% "
        "interval; differences between strategies are paired on the very same deals. "
        f"Built {_e(created)} by cardlab {_e(version)}.</p>"
        f"<nav><ul>{toc}</ul></nav>{body}"
        "<footer>Generated by <code>cardlab report</code>. Every figure is also a PNG file "
        "of its own in the folder <code>figures</code>, for slides and chat.</footer>"
        "</main></body></html>\n"
    )

"""The report page: one index.html that carries everything it shows.

The figures are embedded as data URIs (the PNG files are also written next to it, for
slides), the CSS and the small script that sorts tables are inline, and nothing is fetched
from anywhere: index.html alone, mailed or opened offline, shows the whole report. Links to
the CSV tables and manifests are extras that work when the folder travels whole.

Reading order: key findings (one verdict per question, with its number), then one section
per study (the answer and its first figure; folded below them the other figures, a sample
game where one shows the finding, the sortable tables, the command that reproduces it, the
manifest), the technical alerts "for statisticians", the strategies' glossary, and an
appendix with the correctness checks; all but the answers starts folded, so a phone shows
the answers first. A figure is never shown below 3/4 of its size (reports.figures sets the
smallest text); a phone gets the figure laid out for its width (small multiples one panel
under the other), so it does not scroll sideways.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from reports.figures import NARROW, FigureInfo
from reports.findings import Alert, Finding
from reports.glossary import Entry
from reports.samples import SampleGame
from reports.tables import TableView

TITLES = {
    "seats": "Which seat pays? Minus points by seat (Who's the Ass?)",
    "jokers": "Is it worth holding jokers? (Who's the Ass?)",
    "trump": "Which suit to fix as trump? (Plus-Minus Jass)",
    "compare": "Head to head: strategies on the same deals",
    "ladder": "The ladder: every strategy rated on mixed tables",
    "best-response": "How exploitable is a table? The best-response gain of one seat",
    "fields": "Does the answer hold whatever the opponents? (across fields)",
}
SHORT = {"seats": "Seats", "jokers": "Jokers", "trump": "Trump choice", "compare": "Head to head",
         "ladder": "Ladder", "best-response": "Best response", "fields": "Across fields"}


def _title(study: str) -> str:
    """A section's title: the report's own wording, else the study's question (registry)."""
    from analyzer.studies import registry

    if study in TITLES:
        return TITLES[study]
    return registry.get(study).question if study in registry.names() else study
# Manifest fields shown in the summary list (the full manifest is folded out below it).
SUMMARY_KEYS = ("game", "mode", "players", "strategies", "field", "games", "deals", "seed",
                "rules", "rules_sets", "metric", "better", "design", "level", "version",
                "created_utc", "elapsed_s")
OPEN_ROWS = 12  # tables with more rows start folded
SHOWN_HEADLINES = 3  # more sentences than this are folded
# A headline that reports a correctness check goes to the appendix, not among the answers.
CHECK_WORDS = ("exact value",)

_NUMBERLIKE = re.compile(r"^[-+−]?[0-9.]")

CSS = """
*{box-sizing:border-box}
html{scroll-behavior:smooth}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1a202c;
background:#f7fafc;line-height:1.5;font-size:16px}
header.top{max-width:1280px;margin:0 auto;padding:1.2rem 1rem .2rem}
h1{font-size:1.7rem;margin:.1rem 0}h2{font-size:1.3rem;margin:0 0 .6rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
.lead{color:#4a5568;margin:.2rem 0 .6rem;max-width:60rem}
.layout{display:grid;grid-template-columns:13rem minmax(0,1fr);gap:1.5rem;max-width:1280px;
margin:0 auto;padding:0 1rem}
nav#toc{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto;
padding:1rem 0;font-size:.92rem}
nav#toc b{display:block;color:#4a5568;margin-bottom:.3rem}
nav#toc ul{list-style:none;margin:0;padding:0}nav#toc li{margin:.25rem 0}
nav#toc a{color:#2b6cb0;text-decoration:none}nav#toc a:hover{text-decoration:underline}
@media (max-width:900px){
 .layout{display:block}
 nav#toc{z-index:5;background:#fff;border-bottom:1px solid #e2e8f0;padding:.45rem .6rem;
 overflow-x:auto;white-space:nowrap;max-height:none;margin:0 -1rem}
 nav#toc b{display:none}
 nav#toc ul{display:flex;gap:1rem}nav#toc li{margin:0}
 section{scroll-margin-top:3rem}
}
main{min-width:0;padding-bottom:2rem}
section{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:1.1rem 1.3rem;
margin:1rem 0}
section.findings{border:2px solid #2b6cb0}
.findings ol{padding-left:1.2rem;margin:.3rem 0}
.findings li{margin:.7rem 0}
.findings details ul{margin:.2rem 0;padding-left:1.1rem}
.findings details li{margin:.25rem 0}
.findings li p{margin:.3rem 0 0}
.findings .q{font-weight:600}
.verdict{font-weight:700;color:#22543d}
.answer{background:#ebf8ff;border-left:5px solid #2b6cb0;padding:.6rem 1rem;margin:.8rem 0}
.answer p{margin:.35rem 0}
.alerts li{margin:.4rem 0}
.alerts .none{color:#276749}
.more{color:#4a5568}
ul.more li{margin:.3rem 0}
.figs{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem;margin:.8rem 0}
figure{margin:0;min-width:0}
.fig-scroll{overflow-x:auto}
figure img{width:max(min(100%,var(--w)),calc(var(--w)*.75));max-width:none;height:auto;
border:1px solid #e2e8f0;display:block}
figure img:not([style]){max-width:100%;width:auto}
figure img[data-narrow]{--w:var(--wide)}
@media (max-width:600px){figure img[data-narrow]{--w:var(--wn)}}
details.deeper>summary,details.why>summary{font-weight:600}
details.deeper{border-top:1px solid #e2e8f0;padding-top:.4rem}
section.stats{border-style:dashed}
@media (max-width:600px){
 .layout{padding:0 .5rem}
 section{padding:.8rem .7rem;margin:.7rem 0}
 h1{font-size:1.35rem}h2{font-size:1.1rem}
}
figcaption{font-size:.88rem;color:#4a5568;margin-top:.3rem}
details{margin:.6rem 0}
summary{cursor:pointer;font-weight:600;color:#2c5282}
details.table>summary{font-size:1rem}
.scroll{overflow:auto;max-height:30rem;border:1px solid #e2e8f0;margin:.4rem 0}
.scroll-x{overflow-x:auto;margin:.4rem 0}
table{border-collapse:collapse;font-size:.85rem;width:100%}
th,td{padding:.25rem .55rem;border-bottom:1px solid #edf2f7;text-align:right;white-space:nowrap}
th{background:#edf2f7;position:sticky;top:0}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th::after{content:" \\2195";color:#a0aec0;font-size:.8em}
table.sortable th[aria-sort=ascending]::after{content:" \\2191";color:#2b6cb0}
table.sortable th[aria-sort=descending]::after{content:" \\2193";color:#2b6cb0}
td.t,th.t{text-align:left}
table.game{width:auto;font-size:.82rem}
table.game th{position:static;text-align:left;vertical-align:top}
table.game td{text-align:left;white-space:normal;min-width:5.5rem;vertical-align:top}
table.game td.lead{outline:2px solid #4a5568;outline-offset:-2px}
table.game td.win{background:#fefcbf}
table.game tr.assr th{color:#c53030}
table.game tr.dealt td,table.game tr.end td{background:#f7fafc}
table.game .focus{background:#ebf8ff}
table.game small{color:#4a5568}
.c{display:inline-block;min-width:1.6em;padding:.05em .25em;margin:.08em;border:1px solid #a0aec0;
border-radius:4px;background:#fff;font-weight:600;text-align:center;font-size:.85rem;
line-height:1.3}
.c.j{background:#e9d8fd;border-color:#805ad5;color:#44337a}
.c.a{background:#fed7d7;border-color:#c53030;color:#9b2c2c}
.c.sB{color:#975a16;border-color:#d69e2e}.c.sS{color:#1a202c;border-color:#4a5568}
.c.sR{color:#c53030;border-color:#fc8181}.c.sA{color:#276749;border-color:#68d391}
.c.fix{box-shadow:0 0 0 2px #d69e2e}
.pass,.none{color:#a0aec0;font-style:italic}
.legend{font-size:.85rem;color:#4a5568}
pre{font-size:.8rem;background:#f7fafc;padding:.6rem;overflow-x:auto;max-height:24rem;
border:1px solid #e2e8f0;border-radius:4px}
pre.cmd{white-space:pre-wrap;overflow-wrap:anywhere;max-height:none}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.15rem 1rem;font-size:.88rem}
dt{font-weight:600}dd{margin:0;word-break:break-word}
.gloss td{white-space:normal;text-align:left;vertical-align:top}
.gloss td:first-child,.gloss td:nth-child(2){white-space:nowrap;font-weight:600}
.gloss td:nth-child(2){font-weight:400}
footer{color:#718096;font-size:.85rem;text-align:center;padding:1rem}
"""

# Click a column header to sort by it (numbers by value, "12.3 ± 0.4" by 12.3); again to
# reverse. No library, works offline.
SCRIPT = """
(function () {
  function key(cell) {
    var s = cell.textContent.trim();
    var m = s.replace(/,/g, '').replace('\\u2212', '-').match(/^[-+]?[0-9]*\\.?[0-9]+/);
    return m ? parseFloat(m[0]) : s.toLowerCase();
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable th'), function (th) {
    th.addEventListener('click', function () {
      var row = th.parentNode, table = th.closest('table'), body = table.tBodies[0];
      var i = Array.prototype.indexOf.call(row.children, th);
      var up = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(row.children, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a.cells[i]), y = key(b.cells[i]);
        var r = (typeof x === 'number' && typeof y === 'number') ? x - y
              : String(x).localeCompare(String(y));
        return up ? r : -r;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
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
    images: dict[str, bytes] = field(default_factory=dict)  # figure file -> PNG bytes
    finding: Finding | None = None
    sample: SampleGame | None = None
    reproduce: Sequence[str] = ()


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _say(text: str) -> str:
    """A headline for the page: escaped, with any "+/-" shown as "±"."""
    return _e(text.replace("+/-", "±"))


def data_uri(png: bytes) -> str:
    """A PNG as a data: URI, so that the page carries its own images."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _is_text(column) -> bool:
    """Left-align words (strategy names); numbers and "12.3 ± 0.4" cells stay right-aligned."""
    if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
        return False
    values = [str(v) for v in column if str(v)]
    return bool(values) and not all(_NUMBERLIKE.match(v) for v in values)


def table_html(view: TableView, data_dir: str) -> str:
    """One sortable table, folded when long, with a link to its full CSV."""
    df = view.frame
    text_cols = {c for c in df.columns if _is_text(df[c])}
    head = "".join(f'<th class="{"t" if c in text_cols else ""}" title="sort">{_e(c)}</th>'
                   for c in df.columns)
    rows = []
    for rec in df.itertuples(index=False):
        cells = "".join(f'<td class="{"t" if c in text_cols else ""}">{_e(v)}</td>'
                        for c, v in zip(df.columns, rec, strict=True))
        rows.append(f"<tr>{cells}</tr>")
    opened = " open" if len(df) <= OPEN_ROWS else ""
    return (f'<details class="table"{opened}><summary>{_e(view.title)} '
            f'<span class="more">({len(df):,} rows; click a column to sort)</span></summary>'
            f'<div class="scroll"><table class="sortable"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            f'<p class="more">Full table: <a href="{_e(data_dir)}/{_e(view.source)}.csv">'
            f"{_e(view.source)}.csv</a></p></details>")


def manifest_html(manifest: dict, data_dir: str) -> str:
    """The numbers' provenance: key fields as a list, the whole manifest folded out."""
    items = []
    for key in SUMMARY_KEYS:
        if manifest.get(key) not in (None, "", [], {}):
            value = manifest[key]
            if isinstance(value, bool) or not isinstance(value, int) or key == "seed":
                shown = value if isinstance(value, str) else json.dumps(value)
            else:
                shown = f"{value:,}"  # 50,000 games, as everywhere else
            if key == "games" and (manifest.get("sequential") or {}).get("until_sure"):
                shown += " (the budget per player count: --until-sure may stop sooner)"
            items.append(f"<dt>{_e(key)}</dt><dd>{_e(shown)}</dd>")
    runs = manifest.get("runs") or []
    items.append(f"<dt>runs</dt><dd>{len(runs)} run specs (each: game, players, one strategy "
                 "per seat, seed, mode, rules)</dd>")
    body = json.dumps({k: v for k, v in manifest.items() if k not in ("headlines", "claims")},
                      indent=2, default=str)
    return (f"<details><summary>Manifest: where these numbers come from</summary>"
            f"<dl>{''.join(items)}</dl>"
            f'<p class="more">Same manifest, same numbers: '
            f'<a href="{_e(data_dir)}/manifest.json">manifest.json</a></p>'
            f"<details><summary>Full manifest</summary><pre>{_e(body)}</pre></details>"
            "</details>")


def png_width(png: bytes) -> int | None:
    """A PNG's width in pixels (its IHDR), or None for bytes that are no PNG."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(png[16:20], "big")


PHONE = "(max-width:600px)"  # the screens that get a figure's phone variant (as the CSS)


def figure_html(f: FigureInfo, s: SectionContent) -> str:
    """A figure embedded in the page, with a link to its PNG file for slides. It is shown at
    its own size where it fits, and never below 3/4 of it (a narrower screen scrolls the
    figure sideways inside its box, not the page): figures.MIN_FONT_PT then reads as 9
    pixels or more. A figure with a phone variant (figures.NARROW: small multiples one
    under the other) shows that on a screen of 600 pixels or less, so it need not scroll."""
    png = s.images.get(f.file)
    src = data_uri(png) if png is not None else f"{s.figure_dir}/{f.file}"
    width = png_width(png) if png is not None else None
    size = f' style="--w:{width}px"' if width else ""
    img = f'<img src="{_e(src)}" alt="{_e(f.title)}"{size}>'
    narrow = s.images.get(f"{NARROW}/{f.file}")  # laid out for a phone (reports.figures)
    if width and narrow is not None and png_width(narrow):
        img = (f'<picture><source media="{PHONE}" srcset="{_e(data_uri(narrow))}">'
               f'<img src="{_e(src)}" alt="{_e(f.title)}" data-narrow '
               f'style="--wide:{width}px;--wn:{png_width(narrow)}px"></picture>')
    return (f'<figure class="{"wide" if f.wide else ""}">'
            f'<div class="fig-scroll">{img}</div>'
            f"<figcaption><b>{_e(f.title)}.</b> {_e(f.caption)} "
            f'<a href="{_e(s.figure_dir)}/{_e(f.file)}">PNG</a></figcaption></figure>')


def sample_html(g: SampleGame) -> str:
    """The sample game: why it was picked, the cards, and the command that replays it."""
    viewer = (f'<p class="more"><a class="viewer" href="{_e(g.page)}">Step through this game '
              "in the game viewer</a> (a page beside this report, every hand shown; arrow "
              "keys step).</p>" if g.page else "")
    return (f'<div class="sample"><h3>{_e(g.title)}</h3><p>{_e(g.caption)}</p>{g.html}'
            f'{viewer}<p class="more">Replay it card by card in a terminal (or add '
            f'<code>--html FILE</code> for the viewer page):</p>'
            f'<pre class="cmd">{_e(g.command)}</pre></div>')


def _is_check(headline: str) -> bool:
    return any(w in headline for w in CHECK_WORDS)


FOLD_DETAIL = 240  # an answer's detail longer than this (characters) folds under its verdict


def section_html(s: SectionContent) -> str:
    """One study: the answer and its first figure; everything else (more figures, the sample
    game, the tables, how to reproduce, the manifest) folded below them."""
    lines = [h for h in s.headlines if not _is_check(h)]
    if s.finding is not None:  # the verdict answers; the study's sentences fold out below
        detail = s.finding.detail
        if len(detail) > FOLD_DETAIL:
            answer = (f'<p><span class="verdict">{_e(s.finding.verdict)}</span></p>'
                      f'<details class="why"><summary>The answer in numbers</summary>'
                      f"<p>{_e(detail)}</p></details>")
        else:
            answer = (f'<p><span class="verdict">{_e(s.finding.verdict)}</span> '
                      f"{_e(detail)}</p>")
        folded = lines
    else:
        answer = "".join(f"<p>{_say(h)}</p>" for h in lines[:SHOWN_HEADLINES])
        folded = lines[SHOWN_HEADLINES:]
    more = ""
    if folded:
        more = (f"<details><summary>{'All' if s.finding else 'More'} findings of this study "
                f"({len(folded)})</summary><ul class=\"more\">"
                + "".join(f"<li>{_say(h)}</li>" for h in folded) + "</ul></details>")
    main = [f for f in s.figures if not f.appendix and not f.extra]
    first = figure_html(main[0], s) if main else ""
    rest = "".join(figure_html(f, s) for f in main[1:])
    extra = [f for f in s.figures if f.extra and not f.appendix]
    if extra:
        figs_more = (f"<details><summary>More figures ({len(extra)})</summary>"
                     f'<div class="figs">{"".join(figure_html(f, s) for f in extra)}</div>'
                     "</details>")
    else:
        figs_more = ""
    tables = [t for t in s.tables if not t.appendix]
    sample = sample_html(s.sample) if s.sample is not None else ""
    repro = ""
    if s.reproduce:
        repro = ('<h3>Reproduce this section</h3><p class="more">The same seed and budget give '
                 "the very same numbers, on any number of workers:</p>"
                 f'<pre class="cmd">{_e(chr(10).join(s.reproduce))}</pre>')
    count = max(len(main) - 1, 0) + len(extra)
    names = [f"{count} more figure" + ("s" if count > 1 else "")] if count else []
    names += ["a sample game"] if sample else []
    names += [f"{len(tables)} table" + ("s" if len(tables) != 1 else "")] if tables else []
    names += ["how to reproduce"] if repro else []
    names += ["the manifest"]
    deeper = (f'<details class="deeper"><summary>More: {_e(", ".join(names))}</summary>'
              f'<div class="figs">{rest}</div>{figs_more}{sample}'
              f"{''.join(table_html(t, s.data_dir) for t in tables)}{repro}"
              f"{manifest_html(s.manifest, s.data_dir)}</details>")
    return (f'<section id="{_e(s.study)}"><h2>{_e(_title(s.study))}</h2>'
            f'<div class="answer">{answer}</div>{more}'
            f'<div class="figs">{first}</div>{deeper}</section>')


def _finding_body(f: Finding) -> str:
    """The first claim in plain words; the others, one per line, folded below it (each a
    sentence for its own cells); what the finding says beyond its claims after them."""
    sentences = [c.sentence for c in f.claims]
    if len(sentences) < 2:
        return _e(f.detail)
    rest = f.detail
    for sentence in sentences:
        rest = rest.replace(sentence, "")
    rest = " ".join(rest.split())
    more = "".join(f"<li>{_e(x)}</li>" for x in sentences[1:])
    return (f"{_e(sentences[0])}<details><summary>{len(sentences) - 1} more, cell by cell"
            f"</summary><ul>{more}</ul>" + (f"<p>{_e(rest)}</p>" if rest else "")
            + "</details>")


def _decision_html(f: Finding) -> str:
    """The trump decision table of the first screen ("" without trump claims)."""
    from reports.studies.trump import trump_decision_table

    df = trump_decision_table(f.claims)
    if df.empty:
        return ""
    head = "".join(f"<th>{_e(c)}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(f"<td>{_e(v)}</td>" for v in rec) + "</tr>"
                   for rec in df.itertuples(index=False))
    return (f'<div class="scroll"><table class="decision"><thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table></div>")


def findings_html(sections: Sequence[SectionContent]) -> str:
    """The first screen: one verdict per question, each linking to its section."""
    items = []
    for s in sections:
        f = s.finding
        if f is None:
            continue
        table = _decision_html(f) if f.study == "trump" else ""
        # the trump decision table is the answer a player reads at the table: on the first
        # screen; the sentences cell by cell fold under it
        body = (f"{table}<details><summary>The answer cell by cell</summary>"
                f"<p>{_finding_body(f)}</p></details>" if table else _finding_body(f))
        items.append(f'<li><a class="q" href="#{_e(s.study)}">{_e(f.question)}</a><br>'
                     f'<span class="verdict">{_e(f.verdict)}</span> {body}</li>')
    return ('<section id="findings" class="findings"><h2>Key findings</h2>'
            f"<ol>{''.join(items)}</ol>"
            '<p class="more">Every ± is a 95% interval. Strategies are compared on the very '
            "same deals, each in every seat, so that luck cancels in their differences.</p>"
            "</section>")


def alerts_html(alerts: Sequence[Alert]) -> str:
    """The technical alerts, for statisticians: below the answers, folded; says so when
    there is nothing."""
    if not alerts:
        body = ('<p class="none">No alerts: every check passed and pairing narrowed every '
                "interval it was used for.</p>")
        count = "none"
    else:
        body = "<ul>" + "".join(
            f'<li><a href="#{_e(a.study)}">{_e(SHORT.get(a.study, a.study))}</a>: '
            f"{_e(a.text)}</li>" for a in alerts) + "</ul>"
        count = f"{len(alerts)}"
    return ('<section id="alerts" class="alerts stats"><h2>For statisticians</h2>'
            '<p class="more">How far to trust the numbers above, in the statistician\'s '
            "terms: budgets spent, pairing that did not narrow an interval, checks. The "
            "answers above already account for them.</p>"
            f"<details><summary>Technical alerts ({count})</summary>{body}</details>"
            "</section>")


def glossary_html(entries: Sequence[Entry]) -> str:
    """Every strategy the report names: what it does and what it sets."""
    rows = "".join(f"<tr><td>{_e(e.name)}</td><td>{_e(e.game)}</td><td>{_e(e.description)}"
                   f"</td><td>{_e(e.settings)}</td></tr>" for e in entries)
    return ('<section id="glossary"><h2>Strategies named in this report</h2>'
            '<p class="more">Type a name after <code>--strategy</code> to play it; '
            "<code>cardlab strategies NAME</code> shows every knob.</p>"
            f"<details><summary>Every strategy ({len(entries)})</summary>"
            '<div class="scroll-x"><table class="gloss"><thead><tr><th class="t">name</th>'
            '<th class="t">game</th><th class="t">what it does</th><th class="t">settings</th>'
            f"</tr></thead><tbody>{rows}</tbody></table></div></details></section>")


def appendix_html(sections: Sequence[SectionContent]) -> str:
    """Correctness checks: simulated values against exact ones."""
    parts = []
    for s in sections:
        figs = "".join(figure_html(f, s) for f in s.figures if f.appendix)
        tables = "".join(table_html(t, s.data_dir) for t in s.tables if t.appendix)
        lines = "".join(f"<p>{_say(h)}</p>" for h in s.headlines if _is_check(h))
        if figs or tables or lines:
            parts.append(f"<h3>{_e(_title(s.study))}</h3>{lines}"
                         f'<div class="figs">{figs}</div>{tables}')
    body = "".join(parts) or '<p class="more">No correctness checks in these studies.</p>'
    return ('<section id="appendix"><h2>Appendix: correctness checks</h2>'
            '<p class="more">Numbers the simulation must reproduce exactly, because they '
            "follow from the rules alone.</p>"
            f"<details><summary>The checks</summary>{body}</details></section>")


def page_html(sections: Sequence[SectionContent], version: str, created: str,
              alerts: Sequence[Alert] = (), glossary: Sequence[Entry] = ()) -> str:
    """The whole index.html."""
    toc = [("findings", "Key findings")]
    toc += [(s.study, SHORT.get(s.study, s.study)) for s in sections]
    toc += [("alerts", "For statisticians"), ("glossary", "Strategies"),
            ("appendix", "Appendix: checks")]
    nav = "".join(f'<li><a href="#{_e(a)}">{_e(t)}</a></li>' for a, t in toc)
    body = "".join(section_html(s) for s in sections)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>cardlab report</title><style>{CSS}</style></head><body>"
        '<header class="top"><h1>cardlab report</h1>'
        '<p class="lead">Monte Carlo answers for Who\'s the Ass? and Plus-Minus Jass, from '
        f"{len(sections)} stud{'y' if len(sections) == 1 else 'ies'}. Start with the key "
        f"findings. Built {_e(created)} by cardlab {_e(version)}.</p></header>"
        f'<div class="layout"><nav id="toc"><b>Contents</b><ul>{nav}</ul></nav><main>'
        f"{findings_html(sections)}{body}{alerts_html(alerts)}{glossary_html(glossary)}"
        f"{appendix_html(sections)}</main></div>"
        "<footer>Generated by <code>cardlab report</code>. This page carries its figures; "
        "each is also a PNG file of its own in the folder <code>figures</code>, for slides "
        f"and chat.</footer><script>{SCRIPT}</script></body></html>\n"
    )

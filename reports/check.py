"""Check a report as a person would see it: every link stays inside its folder, every image loads.

Two checks:

* :func:`link_problems` parses index.html and lists every reference (``src``, ``href``,
  CSS ``url(...)``) that points outside the report folder (a scheme such as http:, an
  absolute path, ``..``) or at a file that does not exist, and every ``#anchor`` without a
  matching id. Images embedded as ``data:image/png;base64,`` are part of the page.
* :func:`browser_check` opens a copy of the page in headless Chromium with a small script
  appended that, once the page has loaded, records how many images loaded (``naturalWidth``
  > 0) and the resources the browser fetched over the network (Resource Timing lists those;
  reads of local files are not listed, so for a self-contained report the list is empty),
  and reads that back from ``--dump-dom``, together with the layout facts a reader would
  notice: table-of-contents links that lead nowhere, sideways scrolling at the given width,
  missing key findings or sample games. The report's own script (it sorts tables) is left
  as it is; the probe is added to a copy only.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
EMBEDDED = "data:image/png;base64,"
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
_PROBE = """
<script>
window.addEventListener('load', function () {
  var root = document.documentElement;
  var height = Math.max(root.scrollHeight, document.body.scrollHeight);  // as it opens
  Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) {
    d.open = true; });  // then everything unfolded: what a reader can reach
  var full = Math.max(root.scrollHeight, document.body.scrollHeight);
  var imgs = Array.prototype.slice.call(document.images);
  var scale = imgs.filter(function (i) { return i.naturalWidth > 0; })
    .map(function (i) { return i.getBoundingClientRect().width / i.naturalWidth; });
  var broken = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                   .map(function (i) { return i.getAttribute('src'); });
  var embedded = imgs.filter(function (i) {
    return (i.getAttribute('src') || '').indexOf('data:image/png;base64,') === 0; }).length;
  var fetched = performance.getEntriesByType('resource').map(function (e) { return e.name; });
  var toc = Array.prototype.slice.call(document.querySelectorAll('nav#toc a'));
  var unresolved = toc.map(function (a) { return a.getAttribute('href'); })
    .filter(function (h) { return !(h && h.charAt(0) === '#' &&
                                     document.getElementById(h.slice(1))); });
  var samples = Array.prototype.slice.call(document.querySelectorAll('table.game'))
    .filter(function (t) { return t.offsetHeight > 50 && t.querySelectorAll('.c').length > 10; });
  var out = document.createElement('pre');
  out.id = 'cardlab-probe';
  out.textContent = JSON.stringify({
    images: imgs.length, broken: broken, fetched: fetched, page: location.href,
    embedded: embedded, toc: toc.length, unresolved: unresolved,
    findings: document.querySelectorAll('#findings > ol > li').length,
    samples: samples.length, width: window.innerWidth,
    height: height, full: full, scale: scale.length ? Math.min.apply(null, scale) : 0,
    sideways: Array.prototype.filter.call(document.querySelectorAll('.fig-scroll'),
      function (d) { return d.scrollWidth > d.clientWidth + 1; }).length,
    overflow: Math.max(root.scrollWidth, document.body.scrollWidth) - window.innerWidth});
  document.body.appendChild(out);
  if (parent !== window) { parent.postMessage(out.textContent, '*'); }
});
</script>
"""


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if value is None:
                continue
            if key in ("src", "href", "srcset", "poster", "data", "action"):
                self.refs.append(value)
            elif key == "style":
                self.refs.extend(_CSS_URL.findall(value))
            elif key == "id":
                self.ids.add(value)
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.refs.extend(_CSS_URL.findall(data))


def page_references(index: Path) -> tuple[list[str], set[str]]:
    """Every reference in the page and every element id."""
    parser = _Refs()
    parser.feed(index.read_text(encoding="utf-8"))
    return parser.refs, parser.ids


def link_problems(folder: str | Path) -> list[str]:
    """What in ``folder``/index.html refers outside the folder or to a missing file."""
    folder = Path(folder).resolve()
    index = folder / "index.html"
    if not index.is_file():
        return [f"no index.html in {folder}"]
    refs, ids = page_references(index)
    problems = []
    for ref in refs:
        parts = urlsplit(ref)
        if parts.scheme == "data" and ref.startswith(EMBEDDED):
            continue  # an image the page carries itself
        if parts.scheme or parts.netloc:
            problems.append(f"{ref}: refers outside the folder (scheme or host)")
            continue
        if not parts.path:
            if parts.fragment and parts.fragment not in ids:
                problems.append(f"{ref}: no element with id {parts.fragment!r}")
            continue
        if parts.path.startswith("/"):
            problems.append(f"{ref}: absolute path")
            continue
        target = (folder / unquote(parts.path)).resolve()
        if folder not in target.parents:
            problems.append(f"{ref}: leaves the report folder")
        elif not target.is_file():
            problems.append(f"{ref}: file does not exist")
    return problems


def find_chromium() -> str | None:
    """The first Chromium-family browser on PATH, or None."""
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass(frozen=True)
class BrowserResult:
    """What the browser saw: images on the page, those that failed, every URL fetched, and
    the layout: table-of-contents links without a target, key findings and sample games
    drawn, how many pixels the page is wider than the window (0: no sideways scroll), its
    height folded and unfolded, the smallest scale an image is shown at, and how many
    figures scroll sideways inside their box (``sideways``)."""

    images: int
    broken: list[str]
    fetched: list[str]
    page: str
    embedded: int = 0
    toc: int = 0
    unresolved: list[str] = field(default_factory=list)
    findings: int = 0
    samples: int = 0
    width: int = 0
    overflow: int = 0
    height: int = 0
    full: int = 0
    scale: float = 0.0
    sideways: int = 0

    def outside(self, folder: str | Path) -> list[str]:
        """Fetched URLs that are not files inside ``folder``."""
        root = Path(folder).resolve()
        bad = []
        for url in self.fetched:
            parts = urlsplit(url)
            path = Path(unquote(parts.path)).resolve() if parts.scheme == "file" else None
            if path is None or root not in path.parents:
                bad.append(url)
        return bad


def browser_check(folder: str | Path, chromium: str | None = None,
                  timeout: float = 90.0, width: int = 1280) -> BrowserResult:
    """Open ``folder``/index.html in headless Chromium, ``width`` pixels wide, and report
    what loaded and how it was laid out (``height``: the page's height in pixels as it
    opens, its ``<details>`` folded; then every ``<details>`` is opened: ``full``, the height
    unfolded, and ``scale``, the smallest ratio of an image's shown width to its own; the
    other counts are taken unfolded too). Below 500 pixels (a phone; a browser window
    is at least 500 wide) the page is opened in a frame of that width.

    Raises RuntimeError when no browser is found or the page gives no answer.
    """
    folder = Path(folder).resolve()
    chromium = chromium or find_chromium()
    if chromium is None:
        raise RuntimeError("no Chromium found (Debian: apt-get install -y chromium)")
    page = (folder / "index.html").read_text(encoding="utf-8")
    probe = folder / "_cardlab_check.html"  # same folder, so relative links resolve the same
    probe.write_text(page.replace("</body>", _PROBE + "</body>", 1), encoding="utf-8")
    host = folder / "_cardlab_host.html"
    opened = probe
    if width < 500:
        host.write_text(_VIEWER_HOST.replace("viewer.html__FRAGMENT__", probe.name)
                        .replace("__W__", str(int(width))), encoding="utf-8")
        opened = host
    try:
        with tempfile.TemporaryDirectory(prefix="cardlab-chromium-") as profile:
            proc = subprocess.run(
                [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                 f"--window-size={width if width >= 500 else 540},1000",
                 "--allow-file-access-from-files",
                 "--virtual-time-budget=10000", "--dump-dom", opened.as_uri()],
                capture_output=True, text=True, timeout=timeout, check=False,
            )
    finally:
        probe.unlink(missing_ok=True)
        host.unlink(missing_ok=True)
    found = re.search(r'<pre id="cardlab-probe">(.*?)</pre>', proc.stdout, re.S)
    if not found:
        tail = proc.stderr.strip().splitlines()[-3:]
        raise RuntimeError(f"the browser returned no probe result (exit {proc.returncode}): "
                           + " | ".join(tail))
    import html

    data = json.loads(html.unescape(found.group(1)))
    return BrowserResult(
        int(data["images"]), list(data["broken"]), list(data["fetched"]), str(data["page"]),
        int(data["embedded"]), int(data["toc"]), list(data["unresolved"]),
        int(data["findings"]), int(data["samples"]), int(data["width"]), int(data["overflow"]),
        int(data["height"]), int(data["full"]), float(data["scale"]), int(data["sideways"]))


# ------------------------------------------------------------------------ the game viewer
_CATCH = """<script>
window.__cardlabErrors = [];
window.addEventListener('error', function (e) {
  window.__cardlabErrors.push(String(e.message || e.type)); }, true);
(function () {
  var original = console.error;
  console.error = function () {
    window.__cardlabErrors.push(Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
}());
</script>"""
_VIEWER_PROBE = """
<script>
window.addEventListener('load', function () {
  function shown() {
    return ['count', 'where', 'text', 'table', 'seats', 'note'].map(function (id) {
      var e = document.getElementById(id); return e ? e.textContent : ''; }).join('|');
  }
  function key(k) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
  }
  var start = document.getElementById('count').textContent;
  var seen = [];
  var counts = [];
  function note() { seen.push(shown());
                    counts.push(document.getElementById('count').textContent); }
  note();
  document.getElementById('next').click(); note();
  key('ArrowRight'); note();
  key('ArrowLeft'); note();
  key('End'); note();
  document.getElementById('prev').click(); note();
  key('Home'); note();
  var root = document.documentElement;
  var out = document.createElement('pre');
  out.id = 'cardlab-probe';
  out.textContent = JSON.stringify({
    shown: seen, counts: counts, start: start, hash: location.hash,
    errors: window.__cardlabErrors,
    fetched: performance.getEntriesByType('resource').map(function (e) { return e.name; }),
    all_hands: (document.getElementById('all') || {}).textContent || '',
    seats: document.querySelectorAll('#seats .seat').length,
    cards: document.querySelectorAll('#seats .c').length,
    bars: document.querySelectorAll('.bar').length,
    graph: document.querySelectorAll('#graph polyline').length,
    graph_points: Array.prototype.map.call(document.querySelectorAll('#graph polyline'),
      function (l) { return l.getAttribute('points').trim().split(' ').length; }),
    jumps: Array.prototype.map.call(document.querySelectorAll('#mistakes .jump'),
                                    function (b) { return b.textContent; }),
    jumped: (function () {
      var b = document.querySelector('#mistakes .jump');
      if (!b) { return ''; }
      b.click();
      return document.getElementById('count').textContent + '|' + location.hash;
    }()),
    summary: Array.prototype.map.call(document.querySelectorAll('#mistakes .seat-sum > p'),
                                      function (p) { return p.textContent; }),
    width: window.innerWidth,
    overflow: Math.max(root.scrollWidth, document.body.scrollWidth) - window.innerWidth});
  parent.postMessage(out.textContent, '*');
});
</script>
"""
# The page is opened in a frame of the width asked for (a browser window is at least 500
# pixels wide); the probe inside it posts its answer to this host page, whose DOM is dumped.
_VIEWER_HOST = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="viewer.html__FRAGMENT__" style="width:__W__px;height:900px;border:0"></iframe>
<script>
window.addEventListener('message', function (e) {
  var out = document.createElement('pre');
  out.id = 'cardlab-probe';
  out.textContent = e.data;
  document.body.appendChild(out);
});
</script></body></html>"""


@dataclass(frozen=True)
class ViewerResult:
    """What the browser saw of a viewer page: what was shown after each of the probe's
    steps (start, next button, right arrow, left arrow, End, back button, Home) and the step
    counter then, script errors and console errors, URLs fetched, seats and cards drawn,
    annotation bars shown at the start, the window width and the sideways overflow; with
    annotations, the evaluation graph's lines (one a seat), the mistake buttons, the step
    counter and the address's fragment after clicking the first of them, the seats'
    summaries, and the fragment after the probe's steps (``hash``); the number of points of
    each of the graph's lines at the first step (``graph_points``). ``start`` is the step
    counter as the page opened (at ``fragment``, when one is given)."""

    shown: list[str]
    counts: list[str]
    errors: list[str]
    fetched: list[str]
    all_hands: str
    seats: int
    cards: int
    bars: int
    width: int
    overflow: int
    start: str = ""
    graph: int = 0
    jumps: list[str] = field(default_factory=list)
    jumped: str = ""
    summary: list[str] = field(default_factory=list)
    hash: str = ""
    graph_points: list[int] = field(default_factory=list)


def viewer_check(page: str | Path, chromium: str | None = None, width: int = 1280,
                 timeout: float = 90.0, fragment: str = "") -> ViewerResult:
    """Open a copy of the viewer page ``page``, alone in an empty folder, in headless
    Chromium, in a frame ``width`` pixels wide; step through it with its buttons and the
    keyboard and report what it showed (see ViewerResult). The page itself is left as it is."""
    chromium = chromium or find_chromium()
    if chromium is None:
        raise RuntimeError("no Chromium found (Debian: apt-get install -y chromium)")
    text = Path(page).read_text(encoding="utf-8")
    text = text.replace("<head>", "<head>" + _CATCH, 1)
    text = text.replace("</body>", _VIEWER_PROBE + "</body>", 1)
    with tempfile.TemporaryDirectory(prefix="cardlab-viewer-") as tmp:
        copy = Path(tmp) / "viewer.html"
        copy.write_text(text, encoding="utf-8")
        host = Path(tmp) / "host.html"
        frag = "#" + quote(fragment.lstrip("#")) if fragment else ""
        host.write_text(_VIEWER_HOST.replace("__W__", str(int(width)))
                        .replace("__FRAGMENT__", frag), encoding="utf-8")
        profile = Path(tmp) / "profile"
        proc = subprocess.run(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
             f"--window-size={max(width, 500) + 40},1000", "--enable-logging=stderr", "--v=0",
             "--allow-file-access-from-files",
             "--virtual-time-budget=10000", "--dump-dom", host.as_uri()],
            capture_output=True, text=True, timeout=timeout, check=False,
        )
    found = re.search(r'<pre id="cardlab-probe">(.*?)</pre>', proc.stdout, re.S)
    if not found:
        tail = proc.stderr.strip().splitlines()[-3:]
        raise RuntimeError(f"the browser returned no probe result (exit {proc.returncode}): "
                           + " | ".join(tail))
    import html

    data = json.loads(html.unescape(found.group(1)))
    logged = [line for line in proc.stderr.splitlines()
              if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]
    return ViewerResult(list(data["shown"]), list(data["counts"]),
                        list(data["errors"]) + logged, list(data["fetched"]),
                        str(data["all_hands"]), int(data["seats"]), int(data["cards"]),
                        int(data["bars"]), int(data["width"]), int(data["overflow"]),
                        str(data["start"]), int(data["graph"]), list(data["jumps"]),
                        str(data["jumped"]), list(data["summary"]), str(data["hash"]),
                        [int(x) for x in data["graph_points"]])

"""Open a report in headless Chromium as a reader would: every image loads from the page
itself, nothing is fetched from outside, the key findings and the sample games are drawn,
every table-of-contents link leads somewhere, and an 800-pixel window needs no sideways
scrolling.

Chromium comes from Debian's packages (`.ci/run` installs it). Outside CI the test skips when
no browser is installed; in CI (CI=true) a missing browser is a failure.
"""

import os
import shutil

import pytest

from analyzer.runner.play import KernelBackend
from analyzer.runner.synthetic import SyntheticAssBackend
from analyzer.studies.jokers import run_jokers
from analyzer.studies.results import save_study
from analyzer.studies.samples import find_sample
from analyzer.studies.seats import run_seats
from analyzer.studies.trump import run_trump
from reports.build import build_report
from reports.check import browser_check, find_chromium, link_problems

CHROMIUM = find_chromium()
IN_CI = os.environ.get("CI", "").lower() == "true"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not IN_CI,
    reason="no Chromium installed (apt-get install -y chromium); required when CI=true",
)


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    real = KernelBackend(workers=1)
    for result in (run_seats(SyntheticAssBackend(), players=[3, 5], games=300),
                   run_jokers(real, players=[4], keep=[2], games=20),
                   run_trump(real, players=[4], rulesets=["seed"], deals=60)):
        save_study(result, root / "results")
    return build_report(root / "results", root / "report", find_sample)


def test_every_image_loads_in_a_real_browser(index):
    assert CHROMIUM is not None, "CI=true but no Chromium found"
    result = browser_check(index.parent, CHROMIUM)
    figures = len(list((index.parent / "figures").glob("*.png")))
    assert result.images == figures >= 8
    assert result.embedded == result.images  # every image is carried by the page itself
    assert result.broken == []
    assert result.outside(index.parent) == []
    assert result.page.startswith("file://")
    assert not (index.parent / "_cardlab_check.html").exists()  # the probe copy is removed


def test_a_reader_at_800_pixels_sees_findings_sample_games_and_working_contents(index):
    result = browser_check(index.parent, CHROMIUM, width=800)
    assert result.findings == 3  # one verdict per study
    assert result.samples == 2  # the hoarder's game and the trump deal, drawn as cards
    assert result.toc >= 7 and result.unresolved == []
    assert result.width == 800
    assert result.overflow <= 0, f"the page is {result.overflow} px wider than the window"


def test_index_html_alone_shows_every_image(index, tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(index, alone / "index.html")  # mailed without its folder
    result = browser_check(alone, CHROMIUM)
    assert result.images >= 8 and result.broken == []


def test_the_check_catches_a_broken_and_an_outside_image(index, tmp_path):
    # a damaged copy: one image missing, one from the web, one absolute path
    bad = tmp_path / "bad"
    shutil.copytree(index.parent, bad)
    html = index.read_text().replace(
        "<footer>", '<img src="figures/missing.png" alt="x"><img src="http://127.0.0.1:9/x.png" '
                    'alt="y"><img src="/etc/z.png" alt="z"><div style="width:3000px">wide</div>'
                    '<footer>').replace(
        '<li><a href="#glossary">', '<li><a href="#nowhere">')
    (bad / "index.html").write_text(html)
    problems = link_problems(bad)
    assert len(problems) == 4
    result = browser_check(bad, CHROMIUM)
    assert result.unresolved == ["#nowhere"]
    assert result.overflow > 0
    assert sorted(result.broken) == sorted(["figures/missing.png", "http://127.0.0.1:9/x.png",
                                            "/etc/z.png"])
    assert result.outside(bad) == ["http://127.0.0.1:9/x.png"]


@pytest.mark.parametrize("width", [390, 1366])
def test_a_phone_and_a_desktop_see_the_answers_first_and_every_figure_readable(index, width):
    """Folded, the page is at most a third of its unfolded length (the answers and one
    figure each; the rest folded below them), nothing scrolls sideways, and every figure is
    shown at 3/4 of its size or more: its smallest text (figures.MIN_FONT_PT, 12 pixels at
    the figures' DPI) reads as 9 pixels or more."""
    from reports.figures import DPI, MIN_FONT_PT

    result = browser_check(index.parent, CHROMIUM, width=width)
    assert result.width == width and result.overflow <= 0
    assert result.height * 3 <= result.full, (result.height, result.full)
    assert result.images >= 8 and result.broken == []
    assert result.scale >= 0.75 - 1e-3, result.scale
    assert MIN_FONT_PT * DPI / 72 * 0.75 >= 9
    assert result.samples == 2  # the sample games are drawn, unfolded
    # small multiples are laid out for the width: on a phone one panel under the other, so
    # no figure scrolls sideways in its box either
    assert result.sideways == 0, result.sideways

"""Open a report in headless Chromium: every image loads and nothing is fetched from outside.

Chromium comes from Debian's packages (`.ci/run` installs it). Outside CI the test skips when
no browser is installed; in CI (CI=true) a missing browser is a failure.
"""

import os
import shutil

import pytest

from analyzer.studies.results import save_study
from analyzer.studies.seats import run_seats
from analyzer.studies.synthetic import SyntheticAssBackend
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
    save_study(run_seats(SyntheticAssBackend(), players=[3, 5], games=300), root / "results")
    return build_report(root / "results", root / "report")


def test_every_image_loads_in_a_real_browser(index):
    assert CHROMIUM is not None, "CI=true but no Chromium found"
    result = browser_check(index.parent, CHROMIUM)
    assert result.images == len(list((index.parent / "figures").glob("*.png"))) >= 4
    assert result.broken == []
    assert result.outside(index.parent) == []
    assert result.page.startswith("file://")
    assert not (index.parent / "_cardlab_check.html").exists()  # the probe copy is removed


def test_the_check_catches_a_broken_and_an_outside_image(index, tmp_path):
    # a damaged copy: one image missing, one from the web, one absolute path
    bad = tmp_path / "bad"
    shutil.copytree(index.parent, bad)
    html = index.read_text().replace(
        "<footer>", '<img src="figures/missing.png" alt="x"><img src="http://127.0.0.1:9/x.png" '
                    'alt="y"><img src="/etc/z.png" alt="z"><footer>')
    (bad / "index.html").write_text(html)
    problems = link_problems(bad)
    assert len(problems) == 3
    result = browser_check(bad, CHROMIUM)
    assert sorted(result.broken) == sorted(["figures/missing.png", "http://127.0.0.1:9/x.png",
                                            "/etc/z.png"])
    assert result.outside(bad) == ["http://127.0.0.1:9/x.png"]

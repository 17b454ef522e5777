"""`cardlab report` as a person sees it: sections, answers, figures, tables, links, manifest."""

import re

import pytest

from analyzer.studies.compare import run_compare
from analyzer.studies.jokers import run_jokers
from analyzer.studies.play import KernelBackend
from analyzer.studies.results import save_study
from analyzer.studies.seats import run_seats
from analyzer.studies.trump import run_trump
from reports.build import build_report
from reports.check import link_problems, page_references

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A report of all four studies from tiny runs of the real games."""
    root = tmp_path_factory.mktemp("report")
    real = KernelBackend(workers=1)
    studies = [
        run_seats(real, players=[3, 4], games=200),
        run_jokers(real, players=[4], keep=[0, 3], games=40),
        run_trump(real, players=[4], rulesets=["seed"], deals=150),
        run_compare(real, "ass", ["basic", "careful"], players=[4], games=60),
    ]
    for s in studies:
        save_study(s, root / "results")
    index = build_report(root / "results", root / "out")
    return index, studies


def test_every_study_has_a_section_with_its_answer_first(report):
    index, studies = report
    html = index.read_text()
    for s in studies:
        section = re.search(rf'<section id="{s.study}">(.*?)</section>', html, re.S)
        assert section, s.study
        body = section.group(1)
        answer = body.index('class="answer"')
        assert answer < body.index("<figure") < body.index("<table>") < body.index("Manifest")
        first = s.headlines[0].replace("'", "&#x27;").replace("+/-", "±")
        assert first in body[answer:]
        assert f'href="#{s.study}"' in html  # table of contents


def test_figures_are_pngs_inside_the_folder_and_all_shown(report):
    index, _ = report
    figures = sorted((index.parent / "figures").glob("*.png"))
    names = {f.name for f in figures}
    assert {"seats_minus_points.png", "seats_heatmap.png", "jokers_sweep.png",
            "trump_sticks_loss.png", "compare_ranking.png"} <= names
    for f in figures:
        assert f.read_bytes()[:8] == PNG and f.stat().st_size > 5_000
    refs, _ = page_references(index)
    shown = {r.split("/", 1)[1] for r in refs if r.startswith("figures/")}
    assert shown == names  # every PNG is on the page and every image on the page exists


def test_links_stay_inside_the_folder(report):
    index, _ = report
    assert link_problems(index.parent) == []
    html = index.read_text()
    assert "http://" not in html and "https://" not in html and "<script" not in html


def test_tables_and_manifest_are_linked(report):
    index, studies = report
    html = index.read_text()
    for s in studies:
        assert f'href="data/{s.study}/manifest.json"' in html
        for name in s.tables:
            assert f'href="data/{s.study}/{name}.csv"' in html
            assert (index.parent / "data" / s.study / f"{name}.csv").is_file()
    seed_line = re.search(r"<dt>seed</dt><dd>(\d+)</dd>", html)
    assert seed_line and int(seed_line.group(1)) == studies[0].manifest["seed"]
    assert html.count("<table>") >= 7


def test_reports_and_study_results_import_no_numba():
    import subprocess
    import sys

    code = ("import sys, reports.build, reports.check, analyzer.studies.results, "
            "analyzer.stats; assert 'numba' not in sys.modules, 'numba imported'")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr

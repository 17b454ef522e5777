"""`cardlab report` as a person sees it: sections, answers, figures, tables, links, manifest."""

import base64
import json
import re
import shlex

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.runner.play import KernelBackend
from analyzer.studies.compare import run_compare
from analyzer.studies.jokers import run_jokers
from analyzer.studies.results import save_study
from analyzer.studies.samples import find_sample
from analyzer.studies.seats import run_seats
from analyzer.studies.trump import run_trump
from reports.build import build_report
from reports.check import link_problems, page_references
from reports.reproduce import study_command

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A report of all four studies from tiny runs of the real games."""
    root = tmp_path_factory.mktemp("report")
    real = KernelBackend(workers=1)
    studies = [
        run_seats(real, players=[3, 4], games=200, slow_games=30),  # pimc: 30 games, not 100
        run_jokers(real, players=[4], keep=[0, 3], games=40),
        run_trump(real, players=[4], rulesets=["seed"], deals=150),
        run_compare(real, "ass", ["basic", "careful"], players=[4], games=60),
    ]
    for s in studies:
        save_study(s, root / "results")
    index = build_report(root / "results", root / "out", find_sample)
    return index, studies


def test_every_study_has_a_section_with_its_answer_first(report):
    index, studies = report
    html = index.read_text()
    for s in studies:
        section = re.search(rf'<section id="{s.study}">(.*?)</section>', html, re.S)
        assert section, s.study
        body = section.group(1)
        answer = body.index('class="answer"')
        assert answer < body.index("<figure") < body.index("<table") < body.index("Manifest")
        first = s.headlines[0].replace("'", "&#x27;").replace("+/-", "±")
        assert first in body[answer:]
        assert f'href="#{s.study}"' in html  # table of contents


def test_figures_are_pngs_inside_the_folder_and_all_shown(report):
    index, _ = report
    figures = sorted((index.parent / "figures").glob("*.png"))
    names = {f.name for f in figures}
    assert {"seats_by_seat.png", "seats_heatmap.png", "jokers_sweep.png",
            "trump_sticks_loss.png", "compare_ranking.png"} <= names
    for f in figures:
        assert f.read_bytes()[:8] == PNG and f.stat().st_size > 5_000
    refs, _ = page_references(index)
    linked = {r.split("/", 1)[1] for r in refs if r.startswith("figures/")}
    assert linked == names  # every PNG is linked for slides, and every link exists
    html = index.read_text()
    images = re.findall(r'<img src="([^"]*)"', html)
    assert len(images) == len(names)  # each figure once on the page ...
    assert all(src.startswith("data:image/png;base64,") for src in images)  # ... embedded
    embedded = {base64.b64decode(src.split(",", 1)[1]) for src in images}
    assert embedded == {f.read_bytes() for f in figures}


def test_links_stay_inside_the_folder(report):
    index, _ = report
    assert link_problems(index.parent) == []
    html = index.read_text()
    assert "http://" not in html and "https://" not in html
    assert html.count("<script") == 1 and "<script>" in html  # one inline script, no src


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
    assert html.count('<table class="sortable">') >= 7


def test_reports_and_study_results_import_no_numba(report, tmp_path):
    import subprocess
    import sys

    index, _ = report
    results = index.parent.parent / "results"
    # building a whole report (glossary, findings, figures) never loads the engines
    code = ("import sys, reports.build, reports.check, analyzer.studies.results, "
            "analyzer.stats; from reports.build import build_report; "
            f"build_report({str(results)!r}, {str(tmp_path / 'r')!r}); "
            "assert 'numba' not in sys.modules, 'numba imported'")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def _section(html: str, study: str) -> str:
    return re.search(rf'<section id="{study}">(.*?)</section>', html, re.S).group(1)


def test_key_findings_come_first_with_one_verdict_per_question(report):
    index, studies = report
    html = index.read_text()
    assert html.index('id="findings"') < html.index('id="seats"') < html.index('id="alerts"')
    findings = re.search(r'<section id="findings".*?</section>', html, re.S).group(0)
    for s in studies:
        assert f'href="#{s.study}"' in findings
    assert findings.count('class="verdict"') == len(studies)
    assert "±" in findings  # every verdict carries its number
    toc = re.search(r'<nav id="toc">(.*?)</nav>', html, re.S).group(1)
    for anchor in re.findall(r'href="#([^"]+)"', toc):
        assert f'id="{anchor}"' in html


def test_correctness_checks_sit_in_the_appendix_not_among_the_answers(report):
    index, _ = report
    html = index.read_text()
    appendix = re.search(r'<section id="appendix">(.*?)</section>', html, re.S).group(1)
    assert "seats_dealt_ass.png" in appendix and "exact value" in appendix
    assert "seats_dealt_ass.png" not in _section(html, "seats")
    assert "|{p in" not in html  # no set notation for players


def test_sample_games_are_drawn_and_replay_with_their_command(report):
    index, _ = report
    html = index.read_text()
    for study, game in (("jokers", "ass"), ("trump", "jass")):
        body = _section(html, study)
        assert '<table class="game">' in body
        command = re.search(r'<pre class="cmd">(cardlab replay [^<]*)</pre>', body).group(1)
        args = shlex.split(command.replace("&#x27;", "'"))[1:]
        assert args[:2] == ["replay", game] and "--pretty" in args
        res = CliRunner().invoke(app, [a for a in args if a != "--pretty"])
        assert res.exit_code == 0, res.output
        record = json.loads(res.stdout)
        shown = re.findall(r'<tr class="end"><th>(?:minus points|card points)</th>(.*?)</tr>',
                           body)[0]
        values = [int(v) for v in re.findall(r"<b>(-?\d+)</b>", shown)]
        expect = record["penalties"] if game == "ass" else record["deals"][0]["points"]
        assert values == expect
        # the game viewer page beside the report steps through the very same game
        page = re.search(r'<a class="viewer" href="(games/[^"]+\.html)">', body).group(1)
        viewer = (index.parent / page).read_text()
        data = json.loads(re.search(r'id="game-data">(.*?)</script>', viewer, re.S).group(1))
        last = data["steps"][-1]
        assert last["scores"] == expect
        unit = "game" if game == "ass" else "deal"
        assert data["title"].startswith(("Who's the Ass?" if game == "ass" else "Plus-Minus Jass")
                                        + f" seed {record['seed']}, {unit} {record['index']}:")


def test_glossary_reproduce_commands_and_folded_sortable_tables(report):
    index, studies = report
    html = index.read_text()
    glossary = re.search(r'<section id="glossary">(.*?)</section>', html, re.S).group(1)
    for name in ("basic", "careful", "joker-hoarder", "joker-dumper", "adaptive"):
        assert f"<td>{name}</td>" in glossary
    assert "hold-jokers:keep=k" in glossary  # a sweep is one entry
    for s in studies:
        body = _section(html, s.study)
        assert f"cardlab study {s.study} " in body and "cardlab report --from" in body
        assert '<details class="table"' in body
        # the command's options are the command line's own (parsed, not run)
        command = study_command(s)
        args = shlex.split(command)[3:]
        study = get_command(app).commands["study"].commands[s.study]
        ctx = study.make_context(s.study, args)
        assert ctx.params["seed"] == s.manifest["seed"]
        # written in today's vocabulary: no hidden old spelling (--field, --mode, --rule)
        shown = {o for p in study.params if not getattr(p, "hidden", False) for o in p.opts}
        assert all(a in shown for a in args if a.startswith("-")), command
    assert "aria-sort" in html  # the sorting script


def test_compare_says_per_game_for_ass_and_counts_what_it_played(report):
    index, studies = report
    html = index.read_text()
    body = _section(html, "compare")
    assert "per deal" not in body and "per game" in body
    assert "ranks first" not in html
    compare = next(s for s in studies if s.study == "compare")
    played = int(compare.table("ranking")["deals"].iloc[0])
    assert f"{played:,}" in body


def test_alerts_flag_weak_pairing_and_a_spent_budget():
    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.compare import run_compare
    from reports.findings import study_alerts

    result = run_compare(SyntheticAssBackend(effects={"a": 0.0, "b": 0.0}), "ass", ["a", "b"],
                         players=[4], games=400, until_sure=True, batch=200)
    texts = [a.text for a in study_alerts(result)]
    assert any("spent its whole budget" in t for t in texts)
    assert not any("Pairing did not narrow" in t for t in texts)
    result.tables["pairs"]["variance_reduction"] = 0.8
    assert any("Pairing did not narrow" in t for t in
               (a.text for a in study_alerts(result)))


def test_the_report_writes_findings_json_and_every_claim_holds_in_every_cell(report):
    """Issue 21 item 1: data/findings.json lists every claim of the key findings and of
    every study's sentences with its cells, and each claim holds in each cell when re-read
    from the study's own table."""
    from reports.claims import Claim, check

    index, studies = report
    doc = json.loads((index.parent / "data" / "findings.json").read_text())
    by_study = {s.study: s for s in studies}
    assert {c["study"] for c in doc["claims"]} == {"seats", "jokers", "trump", "compare"}
    ids = {c["id"] for c in doc["claims"]}
    for s in studies:  # every sentence the study printed is a claim in the file
        assert s.claims and {c.id for c in s.claims} <= ids, s.study
    html = index.read_text()
    for raw in doc["claims"]:
        assert {"id", "question", "sentence", "game", "study", "command"} <= set(raw)
        assert raw["command"].startswith("cardlab study "), raw["id"]
        claim = Claim.from_json(raw)
        assert claim.cells and all(c.holds for c in claim.cells)
        assert check(claim, by_study[raw["study"]]) == [], raw["id"]
        assert raw["sentence"].split(" (")[0].replace("'", "&#x27;") in html


def test_the_technical_alerts_fold_under_for_statisticians_below_the_answers(report):
    index, studies = report
    html = index.read_text()
    stats = re.search(r'<section id="alerts"[^>]*>(.*?)</section>', html, re.S).group(1)
    assert "<h2>For statisticians</h2>" in stats and "<details><summary>Technical alerts" in stats
    last = max(html.index(f'<section id="{s.study}">') for s in studies)
    assert html.index('<section id="alerts"') > last  # below every answer
    assert "<h2>Alerts</h2>" not in html


def test_each_section_shows_its_answer_and_one_figure_and_folds_the_rest(report):
    index, studies = report
    html = index.read_text()
    for s in studies:
        body = _section(html, s.study)
        deeper = body.index('<details class="deeper">')
        assert body[:deeper].count("<figure") == 1, s.study
        assert "<table" not in body[:deeper] and "Manifest" in body[deeper:]


def test_no_figure_text_is_smaller_than_the_minimum(tmp_path):
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    from reports.figures import MIN_FONT_PT, _save

    fig = Figure(figsize=(3, 2))
    ax = fig.subplots()
    ax.text(0.5, 0.5, "+16.76\n±2.36", fontsize=5.5)
    ax.set_title("title", fontsize=10)
    _save(fig, tmp_path, "x.png")
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_text()]
    assert min(sizes) >= MIN_FONT_PT and 10 in sizes
    assert (tmp_path / "x.png").read_bytes()[:8] == PNG


def test_the_ladder_shows_its_pairs_as_a_table_not_a_heatmap(tmp_path):
    from analyzer.runner.synthetic import SyntheticAssBackend
    from analyzer.studies.ladder import run_ladder
    from reports.studies.ladder import ladder_figures, ladder_views

    result = run_ladder(SyntheticAssBackend(), "ass", ["basic", "careful", "random"],
                        players=[4], games=120)
    files = [f.file for f in ladder_figures(result, tmp_path)]
    assert files and not any("pairs" in f for f in files)
    titles = [v.title for v in ladder_views(result)]
    assert "Every pair (Holm over all pairs)" in titles


def test_every_declared_parameter_is_recorded_in_the_manifest(report):
    """The declaration (analyzer/studies/registry.py) and the manifest the run writes agree:
    every parameter with a manifest key finds it there, so its reproduce command is whole."""
    from analyzer.studies.registry import get

    _, studies = report
    for s in studies:
        keys = [p.key for p in get(s.study).params if p.key]
        assert keys and [k for k in keys if k not in s.manifest] == [], s.study
        assert study_command(s).startswith(f"cardlab study {s.study} ")

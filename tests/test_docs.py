"""The README is for players: short, opening with the two commands, and a way into every page
of docs/; every relative link in the README and in docs/ resolves to a file."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _links(page: Path) -> list[Path]:
    return [(page.parent / target).resolve() for target in LINK.findall(page.read_text())
            if "://" not in target]


def test_readme_is_short_and_opens_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    lines = text.splitlines()
    assert len(lines) <= 200, len(lines)
    block = text.split("```")[1].splitlines()
    commands = [line.split("#")[0].strip() for line in block[1:] if line.strip()]
    assert commands == ["make demo", "make test"]


def test_readme_links_every_docs_page():
    linked = set(_links(ROOT / "README.md"))
    pages = {p.resolve() for p in (ROOT / "docs").glob("*.md")}
    assert pages - linked == set(), sorted(p.name for p in pages - linked)


def test_every_relative_link_resolves():
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    broken = [(page.name, str(target)) for page in pages
              for target in _links(page) if not target.exists()]
    assert broken == []


SESSION = re.compile(r"\b(?:first|second|next|this|last|\w+th|\w+st|\w+nd|\w+rd) session\b", re.I)


def test_docs_date_by_day_and_commit_never_by_who_worked_when():
    """Measurements carry a day and a commit; "the thirteenth session" tells a reader nothing."""
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    found = [(page.name, m.group(0)) for page in pages
             for m in SESSION.finditer(page.read_text())]
    assert found == []

"""The repository's Markdown: no merge leftovers, and every relative link reaches a file.

A merge that kept a conflict marker in ``CHANGELOG.md`` landed once unnoticed (ruff only reads
Python), and ``docs/benchmarks.md`` was split into ``docs/benchmarks/``; both would leave the
front door and the reference pages with dead text or dead links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
# A link target in Markdown: [text](target) with no scheme; the anchor part is not checked.
LINK = re.compile(r"\]\(([^)\s]+)\)")
MARKER = re.compile(r"^(<{7} |={7}$|>{7} )", re.MULTILINE)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_merge_conflict_markers(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert not MARKER.search(text), f"conflict marker left in {page.relative_to(ROOT)}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_reach_a_file(page: Path) -> None:
    dead = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            dead.append(target)
    assert not dead, f"{page.relative_to(ROOT)} links to missing files: {dead}"

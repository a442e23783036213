"""Margin line numbers (``lineno``) are furniture, never glued into the lines they number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from synthetic_pages import block as _block
from synthetic_pages import build as _build
from synthetic_pages import line as _line

import docparse
from docparse.backends.base import PageContent
from docparse.backends.line_numbers import split_line_numbers
from docparse.backends.preflight import PdfInfo
from docparse.registry import get_parser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"
NUMBERED = FIXTURES / "aastex-line-numbers" / "aastex-p2-p13.pdf"
BACKENDS = ("pymupdf", "pypdfium2", "pdfplumber")
#: The margin numbers of the fixture's two pages (38-79 and 320-362).
MARGIN = {*range(38, 80), *range(320, 363)}
_LONE_NUMBER = re.compile(r"(?<![\w.∼~])\d+(?![\w.%])")


def _pages(backend: str, path: Path) -> list[PageContent]:
    parser = get_parser(backend)
    config = parser.config_class(tables=False)
    import pymupdf

    with pymupdf.open(path) as doc:
        n = doc.page_count
    return list(parser.iter_pages(path, config, PdfInfo(n, 0, n)))  # type: ignore[attr-defined]


@pytest.mark.parametrize("backend", BACKENDS)
def test_margin_line_numbers_of_a_real_page_are_furniture_and_out_of_the_text(
    backend: str,
) -> None:
    doc = docparse.parse(NUMBERED, backend=backend, config={"tables": False})
    furniture = [u.text for u in doc.units if u.kind == "furniture"]
    assert " ".join(map(str, range(38, 80))) in furniture
    assert " ".join(map(str, range(320, 363))) in furniture
    # Numbers standing as words: not "∼65%", "v6.0" or "aaspp4".
    glued = [
        u.text
        for u in doc.units
        if u.kind != "furniture" and MARGIN & {int(w) for w in _LONE_NUMBER.findall(u.text)}
    ]
    assert glued == []
    # The list item the next line's number was glued to (pymupdf: "... watermarking, 57").
    assert any(u.text.startswith("1. line numbering and watermarking,") for u in doc.units)


@pytest.mark.parametrize("backend", ("pymupdf", "pypdfium2"))
@pytest.mark.parametrize(
    "path",
    [
        # A contents page: page numbers at the right, increasing, some by one.
        FIXTURES / "debmake-doc-contents" / "debmake-doc-contents.pdf",
        # A statistical table: columns of numbers at both edges.
        FIXTURES / "us-020" / "us-020.pdf",
        FIXTURES / "acmart-equations" / "acmart-p3.pdf",
    ],
    ids=["contents", "table", "equations"],
)
def test_pages_without_margin_line_numbers_are_left_as_they_are(backend: str, path: Path) -> None:
    for page in _pages(backend, path):
        assert split_line_numbers(page) is page


def _numbered_page(numbers: list[int], x: float = 20.0, title_x: float = 72.0) -> PageContent:
    """A page of prose lines from x=72, each numbered at ``x`` (``numbers``
    for the first lines), under a title starting at ``title_x``."""
    lines = [_line("Numbered Page Title", title_x, 60, 14)]
    for i, n in enumerate(numbers):
        y = 100 + 12 * i
        lines.append(_line(str(n), x, y + 3, 5))
        lines.append(_line(f"Prose of the article on line {i}, which runs on here.", 72, y))
    return PageContent(1, 612, 792, blocks=tuple(_block(ln) for ln in lines))


def test_a_column_numbering_every_fifth_line_is_found() -> None:
    page = _numbered_page([5, 10, 15, 20, 25, 30])
    found = split_line_numbers(page)
    assert [b.role for b in found.blocks].count("line_number") == 1
    doc = _build([page])
    assert [u.text for u in doc.units if u.kind == "furniture"] == ["5 10 15 20 25 30"]


def test_numbers_on_the_right_margin_are_found() -> None:
    page = _numbered_page(list(range(1, 9)), x=560)
    assert split_line_numbers(page) is not page


def test_a_table_column_of_years_under_a_title_starting_there_is_no_margin() -> None:
    # Years 1996-2003 at x=20 with prose after them, the title starting at
    # x=20 too: the column is the table's first, not a margin.
    page = _numbered_page(list(range(1996, 2004)), title_x=20)
    assert split_line_numbers(page) is page


def test_numbers_that_fall_back_are_no_line_numbers() -> None:
    page = _numbered_page([3, 4, 5, 6, 2, 7, 8])
    assert split_line_numbers(page) is page


def _two_column_page(gutter: list[int], margin: list[int] | None = None) -> PageContent:
    """Two columns of prose (x 72-290 and 320-540); ``margin`` numbers the left column's
    lines at x=20 (1, 2, ... when None), ``gutter`` the right column's at x=300-310."""
    margin = list(range(1, len(gutter) + 1)) if margin is None else margin
    lines = [_line("Two Column Page Title", 72, 60, 14)]
    for i in range(len(gutter)):
        y = 100 + 12 * i
        if i < len(margin):
            lines.append(_line(str(margin[i]), 20, y + 3, 5))
        lines.append(_line(f"Left column prose of line {'abcdefgh'[i]}, set on.", 72, y))
        lines.append(_line(str(gutter[i]).rjust(2), 300, y + 3, 5))
        lines.append(_line(f"Right column prose of line {'abcdefgh'[i]}, set on.", 320, y))
    return PageContent(1, 612, 792, blocks=tuple(_block(ln) for ln in lines))


def test_gutter_numbers_that_carry_the_margin_numbering_on_are_line_numbers() -> None:
    # lineno on a two-column page: the left column's numbers in the margin,
    # the right column's in the gutter, going on from them.
    page = _two_column_page(list(range(7, 13)))
    found = split_line_numbers(page)
    assert [b.role for b in found.blocks].count("line_number") == 2
    doc = _build([page])
    furniture = [u.text for u in doc.units if u.kind == "furniture"]
    assert "7 8 9 10 11 12" in furniture
    assert not any(_LONE_NUMBER.search(u.text) for u in doc.units if u.kind != "furniture")


def test_gutter_numbers_without_a_margin_column_or_not_going_on_stay() -> None:
    # No margin column (a table's column of years in the middle): nothing read.
    alone = _two_column_page(list(range(1996, 2002)), margin=[])
    assert split_line_numbers(alone) is alone
    # A margin column 1-6 and, in the middle, years: they carry nothing on.
    page = _two_column_page(list(range(1996, 2002)))
    found = split_line_numbers(page)
    assert [b.role for b in found.blocks].count("line_number") == 1

"""Footnotes of PDF pages: small notes at the foot of a page under a mark the text cites."""

from __future__ import annotations

from synthetic_pages import block as _block
from synthetic_pages import build as _build
from synthetic_pages import line as _line

from docparse.backends.base import Line, PageContent, TextSpan
from docparse.model import BBox


def _cited(text: str, mark: str, x0: float, y0: float, size: float = 10.0) -> Line:
    """A body line ending with a raised footnote mark."""
    box = BBox(x0, y0, x0 + 0.5 * size * len(text), y0 + size)
    sup = BBox(box.x1, y0 - 2, box.x1 + 3, y0 + 0.6 * size)
    return Line(
        (
            TextSpan(text, box, size, False, "Times"),
            TextSpan(mark, sup, 0.6 * size, False, "Times"),
        ),
        BBox(x0, y0 - 2, sup.x1, y0 + size),
    )


def _marked(mark: str, text: str, x0: float, y0: float, size: float = 8.0) -> Line:
    """A footnote line opened by its raised mark, set against the first word."""
    sup = BBox(x0, y0 - 2, x0 + 3, y0 + 0.6 * size)
    box = BBox(sup.x1, y0, sup.x1 + 0.5 * size * len(text), y0 + size)
    return Line(
        (
            TextSpan(mark, sup, 0.6 * size, False, "Times"),
            TextSpan(text, box, size, False, "Times"),
        ),
        BBox(x0, y0 - 2, box.x1, y0 + size),
    )


def _page(*notes: Line) -> PageContent:
    body = [
        _line(f"Body text of the page, line {i} of the running text.", 72, 100 + 12 * i)
        for i in range(30)
    ]
    cites = _block(
        _cited("A sentence with a note", "1", 72, 480),
        _cited("and another sentence with notes", "2", 72, 492),
        _cited("and the last one cited here", "3", 72, 504),
    )
    return PageContent(1, 612, 792, blocks=(_block(*body), cites, *(_block(n) for n in notes)))


def test_a_note_under_a_cited_mark_is_a_footnote_with_its_mark_apart() -> None:
    doc = _build([_page(_marked("1", "First note of the page.", 72, 700))])
    notes = [u.text for u in doc.units if u.kind == "footnote"]
    assert notes == ["1 First note of the page."]


def test_notes_set_one_under_another_are_one_unit_each() -> None:
    doc = _build(
        [
            _page(
                _line("2. Either texdoc amsmath or the web page", 72, 700, size=8),
                _line("3. For reasons why, see a later paper", 72, 710, size=8),
            )
        ]
    )
    notes = [u.text for u in doc.units if u.kind == "footnote"]
    assert notes == [
        "2. Either texdoc amsmath or the web page",
        "3. For reasons why, see a later paper",
    ]


def test_small_text_at_the_foot_without_a_cited_mark_is_no_footnote() -> None:
    doc = _build([_page(_line("7 Uncited small print at the bottom", 72, 700, size=8))])
    assert not [u for u in doc.units if u.kind == "footnote"]

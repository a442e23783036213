"""Pages whose text is set sideways are read turned upright, then mapped back."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import docparse
from docparse.backends.lines import make_line, new_span
from docparse.backends.pages import Block, display_bbox
from docparse.backends.rotation import (
    direction_turn,
    turn_vector,
    turned_blocks,
    upright_turn,
)
from docparse.model import BBox

_ROWS = [("Plant", "2021", "2022", "2023")] + [
    (f"Site {k}", f"{100 + 7 * k}.5", f"{120 + 3 * k}.0", f"{90 + 11 * k}.0") for k in range(1, 9)
]
_CAPTION = "Table 4. Yearly output of the three plants"
_HEAD = "Annual Survey Report"
_BODY = "Body text of the report goes on for a good many words on this page, line after line."


def _table(put: object) -> None:
    assert callable(put)
    put(100, 90, _CAPTION, 10)
    for r, row in enumerate(_ROWS):
        for c, cell in enumerate(row):
            put(100 + 100 * c, 130 + 18 * r, cell, 9)


def _sideways_pdf(path: Path) -> Path:
    """Three portrait pages with an upright running head and page number;
    page 2 holds a captioned table set sideways (reading bottom to top)."""
    doc = pymupdf.open()
    for n in range(1, 4):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 40), _HEAD, fontsize=9)
        page.insert_text((300, 760), str(n), fontsize=9)
        if n != 2:
            for i in range(20):
                page.insert_text((72, 100 + 14 * i), _BODY, fontsize=10)
            continue

        # Laid out on the page turned clockwise (792 x 612): (u, v) there is
        # (v, 792 - u) here, the text turned a quarter counterclockwise.
        def put(u: float, v: float, text: str, size: float, page: pymupdf.Page = page) -> None:
            page.insert_text((v, 792 - u), text, fontsize=size, rotate=90)

        _table(put)
    doc.save(path)
    return path


def _landscape_pdf(path: Path) -> Path:
    """The same table on an upright landscape page."""
    doc = pymupdf.open()
    page = doc.new_page(width=792, height=612)

    def put(u: float, v: float, text: str, size: float) -> None:
        page.insert_text((u, v), text, fontsize=size)

    _table(put)
    doc.save(path)
    return path


def test_direction_turn() -> None:
    assert direction_turn(1, 0) == 0
    assert direction_turn(0, -1) == 90  # bottom to top: turn the page clockwise
    assert direction_turn(-1, 0) == 180
    assert direction_turn(0, 1) == 270


def test_upright_turn_needs_most_of_the_page() -> None:
    assert upright_turn([(0, -1, 500), (1, 0, 30)]) == 90
    assert upright_turn([(0, 1, 500), (1, 0, 30)]) == 270
    # Rotated axis labels beside a page of prose keep the page's frame.
    assert upright_turn([(0, -1, 200), (1, 0, 400)]) == 0
    # A lone margin stamp on an otherwise empty page too.
    assert upright_turn([(0, -1, 12)]) == 0
    assert upright_turn([]) == 0


def test_turn_vector_follows_display_bbox() -> None:
    # A left-to-right run on the unrotated page, seen with /Rotate 90, runs down.
    assert turn_vector(1, 0, 90) == (0, 1)
    assert turn_vector(1, 0, 270) == (0, -1)
    b = display_bbox(BBox(10, 20, 50, 30), 90, 200, 100)
    assert b.y1 - b.y0 == 40  # the same run, now 40 high


def test_turned_blocks_keep_text_and_map_back() -> None:
    spans = (
        new_span("Running", BBox(100, 40, 140, 50), 9, False, "F"),
        new_span("head", BBox(144, 40, 170, 50), 9, False, "F"),
    )
    line = make_line(spans, BBox(100, 40, 170, 50))
    [turned] = turned_blocks([Block((line,), line.bbox)], 90, 612, 792)
    assert turned.lines[0].text == "Running head"
    # Turned by 90 within 612 x 792, the frame is 792 x 612; 270 more maps it back.
    assert display_bbox(turned.bbox, 270, 792, 612) == line.bbox


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_sideways_table_reads_as_the_same_table_upright(tmp_path: Path, backend: str) -> None:
    doc = docparse.parse(_sideways_pdf(tmp_path / "sideways.pdf"), backend=backend)
    upright = docparse.parse(_landscape_pdf(tmp_path / "landscape.pdf"), backend=backend)
    [table] = [u for u in doc.units if u.kind == "table"]
    [expected] = [u for u in upright.units if u.kind == "table"]
    assert table.table is not None and expected.table is not None
    assert table.table.rows == expected.table.rows
    # All four columns: the last one lies past the middle of the landscape page,
    # whose caption sits in its left half; it is the table's column all the same.
    assert [tuple(r) for r in table.table.rows] == _ROWS
    assert table.table.n_header_rows == 1
    # The caption set sideways over it is its caption.
    assert table.table.caption == _CAPTION
    # Boxes are on the displayed (portrait) page: the table runs up the page.
    assert table.page == 2 and table.bbox is not None
    b = table.bbox
    assert 0 <= b.x0 < b.x1 <= 612 and 0 <= b.y0 < b.y1 <= 792
    assert b.y1 - b.y0 > b.x1 - b.x0
    # The running head and page number left upright stay furniture, outside the table.
    furniture = {(u.page, u.text) for u in doc.units if u.kind == "furniture"}
    assert {(p, _HEAD) for p in (1, 2, 3)} <= furniture
    assert (2, "2") in furniture
    assert not any(_HEAD in c for r in table.table.rows for c in r)


def test_an_upright_page_is_not_turned(tmp_path: Path) -> None:
    doc = docparse.parse(_landscape_pdf(tmp_path / "landscape.pdf"))
    [table] = [u for u in doc.units if u.kind == "table"]
    assert table.bbox is not None and table.bbox.x1 - table.bbox.x0 > table.bbox.y1 - table.bbox.y0

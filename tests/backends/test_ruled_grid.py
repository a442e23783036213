"""docparse's ruled grid builder finds the cells ``page.find_tables`` finds."""

from __future__ import annotations

import pytest

from docparse.backends.pymupdf_tables import (
    CharList,
    WordProbe,
    chars_in_clip,
    fast_path_available,
    page_chars,
    page_words,
)
from docparse.backends.ruled_grid import RuledTable, find_grids, joined_boxes, merged_edges
from tests.backends.ruled_pdfs import ruled_pdfs


@pytest.mark.skipif(not fast_path_available(), reason="this PyMuPDF lacks the table internals")
@pytest.mark.parametrize("strategy", ["lines", "lines_strict"])
def test_same_cells_as_find_tables(strategy: str) -> None:
    """With PyMuPDF's own characters, the same tables, cells and rows, from both path forms."""
    import pymupdf

    tables = 0
    for pdf in ruled_pdfs():
        with pymupdf.open(pdf) as doc:
            for page in doc:
                clip = tuple(page.rect)
                chars = page_chars(page, clip)
                theirs = page.find_tables(
                    clip=clip, paths=page.get_drawings(), strategy=strategy, use_layout=False
                ).tables
                for paths in (page.get_drawings(), page.get_cdrawings()):
                    mine = find_grids(paths, clip, chars, strict=strategy == "lines_strict")
                    assert [sorted(t.cells) for t in mine] == [
                        sorted(tuple(c) for c in t.cells) for t in theirs
                    ], (pdf.name, page.number)
                    assert [[r.cells for r in t.rows] for t in mine] == [
                        [tuple(r.cells) for r in t.rows] for t in theirs
                    ]
                    assert [t.bbox for t in mine] == [tuple(t.bbox) for t in theirs]
                tables += len(theirs)
    assert tables >= 5


def test_words_stand_in_for_characters() -> None:
    """The page's words (what the backend reads) answer as its characters do: the same
    boxes hold a character, and the same tables are found, in the page and in a clip."""
    import pymupdf

    boxes = 0
    for pdf in ruled_pdfs():
        with pymupdf.open(pdf) as doc:
            for page in doc:
                r = page.rect
                paths = page.get_cdrawings()
                words = page_words(page)
                for clip in (tuple(r), (r.x0 + 90, r.y0 + 133, r.x1 - 61, r.y1 - 207)):
                    chars = chars_in_clip(page_chars(page), clip)
                    probe = WordProbe(words, clip)
                    for box in joined_boxes(p["rect"] for p in paths):
                        assert probe.any_inside(box) == chars.any_inside(box), (pdf.name, box)
                        boxes += 1
                    by_chars = find_grids(paths, clip, chars)
                    by_words = find_grids(paths, clip, probe)
                    assert [t.cells for t in by_words] == [t.cells for t in by_chars]
    assert boxes > 100


def _char(
    x0: float, top: float, x1: float, bottom: float, height: float = 100.0
) -> dict[str, object]:
    return {
        "x0": x0,
        "x1": x1,
        "top": top,
        "bottom": bottom,
        "y0": height - bottom,
        "y1": height - top,
        "text": "x",
    }


def test_two_by_two_grid_of_lines() -> None:
    """Three horizontal and three vertical lines make four cells, in two rows."""
    items = [("l", (10.0, y), (50.0, y)) for y in (10.0, 20.0, 30.0)]
    items += [("l", (x, 10.0), (x, 30.0)) for x in (10.0, 30.0, 50.0)]
    paths = [{"items": items, "rect": (10.0, 10.0, 50.0, 30.0), "type": "s", "closePath": False}]
    chars = CharList([_char(12, 12, 18, 18)])
    (table,) = find_grids(paths, (0, 0, 100, 100), chars)
    assert table.bbox == (10.0, 10.0, 50.0, 30.0)
    assert [r.cells for r in table.rows] == [
        ((10.0, 10.0, 30.0, 20.0), (30.0, 10.0, 50.0, 20.0)),
        ((10.0, 20.0, 30.0, 30.0), (30.0, 20.0, 50.0, 30.0)),
    ]
    # No printed character over the grid: no table.
    assert find_grids(paths, (0, 0, 100, 100), CharList()) == []


def test_near_edges_snap_and_join() -> None:
    """Edges 2 pt apart move to their mean; collinear pieces 2 pt apart become one."""
    vertical, horizontal = merged_edges(
        [(10.0, 0.0, 10.0, 20.0), (12.0, 22.0, 12.0, 40.0), (0.0, 5.0, 8.0, 5.0)]
    )
    assert vertical == [(11.0, 0.0, 40.0, 40.0)]
    assert horizontal == [(5.0, 0.0, 8.0, 8.0)]


def test_joined_boxes_are_single_precision() -> None:
    """A grown box is rounded as MuPDF's float rectangles round it; a lone one is not."""
    boxes = joined_boxes([(0.1, 0.1, 1.1, 1.1), (1.2, 0.1, 2.3, 1.1), (50.1, 50.1, 60.1, 60.1)])
    assert boxes[0] == [float(v) for v in __import__("array").array("f", (0.1, 0.1, 2.3, 1.1))]
    assert boxes[1] == [50.1, 50.1, 60.1, 60.1]


def test_rows_leave_spanned_slots_empty() -> None:
    """A cell spanning two columns fills one slot; the other is ``None``."""
    t = RuledTable(((0.0, 0.0, 20.0, 10.0), (0.0, 10.0, 10.0, 20.0), (10.0, 10.0, 20.0, 20.0)))
    assert [r.cells for r in t.rows] == [
        ((0.0, 0.0, 20.0, 10.0), None),
        ((0.0, 10.0, 10.0, 20.0), (10.0, 10.0, 20.0, 20.0)),
    ]

"""docparse's run of PyMuPDF's ruled-table search finds what ``page.find_tables`` finds."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from docparse.backends.pymupdf_tables import (
    CharList,
    chars_in_clip,
    fast_path_available,
    find_ruled_tables,
    install_indexed_check,
    page_chars,
    text_chars,
)
from tests.backends.ruled_pdfs import ruled_pdfs

pytestmark = pytest.mark.skipif(
    not fast_path_available(), reason="this PyMuPDF lacks the table internals"
)


@pytest.mark.parametrize("strategy", ["lines", "lines_strict"])
def test_same_tables_as_find_tables(strategy: str) -> None:
    import pymupdf

    tables = 0
    for pdf in ruled_pdfs():
        with pymupdf.open(pdf) as doc:
            for page in doc:
                clip = tuple(page.rect)
                # find_tables edits the paths it is given: each call gets its own.
                mine = find_ruled_tables(page, clip, page.get_drawings(), strategy)
                theirs = page.find_tables(
                    clip=clip, paths=page.get_drawings(), strategy=strategy, use_layout=False
                ).tables
                assert [t.cells for t in mine] == [t.cells for t in theirs], (pdf.name, page.number)
                tables += len(mine)
    assert tables >= 5


def test_page_chars_serve_every_clip() -> None:
    """One text page per page: a clip's characters picked from it are the clip text page's
    printed characters (and a few across its edges), and the search finds the same tables."""
    import pymupdf
    from pymupdf import table

    def printed(chars: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        keys = ("x0", "top", "x1", "bottom", "y0", "y1")
        rows = [(c["text"], *(round(c[k], 3) for k in keys)) for c in chars]
        return sorted(r for r in rows if not r[0].isspace())

    compared = 0
    flags = table.FLAGS & ~pymupdf.TEXT_COLLECT_STYLES
    old = bool(pymupdf.TOOLS.set_small_glyph_heights())
    for pdf in ruled_pdfs():
        with pymupdf.open(pdf) as doc:
            for page in doc:
                every = page_chars(page)
                r = page.rect
                # Clips that cut through text lines and words, and the whole page.
                for clip in (tuple(r), (r.x0 + 90, r.y0 + 133, r.x1 - 61, r.y1 - 207)):
                    pymupdf.TOOLS.set_small_glyph_heights(True)
                    try:
                        own = text_chars(page, page.get_textpage(clip=clip, flags=flags))
                    finally:
                        pymupdf.TOOLS.set_small_glyph_heights(old)
                    picked = chars_in_clip(every, clip)
                    mine, theirs = printed(picked), printed(own)
                    assert set(theirs) <= set(mine), (pdf.name, page.number, clip)
                    # MuPDF drops a glyph whose outline misses the clip though its
                    # box reaches in: only characters across the clip's edges differ.
                    for c in set(mine) - set(theirs):
                        x0, top, x1, bottom = c[1:5]
                        inside = clip[0] <= x0 and x1 <= clip[2] and clip[1] <= top
                        assert not (inside and bottom <= clip[3]), (pdf.name, c, clip)
                    compared += len(theirs)
                    for strategy in ("lines", "lines_strict"):
                        mine = find_ruled_tables(page, clip, page.get_drawings(), strategy, picked)
                        theirs = find_ruled_tables(page, clip, page.get_drawings(), strategy)
                        assert [t.cells for t in mine] == [t.cells for t in theirs]
    assert compared > 1000


def test_chars_in_clip_needs_overlap() -> None:
    """A character touching the clip's edge is outside it; one reaching over it is inside."""
    chars = [
        {"x0": 0.0, "x1": 10.0, "top": 0.0, "bottom": 10.0, "text": "a"},
        {"x0": 10.0, "x1": 20.0, "top": 0.0, "bottom": 10.0, "text": "b"},
        {"x0": 5.0, "x1": 15.0, "top": 5.0, "bottom": 15.0, "text": "c"},
    ]
    assert [c["text"] for c in chars_in_clip(chars, (10, 0, 30, 30))] == ["b", "c"]
    assert isinstance(chars_in_clip(chars, (0, 0, 1, 1)), CharList)


def test_rotated_page_same_tables(tmp_path: Path) -> None:
    """A page shown rotated is searched derotated: cells in the displayed page's space."""
    import pymupdf

    pdf = tmp_path / "rotated.pdf"
    with pymupdf.open(ruled_pdfs()[0]) as src, pymupdf.open() as out:
        out.insert_pdf(src, from_page=0, to_page=0)
        out[0].set_rotation(90)
        out.save(pdf)
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        clip = tuple(page.rect)
        mine = find_ruled_tables(page, clip, page.get_drawings(), "lines")
        page = doc[0]
        theirs = page.find_tables(
            clip=clip, paths=page.get_drawings(), strategy="lines", use_layout=False
        ).tables
        assert doc[0].rotation == 90
    assert mine and [t.cells for t in mine] == [t.cells for t in theirs]


def test_chars_match_make_chars() -> None:
    """The printed characters' boxes and text are find_tables' own (make_chars)."""
    import pymupdf
    from pymupdf import table

    keys = ("x0", "x1", "top", "bottom", "y0", "y1")

    def rows(chars: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        printed = [c for c in chars if not c["text"].isspace()]
        return sorted((c["text"], *(float(c[k]) for k in keys)) for c in printed)

    old = bool(pymupdf.TOOLS.set_small_glyph_heights())
    pymupdf.TOOLS.set_small_glyph_heights(True)
    try:
        with pymupdf.open(ruled_pdfs()[0]) as doc:
            page = doc[0]
            r = page.rect
            clip = (r.x0, r.y0 + 100, r.x1, r.y1 - 100)
            table._CHARS_VAR.set([])
            table.make_chars(page, clip=clip)
            theirs = rows(list(table.CHARS))
            flags = table.FLAGS & ~pymupdf.TEXT_COLLECT_STYLES
            mine = rows(text_chars(page, page.get_textpage(clip=clip, flags=flags)))
    finally:
        pymupdf.TOOLS.set_small_glyph_heights(old)
    assert len(theirs) > 100 and len(mine) == len(theirs)
    for a, b in zip(mine, theirs, strict=True):
        # PyMuPDF's matrix product runs in single precision: a thousandth apart.
        assert a[0] == b[0] and max(abs(x - y) for x, y in zip(a[1:], b[1:], strict=True)) < 0.01


def _random_chars(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Character boxes on a coarse grid, so box edges often coincide with query edges."""
    chars = []
    for _ in range(n):
        x0, y0 = rng.randrange(0, 40), rng.randrange(0, 40)
        x1, y1 = x0 + rng.randrange(0, 4), y0 + rng.randrange(0, 4)
        chars.append({"x0": float(x0), "x1": float(x1), "y0": float(y0), "y1": float(y1)})
    chars.append({"x0": 5.0, "x1": 6.0, "y0": math.nan, "y1": 6.0})
    chars.append({"x0": math.nan, "x1": 6.0, "y0": 5.0, "y1": 6.0})
    return chars


def test_char_index_answers_as_chars_in_rect() -> None:
    """CharList.any_inside gives PyMuPDF's own chars_in_rect answer, edges and NaN included."""
    from pymupdf import table

    install_indexed_check(table)  # a plain list still goes to PyMuPDF's function
    rng = random.Random(7)
    answers = set()
    for _ in range(40):
        chars = _random_chars(rng, rng.randrange(0, 30))
        indexed = CharList(chars)
        for _ in range(50):
            x0, y0 = rng.randrange(-2, 42), rng.randrange(-2, 42)
            rect = (
                float(x0),
                float(y0),
                float(x0 + rng.randrange(0, 12)),
                float(y0 + rng.randrange(0, 12)),
            )
            expected = table.chars_in_rect(list(chars), rect)
            assert indexed.any_inside(rect) == expected, (chars, rect)
            answers.add(expected)
    assert answers == {True, False}


def test_installed_check_uses_the_current_char_list() -> None:
    """make_edges' chars_in_rect(CHARS, rect) asks the index only when CHARS holds a CharList."""
    import pymupdf
    from pymupdf import table

    asked: list[Any] = []

    class Spy(CharList):
        def any_inside(self, rect: Any) -> bool:
            asked.append(rect)
            return super().any_inside(rect)

    install_indexed_check(table)
    install_indexed_check(table)  # twice: still one wrapper around PyMuPDF's function
    chars = [{"x0": 1.0, "x1": 2.0, "y0": 1.0, "y1": 2.0}]
    inside, outside = pymupdf.Rect(0, 0, 3, 3), pymupdf.Rect(5, 5, 9, 9)
    token = table._CHARS_VAR.set(Spy(chars))
    try:
        assert table.chars_in_rect(table.CHARS, inside) is True
        assert table.chars_in_rect(table.CHARS, outside) is False
        assert len(asked) == 2
        table._CHARS_VAR.set(list(chars))
        assert table.chars_in_rect(table.CHARS, inside) is True
        assert len(asked) == 2
    finally:
        table._CHARS_VAR.reset(token)

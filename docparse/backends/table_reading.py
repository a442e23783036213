"""A table region's grid read from its words, with no library call.

The region finders (:mod:`~docparse.backends.table_regions`,
:mod:`~docparse.backends.table_whitespace`) say where a table is; this module
reads its columns and rows from the words inside (:func:`region_grids`), the
page's table captions left out.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from docparse.backends.table_candidates import Word, phrase_gap, words_box
from docparse.backends.table_checks import ruled_off_plausible
from docparse.backends.table_grid import side_by_side_tables, stacked_tables, word_grid
from docparse.backends.table_regions import TABLE_CAPTION, Box, TextLine, caption_blocks
from docparse.backends.table_repair import header_blocks
from docparse.backends.table_rows import baseline_rows, row_phrases

#: A table found in a region: its box and its rows of cell strings.
RegionGrid = tuple[tuple[float, float, float, float], list[list[str]]]


def region_grids(
    words: Sequence[Word],
    clip: Box,
    columns: Sequence[float] | None = None,
    rules: Sequence[float] = (),
    lines: Sequence[TextLine] = (),
    breaks: Sequence[float] = (),
) -> list[RegionGrid]:
    """The table in a region known to hold one, read from its words (no library call).

    With drawn ``columns`` (x positions of rules or shading edges), those are the columns, closed
    just outside the region's words (:func:`columns_within`); otherwise the columns are the gaps the
    rows share (:func:`~docparse.backends.table_grid.word_grid`), with the vertical ``rules`` (x
    positions) as boundaries where no gap is. Rows come from baselines. The grid is kept only if it
    reads as a table, not prose (:func:`~docparse.backends.table_checks.ruled_off_plausible`). Table
    captions (with their wrapped lines, :func:`~docparse.backends.table_regions.caption_blocks`,
    from the page's text ``lines`` and from the region's own words) are no rows of it. ``breaks``: y
    positions of row rules (:func:`~docparse.backends.table_grid.word_grid`).
    """
    edges: list[float] | None = None
    if columns:
        boxes = (w[:4] for w in words if clip[1] <= (w[1] + w[3]) / 2 <= clip[3])
        edges = columns_within(columns, boxes)
        if len(edges) < 3:
            edges = None
    out: list[RegionGrid] = []
    words = _without_captions(words, clip, page_captions(lines) if lines else [])
    # Drawn columns belong to one table; without them, a header repeated
    # along its line or below the body, or a new header block of years
    # below rows of values, starts another table.
    parts = (
        [clip]
        if edges
        else [
            b
            for side in side_by_side_tables(words, clip)
            for p in stacked_tables(words, side)
            for b in header_blocks(words, p)
        ]
    )
    for part in parts:
        found = word_grid(words, part, edges, rules, breaks)
        if found is None:
            continue
        box, rows = found
        # A caption line caught in the region is the table's caption, not a row of it.
        rows = [
            r
            for r in rows
            if any(c.strip() for c in r) and not TABLE_CAPTION.match(" ".join(c for c in r if c))
        ]
        if ruled_off_plausible(rows):
            out.append((box, rows))
    return out


def columns_within(columns: Sequence[float], word_boxes: Iterable[Box]) -> list[float]:
    """Drawn column lines of a region, closed just outside its words.

    Rows found from text lines end at the words: a column line beyond them
    meets no row edge and leaves its column one tall cell. The lines strictly
    inside the words' extent are kept, with one line a point outside each end.
    Empty when the region holds no words.
    """
    boxes = list(word_boxes)
    if not boxes:
        return []
    lo = min(b[0] for b in boxes) - 1
    hi = max(b[2] for b in boxes) + 1
    return [lo, *(c for c in columns if lo + 1 < c < hi - 1), hi]


def _without_captions(words: Sequence[Word], clip: Box, captions: Sequence[Box]) -> Sequence[Word]:
    """The words of ``clip`` outside the ``captions`` boxes and the captions found in it.

    A caption's wrapped line (:func:`~docparse.backends.table_regions.caption_blocks`) read as a row
    of the table would cross its column gaps and hide them.
    """
    x0, y0, x1, y1 = clip[:4]
    inside = [w for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1]
    if not inside:
        return inside
    min_gap = phrase_gap(inside)
    # Phrases, not whole rows: a header line's pieces side by side are no caption's.
    rows = [
        (words_box(p), " ".join(w[4] for w in p))
        for r in baseline_rows(inside)
        for p in row_phrases(r, min_gap)
    ]
    # Only a caption reaching into the clip can hold a word centred in it.
    blocks = [
        b
        for b in (*captions, *caption_blocks(rows))
        if b[0] <= x1 and b[2] >= x0 and b[1] <= y1 and b[3] >= y0
    ]
    if not blocks:
        return inside
    return [
        w
        for w in inside
        if not any(
            b[0] <= (w[0] + w[2]) / 2 <= b[2] and b[1] <= (w[1] + w[3]) / 2 <= b[3] for b in blocks
        )
    ]


def page_captions(lines: Sequence[TextLine]) -> tuple[tuple[float, ...], ...]:
    """The table captions of a page's text lines, kept for the last few pages.

    They are :func:`~docparse.backends.table_regions.caption_blocks` of the lines. Every region read
    from a page's words leaves out the page's captions (:func:`region_grids`): they are found once
    per page, not per region.
    """
    return _page_captions(tuple(lines))


@functools.lru_cache(maxsize=4)
def _page_captions(lines: tuple[TextLine, ...]) -> tuple[tuple[float, ...], ...]:
    return tuple(caption_blocks(lines))


def shading_columns(fills: Iterable[Box], clip: Box) -> list[float]:
    """Column positions of a striped table: the x edges of the filled boxes inside ``clip``.

    Zebra shading is drawn cell by cell, so its edges are the author's columns.
    """
    return sorted(
        {
            round(float(x), 1)
            for f in fills
            if clip[1] <= f[1] and f[3] <= clip[3]
            for x in (f[0], f[2])
        }
    )

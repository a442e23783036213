"""A table region's grid read from its words, with no library call.

The region finders (:mod:`~docparse.backends.table_regions`,
:mod:`~docparse.backends.table_whitespace`) say where a table is; this module
reads its columns and rows from the words inside (:func:`region_grids`), the
page's table captions left out.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import pairwise

from docparse.backends.pages import TableRegion
from docparse.backends.table_candidates import Box4, Word, is_number, phrase_gap, words_box
from docparse.backends.table_checks import ruled_off_plausible
from docparse.backends.table_grid import word_grid
from docparse.backends.table_headers import NIL_CELL
from docparse.backends.table_regions import TABLE_CAPTION, Box, TextLine, caption_blocks
from docparse.backends.table_repair import header_blocks
from docparse.backends.table_rows import baseline_rows, clip_rows, row_phrases
from docparse.backends.table_split import side_by_side_tables, stacked_tables
from docparse.backends.table_symbols import attach_symbols
from docparse.model import BBox

#: A table found in a region: its box and its rows of cell strings.
RegionGrid = tuple[tuple[float, float, float, float], list[list[str]]]


def as_regions(grids: Iterable[RegionGrid]) -> list[TableRegion]:
    """``grids`` as the backends' table regions, each row padded to the widest."""
    out: list[TableRegion] = []
    for box, rows in grids:
        width = max(len(r) for r in rows)
        grid = tuple(tuple(r) + ("",) * (width - len(r)) for r in rows)
        x0, y0, x1, y1 = (float(v) for v in box)
        out.append(TableRegion(BBox(x0, y0, x1, y1), grid))
    return out


def region_box(t: TableRegion) -> Box4:
    """A table region's box as ``(x0, top, x1, bottom)``."""
    return (t.bbox.x0, t.bbox.y0, t.bbox.x1, t.bbox.y1)


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
    positions of row rules (:func:`~docparse.backends.table_grid.word_grid`). Where the gaps
    leave values glued to their labels, the columns are read again from the rows of values
    (:func:`_labels_apart`).
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
        if not edges:
            found = _labels_apart(words, part, found, rules, breaks)
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


#: Words inside a run of values: a range's "to" or dash (``3.7% to 23.0%``).
_RANGE_WORDS = frozenset({"to", "-", "–", "—"})


def _value_tail(texts: Sequence[str]) -> int:
    """How many of a row's last words are its values (a range's joining words included)."""
    n = 0
    for i in range(len(texts) - 1, -1, -1):
        t = texts[i]
        if is_number(t) or NIL_CELL.match(t):
            n = len(texts) - i
        elif t not in _RANGE_WORDS or i == 0 or n == 0:
            break
    return n


def _glued_rows(rows: Sequence[Sequence[str]]) -> int:
    """Rows with a cell holding a label and then values, beside another cell of values."""
    count = 0
    for row in rows:
        cells = [c.split() for c in row]
        valued = [bool(c) and _value_tail(c) == len(c) for c in cells]
        glued = any(0 < _value_tail(c) < len(c) and any(ch.isalpha() for ch in c[0]) for c in cells)
        count += glued and any(valued)
    return count


#: A value and the currency sign of the next column read as one word (``1,379$``):
#: tight columns set the sign against the value before it, closer than a word space.
_GLUED_SIGN = re.compile(r"\d[$£¥€]")


def _label_edge(words: Sequence[Word], clip: Box) -> float | None:
    """Where the label column ends, from the rows ending in two or more values.

    Between the right end of their labels and the left end of their first
    values; ``None`` when the two overlap (no such gap, or fewer than two
    rows) or a label stands a word space from its values. Rows whose label
    part holds a value glued to the next column's currency sign
    (:data:`_GLUED_SIGN`) are left out: their values run into the label.
    """
    inside = [
        w
        for w in words
        if clip[0] <= (w[0] + w[2]) / 2 <= clip[2] and clip[1] <= (w[1] + w[3]) / 2 <= clip[3]
    ]
    ends: list[float] = []
    starts: list[float] = []
    apart: list[float] = []  # each row's gap between its label and its values
    spaces = [0.0]  # the word spaces inside the labels
    for row in baseline_rows(inside):
        row = attach_symbols(sorted(row, key=lambda w: w[0]))
        tail = _value_tail([w[4] for w in row])
        label = row[: len(row) - tail]
        # A "label" word holding a value glued to a sign is values: the row's
        # label end says nothing of the label column.
        if any(_GLUED_SIGN.search(w[4]) for w in label):
            continue
        if tail >= 2 and label and any(ch.isalpha() for w in label for ch in w[4]):
            ends.append(max(w[2] for w in label))
            starts.append(row[len(label)][0])
            apart.append(row[len(label)][0] - label[-1][2])
            spaces.extend(b[0] - a[2] for a, b in pairwise(label))
    if len(ends) < 2 or min(starts) <= max(ends):
        return None
    # Labels stand apart from their values by more than a word space: a number
    # a word space after its label is the label's (``Site 1``, ``Level 3``).
    if min(apart) <= max(max(spaces), 0.5 * phrase_gap(inside)):
        return None
    return (min(starts) + max(ends)) / 2


def _labels_apart(
    words: Sequence[Word],
    clip: Box,
    found: tuple[Box4, list[list[str]]],
    rules: Sequence[float],
    breaks: Sequence[float],
) -> tuple[Box4, list[list[str]]]:
    """``found``, or the grid read again with the label column's edge as a boundary.

    The columns are the gaps every row leaves free; a wrapped label line
    reaching under the first column of values (``Excess net tax benefit for
    other share-based``) closes the gap there, and each row's values of that
    column join its label (``Share-based compensation $2,170``). The rows of
    values still leave it free: their labels end left of their values. The
    edge goes in as a column rule, so a phrase across it keeps it out; the
    new grid is kept when it holds fewer such glued rows.
    """
    glued = _glued_rows(found[1])
    if not glued:
        return found
    edge = _label_edge(words, clip)
    if edge is None:
        return found
    again = word_grid(words, clip, None, [*rules, edge], breaks)
    if again is not None and _glued_rows(again[1]) < glued:
        return again
    aligned = _aligned_grid(words, clip, edge)
    if aligned is None or _glued_rows(aligned[1]) or len(aligned[1][0]) < len(found[1][0]):
        return found
    return aligned


def _value_cells(words: Sequence[Word]) -> list[list[Word]]:
    """A row's value words cut into cells: a value, a nil mark, or a range of two
    values with the weighted average after it (``3.7% to 23.0% (13.0%)``)."""
    cells: list[list[Word]] = []
    i = 0
    while i < len(words):
        cell = [words[i]]
        i += 1
        if i + 1 < len(words) and words[i][4] in _RANGE_WORDS and is_number(words[i + 1][4]):
            cell += words[i : i + 2]
            i += 2
            if i < len(words) and words[i][4][:1] == "(" and is_number(words[i][4]):
                cell.append(words[i])
                i += 1
        cells.append(cell)
    return cells


def _aligned_grid(
    words: Sequence[Word], clip: Box, label_edge: float
) -> tuple[Box4, list[list[str]]] | None:
    """The grid of a table whose columns stand closer than a word space in some rows.

    Small type set tight (``Recovery rate 8.9% to 99.0% (60.6%) 19.6% to 96.5%
    (59.4%)``, two points between columns) leaves no gap for the columns: the
    rows of values cut into their cells (:func:`_value_cells`) give them. When
    most of those rows hold the same number of cells and each column's cells
    end left of where the next column's begin, the boundaries lie between;
    those rows are placed cell by cell, the other rows (headers, section
    labels) phrase by phrase, each phrase in the column of its left end.
    ``None`` when the rows of values do not agree.
    """
    rows = [attach_symbols(r) for r in clip_rows(words, clip)]
    if not rows:
        return None
    min_gap = phrase_gap([w for r in rows for w in r])
    split: list[tuple[list[Word], list[list[Word]]] | None] = []
    for r in rows:
        tail = _value_tail([w[4] for w in r])
        cells = _value_cells(r[len(r) - tail :]) if tail >= 2 and tail < len(r) else []
        split.append((r[: len(r) - tail], cells) if len(cells) >= 2 else None)
    valued = [s for s in split if s is not None]
    if len(valued) < 3:
        return None
    k = Counter(len(c) for _, c in valued).most_common(1)[0][0]
    same = [s for s in valued if len(s[1]) == k]
    if len(same) < 0.8 * len(valued):
        return None
    bounds = [label_edge]
    for j in range(k - 1):
        right = max(c[j][-1][2] for _, c in same)
        left = min(c[j + 1][0][0] for _, c in same)
        if left <= right:
            return None
        bounds.append((left + right) / 2)
    grid: list[list[str]] = []
    for r, s in zip(rows, split, strict=True):
        placed: list[list[Word]] = [[] for _ in range(k + 1)]
        if s is not None and len(s[1]) == k:
            placed = [s[0], *s[1]]
        else:
            for p in row_phrases(r, min_gap):
                placed[bisect_right(bounds, p[0][0])].extend(p)
        grid.append([" ".join(w[4] for w in c) for c in placed])
    return words_box([w for r in rows for w in r]), grid


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

"""Table finding shared by the PDF backends: the heuristics, not the library calls.

Each backend asks its own library for candidate grids (PyMuPDF's and
pdfplumber's ``find_tables`` with ruled, whitespace or explicit strategies)
and uses the shared heuristics to keep them comparable. They live in four
modules by what they do:

* :mod:`~docparse.backends.table_regions`: where tables are (rule-bounded,
  caption-anchored, zebra-striped regions, open sides of column-ruled tables);
* :mod:`~docparse.backends.table_checks`: which grids read as tables, not prose;
* :mod:`~docparse.backends.table_repair`: choosing between two readings of a
  table and repairing rows a strategy got wrong;
* this module: reading a region's grid from its words (:func:`region_grids`),
  and growing or widening grids over header lines and open sides.

The names of the first three are importable from here as well.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from docparse.backends.table_candidates import (
    PageInputs,
    Word,
    is_number,
    numeric_regions,
    numeric_row_boxes,
    overlaps,
    phrase_gap,
    union,
    vertical_rules,
    words_box,
)
from docparse.backends.table_checks import (
    contents_list,
    grid_fill,
    plausible_table,
    prose_table,
    rich_table,
    rows_across,
    ruled_off_plausible,
    text_line_count,
)
from docparse.backends.table_grid import (
    merge_symbol_cells,
    side_by_side_tables,
    stacked_tables,
    word_grid,
)
from docparse.backends.table_headers import NUMBER_CELL, UNITS_LINE, header_top, is_data_row
from docparse.backends.table_regions import (
    TABLE_CAPTION,
    TABLE_MARGIN,
    Box,
    TextLine,
    banded_regions,
    caption_blocks,
    caption_regions,
    column_edges,
    is_rule,
    label_value_regions,
    open_sides,
    rule_bounded_regions,
    without_prose_sides,
)
from docparse.backends.table_repair import (
    column_runs_first,
    column_starts,
    header_blocks,
    joined_runs,
    prefer_fuller_grids,
    split_stacked_rows,
    spread_merged_cells,
    with_closing_rows,
    without_larger_type,
)
from docparse.backends.table_rows import baseline_rows, has_leaders, row_phrases

__all__ = [
    "SIDE_SLACK",
    "TABLE_CAPTION",
    "TABLE_MARGIN",
    "Box",
    "RegionGrid",
    "TextLine",
    "banded_regions",
    "caption_parts",
    "caption_regions",
    "column_edges",
    "column_starts",
    "columns_within",
    "contents_list",
    "grid_fill",
    "grow_headers",
    "is_rule",
    "join_cut_grids",
    "join_strips",
    "label_value_regions",
    "numeric_tables_beyond",
    "open_sides",
    "page_captions",
    "plausible_table",
    "prefer_fuller_grids",
    "prose_table",
    "region_grids",
    "rich_table",
    "rule_bounded_regions",
    "ruled_off_plausible",
    "shading_columns",
    "split_stacked_rows",
    "spread_merged_cells",
    "text_line_count",
    "whitespace_regions",
    "widen_to_open_sides",
    "with_extra_tables",
    "within_margins",
    "without_prose_sides",
]

G = TypeVar("G")
#: A table found in a region: its box and its rows of cell strings.
RegionGrid = tuple[tuple[float, float, float, float], list[list[str]]]


def grow_headers(grids: Sequence[RegionGrid], inputs: PageInputs) -> list[RegionGrid]:
    """Ruled grids whose column headers sit above their first rule, read again with them.

    Filings draw a rule under the header, so a ruled strategy starts the
    table below it. Where :func:`header_top` finds header lines above a
    grid, the grown region is read from its words (:func:`region_grids`, the
    vertical rules as column boundaries) and replaces the grid when it holds
    more non-empty cells. Only header lines with two or more pieces side by
    side, or a units line, count, and never the rows of the table above.
    """
    out: list[RegionGrid] = []
    captions = page_captions(inputs.lines) if grids else []
    for box, rows in grids:
        pitch = (box[3] - box[1]) / max(len(rows), 1)
        # Never into the table above: its rows are no header of this one.
        # Nor into a caption above, wrapped lines included.
        floor = max(
            (
                b[3]
                for b in [*(g for g, _ in grids if g is not box), *captions]
                if b[3] <= box[1] + 1 and b[0] < box[2] and box[0] < b[2]
            ),
            default=float("-inf"),
        )
        over = [
            ln
            for ln in inputs.lines
            if ln[0][0] >= box[0] - 6 and ln[0][2] <= box[2] + 6 and ln[0][1] >= floor - 1
        ]
        top = header_top(over, box[1] + 1, max(pitch, 6.0))
        heads = [ln for ln in over if ln[0][1] >= top - 1 and ln[0][3] <= box[1] + 1]
        top, heads = _without_title(heads, box, top)
        # Column headers stand side by side over the columns; a lone title line
        # above a table is not one, a lone units line ("(In millions)") is.
        side_by_side = any(
            sum(abs((a[1] + a[3]) - (b[1] + b[3])) < 4 for b, _ in heads) >= 2 for a, _ in heads
        ) or any(UNITS_LINE.match(t.strip()) for _, t in heads)
        if top >= box[1] - 1 or not side_by_side:
            out.append((box, rows))
            continue
        clip = (box[0] - 1, top - 1, box[2] + 1, box[3])
        rules = vertical_rules(inputs.segments, box)
        again = region_grids(inputs.words, clip, rules=rules, lines=inputs.lines)
        # Counted with signs joined: a ruled grid's "$" cells are no content.
        filled = _filled(merge_symbol_cells([list(r) for r in rows]))
        if again and _filled(again[0][1]) > filled:
            out.append(again[0])
        else:
            out.append((box, rows))
    return out


def _without_title(heads: Sequence[TextLine], box: Box, top: float) -> tuple[float, list[TextLine]]:
    """Header lines above a table without the title lines at their top.

    A statement's title ("Consolidated Statements of Operations") stands
    alone in its line above the column headers, centred over the table or
    flush with its left edge; a spanning column header ("Year Ended") stands
    over the value columns only. Lone lines of the first kind are taken off
    the top (a units line never is); returns the new top and the lines left.
    """
    kept = sorted(heads, key=lambda ln: ln[0][1])
    width = box[2] - box[0]
    while kept:
        (x0, y0, x1, y1), text = kept[0][0][:4], kept[0][1]
        alone = not any(abs((b[1] + b[3]) - (y0 + y1)) < 4 for b, _ in kept[1:])
        centred = abs((x0 + x1) / 2 - (box[0] + box[2]) / 2) < 0.05 * width
        flush = abs(x0 - box[0]) < 3 and x1 - x0 < 0.6 * width
        if not alone or not (centred or flush) or UNITS_LINE.match(text.strip()):
            break
        kept.pop(0)
    return (min(ln[0][1] for ln in kept) if kept else top), kept


def _filled(rows: Iterable[Sequence[str]]) -> int:
    return sum(1 for r in rows for c in r if c.strip())


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


def whitespace_regions(
    inputs: PageInputs,
    clusters: Sequence[Box],
    lumped: bool,
    margin: float = TABLE_MARGIN,
    max_header: int | None = None,
) -> list[RegionGrid]:
    """Tables read from the words where rows of numbers are (:func:`numeric_regions`).

    A ruled cluster that a numeric region touches is read with it as one
    region (a table ruled only between its column groups: the rules alone
    leave out the stub column); with ``lumped`` (a ruled table came out with
    several text lines per row) every cluster is read again from its words.
    The vertical rules inside a region are column boundaries. Grids that do
    not read as a table (:func:`plausible_table`) are dropped.
    ``max_header`` caps the header lines a region of numbers grows over.
    """
    top, bottom = margin * inputs.height, (1 - margin) * inputs.height
    runs = numeric_regions(inputs.lines, inputs.width, max_header)
    regions = joined_runs(
        column_runs_first(runs, inputs.lines, inputs.words, inputs.width, max_header)
    )
    # Label/value lists hold one number a row: no numeric region sees them, or
    # only the stretch of them where a label holds a number too (ITEM 1. | 1).
    for r in label_value_regions(inputs.words):
        over = [o for o in regions if overlaps(r, o)]
        if over and min(o[1] for o in over) - 2 <= r[1] and r[3] <= max(o[3] for o in over) + 2:
            continue
        merged = (r[0], r[1], r[2], r[3])
        for o in over:
            merged = union(merged, o)
        regions = [o for o in regions if not any(o is v for v in over)] + [merged]
    for c in clusters:
        touching = [i for i, r in enumerate(regions) if overlaps(c, r)]
        if touching:
            merged = (c[0], c[1], c[2], c[3])
            for i in touching:
                merged = union(merged, regions[i])
            regions = [r for i, r in enumerate(regions) if i not in touching] + [merged]
        elif lumped:
            regions.append((c[0], c[1], c[2], c[3]))
    out: list[RegionGrid] = []
    captions = _caption_lines(page_captions(inputs.lines), inputs.lines) if regions else []
    for found in (
        p for r in regions for p in caption_parts(r, captions, inputs.width, inputs.words)
    ):
        # A page column's prose on the rows' baselines is no part of the table.
        r = without_prose_sides(found, inputs.words)
        r = with_closing_rows(without_larger_type(r, inputs.words), inputs.words)
        clip = within_margins(r, inputs.words, top, bottom)
        if clip[3] <= clip[1]:
            continue
        rules = vertical_rules(inputs.segments, clip)
        for g in region_grids(inputs.words, clip, rules=rules, lines=inputs.lines):
            # Two regions (a cluster and a numeric run) may read the same table.
            if any(overlaps(g[0], o[0]) for o in out):
                continue
            # Titles led by dots to their page numbers are a table of contents
            # (a contents list set as an aligned table, as filings do, stays one).
            contents = contents_list(g[1]) and has_leaders(inputs.words, g[0])
            if plausible_table(g[1], (g[0][3] - g[0][1]) / (inputs.height or 1.0)) and not contents:
                out.append(g)
    return out


def within_margins(
    region: Sequence[float], words: Sequence[Word], top: float, bottom: float
) -> Box:
    """``region`` cut to the band between ``top`` and ``bottom``, not through a bottom line.

    The margins keep running heads and page numbers out of tables, but a
    statement's last row may be set across the bottom margin (its top above
    it): the band is lowered to take in whole the words of the region that
    the bottom margin cuts through. At the top a line across the margin is
    left out (a running head or an exhibit number set low).
    """
    x0, y0, x1, y1 = (float(v) for v in region[:4])
    hi = bottom
    for w in words:
        if w[1] < bottom < w[3] and x0 <= (w[0] + w[2]) / 2 <= x1:
            hi = max(hi, w[3])
    return (x0, max(y0, top), x1, min(y1, hi))


def _inside(box: Sequence[float], boxes: Iterable[Sequence[float]]) -> bool:
    """Whether the centre of ``box`` lies in one of ``boxes``."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes)


def _values_held(row: Sequence[float], values: Sequence[Word], boxes: Sequence[Box]) -> bool:
    """Whether every value word on ``row`` lies in one of ``boxes``.

    A ruled piece holding only the first columns of a row (a grid cut at a
    column rule) holds its centre but leaves its other values out.
    """
    return all(
        _inside(w[:4], boxes)
        for w in values
        if row[1] <= (w[1] + w[3]) / 2 <= row[3] and row[0] <= (w[0] + w[2]) / 2 <= row[2]
    )


#: Points a shaded piece may reach above or below the words of a table read from its words.
END_SLACK = 4.0
#: Points a ruled piece may reach past the words of a table read from its words.
SIDE_SLACK = 12.0


def numeric_tables_beyond(
    found: Iterable[Sequence[float]], inputs: PageInputs, clusters: Sequence[Box]
) -> list[RegionGrid]:
    """Whitespace tables holding rows of numbers that the ruled tables ``found`` left out.

    A ruled strategy that reads one good table stops the whitespace search
    (:func:`~docparse.backends.table_checks.rich_table`), but a statement
    ruled or shaded only in part (a zebra-striped upper half, rules under its
    totals) holds other rows unruled, and those would come out as
    paragraphs. Where a row of two or more values
    (:func:`~docparse.backends.table_candidates.numeric_row_boxes`) lies in
    no found box, the page's whitespace tables (:func:`whitespace_regions`)
    holding such a row are returned, to be merged with ``found`` by
    :func:`with_extra_tables`: one holding found pieces and more non-empty
    cells replaces them (the pieces' shading or rules may reach past its
    words on the sides, hence :data:`SIDE_SLACK`). Their regions grow over at
    most four header lines above their values, unless label rows lead up to
    the rows above: a ruled table's caption, heading and lead-in sentence are
    no rows of it (a 10-K note's ``NOTE 6 -- ...`` and ``... were as follows:``).
    """
    boxes = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in found]
    values = [w for w in inputs.words if is_number(w[4])]
    loose = [
        r
        for r in numeric_row_boxes(inputs.lines)
        if not _inside(r, boxes) or not _values_held(r, values, boxes)
    ]
    if not loose:
        return []
    tables = whitespace_regions(inputs, clusters, lumped=False, max_header=4)
    kept = [g for g in tables if any(_inside(r, [g[0]]) for r in loose)]
    # A table cut off under one of them at its own header block (stacked
    # segment tables, a statement's balance sheet block) is read the same way,
    # though the ruled pieces happen to hold all its rows of values.
    grown = True
    while grown:
        grown = False
        for g in tables:
            if not any(g is k for k in kept) and any(_stacked_on(k, g) for k in kept):
                kept.append(g)
                grown = True
    return kept


def _stacked_on(upper: RegionGrid, lower: RegionGrid) -> bool:
    """Whether ``lower`` starts within two row pitches under ``upper``, across most of its width."""
    a, b = upper[0], lower[0]
    pitch = (a[3] - a[1]) / max(len(upper[1]), 1)
    width = min(a[2], b[2]) - max(a[0], b[0])
    return 0 <= b[1] - a[3] <= 2 * pitch and width >= 0.5 * max(a[2] - a[0], b[2] - b[0])


def _caption_lines(captions: Sequence[Box], lines: Sequence[TextLine]) -> list[Box]:
    """Caption boxes widened over the text on their first line.

    A label set apart from its title ("Table 4", a wide space, "A table
    spanning two columns") is a text line of its own: the caption's extent,
    and so its page column, is that of the label and the title together.
    Lines on the caption's baseline less than two line heights apart are
    taken in, one after the other on either side.
    """
    out: list[Box] = []
    for c in captions:
        x0, x1 = float(c[0]), float(c[2])
        first = next((b for b, _ in lines if abs(b[1] - c[1]) < 1 and abs(b[0] - c[0]) < 1), None)
        if first is None:
            out.append((x0, float(c[1]), x1, float(c[3])))
            continue
        mid = (first[1] + first[3]) / 2
        gap = 2 * (first[3] - first[1])
        row = sorted((b for b, _ in lines if b[1] <= mid <= b[3]), key=lambda b: b[0])
        grown = True
        while grown:
            grown = False
            for b in row:
                if b[0] < x0 and 0 <= x0 - b[2] <= gap:
                    x0, grown = float(b[0]), True
                elif b[2] > x1 and 0 <= b[0] - x1 <= gap:
                    x1, grown = float(b[2]), True
        out.append((x0, float(c[1]), x1, float(c[3])))
    return out


def caption_parts(
    region: Box, captions: Sequence[Box], page_width: float, words: Sequence[Word] = ()
) -> list[Box]:
    """``region`` cut at the table captions inside it, and kept to their page column.

    A caption is never a row of a table: a region of rows of numbers that
    holds one (a whole-width run over two tables in one page column, or over
    a table and the next one's caption) is two tables, cut above and below
    the caption (``captions``: :func:`caption_blocks` boxes). A region
    across both page columns whose captions all sit in one column is that
    column's table: the other column's lines on its baselines (a figure's
    labels) are left out. A caption across the middle (a full-width float's,
    set centred) keeps the whole width, and so does a table whose rows go on
    past the middle (``words``: the page's; :func:`rows_across`).
    """
    x0, y0, x1, y1 = (float(v) for v in region[:4])
    inside = [
        c for c in captions if y0 <= (c[1] + c[3]) / 2 <= y1 and min(c[2], x1) - max(c[0], x0) > 0
    ]
    if not inside:
        return [(x0, y0, x1, y1)]
    mid = page_width / 2
    left = all(c[2] <= mid + 10 for c in inside)
    right = all(c[0] >= mid - 10 for c in inside)
    crosses = x0 < mid - 10 and x1 > mid + 10
    if crosses and not rows_across([w for w in words if not _inside(w[:4], inside)], region, mid):
        if left:
            x1 = mid + 10
        elif right:
            x0 = mid - 10
    out: list[Box] = []
    top = y0
    for c in sorted(inside, key=lambda c: c[1]):
        if c[1] > top:
            out.append((x0, top, x1, c[1]))
        top = max(top, c[3])
    if top < y1:
        out.append((x0, top, x1, y1))
    return out


def widen_to_open_sides(
    grids: Sequence[RegionGrid], inputs: PageInputs, rules: Sequence[tuple[float, float, float]]
) -> list[RegionGrid]:
    """Ruled grids that leave out an unruled stub or last column, read again with them.

    ``rules`` are the page's vertical rules ``(x, top, bottom)``. Where
    :func:`open_sides` finds a table going on beyond its outermost rules, the
    grid's band widened to those sides is read from its words
    (:func:`region_grids`, the rules as column boundaries); the reading
    replaces the ruled grid when it holds more non-empty cells.
    """
    sides = open_sides(rules, [w[:4] for w in inputs.words])
    if not sides:
        return list(grids)
    out: list[RegionGrid] = []
    for box, rows in grids:
        xs = [x for x, top, bottom in sides if top <= box[3] and bottom >= box[1]]
        if not xs:
            out.append((box, rows))
            continue
        clip = (min(box[0], *xs), box[1], max(box[2], *xs), box[3])
        # The other page column's prose is no unruled column of this table.
        clip = without_prose_sides(clip, inputs.words)
        if clip[0] >= box[0] - 1 and clip[2] <= box[2] + 1:
            out.append((box, rows))
            continue
        inner = [x for x, top, bottom in rules if top <= box[3] and bottom >= box[1]]
        again = region_grids(inputs.words, clip, rules=inner, lines=inputs.lines)
        filled = sum(1 for r in rows for c in r if c.strip())
        best = max(again, key=lambda g: sum(1 for r in g[1] for c in r if c.strip()), default=None)
        if best is not None and sum(1 for r in best[1] for c in r if c.strip()) > filled:
            out.append(best)
        else:
            out.append((box, rows))
    return out


def region_grids(
    words: Sequence[Word],
    clip: Box,
    columns: Sequence[float] | None = None,
    rules: Sequence[float] = (),
    lines: Sequence[TextLine] = (),
    breaks: Sequence[float] = (),
) -> list[RegionGrid]:
    """The table in a region known to hold one, read from its words (no library call).

    With drawn ``columns`` (x positions of rules or shading edges), those are
    the columns, closed just outside the region's words
    (:func:`columns_within`); otherwise the columns are the gaps the rows
    share (:func:`~docparse.backends.table_grid.word_grid`), with the
    vertical ``rules`` (x positions) as boundaries where no gap is. Rows come
    from baselines. The grid is kept only if it reads as a table, not prose
    (:func:`ruled_off_plausible`). Table captions (with their wrapped lines,
    :func:`caption_blocks`, from the page's text ``lines`` and from the
    region's own words) are no rows of it. ``breaks``: y positions of row
    rules (:func:`~docparse.backends.table_grid.word_grid`).
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


def _without_captions(words: Sequence[Word], clip: Box, captions: Sequence[Box]) -> Sequence[Word]:
    """The words of ``clip`` outside the ``captions`` boxes and the captions found in it.

    A caption's wrapped line (:func:`caption_blocks`) read as a row of the
    table would cross its column gaps and hide them.
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
    """:func:`caption_blocks` of a page's text lines, kept for the last few pages.

    Every region read from a page's words leaves out the page's captions
    (:func:`region_grids`): they are found once per page, not per region.
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


def with_extra_tables(
    found: Sequence[G],
    extra: Sequence[G],
    box: Callable[[G], Box],
    rows: Callable[[G], Sequence[Sequence[str]]],
    replace: bool = True,
    side_slack: float = 2.0,
) -> list[G]:
    """``found`` with the tables of the region finders (``extra``) added.

    An extra table overlapping no found one is added. With ``replace`` (for
    tables bounded by rules, not for a caption's guess at its table's
    extent), one that holds every found table it overlaps, reaches beyond
    them (header lines above them, another block of rows) and has more
    non-empty cells replaces them: a finder of rows of numbers reads a table
    between its rules as pieces without its header (``Male`` and ``Female``
    blocks under a four-line header, all between a top and a bottom rule).
    "Holds" allows ``side_slack`` points on the left and right (rules and
    shading reach past the words a table read from its words spans), and up
    to :data:`END_SLACK` of them above and below (a shaded row's band).
    Extra tables that overlap one found table together (a region cut in two
    at a new header block, under a ruled piece spanning the cut) replace it
    together on the same terms. Found tables standing side by side, each
    with row labels, are never replaced by one.
    """
    end_slack = min(side_slack, END_SLACK)

    def holds(outer: Box, f: G) -> bool:
        b = box(f)
        return (
            b[0] >= outer[0] - side_slack
            and b[1] >= outer[1] - end_slack
            and b[2] <= outer[2] + side_slack
            and b[3] <= outer[3] + end_slack
        )

    out = list(found)
    used: list[G] = []
    for g in extra:
        if any(g is u for u in used):
            continue
        b = box(g)
        over = [f for f in out if overlaps(box(f), b)]
        if not over:
            out.append(g)
            continue
        # A region cut in two at a new header block reads as two tables where
        # a ruled piece spans the cut: together they hold it.
        group = [g]
        if not all(holds(b, f) for f in over):
            group += [
                h
                for h in extra
                if h is not g
                and not any(h is u for u in used)
                and any(overlaps(box(f), box(h)) for f in over)
            ]
            over = [f for f in out if any(overlaps(box(f), box(h)) for h in group)]
        whole = box(group[0])
        for h in group[1:]:
            whole = union(whole, box(h))
        held = all(holds(whole, f) for f in over)
        top = min(box(f)[1] for f in over)
        bottom = max(box(f)[3] for f in over)
        beyond = whole[1] < top - 2 or whole[3] > bottom + 2 or len(over) > len(group)
        more = sum(_filled(rows(h)) for h in group) > sum(_filled(rows(f)) for f in over)
        tables = [(box(f), rows(f)) for f in over]
        if replace and held and beyond and more and not _side_by_side(tables):
            out = [f for f in out if not any(f is o for o in over)]
            out.extend(group)
            used.extend(group)
    return out


def _side_by_side(tables: Sequence[tuple[Box, Sequence[Sequence[str]]]]) -> bool:
    """Whether two of ``tables`` stand next to each other, each with its own row labels.

    Tables found side by side whose first columns are labels are separate
    tables (three country lists over one page): a reading from the words
    across all of them is no table. A piece whose first column is values
    is the rest of the rows at its left (a grid cut at a column rule).
    """
    labelled = [(b, r) for b, r in tables if _labelled(r)]
    for i, (a, _) in enumerate(labelled):
        for b, _ in labelled[i + 1 :]:
            apart = a[2] <= b[0] + 2 or b[2] <= a[0] + 2
            shared = min(a[3], b[3]) - max(a[1], b[1])
            if apart and shared > 0.5 * min(a[3] - a[1], b[3] - b[1]):
                return True
    return False


def _labelled(rows: Sequence[Sequence[str]]) -> bool:
    """Whether most non-empty first cells of ``rows`` are text, not values."""
    firsts = [r[0] for r in rows if r and r[0] and r[0].strip()]
    return bool(firsts) and sum(not NUMBER_CELL.match(c) for c in firsts) > len(firsts) / 2


def join_strips(
    found: Sequence[G],
    regions: Sequence[tuple[tuple[float, float, float, float], list[int]]],
    read: Callable[[tuple[float, float, float, float]], list[G]],
    top_left: Callable[[G], tuple[float, float]],
) -> list[G]:
    """``found`` with the strips of each :func:`banded_regions` region replaced by ``read(region)``.

    A region whose reading finds no table keeps its strips. The result is in
    reading order of the grids' top-left corners.
    """
    drop: set[int] = set()
    joined: list[G] = []
    for clip, strips in regions:
        grids = read(clip)
        if grids:
            joined.extend(grids)
            drop.update(strips)
    kept = [g for i, g in enumerate(found) if i not in drop]
    return sorted([*kept, *joined], key=top_left)


def join_cut_grids(grids: Sequence[RegionGrid], inputs: PageInputs) -> list[RegionGrid]:
    """Ruled grids of one table cut apart at a row without rules, read again as one.

    A table ruled under some rows only (its header, its last body row) comes
    out of a ruled strategy as pieces one above the other: same columns,
    same left and right edges, less than a row apart, the lower piece
    starting with a row of values. A line of values below the last piece
    with no row label (a column total under its rule) belongs to it too.
    The pieces' band is read from its words (:func:`region_grids`, the
    vertical rules as column boundaries) and replaces them when it holds
    more non-empty cells.
    """
    out: list[tuple[tuple[float, float, float, float], list[list[str]], bool]] = []
    for piece, rows in sorted(grids, key=lambda g: g[0][1]):
        box = (float(piece[0]), float(piece[1]), float(piece[2]), float(piece[3]))
        if out:
            a, above, _ = out[-1]
            pitch = (a[3] - a[1]) / max(len(above), 1)
            width = max((len(r) for r in rows), default=0)
            if (
                abs(a[0] - box[0]) <= 4
                and abs(a[2] - box[2]) <= 4
                and 0 <= box[1] - a[3] <= pitch
                and width == max((len(r) for r in above), default=0)
                and rows
                and is_data_row([c or "" for c in rows[0]])
            ):
                out[-1] = (union(a, box), [*above, *rows], True)
                continue
        out.append((box, list(rows), False))
    if len(out) == len(grids):
        return list(grids)
    result: list[RegionGrid] = []
    for band, rows, joined in out:
        if not joined:
            result.append((band, rows))
            continue
        box = band
        pitch = (box[3] - box[1]) / max(len(rows), 1)
        below = [
            w
            for w in inputs.words
            if box[3] - 1 <= w[1] <= box[3] + pitch and w[0] >= box[0] - 2 and w[2] <= box[2] + 2
        ]
        rows_below = baseline_rows(below)
        line = rows_below[0] if rows_below else []
        unlabelled = all(w[0] > box[0] + 0.3 * (box[2] - box[0]) for w in line)
        bottom = box[3]
        if line and unlabelled and sum(is_number(w[4].lstrip("$")) for w in line) >= 2:
            bottom = max(w[3] for w in line)
        clip = (box[0] - 1, box[1] - 1, box[2] + 1, bottom + 1)
        again = region_grids(inputs.words, clip, rules=vertical_rules(inputs.segments, clip))
        if again and _filled(again[0][1]) > _filled(merge_symbol_cells([list(r) for r in rows])):
            result.append(again[0])
        else:
            result.append((box, rows))
    return result

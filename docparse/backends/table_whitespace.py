"""Tables found where rows of numbers are, with no rule to bound them (the whitespace search).

:func:`whitespace_regions` reads every region of rows of numbers
(:func:`~docparse.backends.table_candidates.numeric_regions`) and of label/value
lines from its words, cut at table captions (:func:`caption_parts`) and kept
inside the page margins (:func:`within_margins`).
:func:`numeric_tables_beyond` runs the same search where a ruled strategy's
tables leave rows of values out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from docparse.backends.table_candidates import (
    PageInputs,
    Word,
    is_number,
    numeric_regions,
    numeric_row_boxes,
    overlaps,
    union,
    vertical_rules,
)
from docparse.backends.table_checks import contents_list, plausible_table, rows_across
from docparse.backends.table_reading import RegionGrid, page_captions, region_grids
from docparse.backends.table_regions import (
    TABLE_MARGIN,
    Box,
    TextLine,
    label_value_regions,
    without_prose_sides,
)
from docparse.backends.table_repair import (
    column_runs_first,
    joined_runs,
    with_closing_rows,
    without_larger_type,
)
from docparse.backends.table_rows import has_leaders


def whitespace_regions(
    inputs: PageInputs,
    clusters: Sequence[Box],
    lumped: bool,
    margin: float = TABLE_MARGIN,
    max_header: int | None = None,
) -> list[RegionGrid]:
    """Tables read from the words where rows of numbers are.

    The regions are :func:`~docparse.backends.table_candidates.numeric_regions`. A ruled cluster
    that a numeric region touches is read with it as one region (a table ruled only between its
    column groups: the rules alone leave out the stub column); with ``lumped`` (a ruled table came
    out with several text lines per row) every cluster is read again from its words. The vertical
    rules inside a region are column boundaries. Grids that do not read as a table
    (:func:`~docparse.backends.table_checks.plausible_table`) are dropped. ``max_header`` caps the
    header lines a region of numbers grows over.
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


def numeric_tables_beyond(
    found: Iterable[Sequence[float]], inputs: PageInputs, clusters: Sequence[Box]
) -> list[RegionGrid]:
    """Whitespace tables holding rows of numbers that the ruled tables ``found`` left out.

    A ruled strategy that reads one good table stops the whitespace search
    (:func:`~docparse.backends.table_checks.rich_table`), but a statement ruled or shaded only in
    part (a zebra-striped upper half, rules under its totals) holds other rows unruled, and those
    would come out as paragraphs. Where a row of two or more values
    (:func:`~docparse.backends.table_candidates.numeric_row_boxes`) lies in no found box, the page's
    whitespace tables (:func:`whitespace_regions`) holding such a row are returned, to be merged
    with ``found`` by :func:`~docparse.backends.table_combine.with_extra_tables`: one holding found
    pieces and more non-empty cells replaces them (the pieces' shading or rules may reach past its
    words on the sides, hence :data:`~docparse.backends.table_combine.SIDE_SLACK`). Their regions
    grow over at most four header lines above their values, unless label rows lead up to the rows
    above: a ruled table's caption, heading and lead-in sentence are no rows of it (a 10-K note's
    ``NOTE 6 -- ...`` and ``... were as follows:``). A found table reaching into one of them from
    above (its top above that table's, its bottom inside it: the blocks of a statement read as one
    ruled grid down to the first row of the last block) is read again from the words of both
    together (:func:`~docparse.backends.table_reading.region_grids`, header lines included), and
    that reading takes their place.
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
    # A ruled table reaching into one of them from above (a statement's blocks
    # read as one ruled grid down to the first row of its last block) is read
    # again from the words of both together, its header lines included: the
    # tables of that reading replace it together.
    for b in boxes:
        part = [k for k in kept if overlaps(b, k[0])]
        if not any(b[1] + 2 < k[0][1] and b[3] + 2 < k[0][3] for k in part):
            continue
        clip = b
        for k in part:
            clip = union(clip, k[0])
        again = region_grids(
            inputs.words, clip, rules=vertical_rules(inputs.segments, clip), lines=inputs.lines
        )
        if again:
            kept = [k for k in kept if not any(k is q for q in part)] + again
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

    A caption is never a row of a table: a region of rows of numbers that holds one (a whole-width
    run over two tables in one page column, or over a table and the next one's caption) is two
    tables, cut above and below the caption (``captions``:
    :func:`~docparse.backends.table_regions.caption_blocks` boxes). A region across both page
    columns whose captions all sit in one column is that column's table: the other column's lines on
    its baselines (a figure's labels) are left out. A caption across the middle (a full-width
    float's, set centred) keeps the whole width, and so does a table whose rows go on past the
    middle (``words``: the page's; :func:`~docparse.backends.table_checks.rows_across`).
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

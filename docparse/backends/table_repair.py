"""Choosing between two readings of a table and repairing rows a strategy got wrong.

A ruled strategy that counts cell backgrounds cuts phantom columns
(:func:`prefer_fuller_grids` picks the strokes-only reading), a strategy
that misses row boundaries lumps data lines into one row
(:func:`split_stacked_rows`), and a table with column lines only in its
header comes out with each body row one merged cell
(:func:`spread_merged_cells`, with :func:`column_starts`). Two tables
stacked in one region, each under its own header, are cut apart
(:func:`header_blocks`). Regions of rows of numbers are mended before they
are read: runs across both columns of a two-column page give way to each
column's own runs (:func:`column_runs_first`), titles and notes in a larger
type are cut off their ends (:func:`without_larger_type`) and closing totals
with long labels taken in (:func:`with_closing_rows`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from docparse.backends.table_candidates import (
    Box4,
    Line,
    Word,
    contains,
    is_number,
    numeric_regions,
    page_halves,
    phrase_gap,
)
from docparse.backends.table_checks import grid_fill
from docparse.backends.table_headers import NUMBER_CELL
from docparse.backends.table_regions import Box
from docparse.backends.table_rows import (
    baseline_rows,
    clip_rows,
    cut_above,
    row_phrases,
    valued_row,
)


def _iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def prefer_fuller_grids(
    found: Sequence[tuple[Box, Sequence[Sequence[str]]]],
    strict: Sequence[tuple[Box, Sequence[Sequence[str]]]],
) -> list[int | None]:
    """For each grid of ``found``, the index of a ``strict`` grid to use instead, or None.

    Cell backgrounds drawn as filled rectangles a little inside the cell
    borders add edges of their own: a ruled strategy that counts every
    rectangle edge then cuts phantom columns and splits a two-line cell into
    two rows (ICDAR-2013 ``eu-001``: "to air" / "kg/year"). The same table
    found from strokes and thin rules only (``strict``) has the true cells. A
    strict grid replaces a found one when it covers the same region
    (intersection over union at least 0.8), keeps at least 80% of its
    non-empty cells, and fills a larger share of its cells (by more than 0.05).
    """

    def filled(rows: Sequence[Sequence[str]]) -> int:
        return sum(1 for r in rows for c in r if c.strip())

    out: list[int | None] = []
    for box, rows in found:
        choice: int | None = None
        best = grid_fill([(box, rows)])
        for i, (sbox, srows) in enumerate(strict):
            if _iou(box, sbox) < 0.8 or filled(srows) < 0.8 * filled(rows):
                continue
            fill = grid_fill([(sbox, srows)])
            if fill > best + 0.05:
                choice, best = i, fill
        out.append(choice)
    return out


def _text_lines_of(
    words: Sequence[Any], key: Callable[[Any], tuple[float, float, str]]
) -> list[list[Any]]:
    """Words of one cell grouped into text lines (by vertical overlap), top to bottom."""
    lines: list[list[Any]] = []
    bottom = float("-inf")
    for w in sorted(words, key=lambda w: key(w)[0]):
        top, bot, _ = key(w)
        if lines and (top + bot) / 2 <= bottom:
            lines[-1].append(w)
            bottom = max(bottom, bot)
        else:
            lines.append([w])
            bottom = bot
    return lines


def split_stacked_rows(
    row: Sequence[Sequence[Any] | None], key: Callable[[Any], tuple[float, float, str]]
) -> list[list[list[Any] | None]]:
    """One grid row as one or more rows: data lines a strategy lumped together are split.

    ``row`` holds each cell's words (``None`` for a cell covered by a merged
    cell); ``key`` gives a word's ``(top, bottom, text)``. Whitespace row
    detection misses a row boundary now and then (a bold section row above
    shifts its guesses), and a table ruled only around column groups has no
    row boundary at all: two or more data lines then share one cell in every
    column ("54,425 34,947"). A row is split into its ``k`` text lines when
    every non-empty cell holds exactly ``k >= 2`` lines at the same heights
    and at least two cells, and at least half of them, hold only numbers on
    every line. A header cell printed on two lines never qualifies: numbers
    stacked in one cell are two values, words stacked in one cell are one.
    """
    cells = [c for c in row if c]
    if len(cells) < 2:
        return [[list(c) if c is not None else None for c in row]]
    split = [_text_lines_of(c, key) for c in cells]
    k = len(split[0])
    if k < 2 or any(len(s) != k for s in split):
        return [[list(c) if c is not None else None for c in row]]

    def centre(line: list[Any]) -> float:
        return sum((key(w)[0] + key(w)[1]) / 2 for w in line) / len(line)

    def height(line: list[Any]) -> float:
        return max(key(w)[1] for w in line) - min(key(w)[0] for w in line)

    ref = split[0]
    for s in split[1:]:
        for a, b in zip(ref, s, strict=True):
            if abs(centre(a) - centre(b)) > 0.5 * max(height(a), height(b), 1.0):
                return [[list(c) if c is not None else None for c in row]]
    numeric = sum(
        all(NUMBER_CELL.match(" ".join(key(w)[2] for w in line)) for line in s) for s in split
    )
    if numeric < 2 or numeric < 0.5 * len(cells):
        return [[list(c) if c is not None else None for c in row]]
    lines_of = iter(split)
    per_cell = [next(lines_of) if c else None for c in row]
    out: list[list[list[Any] | None]] = []
    for i in range(k):
        new: list[list[Any] | None] = []
        for c, lines in zip(row, per_cell, strict=True):
            if c is None:
                new.append(None)
            else:
                new.append(lines[i] if lines is not None else [])
        out.append(new)
    return out


def column_starts(rows: Sequence[Sequence[Box | None]]) -> list[float | None]:
    """The left edge of each column of a ruled grid (``None`` for a column no cell starts)."""
    width = max((len(r) for r in rows), default=0)
    starts: list[float | None] = []
    for c in range(width):
        xs = [float(cell[0]) for r in rows if c < len(r) and (cell := r[c]) is not None]
        starts.append(min(xs) if xs else None)
    return starts


def spread_merged_cells(
    row: Sequence[Sequence[Any] | None],
    boxes: Sequence[Box | None],
    starts: Sequence[float | None],
    key: Callable[[Any], tuple[float, float, float]],
) -> list[list[Any] | None]:
    """One ruled grid row with the words of a merged cell spread over the columns it covers.

    A table ruled between its rows but with column lines only in the header
    (ICDAR-2013 ``eu-016``) comes out of a ruled strategy with each body row
    one cell wide: ``Austria 86.2 13.8 0 3,375``. ``row`` holds each cell's
    words (``None`` for a covered cell), ``boxes`` the cells' boxes,
    ``starts`` the columns' left edges (:func:`column_starts`), ``key`` a
    word's ``(x0, x1, height)``. A merged cell's words are cut into phrases
    at gaps wider than 0.8 word heights; when the phrases fall into two or
    more of the columns the cell covers and none of them crosses a column's
    left edge, each goes to its column. A spanning header ("Year Ended"
    centred over two columns) is one phrase and stays whole.
    """
    out: list[list[Any] | None] = [None if c is None else list(c) for c in row]
    for ci, words in enumerate(row):
        box = boxes[ci] if ci < len(boxes) else None
        if not words or box is None:
            continue
        covered = [
            j
            for j in range(ci + 1, len(starts))
            if (x := starts[j]) is not None
            and x < float(box[2]) - 1
            and (row[j] is None or not row[j])
        ]
        if not covered:
            continue
        cols = [ci, *covered]
        edges = [float(box[0]), *(float(starts[j] or 0.0) for j in covered)]
        ordered = sorted(words, key=lambda w: key(w)[0])
        heights = sorted(key(w)[2] for w in ordered)
        min_gap = 0.8 * heights[len(heights) // 2]
        phrases: list[list[Any]] = []
        for w in ordered:
            if phrases and key(w)[0] - key(phrases[-1][-1])[1] <= min_gap:
                phrases[-1].append(w)
            else:
                phrases.append([w])
        target: list[int] = []
        for p in phrases:
            lo, hi = key(p[0])[0], max(key(w)[1] for w in p)
            if any(lo < e - 0.5 < hi for e in edges[1:]):
                break  # a phrase across a column edge: a spanning cell
            target.append(max(k for k, e in enumerate(edges) if e <= (lo + hi) / 2 or k == 0))
        if len(target) < len(phrases) or len(set(target)) < 2:
            continue
        for j in cols:
            out[j] = []
        for p, k in zip(phrases, target, strict=True):
            cell = out[cols[k]]
            assert cell is not None
            cell.extend(p)
    return out


#: A column-heading year or date: "2018", "2017)", "12/31/2018", "Dec. 31, 2018" ends in one.
_HEAD_YEAR = re.compile(r"^\(?(?:(?:19|20)\d\d|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2}))[,)]?$")
#: A day of a date heading a column ("Dec. 31, 2018"): a figure, but no value.
_DAY = re.compile(r"^\d{1,2},$")
#: Rows of header a new table's year row may have above it (title, spanning headers).
_HEAD_ABOVE = 3


def _over_values(heads: Sequence[Word], body: Sequence[Sequence[Word]]) -> bool:
    """Whether the years of ``heads`` stand mostly over the values of the ``body`` rows.

    A year row of the other page column on the same baselines (two tables
    side by side, read as one region) heads no column of this body.
    """
    years = [w for w in heads if _HEAD_YEAR.match(w[4])]
    values = [w for r in body for w in r if is_number(w[4])]
    lo, hi = min(w[0] for w in values), max(w[2] for w in values)
    y0, y1 = min(w[0] for w in years), max(w[2] for w in years)
    return min(hi, y1) - max(lo, y0) >= 0.5 * (y1 - y0)


def header_blocks(words: Sequence[Word], clip: Sequence[float]) -> list[Box4]:
    """``clip`` cut into one region per table where a new header block follows rows of values.

    Filings print related tables one under the other, each with its own
    column headers ("Net Sales | Operating Income" over 2018 2017 2016 twice,
    then "Assets | Depreciation | Capital Expenditures" over the years three
    times). A finder of rows of numbers reads them as one region, and one
    grid over both puts two or three values in a cell. A reader sees the
    second header and starts a new table there: a row of two or more years
    or dates and no other values, below two or more rows of values (over
    their values) and above more of them, starts a table together with the
    rows without values right above it (at most :data:`_HEAD_ABOVE`: its
    title and spanning headers). A
    year heading one block of rows (a single year) starts none. Returns
    ``[clip]`` when no such row is found.
    """
    rows = clip_rows(words, clip)
    valued = valued_row

    def years(r: Sequence[Word]) -> bool:
        heads = sum(bool(_HEAD_YEAR.match(w[4])) for w in r)
        return heads >= 2 and not any(is_number(w[4]) and not _DAY.match(w[4]) for w in r)

    starts: list[int] = []
    seen_values = False
    for i, r in enumerate(rows):
        if valued(r):
            seen_values = True
            continue
        if not (seen_values and years(r) and any(valued(b) for b in rows[i + 1 :])):
            continue
        start = i
        lowest = max((starts[-1] if starts else 0) + 1, i - _HEAD_ABOVE)
        while start - 1 >= lowest and not valued(rows[start - 1]):
            start -= 1
        # A body is two rows of values or more: a lone row of footnote marks
        # under a header ("(1) (1)") is none.
        body = [b for b in rows[(starts[-1] if starts else 0) : start] if valued(b)]
        if len(body) < 2 or not _over_values(r, body):
            continue
        starts.append(start)
        seen_values = False
    if not starts:
        return [(clip[0], clip[1], clip[2], clip[3])]
    return cut_above(rows, starts, clip)


def joined_runs(regions: Sequence[Sequence[float]]) -> list[Box4]:
    """Regions of rows of numbers of one width that overlap, joined into one.

    Two runs of rows of values that share a row (a subtotal row closing one
    block and heading the next) are one table; read apart, the second one
    overlaps the first and would be dropped with all its other rows.
    """
    out: list[Box4] = []
    for r in regions:
        box = (float(r[0]), float(r[1]), float(r[2]), float(r[3]))
        for i, o in enumerate(out):
            same = abs(o[0] - box[0]) <= 4 and abs(o[2] - box[2]) <= 4
            if same and box[1] < o[3] and o[1] < box[3]:
                out[i] = (o[0], min(o[1], box[1]), max(o[2], box[2]), max(o[3], box[3]))
                break
        else:
            out.append(box)
    return out


def column_runs_first(
    regions: Sequence[Sequence[float]],
    lines: Sequence[Line],
    words: Sequence[Word],
    page_width: float,
    max_header: int | None = None,
) -> list[Box4]:
    """``regions`` without the runs across both page columns that are the columns' tables.

    On a two-column page a statement set in one column shares its baselines
    with the other column's text or statement, and a finder of rows of
    numbers over the whole width (``regions``, from
    :func:`~docparse.backends.table_candidates.numeric_regions`) reads
    stretches of them as rows of one table. The runs found in each column
    alone (the same finder over the lines of one page half), with their own
    labels at their left, are the tables. A run across the middle is left
    out when column runs overlap it (and it does not hold them all whole)
    and each of its values lies in a column run or in the other page
    column, across a gutter that no word of the run crosses (figures quoted
    in the prose beside a statement); the column runs it held take its
    place. A table across the page keeps its run: the values right of the
    middle have their labels on the left, so no column run there holds them.
    """
    mid = page_width / 2
    boxes = [(float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in regions]

    def crossing(b: Box4) -> bool:
        return b[0] < mid - 10 and b[2] > mid + 10

    if not any(crossing(b) for b in boxes) or all(crossing(b) for b in boxes):
        return boxes
    halves = [
        numeric_regions(half, page_width, max_header) for half in page_halves(lines, page_width)
    ]
    columns = [c for half in halves for c in half if _labelled_run(c, words)]
    if not columns:
        return boxes
    values = [w for w in words if is_number(w[4])]
    kept: list[Box4] = []
    for r in boxes:
        if crossing(r):
            over = [c for c in columns if c[1] < r[3] and r[1] < c[3]]
            held = [w for w in values if _holds_word(r, w)]
            # Some column run must reach out of the run: a table across the page
            # holds its columns' runs whole.
            if held and any(not contains(r, c) for c in over):
                in_column = [any(_holds_word(c, w) for c in columns) for w in held]
                if all(in_column) or any(_gutter_side(c, r, words, held, in_column) for c in over):
                    continue
        kept.append(r)
    # A column's run that a kept run holds is the same table seen in part.
    return kept + [
        c for c in columns if not any(contains(k, c) for k in kept) and all(c != k for k in kept)
    ]


def _holds_word(box: Sequence[float], w: Word) -> bool:
    """Whether ``box`` holds word ``w`` across and its middle down."""
    return (
        box[0] - 1 <= w[0] and w[2] <= box[2] + 1 and box[1] - 1 <= (w[1] + w[3]) / 2 <= box[3] + 1
    )


def _labelled_run(run: Box4, words: Sequence[Word]) -> bool:
    """Whether most rows of values of ``run`` start with a label (a word that is no value)."""
    rows = [r for r in clip_rows(words, run) if valued_row(r)]
    labelled = sum(not is_number(min(r, key=lambda w: w[0])[4]) for r in rows)
    return bool(rows) and labelled > len(rows) / 2


def _gutter_side(
    column: Box4,
    run: Box4,
    words: Sequence[Word],
    values: Sequence[Word],
    in_column: Sequence[bool],
) -> bool:
    """Whether ``run`` is two page columns apart at ``column``'s inner edge.

    No word of ``run`` crosses the edge (a gutter), every value on the
    column's side lies in a column run, and every value on the other side
    lies in a column run or in a line of prose quoting it (no fewer words
    than values): a wide table's values right of a gap between its columns
    stand in lines of values.
    """
    right = (column[0] + column[2]) / 2 > (run[0] + run[2]) / 2
    edge = column[0] - 1 if right else column[2] + 1
    inside = [
        v
        for v in words
        if run[0] <= (v[0] + v[2]) / 2 <= run[2] and run[1] <= (v[1] + v[3]) / 2 <= run[3]
    ]
    if any(v[0] < edge < v[2] for v in inside):
        return False
    if not all(ok for w, ok in zip(values, in_column, strict=True) if (w[0] > edge) == right):
        return False
    loose = {w for w, ok in zip(values, in_column, strict=True) if not ok}
    other = [v for v in inside if (v[0] > edge) != right]
    for line in clip_rows(other, run):
        if any(v in loose for v in line):
            numbers = sum(is_number(v[4]) for v in line)
            if sum(not is_number(v[4]) and bool(_WORD.search(v[4])) for v in line) < numbers:
                return False
    return True


_WORD = re.compile(r"[^\W\d_]{2}")


#: How much taller than a table's values a line's words stand to be set in a larger type.
_LARGER_TYPE = 1.2


def without_larger_type(
    region: Sequence[float], words: Sequence[Word]
) -> tuple[float, float, float, float]:
    """``region`` without the lines at its top and bottom set in a larger type than its values.

    A statement is set in one small type; its title above it and the notes
    and paragraphs below it are set larger (``Group Inc. — Condensed
    Statements of Earnings`` over ``Year Ended December``). A finder of rows
    of numbers grows a region over such lines when they are short or quote
    figures (``dividends of $3.46 billion, $2.29 billion and ...``). Lines
    whose words stand more than :data:`_LARGER_TYPE` times as tall as the
    median value of the region's rows of values are cut off its ends: at the
    top only lines of one phrase without a number (larger column headers
    stand side by side or hold years), at the bottom any.
    """
    x0, y0, x1, y1 = (float(v) for v in region[:4])
    rows = clip_rows(words, region)
    heights = sorted(w[3] - w[1] for r in rows if valued_row(r) for w in r if is_number(w[4]))
    if len(rows) < 3 or not heights:
        return (x0, y0, x1, y1)
    limit = _LARGER_TYPE * heights[len(heights) // 2]

    def larger(r: Sequence[Word]) -> bool:
        return min(w[3] - w[1] for w in r) > limit

    def title(r: Sequence[Word]) -> bool:
        # A title stands alone in its line: larger column headers stand side by side.
        return not any(is_number(w[4]) for w in r) and len(row_phrases(r, phrase_gap(r))) == 1

    first, last = 0, len(rows) - 1
    while first < last and larger(rows[first]) and title(rows[first]):
        first += 1
    while last > first and larger(rows[last]):
        last -= 1
    if first:
        y0 = (max(w[3] for w in rows[first - 1]) + min(w[1] for w in rows[first])) / 2
    if last < len(rows) - 1:
        y1 = (max(w[3] for w in rows[last]) + min(w[1] for w in rows[last + 1])) / 2
    return (x0, y0, x1, y1)


def with_closing_rows(
    region: Sequence[float], words: Sequence[Word]
) -> tuple[float, float, float, float]:
    """``region`` grown down over the rows right under it that close its table.

    A finder of rows of numbers asks a third of a row's words to be values,
    so a total with a long label and two values (``Total liabilities and
    shareholders' equity | $295,682 | $288,056``) ends no run, nor does a
    row with one value (``Cash collateral netting | 42,986``, a net figure
    under the last subtotal). A row under the region, less than two of its
    rows' heights below, whose values end where values of the region's rows
    end (the same columns) and whose other words are a label left of them,
    is a row of the table; so is the next such row under it. A row of one
    value closes the table only as a net or total row does: its value is in
    the last column (no value of the rows starts right of it), its label
    starts at the rows' left edge, is short (:data:`_CLOSING_LABEL` words,
    no sentence) and stands apart from the value by a column gap (two row
    heights). A region with words right of
    its values (prose of the other page column beside a table of figures)
    is kept as is.
    """
    x0, y0, x1, y1 = (float(v) for v in region[:4])
    rows = clip_rows(words, region)
    ends = [w[2] for r in rows if valued_row(r) for w in r if is_number(w[4])]
    starts = [w[0] for r in rows if valued_row(r) for w in r if is_number(w[4])]
    # Text right of the values (the other page column's prose) makes no statement.
    if not ends or any(w[0] > max(ends) for r in rows for w in r):
        return (x0, y0, x1, y1)
    height = max(w[3] - w[1] for w in rows[-1])
    left = min(w[0] for r in rows for w in r)
    while True:
        below = [
            w
            for w in words
            if x0 <= w[0] and w[2] <= x1 and y1 < (w[1] + w[3]) / 2 <= y1 + 3 * height
        ]
        row = next(iter(baseline_rows(below)), None)
        if row is None or min(w[1] for w in row) - y1 > 2 * height:
            break
        values = [w for w in row if is_number(w[4])]
        label = [w for w in row if not is_number(w[4])]
        if (
            not values
            or not all(any(abs(w[2] - e) <= 2 for e in ends) for w in values)
            or any(w[2] > min(v[0] for v in values) for w in label)
            or (
                len(values) == 1
                and not (
                    all(s <= values[0][2] for s in starts)
                    and _closing_label(label, values[0], left, height)
                )
            )
        ):
            break
        y1 = max(w[3] for w in row) + 1
    return (x0, y0, x1, y1)


#: Most words of the label of a one-value row that closes a table.
_CLOSING_LABEL = 8


def _closing_label(label: Sequence[Word], value: Word, left: float, height: float) -> bool:
    """Whether ``label`` reads as the label of ``value``'s row (:func:`with_closing_rows`)."""
    # A currency sign set apart from its amount is no word of the label; leader
    # dots are (a contents line's page number is led to, not set apart).
    text = [w for w in label if w[4].strip("$€£¥")]
    return (
        bool(text)
        and abs(min(w[0] for w in text) - left) <= 2
        and len(text) <= _CLOSING_LABEL
        and not text[-1][4].endswith((".", ",", ";", ":"))
        and value[0] - max(w[2] for w in text) >= 2 * height
    )


def below_lead_in(
    rows: Sequence[Sequence[str | None]], box: Sequence[float], words: Sequence[Word]
) -> float | None:
    """Where a table starts when its first row is the last line of the text above it.

    ``None`` when the first row is the table's. The sentence that introduces
    a table ends in a colon (``... were as follows (in millions):``), its last
    line often set where the stub column is, over the column heads: a finder
    that grows a table over its head lines takes it in as a row. The eye sees
    which block the line is set with: a line further from the row below it
    than one and a half times the table's usual gap between rows is the
    text's when it is closer to the text above it than to that row, or when
    it is a sentence of its own (five words or more) indented as a paragraph
    starts, right of where every row under it starts. Only a row of one cell
    ending in a colon is tried: a table's own label row (``Cash provided by
    (used in):``) is set at the table's row gap.
    """
    if len(rows) < 3 or not rows[0]:
        return None
    cells = [c.strip() for c in rows[0] if c and c.strip()]
    if len(cells) != 1 or not cells[0].endswith(":") or not any(c.islower() for c in cells[0]):
        return None
    lines = clip_rows(words, box)
    if len(lines) < 4 or " ".join(w[4] for w in lines[0]).split() != cells[0].split():
        return None
    first, second = lines[0], lines[1]
    top, bottom = min(w[1] for w in first), max(w[3] for w in first)
    start = min(w[1] for w in second)
    below = start - bottom
    gaps = sorted(min(w[1] for w in b) - max(w[3] for w in a) for a, b in pairwise(lines[1:]))
    usual = max(gaps[len(gaps) // 2], 1.0)
    if below <= 1.5 * usual:
        return None
    # Text above the row, over the table's stretch of the page, nearer than the row below.
    x0 = min(w[0] for w in first)
    if any(w[3] <= top + 1 and w[0] < box[2] and w[2] > x0 and top - w[3] < below for w in words):
        return start - 1
    # A sentence of its own indented as a paragraph is (the rows start at the stub's edge).
    size = bottom - top
    stub = min(w[0] for ln in lines[1:] for w in ln)
    indented = stub + size < x0 < (box[0] + box[2]) / 2
    return start - 1 if indented and len(first) >= 5 else None

"""Table finding shared by the PDF backends: the heuristics, not the library calls.

Each backend asks its own library for candidate grids (PyMuPDF's and
pdfplumber's ``find_tables`` with ruled, whitespace or explicit strategies);
the functions here decide which candidates are tables (:func:`plausible_table`,
:func:`prose_table`, :func:`rich_table`, :func:`ruled_off_plausible`), find
booktabs tables that neither strategy sees (:func:`rule_bounded_regions`,
:func:`column_edges`), choose between two readings of the same table
(:func:`grid_fill`, :func:`prefer_fuller_grids`) and repair rows that a
strategy lumped together (:func:`split_stacked_rows`). Keeping them in one
place is what makes the backends' tables comparable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from docparse.backends.table_candidates import (
    PageInputs,
    Word,
    numeric_regions,
    overlaps,
    union,
    vertical_rules,
)
from docparse.backends.table_grid import merge_symbol_cells, word_grid
from docparse.backends.table_headers import (
    NUMBER_CELL,
    UNITS_LINE,
    header_top,
)

_NUMERIC = re.compile(r"\d")
#: Share of the page height at the top and bottom left out of table detection:
#: running headers and page numbers sit there and must not become table cells.
TABLE_MARGIN = 0.06
#: A line that starts a table caption ("Table 2: ...", "TABLE II").
TABLE_CAPTION = re.compile(r"^\s*(?:table|tab\.)\s*(?:\d+|[IVXL]+)\b", re.IGNORECASE)


def numeric_fraction(words: Iterable[str]) -> float:
    """Share of words holding a digit: statistical and financial pages are high."""
    n = hits = 0
    for w in words:
        n += 1
        hits += bool(_NUMERIC.search(w))
    return hits / n if n else 0.0


def plausible_table(rows: Sequence[Sequence[str]], page_fraction: float = 0.0) -> bool:
    """A whitespace-detected grid that looks like a table, not like prose.

    At least 3 rows and 2 columns, at least 40% of the grid filled, and short
    cells: median at most 6 words, at most 10% over 12 words, at most 30%
    starting in lower case (prose cut into columns); a column that is mostly numbers; and
    not the whole page (``page_fraction``: the table's share of the page
    height; a whitespace "table" as tall as the page is the page's layout).
    """
    if page_fraction > 0.85:
        return False
    if len(rows) < 3 or max((len(r) for r in rows), default=0) < 2:
        return False
    cells = [c for r in rows for c in r]
    filled = [c for c in cells if c.strip()]
    if len(filled) < 0.4 * len(cells):
        return False
    lengths = sorted(len(c.split()) for c in filled)
    if sum(n > 12 for n in lengths) > 0.1 * len(lengths):
        return False
    if lengths[len(lengths) // 2] > 6:
        return False
    # Prose cut into columns: many cells start in the middle of a sentence.
    if sum(c.strip()[0].islower() for c in filled) > 0.3 * len(filled):
        return False
    width = max(len(r) for r in rows)
    for col in range(width):
        column = [r[col] for r in rows if col < len(r) and r[col].strip()]
        numeric = sum(bool(NUMBER_CELL.match(c)) for c in column)
        if len(column) >= 3 and numeric >= 0.6 * len(column):
            return True
    return False


def prose_table(rows: Sequence[Sequence[str]]) -> bool:
    """A "table" that is really ruled-off prose (a framed box of paragraphs).

    One column, or at least 30% of the non-empty cells longer than 15 words.
    Such regions stay text.
    """
    if max((len(r) for r in rows), default=0) < 2:
        return True
    filled = [c for r in rows for c in r if c.strip()]
    return bool(filled) and sum(len(c.split()) > 15 for c in filled) >= 0.3 * len(filled)


def text_line_count(bbox: Sequence[float], word_boxes: Iterable[Sequence[float]]) -> int:
    """Distinct text lines (3-point bins of word centres) inside ``bbox``."""
    x0, y0, x1, y1 = bbox[:4]
    bins = set()
    for w in word_boxes:
        cx = (w[0] + w[2]) / 2
        cy = (w[1] + w[3]) / 2
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            bins.add(round(cy / 3))
    return len(bins)


def rich_table(rows: Sequence[Sequence[str]], n_text_lines: int = 0) -> bool:
    """A ruled table good enough to keep without trying the whitespace strategies.

    At least 4 rows (a ruled header box alone is not enough) and not several
    text lines lumped per row (``n_text_lines``: text lines inside the table,
    see :func:`text_line_count`): a table ruled only around its column
    groups comes out as one row holding every data line.
    """
    return len(rows) >= 4 and len(rows) >= 0.3 * n_text_lines


# --------------------------------------------------------------------------- rule-bounded tables

#: Horizontal strokes thinner than this (points) count as table rules.
_RULE_THICKNESS = 2.0


def rule_bounded_regions(
    rules: Iterable[Sequence[float]],
    lines: Sequence[tuple[Sequence[float], str]],
    page_height: float,
) -> list[tuple[float, float, float, float]]:
    """Regions of booktabs-style tables: stacked horizontal rules near a "Table N" caption.

    ``rules`` are thin horizontal strokes ``(x0, y, x1)``; ``lines`` are the
    page's text lines as ``(bbox, text)``. LaTeX ``booktabs`` tables draw only
    a top, a middle and a bottom rule of the same width, columns being aligned
    by whitespace, so neither ruled nor whitespace table finding sees them. Two
    or more rules of the same horizontal extent with text lines between them,
    the whole next to a table caption, bound such a table; three or more
    rules (top, middle under the header, bottom) need no caption. The region
    returned spans the first to the last rule. A caption or a line of prose
    between two rules splits the stack (two tables of the same width one
    above the other; a page-header rule above the text).
    """
    groups: dict[tuple[int, int], list[float]] = {}
    for x0, y, x1 in rules:
        if x1 - x0 < 40:
            continue
        key = next(
            (k for k in groups if abs(k[0] - x0) <= 3 and abs(k[1] - x1) <= 3),
            (round(x0), round(x1)),
        )
        groups.setdefault(key, []).append(float(y))
    captions = [b for b, t in lines if TABLE_CAPTION.match(t)]
    out: list[tuple[float, float, float, float]] = []
    for (x0, x1), ys in groups.items():
        ys = sorted(set(round(y, 1) for y in ys))
        # Split the stack at captions and at long gaps (a page of prose between).
        stacks: list[list[float]] = [[ys[0]]]
        for y in ys[1:]:
            prev = stacks[-1][-1]
            split = (
                y - prev > 0.5 * page_height
                or any(prev < (c[1] + c[3]) / 2 < y and c[0] < x1 and c[2] > x0 for c in captions)
                or any(
                    prev < (b[1] + b[3]) / 2 < y and _prose_line(b, t, x1 - x0) for b, t in lines
                )
            )
            if split:
                stacks.append([y])
            else:
                stacks[-1].append(y)
        for stack in stacks:
            if len(stack) < 2:
                continue
            top, bottom = stack[0], stack[-1]
            inner = [
                b
                for b, _ in lines
                if top < (b[1] + b[3]) / 2 < bottom and b[0] >= x0 - 6 and b[2] <= x1 + 6
            ]
            if len({round((b[1] + b[3]) / 6) for b in inner}) < 2:
                continue
            near = any(
                c[0] < x1 + 60
                and c[2] > x0 - 60
                and (top - 120 <= c[3] <= top + 2 or bottom - 2 <= c[1] <= bottom + 60)
                for c in captions
            )
            # Top, middle and bottom rule with no prose between need no caption.
            if near or len(stack) >= 3:
                out.append((float(x0) - 2, top - 1, float(x1) + 2, bottom + 1))
    return out


def _prose_line(box: Sequence[float], text: str, width: float) -> bool:
    """A text line of running prose: 8 words or more over most of ``width``."""
    return len(text.split()) >= 8 and box[2] - box[0] > 0.6 * width


def is_rule(x0: float, y0: float, x1: float, y1: float) -> bool:
    """A thin horizontal stroke (a table rule), by its bounding box."""
    return y1 - y0 < _RULE_THICKNESS and x1 - x0 >= 40


def ruled_off_plausible(rows: Sequence[Sequence[str]]) -> bool:
    """A grid found inside a rule-bounded region that is a table, not prose.

    At least 2 rows and 2 non-empty columns, short cells (median at most 6
    words, none over 20), and not :func:`prose_table`.
    """
    if len(rows) < 2 or prose_table(rows):
        return False
    width = max(len(r) for r in rows)
    used = sum(any(c.strip() for r in rows if i < len(r) for c in [r[i]]) for i in range(width))
    filled = [c for r in rows for c in r if c.strip()]
    if used < 2 or not filled:
        return False
    lengths = sorted(len(c.split()) for c in filled)
    # Prose columns read as a grid: most cells start in the middle of a sentence.
    if sum(c.strip()[0].islower() for c in filled) > 0.4 * len(filled):
        return False
    return lengths[len(lengths) // 2] <= 6 and lengths[-1] <= 20


def column_edges(word_boxes: Iterable[Sequence[float]], clip: Sequence[float]) -> list[float]:
    """Column boundaries of a whitespace-aligned table: x-gaps no word in ``clip`` covers.

    A gap counts when it is wider than 0.8 times the median word height
    (wider than the space between words of one cell, narrower than LaTeX's
    ``2\\tabcolsep``). Returns the clip's left edge, the middle of every such
    gap and the right edge, ready for an explicit vertical-lines strategy.
    """
    x0, y0, x1, y1 = clip[:4]
    spans = sorted(
        (w[0], w[2], w[3] - w[1])
        for w in word_boxes
        if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1
    )
    if not spans:
        return []
    heights = sorted(s[2] for s in spans)
    min_gap = 0.8 * heights[len(heights) // 2]
    # Outer edges just outside the words: MuPDF ignores lines on the clip's border.
    edges = [float(spans[0][0]) - 1]
    reach = spans[0][1]
    for a, b, _ in spans[1:]:
        if a - reach > min_gap:
            edges.append(float(reach + a) / 2)
        reach = max(reach, b)
    edges.append(float(reach) + 1)
    return edges


def grid_fill(grids: Iterable[tuple[Any, Sequence[Sequence[str]]]]) -> float:
    """Share of non-empty cells over ``(bbox, rows)`` grids; 0 when there are none."""
    cells = [c for _, rows in grids for r in rows for c in r]
    return sum(1 for c in cells if c.strip()) / len(cells) if cells else 0.0


# ---------------------------------------------------------------- choosing and repairing grids

Box = Sequence[float]
#: A text line of a page as the backends give it to the region finders: ``(bbox, text)``.
TextLine = tuple[tuple[float, ...], str]


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


def open_sides(
    rules: Iterable[tuple[float, float, float]], word_boxes: Iterable[Box]
) -> list[tuple[float, float, float]]:
    """Vertical lines ``(x, top, bottom)`` closing the open sides of column-ruled tables.

    Statistical tables often rule only between column groups: the stub
    column on the left (row labels) and the last group on the right have no
    outer rule, so a strategy that takes columns from drawn lines cuts them
    off (ICDAR-2013 ``us-001``). ``rules`` are vertical strokes ``(x, top,
    bottom)``; strokes overlapping in height form one band, and a band with
    at least two distinct rules is a table's column rules. Beyond its
    outermost rules the band's words extend the table as long as they follow
    each other without a gap wider than three word heights (the gutter to
    another text column is wider than that); a line is returned just outside
    the last such word on each side that has any.
    """
    bands: list[list[float]] = []  # [top, bottom, x, x, ...]
    for x, top, bottom in sorted((r for r in rules if r[2] - r[1] > 5), key=lambda r: r[1]):
        if bands and top <= bands[-1][1] + 2:
            bands[-1][1] = max(bands[-1][1], bottom)
            bands[-1].append(x)
        else:
            bands.append([top, bottom, x])
    boxes = list(word_boxes)
    out: list[tuple[float, float, float]] = []
    for top, bottom, *xs in bands:
        if len({round(x) for x in xs}) < 2:
            continue
        inside = [w for w in boxes if top <= (w[1] + w[3]) / 2 <= bottom]
        if not inside:
            continue
        heights = sorted(w[3] - w[1] for w in inside)
        gap = 3 * heights[len(heights) // 2]
        left, right = min(xs), max(xs)
        lo = left
        # Only words wholly outside the rules: one overhanging a rule is not a column.
        for w in sorted((w for w in inside if w[2] < left - 1), key=lambda w: -w[2]):
            if w[2] < lo - gap:
                break
            lo = min(lo, w[0])
        hi = right
        for w in sorted((w for w in inside if w[0] > right + 1), key=lambda w: w[0]):
            if w[0] > hi + gap:
                break
            hi = max(hi, w[2])
        if lo < left:
            out.append((lo - 1, top, bottom))
        if hi > right:
            out.append((hi + 1, top, bottom))
    return out


def banded_regions(
    grids: Sequence[Box],
    lines: Sequence[tuple[Sequence[float], str]],
) -> list[tuple[tuple[float, float, float, float], list[int]]]:
    """Regions of zebra-striped tables that a ruled strategy found as separate strips.

    Annual reports shade every other row of a table and draw no other
    lines: a ruled strategy then sees each shaded row as a one-row table and
    loses the unshaded rows between them (3M's 10-K). ``grids`` are the
    bounding boxes found; ``lines`` the page's text lines ``(bbox, text)``.
    Two or more strips of the same horizontal extent (within 3 points),
    stacked with gaps under twice a strip's height, are one table. The region
    grows over the text lines directly above it that read as column headers
    (at most 8 words, no sentence end, not a row of values) and the lines
    directly below it whose words are at least 30% numbers (a last unshaded
    row, not a note); regions that then meet are merged.
    Returns ``(region, indices of the strips it replaces)``.
    """
    strips = sorted((i for i, b in enumerate(grids) if b[3] - b[1] < 40), key=lambda i: grids[i][1])
    groups: list[list[int]] = []
    for i in strips:
        b = grids[i]
        for g in groups:
            last = grids[g[-1]]
            same_width = abs(last[0] - b[0]) <= 3 and abs(last[2] - b[2]) <= 3
            if same_width and 0 <= b[1] - last[3] <= 2 * (last[3] - last[1]) + 1:
                g.append(i)
                break
        else:
            groups.append([i])
    groups = _join_sections(groups, grids, lines)
    out: list[tuple[tuple[float, float, float, float], list[int]]] = []
    for g in groups:
        if len(g) < 2:
            continue
        x0 = min(grids[i][0] for i in g)
        x1 = max(grids[i][2] for i in g)
        top = grids[g[0]][1]
        bottom = grids[g[-1]][3]
        pitch = max(grids[i][3] - grids[i][1] for i in g)
        inside = sorted(
            (ln for ln in lines if ln[0][0] >= x0 - 6 and ln[0][2] <= x1 + 6),
            key=lambda ln: ln[0][1],
        )
        top = header_top(inside, top, pitch)
        for box, text in (ln for ln in inside if ln[0][1] >= bottom - 1):
            tokens = text.split()
            values = sum(bool(_NUMERIC.search(t)) for t in tokens)
            if box[1] - bottom > 1.5 * pitch or values < 0.3 * len(tokens):
                break
            bottom = box[3]
        region = (x0 - 1, top - 1, x1 + 1, bottom + 1)
        # Grown regions that meet are one table read twice otherwise.
        if out and region[1] < out[-1][0][3] and abs(region[0] - out[-1][0][0]) <= 3:
            prev, strips = out.pop()
            region = (prev[0], prev[1], max(prev[2], region[2]), max(prev[3], region[3]))
            g = strips + g
        out.append((region, g))
    return out


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
    for box, rows in grids:
        pitch = (box[3] - box[1]) / max(len(rows), 1)
        # Never into the table above: its rows are no header of this one.
        floor = max(
            (
                b[3]
                for b, _ in grids
                if b is not box and b[3] <= box[1] + 1 and b[0] < box[2] and box[0] < b[2]
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
        again = region_grids(inputs.words, clip, rules=rules)
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


def _join_sections(
    groups: list[list[int]], grids: Sequence[Box], lines: Sequence[tuple[Sequence[float], str]]
) -> list[list[int]]:
    """Striped groups of one width separated only by a few section-label lines, joined.

    A long statement table is striped in sections, each under a label row
    ("Ending total equity as of:"); the unshaded label lines break the
    stripes' rhythm. Two consecutive groups of the same width are one table
    when at most three text lines lie between them, each of at most ten
    words and not a sentence, and the gap holds nothing else.
    """
    groups = sorted(groups, key=lambda g: grids[g[0]][1])
    out: list[list[int]] = []
    for g in groups:
        if out:
            a, b = grids[out[-1][-1]], grids[g[0]]
            pitch = max(a[3] - a[1], b[3] - b[1])
            if abs(a[0] - b[0]) <= 3 and abs(a[2] - b[2]) <= 3 and b[1] >= a[3]:
                between = [t for box, t in lines if a[3] - 1 <= (box[1] + box[3]) / 2 <= b[1] + 1]
                labels = all(len(t.split()) <= 10 and not t.rstrip().endswith(".") for t in between)
                rows = len(
                    {
                        round(box[1])
                        for box, _ in lines
                        if a[3] - 1 <= (box[1] + box[3]) / 2 <= b[1] + 1
                    }
                )
                if labels and rows <= 3 and b[1] - a[3] <= (rows + 1) * 2 * pitch:
                    out[-1].extend(g)
                    continue
        out.append(list(g))
    return out


def _rows_of_lines(
    lines: Sequence[tuple[Sequence[float], str]],
) -> list[tuple[list[float], str, int]]:
    """Text lines grouped into rows by vertical overlap: ``(box, text, n_lines)``, top down."""
    rows: list[tuple[list[float], str, int]] = []
    for box, text in sorted(lines, key=lambda ln: (ln[0][1], ln[0][0])):
        if rows and (box[1] + box[3]) / 2 < rows[-1][0][3]:
            b, t, n = rows[-1]
            rows[-1] = (
                [min(b[0], box[0]), min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3])],
                f"{t} {text}",
                n + 1,
            )
        else:
            rows.append(([float(x) for x in box[:4]], text, 1))
    return rows


def caption_regions(
    lines: Sequence[tuple[Sequence[float], str]], page_width: float
) -> list[tuple[float, float, float, float]]:
    """Regions of tables drawn with no lines at all, next to a "Table N" caption.

    A LaTeX ``tabular`` without rules is a block of short rows aligned by
    whitespace: neither a ruled strategy nor the rule-bounded regions see it,
    and a whitespace strategy over the whole page takes prose for tables. Its
    caption anchors it. From each caption (in its page column: the left or
    right half when it sits in one), the rows below it (or, when the next
    row reads as prose, above it) are taken while they follow each other
    with gaps under twice a row's height and are not prose: a row is prose
    when it spans more than 80% of the column in one text line, or holds a
    sentence of more than 12 words. At least two rows, one of them with two
    or more separate text pieces, make a region.
    """
    mid = page_width / 2
    captions = [(b, t) for b, t in lines if TABLE_CAPTION.match(t)]
    out: list[tuple[float, float, float, float]] = []
    for cap, _ in captions:
        if cap[2] <= mid + 10:
            lo, hi = 0.0, mid
        elif cap[0] >= mid - 10:
            lo, hi = mid, page_width
        else:
            lo, hi = 0.0, page_width
        column = [(b, t) for b, t in lines if b[0] >= lo - 1 and b[2] <= hi + 1]
        rows = _rows_of_lines(column)
        width = max((r[0][2] - r[0][0] for r in rows), default=0.0)

        def prose(row: tuple[list[float], str, int], width: float = width) -> bool:
            box, text, n = row
            one_line = n == 1 and box[2] - box[0] > 0.8 * width
            return one_line or (len(text.split()) > 12 and text.rstrip()[-1:] in ".:;,")

        at = next(
            (i for i, r in enumerate(rows) if r[0][1] <= (cap[1] + cap[3]) / 2 <= r[0][3]), None
        )
        if at is None:
            continue
        # The caption may run over several lines: skip to its last one.
        end = at
        while (
            end + 1 < len(rows)
            and rows[end + 1][0][1] - rows[end][0][3] < 3
            and prose(rows[end + 1])
        ):
            end += 1
        for step, start in ((1, end + 1), (-1, at - 1)):
            taken: list[tuple[list[float], str, int]] = []
            i = start
            while 0 <= i < len(rows) and not prose(rows[i]):
                prev = taken[-1][0] if taken else rows[i - step][0]
                gap = rows[i][0][1] - prev[3] if step == 1 else prev[1] - rows[i][0][3]
                height = rows[i][0][3] - rows[i][0][1]
                if gap > 2 * max(height, 6.0):
                    break
                taken.append(rows[i])
                i += step
            if len(taken) >= 2 and any(r[2] >= 2 for r in taken):
                x0 = min(r[0][0] for r in taken)
                x1 = max(r[0][2] for r in taken)
                y0 = min(r[0][1] for r in taken)
                y1 = max(r[0][3] for r in taken)
                out.append((x0 - 2, y0 - 1, x1 + 2, y1 + 1))
                break
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


def whitespace_regions(
    inputs: PageInputs, clusters: Sequence[Box], lumped: bool, margin: float = TABLE_MARGIN
) -> list[RegionGrid]:
    """Tables read from the words where rows of numbers are (:func:`numeric_regions`).

    A ruled cluster that a numeric region touches is read with it as one
    region (a table ruled only between its column groups: the rules alone
    leave out the stub column); with ``lumped`` (a ruled table came out with
    several text lines per row) every cluster is read again from its words.
    The vertical rules inside a region are column boundaries. Grids that do
    not read as a table (:func:`plausible_table`) are dropped.
    """
    top, bottom = margin * inputs.height, (1 - margin) * inputs.height
    regions = list(numeric_regions(inputs.lines, inputs.width))
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
    for r in regions:
        clip = (r[0], max(r[1], top), r[2], min(r[3], bottom))
        if clip[3] <= clip[1]:
            continue
        rules = vertical_rules(inputs.segments, clip)
        for g in region_grids(inputs.words, clip, rules=rules):
            # Two regions (a cluster and a numeric run) may read the same table.
            if any(overlaps(g[0], o[0]) for o in out):
                continue
            if plausible_table(g[1], (g[0][3] - g[0][1]) / (inputs.height or 1.0)):
                out.append(g)
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
        inner = [x for x, top, bottom in rules if top <= box[3] and bottom >= box[1]]
        again = region_grids(inputs.words, clip, rules=inner)
        filled = sum(1 for r in rows for c in r if c.strip())
        best = max(again, key=lambda g: sum(1 for r in g[1] for c in r if c.strip()), default=None)
        if best is not None and sum(1 for r in best[1] for c in r if c.strip()) > filled:
            out.append(best)
        else:
            out.append((box, rows))
    return out


G = TypeVar("G")
#: A table found in a region: its box and its rows of cell strings.
RegionGrid = tuple[tuple[float, float, float, float], list[list[str]]]


def region_grids(
    words: Sequence[Word],
    clip: Box,
    columns: Sequence[float] | None = None,
    rules: Sequence[float] = (),
) -> list[RegionGrid]:
    """The table in a region known to hold one, read from its words (no library call).

    With drawn ``columns`` (x positions of rules or shading edges), those are
    the columns, closed just outside the region's words
    (:func:`columns_within`); otherwise the columns are the gaps the rows
    share (:func:`~docparse.backends.table_grid.word_grid`), with the
    vertical ``rules`` (x positions) as boundaries where no gap is. Rows come
    from baselines. The grid is kept only if it reads as a table, not prose
    (:func:`ruled_off_plausible`).
    """
    edges: list[float] | None = None
    if columns:
        boxes = (w[:4] for w in words if clip[1] <= (w[1] + w[3]) / 2 <= clip[3])
        edges = columns_within(columns, boxes)
        if len(edges) < 3:
            edges = None
    found = word_grid(words, clip, edges, rules)
    if found is None:
        return []
    box, rows = found
    # A caption line caught in the region is the table's caption, not a row of it.
    rows = [
        r
        for r in rows
        if any(c.strip() for c in r) and not TABLE_CAPTION.match(" ".join(c for c in r if c))
    ]
    return [(box, rows)] if ruled_off_plausible(rows) else []


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

"""Where tables are on a page, found from rules and text lines (no library call).

Neither a ruled nor a whitespace strategy sees every table: booktabs tables
draw three rules and no columns (:func:`rule_bounded_regions`), LaTeX tables
without rules have only their caption to anchor them (:func:`caption_regions`),
zebra-striped filings come out as one-row strips (:func:`banded_regions`), and
tables ruled only between column groups leave their outer columns open
(:func:`open_sides`). The finders here return regions; the grids are read
from the words inside them (:mod:`docparse.backends.table_reading`).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import pairwise

from docparse.backends.table_candidates import Word, is_number, phrase_gap
from docparse.backends.table_headers import header_top
from docparse.backends.table_rows import baseline_rows, has_leaders, without_leaders

_NUMERIC = re.compile(r"\d")
#: Share of the page height at the top and bottom left out of table detection:
#: running headers and page numbers sit there and must not become table cells.
TABLE_MARGIN = 0.06
#: A line that starts a table caption ("Table 2: ...", "TABLE II", "Table A-3.", "Table S1").
TABLE_CAPTION = re.compile(
    r"^\s*(?:table|tab\.)\s*(?:(?-i:[A-Z])[-.]?)?(?:\d+|[IVXL]+)\b", re.IGNORECASE
)

Box = Sequence[float]
#: A text line of a page as the backends give it to the region finders: ``(bbox, text)``.
TextLine = tuple[tuple[float, ...], str]


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
    long = [r for r in joined_rules(rules) if r[2] - r[0] >= 40]
    captions = [b for b, t in lines if TABLE_CAPTION.match(t)]
    stacks = _rule_stacks(_rule_groups(long), lines, captions, page_height)
    # A stack whose bottom rule is drawn across the whole text width
    # (AASTeX's deluxetable) ends at that wider rule: the rows above it are
    # the table's. Such a closing rule is no rule of a wider table of its own.
    closers = {c for c in (_closing_rule(s, long, lines, captions) for s in stacks) if c}
    if closers:
        kept = [r for r in long if r not in closers]
        stacks = _rule_stacks(_rule_groups(kept), lines, captions, page_height)
        stacks = [
            (
                x0,
                x1,
                [*st, c[1]] if (c := _closing_rule((x0, x1, st), long, lines, captions)) else st,
            )
            for x0, x1, st in stacks
        ]
    out: list[tuple[float, float, float, float]] = []
    for x0, x1, stack in stacks:
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


def _rule_groups(rules: Sequence[tuple[float, float, float]]) -> dict[tuple[int, int], list[float]]:
    """Rule heights by horizontal extent (within 3 points)."""
    groups: dict[tuple[int, int], list[float]] = {}
    for x0, y, x1 in rules:
        key = next(
            (k for k in groups if abs(k[0] - x0) <= 3 and abs(k[1] - x1) <= 3),
            (round(x0), round(x1)),
        )
        groups.setdefault(key, []).append(float(y))
    return groups


def _rule_stacks(
    groups: dict[tuple[int, int], list[float]],
    lines: Sequence[tuple[Sequence[float], str]],
    captions: Sequence[Sequence[float]],
    page_height: float,
) -> list[tuple[int, int, list[float]]]:
    """Each group's rules split into stacks ``(x0, x1, heights)`` of one table each."""
    result: list[tuple[int, int, list[float]]] = []
    # Lines long enough to be prose (:func:`_prose_line`), by height: the
    # lines between two rules are looked up, not scanned, for every pair.
    wordy = (
        sorted(
            (((b[1] + b[3]) / 2, b) for b, t in lines if len(t.split()) >= _PROSE_WORDS),
            key=lambda mb: mb[0],
        )
        if groups
        else []
    )
    mids = [m for m, _ in wordy]
    for (x0, x1), ys in groups.items():
        ys = sorted(set(round(y, 1) for y in ys))
        # Split the stack at captions and at long gaps (a page of prose between).
        stacks: list[list[float]] = [[ys[0]]]
        for y in ys[1:]:
            prev = stacks[-1][-1]
            # Under its caption, a float's rules are split only by prose under
            # them, not by the other page column's beside them; rules with no
            # caption over them (a statement's sub-total rules) stop at any
            # prose line, as nothing says the rows across it are one table.
            first = stacks[-1][0]
            captioned = any(
                c[0] < x1 + 60 and c[2] > x0 - 60 and first - 120 <= c[3] <= first + 2
                for c in captions
            )
            split = (
                y - prev > 0.5 * page_height
                or any(prev < (c[1] + c[3]) / 2 < y and c[0] < x1 and c[2] > x0 for c in captions)
                or any(
                    (not captioned or (b[0] < x1 and b[2] > x0))
                    and b[2] - b[0] > _PROSE_SPAN * (x1 - x0)
                    for _, b in wordy[bisect_right(mids, prev) : bisect_left(mids, y)]
                )
            )
            if split:
                stacks.append([y])
            else:
                stacks[-1].append(y)
        result += [(x0, x1, st) for st in stacks]
    return result


def _closing_rule(
    stack: tuple[int, int, list[float]],
    rules: Sequence[tuple[float, float, float]],
    lines: Sequence[tuple[Sequence[float], str]],
    captions: Sequence[Sequence[float]],
) -> tuple[float, float, float] | None:
    """The wider rule that closes ``stack``'s table below its last rule, if any.

    It is the next rule under the stack's bottom that reaches into the
    stack's extent, it spans that extent and is wider, it lies within half
    the stack's height, and the lines between are rows of the table: no
    caption, no prose, at least one line inside the extent.
    """
    x0, x1, ys = stack
    if len(ys) < 2:
        return None
    top, bottom = ys[0], ys[-1]
    below = [r for r in rules if r[1] > bottom + 1 and r[0] < x1 and r[2] > x0]
    if not below:
        return None
    nxt = min(below, key=lambda r: r[1])
    wider = nxt[0] <= x0 + 3 and nxt[2] >= x1 - 3 and nxt[2] - nxt[0] > x1 - x0 + 6
    if not wider or nxt[1] - bottom > 0.5 * (bottom - top):
        return None
    between = [(b, t) for b, t in lines if bottom < (b[1] + b[3]) / 2 < nxt[1]]
    if any(c[0] < x1 and c[2] > x0 and bottom < (c[1] + c[3]) / 2 < nxt[1] for c in captions):
        return None
    if any(_prose_line(b, t, x1 - x0) for b, t in between):
        return None
    if not any(b[0] >= x0 - 6 and b[2] <= x1 + 6 for b, _ in between):
        return None
    return nxt


def joined_rules(rules: Iterable[Sequence[float]]) -> list[tuple[float, float, float]]:
    """Horizontal rules ``(x0, y, x1)`` with the pieces of one rule joined.

    A table drawn cell by cell strokes each rule one cell at a time; a
    reader sees one rule across the table. Pieces on one baseline (within
    half a point) that meet or nearly meet (2 points) are joined.
    """
    out: list[list[float]] = []
    for y, x0, x1 in sorted((float(r[1]), float(r[0]), float(r[2])) for r in rules):
        # Top down: only rules started within half a point above can take the piece.
        for k in range(len(out) - 1, -1, -1):
            r = out[k]
            if r[1] < y - 0.5:
                out.append([x0, y, x1])
                break
            if x0 <= r[2] + 2 and x1 >= r[0] - 2:
                r[0], r[2] = min(r[0], x0), max(r[2], x1)
                break
        else:
            out.append([x0, y, x1])
    return [(r[0], r[1], r[2]) for r in out]


def caption_blocks(rows: Sequence[tuple[Sequence[float], str]]) -> list[tuple[float, ...]]:
    """Boxes of table captions with the lines they wrap onto.

    ``rows`` are text rows ``(bbox, text)``, one per baseline. A caption
    (:data:`TABLE_CAPTION`) wrapped over two or three lines goes on right
    under itself, at its line spacing and type size, never left of its start,
    starting in its first half or centred under it, and alone on its baseline
    (``Table A-3. Number and percentage ... by content`` / ``domain and
    process: 2011``); a column head under a short caption is none (``2024``
    right of ``Table 1. Balance Sheets``, ``2023`` and ``2022`` beyond its end).
    Read as the top row of the table below, the wrapped
    line would be a header and hide the table's columns.
    """
    ordered = sorted(rows, key=lambda r: (r[0][1], r[0][0]))
    out: list[tuple[float, ...]] = []
    for i, (box, text) in enumerate(ordered):
        if not TABLE_CAPTION.match(text):
            continue
        block = [float(v) for v in box[:4]]
        height = box[3] - box[1]
        for nb, _ in ordered[i + 1 : i + 4]:
            tight = nb[1] - block[3] <= 0.5 * height
            same_size = abs((nb[3] - nb[1]) - height) <= 0.2 * height
            # A header line has pieces side by side; a wrapped caption line is alone.
            mid = (nb[1] + nb[3]) / 2
            alone = not any(
                b is not nb and abs((b[1] + b[3]) / 2 - mid) < 0.3 * height and b[0] < block[2]
                for b, _ in ordered
            )
            # A wrapped line starts at the caption's left edge or its hanging
            # indent (in its first half), or is centred under a centred one; a
            # column head under a short caption starts further right (its
            # fellow heads right of the caption's end, where ``alone`` looks not).
            half = (box[2] - box[0]) / 2
            under = nb[0] <= box[0] + half or abs(nb[0] + nb[2] - box[0] - box[2]) <= 0.2 * half
            if not (tight and same_size and alone and under and nb[0] >= box[0] - 2):
                break
            block = [block[0], block[1], max(block[2], nb[2]), nb[3]]
        out.append(tuple(block))
    return out


#: A line of running prose holds this many words or more, across this share of its column.
_PROSE_WORDS = 8
_PROSE_SPAN = 0.6


def _prose_line(box: Sequence[float], text: str, width: float) -> bool:
    """A text line of running prose: 8 words or more over most of ``width``."""
    return len(text.split()) >= _PROSE_WORDS and box[2] - box[0] > _PROSE_SPAN * width


def is_rule(x0: float, y0: float, x1: float, y1: float) -> bool:
    """A thin horizontal stroke (a table rule or a piece of one), by its bounding box.

    Rules drawn in pieces, cell by cell, are joined and then kept when 40
    points long or more (:func:`rule_bounded_regions`).
    """
    return y1 - y0 < _RULE_THICKNESS and x1 - x0 >= y1 - y0


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


def label_value_regions(words: Sequence[Word]) -> list[tuple[float, float, float, float]]:
    """Regions of label/value lists (``Age group | Proportion``, ``ITEM 7. | Title | 40``).

    A short list of labels, each with one value set well apart on its right,
    is a table to a reader (``20-29   0.2650``), though its rows hold a
    single number and a finder of rows of numbers passes over it. Three or
    more consecutive rows of two pieces, the last a value
    (:func:`~docparse.backends.table_candidates.is_number`), the first a
    short label (at most six words, not a value), at a steady pitch, with the
    values ending at one x (or starting at one x), make a region, with a
    header line of two short pieces directly above it. A row may hold one
    text piece between its label and value (a filing's index: ``ITEM 7. |
    Management's Discussion ... | 40``). Labels start at one x, or, set out
    of their column's indent by less than four line heights (a ``PART II``
    row over its ``ITEM`` rows), still end left of every row's second piece.
    Titles led by dots to page numbers that never decrease are a table of
    contents, not a table.
    """
    if not words:
        return []
    min_gap = phrase_gap(words)
    rows = page_rows(words)
    # A row's pieces are made when first asked for: most rows of a page hold no
    # digit, so their second piece is no value and they pair with nothing.
    pieces = _LazyPieces(rows, min_gap)
    digits = [pieces.has_digit(i) for i in range(len(rows))]

    def pair(i: int) -> bool:
        if not digits[i]:
            return False
        p = pieces[i]
        if len(p) not in (2, 3):
            return False
        label, value = p[0][4], p[-1][4]
        short = len(label.split()) <= 6 and not is_number(label)
        return short and is_number(value) and not any(is_number(m[4]) for m in p[1:-1])

    def aligned(i: int, j: int) -> bool:
        a, b = pieces[i], pieces[j]
        same_value = abs(a[-1][2] - b[-1][2]) <= 3 or abs(a[-1][0] - b[-1][0]) <= 3
        height = max(a[0][3] - a[0][1], 6.0)
        # An outdented section row (PART II over its ITEM rows) keeps to the label column.
        outdented = abs(a[0][0] - b[0][0]) <= 4 * height and max(a[0][2], b[0][2]) < min(
            a[1][0], b[1][0]
        )
        return (abs(a[0][0] - b[0][0]) <= 3 or outdented) and same_value

    out: list[tuple[float, float, float, float]] = []
    i = 0
    while i < len(rows):
        # Cheap test first: a run of three needs a digit in each of its rows
        # (a shorter run from here adds nothing, and the rows it would skip
        # start no run of three either).
        if not (i + 2 < len(rows) and digits[i] and digits[i + 1] and digits[i + 2]):
            i += 1
            continue
        if not pair(i):
            i += 1
            continue
        run = [i]
        while run[-1] + 1 < len(rows) and pair(run[-1] + 1) and aligned(run[0], run[-1] + 1):
            k = run[-1] + 1
            height = rows[k][0][3] - rows[k][0][1]
            if pieces[k][0][1] - pieces[run[-1]][0][3] > 1.5 * max(height, 6.0):
                break
            run.append(k)
        i = run[-1] + 1
        if len(run) < 3:
            continue
        if _contents_pages([pieces[k][-1][4] for k in run]) and any(
            has_leaders(rows[k], (-1e9, -1e9, 1e9, 1e9)) for k in run
        ):
            continue
        top = run[0]
        head = pieces[top - 1] if top > 0 else []
        near = head and pieces[top][0][1] - max(h[3] for h in head) <= 2 * max(
            pieces[top][0][3] - pieces[top][0][1], 6.0
        )
        if len(head) == 2 and near and all(len(h[4].split()) <= 4 for h in head):
            top -= 1
        boxes = [b for k in range(top, run[-1] + 1) for b in pieces[k]]
        out.append(
            (
                min(b[0] for b in boxes) - 1,
                min(b[1] for b in boxes) - 1,
                max(b[2] for b in boxes) + 1,
                max(b[3] for b in boxes) + 1,
            )
        )
    return out


@functools.lru_cache(maxsize=2)
def _page_rows(words: tuple[Word, ...]) -> tuple[tuple[Word, ...], ...]:
    return tuple(tuple(r) for r in baseline_rows(words))


def page_rows(words: Sequence[Word]) -> tuple[tuple[Word, ...], ...]:
    """The baseline rows of a page's words (:func:`~docparse.backends.table_rows.baseline_rows`).

    The whole-page finders (:func:`label_value_regions`, the keyed lists of
    :mod:`~docparse.backends.table_lists`) read the same page's rows one
    after the other, with the grid reader's region rows in between: the
    last two pages' answers are kept here.
    """
    return _page_rows(tuple(words))


class _LazyPieces:
    """``_pieces`` of each row of ``rows``, made on first use."""

    def __init__(self, rows: Sequence[Sequence[Word]], min_gap: float) -> None:
        self._rows = rows
        self._min_gap = min_gap
        self._made: dict[int, list[Word]] = {}

    def has_digit(self, i: int) -> bool:
        """Whether a word of row ``i`` holds a digit (a value piece needs one)."""
        return _DIGIT.search(" ".join(w[4] for w in self._rows[i])) is not None

    def __getitem__(self, i: int) -> list[Word]:
        made = self._made.get(i)
        if made is None:
            made = self._made[i] = _pieces(self._rows[i], self._min_gap)
        return made


_DIGIT = re.compile(r"\d")


def _contents_pages(values: Sequence[str]) -> bool:
    """Whole numbers that never decrease: the page numbers of a table of contents."""
    if not all(v.isdigit() for v in values):
        return False
    nums = [int(v) for v in values]
    return all(a <= b for a, b in pairwise(nums))


def _pieces(row: Sequence[Word], min_gap: float) -> list[Word]:
    """A row's phrases (words closer than ``min_gap``) as boxes with their text."""
    out: list[Word] = []
    for w in without_leaders(row):
        if out and w[0] - out[-1][2] <= min_gap:
            p = out[-1]
            out[-1] = (p[0], min(p[1], w[1]), w[2], max(p[3], w[3]), f"{p[4]} {w[4]}")
        else:
            out.append(w)
    return out


def without_prose_sides(
    region: Sequence[float], words: Sequence[Word]
) -> tuple[float, float, float, float]:
    """``region`` narrowed to leave out a column of running text beside the table.

    A table set in one page column shares its baselines with the prose of
    the other column, so a finder of rows of numbers takes both in
    (``enrollment levels of 10,000 students or more ... | 14-17 | 231,000``).
    A reader sees the text column for what it is: on most rows the outermost
    piece is a line of five or more words, and most of those lines start in
    lower case (a sentence running on from the line above). Such a side is
    cut off just beyond those lines, when something is left on the other
    side of the cut.
    """
    x0, y0, x1, y1 = region[:4]
    inside = [w for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1]
    if not inside:
        return (x0, y0, x1, y1)
    min_gap = phrase_gap(inside)
    rows = [p for p in (_pieces(r, min_gap) for r in baseline_rows(inside)) if len(p) >= 2]
    if len(rows) < 3:
        return (x0, y0, x1, y1)

    def prose(ps: list[Word]) -> bool:
        long = [p for p in ps if len(p[4].split()) >= 5]
        lower = sum(p[4][:1].islower() for p in long)
        return len(long) >= 0.6 * len(rows) and lower >= 0.5 * len(long)

    lo, hi = x0, x1
    left = [r[0] for r in rows]
    if prose(left):
        cut = max(p[2] for p in left if len(p[4].split()) >= 5) + 1
        if any(w[0] > cut for w in inside):
            lo = cut
    right = [r[-1] for r in rows]
    if prose(right):
        cut = min(p[0] for p in right if len(p[4].split()) >= 5) - 1
        if any(w[2] < cut for w in inside):
            hi = cut
    return (lo, y0, hi, y1)

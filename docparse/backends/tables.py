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
from collections.abc import Iterable, Sequence
from typing import Any

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


_NUMBER_CELL = re.compile(r"^[\s$€£¥%()+\-–—.,/*\d]*\d[\s$€£¥%()+\-–—.,/*\d]*$")


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
        numeric = sum(bool(_NUMBER_CELL.match(c)) for c in column)
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
    the whole next to a table caption, bound such a table; the region returned
    spans the first to the last rule. A caption between two rules splits the
    stack (two tables of the same width one above the other).
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
            split = y - prev > 0.5 * page_height or any(
                prev < (c[1] + c[3]) / 2 < y and c[0] < x1 and c[2] > x0 for c in captions
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
            if near:
                out.append((float(x0) - 2, top - 1, float(x1) + 2, bottom + 1))
    return out


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

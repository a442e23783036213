"""Margin line numbers: a column of numbers beside every line of the text.

Review copies, preprints (the ``lineno`` package, a journal's ``linenumbers``
option) and legal pleadings number each line of a page in a margin. Each
number sits on its line's baseline, so a backend that makes lines by
baseline glues it into the line (``42 to obtain an approximate ...``), into
a display equation's row, or leaves it as a paragraph of its own between
two halves of one. :func:`split_line_numbers` takes such a column out of a
page's lines before anything else reads them, as one block with the
``line_number`` role (furniture, see :mod:`docparse.backends.furniture`).

A column is told by geometry and sequence alone, never by a font:

* at least :data:`MIN_NUMBERS` spans of one to five digits each, the first
  or last on their line, in the left or right quarter of the page, their
  right (or left) edges aligned;
* read down the page, the numbers grow, by one step (1, or 5 for every
  fifth line) between most neighbours, and never fall back;
* the column is the page's outermost text: no other text on the page starts
  (ends) in it or within a gap of it on the inner side, at any height. A
  table's column of years (``1996``, ``1997``, ...) fails here: the
  table's title or row labels start where the years do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import pairwise

from docparse.backends.lines import make_line, union_boxes
from docparse.backends.pages import Block, Line, PageContent, TextSpan

#: Fewest numbers a column needs on a page.
MIN_NUMBERS = 5
#: Share of the page width each side that a margin column may lie in.
ZONE = 0.25
#: Most digits of a line number.
_DIGITS = 5


def _number(span: TextSpan) -> int | None:
    """The value of a span that is one number of at most five digits, else ``None``."""
    t = span.text.strip()
    if 0 < len(t) <= _DIGITS and t.isascii() and t.isdecimal():
        return int(t)
    return None


def _candidates(page: PageContent) -> tuple[list[TextSpan], list[TextSpan]]:
    """Number spans that open (left) or close (right) their line within the margin zones.

    A line's first and last spans are read in the line's own order: a
    backend may list a number printed after its line's text last, left of
    it or not.
    """
    left_edge, right_edge = ZONE * page.width, (1 - ZONE) * page.width
    left: list[TextSpan] = []
    right: list[TextSpan] = []
    for b in page.blocks:
        box = b.bbox
        if b.role is not None or (left_edge < box.x0 and box.x1 < right_edge):
            continue  # a block off both margin zones holds no candidate
        for ln in b.lines:
            text = ln.text
            # Most lines neither start nor end with a digit: their spans are not read.
            if not text or not (text[0].isdigit() or text[-1].isdigit()):
                continue
            spans = [s for s in ln.spans if s.text.strip()]
            for s in (spans[0], spans[-1]) if len(spans) > 1 else spans:
                if _number(s) is None:
                    continue
                if s.bbox.x1 <= left_edge:
                    left.append(s)
                elif s.bbox.x0 >= right_edge:
                    right.append(s)
    return left, right


def _aligned(spans: list[TextSpan]) -> list[TextSpan]:
    """The largest set of ``spans`` whose right or left edges line up (within 1.5 pt).

    Numbers in the left margin are set flush right (``9`` and ``10`` end at
    one x), those in the right margin flush left; either edge is tried and
    the larger set kept.
    """
    best: list[TextSpan] = []
    for right in (True, False):
        xs = sorted(spans, key=lambda s: s.bbox.x1 if right else s.bbox.x0)
        edges = [s.bbox.x1 if right else s.bbox.x0 for s in xs]
        j = 0
        for i, x in enumerate(edges):
            while x - edges[j] > 1.5:
                j += 1
            if i + 1 - j > len(best):
                best = xs[j : i + 1]
        if len(best) == len(spans):
            break
    return best


def _sequence(column: list[TextSpan]) -> bool:
    """The numbers grow down the page by one step between most neighbours."""
    values = [_number(s) or 0 for s in column]
    steps = [b - a for a, b in pairwise(values)]
    if not steps or min(steps) <= 0:
        return False
    step, n = Counter(steps).most_common(1)[0]
    return step <= 10 and 3 * n >= 2 * len(steps)


def _outermost(page: PageContent, column: list[TextSpan], left: bool) -> bool:
    """No other text of the page lies in the column's band or within a gap inward of it."""
    ids = {id(s) for s in column}
    x0 = min(s.bbox.x0 for s in column)
    x1 = max(s.bbox.x1 for s in column)
    gap = max(4.0, max(s.size for s in column))
    for b in page.blocks:
        for ln in b.lines:
            lb = ln.bbox
            # A line wholly inward of the gap holds no span that matters.
            if (lb.x0 >= x1 + gap) if left else (lb.x1 <= x0 - gap):
                continue
            for s in ln.spans:
                if id(s) in ids or not s.text.strip():
                    continue
                sb = s.bbox
                if left and sb.x1 > x0 and sb.x0 < x1 + gap:
                    return False
                if not left and sb.x0 < x1 and sb.x1 > x0 - gap:
                    return False
    return True


def _column(page: PageContent, spans: list[TextSpan], left: bool) -> list[TextSpan]:
    """The margin line numbers among ``spans`` (one side's candidates), or none."""
    if len(spans) < MIN_NUMBERS:
        return []
    column = _aligned(spans)
    if len(column) < MIN_NUMBERS:
        return []
    column.sort(key=lambda s: s.bbox.y0)
    if not _sequence(column) or not _outermost(page, column, left):
        return []
    return column


def split_line_numbers(page: PageContent) -> PageContent:
    """``page`` with its margin line numbers taken out of its lines (see the module).

    Each column found becomes one block of one line a number, with the
    ``line_number`` role; the lines they were in keep their other spans. A
    page without such a column is returned as it is.
    """
    left, right = _candidates(page)
    if len(left) < MIN_NUMBERS and len(right) < MIN_NUMBERS:
        return page
    columns = [c for c in (_column(page, left, True), _column(page, right, False)) if c]
    if not columns:
        return page
    taken = {id(s) for c in columns for s in c}
    blocks: list[Block] = []
    for b in page.blocks:
        if b.role is not None or not any(id(s) in taken for ln in b.lines for s in ln.spans):
            blocks.append(b)
            continue
        lines: list[Line] = []
        for ln in b.lines:
            if not any(id(s) in taken for s in ln.spans):
                lines.append(ln)
                continue
            kept = tuple(s for s in ln.spans if id(s) not in taken)
            if any(s.text.strip() for s in kept):
                lines.append(make_line(kept, union_boxes([s.bbox for s in kept])))
        if lines:
            blocks.append(Block(tuple(lines), union_boxes([ln.bbox for ln in lines]), b.role))
    for c in columns:
        number_lines = tuple(make_line((s,), s.bbox) for s in c)
        blocks.append(Block(number_lines, union_boxes([s.bbox for s in c]), "line_number"))
    return replace(page, blocks=tuple(blocks))

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

On a two-column page ``lineno`` numbers the second column's lines in the
gutter, left of that column (or the first column's, right of it, with the
numbers on the right): no outer quarter holds them, and the first column's
line ends reach into their band. Such a column is known by its sequence:
once a page's margin column is found, a column of at least
:data:`MIN_GUTTER` aligned numbers off the margin zones, growing as a
margin column does, that carries the margin column's numbering on (its
first number comes within ten steps after the margin column's last, or its
last within ten steps before the margin column's first) is one too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import pairwise

from docparse.backends.lines import make_line, union_boxes
from docparse.backends.pages import Block, Line, PageContent, TableRegion, TextSpan

#: Fewest numbers a column needs on a page.
MIN_NUMBERS = 5
#: Share of the page width each side that a margin column may lie in.
ZONE = 0.25
#: Fewest numbers of a gutter column (it must carry a margin column's numbering on).
MIN_GUTTER = 3
#: Most digits of a line number.
_DIGITS = 5


def _number(span: TextSpan) -> int | None:
    """The value of a span that is one number of at most five digits, else ``None``."""
    t = span.text.strip()
    if 0 < len(t) <= _DIGITS and t.isascii() and t.isdecimal():
        return int(t)
    return None


def _line_end_numbers(blocks: Iterable[Block]) -> Iterator[TextSpan]:
    """Number spans that open or close their line, in ``blocks``.

    A line's first and last spans are read in the line's own order: a
    backend may list a number printed after its line's text last, left of
    it or not.
    """
    for b in blocks:
        for ln in b.lines:
            text = ln.text
            # Most lines neither start nor end with a digit: their spans are not read.
            if not text or not (text[0].isdigit() or text[-1].isdigit()):
                continue
            spans = [s for s in ln.spans if s.text.strip()]
            for s in (spans[0], spans[-1]) if len(spans) > 1 else spans:
                if _number(s) is not None:
                    yield s


def _candidates(page: PageContent) -> tuple[list[TextSpan], list[TextSpan]]:
    """Number spans that open (left) or close (right) their line within the margin zones."""
    left_edge, right_edge = ZONE * page.width, (1 - ZONE) * page.width
    left: list[TextSpan] = []
    right: list[TextSpan] = []
    # A block off both margin zones holds no candidate.
    blocks = (
        b
        for b in page.blocks
        if b.role is None and not (left_edge < b.bbox.x0 and b.bbox.x1 < right_edge)
    )
    for s in _line_end_numbers(blocks):
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


def _gutter_candidates(page: PageContent, taken: set[int]) -> list[TextSpan]:
    """Number spans off the margin zones that open or close their line (not in ``taken``)."""
    left_edge, right_edge = ZONE * page.width, (1 - ZONE) * page.width
    blocks = (b for b in page.blocks if b.role is None)
    return [
        s
        for s in _line_end_numbers(blocks)
        if id(s) not in taken and left_edge < s.bbox.x1 and s.bbox.x0 < right_edge
    ]


def _continues(column: list[TextSpan], margins: list[list[TextSpan]]) -> bool:
    """``column`` carries the numbering of one of the margin columns ``margins`` on."""
    values = [_number(s) or 0 for s in column]
    step = Counter(b - a for a, b in pairwise(values)).most_common(1)[0][0]
    for margin in margins:
        first, last = _number(margin[0]) or 0, _number(margin[-1]) or 0
        if 0 < values[0] - last <= 10 * step or 0 < first - values[-1] <= 10 * step:
            return True
    return False


def _gutter_column(page: PageContent, margins: list[list[TextSpan]]) -> list[TextSpan]:
    """The numbers of a column set in the gutter between two text columns (see the module)."""
    taken = {id(s) for c in margins for s in c}
    spans = _gutter_candidates(page, taken)
    if len(spans) < MIN_GUTTER:
        return []
    column = _aligned(spans)
    if len(column) < MIN_GUTTER:
        return []
    column.sort(key=lambda s: s.bbox.y0)
    if not _sequence(column) or not _continues(column, margins):
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
    gutter = _gutter_column(page, columns)
    if gutter:
        columns.append(gutter)
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


def tables_clear_of_numbers(
    tables: tuple[TableRegion, ...], page: PageContent
) -> tuple[TableRegion, ...]:
    """``tables`` but those holding three or more of the line numbers of ``page``
    (as :func:`split_line_numbers` returned it).

    ``lineno`` numbers no line of a float, so a table the backend's finder
    made of numbered lines is two columns of text and the numbers between
    them read as a grid, never a table of the document.
    """
    numbers = [ln.bbox for b in page.blocks if b.role == "line_number" for ln in b.lines]
    kept = []
    for t in tables:
        box = t.bbox
        inside = sum(
            1
            for n in numbers
            if box.x0 <= (n.x0 + n.x1) / 2 <= box.x1 and box.y0 <= (n.y0 + n.y1) / 2 <= box.y1
        )
        if inside < 3:
            kept.append(t)
    return tuple(kept) if len(kept) < len(tables) else tables

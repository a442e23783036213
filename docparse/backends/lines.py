"""Words to lines to blocks, for backends whose library gives words or text runs, not blocks.

pdfplumber gives words and pypdfium2 text runs: both are grouped here into
visual lines (a gap wider than a column gutter splits a line; super- and
subscripts join the line they sit on) and lines into blocks (vertically
adjacent, horizontally overlapping, same font size) before the shared
assembly, so the two backends make lines the same way.
"""

from __future__ import annotations

import collections
import itertools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from docparse.backends.pages import Block, Line, TextSpan, line_facts
from docparse.model import BBox


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...]:
    return tuple(getattr(cls, name).__set__ for name in names)


_new = object.__new__
_BBOX_SET = _slot_setters(BBox, ("x0", "y0", "x1", "y1", "origin"))
_SPAN_SET = _slot_setters(TextSpan, ("text", "bbox", "size", "bold", "font"))
_LINE_SET = _slot_setters(Line, ("spans", "bbox", "_text", "_size", "_bold"))
_BLOCK_SET = _slot_setters(Block, ("lines", "bbox", "role"))
#: Runs an iterator to its end, keeping nothing (the setters' ``map`` results are ``None``).
_drain: Callable[[Iterable[object]], None] = collections.deque[object](maxlen=0).extend


# The three makers below give the objects the dataclasses' own __init__ gives,
# at about half the cost: a frozen dataclass sets each field through
# object.__setattr__, and a page has thousands of runs, each with a box.
# (tests/backends/test_lines.py checks them against the dataclasses.)
def new_bbox(x0: float, y0: float, x1: float, y1: float) -> BBox:
    """``BBox(x0, y0, x1, y1)`` with a top-left origin."""
    box = _new(BBox)
    sx0, sy0, sx1, sy1, sorigin = _BBOX_SET
    sx0(box, x0)
    sy0(box, y0)
    sx1(box, x1)
    sy1(box, y1)
    sorigin(box, "top-left")
    return box


def new_span(text: str, bbox: BBox, size: float, bold: bool, font: str) -> TextSpan:
    """``TextSpan(text, bbox, size, bold, font)``."""
    span = _new(TextSpan)
    stext, sbbox, ssize, sbold, sfont = _SPAN_SET
    stext(span, text)
    sbbox(span, bbox)
    ssize(span, size)
    sbold(span, bold)
    sfont(span, font)
    return span


def _new_many(
    cls: type, setters: Sequence[Callable[[Any, Any], None]], n: int, *columns: Iterable[Any]
) -> list[Any]:
    """``n`` new ``cls`` records, field ``k`` of each set from ``columns[k]`` by one
    C-level ``map`` over all records instead of a Python call a record."""
    objs: list[Any] = list(map(_new, itertools.repeat(cls, n)))
    for setter, column in zip(setters, columns, strict=True):
        _drain(map(setter, objs, column))
    return objs


def new_bboxes(
    x0: Iterable[float], y0: Iterable[float], x1: Iterable[float], y1: Iterable[float]
) -> list[BBox]:
    """``[BBox(a, b, c, d) for a, b, c, d in zip(x0, y0, x1, y1)]`` (top-left origin), a field
    at a time."""
    xs0 = list(x0)
    boxes: list[BBox] = _new_many(
        BBox, _BBOX_SET, len(xs0), xs0, y0, x1, y1, itertools.repeat("top-left")
    )
    return boxes


def new_spans(
    texts: Sequence[str],
    boxes: Iterable[BBox],
    sizes: Iterable[float],
    bolds: Iterable[bool],
    fonts: Iterable[str],
) -> list[TextSpan]:
    """``[TextSpan(*f) for f in zip(texts, boxes, sizes, bolds, fonts)]``, a field at a time."""
    spans: list[TextSpan] = _new_many(
        TextSpan, _SPAN_SET, len(texts), texts, boxes, sizes, bolds, fonts
    )
    return spans


def new_line(spans: tuple[TextSpan, ...], bbox: BBox) -> Line:
    """``Line(spans, bbox)``."""
    line = _new(Line)
    sspans, sbbox, stext, ssize, sbold = _LINE_SET
    sspans(line, spans)
    sbbox(line, bbox)
    stext(line, None)
    ssize(line, None)
    sbold(line, None)
    return line


def new_block(lines: tuple[Line, ...], bbox: BBox) -> Block:
    """``Block(lines, bbox)``."""
    block = _new(Block)
    slines, sbbox, srole = _BLOCK_SET
    slines(block, lines)
    sbbox(block, bbox)
    srole(block, None)
    return block


def lines_from_spans(words: Iterable[TextSpan]) -> list[Line]:
    """Group word-level spans into visual lines, split at gutter-wide gaps.

    ``words`` are non-blank spans in any order (a library's words or text
    runs); each becomes part of exactly one line.
    """
    spans = sorted(words, key=_top)
    if not spans:
        return []
    rows: list[list[TextSpan]] = []
    # A row is anchored on its first word's vertical centre; matching against
    # the row's growing union box would swallow the next line after one tall
    # glyph and interleave two lines' words.
    anchors: list[tuple[float, float]] = []
    # Comparisons instead of min()/max() calls: this runs once per word.
    amid = ahalf = 0.0  # the last row's anchor
    for s in spans:
        b = s.bbox
        y0, y1 = b.y0, b.y1
        mid = (y0 + y1) / 2
        height = y1 - y0
        half = (height if height > 1.0 else 1.0) / 2
        n = len(rows)
        # The last row first (most words go on the line before them), then
        # the three rows above it.
        if n and abs(mid - amid) <= 0.6 * (half if half < ahalf else ahalf):
            rows[-1].append(s)
            continue
        for k in range(n - 2, (n - 5 if n > 4 else -1), -1):
            kmid, khalf = anchors[k]
            if abs(mid - kmid) <= 0.6 * (half if half < khalf else khalf):
                rows[k].append(s)
                break
        else:
            rows.append([s])
            anchors.append((mid, half))
            amid, ahalf = mid, half
    rows = _attach_scripts(rows, anchors)
    lines: list[Line] = []
    append = lines.append
    for row in rows:
        if len(row) == 1:
            append(_one_span_line(row[0]))
            continue
        row.sort(key=_left)
        cur: list[TextSpan] = [row[0]]
        prev = row[0]
        prev_x1, prev_size = prev.bbox.x1, prev.size
        for s in row[1:]:
            size = s.size if s.size > prev_size else prev_size
            x0 = s.bbox.x0
            if x0 - prev_x1 > 0.9 * (size if size > 1.0 else 1.0):
                append(_line(cur))
                cur = [s]
            else:
                cur.append(s)
            prev_x1, prev_size = s.bbox.x1, s.size
        append(_line(cur))
    return lines


# Sort keys read in C (a page of text runs sorts thousands of spans).
_top = operator.attrgetter("bbox.y0")
_left = operator.attrgetter("bbox.x0")


def _attach_scripts(
    rows: list[list[TextSpan]], anchors: list[tuple[float, float]]
) -> list[list[TextSpan]]:
    """Put superscripts and subscripts ("x2", "H2O") into the row they sit on.

    Read top-down, a superscript starts a row of its own before its base line
    does. A row of at most two short, smaller words that overlaps a
    neighbouring row's line box by most of its height joins that row.
    """
    keep = [True] * len(rows)
    for k, row in enumerate(rows):
        if len(row) > 2 or len(row[0].text) > 3 or (len(row) == 2 and len(row[1].text) > 3):
            continue
        _mid, half = anchors[k]
        lo = min(s.bbox.y0 for s in row)
        hi = max(s.bbox.y1 for s in row)
        for j in (k + 1, k - 1):
            if not 0 <= j < len(rows) or not keep[j] or j == k:
                continue
            amid, ahalf = anchors[j]
            overlap = min(hi, amid + ahalf) - max(lo, amid - ahalf)
            if half < 0.85 * ahalf and overlap > 0.5 * (hi - lo):
                rows[j].extend(row)
                keep[k] = False
                break
    if all(keep):
        return rows
    return [row for row, k in zip(rows, keep, strict=True) if k]


def _line(spans: list[TextSpan]) -> Line:
    if len(spans) == 1:
        return _one_span_line(spans[0])
    return make_line(tuple(spans), union_boxes([s.bbox for s in spans]))


def make_line(spans: tuple[TextSpan, ...], bbox: BBox) -> Line:
    """``Line(spans, bbox)`` with its text, size and bold set as it is made.

    They are what :class:`~docparse.backends.pages.Line`'s properties work
    out (the assembly reads all three of nearly every line), in one pass
    over the spans instead of three.
    """
    if len(spans) == 1:
        return _one_span_line(spans[0], bbox)
    line = new_line(spans, bbox)
    _, _, stext, ssize, sbold = _LINE_SET
    text, size, bold = line_facts(spans)
    stext(line, text)
    ssize(line, size)
    sbold(line, bold)
    return line


def _one_span_line(span: TextSpan, bbox: BBox | None = None) -> Line:
    """The line of one span (its box unless ``bbox``), its text, size and
    bold already set: what :class:`~docparse.backends.pages.Line`'s
    properties work out for one span (its text; its size to 0.1 pt; bold
    when it is bold and not blank), at no cost."""
    line = new_line((span,), span.bbox if bbox is None else bbox)
    _, _, stext, ssize, sbold = _LINE_SET
    stext(line, span.text)
    ssize(line, round(span.size, 1))
    sbold(line, bool(span.bold) and bool(span.text.strip()))
    return line


def union_boxes(boxes: Sequence[BBox]) -> BBox:
    """The box holding ``boxes`` (one origin), made once instead of one union per box."""
    first = boxes[0]
    if len(boxes) == 1:
        return first
    origin = first.origin
    x0, y0, x1, y1 = first.x0, first.y0, first.x1, first.y1
    # Comparisons in min()'s and max()'s order: the same float wins ties.
    for b in boxes:
        if b.origin != origin:
            raise ValueError("cannot join boxes with different origins")
        if b.x0 < x0:
            x0 = b.x0
        if b.y0 < y0:
            y0 = b.y0
        if b.x1 > x1:
            x1 = b.x1
        if b.y1 > y1:
            y1 = b.y1
    if origin == "top-left":
        return new_bbox(x0, y0, x1, y1)
    return BBox(x0, y0, x1, y1, origin)


def blocks_from_lines(lines: list[Line]) -> tuple[Block, ...]:
    """Group lines into blocks: vertically adjacent, overlapping in x, same size."""
    order = sorted(lines, key=_top_left)
    # Lines come top down, so a block whose last line ends more than the widest
    # allowed gap above the current line can take no later line either.
    reach = 0.7 * max((max(ln.size, 1.0) for ln in order), default=1.0)
    open_blocks: list[list[Line]] = []
    # Each open block (in the order blocks were opened) with its last line's
    # bottom, left, right and size.
    active: list[tuple[list[Line], float, float, float, float]] = []
    for ln in order:
        b = ln.bbox
        top, x0, x1, ln_size = b.y0, b.x0, b.x1, ln.size
        # min()/max() by hand, in their order (the first argument wins ties).
        size = 1.0 if ln_size < 1.0 else ln_size
        # A block left behind can take no line (its gap is at least reach);
        # dropping them keeps the scan short.
        if active and top - active[0][1] >= reach:
            active = [a for a in active if top - a[1] < reach]
        for k in range(len(active) - 1, -1, -1):
            blk, bottom, lx0, lx1, lsize = active[k]
            gap = top - bottom
            overlap = (lx1 if lx1 < x1 else x1) - (lx0 if lx0 > x0 else x0)
            if -0.5 * size < gap < 0.7 * size and overlap > 0 and abs(ln_size - lsize) < 1.0:
                blk.append(ln)
                active[k] = (blk, b.y1, x0, x1, ln_size)
                break
        else:
            open_blocks.append([ln])
            active.append((open_blocks[-1], b.y1, x0, x1, ln_size))
    return tuple(new_block(tuple(blk), union_boxes([ln.bbox for ln in blk])) for blk in open_blocks)


_top_left = operator.attrgetter("bbox.y0", "bbox.x0")

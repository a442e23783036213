"""Words to lines to blocks, for backends whose library gives words or text runs, not blocks.

pdfplumber gives words and pypdfium2 text runs: both are grouped here into
visual lines (a gap wider than a column gutter splits a line; super- and
subscripts join the line they sit on) and lines into blocks (vertically
adjacent, horizontally overlapping, same font size) before the shared
assembly, so the two backends make lines the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from docparse.backends.pages import Block, Line, TextSpan
from docparse.model import BBox


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
    for s in spans:
        b = s.bbox
        y0, y1 = b.y0, b.y1
        mid = (y0 + y1) / 2
        height = y1 - y0
        half = (height if height > 1.0 else 1.0) / 2
        n = len(rows)
        for k in range(n - 1, (n - 5 if n > 4 else -1), -1):
            amid, ahalf = anchors[k]
            if abs(mid - amid) <= 0.6 * (half if half < ahalf else ahalf):
                rows[k].append(s)
                break
        else:
            rows.append([s])
            anchors.append((mid, half))
    rows = _attach_scripts(rows, anchors)
    lines: list[Line] = []
    for row in rows:
        row.sort(key=_left)
        cur: list[TextSpan] = [row[0]]
        prev = row[0]
        for s in row[1:]:
            size = s.size if s.size > prev.size else prev.size
            if s.bbox.x0 - prev.bbox.x1 > 0.9 * (size if size > 1.0 else 1.0):
                lines.append(_line(cur))
                cur = [s]
            else:
                cur.append(s)
            prev = s
        lines.append(_line(cur))
    return lines


def _top(s: TextSpan) -> float:
    return s.bbox.y0


def _left(s: TextSpan) -> float:
    return s.bbox.x0


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
        if len(row) > 2 or any(len(s.text) > 3 for s in row):
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
    return [row for row, k in zip(rows, keep, strict=True) if k]


def _line(spans: list[TextSpan]) -> Line:
    return Line(tuple(spans), _union([s.bbox for s in spans]))


def _union(boxes: list[BBox]) -> BBox:
    """The box holding ``boxes`` (one origin), made once instead of one union per box."""
    first = boxes[0]
    if len(boxes) == 1:
        return first
    if any(b.origin != first.origin for b in boxes):
        raise ValueError("cannot join boxes with different origins")
    return BBox(
        min(b.x0 for b in boxes),
        min(b.y0 for b in boxes),
        max(b.x1 for b in boxes),
        max(b.y1 for b in boxes),
        first.origin,
    )


def blocks_from_lines(lines: list[Line]) -> tuple[Block, ...]:
    """Group lines into blocks: vertically adjacent, overlapping in x, same size."""
    order = sorted(lines, key=lambda line: (line.bbox.y0, line.bbox.x0))
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
        size = max(ln_size, 1.0)
        active = [a for a in active if top - a[1] < reach]
        for k in range(len(active) - 1, -1, -1):
            blk, bottom, lx0, lx1, lsize = active[k]
            gap = top - bottom
            overlap = min(x1, lx1) - max(x0, lx0)
            if -0.5 * size < gap < 0.7 * size and overlap > 0 and abs(ln_size - lsize) < 1.0:
                blk.append(ln)
                active[k] = (blk, b.y1, x0, x1, ln_size)
                break
        else:
            open_blocks.append([ln])
            active.append((open_blocks[-1], b.y1, x0, x1, ln_size))
    return tuple(Block(tuple(blk), _union([ln.bbox for ln in blk])) for blk in open_blocks)

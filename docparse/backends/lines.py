"""Words to lines to blocks, for backends whose library gives words or text runs, not blocks.

pdfplumber gives words and pypdfium2 text runs: both are grouped here into
visual lines (a gap wider than a column gutter splits a line; super- and
subscripts join the line they sit on) and lines into blocks (vertically
adjacent, horizontally overlapping, same font size) before the shared
assembly, so the two backends make lines the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from docparse.backends.pages import Block, Line, TextSpan


def lines_from_spans(words: Iterable[TextSpan]) -> list[Line]:
    """Group word-level spans into visual lines, split at gutter-wide gaps.

    ``words`` are non-blank spans in any order (a library's words or text
    runs); each becomes part of exactly one line.
    """
    spans = sorted(words, key=lambda s: s.bbox.y0)
    if not spans:
        return []
    rows: list[list[TextSpan]] = []
    # A row is anchored on its first word's vertical centre; matching against
    # the row's growing union box would swallow the next line after one tall
    # glyph and interleave two lines' words.
    anchors: list[tuple[float, float]] = []
    for s in spans:
        placed = False
        mid = (s.bbox.y0 + s.bbox.y1) / 2
        half = max(s.bbox.y1 - s.bbox.y0, 1.0) / 2
        for k in range(len(rows) - 1, max(len(rows) - 5, -1), -1):
            amid, ahalf = anchors[k]
            if abs(mid - amid) <= 0.6 * min(half, ahalf):
                rows[k].append(s)
                placed = True
                break
        if not placed:
            rows.append([s])
            anchors.append((mid, half))
    rows = _attach_scripts(rows, anchors)
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda s: s.bbox.x0)
        cur: list[TextSpan] = [row[0]]
        for prev, s in itertools.pairwise(row):
            size = max(s.size, prev.size, 1.0)
            if s.bbox.x0 - prev.bbox.x1 > 0.9 * size:
                lines.append(_line(cur))
                cur = [s]
            else:
                cur.append(s)
        lines.append(_line(cur))
    return lines


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
    b = spans[0].bbox
    for s in spans[1:]:
        b = b.union(s.bbox)
    return Line(tuple(spans), b)


def blocks_from_lines(lines: list[Line]) -> tuple[Block, ...]:
    """Group lines into blocks: vertically adjacent, overlapping in x, same size."""
    order = sorted(lines, key=lambda line: (line.bbox.y0, line.bbox.x0))
    # Lines come top down, so a block whose last line ends more than the widest
    # allowed gap above the current line can take no later line either.
    reach = 0.7 * max((max(ln.size, 1.0) for ln in order), default=1.0)
    open_blocks: list[list[Line]] = []
    active: list[list[Line]] = []
    for ln in order:
        size = max(ln.size, 1.0)
        target = None
        active = [blk for blk in active if ln.bbox.y0 - blk[-1].bbox.y1 < reach]
        for blk in reversed(active):
            last = blk[-1]
            gap = ln.bbox.y0 - last.bbox.y1
            overlap = min(ln.bbox.x1, last.bbox.x1) - max(ln.bbox.x0, last.bbox.x0)
            if -0.5 * size < gap < 0.7 * size and overlap > 0 and abs(ln.size - last.size) < 1.0:
                target = blk
                break
        if target is None:
            open_blocks.append([ln])
            active.append(open_blocks[-1])
        else:
            target.append(ln)
    out = []
    for blk in open_blocks:
        b = blk[0].bbox
        for ln in blk[1:]:
            b = b.union(ln.bbox)
        out.append(Block(tuple(blk), b))
    return tuple(out)

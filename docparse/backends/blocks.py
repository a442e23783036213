"""Lines into blocks, shared by the backends that see words, not blocks.

pdfplumber gives words and OCR gives recognised lines; both need the blocks a
library like MuPDF reports by itself before the shared assembly
(:mod:`docparse.backends.layout`) reads them.
"""

from __future__ import annotations

from docparse.backends.base import Block, Line, TextSpan


def line_of(spans: list[TextSpan]) -> Line:
    """A line of ``spans`` (left to right), its box their union."""
    b = spans[0].bbox
    for s in spans[1:]:
        b = b.union(s.bbox)
    return Line(tuple(spans), b)


def blocks_from_lines(lines: list[Line]) -> tuple[Block, ...]:
    """Group lines into blocks: vertically adjacent, overlapping in x, same size."""
    open_blocks: list[list[Line]] = []
    for ln in sorted(lines, key=lambda line: (line.bbox.y0, line.bbox.x0)):
        size = max(ln.size, 1.0)
        target = None
        for blk in reversed(open_blocks):
            last = blk[-1]
            gap = ln.bbox.y0 - last.bbox.y1
            overlap = min(ln.bbox.x1, last.bbox.x1) - max(ln.bbox.x0, last.bbox.x0)
            if -0.5 * size < gap < 0.7 * size and overlap > 0 and abs(ln.size - last.size) < 1.0:
                target = blk
                break
        if target is None:
            open_blocks.append([ln])
        else:
            target.append(ln)
    out = []
    for blk in open_blocks:
        b = blk[0].bbox
        for ln in blk[1:]:
            b = b.union(ln.bbox)
        out.append(Block(tuple(blk), b))
    return tuple(out)

"""Table cells with row and column spans laid on a rectangular grid."""

from __future__ import annotations

from collections.abc import Sequence

from docparse.model import CellSpan, Table
from docparse.text import clean_text


def cells_to_table(
    rows: Sequence[Sequence[tuple[str, int, int]]],
    *,
    n_header_rows: int = 0,
    caption: str | None = None,
    label: str | None = None,
    footnotes: Sequence[str] = (),
    max_span: int = 200,
) -> Table:
    """Lay HTML-style rows of ``(text, rowspan, colspan)`` cells on a grid.

    Spanned cells keep their text at the top-left grid position; the other
    positions they cover hold ``""`` and the span is recorded as a
    :class:`~docparse.model.CellSpan`. A ``rowspan`` reaching past the last
    row is cut at the last row (as browsers do); spans above ``max_span``
    are clipped. Rows are padded to the same width.

    >>> t = cells_to_table([[("a", 1, 2)], [("b", 1, 1), ("c", 1, 1)]])
    >>> t.rows, t.spans
    ((('a', ''), ('b', 'c')), (CellSpan(row=0, col=0, row_span=1, col_span=2),))
    """
    grid: dict[tuple[int, int], str] = {}
    spans: list[CellSpan] = []
    n_rows = len(rows)
    for r, row in enumerate(rows):
        c = 0
        for text, rs, cs in row:
            while (r, c) in grid:
                c += 1
            rs = max(1, min(int(rs), max_span, n_rows - r))
            cs = max(1, min(int(cs), max_span))
            for dr in range(rs):
                for dc in range(cs):
                    grid[(r + dr, c + dc)] = ""
            grid[(r, c)] = clean_text(text)
            if rs > 1 or cs > 1:
                spans.append(CellSpan(r, c, rs, cs))
            c += cs
    width = max((c + 1 for (_, c) in grid), default=0)
    out = tuple(tuple(grid.get((r, c), "") for c in range(width)) for r in range(n_rows))
    return Table(
        rows=out,
        n_header_rows=min(n_header_rows, n_rows),
        spans=tuple(spans),
        caption=clean_text(caption) if caption else None,
        label=label or None,
        footnotes=tuple(clean_text(f) for f in footnotes if clean_text(f)),
    )


def span_value(value: str | None) -> int:
    """A ``rowspan``/``colspan`` attribute as a count: 1 when missing, blank or not a number."""
    try:
        return int((value or "1").strip() or "1")
    except ValueError:
        return 1

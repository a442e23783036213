"""Table cells with row and column spans laid on a rectangular grid."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Generic, NamedTuple, TypeVar

from docparse.model import CellSpan, Table
from docparse.text import clean_text

T = TypeVar("T")

#: Largest row or column span kept; a larger one is clipped to it (a hostile
#: ``colspan="1000000000"`` must not allocate a billion grid positions).
MAX_SPAN = 200


class Placed(NamedTuple, Generic[T]):
    """A cell at its grid position, with the spans it covers."""

    row: int
    col: int
    row_span: int
    col_span: int
    value: T


def place_cells(
    rows: Sequence[Sequence[tuple[T, int, int]]],
    *,
    max_span: int = MAX_SPAN,
    covered_listed: bool = False,
) -> list[Placed[T]]:
    """Grid positions of rows of ``(value, rowspan, colspan)`` cells.

    In HTML a position covered by a ``rowspan`` from above is left out of
    the lower row, whose next cell moves right past it; LaTeX rows list
    such a position themselves (an empty ``&`` under ``\\multirow``):
    ``covered_listed=True`` places every cell right after the previous one.
    Spans are at least 1 and at most ``max_span``; a ``rowspan`` reaching
    past the last row is cut at the last row (as browsers do).

    >>> [tuple(p) for p in place_cells([[("a", 2, 1), ("b", 1, 1)], [("c", 1, 1)]])]
    [(0, 0, 2, 1, 'a'), (0, 1, 1, 1, 'b'), (1, 1, 1, 1, 'c')]
    """
    placed: list[Placed[T]] = []
    occupied: set[tuple[int, int]] = set()
    n_rows = len(rows)
    for r, row in enumerate(rows):
        c = 0
        for value, rs, cs in row:
            while not covered_listed and (r, c) in occupied:
                c += 1
            rs = max(1, min(int(rs), max_span, n_rows - r))
            cs = max(1, min(int(cs), max_span))
            if not covered_listed:
                occupied.update((r + dr, c + dc) for dr in range(rs) for dc in range(cs))
            placed.append(Placed(r, c, rs, cs, value))
            c += cs
    return placed


def fill_grid(
    placed: Iterable[Placed[str]], n_rows: int, n_cols: int = 0
) -> tuple[tuple[tuple[str, ...], ...], tuple[CellSpan, ...]]:
    """The rectangular grid of placed cells, and their spans, in placing order.

    A cell's text goes to its top-left position and ``""`` to the others it
    covers; a later cell wins where two overlap. The grid has ``n_rows``
    rows and is as wide as the widest cell reaches, at least ``n_cols``.
    """
    grid: dict[tuple[int, int], str] = {}
    spans: list[CellSpan] = []
    for p in placed:
        for dr in range(p.row_span):
            for dc in range(p.col_span):
                grid[(p.row + dr, p.col + dc)] = ""
        grid[(p.row, p.col)] = p.value
        if p.row_span > 1 or p.col_span > 1:
            spans.append(CellSpan(p.row, p.col, p.row_span, p.col_span))
    width = max(n_cols, max((c + 1 for (_, c) in grid), default=0))
    rows = tuple(tuple(grid.get((r, c), "") for c in range(width)) for r in range(n_rows))
    return rows, tuple(spans)


def cells_to_table(
    rows: Sequence[Sequence[tuple[str, int, int]]],
    *,
    n_header_rows: int = 0,
    caption: str | None = None,
    label: str | None = None,
    footnotes: Sequence[str] = (),
    max_span: int = MAX_SPAN,
    covered_listed: bool = False,
) -> Table:
    """Lay rows of ``(text, rowspan, colspan)`` cells on a rectangular grid.

    Cells are placed by :func:`place_cells` (HTML rules, or LaTeX rules with
    ``covered_listed``). Spanned cells keep their text at the top-left grid
    position; the other positions they cover hold ``""`` (unless a later
    row lists its own cell there) and the span is recorded as a
    :class:`~docparse.model.CellSpan`. Rows are padded to the same width.

    >>> t = cells_to_table([[("a", 1, 2)], [("b", 1, 1), ("c", 1, 1)]])
    >>> t.rows, t.spans
    ((('a', ''), ('b', 'c')), (CellSpan(row=0, col=0, row_span=1, col_span=2),))
    """
    placed = place_cells(rows, max_span=max_span, covered_listed=covered_listed)
    n_rows = len(rows)
    grid, spans = fill_grid((p._replace(value=clean_text(p.value)) for p in placed), n_rows)
    return Table(
        rows=grid,
        n_header_rows=min(n_header_rows, n_rows),
        spans=spans,
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

"""Which columns a table's header lines stand over, read from the words' positions.

:func:`~docparse.backends.table_grid.word_grid` places each phrase of a row
in the column holding its left end. Header lines are placed again here: a
header centred over a group of columns heads the group
(:func:`spanning_starts`), and a head wider than its column, set flush with
its column's text (right-aligned over figures) or over no text at all, goes
to the column whose body text it stands over (:func:`heads_over_body`).
"""

from __future__ import annotations

from collections.abc import Sequence

from docparse.backends.table_candidates import Word


def body_extents(
    pieces: Sequence[Sequence[Sequence[Word]]], placed: Sequence[Sequence[int]], n: int
) -> list[tuple[float, float] | None]:
    """Per column, the x-extent of the body's pieces placed in it (``None``: no body text)."""
    out: list[tuple[float, float] | None] = [None] * n
    for row, cols in zip(pieces, placed, strict=True):
        for piece, col in zip(row, cols, strict=True):
            lo, hi = piece[0][0], max(w[2] for w in piece)
            old = out[col]
            out[col] = (lo, hi) if old is None else (min(old[0], lo), max(old[1], hi))
    return out


def heads_over_body(
    pieces: Sequence[Sequence[Word]],
    placed: Sequence[int],
    spanned: Sequence[int],
    extents: Sequence[tuple[float, float] | None],
    slack: float,
) -> list[int]:
    """A header line's columns, each head over the column whose body text it stands over.

    A head is placed by its left end, which for a head wider than its column
    (right-aligned over a column of figures, ``Weighted school`` over ``98``)
    lies in the gap left of the column. A head that the spanning test left in
    place (``spanned``, see :func:`spanning_starts`) and that stands over the
    body text of exactly one column (``extents``, :func:`body_extents`),
    right-aligned with it (within ``slack``), wider than it and placed left of
    it, goes to that column, unless another head of the line stays there.
    """
    targets: dict[int, int] = {}
    for i, piece in enumerate(pieces):
        if spanned[i] != placed[i]:
            continue
        lo, hi = piece[0][0], max(w[2] for w in piece)
        under = [c for c, e in enumerate(extents) if e is not None and e[0] < hi and e[1] > lo]
        if len(under) == 1:
            # Right-aligned with the column's figures and wider than they are (a
            # centred head reaching past them on the right may span the columns
            # around it; one as wide as they are stands where its cut put it).
            e = extents[under[0]]
            wider = e is not None and lo < e[0] - slack and abs(hi - e[1]) <= slack
            if wider and placed[i] < under[0]:
                targets[i] = under[0]
    out = list(spanned)
    # Heads move together (each may free the column the one before it goes to);
    # a move into a column another head keeps is undone, until none is left.
    moved = {i for i, c in targets.items() if c != out[i]}
    while moved:
        final = [targets[i] if i in moved else c for i, c in enumerate(out)]
        clash = {i for i in moved if final.count(final[i]) > 1}
        if not clash:
            return final
        moved -= clash
    return out


def heads_of_empty_columns(
    pieces: Sequence[Sequence[Sequence[Word]]],
    placed: Sequence[Sequence[int]],
    extents: Sequence[tuple[float, float] | None],
) -> list[list[int]]:
    """Header lines' columns, the heads of a column with no body text moved to a neighbour.

    A head set left of its column's right-aligned figures, over none of
    them, is cut off from them when a narrow gap or a rule lies between
    (``Other`` over ``-``): its column holds no body text (``extents``), and
    the figures' column has no head. Every head of such a column goes to
    the nearer neighbour column with body text when that column has no head
    in any of those lines (a head-only column whose neighbour has heads of
    its own, ``percent change`` beside ``Per Diluted Share``, stays).
    """
    out = [list(p) for p in placed]
    for c, e in enumerate(extents):
        if e is not None:
            continue
        lines = [r for r, cols in enumerate(out) if c in cols]
        if not lines:
            continue
        lo = min(p[0][0] for r in lines for p, k in zip(pieces[r], out[r], strict=True) if k == c)
        hi = max(
            max(w[2] for w in p)
            for r in lines
            for p, k in zip(pieces[r], out[r], strict=True)
            if k == c
        )
        free = [
            (max(d[0] - hi, lo - d[1]), n)
            for n, d in (
                (c - 1, extents[c - 1] if c else None),
                (c + 1, extents[c + 1] if c + 1 < len(extents) else None),
            )
            if d is not None and not any(n in out[r] for r in lines)
        ]
        if free:
            target = min(free)[1]
            for r in lines:
                out[r] = [target if k == c else k for k in out[r]]
    return out


def spanning_starts(
    pieces: Sequence[Sequence[Word]],
    placed: Sequence[int],
    xs: Sequence[float],
    min_gap: float,
    group: tuple[float, float, int] | None = None,
) -> list[int]:
    """Columns of a header line's pieces, a spanning header in the first column it spans.

    A header centred over a group of columns ("Year of data" over four years)
    crosses the gaps between them; its left end falls in whichever column
    the centring puts it, one or two right of the group's first. A reader
    takes it as heading the whole group: the columns around it up to its
    neighbours in the line, whose middle is its middle. Of the runs of
    columns that hold every column it overlaps and no neighbour's, the one
    centred on it (within a tenth of its width; the widest of those) gives
    its column: the run's first, as ICDAR-2013 places spanning cells. A
    header narrower than one column, alone in its line and centred over
    ``group`` (``(x0, x1, first column)`` of the words right of the stub,
    three columns or more), spans them too.
    """
    n = len(xs) - 1
    out = list(placed)
    for i, piece in enumerate(pieces):
        lo, hi = piece[0][0], max(w[2] for w in piece)
        # Well into two columns at least: a short label on a boundary is no span.
        over = [c for c in range(n) if lo < xs[c + 1] - min_gap and hi > xs[c] + min_gap]
        if len(over) < 2:
            # Alone in its line and centred over every value column ("Year Ended"
            # over three years, in the middle one): it heads them all.
            if group is None or len(pieces) > 1 or n - group[2] < 3:
                continue
            if abs((group[0] + group[1]) / 2 - (lo + hi) / 2) <= 0.1 * (hi - lo):
                out[i] = group[2]
            continue
        left = out[i - 1] + 1 if i > 0 else 0
        right = placed[i + 1] - 1 if i + 1 < len(pieces) else n - 1
        if left > over[0] or right < over[-1]:
            continue
        mid = (lo + hi) / 2
        best: tuple[float, int] | None = None
        for a in range(left, over[0] + 1):
            for b in range(over[-1], right + 1):
                centred = abs((xs[a] + xs[b + 1]) / 2 - mid) <= 0.1 * (hi - lo)
                if centred and (best is None or b - a > best[0]):
                    best = (b - a, a)
        if best is not None:
            out[i] = best[1]
    return out

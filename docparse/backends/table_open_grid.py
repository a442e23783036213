"""Tables drawn with inner rules only: row rules crossed by column rules, no frame.

DocBook's and many office tools' default table style rules the rows apart
and the columns apart but draws no box around the table: no rule over the
header, none under the last row, none down the outer sides. PyMuPDF's ruled
finder needs closed cells, so it finds nothing, and the booktabs reading
(:func:`~docparse.backends.table_regions.rule_bounded_regions`) spans the
first to the last row rule, leaving the header row above the first and the
last row under the last one out as text. A reader sees the table's extent
in its column rules: they run from the top of the header to the bottom of
the last row. :func:`open_grid_regions` finds those tables and
:func:`with_open_grids` puts them in place of the rule-bounded regions they
overlap.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

from docparse.backends.table_candidates import Box4, Segment, Word, overlaps, union
from docparse.backends.table_regions import joined_rules
from docparse.backends.table_rows import baseline_rows

#: Shortest row rule counted (points): shorter strokes are underlines and marks.
MIN_RULE = 40.0
#: Shortest column rule counted (points): about one row of small text.
MIN_COLUMN_RULE = 6.0
#: Thickest stroke read as a rule (points).
THIN = 2.0


def open_grid_regions(segments: Iterable[Segment]) -> list[Box4]:
    """Regions of tables whose row rules are crossed by column rules, with open sides.

    ``segments`` are the page's rule-like strokes as boxes. A column rule
    crosses a row rule when it passes through it strictly inside its ends;
    rules crossing each other, directly or through others, make one table.
    Its region spans the row rules' extent across and the column rules'
    extent down (the header over the first row rule, the last row under the
    last one). Tables with a column rule down either outer end are left out:
    those are closed grids the ruled finders read.
    """
    segs = list(segments)
    rows = _row_rules(segs)
    columns = _joined_columns(_column_rules(segs))
    if not rows or not columns:
        return []
    parent = list(range(len(rows) + len(columns)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    rows.sort(key=lambda r: r[1])
    ys = [r[1] for r in rows]
    crossed: set[int] = set()
    for j, (x, top, bottom) in enumerate(columns):
        for i in range(bisect_left(ys, top - 1), bisect_right(ys, bottom + 1)):
            x0, _, x1 = rows[i]
            if x0 + THIN < x < x1 - THIN:
                parent[find(len(rows) + j)] = find(i)
                crossed.update((i, len(rows) + j))
    groups: dict[int, list[int]] = {}
    for k in crossed:
        groups.setdefault(find(k), []).append(k)
    out: list[Box4] = []
    for members in groups.values():
        hs = [rows[k] for k in members if k < len(rows)]
        vs = [columns[k - len(rows)] for k in members if k >= len(rows)]
        x0, x1 = min(h[0] for h in hs), max(h[2] for h in hs)
        y0 = min(min(h[1] for h in hs), min(v[1] for v in vs))
        y1 = max(max(h[1] for h in hs), max(v[2] for v in vs))
        if any(_down_side(c, x, y0, y1) for c in columns for x in (x0, x1)):
            continue
        out.append((x0 - 2, y0 - 1, x1 + 2, y1 + 1))
    return out


def _column_rules(segments: Iterable[Segment]) -> list[tuple[float, float, float]]:
    """Thin vertical strokes of :data:`MIN_COLUMN_RULE` points or more as ``(x, top, bottom)``."""
    return [
        ((s[0] + s[2]) / 2, s[1], s[3])
        for s in segments
        if s[2] - s[0] <= THIN and s[3] - s[1] >= MIN_COLUMN_RULE
    ]


def _row_rules(segments: Iterable[Segment]) -> list[tuple[float, float, float]]:
    """Thin horizontal strokes of :data:`MIN_RULE` points or more as ``(x0, y, x1)``, joined."""
    flat = ((s[0], (s[1] + s[3]) / 2, s[2]) for s in segments if s[3] - s[1] <= THIN < s[2] - s[0])
    return [r for r in joined_rules(flat) if r[2] - r[0] >= MIN_RULE]


def _down_side(column: tuple[float, float, float], x: float, y0: float, y1: float) -> bool:
    """Whether ``column`` is a rule down the side at ``x`` of a table from ``y0`` to ``y1``."""
    cx, top, bottom = column
    return abs(cx - x) <= THIN and min(bottom, y1) - max(top, y0) > 0.5 * (y1 - y0)


def _joined_columns(
    columns: Sequence[tuple[float, float, float]],
) -> list[tuple[float, float, float]]:
    """Column rules ``(x, top, bottom)`` with the pieces of one rule (one per row) joined."""
    out: list[list[float]] = []
    for x, top, bottom in sorted(columns, key=lambda c: (round(c[0]), c[1])):
        last = out[-1] if out else None
        if last is not None and abs(last[0] - x) <= 0.5 and top <= last[2] + 2:
            last[2] = max(last[2], bottom)
        else:
            out.append([x, top, bottom])
    return [(c[0], c[1], c[2]) for c in out]


def with_open_grids(
    regions: Sequence[Sequence[float]], segments: Sequence[Segment], words: Sequence[Word]
) -> list[tuple[Box4, list[float]]]:
    """``regions`` (rule-bounded ones) with the open grids of the page in place of those
    they overlap (see :func:`open_grid_regions`) and the other open grids added, each
    with the y positions of its row rules: rules across most of its width.

    An open grid is a table only when most of its lines of text have words on
    both sides of a column rule: a row's cells share its baseline, where a
    diagram's axes cross among scattered labels. Lines on either side of a
    drawn row rule are two rows, however they read (a lower-case entry under
    a header row, ``docbook`` under ``Directory``).
    """
    boxes = [(float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in regions]
    segs = list(segments)
    columns = _joined_columns(_column_rules(segs))
    grids = [_over_lines(g, words) for g in open_grid_regions(segs)]
    grids = [g for g in grids if _rows_cross(g, columns, words)]
    rows = _row_rules(segs)
    return [
        (b, [y for x0, y, x1 in rows if b[1] <= y <= b[3] and _across(x0, x1, b)])
        for b in _joined(boxes, grids)
    ]


def _over_lines(box: Box4, words: Sequence[Word]) -> Box4:
    """``box`` grown over the words it cuts through at its top and bottom.

    A column rule set between a header's cells may start below the top of
    their text (``Description | F1`` under a LaTeX ``\\toprule``): the
    header line is the table's all the same.
    """
    x0, y0, x1, y1 = box
    grown = (y0, y1)
    for w in words:
        # A quarter of the line's height at least: a caption's descenders
        # just over the top rule are no line the rules cut through.
        cut = min(w[3], y1) - max(w[1], y0)
        if x0 <= (w[0] + w[2]) / 2 <= x1 and cut > 0.25 * (w[3] - w[1]):
            grown = (min(grown[0], w[1] - 1), max(grown[1], w[3] + 1))
    return (x0, grown[0], x1, grown[1])


def _rows_cross(
    box: Box4, columns: Sequence[tuple[float, float, float]], words: Sequence[Word]
) -> bool:
    """Whether most text lines in ``box`` have words on both sides of one of its column rules."""
    inside = [
        w
        for w in words
        if box[0] <= (w[0] + w[2]) / 2 <= box[2] and box[1] <= (w[1] + w[3]) / 2 <= box[3]
    ]
    xs = [
        x for x, top, bottom in columns if box[0] < x < box[2] and top < box[3] and bottom > box[1]
    ]
    rows = baseline_rows(inside)
    # Some word ends before the rule and some word starts after it.
    crossing = sum(any(min(w[2] for w in r) < x < max(w[0] for w in r) for x in xs) for r in rows)
    return bool(rows) and crossing >= 0.5 * len(rows)


def _across(x0: float, x1: float, box: Box4) -> bool:
    """Whether a rule from ``x0`` to ``x1`` runs across at least half of ``box``'s width."""
    return min(x1, box[2]) - max(x0, box[0]) >= 0.5 * (box[2] - box[0])


def _joined(regions: Sequence[Box4], grids: list[Box4]) -> list[Box4]:
    """``regions`` with each of ``grids`` that overlaps one joined to it, the others added."""
    if not grids:
        return list(regions)
    out: list[Box4] = []
    for r in regions:
        over = [g for g in grids if overlaps(g, r)]
        if not over:
            out.append(r)
            continue
        for g in over:
            grids = [h for h in grids if h is not g]
            r = union(r, g)
        grids.append(r)
    return [*out, *grids]

"""A page's items in reading order, for :mod:`docparse.backends.layout`.

Two-column pages read the left column, then the right one, between full-width
items (titles, wide tables), which split the flow; other pages read top to
bottom, left to right.
"""

from __future__ import annotations

import bisect
import math
import operator
from collections.abc import Sequence

from docparse.backends.items import Item


def _spans(items: Sequence[Item]) -> list[tuple[float, float]]:
    """The union of the items' vertical extents, as sorted disjoint intervals."""
    out: list[tuple[float, float]] = []
    for y0, y1 in sorted((it.bbox.y0, it.bbox.y1) for it in items):
        if out and y0 <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], y1))
        else:
            out.append((y0, y1))
    return out


def _shared_height(left: Sequence[Item], right: Sequence[Item]) -> float:
    """Points of page height where both ``left`` and ``right`` have text."""
    total = 0.0
    right_spans = _spans(right)
    n = len(right_spans)
    j = 0
    for a0, a1 in _spans(left):
        # Both lists are sorted and disjoint: an interval ending above this one
        # ends above every later one too (it would add 0.0), so it is passed for good.
        while j < n and right_spans[j][1] <= a0:
            j += 1
        k = j
        while k < n:
            b0, b1 = right_spans[k]
            if b0 >= a1:
                break  # sorted by start: no later interval overlaps (adds 0.0)
            total += max(0.0, min(a1, b1) - max(a0, b0))
            k += 1
    return total


def reading_order(items: list[Item], width: float) -> list[Item]:
    """Order a page's items: columns left to right, full-width items splitting the flow."""
    if not items:
        return items
    mid = width / 2
    tol = 0.03 * width
    left_edge, right_edge = mid + tol, mid - tol
    left: list[Item] = []
    right: list[Item] = []
    total = lchars = rchars = 0
    # One pass over the items, each one's characters counted once (Item.chars sums its lines).
    for it in items:
        c = it.chars
        total += max(1, c)
        b = it.bbox
        if b.x1 <= left_edge:
            left.append(it)
            lchars += c
        elif b.x0 >= right_edge and b.x1 > left_edge:
            right.append(it)
            rchars += c
    # Two columns: both sides hold text at the same heights. A column that
    # ends early (the last page's right column after the references) holds
    # little text, so a long stretch of side-by-side text also counts. The
    # shared height is measured only when the characters allow two columns.
    two_col = False
    wide = lchars >= 0.15 * total and rchars >= 0.15 * total
    if wide or min(lchars, rchars) >= 200:
        side_by_side = _shared_height(left, right)
        two_col = side_by_side > 0 and (wide or side_by_side >= 60)
    if not two_col:
        return sorted(items, key=_row_key)
    return _by_columns(items, left, right)


def _row_key(it: Item) -> tuple[int, float]:
    """Rows top to bottom, left to right in a row; a heading a point ahead: a run-in
    heading and the rest of its paragraph open one row at one x (to a rounding)."""
    return round(it.bbox.y0 / 3), it.bbox.x0 - (1.0 if it.role == "heading" else 0.0)


def _by_columns(items: list[Item], left: list[Item], right: list[Item]) -> list[Item]:
    """``items`` of a two-column page in reading order: in each stretch between
    two full-width items, the ``left`` column's, then the ``right`` one's."""
    for it in items:
        it.col = 0
    for it in left:
        it.col = 1
    for it in right:
        it.col = 2
    full = sorted((it for it in items if not it.col), key=lambda it: it.bbox.y0)
    tops = [f.bbox.y0 for f in full]
    if any(map(math.isnan, tops)):
        return _segments_by_scan(items, full)
    # The column items between two full-width items' tops, in their order, by
    # bisection over the sorted tops (an item at or below the last top's
    # infinity is in no segment).
    segments: list[tuple[list[Item], list[Item]]] = [([], []) for _ in range(len(full) + 1)]
    for it in items:
        if it.col:
            y0 = it.bbox.y0
            if y0 < math.inf:
                segments[bisect.bisect_right(tops, y0)][it.col - 1].append(it)
    out: list[Item] = []
    for k, (lefts, rights) in enumerate(segments):
        out.extend(sorted(lefts, key=_top))
        out.extend(sorted(rights, key=_top))
        if k < len(full):
            out.append(full[k])
    return out


def _segments_by_scan(items: list[Item], full: list[Item]) -> list[Item]:
    """:func:`reading_order`'s segments found by a scan each (tops that do not sort)."""
    out: list[Item] = []
    bounds = [f.bbox.y0 for f in full] + [float("inf")]
    for k, limit in enumerate(bounds):
        lo = bounds[k - 1] if k else float("-inf")
        seg = [it for it in items if it.col and lo <= it.bbox.y0 < limit]
        out.extend(sorted((it for it in seg if it.col == 1), key=lambda it: it.bbox.y0))
        out.extend(sorted((it for it in seg if it.col == 2), key=lambda it: it.bbox.y0))
        if k < len(full):
            out.append(full[k])
    return out


_top = operator.attrgetter("bbox.y0")

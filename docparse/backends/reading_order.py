"""A page's items in reading order, for :mod:`docparse.backends.layout`.

Two-column pages read the left column, then the right one, between full-width
items (titles, wide tables), which split the flow; a column's one-line item in
the row of a short full-width item (one name of a centred line of authors, left
of the middle) is read in that row, left to right. Other pages read top to
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
    return _by_columns(items, left, right, width)


def _row_key(it: Item) -> tuple[int, float]:
    """Rows top to bottom, left to right in a row; a heading a point ahead: a run-in
    heading and the rest of its paragraph open one row at one x (to a rounding)."""
    return round(it.bbox.y0 / 3), it.bbox.x0 - (1.0 if it.role == "heading" else 0.0)


def _by_columns(items: list[Item], left: list[Item], right: list[Item], width: float) -> list[Item]:
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
        return _segments_by_scan(items, full, width)
    # The column items between two full-width items' tops, in their order, by
    # bisection over the sorted tops (an item at or below the last top's
    # infinity is in no segment).
    segments: list[tuple[list[Item], list[Item]]] = [([], []) for _ in range(len(full) + 1)]
    # Column items read in a full-width item's row (see _in_row), by the full item's
    # index, with the segment each would be read in otherwise.
    rows: dict[int, list[tuple[Item, int]]] = {}
    n = len(full)
    before, after = _row_windows(full)
    for it in items:
        if it.col:
            y0 = it.bbox.y0
            if y0 < math.inf:
                k = bisect.bisect_right(tops, y0)
                if (y0 >= before[k] or y0 < after[k]) and len(it.lines) == 1:
                    if k < n and _in_row(it, full[k]):
                        rows.setdefault(k, []).append((it, k))
                        continue
                    if k and _in_row(it, full[k - 1]):
                        rows.setdefault(k - 1, []).append((it, k))
                        continue
                segments[k][it.col - 1].append(it)
    for it, seg in _uncentred(rows, full, width):
        segments[seg][it.col - 1].append(it)
    out: list[Item] = []
    for k, (lefts, rights) in enumerate(segments):
        out.extend(sorted(lefts, key=_top))
        out.extend(sorted(rights, key=_top))
        if k < n:
            if k in rows:
                out.extend(sorted([full[k], *(it for it, _ in rows[k])], key=_left))
            else:
                out.append(full[k])
    return out


def _row_windows(full: list[Item]) -> tuple[list[float], list[float]]:
    """:func:`_in_row`'s first test read ahead per full-width item of ``full``: an item
    whose top is between ``full[k]``'s top and ``before[k]`` may share its row, or one
    whose top is after ``full[k - 1]``'s top and before ``after[k]``; two float
    comparisons rule most items out."""
    n = len(full)
    before = [math.inf] * (n + 1)
    after = [-math.inf] * (n + 1)
    for k, f in enumerate(full):
        if len(f.lines) <= 2:
            fb = f.bbox
            before[k] = 2 * fb.y0 - fb.y1
            after[k + 1] = fb.y1
    return before, after


def _in_row(it: Item, wide: Item) -> bool:
    """``it`` (a column's one-line item) may be read in the row of ``wide`` (a
    full-width item of one or two lines): they share half the height of the lower
    one, side by side (:func:`_centred` has the last word)."""
    a, b = it.bbox, wide.bbox
    # The top within the wide item's height above its top, or within its height.
    if len(wide.lines) > 2 or not 2 * b.y0 - b.y1 <= a.y0 < b.y1:
        return False
    shared = min(a.y1, b.y1) - max(a.y0, b.y0)
    if not (shared > 0 and 2 * shared >= min(a.y1 - a.y0, b.y1 - b.y0)):
        return False
    return a.x1 <= b.x0 or b.x1 <= a.x0


def _uncentred(
    rows: dict[int, list[tuple[Item, int]]], full: list[Item], width: float
) -> list[tuple[Item, int]]:
    """The joined items of ``rows`` (by full-width item) that make no centred row
    (:func:`_centred`), taken out of ``rows``, with their segments."""
    back: list[tuple[Item, int]] = []
    for k in [k for k, joined in rows.items() if not _centred(full[k], joined, width)]:
        back.extend(rows.pop(k))
    return back


def _centred(wide: Item, joined: list[tuple[Item, int]], width: float) -> bool:
    """``wide`` and the column items ``joined`` to its row make a row centred on the
    page (of ``width``), short of its margins: a centred line of authors, one name
    left of the middle, the others reaching past it. A column's line beside a wide
    item of another layout (a contents entry's title beside its leader, a third
    column) makes no such row; nor does a row of the text's full width."""
    lo, hi = wide.bbox.x0, wide.bbox.x1
    for it, _ in joined:
        lo = min(lo, it.bbox.x0)
        hi = max(hi, it.bbox.x1)
    return abs(lo + hi - width) <= 0.02 * width and hi - lo <= 0.75 * width


def _segments_by_scan(items: list[Item], full: list[Item], width: float) -> list[Item]:
    """:func:`reading_order`'s segments found by a scan each (tops that do not sort)."""
    out: list[Item] = []
    bounds = [f.bbox.y0 for f in full] + [float("inf")]
    n = len(full)
    rows: dict[int, list[tuple[Item, int]]] = {}
    segs: list[list[Item]] = []
    for k, limit in enumerate(bounds):
        lo = bounds[k - 1] if k else float("-inf")
        seg = []
        for it in items:
            if it.col and lo <= it.bbox.y0 < limit:
                if len(it.lines) == 1 and k < n and _in_row(it, full[k]):
                    rows.setdefault(k, []).append((it, k))
                elif len(it.lines) == 1 and k and _in_row(it, full[k - 1]):
                    rows.setdefault(k - 1, []).append((it, k))
                else:
                    seg.append(it)
        segs.append(seg)
    for it, at in _uncentred(rows, full, width):
        segs[at].append(it)
    for k, seg in enumerate(segs):
        out.extend(sorted((it for it in seg if it.col == 1), key=lambda it: it.bbox.y0))
        out.extend(sorted((it for it in seg if it.col == 2), key=lambda it: it.bbox.y0))
        if k < n:
            out.extend(sorted([full[k], *(it for it, _ in rows.get(k, ()))], key=_left))
    return out


_top = operator.attrgetter("bbox.y0")
_left = operator.attrgetter("bbox.x0")

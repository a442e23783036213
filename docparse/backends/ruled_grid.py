"""Ruled tables built from a page's rule segments: PyMuPDF's "lines" search, in plain arithmetic.

PyMuPDF's ruled table search (``find_tables`` with ``strategy="lines"``,
itself pdfplumber's ``TableFinder`` with PyMuPDF's ``make_edges`` in front)
makes a dict of twenty fields per segment, snaps and joins them by rebuilding
dicts, tests every vertical edge against every horizontal one and looks for
each intersection's cell by scanning all later intersections. On pages of
many rules that is most of a table search. :func:`find_grids` runs the same
steps on tuples:

1. **Edges** from the paths: every axis-parallel line, rectangle side and
   quad side clipped to the search box; a rectangle thinner than the minimum
   edge length is one line along its middle. Paths that touch (within the
   snap tolerance) are joined into boxes, and a box that holds a character
   adds its four sides as edges too (a frame around cells drawn as fills).
   In the strict reading, fill-only paths larger than the snap tolerance are
   dropped but for the thin rules batched in them.
2. **Snap and join**: edges of one orientation within the snap tolerance of
   each other move to their mean position; collinear edges closer than the
   join tolerance become one; edges shorter than the minimum length go.
3. **Intersections** of vertical and horizontal edges (within the
   intersection tolerance), found by bisection instead of every pair.
4. **Cells**: for each intersection the smallest rectangle whose four
   corners are intersections joined by common edges.
5. **Tables**: cells sharing corners; those with fewer than two distinct
   left or right cell sides or with no printed character are dropped.

The arithmetic is PyMuPDF's, operation for operation (means summed in the
same order, boxes joined in single precision as MuPDF's rectangles are), so
the cells are the same; ``tests/backends/test_ruled_grid.py`` compares them
with ``page.find_tables`` on ruled PDFs. Characters are the caller's: any
objects with ``x0``/``x1``/``top``/``bottom`` (page space), ``y0``/``y1``
(PDF space: PyMuPDF's test of a joined box compares those with the page-space
box, and so does this one) and ``text`` (a :class:`~docparse.backends.
pymupdf_tables.CharList` answers the box test by bisection).
"""

from __future__ import annotations

import string
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any, Protocol

from docparse.backends.disjoint import DisjointSets

#: PyMuPDF's defaults for every ruled search docparse runs.
SNAP = 3.0
JOIN = 3.0
MIN_LENGTH = 3.0
CROSS = 3.0

_WHITE = frozenset(string.whitespace)

Box = tuple[float, float, float, float]


class TextProbe(Protocol):
    """The characters of a search: ``any_inside`` is PyMuPDF's ``chars_in_rect``."""

    def any_inside(self, rect: Iterable[float]) -> bool:
        """Whether some character box lies inside ``rect`` (see the module note)."""

    def __iter__(self) -> Any:
        """The characters (dicts with ``x0``, ``top``, ``x1``, ``bottom``, ``text``)."""


@dataclass(frozen=True, slots=True)
class GridRow:
    """One row of a :class:`RuledTable`: a cell box per column, ``None`` where a cell spans."""

    cells: tuple[Box | None, ...]


@dataclass(frozen=True, slots=True)
class RuledTable:
    """A ruled table's cells (x0, top, x1, bottom), in rows like PyMuPDF's ``Table.rows``."""

    cells: tuple[Box, ...]

    @property
    def bbox(self) -> Box:
        """The box around every cell."""
        c = self.cells
        return (
            min(b[0] for b in c),
            min(b[1] for b in c),
            max(b[2] for b in c),
            max(b[3] for b in c),
        )

    @property
    def rows(self) -> list[GridRow]:
        """Rows top to bottom, one slot per distinct cell left side (``Table.rows``)."""
        ordered = sorted(self.cells, key=itemgetter(1, 0))
        xs = sorted({c[0] for c in self.cells})
        rows: list[GridRow] = []
        for _, row_cells in groupby(ordered, itemgetter(1)):
            by_x = {c[0]: c for c in row_cells}
            rows.append(GridRow(tuple(by_x.get(x) for x in xs)))
        return rows


def _f32(*values: float) -> list[float]:
    # MuPDF's rectangles are single precision: a box grown by PyMuPDF's
    # ``Rect | Point`` comes back rounded to float.
    return list(array("f", values))


def _neighbors(r1: Sequence[float], r2: Sequence[float]) -> bool:
    """PyMuPDF's ``are_neighbors``: some corner coordinate pair of one lies near the other."""
    if (r2[0] - SNAP <= r1[0] <= r2[2] + SNAP or r2[0] - SNAP <= r1[2] <= r2[2] + SNAP) and (
        r2[1] - SNAP <= r1[1] <= r2[3] + SNAP or r2[1] - SNAP <= r1[3] <= r2[3] + SNAP
    ):
        return True
    return bool(
        (r1[0] - SNAP <= r2[0] <= r1[2] + SNAP or r1[0] - SNAP <= r2[2] <= r1[2] + SNAP)
        and (r1[1] - SNAP <= r2[1] <= r1[3] + SNAP or r1[1] - SNAP <= r2[3] <= r1[3] + SNAP)
    )


def joined_boxes(rects: Iterable[Sequence[float]]) -> list[list[float]]:
    """Path boxes joined while they are neighbours (``clean_graphics``), bottom-most first.

    The first box left (by bottom, then left side) absorbs every other box near
    it (:func:`_neighbors`), scanning the rest from the last one back, until a
    scan absorbs none; the next box left starts the next group. A scan skips the
    boxes whose top lies below the growing box's reach: the rest are sorted by
    bottom, so those are a tail, and the tail is scanned first (it comes last),
    before the box grows in that scan.
    """
    pending = sorted(
        {(float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in rects},
        key=lambda r: (r[3], r[0], r[1], r[2]),
    )
    bottoms = [r[3] for r in pending]
    tallest = max((r[3] - r[1] for r in pending), default=0.0)
    out: list[list[float]] = []
    while pending:
        box = list(pending[0])
        grown = True
        while grown:
            grown = False
            # Beyond this no box can reach up to the box's reach (margin for rounding).
            end = bisect_right(bottoms, box[3] + SNAP + tallest + 1e-3)
            for i in range(end - 1, 0, -1):
                other = pending[i]
                if (
                    other[0] > box[2] + SNAP + 1e-3
                    or other[2] < box[0] - SNAP - 1e-3
                    or other[1] > box[3] + SNAP + 1e-3
                    or other[3] < box[1] - SNAP - 1e-3
                ):
                    continue  # apart by more than the tolerance: no neighbour
                if _neighbors(box, other):
                    box = _f32(
                        min(box[0], other[0], other[2]),
                        min(box[1], other[1], other[3]),
                        max(box[2], other[0], other[2]),
                        max(box[3], other[1], other[3]),
                    )
                    del pending[i]
                    del bottoms[i]
                    grown = True
        out.append(box)
        del pending[0]
        del bottoms[0]
    return out


class _Edges:
    """Edges (x0, top, x1, bottom) as ``make_edges`` makes them from points, clipped."""

    __slots__ = ("clip", "out")

    def __init__(self, clip: Box) -> None:
        self.clip = clip
        self.out: list[Box] = []

    def line(self, ax: float, ay: float, bx: float, by: float) -> None:
        if not (abs(ax - bx) <= SNAP or abs(ay - by) <= SNAP):
            return  # slanted: no table edge
        x0, x1 = (ax, bx) if ax < bx else (bx, ax)
        y0, y1 = (ay, by) if ay < by else (by, ay)
        cx0, cy0, cx1, cy1 = self.clip
        if x0 > cx1 or x1 < cx0 or y0 > cy1 or y1 < cy0:
            return
        x0 = cx0 if x0 < cx0 else x0
        x1 = cx1 if x1 > cx1 else x1
        y0 = cy0 if y0 < cy0 else y0
        y1 = cy1 if y1 > cy1 else y1
        if x1 - x0 == 0 and y1 - y0 == 0:
            return
        self.out.append((x0, y0, x1, y1))

    def box(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """The four sides of a box, in ``make_edges``' order (left, bottom, right, top)."""
        self.line(x0, y0, x0, y1)
        self.line(x0, y1, x1, y1)
        self.line(x1, y1, x1, y0)
        self.line(x1, y0, x0, y0)


def _line_like(x0: float, y0: float, x1: float, y1: float) -> bool:
    w, h = x1 - x0, y1 - y0
    return (w <= MIN_LENGTH and w < h) or (h <= MIN_LENGTH and h < w)


def _searched_paths(
    paths: Iterable[dict[str, Any]], strict: bool
) -> tuple[list[tuple[dict[str, Any], list[Any]]], list[Sequence[float]]]:
    """The paths the search reads with their items, and the boxes of those that may frame text.

    In the strict reading a fill-only box is a cell background, not a rule: it is
    dropped but for the thin rules some producers batch into one fill path.
    """
    kept: list[tuple[dict[str, Any], list[Any]]] = []
    boxes: list[Sequence[float]] = []
    for p in paths:
        items = p["items"]
        rect = p["rect"]
        if (
            strict
            and p.get("type") == "f"
            and rect[2] - rect[0] > SNAP
            and rect[3] - rect[1] > SNAP
        ):
            rules = []
            for item in items:
                if item[0] != "re":
                    continue
                r = _normal(item[1])
                if _line_like(*r) and max(r[2] - r[0], r[3] - r[1]) > MIN_LENGTH:
                    rules.append(item)
            if rules:
                kept.append((p, rules))
            continue
        kept.append((p, items))
        boxes.append(rect)
    return kept, boxes


def path_edges(
    paths: Iterable[dict[str, Any]], clip: Box, strict: bool, chars: TextProbe
) -> list[Box]:
    """Every edge ``make_edges`` makes from ``paths`` in ``clip`` (see the module note).

    ``paths`` in ``get_drawings()`` or ``get_cdrawings()`` form; they are not changed.
    """
    kept, boxes = _searched_paths(paths, strict)
    frames = [b for b in joined_boxes(boxes) if chars.any_inside(b)]
    edges = _Edges(clip)
    line = edges.line
    for p, items in kept:
        if p.get("closePath") and items and items[0][0] == "l" and items[-1][0] == "l":
            items = [*items, ("l", items[-1][2], items[0][1])]
        for item in items:
            kind = item[0]
            if kind == "l":
                a, b = item[1], item[2]
                line(a[0], a[1], b[0], b[1])
            elif kind == "re":
                x0, y0, x1, y1 = _normal(item[1])
                if _line_like(x0, y0, x1, y1):
                    if x1 - x0 < y1 - y0:
                        x = abs(x1 + x0) / 2
                        line(x, y0, x, y1)
                    else:
                        y = abs(y1 + y0) / 2
                        line(x0, y, x1, y)
                    continue
                edges.box(x0, y0, x1, y1)
            elif kind == "qu":
                ul, ur, ll, lr = item[1]
                line(ul[0], ul[1], ll[0], ll[1])
                line(ll[0], ll[1], lr[0], lr[1])
                line(lr[0], lr[1], ur[0], ur[1])
                line(ur[0], ur[1], ul[0], ul[1])
    for x0, y0, x1, y1 in frames:
        # Top, bottom, left, right: make_edges' order for a frame.
        line(x0, y0, x1, y0)
        line(x0, y1, x1, y1)
        line(x0, y0, x0, y1)
        line(x1, y0, x1, y1)
    return edges.out


def _normal(r: Sequence[float]) -> Box:
    x0, y0, x1, y1 = r[0], r[1], r[2], r[3]
    if x1 < x0:
        x0, x1 = x1, x0
    if y1 < y0:
        y0, y1 = y1, y0
    return (x0, y0, x1, y1)


# A merged edge: position (x of a vertical, y of a horizontal), start, end, and
# its length as pdfplumber tracks it (the filter compares that figure).
_Merged = tuple[float, float, float, float]


def _snap(
    edges: list[tuple[float, float, float, float]],
) -> list[tuple[float, float, float, float]]:
    """(pos, other, start, end) records moved to their cluster's mean ``pos`` (``snap_objects``).

    ``other`` is the second coordinate of the moved side (``x1`` of a vertical
    edge), shifted by the same amount; the order within a cluster is kept, and
    clusters come in order of position.
    """
    values = sorted({e[0] for e in edges})
    cluster: dict[float, int] = {}
    index = 0
    last = values[0] if values else 0.0
    for v in values:
        if v > last + SNAP:
            index += 1
        cluster[v] = index
        last = v
    groups: dict[int, list[tuple[float, float, float, float]]] = {}
    for e in edges:
        groups.setdefault(cluster[e[0]], []).append(e)
    out: list[tuple[float, float, float, float]] = []
    for key in sorted(groups):
        members = groups[key]
        mean = sum(e[0] for e in members) / len(members)
        for pos, other, start, end in members:
            shift = mean - pos
            out.append((pos + shift, other + shift, start, end))
    return out


def _join(edges: list[tuple[float, float, float, float]], vertical: bool) -> list[_Merged]:
    """Collinear edges (same position) closer than the join tolerance made one.

    pdfplumber's ``join_edge_group``.

    pdfplumber recomputes a horizontal edge's width when it grows and adds the
    growth to a vertical one's height: the lengths the filter reads are kept so.
    """
    out: list[_Merged] = []
    ordered = sorted(edges, key=itemgetter(0))
    for pos, group in groupby(ordered, itemgetter(0)):
        members = sorted(group, key=itemgetter(2))
        first = members[0]
        start, end, length = first[2], first[3], first[3] - first[2]
        for _, _, s, e in members[1:]:
            if s <= end + JOIN:
                if e > end:
                    length = length + (e - end) if vertical else e - start
                    end = e
            else:
                out.append((pos, start, end, length))
                start, end, length = s, e, e - s
        out.append((pos, start, end, length))
    return out


def merged_edges(edges: Iterable[Box]) -> tuple[list[_Merged], list[_Merged]]:
    """Vertical and horizontal edges snapped, joined and filtered (``TableFinder.get_edges``).

    Each is (position, start, end, length): a vertical edge at x from top to
    bottom, a horizontal one at y from x0 to x1.
    """
    vertical: list[tuple[float, float, float, float]] = []
    horizontal: list[tuple[float, float, float, float]] = []
    for x0, top, x1, bottom in edges:
        if top == bottom:
            if x1 - x0 >= 1:
                horizontal.append((top, bottom, x0, x1))
        elif bottom - top >= 1:
            vertical.append((x0, x1, top, bottom))
    v = [e for e in _join(_snap(vertical), True) if e[3] >= MIN_LENGTH] if vertical else []
    h = [e for e in _join(_snap(horizontal), False) if e[3] >= MIN_LENGTH] if horizontal else []
    return v, h


def intersections(
    vertical: list[_Merged], horizontal: list[_Merged]
) -> dict[tuple[float, float], tuple[set[int], set[int]]]:
    """Points where edges cross (``edges_to_intersections``): each with the ids of its
    vertical and horizontal edges (ids stand for edges with the same box)."""
    by_y = sorted(range(len(horizontal)), key=lambda i: horizontal[i][0])
    ys = [horizontal[i][0] for i in by_y]
    # Edges are told apart by their box, as pdfplumber's sets of boxes do.
    v_ids: dict[tuple[float, float, float], int] = {}
    h_ids: dict[tuple[float, float, float], int] = {}
    found: dict[tuple[float, float], tuple[set[int], set[int]]] = {}
    for x, top, bottom, _ in vertical:
        vid = v_ids.setdefault((x, top, bottom), len(v_ids))
        # A window a little wider than the test, which is then made exactly.
        lo = bisect_left(ys, top - CROSS - 1e-6)
        hi = bisect_right(ys, bottom + CROSS + 1e-6)
        for j in by_y[lo:hi]:
            y, x0, x1, _ = horizontal[j]
            if top <= y + CROSS and bottom >= y - CROSS and x >= x0 - CROSS and x <= x1 + CROSS:
                hid = h_ids.setdefault((y, x0, x1), len(h_ids))
                sets = found.get((x, y))
                if sets is None:
                    sets = found[(x, y)] = (set(), set())
                sets[0].add(vid)
                sets[1].add(hid)
    return found


def cells_of(points: dict[tuple[float, float], tuple[set[int], set[int]]]) -> list[Box]:
    """Each intersection's smallest cell (``intersections_to_cells``)."""
    by_x: dict[float, list[float]] = {}
    by_y: dict[float, list[float]] = {}
    for x, y in sorted(points):
        by_x.setdefault(x, []).append(y)
        by_y.setdefault(y, []).append(x)
    cells: list[Box] = []
    for (x, y), (pv, ph) in sorted(points.items()):
        column = by_x[x]
        row = by_y[y]
        below = column[bisect_right(column, y) :]
        right = row[bisect_right(row, x) :]
        cell = _smallest_cell(points, x, y, pv, ph, below, right)
        if cell is not None:
            cells.append(cell)
    return cells


def _smallest_cell(
    points: dict[tuple[float, float], tuple[set[int], set[int]]],
    x: float,
    y: float,
    pv: set[int],
    ph: set[int],
    below: list[float],
    right: list[float],
) -> Box | None:
    for by in below:
        bv, bh = points[(x, by)]
        if pv.isdisjoint(bv):
            continue
        for rx in right:
            rv, rh = points[(rx, y)]
            if ph.isdisjoint(rh):
                continue
            corner = points.get((rx, by))
            if corner is not None and not corner[0].isdisjoint(rv) and not corner[1].isdisjoint(bh):
                return (x, y, rx, by)
    return None


def tables_of_cells(cells: list[Box], chars: TextProbe) -> list[RuledTable]:
    """Cells grouped by shared corners into tables (``cells_to_tables``), top to bottom.

    A group with fewer than two distinct left or right sides, or with no printed
    character overlapping its box, is no table.
    """
    sets = DisjointSets(len(cells))
    owner: dict[tuple[float, float], int] = {}
    for i, (x0, top, x1, bottom) in enumerate(cells):
        for corner in ((x0, top), (x0, bottom), (x1, top), (x1, bottom)):
            sets.join(i, owner.setdefault(corner, i))
    printed: list[Box] | None = None
    tops: list[float] = []
    tallest = 0.0
    tables: list[RuledTable] = []
    for group in sets.groups(cells):
        if len({c[0] for c in group}) < 2 or len({c[2] for c in group}) < 2:
            continue
        if printed is None:
            printed = sorted(
                (
                    (c["top"], c["x0"], c["x1"], c["bottom"])
                    for c in chars
                    if c["text"] not in _WHITE
                ),
                key=itemgetter(0),
            )
            tops = [c[0] for c in printed]
            tallest = max((c[3] - c[0] for c in printed), default=0.0)
        t = RuledTable(tuple(group))
        # PyMuPDF joins the cells into a (single precision) Rect for this test.
        rx0, rtop, rx1, rbottom = _f32(*t.bbox)
        # Only characters whose top lies in (rtop - tallest, rbottom) can overlap.
        window = printed[bisect_left(tops, rtop - tallest - 1e-3) : bisect_right(tops, rbottom)]
        if any(
            x0 < rx1 and x1 > rx0 and top < rbottom and bottom > rtop
            for top, x0, x1, bottom in window
        ):
            tables.append(t)
    tables.sort(key=lambda t: min((c[1], c[0]) for c in t.cells))
    return tables


def find_grids(
    paths: Iterable[dict[str, Any]], clip: Sequence[float], chars: TextProbe, strict: bool = False
) -> list[RuledTable]:
    """The ruled tables in ``clip`` (``find_tables(strategy="lines")``, or ``lines_strict``).

    ``paths`` are the page's drawings near the clip, ``chars`` the clip's
    characters (see the module note).
    """
    box = (float(clip[0]), float(clip[1]), float(clip[2]), float(clip[3]))
    vertical, horizontal = merged_edges(path_edges(paths, box, strict, chars))
    if not vertical or not horizontal:
        return []
    return tables_of_cells(cells_of(intersections(vertical, horizontal)), chars)

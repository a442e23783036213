"""A PDFium page's path objects as the ruled-grid search reads them.

:func:`~docparse.backends.ruled_grid.find_grids` reads paths in PyMuPDF's
``get_drawings()`` form: a dict with the path's box (``rect``), how it is
painted (``type``: ``f`` fill, ``s`` stroke, ``fs`` both) and its items
(``("l", p, q)`` lines, ``("re", rect, 0)`` rectangles). :class:`PagePaths`
keeps each painted path object of a page with its box, read once with the
page's rules (:func:`~docparse.backends.pypdfium2_tables.page_drawings`);
its items are read from PDFium only for the paths near a cluster of rules
(:meth:`PagePaths.near`), through ``FPDFPath_GetPathSegment`` and the
object's matrix, since most pages' paths lie where no table is.
"""

from __future__ import annotations

import ctypes
import itertools
from typing import Any

Box4 = tuple[float, float, float, float]
Point = tuple[float, float]

#: Paths with more segments than this are charts' curves and glyph outlines, not rules.
MAX_SEGMENTS = 400


class PagePaths:
    """The painted path objects of one open PDFium page (top-left page space).

    ``left``/``top``: the crop box's left and top edge in PDF space. Valid
    only while the page is open: the handles are PDFium's.
    """

    def __init__(self, raw: Any, left: float, top: float) -> None:
        self.raw = raw
        self.left = left
        self.top = top
        #: (object handle, box, type) of each path; ``None``: the type not asked yet.
        self.objects: list[tuple[Any, Box4, str | None]] = []
        self._fill = ctypes.c_int()
        self._stroke = ctypes.c_int()

    def add(self, obj: Any, box: Box4, kind: str | None) -> None:
        """Keep path object ``obj`` with its page-space ``box`` and paint ``kind``
        (``None``: asked of PDFium when the path is near a cluster)."""
        self.objects.append((obj, box, kind))

    def _kind(self, obj: Any) -> str:
        """``f``, ``s``, ``fs``, or ``""`` for a path painted neither way (a clip)."""
        fill, stroke = self._fill, self._stroke
        if not self.raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill), ctypes.byref(stroke)):
            return ""
        return ("f" if fill.value else "") + ("s" if stroke.value else "")

    def near(self, clip: Box4) -> list[dict[str, Any]]:
        """The paths whose box meets ``clip``, in ``get_drawings()`` form (see the module note)."""
        cx0, cy0, cx1, cy1 = clip
        out: list[dict[str, Any]] = []
        for obj, box, kind in self.objects:
            if box[0] <= cx1 and cx0 <= box[2] and box[1] <= cy1 and cy0 <= box[3]:
                if kind is None:
                    kind = self._kind(obj)
                if not kind:
                    continue
                items = self._items(obj)
                if items:
                    out.append({"rect": box, "type": kind, "items": items, "closePath": False})
        return out

    def _items(self, obj: Any) -> list[tuple[Any, ...]]:
        """The path's straight pieces: a closed axis-parallel four-sided subpath is
        one ``re`` item (as MuPDF reports a ``re`` operator), every other line an
        ``l`` item; curves are left out (no table edge is a curve)."""
        items: list[tuple[Any, ...]] = []
        for pts, closed, bent in self._subpaths(obj):
            rect = None if bent else _rectangle(pts, closed)
            if rect is not None:
                items.append(("re", rect, 0))
                continue
            ring = [*pts, pts[0]] if closed and len(pts) > 2 else pts
            items.extend(("l", p, q) for p, q in itertools.pairwise(ring) if p != q)
        return items

    def _subpaths(self, obj: Any) -> list[tuple[list[Point], bool, bool]]:
        """Runs of points joined by straight lines, page space: each with whether it is
        closed and whether a curve cut it (a curve ends one run and starts the next)."""
        raw = self.raw
        n = int(raw.FPDFPath_CountSegments(obj))
        m = raw.FS_MATRIX()
        if n <= 0 or n > MAX_SEGMENTS or not raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(m)):
            return []
        a, b, c, d, e, f = m.a, m.b, m.c, m.d, m.e, m.f
        left, top = self.left, self.top
        x, y = ctypes.c_float(), ctypes.c_float()
        rx, ry = ctypes.byref(x), ctypes.byref(y)
        line = raw.FPDF_SEGMENT_LINETO
        out: list[tuple[list[Point], bool, bool]] = []
        points: list[Point] = []
        bent = False
        for i in range(n):
            seg = raw.FPDFPath_GetPathSegment(obj, i)
            if not seg or not raw.FPDFPathSegment_GetPoint(seg, rx, ry):
                return []
            px, py = x.value, y.value
            pt = (a * px + c * py + e - left, top - (b * px + d * py + f))
            if raw.FPDFPathSegment_GetType(seg) == line and points:
                points.append(pt)
            else:  # a move, or a curve's point: a new run starts here
                if len(points) > 1:
                    out.append((points, False, bent))
                bent = bool(points) and raw.FPDFPathSegment_GetType(seg) != raw.FPDF_SEGMENT_MOVETO
                points = [pt]
            if raw.FPDFPathSegment_GetClose(seg):
                out.append((points, True, bent))
                points, bent = [], False
        if len(points) > 1:
            out.append((points, False, bent))
        return out


def _rectangle(pts: list[Point], closed: bool) -> Box4 | None:
    """The box of a subpath drawing an axis-parallel rectangle, else ``None``."""
    corners = pts[:-1] if len(pts) == 5 and pts[-1] == pts[0] else pts
    if len(corners) != 4 or not (closed or len(pts) == 5):
        return None
    for p, q in zip(corners, [*corners[1:], corners[0]], strict=True):
        if abs(p[0] - q[0]) > _EPS and abs(p[1] - q[1]) > _EPS:
            return None  # a slanted side: no box
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    return (min(xs), min(ys), max(xs), max(ys))


#: Points closer than this are one (a matrix's rounding).
_EPS = 1e-3

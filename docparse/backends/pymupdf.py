"""PDF backend on PyMuPDF: ``page.get_text("dict")`` spans and ``page.find_tables``.

Pages are loaded one at a time and dropped after their text has been copied
into :class:`~docparse.backends.base.PageContent` records, so memory does not
grow with the page count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.base import (
    PageContent,
    PdfBackend,
    PdfConfig,
    PdfInfo,
    TableRegion,
    TableStrategy,
    load_pymupdf,
    open_pymupdf,
)
from docparse.backends.glyphs import strip_unmapped
from docparse.backends.pymupdf_tables import (
    PageWords,
    WordProbe,
    fast_path_available,
    find_ruled_tables,
    page_words,
)
from docparse.backends.pymupdf_text import (
    blocks_from_dict,
    place_word_accents,
    rotator,
    show_hidden_layers,
    to_bbox,
    unmapped_in_dict,
)
from docparse.backends.rotation import mupdf_cross_lines, mupdf_directions, upright_turn
from docparse.backends.ruled_grid import find_grids
from docparse.backends.table_candidates import (
    PageInputs,
    can_split_columns,
    overlaps,
    rect_edges,
    ruled_clusters,
)
from docparse.backends.table_checks import prose_table, rich_table, text_line_count
from docparse.backends.table_combine import (
    SIDE_SLACK,
    grow_headers,
    join_cut_grids,
    join_strips,
    widen_to_open_sides,
    with_extra_tables,
    without_lead_ins,
)
from docparse.backends.table_grid import merge_symbol_cells
from docparse.backends.table_lists import keyed_list_tables
from docparse.backends.table_open_grid import with_open_grids
from docparse.backends.table_reading import region_grids, shading_columns
from docparse.backends.table_regions import (
    TABLE_MARGIN,
    TextLine,
    banded_regions,
    caption_regions,
    is_rule,
    rule_bounded_regions,
)
from docparse.backends.table_repair import (
    column_starts,
    prefer_fuller_grids,
    split_stacked_rows,
    spread_merged_cells,
)
from docparse.backends.table_whitespace import numeric_tables_beyond, whitespace_regions
from docparse.backends.tex_fonts import mupdf_extension_text
from docparse.errors import CorruptDocumentError
from docparse.model import BBox

# get_text flags: keep whitespace and ligature characters as printed, clip to the
# media box; no images (their pixel data would be copied for nothing).
_TEXT_FLAGS = 1 | 2 | 64


def _has_use_layout() -> bool:
    import inspect

    from pymupdf import table

    return "use_layout" in inspect.signature(table.find_tables).parameters


_HAS_USE_LAYOUT = _has_use_layout()
_FAST_RULED = fast_path_available()


@dataclass(frozen=True, slots=True)
class PyMuPDFConfig(PdfConfig):
    """Options of the PyMuPDF backend.

    ``table_strategy``: ``auto`` (default; see
    :data:`~docparse.backends.base.TableStrategy`), ``lines`` (ruled tables
    only), ``text`` (whitespace-aligned tables; proposes false tables on
    prose), ``lines_then_text`` (``text`` where ``lines`` found nothing).
    ``table_layout_model``: let PyMuPDF gate tables by
    its ONNX layout model when ``pymupdf_layout`` is installed (slow: about
    0.2 s per page). ``min_table_cells``: tables with fewer non-empty
    cells are ignored (ruled boxes around a single paragraph).
    """

    table_strategy: TableStrategy = "auto"
    min_table_cells: int = 4
    table_layout_model: bool = False


def _clean_cell(c: Any) -> str:
    return " ".join(str(c).split()) if c is not None else ""


Grid = tuple[Any, list[list[str]]]


@dataclass(slots=True)
class PageTables:
    """One page's table inputs, read once and shared by every table strategy.

    ``paths`` are the page's rule-like vector paths (axis-parallel lines of 3
    points or more and rectangles; curves and plot polylines dropped) in
    ``get_cdrawings()`` form; :meth:`find` hands those inside its clip to
    ``find_tables(paths=...)`` so that it never reads the drawings again.
    ``rules`` are thin horizontal path boxes ``(x0, y, x1)`` (booktabs rules).
    """

    page: Any
    config: PyMuPDFConfig
    words: list[Any]
    inputs: PageInputs
    paths: list[dict[str, Any]]
    rules: list[tuple[float, float, float]]
    #: ``get_drawings()``-form conversions of ``paths`` by index, made on first use.
    converted: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: The words of the ruled searches (:func:`page_words`), read on the first one,
    #: inside ``chars_region`` (the box around every clip searched; the page when unset).
    chars: PageWords | None = None
    chars_region: tuple[float, float, float, float] | None = None
    #: The backend's text page of the whole page and its ``get_text("dict")`` spans,
    #: which :func:`page_words` reads instead of making a text page of its own.
    textpage: Any = None
    spans: list[dict[str, Any]] | None = None
    #: The paths' boxes (for picking those of a clip, as ``overlaps`` does) and every x
    #: position each can put a vertical edge at (:func:`_path_xs`), made on the first search.
    rects: list[tuple[float, float, float, float]] | None = None
    xs: list[list[float]] = field(default_factory=list)

    def drawings(self, indices: list[int]) -> list[dict[str, Any]]:
        """Fresh ``get_drawings()``-form copies of the paths at ``indices``.

        The points and rectangles of a path are converted once per page; each
        call gets its own dict, ``rect`` and ``items`` list because
        ``find_tables`` grows a path's rect and appends closing items in place.
        """
        pymupdf: Any = load_pymupdf()
        out: list[dict[str, Any]] = []
        for i in indices:
            base = self.converted.get(i)
            if base is None:
                base = self.converted[i] = _drawing(self.paths[i])
            out.append(dict(base, rect=pymupdf.Rect(base["rect"]), items=list(base["items"])))
        return out

    def find(self, clip: Any, **settings: Any) -> list[Any]:
        """``page.find_tables`` with the layout model as configured and the shared paths."""
        if self.rects is None:
            self.rects = [
                (p["rect"][0], p["rect"][1], p["rect"][2], p["rect"][3]) for p in self.paths
            ]
            self.xs = [_path_xs(p) for p in self.paths]
        cx0, cy0, cx1, cy1 = clip
        near_at = [
            i
            for i, (x0, y0, x1, y1) in enumerate(self.rects)
            if x0 < cx1 and cx0 < x1 and y0 < cy1 and cy0 < y1
        ]
        if settings.get("strategy", "lines").startswith("lines") and not can_split_columns(
            (x for i in near_at for x in self.xs[i]), clip
        ):
            return []  # one column at most: no table to find, and the search is the cost
        strategy = settings.get("strategy")
        if (
            strategy in ("lines", "lines_strict")
            and len(settings) == 1
            and not self.config.table_layout_model
        ):
            if not self.page.rotation:
                # docparse's own grid builder on the shared paths, and one read of
                # the page's words for all its clips (see ruled_grid).
                if self.chars is None:
                    self.chars = page_words(self.page, self.chars_region, self.textpage, self.spans)
                chars = WordProbe(self.chars, clip)
                near = [self.paths[i] for i in near_at]
                return find_grids(near, clip, chars, strict=strategy == "lines_strict")
            if _FAST_RULED:
                return find_ruled_tables(self.page, clip, self.drawings(near_at), strategy)
        if _HAS_USE_LAYOUT:
            settings["use_layout"] = self.config.table_layout_model
        found = self.page.find_tables(clip=clip, paths=self.drawings(near_at), **settings)
        return list(found.tables) if found is not None else []


_PATH_KEYS = (
    "closePath",
    "fill",
    "color",
    "width",
    "lineCap",
    "lineJoin",
    "dashes",
    "stroke_opacity",
    "fill_opacity",
    "even_odd",
)


def _drawing(p: dict[str, Any]) -> dict[str, Any]:
    """A ``get_cdrawings()`` path in ``get_drawings()`` form (what ``find_tables`` reads).

    :meth:`PageTables.drawings` copies it per call: ``find_tables`` edits the paths it is given.
    """
    pymupdf: Any = load_pymupdf()
    items: list[tuple[Any, ...]] = []
    for item in p["items"]:
        if item[0] == "re":
            items.append(("re", pymupdf.Rect(item[1]).normalize(), item[2]))
        elif item[0] == "qu":
            items.append(("qu", pymupdf.Quad(item[1])))
        else:
            items.append((item[0], *(pymupdf.Point(x) for x in item[1:])))
    out = {k: p.get(k) for k in _PATH_KEYS}
    out.update(p, rect=pymupdf.Rect(p["rect"]), items=items)
    return out


def _path_xs(p: dict[str, Any]) -> list[float]:
    """Every x position a ``get_cdrawings()`` path can put a vertical table edge at."""
    xs = [float(p["rect"][0]), float(p["rect"][2])]
    for item in p["items"]:
        if item[0] == "re":
            # A thin rectangle is a line at its middle.
            x0, x1 = float(item[1][0]), float(item[1][2])
            xs += (x0, x1, (x0 + x1) / 2)
        elif item[0] == "qu":
            xs += (float(pt[0]) for pt in item[1])
        else:
            xs += (float(pt[0]) for pt in item[1:])
    return xs


def _rule_items(items: list[Any]) -> tuple[list[Any], list[tuple[float, float, float, float]]]:
    """The rule-like items of a path and their segments (see :class:`PageTables`)."""
    kept: list[Any] = []
    segments: list[tuple[float, float, float, float]] = []
    for item in items:
        kind = item[0]
        if kind == "l":
            (ax, ay), (bx, by) = item[1], item[2]
            dx, dy = abs(ax - bx), abs(ay - by)
            if min(dx, dy) > 1 or max(dx, dy) < 3:
                continue  # slanted or tiny: a plot's polyline, not a rule
            kept.append(item)
            segments.append((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
        elif kind == "re":
            x0, y0, x1, y1 = item[1]
            kept.append(item)
            segments.extend(rect_edges(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        elif kind == "qu":
            xs = [pt[0] for pt in item[1]]
            ys = [pt[1] for pt in item[1]]
            # An axis-parallel quad has two distinct x and two distinct y values.
            if len({round(x, 1) for x in xs}) <= 2 and len({round(y, 1) for y in ys}) <= 2:
                kept.append(item)
                segments.extend(rect_edges(min(xs), min(ys), max(xs), max(ys)))
    return kept, segments


def _turned_path(d: dict[str, Any], m: Any) -> dict[str, Any]:
    """A ``get_cdrawings()`` path mapped by the matrix ``m`` (to the displayed page)."""
    pymupdf: Any = load_pymupdf()

    def pt(p: Any) -> tuple[float, float]:
        q = pymupdf.Point(p) * m
        return (q.x, q.y)

    def rect(r: Any) -> tuple[float, float, float, float]:
        q = (pymupdf.Rect(r) * m).normalize()
        return (q.x0, q.y0, q.x1, q.y1)

    items: list[tuple[Any, ...]] = []
    for item in d["items"]:
        if item[0] == "re":
            items.append(("re", rect(item[1]), *item[2:]))
        elif item[0] == "qu":
            items.append(("qu", tuple(pt(p) for p in item[1])))
        else:
            items.append((item[0], *(pt(p) for p in item[1:])))
    return dict(d, rect=rect(d["rect"]), items=items)


def page_tables(
    page: Any,
    config: PyMuPDFConfig,
    words: list[Any],
    textpage: Any = None,
    spans: list[dict[str, Any]] | None = None,
) -> PageTables:
    """Read the page's drawings once (``get_cdrawings``) and keep what the table finders need.

    ``textpage`` and ``spans``: the page's text page and its ``get_text("dict")``
    spans when already read (see :func:`page_words`).
    """
    paths: list[dict[str, Any]] = []
    segments: list[tuple[float, float, float, float]] = []
    fills: list[tuple[float, float, float, float]] = []
    rules: list[tuple[float, float, float]] = []
    # Drawings come in the unrotated page's coordinates; the words and
    # find_tables' cells in the displayed page's (see PyMuPDFBackend._page).
    turn = page.rotation_matrix if page.rotation % 360 else None
    for d in page.get_cdrawings():
        if d.get("type") not in ("f", "s", "fs"):
            continue
        if turn is not None:
            d = _turned_path(d, turn)
        x0, y0, x1, y1 = d["rect"]
        if is_rule(x0, y0, x1, y1):
            rules.append((float(x0), float(y0 + y1) / 2, float(x1)))
        if d.get("fill") is not None:
            fills.append((float(x0), float(y0), float(x1), float(y1)))
        items, segs = _rule_items(d["items"])
        if not items or (len(d["items"]) > 20 and len(items) < 0.5 * len(d["items"])):
            continue  # a curve or plot line with a few straight pieces
        segments.extend(segs)
        paths.append(dict(d, items=items))
    inputs = PageInputs(
        width=float(page.rect.width),
        height=float(page.rect.height),
        words=tuple((float(w[0]), float(w[1]), float(w[2]), float(w[3]), str(w[4])) for w in words),
        lines=tuple(_text_lines(words)),
        segments=tuple(segments),
        fills=tuple(fills),
    )
    return PageTables(page, config, words, inputs, paths, rules, textpage=textpage, spans=spans)


def tables_of(
    page: Any,
    config: PyMuPDFConfig,
    words: list[Any],
    textpage: Any = None,
    spans: list[dict[str, Any]] | None = None,
) -> list[Grid]:
    """Cell grids of the tables on ``page`` with the configured strategy.

    The page's inputs are read once (:func:`page_tables`). Ruled tables are
    searched only where rules cross (:func:`ruled_clusters`), whitespace
    tables only where rows of numbers are (:func:`numeric_regions`).
    Zebra-striped tables found strip by strip are read again as one table
    (:func:`~docparse.backends.table_regions.banded_regions`); booktabs-style tables
    (horizontal rules only) and caption-anchored ones come on top, from
    :func:`ruled_off_tables` and :func:`caption_regions`, where no other table
    overlaps them. ``textpage`` and ``spans``: the page's text page and its
    ``get_text("dict")`` spans when already read (the ruled search reads its
    words from them, :func:`page_words`).
    """
    pt = page_tables(page, config, words, textpage, spans)
    found = _strategy_tables(pt)
    if config.table_strategy == "text":
        return found
    lines = list(pt.inputs.lines)
    found = _join_bands(pt, found, lines)
    found = with_extra_tables(found, ruled_off_tables(pt, lines), lambda g: g[0], lambda g: g[1])
    height = pt.inputs.height
    extra = [
        *_captioned_tables(pt, lines),
        *keyed_list_tables(pt.inputs.words, TABLE_MARGIN * height, (1 - TABLE_MARGIN) * height),
    ]
    found = with_extra_tables(found, extra, lambda g: g[0], lambda g: g[1], replace=False)
    return without_lead_ins(found, pt.inputs.words)


def _captioned_tables(pt: PageTables, lines: list[TextLine]) -> list[Grid]:
    """Tables with no lines at all, found next to their caption (:func:`caption_regions`)."""
    grids: list[Grid] = []
    for clip in caption_regions(lines, pt.inputs.width):
        grids.extend(_region_grids(pt, clip))
    return grids


def _join_bands(pt: PageTables, found: list[Grid], lines: list[TextLine]) -> list[Grid]:
    regions = banded_regions([g[0] for g in found], lines)
    if not regions:
        return found
    fills = list(pt.inputs.fills)
    return join_strips(
        found,
        regions,
        lambda clip: _region_grids(pt, clip, shading_columns(fills, clip)),
        lambda g: (g[0][1], g[0][0]),
    )


def _text_lines(words: list[Any]) -> list[TextLine]:
    groups: dict[tuple[int, int], list[Any]] = {}
    for w in words:
        groups.setdefault((w[5], w[6]), []).append(w)
    out: list[tuple[tuple[float, ...], str]] = []
    for ws in groups.values():
        ws.sort(key=_WORD_NO)
        box = (min(map(_X0, ws)), min(map(_Y0, ws)), max(map(_X1, ws)), max(map(_Y1, ws)))
        out.append((box, " ".join(str(w[4]) for w in ws)))
    return out


_X0, _Y0, _X1, _Y1, _WORD_NO = (itemgetter(i) for i in (0, 1, 2, 3, 7))


def ruled_off_tables(pt: PageTables, lines: list[TextLine]) -> list[Grid]:
    """Tables bounded by horizontal rules only (LaTeX booktabs), see :func:`rule_bounded_regions`,
    and tables ruled inside with no frame (:func:`with_open_grids`).

    Each region is read by :func:`_region_grids`.
    """
    bounded = rule_bounded_regions(pt.rules, lines, pt.inputs.height) if len(pt.rules) > 1 else []
    grids: list[Grid] = []
    for clip, breaks in with_open_grids(bounded, pt.inputs.segments, pt.inputs.words):
        grids.extend(region_grids(pt.inputs.words, clip, lines=pt.inputs.lines, breaks=breaks))
    return grids


def _region_grids(pt: PageTables, clip: Any, columns: list[float] | None = None) -> list[Grid]:
    """The table in a region known to hold one (:func:`region_grids`)."""
    return list(region_grids(pt.inputs.words, clip, columns, lines=pt.inputs.lines))


def _strategy_tables(pt: PageTables) -> list[Grid]:
    page, config, words = pt.page, pt.config, pt.words
    strategy = config.table_strategy
    rect = page.rect
    top = rect.y0 + TABLE_MARGIN * rect.height
    bottom = rect.y1 - TABLE_MARGIN * rect.height
    page_clip = (rect.x0, top, rect.x1, bottom)

    def run(clip: Any, **settings: Any) -> list[Grid]:
        grids: list[Grid] = []
        for t in pt.find(clip, **settings):
            rows = [[_clean_cell(c) for c in row] for row in _cell_texts(t, words)]
            if sum(1 for r in rows for c in r if c) >= config.min_table_cells and not (
                prose_table(rows)
            ):
                grids.append((t.bbox, rows))
        return grids

    # A plain clip to the margin band, unlike table_whitespace.within_margins,
    # which lowers the bottom through a statement's last line.
    def clipped_to_margins(regions: list[Any]) -> list[Any]:
        out = []
        for r in regions:
            clip = (r[0], max(r[1], top), r[2], min(r[3], bottom))
            if clip[3] > clip[1]:
                out.append(clip)
        return out

    if strategy == "text":
        return run(page_clip, strategy="text")
    # Ruled tables only where rules cross: a page of prose and plots costs nothing here.
    clusters = clipped_to_margins(ruled_clusters(pt.inputs.segments, pt.inputs.words))
    if clusters:
        # The ruled searches' characters are read once, around every cluster.
        pt.chars_region = (
            min(c[0] for c in clusters),
            min(c[1] for c in clusters),
            max(c[2] for c in clusters),
            max(c[3] for c in clusters),
        )
    found: list[Grid] = []
    for clip in clusters:
        lined = run(clip, strategy="lines")
        # Without cell backgrounds the strict reading is the same grid: "lines_strict"
        # differs from "lines" only in dropping fill-only paths wider and taller than
        # the snap tolerance (PyMuPDF's clean_graphics), so without one there is
        # nothing to drop and no second search to run.
        backgrounds = any(
            overlaps(f, clip) and min(f[2] - f[0], f[3] - f[1]) > 2 for f in pt.inputs.fills
        ) and _fill_only_boxes(pt, clip)
        if lined and backgrounds:
            # "lines" counts every rectangle edge, cell backgrounds included;
            # "lines_strict" only strokes and thin rules (see prefer_fuller_grids).
            strict = run(clip, strategy="lines_strict")
            choice = prefer_fuller_grids(lined, strict)
            lined = [g if i is None else strict[i] for g, i in zip(lined, choice, strict=True)]
        found.extend(lined)
    if found and strategy == "auto":
        vertical = [
            ((sg[0] + sg[2]) / 2, sg[1], sg[3])
            for sg in pt.inputs.segments
            if sg[3] - sg[1] > sg[2] - sg[0]
        ]
        widened = widen_to_open_sides([(tuple(g[0]), g[1]) for g in found], pt.inputs, vertical)
        found = join_cut_grids(grow_headers(widened, pt.inputs), pt.inputs)
    if strategy == "lines" or any(
        rich_table(rows, text_line_count(tuple(bbox), words)) for bbox, rows in found
    ):
        return found if strategy == "lines" else _with_rows_beyond(pt, found, clusters)
    if strategy == "lines_then_text":
        return found or run(page_clip, strategy="text")
    # auto: tables read from the words where rows of numbers are.
    alt: list[Grid] = list(whitespace_regions(pt.inputs, clusters, lumped=bool(found)))
    if alt:
        kept = [g for g in found if not any(overlaps(g[0], a[0]) for a in alt)]
        return sorted([*kept, *alt], key=lambda g: (g[0][1], g[0][0]))
    return found


def _with_rows_beyond(pt: PageTables, found: list[Grid], clusters: list[Any]) -> list[Grid]:
    """``found`` with the rows of numbers it left out read from the words (a statement
    ruled in part, :func:`~docparse.backends.table_whitespace.numeric_tables_beyond`)."""
    beyond = numeric_tables_beyond([g[0] for g in found], pt.inputs, clusters)
    return with_extra_tables(found, beyond, lambda g: g[0], lambda g: g[1], side_slack=SIDE_SLACK)


def _fill_only_boxes(pt: PageTables, clip: Any, snap: float = 3.0) -> bool:
    """Whether a path the ruled search reads in ``clip`` is a fill-only box (``lines_strict``
    drops those wider and taller than ``snap``, PyMuPDF's snap tolerance)."""
    for p in pt.paths:
        x0, y0, x1, y1 = p["rect"]
        wide, tall = abs(x1 - x0) > snap, abs(y1 - y0) > snap
        if p.get("type") == "f" and wide and tall and overlaps(p["rect"], clip):
            return True
    return False


def _cell_texts(t: Any, words: list[Any]) -> list[list[str | None]]:
    """Cell strings of a PyMuPDF table rebuilt from the page's words.

    ``Table.extract`` drops the spaces of PDFs that position words instead of
    printing space characters; the page's words (which MuPDF separates by
    gaps) are assigned to the cell holding their centre instead. Cells
    covered by a merged cell stay ``None``, like ``extract`` reports them.
    """
    grid: list[list[str | None]] = []
    boxes = [list(r.cells) for r in t.rows]
    bucket: dict[tuple[int, int], list[Any]] = {}
    drawn = [c for row in boxes for c in row if c is not None]
    # Only words whose centre lies in the cells' union can fall in a cell.
    left, top = min((c[0] for c in drawn), default=0.0), min((c[1] for c in drawn), default=0.0)
    right = max((c[2] for c in drawn), default=-1.0)
    bottom = max((c[3] for c in drawn), default=-1.0)
    # Each row's cells with their areas, and the row's y extent: a word's centre
    # is looked for only in the rows whose extent holds it.
    spans: list[tuple[float, float, int, list[tuple[float, int, Any]]]] = []
    for ri, row in enumerate(boxes):
        in_row = [
            ((c[2] - c[0]) * (c[3] - c[1]), ci, c) for ci, c in enumerate(row) if c is not None
        ]
        if in_row:
            lo = min(c[2][1] for c in in_row)
            hi = max(c[2][3] for c in in_row)
            spans.append((lo, hi, ri, in_row))
    for w in words:
        cx = (w[0] + w[2]) / 2
        cy = (w[1] + w[3]) / 2
        if not (left <= cx <= right and top <= cy <= bottom):
            continue
        # The smallest cell holding the centre (the first of equals): detected cells may overlap.
        best: tuple[float, int, int] | None = None
        for lo, hi, ri, in_row in spans:
            if not lo <= cy <= hi:
                continue
            for area, ci, (x0, y0, x1, y1) in in_row:
                if x0 <= cx <= x1 and y0 <= cy <= y1 and (best is None or area < best[0]):
                    best = (area, ri, ci)
        if best is not None:
            bucket.setdefault((best[1], best[2]), []).append(w)
    starts = column_starts(boxes)
    for ri, row in enumerate(boxes):
        cells = [None if cell is None else bucket.get((ri, ci), []) for ci, cell in enumerate(row)]
        cells = spread_merged_cells(cells, row, starts, _word_x)
        for part in split_stacked_rows(cells, _word_key):
            grid.append(
                [
                    None
                    if ws is None
                    else " ".join(str(w[4]) for w in sorted(ws, key=lambda w: (w[5], w[6], w[7])))
                    for ws in part
                ]
            )
    return grid


def _word_key(w: Any) -> tuple[float, float, str]:
    return float(w[1]), float(w[3]), str(w[4])


def _word_x(w: Any) -> tuple[float, float, float]:
    return float(w[0]), float(w[2]), float(w[3]) - float(w[1])


def table_regions(found: list[Grid]) -> tuple[TableRegion, ...]:
    """Grids from :func:`tables_of` as :class:`TableRegion` records (unrotated space)."""
    out: list[TableRegion] = []
    for bbox, grid_rows in found:
        # "$" and ")" cells of ruled grids join their values, as in word grids.
        rows = merge_symbol_cells([list(r) for r in grid_rows])
        width = max((len(r) for r in rows), default=0)
        grid = tuple(tuple(r) + ("",) * (width - len(r)) for r in rows)
        out.append(TableRegion(to_bbox(bbox), grid, 0))
    return tuple(out)


def _rotated_word(rot: Any, w: Any) -> tuple[Any, ...]:
    b = rot(w[:4])
    return (b.x0, b.y0, b.x1, b.y1, *w[4:])


class PyMuPDFBackend(PdfBackend):
    """The default PDF backend (fast, C library)."""

    name: ClassVar[str] = "pymupdf"
    config_class: ClassVar[type[Any]] = PyMuPDFConfig

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        pymupdf = load_pymupdf()
        doc = open_pymupdf(path, config.password)
        try:
            show_hidden_layers(doc)
            # MuPDF's own errors (a malformed or cyclic page tree, a page the
            # repaired tree no longer has, "not a dict" for a broken /CropBox,
            # which PyMuPDF raises as RuntimeError) name the page.
            mupdf_errors = (pymupdf.mupdf.FzErrorBase, RuntimeError)
            for index in info.page_indices:
                try:
                    content = self._page(doc, index, config)
                except mupdf_errors as exc:
                    raise CorruptDocumentError(
                        path, f"page {index + 1} cannot be read: {exc}"
                    ) from exc
                except ValueError as exc:
                    if "page not in document" not in str(exc):
                        raise
                    raise CorruptDocumentError(
                        path, f"page {index + 1} is missing from the damaged page tree"
                    ) from exc
                yield content
        finally:
            doc.close()

    def _page(self, doc: Any, index: int, config: PyMuPDFConfig) -> PageContent:
        page = doc.load_page(index)
        rotation = int(page.rotation or 0)
        # Text comes in the unrotated page's coordinates, tables in the
        # displayed page's. Everything is mapped to the displayed page, where
        # a landscape page set sideways reads left to right.
        unrot = page.cropbox
        rot = rotator(rotation, float(unrot.width), float(unrot.height))
        # One text page serves both the spans and the words: MuPDF's text
        # extraction is the costliest read of a page, so it is done once.
        textpage = page.get_textpage(flags=_TEXT_FLAGS)
        data = page.get_text("dict", textpage=textpage, sort=False)
        turn = upright_turn(mupdf_directions(data, rotation))
        if turn:
            # Text set sideways is read on the page turned upright (see rotation.py).
            page.set_rotation((rotation + turn) % 360)
            rot = rotator((rotation + turn) % 360, float(unrot.width), float(unrot.height))
            textpage = page.get_textpage(flags=_TEXT_FLAGS)
            data = page.get_text("dict", textpage=textpage, sort=False)
        unmapped = unmapped_in_dict(data)
        if unmapped and mupdf_extension_text(page, data, _TEXT_FLAGS):
            unmapped = unmapped_in_dict(data)
        blocks = blocks_from_dict(data, rot, page, textpage)
        tables: tuple[TableRegion, ...] = ()
        if config.tables and blocks:
            words = page.get_text("words", textpage=textpage, sort=False)
            words = place_word_accents(words, page, textpage)
            if unmapped:
                words = [(*w[:4], strip_unmapped(w[4]), *w[5:]) for w in words]
                words = [w for w in words if w[4]]
            if turn:
                # A running head left upright runs across the turned page's text.
                cross = mupdf_cross_lines(data, rotation + turn)
                words = [w for w in words if (w[5], w[6]) not in cross]
            if rot is not None:
                words = [_rotated_word(rot, w) for w in words]
            # The ruled grid builder reads its words from this text page too.
            spans = [s for b in data["blocks"] for ln in b.get("lines", ()) for s in ln["spans"]]
            tables = table_regions(tables_of(page, config, words, textpage, spans))
        images: tuple[BBox, ...] = ()
        if not blocks:
            images = tuple((rot or to_bbox)(i["bbox"]) for i in page.get_image_info())
        del textpage
        mediabox = page.rect
        content = PageContent(
            number=index + 1,
            width=float(mediabox.width),
            height=float(mediabox.height),
            # Boxes are in the displayed page, or in the page turned upright.
            rotation=(360 - turn) % 360,
            blocks=blocks,
            tables=tables,
            images=images,
            unmapped_glyphs=unmapped,
        )
        del page
        return content

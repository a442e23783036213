"""PDF backend on PyMuPDF: ``page.get_text("dict")`` spans and ``page.find_tables``.

Pages are loaded one at a time and dropped after their text has been copied
into :class:`~docparse.backends.base.PageContent` records, so memory does not
grow with the page count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.base import (
    Block,
    Line,
    PageContent,
    PdfBackend,
    PdfConfig,
    PdfInfo,
    TableRegion,
    TableStrategy,
    TextSpan,
    load_pymupdf,
    open_pymupdf,
)
from docparse.backends.tables import (
    TABLE_MARGIN,
    TextLine,
    banded_regions,
    caption_regions,
    column_edges,
    columns_within,
    grid_fill,
    is_rule,
    join_strips,
    numeric_fraction,
    plausible_table,
    prefer_fuller_grids,
    prose_table,
    rich_table,
    rule_bounded_regions,
    ruled_off_plausible,
    shading_columns,
    split_stacked_rows,
    text_line_count,
)
from docparse.errors import CorruptDocumentError
from docparse.model import BBox

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|\bbx|cmbx|,b\b|-b\b", re.IGNORECASE)
# get_text flags: keep whitespace and ligature characters as printed, clip to the
# media box; no images (their pixel data would be copied for nothing).
_TEXT_FLAGS = 1 | 2 | 64


def _has_use_layout() -> bool:
    import inspect

    from pymupdf import table

    return "use_layout" in inspect.signature(table.find_tables).parameters


_HAS_USE_LAYOUT = _has_use_layout()


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


def is_bold(span: dict[str, Any]) -> bool:
    """Bold by the font flags (bit 4) or by the font's name."""
    return bool(int(span.get("flags", 0)) & 16) or bool(_BOLD_FONT.search(str(span.get("font"))))


def _bbox(b: Any) -> BBox:
    return BBox(float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _rotator(rotation: int, width: float, height: float) -> Any:
    """Map unrotated-page coordinates to the displayed page (``None`` if unrotated).

    ``width``/``height`` are the unrotated page's size.
    """
    from docparse.backends.base import display_bbox

    if rotation % 360 == 0:
        return None

    def rot(b: Any) -> BBox:
        return display_bbox(_bbox(b), rotation, width, height)

    return rot


def blocks_from_dict(data: dict[str, Any], rot: Any = None) -> tuple[Block, ...]:
    """Text blocks of a ``get_text("dict")`` result as :class:`Block` records.

    ``rot`` (from :func:`_rotator`) maps boxes to the displayed page.
    """
    box = rot or _bbox
    blocks: list[Block] = []
    for b in data.get("blocks", ()):
        if b.get("type", 0) != 0:
            continue
        lines: list[Line] = []
        for ln in b.get("lines", ()):
            spans = tuple(
                TextSpan(
                    text=str(s.get("text", "")),
                    bbox=box(s["bbox"]),
                    size=float(s.get("size", 0.0)),
                    bold=is_bold(s),
                    font=str(s.get("font", "")),
                )
                for s in ln.get("spans", ())
                if str(s.get("text", ""))
            )
            if spans and any(s.text.strip() for s in spans):
                lines.append(Line(spans, box(ln["bbox"])))
        if lines:
            blocks.append(Block(tuple(lines), box(b["bbox"])))
    return tuple(blocks)


def _clean_cell(c: Any) -> str:
    return " ".join(str(c).split()) if c is not None else ""


Grid = tuple[Any, list[list[str]]]


def tables_of(page: Any, config: PyMuPDFConfig, words: list[Any]) -> list[Grid]:
    """Cell grids of the tables on ``page`` with the configured strategy.

    Zebra-striped tables found strip by strip are read again as one table
    (:func:`~docparse.backends.tables.banded_regions`); booktabs-style tables
    (horizontal rules only) come on top, from :func:`ruled_off_tables`, where
    no other table overlaps them.
    """
    found = _strategy_tables(page, config, words)
    if config.table_strategy == "text":
        return found
    # The page's text lines, made once for the three region finders below.
    lines = _text_lines(words)
    found = _join_bands(page, found, words, lines)
    extra = [*ruled_off_tables(page, config, words, lines), *_captioned_tables(page, words, lines)]
    for g in extra:
        if not any(_overlaps(g[0], f[0]) for f in found):
            found.append(g)
    return found


def _captioned_tables(page: Any, words: list[Any], lines: list[TextLine]) -> list[Grid]:
    """Tables with no lines at all, found next to their caption (:func:`caption_regions`)."""
    grids: list[Grid] = []
    for clip in caption_regions(lines, float(page.rect.width)):
        grids.extend(_region_grids(page, clip, words))
    return grids


def _join_bands(
    page: Any, found: list[Grid], words: list[Any], lines: list[TextLine]
) -> list[Grid]:
    regions = banded_regions([g[0] for g in found], lines)
    if not regions:
        return found
    fills = [tuple(d["rect"]) for d in page.get_drawings() if d.get("fill") is not None]
    return join_strips(
        found,
        regions,
        lambda clip: _region_grids(page, clip, words, shading_columns(fills, clip)),
        lambda g: (g[0][1], g[0][0]),
    )


def _overlaps(a: Any, b: Any) -> bool:
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def _text_lines(words: list[Any]) -> list[TextLine]:
    groups: dict[tuple[int, int], list[Any]] = {}
    for w in words:
        groups.setdefault((w[5], w[6]), []).append(w)
    out: list[tuple[tuple[float, ...], str]] = []
    for ws in groups.values():
        ws.sort(key=lambda w: w[7])
        box = (min(w[0] for w in ws), min(w[1] for w in ws), max(w[2] for w in ws))
        out.append(((*box, max(w[3] for w in ws)), " ".join(str(w[4]) for w in ws)))
    return out


def ruled_off_tables(
    page: Any, config: PyMuPDFConfig, words: list[Any], lines: list[TextLine]
) -> list[Grid]:
    """Tables bounded by horizontal rules only (LaTeX booktabs), see :func:`rule_bounded_regions`.

    Each region is read by :func:`_region_grids`.
    """
    rules = []
    for d in page.get_drawings():
        r = d["rect"]
        if is_rule(r.x0, r.y0, r.x1, r.y1):
            rules.append((float(r.x0), float(r.y0 + r.y1) / 2, float(r.x1)))
    if len(rules) < 2:
        return []
    regions = rule_bounded_regions(rules, lines, float(page.rect.height))
    grids: list[Grid] = []
    for clip in regions:
        grids.extend(_region_grids(page, clip, words))
    return grids


def _region_grids(
    page: Any, clip: Any, words: list[Any], columns: list[float] | None = None
) -> list[Grid]:
    """The table in a region known to hold one, rows from text lines.

    With drawn ``columns`` (x positions), those are the columns
    (:func:`columns_within`). Otherwise the text strategy finds columns from
    the word alignments and the explicit strategy from the word gaps no line
    covers (:func:`column_edges`), and the grid with fewer empty cells wins
    (split cells leave holes). A grid is kept only if it has two columns of
    short cells.
    """
    # The region's top and bottom as rows' edges: a header line set apart
    # from the rest would otherwise fall outside the text strategy's rows.
    bounds = {"horizontal_lines": [clip[1] + 0.5, clip[3] - 0.5]}
    if columns:
        columns = columns_within(
            columns, (w[:4] for w in words if clip[1] <= (w[1] + w[3]) / 2 <= clip[3])
        )
    if columns and len(columns) >= 3:
        explicit = {
            "vertical_strategy": "explicit",
            "vertical_lines": columns,
            "horizontal_strategy": "text",
            "min_words_horizontal": 1,
            **bounds,
        }
        return _clip_grids(page, clip, words, explicit)
    text = {"strategy": "text", "min_words_vertical": 2, "min_words_horizontal": 1, **bounds}
    choices = [_clip_grids(page, clip, words, text)]
    edges = column_edges(words, clip)
    if len(edges) >= 3:
        explicit = {
            "vertical_strategy": "explicit",
            "vertical_lines": edges,
            "horizontal_strategy": "text",
            "min_words_horizontal": 1,
            **bounds,
        }
        choices.append(_clip_grids(page, clip, words, explicit))
    return max(choices, key=grid_fill)


def _clip_grids(page: Any, clip: Any, words: list[Any], settings: dict[str, Any]) -> list[Grid]:
    out: list[Grid] = []
    # MuPDF's text strategy may return a table reaching beyond the clip: only
    # the words inside the clip are read, and the box is cut to the clip.
    inside = [w for w in words if clip[1] <= (w[1] + w[3]) / 2 <= clip[3]]
    for t in page.find_tables(clip=clip, **settings).tables:
        rows = [[_clean_cell(c) for c in row] for row in _cell_texts(t, inside)]
        # The text strategy leaves an empty row between two spaced text lines.
        rows = [r for r in rows if any(r)]
        box = (t.bbox[0], max(t.bbox[1], clip[1]), t.bbox[2], min(t.bbox[3], clip[3]))
        if box[3] > box[1] and ruled_off_plausible(rows):
            out.append((box, rows))
    return out


def _strategy_tables(page: Any, config: PyMuPDFConfig, words: list[Any]) -> list[Grid]:
    kw: dict[str, Any] = {"use_layout": config.table_layout_model} if _HAS_USE_LAYOUT else {}
    strategy = config.table_strategy

    rect = page.rect
    clip = (
        rect.x0,
        rect.y0 + TABLE_MARGIN * rect.height,
        rect.x1,
        rect.y1 - TABLE_MARGIN * rect.height,
    )

    def run(**settings: Any) -> list[Grid]:
        grids: list[Grid] = []
        for t in page.find_tables(clip=clip, **settings, **kw).tables:
            rows = [[_clean_cell(c) for c in row] for row in _cell_texts(t, words)]
            if sum(1 for r in rows for c in r if c) >= config.min_table_cells and not (
                prose_table(rows)
            ):
                grids.append((t.bbox, rows))
        return grids

    if strategy == "text":
        return run(strategy="text")
    # A ruled table needs at least two vector strokes; skipping pages without
    # them avoids find_tables' per-character setup on plain text pages.
    found = run(strategy="lines") if len(page.get_cdrawings()) >= 2 else []
    if found:
        # "lines" counts every rectangle edge, cell backgrounds included;
        # "lines_strict" only strokes and thin rules (see prefer_fuller_grids).
        strict = run(strategy="lines_strict")
        choice = prefer_fuller_grids(found, strict)
        found = [g if i is None else strict[i] for g, i in zip(found, choice, strict=True)]
    if strategy == "lines" or any(
        rich_table(rows, text_line_count(tuple(bbox), words)) for bbox, rows in found
    ):
        return found
    if strategy == "lines_then_text":
        return found or run(strategy="text")
    # auto
    # Whitespace strategies on numeric pages, or where a ruled table came out lumped.
    if not found and numeric_fraction(str(w[4]) for w in words) < 0.15:
        return found
    for settings in (
        {"vertical_strategy": "lines", "horizontal_strategy": "text"},
        {"strategy": "text"},
    ):
        height = float(page.rect.height) or 1.0
        alt = [g for g in run(**settings) if plausible_table(g[1], (g[0][3] - g[0][1]) / height)]
        if alt:
            return alt
    return found


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
    for w in words:
        cx = (w[0] + w[2]) / 2
        cy = (w[1] + w[3]) / 2
        # The smallest cell holding the centre: detected cells may overlap.
        best: tuple[float, int, int] | None = None
        for ri, row in enumerate(boxes):
            for ci, cell in enumerate(row):
                if cell is None:
                    continue
                x0, y0, x1, y1 = cell
                if x0 <= cx <= x1 and y0 <= cy <= y1:
                    area = (x1 - x0) * (y1 - y0)
                    if best is None or area < best[0]:
                        best = (area, ri, ci)
        if best is not None:
            bucket.setdefault((best[1], best[2]), []).append(w)
    for ri, row in enumerate(boxes):
        cells = [None if cell is None else bucket.get((ri, ci), []) for ci, cell in enumerate(row)]
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


def table_regions(found: list[Grid]) -> tuple[TableRegion, ...]:
    """Grids from :func:`tables_of` as :class:`TableRegion` records (unrotated space)."""
    out: list[TableRegion] = []
    for bbox, rows in found:
        width = max((len(r) for r in rows), default=0)
        grid = tuple(tuple(r) + ("",) * (width - len(r)) for r in rows)
        out.append(TableRegion(_bbox(bbox), grid, 0))
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
        rot = _rotator(rotation, float(unrot.width), float(unrot.height))
        data = page.get_text("dict", flags=_TEXT_FLAGS, sort=False)
        blocks = blocks_from_dict(data, rot)
        tables: tuple[TableRegion, ...] = ()
        if config.tables and blocks:
            words = page.get_text("words", flags=_TEXT_FLAGS, sort=False)
            if rot is not None:
                words = [_rotated_word(rot, w) for w in words]
            tables = table_regions(tables_of(page, config, words))
        images: tuple[BBox, ...] = ()
        if not blocks:
            images = tuple((rot or _bbox)(i["bbox"]) for i in page.get_image_info())
        mediabox = page.rect
        content = PageContent(
            number=index + 1,
            width=float(mediabox.width),
            height=float(mediabox.height),
            rotation=0,  # boxes are already in the displayed page
            blocks=blocks,
            tables=tables,
            images=images,
        )
        del page
        return content

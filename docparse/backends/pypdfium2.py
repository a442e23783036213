"""PDF backend on pypdfium2 (PDFium): text runs with boxes, through the shared assembly.

PDFium's text page gives the rectangles its text runs occupy
(``FPDFText_CountRects``) and the text inside each; a run is a word or a
stretch of words set in one go, with the font size and name of its first
character. Runs become :class:`~docparse.backends.base.TextSpan` records
(:mod:`docparse.backends.pypdfium2_runs`), grouped into lines and blocks by
:mod:`docparse.backends.lines` and read by the shared layout assembly, so units
are made as for the other backends.

PDFium has no table finder. Tables are found where the shared region finders
place them (:func:`~docparse.backends.table_regions.caption_regions` for tables
next to a "Table N" caption, :func:`~docparse.backends.table_regions.rule_bounded_regions`
for booktabs rules taken from the page's thin path objects) and read from
the runs inside: columns where no run covers the x-gap
(:func:`~docparse.backends.table_regions.column_edges`), rows by vertical overlap.
"""

from __future__ import annotations

import bisect
import ctypes
import importlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.base import (
    PageContent,
    PdfBackend,
    PdfConfig,
    PdfInfo,
    TableRegion,
    TextSpan,
    encrypted_error,
)
from docparse.backends.lines import blocks_from_lines, lines_from_spans
from docparse.backends.pypdfium2_calls import TextCalls, TextPage
from docparse.backends.pypdfium2_runs import page_runs
from docparse.backends.table_checks import ruled_off_plausible
from docparse.backends.table_headers import is_data_row
from docparse.backends.table_regions import (
    TABLE_CAPTION,
    TextLine,
    caption_regions,
    column_edges,
    is_rule,
    rule_bounded_regions,
)
from docparse.errors import (
    CorruptDocumentError,
    MissingDependencyError,
    ParseError,
    cause_text,
)
from docparse.model import BBox

INSTALL = "pip install 'docparse[pypdfium2]'"


def load_pypdfium2() -> Any:
    """The ``pypdfium2`` module, or :class:`MissingDependencyError` with the pip line."""
    try:
        return importlib.import_module("pypdfium2")
    except ImportError as exc:
        raise MissingDependencyError("the pypdfium2 backend", INSTALL, cause=exc) from exc


@dataclass(frozen=True, slots=True)
class Pypdfium2Config(PdfConfig):
    """Options of the pypdfium2 backend.

    ``bold_weight``: a run whose font weight is at least this is bold (the
    font name is also read: TeX's bold fonts report no weight).
    """

    bold_weight: int = 600


def _rows_of(spans: Sequence[TextSpan]) -> list[list[TextSpan]]:
    """Spans grouped into table rows by vertical overlap, top down."""
    rows: list[list[TextSpan]] = []
    bottom = float("-inf")
    for s in sorted(spans, key=lambda s: (s.bbox.y0 + s.bbox.y1) / 2):
        if rows and (s.bbox.y0 + s.bbox.y1) / 2 <= bottom:
            rows[-1].append(s)
            bottom = max(bottom, s.bbox.y1)
        else:
            rows.append([s])
            bottom = s.bbox.y1
    return rows


def region_table(region: Sequence[float], spans: Sequence[TextSpan]) -> TableRegion | None:
    """The table read from the runs whose centre lies in ``region``, or ``None``.

    Columns sit at the x-gaps no run covers
    (:func:`~docparse.backends.table_regions.column_edges`); a grid that is not two
    columns of short cells (:func:`~docparse.backends.table_checks.ruled_off_plausible`)
    is no table.
    """
    x0, y0, x1, y1 = region[:4]
    inside = [
        s
        for s in spans
        if x0 <= (s.bbox.x0 + s.bbox.x1) / 2 <= x1 and y0 <= (s.bbox.y0 + s.bbox.y1) / 2 <= y1
    ]
    edges = column_edges([(s.bbox.x0, s.bbox.y0, s.bbox.x1, s.bbox.y1) for s in inside], region)
    if len(edges) < 3:
        return None
    width = len(edges) - 1
    rows: list[tuple[str, ...]] = []
    for row in _rows_of(inside):
        cells: list[list[str]] = [[] for _ in range(width)]
        for s in sorted(row, key=lambda s: s.bbox.x0):
            col = bisect.bisect_right(edges, (s.bbox.x0 + s.bbox.x1) / 2) - 1
            cells[min(max(col, 0), width - 1)].append(s.text)
        rows.append(tuple(" ".join(c) for c in cells))
    if not ruled_off_plausible(rows):
        return None
    header = 1 if len(rows) > 1 and not is_data_row(rows[0]) else 0
    box = BBox(
        min(s.bbox.x0 for s in inside),
        min(s.bbox.y0 for s in inside),
        max(s.bbox.x1 for s in inside),
        max(s.bbox.y1 for s in inside),
    )
    return TableRegion(box, tuple(rows), header)


def _rules(page: Any, raw: Any, left: float, top: float) -> list[tuple[float, float, float]]:
    """Thin horizontal path objects of the page (its own, not those inside
    form XObjects) as ``(x0, y, x1)`` in top-left coordinates.

    ``page``: a PDFium page handle. An object whose bounds PDFium cannot give
    is no rule.
    """
    out = []
    edges = [ctypes.c_float() for _ in range(4)]
    for k in range(raw.FPDFPage_CountObjects(page)):
        obj = raw.FPDFPage_GetObject(page, k)
        if not obj or raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
            continue
        if not raw.FPDFPageObj_GetBounds(obj, *edges):
            continue
        a, b, c, d = (e.value for e in edges)
        x0, y0, x1, y1 = a - left, top - d, c - left, top - b
        if is_rule(x0, y0, x1, y1):
            out.append((x0, (y0 + y1) / 2, x1))
    return out


def page_tables(
    page: Any,
    raw: Any,
    spans: Sequence[TextSpan],
    lines: Sequence[TextLine],
    size: tuple[float, float, float, float],
) -> tuple[TableRegion, ...]:
    """Tables of one page (``page``: its PDFium page handle): caption- and
    rule-anchored regions read from the runs."""
    if not any(TABLE_CAPTION.match(t) for _, t in lines):
        return ()  # both region finders start from a table caption
    left, top, width, height = size
    regions = caption_regions(lines, width)
    rules = _rules(page, raw, left, top)
    if len(rules) >= 2:
        regions += rule_bounded_regions(rules, lines, height)
    found: list[TableRegion] = []
    for region in regions:
        table = region_table(region, spans)
        if table is None:
            continue
        b = table.bbox
        if any(
            b.x0 < f.bbox.x1 and f.bbox.x0 < b.x1 and b.y0 < f.bbox.y1 and f.bbox.y0 < b.y1
            for f in found
        ):
            continue
        found.append(table)
    return tuple(found)


#: Files up to this size are read into memory and PDFium parses them there:
#: its page loads then read no file (3-5% less CPU for page load and text page
#: over the corpus, measured alternating both ways PDF by PDF); larger ones
#: are read from the file, as PDFium reads a path, to keep memory to the pages.
IN_MEMORY_BYTES = 256 * 2**20


class Pypdfium2Backend(PdfBackend):
    """PDF backend on PDFium (Apache-2.0/BSD): fast text runs with boxes."""

    name: ClassVar[str] = "pypdfium2"
    config_class: ClassVar[type[Any]] = Pypdfium2Config
    in_memory_bytes: ClassVar[int] = IN_MEMORY_BYTES

    def __init__(self) -> None:
        self._pdfium = load_pypdfium2()
        self._raw = importlib.import_module("pypdfium2.raw")

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        pdfium = self._pdfium
        source: bytes | str
        if info.data is not None:
            source = info.data  # read once by the parse (PdfBackend.in_memory_bytes)
        else:
            try:
                small = path.stat().st_size <= IN_MEMORY_BYTES
                source = path.read_bytes() if small else str(path)
            except OSError as exc:
                raise ParseError(
                    path, f"{path} cannot be read: {cause_text(exc, path)}", cause=exc
                ) from exc
        try:
            pdf = pdfium.PdfDocument(source, password=config.password)
        except pdfium.PdfiumError as exc:
            if "password" in str(exc).lower():
                raise encrypted_error(path, wrong_password=config.password is not None) from exc
            raise CorruptDocumentError(
                path, f"{path} cannot be opened as a PDF: {cause_text(exc, path)}", cause=exc
            ) from exc
        # Characters found mapped to Unicode, per font, across the document's pages.
        mapped: dict[tuple[str, int], set[str]] = {}
        calls = TextCalls(self._raw)
        try:
            document = pdf.raw
            for index in info.page_indices:
                page = calls.load_page(document, index)
                if not page:
                    raise CorruptDocumentError(
                        path, f"page {index + 1} cannot be read: PDFium could not load it"
                    )
                # Closed before the page goes on to the assembly: PDFium frees
                # it while its memory is still in the CPU's caches (after the
                # assembly's work on the page, closing took half as long again).
                try:
                    content = self._page(path, page, index, config, mapped, calls)
                finally:
                    calls.close_page(page)
                yield content
        finally:
            pdf.close()

    def _page(
        self,
        path: Path,
        page: Any,
        index: int,
        config: Pypdfium2Config,
        mapped: dict[tuple[str, int], set[str]],
        calls: TextCalls,
    ) -> PageContent:
        """The record of page ``index``, read from its PDFium page handle ``page``."""
        left, bottom, right, top = calls.page_box(page)
        width, height = float(right - left), float(top - bottom)
        textpage = calls.load_textpage(page)
        if not textpage:
            raise CorruptDocumentError(
                path, f"page {index + 1} cannot be read: PDFium could not make its text page"
            )
        try:
            text = TextPage(textpage, self._raw)
            spans, unmapped = page_runs(
                text, self._raw, left, top, config.bold_weight, mapped, calls
            )
        finally:
            calls.close_textpage(textpage)
        lines = lines_from_spans(spans)
        blocks = blocks_from_lines(lines)
        tables: tuple[TableRegion, ...] = ()
        if config.tables and blocks:
            text_lines = [
                ((ln.bbox.x0, ln.bbox.y0, ln.bbox.x1, ln.bbox.y1), ln.text) for ln in lines
            ]
            tables = page_tables(page, self._raw, spans, text_lines, (left, top, width, height))
        return PageContent(
            number=index + 1,
            width=width,
            height=height,
            # PDFium's text boxes are in the unrotated page: the assembly turns them.
            rotation=calls.rotation(page),
            blocks=blocks,
            tables=tables,
            unmapped_glyphs=unmapped,
        )

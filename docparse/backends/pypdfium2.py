"""PDF backend on pypdfium2 (PDFium): text runs with boxes, through the shared assembly.

PDFium's text page gives the rectangles its text runs occupy
(``FPDFText_CountRects``) and the text inside each; a run is a word or a
stretch of words set in one go, with the font size and name of its first
character. Runs become :class:`~docparse.backends.base.TextSpan` records,
grouped into lines and blocks by :mod:`docparse.backends.lines` and read by
the shared layout assembly, so units are made as for the other backends.

PDFium has no table finder. Tables are found where the shared region finders
place them (:func:`~docparse.backends.tables.caption_regions` for tables
next to a "Table N" caption, :func:`~docparse.backends.tables.rule_bounded_regions`
for booktabs rules taken from the page's thin path objects) and read from
the runs inside: columns where no run covers the x-gap
(:func:`~docparse.backends.tables.column_edges`), rows by vertical overlap.
"""

from __future__ import annotations

import bisect
import ctypes
import importlib
import re
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
from docparse.backends.glyphs import count_unmapped, strip_unmapped
from docparse.backends.lines import blocks_from_lines, lines_from_spans
from docparse.backends.tables import (
    TABLE_CAPTION,
    TextLine,
    caption_regions,
    column_edges,
    is_data_row,
    is_rule,
    rule_bounded_regions,
    ruled_off_plausible,
)
from docparse.errors import CorruptDocumentError, MissingDependencyError, cause_text
from docparse.model import BBox

INSTALL = "pip install 'docparse[pypdfium2]'"
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|cmbx|,b\b|-b\b", re.IGNORECASE)
_FONT_NAME_BYTES = 128
#: PDFium reports an end-of-line hyphen as U+FFFE and line breaks as CR LF.
_PDFIUM_CHARS = str.maketrans({"\ufffe": "-", "\r": " ", "\n": " ", "\x02": "-"})


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


#: How many characters past the previous run's start are looked at for the next run's start.
_WALK = 400


def _first_char(
    textpage: Any, start: int, rect: tuple[float, float, float, float], n: int
) -> int | None:
    """The first character from ``start`` on whose box centre lies in ``rect`` (PDF space).

    PDFium makes its runs from consecutive characters, so walking on from the
    previous run finds the next run's first character in a few steps;
    PDFium's own point search (``get_index``) scans the whole page each time.
    """
    x0, y0, x1, y1 = rect
    for k in range(start, min(n, start + _WALK)):
        left, bottom, right, top = textpage.get_charbox(k)
        if right <= left and top <= bottom:
            continue  # a generated space or line break has no box
        cx, cy = (left + right) / 2, (bottom + top) / 2
        if x0 - 0.5 <= cx <= x1 + 0.5 and y0 - 0.5 <= cy <= y1 + 0.5:
            return k
    return None


def _mapped_text(textpage: Any, raw: Any) -> str:
    """The page text with each glyph PDFium could not map to Unicode as U+FFFD.

    PDFium passes such a glyph's code through as a letter (CMEX's summation
    sign reads ``P``); ``FPDFText_HasUnicodeMapError`` tells them apart, and
    the U+FFFD keeps every other character at its index.
    """
    full: str = textpage.get_text_range()
    has_error = raw.FPDFText_HasUnicodeMapError
    handle = textpage.raw
    bad = [k for k in range(min(len(full), textpage.count_chars())) if has_error(handle, k) == 1]
    if not bad:
        return full
    chars = list(full)
    for k in bad:
        chars[k] = "\ufffd"
    return "".join(chars)


def _run_texts(
    textpage: Any, rects: Sequence[tuple[float, float, float, float]], full: str
) -> tuple[list[str], list[int | None]]:
    """The text of each run, cut from the page text at the runs' first characters,
    and the index of each run's first character (``None`` where not found).

    Runs follow the page's character order, so the characters from one run's
    first to the next run's first are its text. Reading each rectangle back
    (``get_text_bounded``) is slower and repeats glyphs that overlap (the
    kerned letters of a LaTeX logo). A run whose first character is not found,
    or comes out of order, is read back by its rectangle. ``full`` is the
    page's text (:func:`_mapped_text`).
    """
    starts: list[int | None] = []
    last = -1
    for x0, y0, x1, y1 in rects:
        index = _first_char(textpage, last + 1, (x0, y0, x1, y1), len(full))
        if index is None:
            # Not found walking on (an out-of-order run): ask PDFium, which searches the page.
            index = textpage.get_index(x0 + 0.3, (y0 + y1) / 2, 0.5, 0.5)
        if index is None or index <= last or index >= len(full):
            starts.append(None)
        else:
            starts.append(index)
            last = index
    texts: list[str] = []
    ends = [len(full)] * len(rects)
    nxt = len(full)
    for i in range(len(rects) - 1, -1, -1):
        ends[i] = nxt
        start = starts[i]
        if start is not None:
            nxt = start
    for i, (start, rect) in enumerate(zip(starts, rects, strict=True)):
        if start is None:
            texts.append(textpage.get_text_bounded(*rect))
        else:
            texts.append(full[start : ends[i]])
    return texts, starts


def page_runs(
    textpage: Any, raw: Any, left: float, top: float, bold_weight: int
) -> tuple[list[TextSpan], int]:
    """The non-blank text runs of a PDFium text page as spans in top-left page
    coordinates, and the number of glyphs left out as unmapped
    (:mod:`docparse.backends.glyphs`).

    ``left``/``top`` are the crop box's left and top edge in PDF space.
    """
    spans: list[TextSpan] = []
    unmapped = 0
    handle = textpage.raw
    name = ctypes.create_string_buffer(_FONT_NAME_BYTES)
    flags = ctypes.c_int()
    rects = [textpage.get_rect(i) for i in range(textpage.count_rects())]
    texts, starts = _run_texts(textpage, rects, _mapped_text(textpage, raw))
    for (x0, y0, x1, y1), raw_text, first in zip(rects, texts, starts, strict=True):
        text = raw_text.translate(_PDFIUM_CHARS)
        bad = count_unmapped(text)
        if bad:
            unmapped += bad
            text = strip_unmapped(text)
        text = text.strip()
        if not text:
            continue
        size = 0.0
        bold = False
        font = ""
        # The run's first character carries its font.
        index = (
            first if first is not None else textpage.get_index(x0 + 0.3, (y0 + y1) / 2, 0.5, 0.5)
        )
        if index is not None and index >= 0:
            size = float(raw.FPDFText_GetFontSize(handle, index))
            got = raw.FPDFText_GetFontInfo(
                handle, index, name, _FONT_NAME_BYTES, ctypes.byref(flags)
            )
            font = name.value.decode("utf-8", "replace") if got else ""
            weight = raw.FPDFText_GetFontWeight(handle, index)
            bold = weight >= bold_weight or bool(_BOLD_FONT.search(font))
        box = BBox(x0 - left, top - y1, x1 - left, top - y0)
        spans.append(TextSpan(text, box, size, bold, font))
    return spans, unmapped


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
    (:func:`~docparse.backends.tables.column_edges`); a grid that is not two
    columns of short cells (:func:`~docparse.backends.tables.ruled_off_plausible`)
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
    """Thin horizontal path objects of the page as ``(x0, y, x1)`` in top-left coordinates."""
    out = []
    for obj in page.get_objects(filter=(raw.FPDF_PAGEOBJ_PATH,), max_depth=1):
        a, b, c, d = obj.get_bounds()
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
    """Tables of one page: caption- and rule-anchored regions read from the runs."""
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


class Pypdfium2Backend(PdfBackend):
    """PDF backend on PDFium (Apache-2.0/BSD): fast text runs with boxes."""

    name: ClassVar[str] = "pypdfium2"
    config_class: ClassVar[type[Any]] = Pypdfium2Config

    def __init__(self) -> None:
        self._pdfium = load_pypdfium2()
        self._raw = importlib.import_module("pypdfium2.raw")

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        pdfium = self._pdfium
        try:
            pdf = pdfium.PdfDocument(str(path), password=config.password)
        except pdfium.PdfiumError as exc:
            if "password" in str(exc).lower():
                raise encrypted_error(path, wrong_password=config.password is not None) from exc
            raise CorruptDocumentError(
                path, f"{path} cannot be opened as a PDF: {cause_text(exc, path)}", cause=exc
            ) from exc
        try:
            for index in info.page_indices:
                try:
                    page = pdf[index]
                except pdfium.PdfiumError as exc:
                    raise CorruptDocumentError(
                        path, f"page {index + 1} cannot be read: {exc}", cause=exc
                    ) from exc
                try:
                    yield self._page(page, index, config)
                finally:
                    page.close()
        finally:
            pdf.close()

    def _page(self, page: Any, index: int, config: Pypdfium2Config) -> PageContent:
        left, bottom, right, top = page.get_cropbox()
        width, height = float(right - left), float(top - bottom)
        textpage = page.get_textpage()
        try:
            spans, unmapped = page_runs(textpage, self._raw, left, top, config.bold_weight)
        finally:
            textpage.close()
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
            rotation=int(page.get_rotation() or 0),
            blocks=blocks,
            tables=tables,
            unmapped_glyphs=unmapped,
        )

"""PDF backend on pdfplumber (pdfminer.six): words with font attributes and tables.

pdfplumber gives words, not blocks, so this module groups words into lines
(splitting a line at a gap wider than a column gutter) and lines into blocks
(vertically adjacent, horizontally overlapping, same font size) before the
shared assembly. Each page is closed after use so its cached layout objects
are freed and memory does not grow with the page count.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from docparse.backends.base import (
    Block,
    Line,
    PageContent,
    PdfBackend,
    PdfConfig,
    PdfInfo,
    TableRegion,
    TextSpan,
    encrypted_error,
)
from docparse.errors import CorruptDocumentError, MissingDependencyError
from docparse.model import BBox

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|cmbx|,b\b|-b\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PdfplumberConfig(PdfConfig):
    """Options of the pdfplumber backend.

    ``table_strategy``: ``lines`` (ruled tables: vertical and horizontal
    strategies ``lines``), ``text`` (whitespace-aligned tables), or
    ``lines_then_text`` (``text`` only on pages where ``lines`` found no
    table). ``table_settings``: extra pdfplumber ``table_settings`` entries
    (for example ``{"snap_tolerance": 4}``) applied on top of the strategy.
    ``min_table_cells``: smaller tables are ignored. ``x_tolerance`` /
    ``y_tolerance``: pdfplumber's word-building tolerances.
    """

    table_strategy: Literal["lines", "text", "lines_then_text"] = "lines"
    table_settings: Mapping[str, Any] | None = None
    min_table_cells: int = 4
    x_tolerance: float = 1.5
    y_tolerance: float = 3.0


def _bold(fontname: str) -> bool:
    return bool(_BOLD_FONT.search(fontname))


def _span(w: Mapping[str, Any]) -> TextSpan:
    return TextSpan(
        text=str(w["text"]),
        bbox=BBox(float(w["x0"]), float(w["top"]), float(w["x1"]), float(w["bottom"])),
        size=float(w.get("size", 0.0)),
        bold=_bold(str(w.get("fontname", ""))),
        font=str(w.get("fontname", "")),
    )


def lines_from_words(words: list[Mapping[str, Any]]) -> list[Line]:
    """Group words into visual lines, split at gutter-wide gaps."""
    spans = sorted((_span(w) for w in words if str(w["text"]).strip()), key=lambda s: s.bbox.y0)
    rows: list[list[TextSpan]] = []
    for s in spans:
        placed = False
        mid = (s.bbox.y0 + s.bbox.y1) / 2
        for row in reversed(rows[-4:]):
            r0 = min(x.bbox.y0 for x in row)
            r1 = max(x.bbox.y1 for x in row)
            if r0 <= mid <= r1:
                row.append(s)
                placed = True
                break
        if not placed:
            rows.append([s])
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda s: s.bbox.x0)
        cur: list[TextSpan] = [row[0]]
        for prev, s in itertools.pairwise(row):
            size = max(s.size, prev.size, 1.0)
            if s.bbox.x0 - prev.bbox.x1 > 0.9 * size:
                lines.append(_line(cur))
                cur = [s]
            else:
                cur.append(s)
        lines.append(_line(cur))
    return lines


def _line(spans: list[TextSpan]) -> Line:
    b = spans[0].bbox
    for s in spans[1:]:
        b = b.union(s.bbox)
    return Line(tuple(spans), b)


def blocks_from_lines(lines: list[Line]) -> tuple[Block, ...]:
    """Group lines into blocks: vertically adjacent, overlapping in x, same size."""
    open_blocks: list[list[Line]] = []
    for ln in sorted(lines, key=lambda line: (line.bbox.y0, line.bbox.x0)):
        size = max(ln.size, 1.0)
        target = None
        for blk in reversed(open_blocks):
            last = blk[-1]
            gap = ln.bbox.y0 - last.bbox.y1
            overlap = min(ln.bbox.x1, last.bbox.x1) - max(ln.bbox.x0, last.bbox.x0)
            if -0.5 * size < gap < 0.7 * size and overlap > 0 and abs(ln.size - last.size) < 1.0:
                target = blk
                break
        if target is None:
            open_blocks.append([ln])
        else:
            target.append(ln)
    out = []
    for blk in open_blocks:
        b = blk[0].bbox
        for ln in blk[1:]:
            b = b.union(ln.bbox)
        out.append(Block(tuple(blk), b))
    return tuple(out)


def _settings(config: PdfplumberConfig, strategy: str) -> dict[str, Any]:
    s: dict[str, Any] = {"vertical_strategy": strategy, "horizontal_strategy": strategy}
    if config.table_settings:
        s.update(config.table_settings)
    return s


def _clean(c: Any) -> str:
    return " ".join(str(c).split()) if c is not None else ""


def table_regions(page: Any, config: PdfplumberConfig) -> tuple[TableRegion, ...]:
    """Tables of a pdfplumber page with the configured strategy."""
    strategies = {
        "lines": ["lines"],
        "text": ["text"],
        "lines_then_text": ["lines", "text"],
    }[config.table_strategy]
    for strategy in strategies:
        found = page.find_tables(table_settings=_settings(config, strategy))
        regions: list[TableRegion] = []
        for t in found:
            grid = t.extract()
            rows = tuple(tuple(_clean(c) for c in row) for row in grid)
            if sum(1 for r in rows for c in r if c) < config.min_table_cells:
                continue
            width = max((len(r) for r in rows), default=0)
            rows = tuple(r + ("",) * (width - len(r)) for r in rows)
            x0, top, x1, bottom = t.bbox
            regions.append(TableRegion(BBox(float(x0), float(top), float(x1), float(bottom)), rows))
        if regions:
            return tuple(regions)
    return ()


class PdfplumberBackend(PdfBackend):
    """PDF backend on pdfplumber: slower than PyMuPDF, pure Python, good tables."""

    name: ClassVar[str] = "pdfplumber"
    config_class: ClassVar[type[Any]] = PdfplumberConfig

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        try:
            import pdfplumber
            from pdfminer.pdfdocument import PDFPasswordIncorrect
            from pdfminer.pdfparser import PDFSyntaxError
        except ImportError as exc:  # pragma: no cover - core dependency
            raise MissingDependencyError("pdfplumber backend", "pip install pdfplumber") from exc
        try:
            pdf = pdfplumber.open(path, password=config.password or "")
        except PDFPasswordIncorrect as exc:
            raise encrypted_error(path, wrong_password=config.password is not None) from exc
        except PDFSyntaxError as exc:
            raise CorruptDocumentError(path, f"cannot be parsed as a PDF: {exc}") from exc
        try:
            for index in info.page_indices:
                page = pdf.pages[index]
                try:
                    yield self._page(page, index, config)
                finally:
                    page.close()
        finally:
            pdf.close()

    def _page(self, page: Any, index: int, config: PdfplumberConfig) -> PageContent:
        words = page.extract_words(
            x_tolerance=config.x_tolerance,
            y_tolerance=config.y_tolerance,
            extra_attrs=["size", "fontname"],
        )
        blocks = blocks_from_lines(lines_from_words(words))
        tables = table_regions(page, config) if config.tables and blocks else ()
        images: tuple[BBox, ...] = ()
        if not blocks:
            images = tuple(
                BBox(float(i["x0"]), float(i["top"]), float(i["x1"]), float(i["bottom"]))
                for i in page.images
            )
        x0, top, x1, bottom = page.bbox
        return PageContent(
            number=index + 1,
            width=float(x1 - x0),
            height=float(bottom - top),
            rotation=0,  # pdfminer already applies /Rotate to coordinates
            blocks=blocks,
            tables=tables,
            images=images,
        )

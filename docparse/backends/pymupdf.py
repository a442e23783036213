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
    load_pymupdf,
)
from docparse.errors import CorruptDocumentError
from docparse.model import BBox

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|\bbx|cmbx|,b\b|-b\b", re.IGNORECASE)
# get_text flags: keep whitespace and ligature characters as printed, clip to the
# media box; no images (their pixel data would be copied for nothing).
_TEXT_FLAGS = 1 | 2 | 64


@dataclass(frozen=True, slots=True)
class PyMuPDFConfig(PdfConfig):
    """Options of the PyMuPDF backend.

    ``table_strategy``: ``lines`` finds ruled tables (vector lines and cell
    fills); ``text`` also finds tables aligned only by whitespace but
    proposes false tables on ordinary text; ``lines_then_text`` uses ``lines``
    and falls back to ``text`` on pages where ``lines`` found nothing and a
    page looks tabular. ``min_table_cells``: tables with fewer non-empty
    cells are ignored (ruled boxes around a single paragraph).
    """

    table_strategy: Literal["lines", "text", "lines_then_text"] = "lines"
    min_table_cells: int = 4


def is_bold(span: dict[str, Any]) -> bool:
    """Bold by the font flags (bit 4) or by the font's name."""
    return bool(int(span.get("flags", 0)) & 16) or bool(_BOLD_FONT.search(str(span.get("font"))))


def _bbox(b: Any) -> BBox:
    return BBox(float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def blocks_from_dict(data: dict[str, Any]) -> tuple[Block, ...]:
    """Text blocks of a ``get_text("dict")`` result as :class:`Block` records."""
    blocks: list[Block] = []
    for b in data.get("blocks", ()):
        if b.get("type", 0) != 0:
            continue
        lines: list[Line] = []
        for ln in b.get("lines", ()):
            spans = tuple(
                TextSpan(
                    text=str(s.get("text", "")),
                    bbox=_bbox(s["bbox"]),
                    size=float(s.get("size", 0.0)),
                    bold=is_bold(s),
                    font=str(s.get("font", "")),
                )
                for s in ln.get("spans", ())
                if str(s.get("text", ""))
            )
            if spans and any(s.text.strip() for s in spans):
                lines.append(Line(spans, _bbox(ln["bbox"])))
        if lines:
            blocks.append(Block(tuple(lines), _bbox(b["bbox"])))
    return tuple(blocks)


def _clean_cell(c: Any) -> str:
    return " ".join(str(c).split()) if c is not None else ""


def tables_of(page: Any, config: PyMuPDFConfig) -> list[Any]:
    """``page.find_tables`` with the configured strategy."""
    if config.table_strategy == "text":
        return list(page.find_tables(strategy="text").tables)
    found = list(page.find_tables(strategy="lines").tables)
    if found or config.table_strategy == "lines":
        return found
    return list(page.find_tables(strategy="text").tables)


def table_regions(tables: list[Any], config: PyMuPDFConfig) -> tuple[TableRegion, ...]:
    """Cells of PyMuPDF tables as :class:`TableRegion` records (unrotated space)."""
    out: list[TableRegion] = []
    for t in tables:
        grid = t.extract()
        rows = tuple(tuple(_clean_cell(c) for c in row) for row in grid)
        if sum(1 for r in rows for c in r if c) < config.min_table_cells:
            continue
        width = max((len(r) for r in rows), default=0)
        rows = tuple(r + ("",) * (width - len(r)) for r in rows)
        # Merged cells come back as None after the first grid position.
        spans: list[tuple[int, int, int, int]] = []
        for ri, row in enumerate(grid):
            ci = 0
            while ci < len(row):
                if row[ci] is not None:
                    cs = 1
                    while ci + cs < len(row) and row[ci + cs] is None:
                        cs += 1
                    if cs > 1:
                        spans.append((ri, ci, 1, cs))
                    ci += cs
                else:
                    ci += 1
        header = getattr(t, "header", None)
        n_header = 1 if header is not None and not getattr(header, "external", True) else 0
        out.append(TableRegion(_bbox(t.bbox), rows, n_header, tuple(spans)))
    return tuple(out)


class PyMuPDFBackend(PdfBackend):
    """The default PDF backend (fast, C library)."""

    name: ClassVar[str] = "pymupdf"
    config_class: ClassVar[type[Any]] = PyMuPDFConfig

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        pymupdf = load_pymupdf()
        try:
            doc = pymupdf.open(path, filetype="pdf")
        except (RuntimeError, ValueError) as exc:
            raise CorruptDocumentError(path, f"cannot be opened as a PDF: {exc}") from exc
        try:
            if doc.needs_pass and not doc.authenticate(config.password or ""):
                raise encrypted_error(path, wrong_password=config.password is not None)
            for index in info.page_indices:
                yield self._page(doc, index, config)
        finally:
            doc.close()

    def _page(self, doc: Any, index: int, config: PyMuPDFConfig) -> PageContent:
        page = doc.load_page(index)
        rotation = int(page.rotation or 0)
        # Text and table coordinates are in the unrotated page (the cropbox).
        mediabox = page.cropbox if rotation else page.rect
        data = page.get_text("dict", flags=_TEXT_FLAGS, sort=False)
        blocks = blocks_from_dict(data)
        tables: tuple[TableRegion, ...] = ()
        if config.tables and blocks:
            tables = table_regions(tables_of(page, config), config)
        images: tuple[BBox, ...] = ()
        if not blocks:
            images = tuple(_bbox(i["bbox"]) for i in page.get_image_info())
        content = PageContent(
            number=index + 1,
            width=float(mediabox.width),
            height=float(mediabox.height),
            rotation=rotation,
            blocks=blocks,
            tables=tables,
            images=images,
        )
        del page
        return content

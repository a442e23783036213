"""Page overlays: what a PDF backend made of each page, as PNG images.

Each requested page is rendered with PyMuPDF; every unit's box on that page
is outlined in its kind's colour (see :data:`KIND_COLOURS`) and labelled with
the unit's reading order (``12`` on the first piece of a unit, ``12+`` on
the pieces of a paragraph continued from an earlier column or page). A strip
under the page holds a legend with the number of units of each kind drawn.

The page is placed on a new, taller page with ``show_pdf_page`` and drawn
on there, so the source PDF is never modified and rotated pages appear as
displayed (unit boxes are in displayed, top-left-origin points).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from docparse.errors import ConfigError, DocparseError
from docparse.model import BBox, Document

#: Outline colour (RGB, 0-255) of each unit kind.
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "paragraph": (31, 119, 180),
    "heading": (214, 39, 40),
    "title": (148, 0, 62),
    "abstract": (23, 190, 207),
    "list_item": (148, 103, 189),
    "table": (44, 160, 44),
    "caption": (255, 127, 14),
    "footnote": (140, 86, 75),
    "equation": (188, 189, 34),
    "code": (227, 119, 194),
    "quote": (0, 128, 128),
    "furniture": (127, 127, 127),
}
_FALLBACK = (0, 0, 0)
_LEGEND_HEIGHT = 30.0


def _rgb(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255)


def parse_page_range(text: str) -> tuple[int, int]:
    """``"3"`` -> ``(3, 3)``, ``"1-3"`` -> ``(1, 3)`` (1-based, inclusive).

    >>> parse_page_range("2-4")
    (2, 4)
    """
    first, sep, last = text.strip().partition("-")
    try:
        a = int(first)
        b = int(last) if sep else a
    except ValueError as exc:
        raise ConfigError(None, f"page range {text!r} must look like 3 or 1-3") from exc
    if a < 1 or b < a:
        raise ConfigError(None, f"page range {text!r} must have 1 <= first <= last")
    return a, b


def boxes_by_page(doc: Document) -> dict[int, list[tuple[int, str, BBox, bool]]]:
    """``page -> [(order, kind, bbox, continued)]`` for every unit piece with a box."""
    out: dict[int, list[tuple[int, str, BBox, bool]]] = defaultdict(list)
    for unit in doc.units:
        for i, prov in enumerate(unit.provenance):
            if prov.bbox is not None:
                out[prov.page].append((unit.order, unit.kind, prov.bbox, i > 0))
    return out


def draw_document(
    doc: Document,
    pdf_path: str | Path,
    out_dir: str | Path,
    *,
    pages: tuple[int, int] | None = None,
    zoom: float = 1.5,
    password: str | None = None,
) -> list[Path]:
    """Write one PNG per page of ``pdf_path`` with ``doc``'s unit boxes drawn on it.

    ``doc`` must be a parse of ``pdf_path`` (any backend). Pages default to
    all pages of the PDF (or the ``pages`` range). Returns the PNG paths,
    named ``<pdf stem>-p<page>-<backend>.png``.
    """
    from docparse.backends.preflight import load_pymupdf

    pymupdf = load_pymupdf()
    pdf_path = Path(pdf_path)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    boxes = boxes_by_page(doc)
    src = pymupdf.open(pdf_path, filetype="pdf")
    written: list[Path] = []
    try:
        if src.needs_pass and not src.authenticate(password or ""):
            raise DocparseError(pdf_path, f"{pdf_path} is encrypted; pass the password to draw it")
        first, last = pages if pages is not None else (1, src.page_count)
        for number in range(first, min(last, src.page_count) + 1):
            png = out / f"{pdf_path.stem}-p{number:03d}-{doc.backend}.png"
            _draw_page(pymupdf, src, number, boxes.get(number, []), png, zoom)
            written.append(png)
    finally:
        src.close()
    return written


def _draw_page(
    pymupdf: Any,
    src: Any,
    number: int,
    boxes: Sequence[tuple[int, str, BBox, bool]],
    png: Path,
    zoom: float,
) -> None:
    page = src[number - 1]
    width, height = float(page.rect.width), float(page.rect.height)
    canvas_doc = pymupdf.open()
    try:
        canvas = canvas_doc.new_page(width=width, height=height + _LEGEND_HEIGHT)
        canvas.draw_rect(canvas.rect, color=None, fill=(1, 1, 1))
        canvas.show_pdf_page(pymupdf.Rect(0, 0, width, height), src, number - 1)
        label_size = max(5.0, min(8.0, width / 75))
        for order, kind, bbox, continued in boxes:
            colour = _rgb(KIND_COLOURS.get(kind, _FALLBACK))
            rect = pymupdf.Rect(bbox.x0, bbox.y0, bbox.x1, bbox.y1)
            canvas.draw_rect(
                rect, color=colour, fill=colour, fill_opacity=0.08, width=1.2, overlay=True
            )
            label = f"{order}+" if continued else str(order)
            label_w = pymupdf.get_text_length(label, fontsize=label_size) + 2
            top = max(0.0, rect.y0 - label_size - 1)
            tag = pymupdf.Rect(rect.x0, top, rect.x0 + label_w, top + label_size + 1)
            canvas.draw_rect(tag, color=None, fill=colour, overlay=True)
            canvas.insert_text(
                (tag.x0 + 1, tag.y1 - 1.5 * label_size / 8),
                label,
                fontsize=label_size,
                color=(1, 1, 1),
                overlay=True,
            )
        _legend(pymupdf, canvas, Counter(kind for _, kind, _, _ in boxes), height, width)
        pix = canvas.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        pix.save(str(png))
    finally:
        canvas_doc.close()


def _legend(pymupdf: Any, canvas: Any, counts: Mapping[str, int], top: float, width: float) -> None:
    """Colour swatches with kind names and counts in the strip below the page."""
    canvas.draw_line((0, top), (width, top), color=(0.6, 0.6, 0.6), width=0.5)
    x = 6.0
    y = top + _LEGEND_HEIGHT / 2
    size = 7.0
    kinds = [k for k in KIND_COLOURS if counts.get(k)] + sorted(
        k for k in counts if k not in KIND_COLOURS
    )
    if not kinds:
        canvas.insert_text((x, y + size / 3), "no units on this page", fontsize=size)
        return
    for kind in kinds:
        text = f"{kind} ({counts[kind]})"
        text_w = pymupdf.get_text_length(text, fontsize=size)
        if x + 12 + text_w > width:
            break
        swatch = pymupdf.Rect(x, y - 4, x + 8, y + 4)
        canvas.draw_rect(swatch, color=None, fill=_rgb(KIND_COLOURS.get(kind, _FALLBACK)))
        canvas.insert_text((x + 10, y + size / 3), text, fontsize=size)
        x += 10 + text_w + 10


def draw_pdf(
    path: str | Path,
    out_dir: str | Path,
    *,
    backend: str | None = None,
    pages: tuple[int, int] | None = None,
    config: Mapping[str, Any] | None = None,
    zoom: float = 1.5,
    parse_all: bool = True,
) -> list[Path]:
    """Parse ``path`` with ``backend`` and draw the overlays of ``pages`` (all by default).

    ``config`` holds further backend options (a dict). With ``parse_all``
    (the default) the whole document is parsed, so the drawing shows what
    the backend does to the full document: running headers are recognised by
    repetition across pages, and paragraphs continue across page breaks.
    ``parse_all=False`` parses only ``pages`` (faster on long documents).
    """
    from docparse.api import parse

    options: dict[str, Any] = dict(config or {})
    if pages is not None and not parse_all:
        options["pages"] = pages
    doc = parse(path, format="pdf", backend=backend, config=options or None)
    return draw_document(
        doc, path, out_dir, pages=pages, zoom=zoom, password=options.get("password")
    )

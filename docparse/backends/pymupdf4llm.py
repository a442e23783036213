"""PDF backend on pymupdf4llm: its layout model's boxes as units, its tables as table units.

pymupdf4llm ships with PyMuPDF 2.x together with an ONNX layout model
(``pymupdf.layout``). Its ``to_json`` gives every page's boxes in reading
order, each with a class (``text``, ``section-header``, ``list-item``,
``table``, ``caption``, ``formula``, ``footnote``, ``page-header``,
``page-footer``, ``picture``), a box, a heading level and styled text lines;
table boxes carry their cells. The layout model is used as it ships: this
backend reads its decisions and does not re-run the shared assembly, so the
figures measure pymupdf4llm itself.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.base import (
    Line,
    PdfConfig,
    TextSpan,
    TimeLimitKept,
    open_pymupdf,
    preflight,
)
from docparse.backends.glyphs import count_unmapped, strip_unmapped
from docparse.backends.table_headers import is_data_row
from docparse.backends.words import expand_ligatures, join_lines, vocabulary
from docparse.builder import UnitDraft, build_document
from docparse.errors import MissingDependencyError
from docparse.model import BBox, Document, Format, PageInfo, Provenance, Table, UnitKind
from docparse.structure import SectionStack, link_table_captions

log = logging.getLogger(__name__)

INSTALL = "pip install 'docparse[pymupdf4llm]'"

#: pymupdf4llm box classes -> unit kinds (``None``: not text, left out).
BOX_KINDS: dict[str, UnitKind | None] = {
    "title": "title",
    "section-header": "heading",
    "text": "paragraph",
    "list-item": "list_item",
    "caption": "caption",
    "footnote": "footnote",
    "formula": "equation",
    "code": "code",
    "table": "table",
    "page-header": "furniture",
    "page-footer": "furniture",
    "picture": None,
}


@dataclass(frozen=True, slots=True)
class PyMuPDF4LLMConfig(PdfConfig):
    """Options of the pymupdf4llm backend.

    ``tables``: table boxes become table units with cells (``False``: their
    text lines become a paragraph). ``remove_headers``: page headers and
    footers (as the layout model classes them) become ``furniture`` units.
    ``picture_text``: keep text found inside pictures (axis labels) as
    paragraphs; off by default, as in pymupdf4llm's own Markdown.
    """

    picture_text: bool = False


@functools.lru_cache(maxsize=1)
def load_pymupdf4llm() -> Any:
    """The ``pymupdf4llm`` module, or :class:`MissingDependencyError` with the pip line."""
    try:
        return importlib.import_module("pymupdf4llm")
    except ImportError as exc:
        raise MissingDependencyError("the pymupdf4llm backend", INSTALL, cause=exc) from exc


def _bbox(b: Sequence[Any]) -> BBox:
    return BBox(float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _line(tl: dict[str, Any]) -> Line:
    spans = tuple(
        TextSpan(
            text=strip_unmapped(str(s.get("text", ""))),
            bbox=_bbox(s["bbox"]),
            size=float(s.get("size") or 0.0),
            bold=bool(int(s.get("flags") or 0) & 16),
            font=str(s.get("font", "")),
        )
        for s in tl.get("spans") or ()
        if s.get("bbox")
    )
    return Line(spans, _bbox(tl["bbox"]))


def _box_lines(box: dict[str, Any]) -> list[str]:
    return [expand_ligatures(_line(tl).text) for tl in box.get("textlines") or ()]


def _table(box: dict[str, Any]) -> Table | None:
    data = box.get("table") or {}
    grid = data.get("extract")
    if not grid:
        return None
    rows = tuple(
        tuple(" ".join(strip_unmapped(str(c or "")).split()) for c in row)
        for row in grid
        if any(row)
    )
    if not rows:
        return None
    header = 1 if len(rows) > 1 and not is_data_row(rows[0]) else 0
    return Table(rows=rows, n_header_rows=header)


def page_infos(data: dict[str, Any]) -> list[PageInfo]:
    """Per page of a ``to_json`` result: its characters and unmapped glyphs.

    Counted on the text lines' spans as the layout model returns them, before
    :func:`~docparse.backends.glyphs.strip_unmapped` leaves the unmapped ones out.
    """
    out = []
    for p in data.get("pages", ()):
        chars = unmapped = 0
        for box in p.get("boxes") or ():
            for tl in box.get("textlines") or ():
                for s in tl.get("spans") or ():
                    text = str(s.get("text", ""))
                    chars += len("".join(text.split()))
                    unmapped += count_unmapped(text)
        out.append(PageInfo(int(p["page_number"]), chars, unmapped))
    return out


def drafts_from_json(
    data: dict[str, Any], config: PyMuPDF4LLMConfig
) -> tuple[list[UnitDraft], str | None]:
    """Unit drafts (in the model's reading order) and the title from a ``to_json`` result."""
    boxes = [(int(p["page_number"]), b) for p in data.get("pages", ()) for b in p["boxes"]]
    vocab = vocabulary(line for _, b in boxes for line in _box_lines(b))
    sections = SectionStack()
    drafts: list[UnitDraft] = []
    pages: list[int | None] = []
    title: str | None = None
    for page, box in boxes:
        cls = str(box.get("boxclass", "text"))
        kind = BOX_KINDS.get(cls, "paragraph")
        if kind is None:
            if not config.picture_text:
                continue
            kind = "paragraph"
        if kind == "furniture" and not config.remove_headers:
            kind = "paragraph"
        bbox = BBox(float(box["x0"]), float(box["y0"]), float(box["x1"]), float(box["y1"]))
        lines = _box_lines(box)
        text = join_lines(lines, vocab, dehyphenate=config.dehyphenate)
        table = _table(box) if kind == "table" and config.tables else None
        if kind == "table" and table is None:
            kind = "paragraph"
        section = sections.path
        if kind in ("title", "heading") and text:
            if kind == "title" and title is None:
                title = text
            level = 0 if kind == "title" else int(box.get("header_level") or 1)
            section = sections.push(level, text)
        drafts.append(
            UnitDraft(
                kind=kind,
                text="" if table is not None else text,
                raw="\n".join(lines),
                section=section,
                provenance=(Provenance(page, bbox),),
                table=table,
            )
        )
        pages.append(page)
    link_table_captions(drafts, pages)
    return drafts, title


class PyMuPDF4LLMBackend:
    """pymupdf4llm (PyMuPDF's layout model) as a PDF backend."""

    name: ClassVar[str] = "pymupdf4llm"
    format: ClassVar[Format] = "pdf"
    config_class: ClassVar[type[Any]] = PyMuPDF4LLMConfig

    def __init__(self) -> None:
        self._module = load_pymupdf4llm()

    def to_json(self, path: Path, config: PyMuPDF4LLMConfig, pages: Sequence[int]) -> Any:
        """pymupdf4llm's JSON of the 0-based ``pages`` of ``path`` (OCR off), as a dict."""
        doc = open_pymupdf(path, config.password)
        try:
            chatter = io.StringIO()
            # pymupdf4llm prints progress notes on stdout, which is a CLI's output.
            with contextlib.redirect_stdout(chatter):
                out = self._module.to_json(doc, pages=list(pages), use_ocr=False)
            if chatter.getvalue().strip():
                log.debug("pymupdf4llm: %s", chatter.getvalue().strip())
        finally:
            doc.close()
        return json.loads(out) if isinstance(out, str) else out

    def parse(self, path: Path, config: Any) -> Document:
        """Parse ``path`` with pymupdf4llm's layout model."""
        path = Path(path)
        with TimeLimitKept():
            info = preflight(path, config)
            data = self.to_json(path, config, info.page_indices)
            drafts, title = drafts_from_json(data, config)
        return build_document(
            pages=page_infos(data),
            path=path,
            format="pdf",
            backend=self.name,
            drafts=drafts,
            title=title,
            n_pages=info.n_pages,
        )

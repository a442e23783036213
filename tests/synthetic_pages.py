"""Synthetic PDF pages for assembly tests: lines, blocks and a built document.

Tests of furniture, sections and layout build pages from these instead of a PDF,
so each rule is checked on exactly the geometry and styles it is about.
"""

from __future__ import annotations

from docparse.backends.base import Block, Line, PageContent, PdfConfig, TextSpan, assemble
from docparse.backends.table_candidates import Word
from docparse.builder import build_document
from docparse.model import BBox, Document


def line(
    text: str, x0: float, y0: float, size: float = 10.0, bold: bool = False, font: str = "Times"
) -> Line:
    """One line of one span, half an em wide per character."""
    box = BBox(x0, y0, x0 + 0.5 * size * len(text), y0 + size)
    return Line((TextSpan(text, box, size, bold, font),), box)


def line_words(x: float, top: float, text: str) -> list[Word]:
    """The words of ``text`` as table-search word tuples: 11 points high, five
    points a character, three points between words."""
    out: list[Word] = []
    for t in text.split():
        out.append((x, top, x + 5.0 * len(t), top + 11.0, t))
        x += 5.0 * len(t) + 3.0
    return out


def block(*lines: Line) -> Block:
    """A block holding ``lines``, boxed by their union."""
    box = lines[0].bbox
    for ln in lines[1:]:
        box = box.union(ln.bbox)
    return Block(tuple(lines), box)


def build(pages: list[PageContent], **cfg: object) -> Document:
    """Assemble ``pages`` with ``PdfConfig(**cfg)`` and build the document."""
    result = assemble(pages, PdfConfig(**cfg), path="synthetic.pdf")  # type: ignore[arg-type]
    return build_document(
        path="synthetic.pdf",
        format="pdf",
        backend="test",
        drafts=result.drafts,
        title=result.title,
        doc_id="synthetic",
    )

"""The page records every PDF backend produces, and the options they share.

Every backend turns its library's native output, one page at a time, into the
lightweight, library-independent :class:`PageContent` records defined here
(blocks of lines of styled spans, table regions, image boxes; all geometry in
PDF points with a top-left origin). :func:`docparse.backends.layout.assemble_pages`
turns a stream of them into :class:`~docparse.builder.UnitDraft` objects, so
backends differ only in how they *see* a page, never in how units are made.

A backend built on an element stream (such as ``unstructured``) fills
:attr:`Block.role` from the element category (see :data:`ELEMENT_ROLES`); the
assembly then trusts the role instead of guessing from fonts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from docparse.config import ParserConfig
from docparse.errors import ConfigError
from docparse.model import BBox, PageInfo
from docparse.ocr.engine import OcrEngineName, OcrMode

if TYPE_CHECKING:
    from docparse.builder import UnitDraft


@dataclass(frozen=True, slots=True)
class PdfConfig(ParserConfig):
    """Options every PDF backend accepts.

    ``tables``: detect tables and emit them as table units (their text is
    then not repeated as paragraphs). ``pages``: 1-based inclusive page
    range ``(first, last)``; a list of two ints is accepted from a dict;
    ``None`` for all pages. ``password``: for encrypted PDFs.
    ``remove_headers``: move running headers/footers and page numbers out of
    the text into ``furniture`` units. ``dehyphenate``: join words broken by
    an end-of-line hyphen when the joined word is a word.

    ``ocr``: ``auto`` reads pages with no text layer (or a text layer of
    mostly unmapped glyphs) by OCR, ``force`` every page, ``off`` none.
    ``ocr_engine``: ``rapidocr`` (``pip install 'docparse[ocr]'``) or
    ``tesseract`` (the ``tesseract-ocr`` package). ``ocr_dpi``: render
    resolution for OCR; 0 for the engine's own (see :mod:`docparse.ocr`).
    """

    tables: bool = True
    pages: tuple[int, int] | None = None
    password: str | None = None
    remove_headers: bool = True
    dehyphenate: bool = True
    ocr: OcrMode = "auto"
    ocr_engine: OcrEngineName = "rapidocr"
    ocr_dpi: int = 0

    def __post_init__(self) -> None:
        if self.pages is not None:
            if isinstance(self.pages, list):  # constructed directly with a list
                object.__setattr__(self, "pages", tuple(self.pages))
            first, last = self.pages
            if first < 1 or last < first:
                raise ConfigError(
                    None, f"pages={self.pages!r} must be (first, last) with 1 <= first <= last"
                )
        if not 0 <= self.ocr_dpi <= 1200:
            raise ConfigError(None, f"ocr_dpi={self.ocr_dpi!r} must be 0 (engine default) to 1200")


# --------------------------------------------------------------------------- page model

#: What a block is, when the backend knows (element streams) or the assembly
#: decided. ``None`` means "text, to be classified by layout".
BlockRole = Literal[
    "title",
    "heading",
    "paragraph",
    "list_item",
    "caption",
    "table",
    "figure",
    "footnote",
    "equation",
    "header",
    "footer",
    "page_number",
    "line_number",
]

#: unstructured element categories -> block roles (``None``: let layout decide).
ELEMENT_ROLES: dict[str, BlockRole | None] = {
    "Title": "heading",
    "NarrativeText": "paragraph",
    "ListItem": "list_item",
    "Table": "table",
    "FigureCaption": "caption",
    "Image": "figure",
    "Figure": "figure",
    "Formula": "equation",
    "Footnote": "footnote",
    "Header": "header",
    "Footer": "footer",
    "PageNumber": "page_number",
    "Text": None,
    "UncategorizedText": None,
    "Address": None,
    "EmailAddress": None,
}


@dataclass(frozen=True, slots=True)
class TextSpan:
    """A run of text in one font. ``size`` 0 means unknown (element streams)."""

    text: str
    bbox: BBox
    size: float = 0.0
    bold: bool = False
    font: str = ""


@dataclass(frozen=True, slots=True)
class Line:
    """One visual line: spans left to right.

    ``text`` is the span texts joined, a space inserted where spans leave a
    gap; ``size`` the font size of most characters; ``bold`` whether every
    non-blank span is bold (see :func:`line_facts`). The three are worked out
    once, as the line is made (the line is immutable), and kept as plain
    fields: the layout assembly reads them hundreds of thousands of times a
    document (block splitting, headings, furniture, footnotes), and a field
    costs a fraction of a property's call.
    """

    spans: tuple[TextSpan, ...]
    bbox: BBox
    text: str = field(init=False, repr=False, compare=False)
    size: float = field(init=False, repr=False, compare=False)
    bold: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        text, size, bold = line_facts(self.spans)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "bold", bold)


#: ``round(size, 1)`` of the font sizes seen: a page repeats a few sizes, and
#: rounding to a digit costs several dict look-ups (CPython rounds through
#: a decimal string). Non-zero floats only: 0.0 and -0.0 (or 10 and 10.0)
#: are one key but round to different values. A non-zero float never rounds
#: to a false value (hence ``TENTHS.get(z) or remember_tenth(z)``) but below
#: 0.05, which then misses the memo.
TENTHS: dict[float, float] = {}


def remember_tenth(z: float) -> float:
    """``round(z, 1)``, kept in :data:`TENTHS` (emptied when it grows large)."""
    if len(TENTHS) >= 4096:
        TENTHS.clear()
    r = TENTHS[z] = round(z, 1)
    return r


def line_facts(
    spans: Sequence[TextSpan], gaps: Sequence[bool] | None = None
) -> tuple[str, float, bool]:
    """A line's text, size and bold from its spans (:class:`Line`'s fields of those names).

    Text: the span texts joined, with a space where two spans leave a gap wider
    than 0.15 of the larger size (at least 1) and neither side has one. Size:
    the size (to 0.1 pt) of most non-blank characters, the first among equals;
    0.0 without spans. Bold: every span with text is bold, and one has text.
    ``gaps``, when given, says for each pair of neighbouring spans whether
    their gap is that wide (a caller that measured the gaps already).
    """
    if not spans:
        return "", 0.0, False
    # Field lists and comprehensions instead of one loop a span: lines of
    # hundreds of one-character spans are common, and most lines have one size.
    texts = [s.text for s in spans]
    sizes = [s.size for s in spans]
    if gaps is None:
        boxes = [s.bbox for s in spans]
        gaps = [
            b.x0 - a.x1 > 0.15 * (m if (m := (z if z > y else y)) > 1.0 else 1.0)
            for a, b, y, z in zip(boxes, boxes[1:], sizes, sizes[1:], strict=False)
        ]
    # A space at every gap (most lines of words): one join, right unless a
    # text beside a gap has a space of its own, which then shows doubled.
    if False not in gaps and "  " not in (joined := " ".join(texts)):
        text = joined
    elif True in gaps:
        out = [texts[0]]
        for k, gap in enumerate(gaps, 1):
            t = texts[k]
            if gap and not texts[k - 1].endswith(" ") and not t.startswith(" "):
                out.append(" ")
            out.append(t)
        text = "".join(out)
    else:
        text = "".join(texts)
    first = sizes[0]
    if sizes.count(first) == len(sizes):
        # (A zero or a non-float size skips the memo: see TENTHS.)
        size = (
            (TENTHS.get(first) or remember_tenth(first))
            if type(first) is float and first
            else round(first, 1)
        )
    else:
        by: dict[float, int] = {}
        get = by.get
        for t, z in zip(texts, sizes, strict=True):
            key = (TENTHS.get(z) or remember_tenth(z)) if type(z) is float and z else round(z, 1)
            by[key] = get(key, 0) + len(t.strip())
        size = max(by, key=by.__getitem__)
    bolds = [s.bold for s in spans]
    if all(bolds):
        bold = bool(text) and not text.isspace()  # a span's inserted spaces print nothing
    elif not any(bolds):
        bold = False
    else:
        bold = all(b or not t.strip() for b, t in zip(bolds, texts, strict=True)) and bool(
            text.strip()
        )
    return text, size, bold


@dataclass(frozen=True, slots=True)
class Block:
    """A group of lines the backend saw as one block (or one element).

    ``role`` is set by element-stream backends (see :data:`ELEMENT_ROLES`);
    ``None`` lets the layout assembly classify the block.
    """

    lines: tuple[Line, ...]
    bbox: BBox
    role: BlockRole | None = None

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass(frozen=True, slots=True)
class TableRegion:
    """A table the backend detected: its box and its cells as strings.

    ``rows`` is a rectangular grid (missing cells ``""``); ``spans`` lists
    merged cells as ``(row, col, row_span, col_span)``.
    """

    bbox: BBox
    rows: tuple[tuple[str, ...], ...]
    n_header_rows: int = 0
    spans: tuple[tuple[int, int, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PageContent:
    """Everything the assembly needs to know about one page.

    ``number`` is 1-based. ``width``/``height`` and all boxes are top-left
    origin points in the space the assembly should read the page in.
    ``rotation`` (0, 90, 180, 270) is what the assembly still has to apply to
    turn those boxes into the displayed page's (see :func:`display_bbox`).
    Both built-in backends report the displayed page already (a landscape
    page set sideways with ``/Rotate 90`` then reads left to right) and pass
    ``rotation=0``; a backend that only has unrotated coordinates passes the
    page's ``/Rotate``. ``images`` are boxes of raster images.
    ``unmapped_glyphs`` counts the glyphs whose font maps them to no text; they
    are already left out of the blocks' and tables' text (see
    :mod:`docparse.backends.glyphs`).
    """

    number: int
    width: float
    height: float
    rotation: int = 0
    blocks: tuple[Block, ...] = ()
    tables: tuple[TableRegion, ...] = ()
    images: tuple[BBox, ...] = ()
    unmapped_glyphs: int = 0

    @property
    def n_chars(self) -> int:
        """Non-space characters of the text layer, unmapped glyphs included."""
        # A line's text is its spans' texts with at most spaces put between
        # them: the same characters but spaces, read a line at a time.
        text = "".join([ln.text for b in self.blocks for ln in b.lines])
        return self.unmapped_glyphs + len(text) - text.count(" ")

    @property
    def has_text(self) -> bool:
        return any(b.text.strip() for b in self.blocks) or any(
            c.strip() for t in self.tables for r in t.rows for c in r
        )


def display_bbox(b: BBox, rotation: int, width: float, height: float) -> BBox:
    """``b`` (unrotated page space, page ``width`` x ``height``) as seen on the
    page displayed with ``rotation`` degrees clockwise, top-left origin."""
    r = rotation % 360
    if r == 90:
        return BBox(height - b.y1, b.x0, height - b.y0, b.x1)
    if r == 180:
        return BBox(width - b.x1, height - b.y1, width - b.x0, height - b.y0)
    if r == 270:
        return BBox(b.y0, width - b.x1, b.y1, width - b.x0)
    return b


@dataclass(slots=True)
class Assembly:
    """What :func:`assemble` returns: drafts (furniture included) and facts."""

    drafts: list[UnitDraft]
    title: str | None = None
    n_pages: int = 0
    pages_without_text: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    pages: list[PageInfo] = field(default_factory=list)


# --------------------------------------------------------------------------- tables

#: Table strategies every backend understands. ``auto``: ruled tables first;
#: on pages where that finds no table of at least 4 rows and that look
#: numeric, ruled columns with text-aligned rows, then text alignment alone,
#: keeping the first result that looks like a table (see :func:`plausible_table`).
TableStrategy = Literal["auto", "lines", "text", "lines_then_text"]

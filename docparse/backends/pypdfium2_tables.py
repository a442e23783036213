"""Tables of the pypdfium2 backend: its runs cut into words, through the shared finders.

PDFium has no table finder, and a run of its text can span a whole table row
(TeX sets a row as one text object, label to last value). The region finders
read words whose boxes end at the column gaps, as pdfplumber's and PyMuPDF's
words do, so each run holding a space is cut there (:func:`page_words`): the
run's characters are read from PDFium's text page (one ``FPDFText_GetText``
a run) and a word's edges from the boxes of its first and last characters
(``FPDFText_GetCharBox``), two calls a word, only with tables on.

The page's path objects give the rule segments and shaded cells
(:func:`page_drawings`); the tables are then found as the pdfplumber backend
finds those its ruled search does not (:func:`page_tables`): regions where
rules cross and rows of numbers read from the words
(:func:`~docparse.backends.table_whitespace.whitespace_regions`), zebra strips
joined, booktabs regions, caption regions and keyed lists.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable, Sequence
from typing import Any

from docparse.backends.base import TableRegion, TextSpan
from docparse.backends.table_candidates import (
    PageInputs,
    Segment,
    Word,
    rect_edges,
    ruled_clusters,
    vertical_rules,
)
from docparse.backends.table_combine import finish_tables, with_extra_tables
from docparse.backends.table_reading import (
    as_regions,
    region_box,
    region_grids,
)
from docparse.backends.table_regions import (
    TextLine,
    is_rule,
)
from docparse.backends.table_whitespace import whitespace_regions

Box4 = tuple[float, float, float, float]

#: PDFium's marks that stand for a shown character (see ``pypdfium2_runs._PDFIUM_CHARS``);
#: ``\r``/``\n`` are spaces there, so they cut words here.
_BREAKS = frozenset(" \t\r\n\u00a0")


class _CharReader:
    """Character text and boxes of one PDFium text page, through the raw C API."""

    def __init__(self, textpage: Any, raw: Any) -> None:
        self.raw = raw
        self.handle = textpage
        self.n_chars = int(raw.FPDFText_CountChars(textpage))
        self._edges = [ctypes.c_double() for _ in range(4)]
        self._refs = [ctypes.byref(e) for e in self._edges]

    def index_at(self, x: float, y: float) -> int:
        """The character at PDF point ``(x, y)`` (a point of tolerance), or -1."""
        return int(self.raw.FPDFText_GetCharIndexAtPos(self.handle, x, y, 1.0, 1.0))

    def text(self, start: int, count: int) -> str:
        """The text of characters ``start`` .. ``start + count - 1`` (a UTF-16 unit a character)."""
        count = min(count, self.n_chars - start)
        if count <= 0:
            return ""
        buf = ctypes.create_string_buffer(2 * (count + 1))
        ptr = ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort))
        written = int(self.raw.FPDFText_GetText(self.handle, start, count, ptr))
        return buf.raw[: 2 * max(written - 1, 0)].decode("utf-16-le", "replace")

    def x_edges(self, index: int) -> tuple[float, float] | None:
        """Left and right edge (PDF space) of character ``index``, or ``None``."""
        if not self.raw.FPDFText_GetCharBox(self.handle, index, *self._refs):
            return None
        return self._edges[0].value, self._edges[1].value


def _cut(span: TextSpan, reader: _CharReader, left: float, top: float) -> list[Word] | None:
    """The words of a run holding a space, with their own x extents, or ``None``
    when PDFium's characters at the run's place do not match its text."""
    b = span.bbox
    tokens = span.text.split()
    # The run's first character: at its left edge, on its middle line.
    start = reader.index_at(left + b.x0 + 0.5, top - (b.y0 + b.y1) / 2)
    if start < 0:
        return None
    chars = reader.text(start, len(span.text) + 8)
    words: list[Word] = []
    j = 0
    for token in tokens:
        while j < len(chars) and chars[j] in _BREAKS:
            j += 1
        piece = chars[j : j + len(token)]
        if len(piece) < len(token) or any(c in _BREAKS for c in piece):
            return None
        if words == [] and piece[0] != token[0]:
            return None  # another run's character at the run's left edge
        first, last = reader.x_edges(start + j), reader.x_edges(start + j + len(token) - 1)
        if first is None or last is None:
            return None
        x0, x1 = first[0] - left, last[1] - left
        if not b.x0 - 2 <= x0 <= x1 <= b.x1 + 2:
            return None
        words.append((x0, b.y0, x1, b.y1, token))
        j += len(token)
    return words


def page_words(
    spans: Iterable[TextSpan], textpage: Any, raw: Any, left: float, top: float
) -> list[Word]:
    """The page's words as the table finders read them (top-left page space).

    A run without a space is a word; one with spaces is cut into words at
    them (:func:`_cut`); a run PDFium's characters do not match stays whole.
    A run that touches the one before (:func:`_touching`) is one word with it.
    ``textpage``: the page's open PDFium text page; ``left``/``top``: the
    crop box's left and top edge in PDF space.
    """
    reader: _CharReader | None = None
    out: list[Word] = []
    prev_size = 0.0
    for s in spans:
        text = s.text.strip()
        if not text:
            continue
        b = s.bbox
        words: list[Word] | None = None
        # A run of leader dots alone is one leader, as the other backends' words give it:
        # a dot a word makes a table of contents a grid of dot columns.
        if " " in text and not _dots(text.replace(" ", "")):
            reader = reader or _CharReader(textpage, raw)
            words = _cut(s, reader, left, top)
        if words is None:
            words = [(b.x0, b.y0, b.x1, b.y1, text)]
        if out and _touching(out[-1], words[0], max(prev_size, s.size, 1.0)):
            p, w = out[-1], words[0]
            words[0] = (p[0], min(p[1], w[1]), w[2], max(p[3], w[3]), p[4] + w[4])
            out.pop()
        out.extend(words)
        prev_size = s.size
    return out


def _touching(a: Word, b: Word, size: float) -> bool:
    """Whether run ``b`` goes on from run ``a`` with no space between them, by the
    line text's test (:func:`~docparse.backends.lines.lines_from_spans`: a gap of
    0.15 of the font size): PDFium sets ``(8,333)`` apart as ``(8`` ``,`` ``333)``
    in Chromium's PDFs."""
    gap = b[0] - a[2]
    if not -0.5 <= gap <= 0.15 * size:
        return False
    # Boxes overlapping at all: PDFium's box of a comma is its glyph's, below the digits'.
    return b[1] < a[3] and a[1] < b[3]


def _dots(text: str) -> bool:
    return text.strip(".") == ""


def page_drawings(
    page: Any, raw: Any, left: float, top: float
) -> tuple[list[Segment], list[Box4], list[tuple[float, float, float]]]:
    """Rule segments, filled rectangles and horizontal rules ``(x0, y, x1)`` of the
    page's own path objects (not those inside form XObjects), top-left page space.

    A path's box stands for it: a thin one is a rule, a larger one a
    rectangle whose edges are segments only if it has at most five segments
    (a chart's curve is no frame).
    """
    segments: list[Segment] = []
    fills: list[Box4] = []
    rules: list[tuple[float, float, float]] = []
    edges = [ctypes.c_float() for _ in range(4)]
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    for k in range(raw.FPDFPage_CountObjects(page)):
        obj = raw.FPDFPage_GetObject(page, k)
        if not obj or raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
            continue
        if not raw.FPDFPageObj_GetBounds(obj, *edges):
            continue
        a, b, c, d = (e.value for e in edges)
        x0, y0, x1, y1 = a - left, top - d, c - left, top - b
        if is_rule(x0, y0, x1, y1):
            rules.append((x0, (y0 + y1) / 2, x1))
        thin = min(x1 - x0, y1 - y0) <= 2.0
        if not thin and raw.FPDFPath_CountSegments(obj) > 5:
            continue
        segments.extend(rect_edges(x0, y0, x1, y1))
        if (
            not thin
            and raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill_mode), ctypes.byref(stroke))
            and fill_mode.value
        ):
            fills.append((x0, y0, x1, y1))
    return segments, fills, rules


def _rows(t: TableRegion) -> Sequence[Sequence[str]]:
    return t.rows


def _inner_rules(
    segments: Sequence[Segment], words: Sequence[Word], clip: Sequence[float]
) -> list[float]:
    """The vertical rules inside ``clip``, or none if no rule has words of the
    region on both sides: a framed box of code or a callout is no table."""
    xs = vertical_rules(segments, clip)
    inside = [
        w
        for w in words
        if clip[0] <= (w[0] + w[2]) / 2 <= clip[2] and clip[1] <= (w[1] + w[3]) / 2 <= clip[3]
    ]
    parted = any(any(w[2] <= x for w in inside) and any(w[0] >= x for w in inside) for x in xs)
    return xs if parted else []


def page_tables(
    inputs: PageInputs, rules: Sequence[tuple[float, float, float]]
) -> tuple[TableRegion, ...]:
    """Tables of one page from its words, lines and drawings (``inputs``) and
    horizontal ``rules``.

    Ruled clusters parted by a vertical rule inside them and rows of numbers
    are read from the words (:func:`whitespace_regions`); then the steps every
    backend reading tables from words ends with
    (:func:`~docparse.backends.table_combine.finish_tables`: zebra strips
    joined, booktabs and open-grid tables, caption regions and keyed lists).
    """
    words, lines = inputs.words, inputs.lines
    clusters = ruled_clusters(inputs.segments, words)
    found = as_regions(
        g
        for clip in clusters
        if (inner := _inner_rules(inputs.segments, words, clip))
        for g in region_grids(words, clip, rules=inner, lines=lines)
    )
    alt = as_regions(whitespace_regions(inputs, clusters, lumped=False))
    found = with_extra_tables(found, alt, region_box, _rows)
    return finish_tables(found, inputs, rules)


def text_lines(lines: Iterable[Any]) -> tuple[TextLine, ...]:
    """The visual lines as ``(bbox, text)`` records."""
    return tuple(((ln.bbox.x0, ln.bbox.y0, ln.bbox.x1, ln.bbox.y1), ln.text) for ln in lines)

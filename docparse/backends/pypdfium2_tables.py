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
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from typing import Any

from docparse.backends.base import TableRegion, TextSpan
from docparse.backends.pypdfium2_paths import PagePaths
from docparse.backends.ruled_grid import RuledTable, find_grids
from docparse.backends.table_candidates import (
    PageInputs,
    Segment,
    Word,
    overlaps,
    rect_edges,
    ruled_clusters,
    vertical_rules,
)
from docparse.backends.table_checks import prose_table, rich_table, text_line_count
from docparse.backends.table_combine import (
    SIDE_SLACK,
    finish_tables,
    grow_headers,
    join_cut_grids,
    widen_to_open_sides,
    with_extra_tables,
)
from docparse.backends.table_grid import merge_symbol_cells
from docparse.backends.table_reading import (
    RegionGrid,
    as_regions,
    region_box,
    region_grids,
)
from docparse.backends.table_regions import (
    TextLine,
    is_rule,
)
from docparse.backends.table_repair import (
    column_starts,
    prefer_fuller_grids,
    split_stacked_rows,
    spread_merged_cells,
)
from docparse.backends.table_whitespace import numeric_tables_beyond, whitespace_regions

Box4 = tuple[float, float, float, float]

#: PDFium's marks that stand for a shown character (see ``pypdfium2_reader._PDFIUM_CHARS``);
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
        self._rect = raw.FS_RECTF()

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

    def loose_x(self, index: int) -> tuple[float, float] | None:
        """Left and right edge (PDF space) of character ``index``'s advance box, or ``None``."""
        if not self.raw.FPDFText_GetLooseCharBox(self.handle, index, ctypes.byref(self._rect)):
            return None
        return self._rect.left, self._rect.right

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
        first, last = (
            reader.x_edges(start + j),
            reader.x_edges(start + j + len(token) - 1),
        )
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
        size = max(prev_size, s.size, 1.0)
        if out and (
            _touching(out[-1], words[0], size)
            or (
                _near(out[-1], words[0], size)
                and _one_word(
                    reader := reader or _CharReader(textpage, raw),
                    out[-1],
                    words[0],
                    left,
                    top,
                )
            )
        ):
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


def _near(a: Word, b: Word, size: float) -> bool:
    """Whether run ``b`` starts on ``a``'s line more than the line text's space gap
    after it but at most half the font size: apart or one word, as PDFium's text
    tells (:func:`_one_word`). PDFium's boxes are the glyphs' own, and a narrow
    glyph (a ``1`` in tabular figures, an ``I``) is centred in a wider advance:
    Chromium's ``$109`` comes as runs ``$1`` ``09`` that far apart."""
    gap = b[0] - a[2]
    return 0.15 * size < gap <= 0.5 * size and b[1] < a[3] and a[1] < b[3]


def _one_word(reader: _CharReader, a: Word, b: Word, left: float, top: float) -> bool:
    """Whether PDFium's text sets run ``b``'s first character right after run
    ``a``'s last, no space between, and their advance boxes
    (``FPDFText_GetLooseCharBox``) meet: one word, the gap only the glyphs' sides."""
    # Found by a letter's or a digit's box, which spans the line's middle (a point's does not).
    if b[4][0].isalnum():
        index = reader.index_at(left + b[0] + 0.5, top - (b[1] + b[3]) / 2) - 1
    else:
        index = reader.index_at(left + a[2] - 0.5, top - (a[1] + a[3]) / 2)
    if index < 0 or reader.text(index, 2) != a[4][-1] + b[4][0]:
        return False
    before, after = reader.loose_x(index), reader.loose_x(index + 1)
    if before is None or after is None:
        return False
    return after[0] - before[1] <= 0.05 * max(b[3] - b[1], 1.0)


def _dots(text: str) -> bool:
    return text.strip(".") == ""


def page_drawings(
    page: Any, raw: Any, left: float, top: float
) -> tuple[list[Segment], list[Box4], list[tuple[float, float, float]], PagePaths]:
    """Rule segments, filled rectangles, horizontal rules ``(x0, y, x1)`` and the
    painted paths (:class:`~docparse.backends.pypdfium2_paths.PagePaths`, for the
    ruled-grid search) of the page's own path objects (not those inside form
    XObjects), top-left page space.

    A path's box stands for it: a thin one is a rule, a larger one a
    rectangle whose edges are segments only if it has at most five segments
    (a chart's curve is no frame).
    """
    segments: list[Segment] = []
    fills: list[Box4] = []
    rules: list[tuple[float, float, float]] = []
    paths = PagePaths(raw, left, top)
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
        if thin:
            # How a rule is painted matters only near a cluster: asked there (PagePaths.near).
            paths.add(obj, (x0, y0, x1, y1), None)
            segments.extend(rect_edges(x0, y0, x1, y1))
            continue
        painted = raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill_mode), ctypes.byref(stroke))
        filled, stroked = painted and fill_mode.value, painted and stroke.value
        if filled or stroked:
            paths.add(obj, (x0, y0, x1, y1), ("f" if filled else "") + ("s" if stroked else ""))
        if raw.FPDFPath_CountSegments(obj) > 5:
            continue
        segments.extend(rect_edges(x0, y0, x1, y1))
        if filled:
            fills.append((x0, y0, x1, y1))
    return segments, fills, rules, paths


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
    inputs: PageInputs,
    rules: Sequence[tuple[float, float, float]],
    paths: PagePaths | None = None,
) -> tuple[TableRegion, ...]:
    """Tables of one page from its words, lines and drawings (``inputs``),
    horizontal ``rules`` and painted ``paths``.

    Where rules cross, the cells between them are read by the shared ruled
    search (:func:`ruled_tables`); a cluster of rules it finds no grid in is
    read from its words if a vertical rule inside it parts them. Ruled grids
    then grow as the other backends' do (header lines over the first rule,
    open stub or last columns, pieces cut at an unruled row). A page whose
    ruled grids hold a real table is searched for rows of numbers only
    beyond them (:func:`numeric_tables_beyond`), any other page everywhere
    (:func:`whitespace_regions`); then the steps every backend reading
    tables from words ends with
    (:func:`~docparse.backends.table_combine.finish_tables`: zebra strips
    joined, booktabs and open-grid tables, caption regions and keyed lists).
    """
    words, lines = inputs.words, inputs.lines
    clusters = ruled_clusters(inputs.segments, words)
    ruled: list[RegionGrid] = []
    unread: list[Box4] = []
    for clip in clusters:
        grids = ruled_tables(paths, clip, inputs) if paths is not None else []
        ruled.extend(grids)
        if not grids:
            unread.append(clip)
    if ruled:
        vertical = [
            ((sg[0] + sg[2]) / 2, sg[1], sg[3])
            for sg in inputs.segments
            if sg[3] - sg[1] > sg[2] - sg[0]
        ]
        ruled = widen_to_open_sides(ruled, inputs, vertical)
        ruled = join_cut_grids(grow_headers(ruled, inputs), inputs)
    found = as_regions(
        [
            *ruled,
            *(
                g
                for clip in unread
                if (inner := _inner_rules(inputs.segments, words, clip))
                for g in region_grids(words, clip, rules=inner, lines=lines)
            ),
        ]
    )
    boxes = [w[:4] for w in words]
    alt = as_regions(whitespace_regions(inputs, clusters, lumped=False))
    if any(rich_table(rows, text_line_count(box, boxes)) for box, rows in ruled):
        # A statement ruled in part: its unruled rows are read from the words.
        beyond = as_regions(numeric_tables_beyond([g[0] for g in ruled], inputs, clusters))
        found = with_extra_tables(found, beyond, region_box, _rows, side_slack=SIDE_SLACK)
        # Tables of the words elsewhere on the page (a list of one value a row
        # under a ruled table) are added, but replace no ruled grid.
        found = with_extra_tables(found, alt, region_box, _rows, replace=False)
    else:
        found = with_extra_tables(found, alt, region_box, _rows)
    return finish_tables(found, inputs, rules)


def ruled_tables(paths: PagePaths, clip: Box4, inputs: PageInputs) -> list[RegionGrid]:
    """The ruled grids in ``clip`` (a cluster of crossing rules), their cells read
    from the page's words.

    The shared search (:func:`~docparse.backends.ruled_grid.find_grids`, PyMuPDF's
    ``lines`` strategy) reads the paths near the clip; where cell backgrounds
    (fill-only boxes) add edges of their own, the strict reading (strokes and
    thin rules only) replaces a grid it reads better
    (:func:`~docparse.backends.table_repair.prefer_fuller_grids`). A grid of
    fewer than :data:`MIN_CELLS` non-empty cells, or of prose, is none.
    """
    # Not cut to the page margins, as the words' reading of a cluster never was: a
    # table continued on the next page starts at the page's top, in the margin band.
    box = (clip[0], clip[1], clip[2], clip[3])
    near = paths.near(box)
    if not near:
        return []
    probe = _WordProbe([w for w in inputs.words if overlaps(w[:4], box)])
    lined = _grids(find_grids(near, box, probe), inputs.words)
    backgrounds = any(
        p["type"] == "f" and p["rect"][2] - p["rect"][0] > 3 and p["rect"][3] - p["rect"][1] > 3
        for p in near
    )
    if lined and backgrounds:
        strict = _grids(find_grids(near, box, probe, strict=True), inputs.words)
        choice = prefer_fuller_grids(lined, strict)
        lined = [g if i is None else strict[i] for g, i in zip(lined, choice, strict=True)]
    return lined


#: Ruled grids with fewer non-empty cells are no table (the other backends' default).
MIN_CELLS = 4


def _grids(tables: Iterable[RuledTable], words: Sequence[Word]) -> list[RegionGrid]:
    out: list[RegionGrid] = []
    for t in tables:
        rows = merge_symbol_cells(_cell_texts(t, words))
        if sum(1 for r in rows for c in r if c) < MIN_CELLS or prose_table(rows):
            continue
        width = max((len(r) for r in rows), default=0)
        out.append((t.bbox, [r + [""] * (width - len(r)) for r in rows]))
    return out


def _cell_texts(t: RuledTable, words: Sequence[Word]) -> list[list[str]]:
    """Cell strings of a ruled grid from the page's words: each word goes to the
    smallest cell holding its centre (detected cells may overlap); a merged
    cell's words spread over the columns it covers and lumped data lines split
    (:func:`~docparse.backends.table_repair.spread_merged_cells`,
    :func:`~docparse.backends.table_repair.split_stacked_rows`), as for
    PyMuPDF's grids."""
    boxes = [list(r.cells) for r in t.rows]
    left, top, right, bottom = t.bbox
    bucket: dict[tuple[int, int], list[Word]] = {}
    for w in words:
        cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
        if not (left <= cx <= right and top <= cy <= bottom):
            continue
        best: tuple[float, int, int] | None = None
        for ri, row in enumerate(boxes):
            for ci, c in enumerate(row):
                if c is not None and c[0] <= cx <= c[2] and c[1] <= cy <= c[3]:
                    area = (c[2] - c[0]) * (c[3] - c[1])
                    if best is None or area < best[0]:
                        best = (area, ri, ci)
        if best is not None:
            bucket.setdefault((best[1], best[2]), []).append(w)
    starts = column_starts(boxes)
    grid: list[list[str]] = []
    for ri, row in enumerate(boxes):
        cells = [None if c is None else bucket.get((ri, ci), []) for ci, c in enumerate(row)]
        spread = spread_merged_cells(cells, row, starts, _word_x)
        for part in split_stacked_rows(spread, _word_key):
            grid.append([_cell_text(ws) if ws else "" for ws in part])
    return grid


def _cell_text(words: Sequence[Word]) -> str:
    """A cell's words line by line, each line left to right: a word whose middle
    lies within the line's first word's height is on that line (PDFium's boxes
    are the glyphs', so the words of one line have different tops)."""
    out: list[Word] = []
    line: list[Word] = []
    for w in sorted(words, key=lambda w: w[1] + w[3]):
        if line and not line[0][1] <= (w[1] + w[3]) / 2 <= line[0][3]:
            out.extend(sorted(line, key=itemgetter(0)))
            line = []
        line.append(w)
    out.extend(sorted(line, key=itemgetter(0)))
    return " ".join(w[4] for w in out)


def _word_key(w: Word) -> tuple[float, float, str]:
    return w[1], w[3], w[4]


def _word_x(w: Word) -> tuple[float, float, float]:
    return w[0], w[2], w[3] - w[1]


class _WordProbe:
    """The words of a clip as the ruled search's characters (see
    :class:`~docparse.backends.ruled_grid.TextProbe`): a box holds text when a
    whole word lies inside it."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.words = words

    def any_inside(self, rect: Iterable[float]) -> bool:
        x0, y0, x1, y1 = rect
        return any(x0 <= w[0] and w[2] <= x1 and y0 <= w[1] and w[3] <= y1 for w in self.words)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(
            {"x0": w[0], "top": w[1], "x1": w[2], "bottom": w[3], "text": w[4]} for w in self.words
        )


def text_lines(lines: Iterable[Any]) -> tuple[TextLine, ...]:
    """The visual lines as ``(bbox, text)`` records."""
    return tuple(((ln.bbox.x0, ln.bbox.y0, ln.bbox.x1, ln.bbox.y1), ln.text) for ln in lines)

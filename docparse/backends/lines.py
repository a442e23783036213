"""Words to lines to blocks, for backends whose library gives words or text runs, not blocks.

pdfplumber gives words and pypdfium2 text runs: both are grouped here into
visual lines (a gap wider than a column gutter splits a line; super- and
subscripts join the line they sit on) and lines into blocks (vertically
adjacent, horizontally overlapping, same font size) before the shared
assembly, so the two backends make lines the same way.
"""

from __future__ import annotations

import collections
import itertools
import math
import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from docparse.backends.pages import TENTHS, Block, Line, TextSpan, line_facts, remember_tenth
from docparse.model import BBox, CoordOrigin
from docparse.text import LEADER_DOTS, dot_leader


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...]:
    return tuple(getattr(cls, name).__set__ for name in names)


_new = object.__new__
_BBOX_SET = _slot_setters(BBox, ("x0", "y0", "x1", "y1", "origin"))
_SPAN_SET = _slot_setters(TextSpan, ("text", "bbox", "size", "bold", "font"))
_LINE_SET = _slot_setters(Line, ("spans", "bbox", "text", "size", "bold"))
_BLOCK_SET = _slot_setters(Block, ("lines", "bbox", "role"))
#: Runs an iterator to its end, keeping nothing (the setters' ``map`` results are ``None``).
_drain: Callable[[Iterable[object]], None] = collections.deque[object](maxlen=0).extend


# The makers below give the objects the dataclasses' own __init__ gives,
# at about half the cost: a frozen dataclass sets each field through
# object.__setattr__, and a page has thousands of runs, each with a box.
# (tests/backends/test_lines.py checks them against the dataclasses.)
def new_bbox(x0: float, y0: float, x1: float, y1: float) -> BBox:
    """``BBox(x0, y0, x1, y1)`` with a top-left origin."""
    box = _new(BBox)
    sx0, sy0, sx1, sy1, sorigin = _BBOX_SET
    sx0(box, x0)
    sy0(box, y0)
    sx1(box, x1)
    sy1(box, y1)
    sorigin(box, "top-left")
    return box


def new_span(text: str, bbox: BBox, size: float, bold: bool, font: str) -> TextSpan:
    """``TextSpan(text, bbox, size, bold, font)``."""
    span = _new(TextSpan)
    stext, sbbox, ssize, sbold, sfont = _SPAN_SET
    stext(span, text)
    sbbox(span, bbox)
    ssize(span, size)
    sbold(span, bold)
    sfont(span, font)
    return span


def _new_many(
    cls: type, setters: Sequence[Callable[[Any, Any], None]], n: int, *columns: Iterable[Any]
) -> list[Any]:
    """``n`` new ``cls`` records, field ``k`` of each set from ``columns[k]`` by one
    C-level ``map`` over all records instead of a Python call a record."""
    objs: list[Any] = list(map(_new, itertools.repeat(cls, n)))
    for setter, column in zip(setters, columns, strict=True):
        _drain(map(setter, objs, column))
    return objs


def new_bboxes(
    x0: Iterable[float], y0: Iterable[float], x1: Iterable[float], y1: Iterable[float]
) -> list[BBox]:
    """``[BBox(a, b, c, d) for a, b, c, d in zip(x0, y0, x1, y1)]`` (top-left origin), a field
    at a time."""
    xs0 = list(x0)
    boxes: list[BBox] = _new_many(
        BBox, _BBOX_SET, len(xs0), xs0, y0, x1, y1, itertools.repeat("top-left")
    )
    return boxes


def new_spans(
    texts: Sequence[str],
    boxes: Iterable[BBox],
    sizes: Iterable[float],
    bolds: Iterable[bool],
    fonts: Iterable[str],
) -> list[TextSpan]:
    """``[TextSpan(*f) for f in zip(texts, boxes, sizes, bolds, fonts)]``, a field at a time."""
    spans: list[TextSpan] = _new_many(
        TextSpan, _SPAN_SET, len(texts), texts, boxes, sizes, bolds, fonts
    )
    return spans


def new_line(spans: tuple[TextSpan, ...], bbox: BBox) -> Line:
    """``Line(spans, bbox)``: its text, size and bold worked out as its
    ``__post_init__`` does (see :func:`make_line`)."""
    return make_line(spans, bbox)


def new_block(lines: tuple[Line, ...], bbox: BBox) -> Block:
    """``Block(lines, bbox)``."""
    block = _new(Block)
    slines, sbbox, srole = _BLOCK_SET
    slines(block, lines)
    sbbox(block, bbox)
    srole(block, None)
    return block


def lines_from_spans(words: Iterable[TextSpan]) -> list[Line]:
    """Group word-level spans into visual lines, split at gutter-wide gaps.

    ``words`` are non-blank spans in any order (a library's words or text
    runs); each becomes part of exactly one line.
    """
    spans = sorted(words, key=_top)
    if not spans:
        return []
    rows = _attach_scripts(*_rows(spans))
    lines: list[Line] = []
    append = lines.append
    # Rows a gap cut into pieces, with where their lines start: contents
    # entries are read over the whole page (see _join_contents_entries).
    cut: list[tuple[int, list[list[TextSpan]]]] = []
    led = False
    # Pieces joined over a gap the smaller of its two sizes would cut (a right-hand
    # column's heading, larger than the text, level with a left-hand line): the piece
    # and its gaps' positions, settled against the page's gutter at the end.
    doubts: list[tuple[list[TextSpan], list[int]]] = []
    for row in rows:
        if len(row) == 1:
            append(_one_span_line(row[0]))
            continue
        row.sort(key=_left)
        first = row[0]
        cur: list[TextSpan] = [first]
        # Whether each gap of the piece is a space (line_facts' test, on the
        # same gap and size as the gutter test: measured once for both).
        spaces: list[bool] = []
        pieces = [cur]
        b = first.bbox
        # The piece's box, grown as its spans are read (union_boxes' test of
        # their origins and order of comparisons: the same float wins ties).
        origin = b.origin
        left, top, right, bottom = b.x0, b.y0, b.x1, b.y1
        prev_x1, prev_size = right, first.size
        for s in row[1:]:
            s_size = s.size
            size = s_size if s_size > prev_size else prev_size
            if not size > 1.0:
                size = 1.0
            b = s.bbox
            x0 = b.x0
            gap = x0 - prev_x1
            prev_size_was = prev_size
            prev_x1, prev_size = b.x1, s_size
            if gap > 0.9 * size:
                append(
                    _one_span_line(cur[0])
                    if len(cur) == 1
                    else _piece_line(cur, spaces, left, top, right, bottom, origin)
                )
                cur = [s]
                spaces = []
                pieces.append(cur)
                origin = b.origin
                left, top, right, bottom = x0, b.y0, prev_x1, b.y1
            else:
                if b.origin != origin:
                    raise ValueError("cannot join boxes with different origins")
                # Doubtful: wider than the smaller size would allow, and than half the
                # larger one (a span's size may be nonsense, 0.1 pt).
                if (
                    s_size != prev_size_was
                    and gap > 0.45 * size
                    and gap > 0.9 * (s_size if s_size < prev_size_was else prev_size_was)
                ):
                    _doubt(doubts, cur)
                cur.append(s)
                spaces.append(gap > 0.15 * size)
                if x0 < left:
                    left = x0
                if b.y0 < top:
                    top = b.y0
                if prev_x1 > right:
                    right = prev_x1
                if b.y1 > bottom:
                    bottom = b.y1
        if len(pieces) > 1:
            cut.append((len(lines) - len(pieces) + 1, pieces))
            led = led or any(map(_may_lead, pieces))
        append(
            _one_span_line(cur[0])
            if len(cur) == 1
            else _piece_line(cur, spaces, left, top, right, bottom, origin)
        )
    if led or doubts:
        _settle_rows(lines, cut, led, doubts)
    return lines


def _doubt(doubts: list[tuple[list[TextSpan], list[int]]], piece: list[TextSpan]) -> None:
    """Note a doubtful gap before the span about to join ``piece``."""
    if not doubts or doubts[-1][0] is not piece:
        doubts.append((piece, []))
    doubts[-1][1].append(len(piece))


def _settle_rows(
    lines: list[Line],
    cut: list[tuple[int, list[list[TextSpan]]]],
    led: bool,
    doubts: list[tuple[list[TextSpan], list[int]]],
) -> None:
    """Contents entries cut by their leaders joined again (``led``), then the
    doubtful gaps that line up with the page's column gutter cut."""
    if led:
        _join_cut_rows(lines, cut)
    if doubts and cut:
        _cut_at_gutter(lines, doubts, cut)


#: Fewest gaps of cut rows a doubtful gap must overlap to be cut too (a column gutter),
#: and their least share of the page's cut gaps (the gaps of math set in a column line
#: up in a few rows, a gutter in a third or more of them).
_GUTTER_ROWS = 3
_GUTTER_SHARE = 0.25


def _cut_at_gutter(
    lines: list[Line],
    doubts: list[tuple[list[TextSpan], list[int]]],
    cut: list[tuple[int, list[list[TextSpan]]]],
) -> None:
    """Cut in ``lines`` the ``doubts`` (pieces, and where in them a doubtful gap is)
    at each gap that overlaps the gaps that cut other rows (``cut``), at least
    :data:`_GUTTER_SHARE` of them, :data:`_GUTTER_ROWS` of which end where it ends: a
    page's column gutter, which a space of a larger font spans."""
    gaps = [
        (a[-1].bbox.x1, b[0].bbox.x0) for _, pieces in cut for a, b in itertools.pairwise(pieces)
    ]
    need = max(_GUTTER_ROWS, _GUTTER_SHARE * len(gaps))
    if len(gaps) < need:
        return
    split: dict[int, list[list[TextSpan]]] = {}
    for piece, at in doubts:
        parts: list[list[TextSpan]] = []
        start = 0
        for i in at:
            lo, hi = piece[i - 1].bbox.x1, piece[i].bbox.x0
            over = [g1 for g0, g1 in gaps if g0 < hi and lo < g1]
            # Some end where it does: the next column's left edge.
            if len(over) >= need and sum(1 for g1 in over if abs(g1 - hi) <= 2.0) >= _GUTTER_ROWS:
                parts.append(piece[start:i])
                start = i
        if parts:
            parts.append(piece[start:])
            split[id(piece[0])] = parts
    if not split:
        return
    out: list[Line] = []
    for ln in lines:
        cut_parts = split.get(id(ln.spans[0])) if ln.spans else None
        if cut_parts is not None and len(ln.spans) == sum(map(len, cut_parts)):
            out.extend(map(_line, cut_parts))
        else:
            out.append(ln)
    lines[:] = out


def _join_cut_rows(lines: list[Line], cut: list[tuple[int, list[list[TextSpan]]]]) -> None:
    """Replace in ``lines`` the lines of the ``cut`` rows' contents entries
    (each row's pieces, with where their lines start) by one line each."""
    # From the last row up, so the positions of the rows above hold.
    joined = _join_contents_entries([pieces for _, pieces in cut])
    for (at, pieces), new in zip(reversed(cut), reversed(joined), strict=True):
        if len(new) != len(pieces):
            lines[at : at + len(pieces)] = map(_line, new)


#: Characters of a dot leader (:func:`docparse.text.dot_leader` reads the leaders).
_LEADER_CHARS = "".join(LEADER_DOTS)
_PAGE = r"(?:\d{1,4}|[ivxlcdm]{1,7})"
#: A page number at the end of a contents entry (arabic or roman).
_PAGE_NUMBER = re.compile(_PAGE, re.IGNORECASE)
#: A section number that opens a contents entry: ``7.1``, ``A.3.1``, ``IV.``, ``Chapter 2``.
_ENTRY_NUMBER = re.compile(
    r"(?:(?:chapter|appendix|part|section)\s+)?(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})(?:\.\d{1,3})*\.?",
    re.IGNORECASE,
)
#: A table cell's value: a number after the page number makes a row of values, not an entry.
_VALUE = re.compile(r"[$\u20ac\u00a3(\s]*[-\u2013]?\d[\d,.]*\s*[%)]*")


def _text(piece: Sequence[TextSpan]) -> str:
    return " ".join(s.text.strip() for s in piece)


def _leader_page_end(text: str) -> bool:
    """``text`` ends with a dot leader and the page number it leads to."""
    head = text.rstrip("0123456789")
    if head == text:
        head = text.rstrip("ivxlcdmIVXLCDM")
    return (
        1 <= len(text) - len(head) <= 7
        and _PAGE_NUMBER.fullmatch(text[len(head) :]) is not None
        and dot_leader(head, 4, at_end=True)
    )


def _may_lead(piece: list[TextSpan]) -> bool:
    """``piece`` may end with a dot leader (and a page number): worth reading
    its text. A sentence's last word (``process.``) is not."""
    last = piece[-1].text.rstrip()
    if _dots_end(last) or ".." in last or ". ." in last or "\u2026" in last:
        return True
    return len(piece) > 1 and _dots_end(piece[-2].text.rstrip())


def _dots_end(text: str) -> bool:
    """``text`` ends with a leader character after another or a space, or is one."""
    # A blank word has no last character ("" is in every string).
    return (
        bool(text)
        and text[-1] in _LEADER_CHARS
        and (len(text) == 1 or text[-2] in _LEADER_CHARS + " ")
    )


def _join_contents_entries(rows: list[list[list[TextSpan]]]) -> list[list[list[TextSpan]]]:
    """The pieces of ``rows`` with those of contents entries joined.

    A table of contents (or of figures) sets ``7.1``, a gap, ``debdiff``, a
    dot leader and the page number ``67`` on one baseline; the gaps around
    the title are wider than a column gutter, so the row is cut into pieces,
    which the blocks then group column-wise (the section numbers of a page
    as one paragraph, its page numbers as another, a page number near the
    top taken for a running head's). A piece ending with a dot leader and
    followed by a page number, or ending with both, is an entry: with the
    title before a leader set apart and the section number before the
    title, it is one line. On a page of three such entries or more, a row
    next to one of them whose page number ends where theirs do is an entry
    too, leader or not (a chapter's line: ``7``, ``Tips``, ``67``); a running
    head whose page number is set flush right above the entries is not.
    Pieces of another column on the baseline stay apart, and a row of
    values (``Cash ..... 123  456``) is no entry.
    """
    edges: Counter[int] = Counter()
    out = [_join_led(row, edges) for row in rows]
    if not edges:
        return out
    led = [r[0][0].bbox for r, new in zip(rows, out, strict=True) if len(new) < len(r)]
    return [
        _join_unled(row, edges) if len(row) > 1 and _next_to(row[0][0], led) else row for row in out
    ]


def _next_to(span: TextSpan, boxes: list[BBox]) -> bool:
    """A row (its first span) lies within two line heights of one of ``boxes``."""
    b = span.bbox
    reach = 2.0 * max(b.y1 - b.y0, 1.0)
    return any(o.y0 - b.y1 < reach and b.y0 - o.y1 < reach for o in boxes)


def _join_led(pieces: list[list[TextSpan]], edges: Counter[int]) -> list[list[TextSpan]]:
    """``pieces`` with each entry led by dots joined; the right edges of their
    page numbers counted in ``edges``."""
    out: list[list[TextSpan]] = []
    k = 0
    n = len(pieces)
    while k < n:
        piece = pieces[k]
        if not _may_lead(piece):
            out.append(piece)
            k += 1
            continue
        text = _text(piece)
        after = k + 1
        if _leader_page_end(text):
            entry = piece
        elif (
            after < n
            and dot_leader(text, 4, at_end=True)
            and _PAGE_NUMBER.fullmatch(_text(pieces[after]))
        ):
            entry = piece + pieces[after]
            after += 1
        else:
            out.append(piece)
            k += 1
            continue
        if _values_at(pieces, after):
            out.append(piece)
            k += 1
            continue
        edges[round(entry[-1].bbox.x1)] += 1
        # A leader set apart from its title: its dots sit on a grid.
        if out and not any(c.isalpha() for c in _text(entry).rstrip("ivxlcdmIVXLCDM")):
            entry = out.pop() + entry
        out.append(_with_number(out, entry))
        k = after
    return out


def _values_at(pieces: list[list[TextSpan]], k: int) -> bool:
    """``pieces[k]`` is a value with no title after it: the row is a table's
    (``Cash ..... 123  456``), not an entry beside the next column's ``8.1 Scope``."""
    if k >= len(pieces) or not _VALUE.fullmatch(_text(pieces[k])):
        return False
    return k + 1 == len(pieces) or not any(c.isalpha() for c in _text(pieces[k + 1]))


def _with_number(out: list[list[TextSpan]], entry: list[TextSpan]) -> list[TextSpan]:
    """``entry`` with the section number before it (taken off ``out``) in front."""
    if out and _ENTRY_NUMBER.fullmatch(_text(out[-1])):
        return out.pop() + entry
    return entry


def _join_unled(pieces: list[list[TextSpan]], edges: Counter[int]) -> list[list[TextSpan]]:
    """``pieces`` with a title and the page number that ends where the led
    entries' page numbers end (three of them at least) joined."""
    out: list[list[TextSpan]] = []
    for k, piece in enumerate(pieces):
        right = round(piece[-1].bbox.x1)
        if (
            edges[right - 1] + edges[right] + edges[right + 1] >= 3
            and out
            and any(c.isalpha() for c in _text(out[-1]))
            and _PAGE_NUMBER.fullmatch(_text(piece))
            and not _values_at(pieces, k + 1)
        ):
            entry = out.pop() + piece
            out.append(_with_number(out, entry))
        else:
            out.append(piece)
    return out


# Sort keys read in C (a page of text runs sorts thousands of spans).
_top = operator.attrgetter("bbox.y0")
_left = operator.attrgetter("bbox.x0")


def _rows(spans: list[TextSpan]) -> tuple[list[list[TextSpan]], list[tuple[float, float]]]:
    """``spans`` (sorted top down) in rows, with each row's anchor: its first
    span's vertical centre and half height (at least 0.5).

    A span joins the last row, or else one of the three rows above it, whose
    centre is within 0.6 of the smaller half height of the two from its own.
    """
    rows: list[list[TextSpan]] = []
    # A row is anchored on its first word's vertical centre; matching against
    # the row's growing union box would swallow the next line after one tall
    # glyph and interleave two lines' words.
    anchors: list[tuple[float, float]] = []
    # Comparisons instead of min()/max() calls: this runs once per word. The
    # last row's anchor (its centre, half height and 0.6 of that) and its
    # append are kept at hand: most words go on the line before them.
    amid = ahalf = areach = 0.0
    add_to_last: Callable[[TextSpan], None] | None = None
    # The centres of the three rows above the last one (minus infinity for
    # none) and the lowest of them: a word whose centre is lower than that
    # by more than 0.6 of its half height (no row's reach is more) starts a
    # row without a look at them, as the next line's first word does.
    m1 = m2 = m3 = lowest = -math.inf
    for s in spans:
        b = s.bbox
        y0, y1 = b.y0, b.y1
        mid = (y0 + y1) / 2
        height = y1 - y0
        half = (height if height > 1.0 else 1.0) / 2
        # 0.6 times the smaller half height of the two (as 0.6 * min()).
        if add_to_last is not None and abs(mid - amid) <= (0.6 * half if half < ahalf else areach):
            add_to_last(s)
            continue
        if not mid - lowest > 0.6 * half:
            # Then the three rows above the last one.
            placed = False
            n = len(rows)
            for k in range(n - 2, (n - 5 if n > 4 else -1), -1):
                kmid, khalf = anchors[k]
                if abs(mid - kmid) <= 0.6 * (half if half < khalf else khalf):
                    rows[k].append(s)
                    placed = True
                    break
            if placed:
                continue
        if add_to_last is not None:
            # The last row joins the three above it.
            m3, m2, m1 = m2, m1, amid
            # (A NaN centre can take no word: it may be passed over.)
            lowest = m1 if m1 > m2 else m2
            if m3 > lowest:
                lowest = m3
        row = [s]
        rows.append(row)
        add_to_last = row.append
        anchors.append((mid, half))
        amid, ahalf, areach = mid, half, 0.6 * half
    return rows, anchors


def _attach_scripts(
    rows: list[list[TextSpan]], anchors: list[tuple[float, float]]
) -> list[list[TextSpan]]:
    """Put superscripts and subscripts ("x2", "H2O") into the row they sit on.

    Read top-down, a superscript starts a row of its own before its base line
    does. A row of at most two short, smaller words that overlaps a
    neighbouring row's line box by most of its height joins that row.
    """
    keep = [True] * len(rows)
    n = len(rows)
    for k, row in enumerate(rows):
        if len(row) > 2 or len(row[0].text) > 3 or (len(row) == 2 and len(row[1].text) > 3):
            continue
        half = anchors[k][1]
        lo = hi = 0.0
        measured = False
        for j in (k + 1, k - 1):
            if not 0 <= j < n or not keep[j]:
                continue
            amid, ahalf = anchors[j]
            # The size test first: most short rows (a bullet, a cell's
            # figure) are set in their neighbours' size.
            if not half < 0.85 * ahalf:
                continue
            if not measured:
                # The row's extent, as min() and max() over its spans give it.
                measured = True
                b = row[0].bbox
                lo, hi = b.y0, b.y1
                if len(row) == 2:
                    b = row[1].bbox
                    if b.y0 < lo:
                        lo = b.y0
                    if b.y1 > hi:
                        hi = b.y1
            overlap = min(hi, amid + ahalf) - max(lo, amid - ahalf)
            if overlap > 0.5 * (hi - lo):
                rows[j].extend(row)
                keep[k] = False
                break
    if all(keep):
        return rows
    return [row for row, k in zip(rows, keep, strict=True) if k]


def _line(spans: list[TextSpan]) -> Line:
    if len(spans) == 1:
        return _one_span_line(spans[0])
    return make_line(tuple(spans), union_boxes([s.bbox for s in spans]))


def _piece_line(
    spans: list[TextSpan],
    spaces: list[bool],
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    origin: CoordOrigin,
) -> Line:
    """The line of a row's piece of several spans, ``spaces`` its gaps as
    :func:`line_facts` reads them, ``x0`` to ``y1`` the box of its spans (in
    ``origin``)."""
    box = new_bbox(x0, y0, x1, y1) if origin == "top-left" else BBox(x0, y0, x1, y1, origin)
    return _facts_line(tuple(spans), box, spaces)


def make_line(spans: tuple[TextSpan, ...], bbox: BBox) -> Line:
    """``Line(spans, bbox)``, without the dataclass's ``__init__``.

    Its text, size and bold are what :class:`~docparse.backends.pages.Line`'s
    ``__post_init__`` sets (:func:`~docparse.backends.pages.line_facts`); a
    line of one span takes them off the span at no cost.
    """
    if len(spans) == 1:
        return _one_span_line(spans[0], bbox)
    return _facts_line(spans, bbox, None)


def _facts_line(spans: tuple[TextSpan, ...], bbox: BBox, spaces: list[bool] | None) -> Line:
    line = _new(Line)
    sspans, sbbox, stext, ssize, sbold = _LINE_SET
    sspans(line, spans)
    sbbox(line, bbox)
    text, size, bold = line_facts(spans, spaces)
    stext(line, text)
    ssize(line, size)
    sbold(line, bold)
    return line


def _one_span_line(span: TextSpan, bbox: BBox | None = None) -> Line:
    """The line of one span (its box unless ``bbox``), its text, size and
    bold set as :class:`~docparse.backends.pages.Line` sets them for one span
    (its text; its size to 0.1 pt; bold when it is bold and not blank), at no
    cost."""
    line = _new(Line)
    sspans, sbbox, stext, ssize, sbold = _LINE_SET
    sspans(line, (span,))
    sbbox(line, span.bbox if bbox is None else bbox)
    text = span.text
    stext(line, text)
    z = span.size
    # (A zero or a non-float size skips the memo: see TENTHS.)
    ssize(line, (TENTHS.get(z) or remember_tenth(z)) if type(z) is float and z else round(z, 1))
    sbold(line, bool(span.bold) and bool(text.strip()))
    return line


def union_boxes(boxes: Sequence[BBox]) -> BBox:
    """The box holding ``boxes`` (one origin), made once instead of one union per box."""
    first = boxes[0]
    if len(boxes) == 1:
        return first
    origin = first.origin
    x0, y0, x1, y1 = first.x0, first.y0, first.x1, first.y1
    # Comparisons in min()'s and max()'s order: the same float wins ties.
    for b in boxes:
        if b.origin != origin:
            raise ValueError("cannot join boxes with different origins")
        if b.x0 < x0:
            x0 = b.x0
        if b.y0 < y0:
            y0 = b.y0
        if b.x1 > x1:
            x1 = b.x1
        if b.y1 > y1:
            y1 = b.y1
    if origin == "top-left":
        return new_bbox(x0, y0, x1, y1)
    return BBox(x0, y0, x1, y1, origin)


def blocks_from_lines(lines: list[Line]) -> tuple[Block, ...]:
    """Group lines into blocks: vertically adjacent, overlapping in x, same size."""
    order = sorted(lines, key=_top_left)
    sizes = list(map(_line_size, order))
    # Lines come top down, so a block whose last line ends more than the widest
    # allowed gap above the current line can take no later line either. (The
    # largest size, at least 1: max() of max(size, 1.0) a line, NaN alike.)
    reach = 0.7 * max(max(sizes), 1.0) if sizes else 0.7
    open_blocks: list[list[Line]] = []
    # Each open block (in the order blocks were opened) with its last line's
    # bottom, left, right and size, updated in place as lines join it.
    active: list[list[Any]] = []
    for ln, ln_size in zip(order, sizes, strict=True):
        b = ln.bbox
        top, x0, x1 = b.y0, b.x0, b.x1
        # min()/max() by hand, in their order (the first argument wins ties).
        size = 1.0 if ln_size < 1.0 else ln_size
        # A block left behind can take no line (its gap is at least reach);
        # dropping them keeps the scan short.
        if active and top - active[0][1] >= reach:
            active = [a for a in active if top - a[1] < reach]
        below, above = -0.5 * size, 0.7 * size
        # The newest open block first; the gap first: it rules out most open
        # blocks (those of the line's own row), read before the rest.
        for a in reversed(active):
            if below < top - a[1] < above:
                _blk, _bottom, lx0, lx1, lsize = a
                if (lx1 if lx1 < x1 else x1) - (lx0 if lx0 > x0 else x0) > 0 and abs(
                    ln_size - lsize
                ) < 1.0:
                    _blk.append(ln)
                    a[1] = b.y1
                    a[2] = x0
                    a[3] = x1
                    a[4] = ln_size
                    break
        else:
            blk = [ln]
            open_blocks.append(blk)
            active.append([blk, b.y1, x0, x1, ln_size])
    # Most blocks hold one line: its box is theirs, no union made.
    boxes = [
        blk[0].bbox if len(blk) == 1 else union_boxes([ln.bbox for ln in blk])
        for blk in open_blocks
    ]
    blocks: list[Block] = _new_many(
        Block, _BLOCK_SET, len(boxes), map(tuple, open_blocks), boxes, itertools.repeat(None)
    )
    return tuple(blocks)


_top_left = operator.attrgetter("bbox.y0", "bbox.x0")
_line_size = operator.attrgetter("size")

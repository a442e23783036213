"""Where tables can be on a page, decided cheaply before any grid is built.

A grid builder (PyMuPDF's or pdfplumber's ``find_tables``, or the shared word
grid) costs far more than reading the page's text: it walks every character
and every vector path it is given. The finders here look at a page's inputs,
read once (:class:`PageInputs`: words, text lines, rule segments, fills), and
return the regions worth a grid: clusters of crossing rules
(:func:`ruled_clusters`) and runs of rows holding aligned numbers
(:func:`numeric_regions`). The caption, booktabs and zebra-band finders live in
:mod:`docparse.backends.table_regions`. Inputs are plain tuples, not library objects,
so that any word source (PyMuPDF, pdfplumber, OCR) can use them.
"""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from docparse.backends.disjoint import DisjointSets

#: A word as the table code reads it: ``(x0, y0, x1, y1, text)``, top-left origin.
Word = tuple[float, float, float, float, str]
#: An axis-parallel rule segment ``(x0, y0, x1, y1)`` (zero or small thickness).
Segment = tuple[float, float, float, float]
Box4 = tuple[float, float, float, float]
#: A text line ``(bbox, text)``; the same shape as ``docparse.backends.table_regions.TextLine``.
Line = tuple[tuple[float, ...], str]

#: A value, with a significance or footnote mark after it ("5.3**", "12†").
_NUMBER = re.compile(r"^[(\-–—+$€£¥]*\d[\d.,]*%?\)?(?:%|[*†‡]{1,3})?$")
_TWO_DIGITS = re.compile(r"\d\D*\d")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
#: Marks a table sets in a cell in place of a value (not applicable, rounds
#: to zero, suppressed, no data): a row of them goes on like a row of values.
_PLACEHOLDER = re.compile(r"^(?:[†‡*#§¶–—\-]{1,3}|n/?a|N/?A)$")


@dataclass(frozen=True, slots=True)
class PageInputs:
    """What every table finder of one page reads, made once per page.

    ``segments``: rule-like vector paths (thin axis-parallel lines and
    rectangle edges) as boxes; ``fills``: filled rectangles (cell shading);
    ``lines``: the page's text lines ``(bbox, text)``.
    """

    width: float
    height: float
    words: tuple[Word, ...]
    lines: tuple[Line, ...]
    segments: tuple[Segment, ...] = ()
    fills: tuple[Box4, ...] = ()


def rect_edges(x0: float, y0: float, x1: float, y1: float, thin: float = 2.0) -> list[Segment]:
    """The rule segments a rectangle draws: itself when thin, else its four edges."""
    if y1 - y0 <= thin or x1 - x0 <= thin:
        return [(x0, y0, x1, y1)]
    return [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)]


def _horizontal(s: Segment) -> bool:
    return s[2] - s[0] >= s[3] - s[1]


def ruled_clusters(
    segments: Iterable[Segment], words: Sequence[Word], tolerance: float = 3.0
) -> list[Box4]:
    """Regions where rules cross: the boxes of connected groups of touching rule segments.

    A group counts when it has at least two horizontal and two vertical
    segments of 5 points or more and holds at least two words (a ruled table
    has cells with text; a plot's axes and a page frame mostly do not hold
    two words *inside* the frame... but may, which the grid builder then
    rejects). Segments are joined through a spatial hash, so a page of
    thousands of plot strokes costs a few milliseconds.
    """
    segs = [s for s in segments if max(s[2] - s[0], s[3] - s[1]) >= 5]
    if len(segs) < 4:
        return []
    sets = DisjointSets(len(segs))
    cell = 24.0
    buckets: dict[tuple[int, int], list[int]] = {}
    for i, (x0, y0, x1, y1) in enumerate(segs):
        lo_x, lo_y, hi_x, hi_y = x0 - tolerance, y0 - tolerance, x1 + tolerance, y1 + tolerance
        gx0, gy0 = int(lo_x // cell), int(lo_y // cell)
        gx1, gy1 = int(hi_x // cell), int(hi_y // cell)
        # Long segments span many buckets; cap the walk (a page frame is one segment).
        for gx in range(gx0, min(gx1, gx0 + 60) + 1):
            for gy in range(gy0, min(gy1, gy0 + 60) + 1):
                bucket = buckets.setdefault((gx, gy), [])
                for j in bucket:
                    # The cheap box test first: the group lookups only for touching pairs.
                    o = segs[j]
                    if lo_x <= o[2] and o[0] <= hi_x and lo_y <= o[3] and o[1] <= hi_y:
                        sets.join(i, j)
                bucket.append(i)
    out: list[Box4] = []
    centres: list[tuple[float, float]] = []
    for group in sets.groups(segs):
        n_h = sum(_horizontal(s) for s in group)
        if n_h < 2 or len(group) - n_h < 2:
            continue
        box = (
            min(s[0] for s in group),
            min(s[1] for s in group),
            max(s[2] for s in group),
            max(s[3] for s in group),
        )
        if _two_inside(box, words, centres):
            out.append((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2))
    return _side_by_side_joined(out)


def _two_inside(box: Box4, words: Sequence[Word], centres: list[tuple[float, float]]) -> bool:
    """Whether the centres of two words or more lie inside ``box``.

    ``centres``: the words' centres ``(y, x)`` sorted, made on the first call
    (empty until then) and shared by the calls for one page's groups, whose
    words are then found by bisection on ``y``.
    """
    if not centres:
        centres.extend(sorted(((w[1] + w[3]) / 2, (w[0] + w[2]) / 2) for w in words))
    lo = bisect_left(centres, (box[1], float("-inf")))
    hi = bisect_right(centres, (box[3], float("inf")))
    inside = 0
    for _, cx in centres[lo:hi]:
        if box[0] <= cx <= box[2]:
            inside += 1
            if inside >= 2:
                return True
    return False


def _side_by_side_joined(boxes: list[Box4], gap: float = 8.0) -> list[Box4]:
    """Clusters of one band of rows, a few points apart side by side, as one box.

    HTML tables printed to PDF (EDGAR filings) rule each value column on its
    own, with a small gap between the rules of neighbouring columns, so the
    rules of one table fall into one group per column or column group; a
    reader sees one table over the band the groups share.
    """
    out = sorted(boxes)
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(out):
            for j in range(i + 1, len(out)):
                b = out[j]
                shared = min(a[3], b[3]) - max(a[1], b[1])
                if (
                    shared >= 0.8 * min(a[3] - a[1], b[3] - b[1])
                    and b[0] - a[2] <= gap
                    and a[0] - b[2] <= gap
                ):
                    out[i] = union(a, b)
                    del out[j]
                    joined = True
                    break
            if joined:
                break
    return out


def can_split_columns(xs: Iterable[float], clip: Sequence[float], snap: float = 3.0) -> bool:
    """Whether drawn edges at ``xs`` (x positions) can cut ``clip`` into two or more columns.

    A ruled grid's columns lie between its vertical edges, and a table needs
    two columns, so three edge positions that stay apart once the finder snaps
    edges closer than ``snap`` points together (PyMuPDF's and pdfplumber's
    ``snap_tolerance``, 3). ``xs`` may hold more positions than the finder's
    vertical edges (every x a path reaches): the most positions any subset of
    them keeps apart is counted, picking from the left each position more than
    ``snap`` beyond the last one picked, so the answer is never "no" where the
    finder could see columns. A box around a paragraph or a code listing drawn
    as a frame, a stroke and a fill a point or two apart, a page frame, a
    plot's axes: two positions, one column, no search. A line crossing the
    clip's side is cut there, so positions just outside count at the side.
    """
    lo, hi = float(clip[0]), float(clip[2])
    inside = sorted(min(max(x, lo), hi) for x in xs if lo - snap <= x <= hi + snap)
    positions = 0
    last = float("-inf")
    for x in inside:
        if x - last > snap:
            positions += 1
            last = x
            if positions >= 3:
                return True
    return False


@functools.lru_cache(maxsize=8192)
def is_number(token: str) -> bool:
    """A token that reads as a value: ``1,234``, ``(5.6)``, ``-3``, ``12%``, ``$7`` (not a year).

    The finders ask this of the same words again and again (a page's tokens
    repeat, and each finder reads the region's words): answers are kept.
    """
    t = token.strip()
    return bool(_NUMBER.match(t)) and not _YEAR.match(t)


#: A row of :func:`_rows`: its box, its pieces' texts, their number, and each
#: piece's left and right edges.
_Row = tuple[list[float], list[str], int, list[tuple[float, float]]]


def _rows(lines: Sequence[Line]) -> list[_Row]:
    """Text lines grouped into rows by vertical overlap, top down.

    Each row is ``(box, texts, n_pieces, spans)``: ``spans`` holds each
    piece's left and right edge.
    """
    rows: list[_Row] = []
    for box, text in sorted(lines, key=lambda ln: (ln[0][1], ln[0][0])):
        span = (float(box[0]), float(box[2]))
        if rows and (box[1] + box[3]) / 2 < rows[-1][0][3]:
            b, texts, n, spans = rows[-1]
            b[0], b[1] = min(b[0], box[0]), min(b[1], box[1])
            b[2], b[3] = max(b[2], box[2]), max(b[3], box[3])
            texts.append(text)
            spans.append(span)
            rows[-1] = (b, texts, n + 1, spans)
        else:
            rows.append(([float(x) for x in box[:4]], [text], 1, [span]))
    return rows


def numeric_regions(
    lines: Sequence[Line], page_width: float, max_header: int | None = None
) -> list[Box4]:
    """Regions of whitespace tables: runs of rows holding two or more numbers.

    A row qualifies when at least two of its tokens are values
    (:func:`is_number`) and they are at least a third of its tokens (a
    sentence quoting two figures does not). Qualifying rows closer than
    three row heights form a run; short label rows between them (``Current
    assets:``) stay in, and so does a row whose values are placeholder marks
    (``†``, ``#``, ``—``, ``n/a``, counted as values). A run of at least two
    rows is grown upward over the header-like rows above it (at most 10 words,
    no sentence end); with ``max_header``, over at most that many unless
    they lead up to the run above (a statement's section labels). The runs
    are searched per page column as well as over the whole width, so a
    two-column page's tables are found in their column.
    """
    found: list[Box4] = []
    # The three passes see mostly the same rows: each row's tests are made once.
    memo: dict[tuple[str, tuple[str, ...]], bool] = {}
    for part in (lines, *page_halves(lines, page_width)):
        found.extend(_numeric_runs(part, memo, max_header))
    # A column's run inside a whole-width run is the same table seen in part.
    keep: list[Box4] = []
    for i, a in enumerate(found):
        inner = any(j != i and contains(b, a) and (b != a or j < i) for j, b in enumerate(found))
        if not inner:
            keep.append(a)
    return keep


def page_halves(lines: Sequence[Line], page_width: float) -> tuple[list[Line], list[Line]]:
    """The lines of the left and of the right page column (10 points of slack at the middle).

    A line starting right of the middle is the right column's, however short
    (a one-word label ``A`` of a statement there ends left of the middle's slack).
    """
    mid = page_width / 2
    return (
        [ln for ln in lines if ln[0][2] <= mid + 10 and ln[0][0] < mid - 10],
        [ln for ln in lines if ln[0][0] >= mid - 10],
    )


def numeric_row_boxes(lines: Sequence[Line]) -> list[Box4]:
    """The boxes of the rows holding two or more values (the rows :func:`numeric_regions` uses)."""
    return [(b[0], b[1], b[2], b[3]) for b, texts, *_ in _rows(lines) if _numeric_row(texts)]


def contains(outer: Sequence[float], inner: Sequence[float]) -> bool:
    """Whether box ``outer`` holds box ``inner`` (a point of slack on each side)."""
    return (
        outer[0] <= inner[0] + 1
        and outer[1] <= inner[1] + 1
        and outer[2] >= inner[2] - 1
        and outer[3] >= inner[3] - 1
    )


def _memo(
    known: dict[tuple[str, tuple[str, ...]], bool],
    test: str,
    texts: list[str],
    fn: Callable[[list[str]], bool],
) -> bool:
    key = (test, tuple(texts))
    found = known.get(key)
    if found is None:
        found = known[key] = fn(texts)
    return found


def _numeric_row(texts: list[str]) -> bool:
    """A row of values: two or more, and at least a third of its tokens."""
    text = " ".join(texts)
    if _TWO_DIGITS.search(text) is None:
        return False  # two values hold two digits: most lines of prose stop here
    # Dot leaders ("All ages . . . . 291,099") are not words.
    tokens = [t for t in text.split() if any(ch.isalnum() for ch in t)]
    values = sum(is_number(t) for t in tokens)
    return values >= 2 and values >= len(tokens) / 3


def _goes_on_row(texts: list[str]) -> bool:
    """A row that goes on a run of values: placeholder marks count as values."""
    # Inside a run, a placeholder mark stands where a value would; a run
    # is never started by marks alone (footnote marks in prose).
    tokens = [
        t for t in " ".join(texts).split() if any(ch.isalnum() for ch in t) or _PLACEHOLDER.match(t)
    ]
    values = sum(is_number(t) or bool(_PLACEHOLDER.match(t)) for t in tokens)
    return values >= 2 and values >= len(tokens) / 3


def _label(texts: list[str]) -> bool:
    """A row of ten words at most with no sentence end: a label or a column's head."""
    text = " ".join(texts)
    return len(text.split()) <= 10 and text.rstrip()[-1:] not in ".;"


def _column_heads(row: _Row, body: Sequence[_Row]) -> float | None:
    """Where the first column of a line of column heads over the rows ``body``
    ends (halfway to its second); None when ``row`` is no such line.

    Such a line may hold more words than a label (eleven one-word heads),
    but it is set in three or more phrases apart by a column gap (as
    :func:`phrase_gap`: 0.8 of the row's height), each a label, and every gap
    between two of them stands over a gutter of the body: some point of it
    that at least half the body's rows leave free. A line of prose has no
    such gaps; a row of values (the table above's last) is no head, nor
    is a line of ``Label: value`` fields.
    """
    box, texts, _, spans = row
    if not body or " ".join(texts).rstrip()[-1:] in ".;" or _goes_on_row(texts):
        return None
    if any(w.endswith(":") for t in texts for w in t.split()):
        return None  # a form's fields (``Fecha: 28/11/2012``), no heads
    gap = 0.8 * (box[3] - box[1])
    groups: list[list[float]] = []  # x0, x1, words
    names: list[str] = []
    for (x0, x1), text in sorted(zip(spans, texts, strict=True)):
        if groups and x0 - groups[-1][1] < gap:
            groups[-1][1] = max(groups[-1][1], x1)
            groups[-1][2] += len(text.split())
            names[-1] += " " + text
        else:
            groups.append([x0, x1, len(text.split())])
            names.append(text)
    if names[0] in names[1:]:
        return None  # the stub's head again: a second table beside the first
    if any(is_number(n) for n in names):
        return None  # a value beside a long label (a contents line's page) is no head
    if len(groups) < 3 or max(g[2] for g in groups) > 10:
        return None
    # Each head stands over the body: a line beside the table in another page
    # column (prose on the heads' baseline) is no head of it.
    lo = min(s[0] for r in body for s in r[3])
    hi = max(s[1] for r in body for s in r[3])
    if any(g[1] <= lo or g[0] >= hi for g in groups):
        return None
    for left, right in itertools.pairwise(groups):
        lo, hi = left[1], right[0]
        # Coverage only changes at piece edges: test the midpoints between them.
        cuts = sorted({lo, hi, *(x for r in body for s in r[3] for x in s if lo < x < hi)})
        free = [
            sum(not any(s[0] < x < s[1] for s in r[3]) for r in body)
            for x in ((a + b) / 2 for a, b in itertools.pairwise(cuts))
        ]
        if not free or max(free) < 0.5 * len(body):
            return None
    return (groups[0][1] + groups[1][0]) / 2


def _header_top(
    rows: Sequence[_Row], run: Sequence[int], label: Callable[[list[str]], bool]
) -> int:
    """The first of the header rows above the run of values ``run`` (row indices).

    Going up, labels (``label``) join while they stand close (2.5 row
    heights), and so does a line of column heads (:func:`_column_heads`).
    Above such a line only heads that span some of its columns go on: they
    stand right of its first column (the stub), where a caption's last line
    or a lead-in starts over the stub and stays out.
    """
    top = run[0]
    body = [rows[r] for r in run]
    stub: float | None = None
    for k in range(top - 1, -1, -1):
        heads = None if label(rows[k][1]) else _column_heads(rows[k], body)
        if heads is not None:
            stub = heads if stub is None else min(stub, heads)
        elif not label(rows[k][1]) or (stub is not None and rows[k][0][0] < stub):
            break
        height = max(rows[k][0][3] - rows[k][0][1], 6.0)
        if rows[top][0][1] - rows[k][0][3] > 2.5 * height:
            break
        top = k
    return top


def _values_apart(texts: list[str], numbers: int = 1) -> bool:
    """A row whose last two or more pieces are each one value, set apart from its label.

    A long label (``Loss/(gain) related to extinguishment of junior subordinated
    debt | 3 | (34) | (289)``) outnumbers its values, but prose quoting figures
    runs them into its own line; values standing apart, one a piece, after a
    label of one piece, are columns. A placeholder mark (``—``) stands where
    a value would; at least ``numbers`` of the pieces are numbers.
    """
    tail = values = 0
    for text in reversed(texts):
        t = text.strip()
        if is_number(t):
            values += 1
        elif not _PLACEHOLDER.match(t):
            break
        tail += 1
    # One label piece: prose of the other page column on the row is a second one.
    return tail >= 2 and values >= numbers and len(texts) == tail + 1


def _numeric_runs(
    lines: Sequence[Line],
    memo: dict[tuple[str, tuple[str, ...]], bool] | None = None,
    max_header: int | None = None,
) -> list[Box4]:
    rows = _rows(lines)
    out: list[Box4] = []
    known = {} if memo is None else memo

    def numeric(texts: list[str]) -> bool:
        # A label too long for the share of values, its two or more values set
        # apart (``Common stock repurchases for tax withholding on employee
        # equity plans | 41 | 65,344 | —``), starts a run as well as going on one.
        return _memo(known, "numeric", texts, _numeric_row) or _values_apart(texts, 2)

    def goes_on(texts: list[str]) -> bool:
        return _memo(known, "goes_on", texts, _goes_on_row) or _values_apart(texts)

    def header(texts: list[str]) -> bool:
        return _memo(known, "label", texts, _label)

    previous: int | None = None  # the last row of the run before
    i = 0
    while i < len(rows):
        if not numeric(rows[i][1]):
            i += 1
            continue
        run = [i]
        j = i + 1
        while j < len(rows):
            height = max(rows[j - 1][0][3] - rows[j - 1][0][1], 6.0)
            if rows[j][0][1] - rows[run[-1]][0][3] > 3 * height:
                break
            if goes_on(rows[j][1]):
                run.append(j)
            elif not header(rows[j][1]):
                break
            j += 1
        if len(run) >= 2:
            top = _header_top(rows, run, header)
            # Header-like rows all the way up to the run above (``Stockholders'
            # equity:``, ``Preferred stock:`` between a statement's value rows)
            # keep the region grown over them; otherwise at most ``max_header``
            # lines: above them is the lead-in (``... were as follows:``).
            if max_header is not None and (previous is None or top > previous):
                top = max(top, run[0] - max_header)
            previous = run[-1]
            chosen = [rows[r][0] for r in range(top, run[-1] + 1)]
            out.append(
                (
                    min(b[0] for b in chosen) - 2,
                    min(b[1] for b in chosen) - 1,
                    max(b[2] for b in chosen) + 2,
                    max(b[3] for b in chosen) + 1,
                )
            )
        i = max(j, i + 1)
    return out


def vertical_rules(segments: Iterable[Segment], clip: Sequence[float]) -> list[float]:
    """x positions of the vertical rule segments inside ``clip`` (at least 5 points tall)."""
    return sorted(
        {
            round((s[0] + s[2]) / 2, 1)
            for s in segments
            if s[3] - s[1] >= 5
            and s[2] - s[0] < s[3] - s[1]
            and clip[0] < s[0] < clip[2]
            and s[1] < clip[3]
            and s[3] > clip[1]
        }
    )


def phrase_gap(words: Sequence[Word]) -> float:
    """The gap between two words that splits a row into phrases (cells).

    0.8 times the median word height: wider than a word space at any type
    size, narrower than the gap between two columns. ``words`` is not empty.
    """
    heights = sorted(w[3] - w[1] for w in words)
    return 0.8 * heights[len(heights) // 2]


def words_box(words: Iterable[Word]) -> Box4:
    """The smallest box holding every word of a non-empty ``words``."""
    ws = list(words)
    return (
        min(w[0] for w in ws),
        min(w[1] for w in ws),
        max(w[2] for w in ws),
        max(w[3] for w in ws),
    )


def union(a: Sequence[float], b: Sequence[float]) -> Box4:
    """The smallest box holding both boxes."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    """Two boxes ``(x0, y0, x1, y1)`` share some area."""
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])

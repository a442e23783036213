"""Where tables can be on a page, decided cheaply before any grid is built.

A grid builder (PyMuPDF's or pdfplumber's ``find_tables``, or the shared word
grid) costs far more than reading the page's text: it walks every character
and every vector path it is given. The finders here look at a page's inputs,
read once (:class:`PageInputs`: words, text lines, rule segments, fills), and
return the regions worth a grid: clusters of crossing rules
(:func:`ruled_clusters`) and runs of rows holding aligned numbers
(:func:`numeric_regions`). The caption, booktabs and zebra-band finders live in
:mod:`docparse.backends.tables`. Inputs are plain tuples, not library objects,
so that any word source (PyMuPDF, pdfplumber, OCR) can use them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: A word as the table code reads it: ``(x0, y0, x1, y1, text)``, top-left origin.
Word = tuple[float, float, float, float, str]
#: An axis-parallel rule segment ``(x0, y0, x1, y1)`` (zero or small thickness).
Segment = tuple[float, float, float, float]
Box4 = tuple[float, float, float, float]
#: A text line ``(bbox, text)``; the same shape as ``docparse.backends.tables.TextLine``.
Line = tuple[tuple[float, ...], str]

_NUMBER = re.compile(r"^[(\-–—+$€£¥]*\d[\d.,]*%?\)?[%*]?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


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
    parent = list(range(len(segs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cell = 24.0
    buckets: dict[tuple[int, int], list[int]] = {}
    for i, (x0, y0, x1, y1) in enumerate(segs):
        gx0, gy0 = int((x0 - tolerance) // cell), int((y0 - tolerance) // cell)
        gx1, gy1 = int((x1 + tolerance) // cell), int((y1 + tolerance) // cell)
        # Long segments span many buckets; cap the walk (a page frame is one segment).
        for gx in range(gx0, min(gx1, gx0 + 60) + 1):
            for gy in range(gy0, min(gy1, gy0 + 60) + 1):
                for j in buckets.setdefault((gx, gy), []):
                    a, b = find(i), find(j)
                    if a == b:
                        continue
                    o = segs[j]
                    if (
                        x0 - tolerance <= o[2]
                        and o[0] <= x1 + tolerance
                        and y0 - tolerance <= o[3]
                        and o[1] <= y1 + tolerance
                    ):
                        parent[a] = b
                buckets[(gx, gy)].append(i)
    groups: dict[int, list[Segment]] = {}
    for i, s in enumerate(segs):
        groups.setdefault(find(i), []).append(s)
    out: list[Box4] = []
    for group in groups.values():
        n_h = sum(_horizontal(s) for s in group)
        if n_h < 2 or len(group) - n_h < 2:
            continue
        box = (
            min(s[0] for s in group),
            min(s[1] for s in group),
            max(s[2] for s in group),
            max(s[3] for s in group),
        )
        inside = sum(
            box[0] <= (w[0] + w[2]) / 2 <= box[2] and box[1] <= (w[1] + w[3]) / 2 <= box[3]
            for w in words
        )
        if inside >= 2:
            out.append((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2))
    return out


def can_split_columns(xs: Iterable[float], clip: Sequence[float], tolerance: float = 1.0) -> bool:
    """Whether drawn edges at ``xs`` (x positions) can cut ``clip`` into two or more columns.

    A ruled grid's columns lie between its vertical edges, so a region whose
    drawn paths stand at fewer than three distinct x positions inside it (a
    box around a paragraph, a page frame, a plot's axes) gives one column at
    most, which no table reading keeps
    (:func:`~docparse.backends.tables.prose_table`). Positions closer than
    ``tolerance`` count as one; the finders snap edges 3 points apart, so
    this never counts fewer positions than they see.
    """
    inside = sorted(x for x in xs if clip[0] - tolerance <= x <= clip[2] + tolerance)
    positions = 0
    last = float("-inf")
    for x in inside:
        if x - last > tolerance:
            positions += 1
            if positions >= 3:
                return True
        last = x
    return False


def is_number(token: str) -> bool:
    """A token that reads as a value: ``1,234``, ``(5.6)``, ``-3``, ``12%``, ``$7`` (not a year)."""
    t = token.strip()
    return bool(_NUMBER.match(t)) and not _YEAR.match(t)


def _rows(lines: Sequence[Line]) -> list[tuple[list[float], list[str], int]]:
    """Text lines grouped into rows by vertical overlap: ``(box, texts, n_pieces)``, top down."""
    rows: list[tuple[list[float], list[str], int]] = []
    for box, text in sorted(lines, key=lambda ln: (ln[0][1], ln[0][0])):
        if rows and (box[1] + box[3]) / 2 < rows[-1][0][3]:
            b, texts, n = rows[-1]
            b[0], b[1] = min(b[0], box[0]), min(b[1], box[1])
            b[2], b[3] = max(b[2], box[2]), max(b[3], box[3])
            texts.append(text)
            rows[-1] = (b, texts, n + 1)
        else:
            rows.append(([float(x) for x in box[:4]], [text], 1))
    return rows


def numeric_regions(lines: Sequence[Line], page_width: float) -> list[Box4]:
    """Regions of whitespace tables: runs of rows holding two or more numbers.

    A row qualifies when at least two of its tokens are values
    (:func:`is_number`) and they are at least a third of its tokens (a
    sentence quoting two figures does not). Qualifying rows closer than
    three row heights form a run; short label rows between them (``Current
    assets:``) stay in. A run of at least two rows is grown upward over up
    to four header-like rows (at most 10 words, no sentence end). The runs
    are searched per page column as well as over the whole width, so a
    two-column page's tables are found in their column.
    """
    mid = page_width / 2
    found: list[Box4] = []
    for part in (
        lines,
        [ln for ln in lines if ln[0][2] <= mid + 10],
        [ln for ln in lines if ln[0][0] >= mid - 10],
    ):
        found.extend(_numeric_runs(part))
    # A column's run inside a whole-width run is the same table seen in part.
    keep: list[Box4] = []
    for i, a in enumerate(found):
        inner = any(j != i and _contains(b, a) and (b != a or j < i) for j, b in enumerate(found))
        if not inner:
            keep.append(a)
    return keep


def _contains(outer: Sequence[float], inner: Sequence[float]) -> bool:
    return (
        outer[0] <= inner[0] + 1
        and outer[1] <= inner[1] + 1
        and outer[2] >= inner[2] - 1
        and outer[3] >= inner[3] - 1
    )


def _numeric_runs(lines: Sequence[Line]) -> list[Box4]:
    rows = _rows(lines)
    out: list[Box4] = []

    def numeric(texts: list[str]) -> bool:
        # Dot leaders ("All ages . . . . 291,099") are not words.
        tokens = [t for t in " ".join(texts).split() if any(ch.isalnum() for ch in t)]
        values = sum(is_number(t) for t in tokens)
        return values >= 2 and values >= len(tokens) / 3

    def header(texts: list[str]) -> bool:
        text = " ".join(texts)
        return len(text.split()) <= 10 and text.rstrip()[-1:] not in ".;"

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
            if numeric(rows[j][1]):
                run.append(j)
            elif not header(rows[j][1]):
                break
            j += 1
        if len(run) >= 2:
            top = run[0]
            k = top - 1
            while k >= 0 and top - k <= 4 and header(rows[k][1]):
                height = max(rows[k][0][3] - rows[k][0][1], 6.0)
                if rows[top][0][1] - rows[k][0][3] > 2.5 * height:
                    break
                top = k
                k -= 1
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


def union(a: Sequence[float], b: Sequence[float]) -> Box4:
    """The smallest box holding both boxes."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    """Two boxes ``(x0, y0, x1, y1)`` share some area."""
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


# ------------------------------------------------------------------------------ word grids


def baseline_rows(words: Sequence[Word]) -> list[list[Word]]:
    """Words grouped into rows by their baselines, top down; each row left to right.

    A word joins the row above when its vertical centre lies inside that
    row's extent: a superscript or a taller bold word stays on its line.
    """
    rows: list[list[Word]] = []
    bottom = top = float("-inf")
    for w in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        mid = (w[1] + w[3]) / 2
        if rows and top <= mid <= bottom:
            rows[-1].append(w)
            bottom = max(bottom, min(w[3], mid + (bottom - top)))
        else:
            rows.append([w])
            top, bottom = w[1], w[3]
    for r in rows:
        r.sort(key=lambda w: w[0])
    return rows


def _phrases(row: Sequence[Word], min_gap: float) -> list[list[Word]]:
    """A row's words split where the gap is wider than ``min_gap`` (cells of one row)."""
    out: list[list[Word]] = []
    for w in row:
        if out and w[0] - out[-1][-1][2] <= min_gap:
            out[-1].append(w)
        else:
            out.append([w])
    return out


def _free_stretches(
    spans: Sequence[tuple[float, float]], allowed: int, min_width: float
) -> list[tuple[float, float]]:
    """x-stretches wider than ``min_width`` that at most ``allowed`` of ``spans`` cover."""
    events = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
    lo = min(a for a, _ in spans)
    hi = max(b for _, b in spans)
    out: list[tuple[float, float]] = []
    depth = 0
    free_from: float | None = None
    for x, step in events:
        before = depth
        depth += step
        if before > allowed >= depth:
            free_from = x
        elif before <= allowed < depth and free_from is not None:
            if x - free_from > min_width and lo < free_from and x < hi:
                out.append((free_from, x))
            free_from = None
    return out


def shared_gaps(rows: Sequence[Sequence[Word]], min_gap: float) -> list[float]:
    """Column boundaries: x positions of gaps that (nearly) every row leaves free.

    Each row is cut into phrases at gaps wider than ``min_gap``; a boundary
    sits in the middle of every stretch that at most a tenth of the rows'
    phrases cover (a title or a spanning header crossing the gap does not
    hide it). Columns of numbers set a single space apart (typewriter
    tables, dense statistics) leave narrower gaps: a stretch that no more
    than a tenth of the rows' *words* cover, with numbers on both sides of
    it in most rows that reach across it, is a boundary too. Returns the
    outer edges as well, just outside the words.
    """
    if not rows:
        return []
    phrases = [(p[0][0], p[-1][2]) for r in rows for p in _phrases(r, min_gap)]
    allowed = len(rows) // 10
    cuts = [(a + b) / 2 for a, b in _free_stretches(phrases, allowed, min_gap)]
    # Narrow gaps are read from the rows of values: header words above them
    # (stacked, centred over two columns) would hide them.
    body = [r for r in rows if sum(is_number(w[4]) for w in r) >= 2] or list(rows)
    words = [(w[0], w[2]) for r in body for w in r]
    for a, b in _free_stretches(words, len(body) // 10, 0.2 * min_gap):
        mid = (a + b) / 2
        if any(a - 1 <= c <= b + 1 for c in cuts):
            continue
        both = numeric = 0
        for r in body:
            left = [w for w in r if w[2] <= a + 0.5]
            right = [w for w in r if w[0] >= b - 0.5]
            if left and right:
                both += 1
                numeric += is_number(left[-1][4]) and is_number(right[0][4])
        if both and numeric >= 0.6 * both:
            cuts.append(mid)
    lo = min(a for a, _ in phrases)
    hi = max(b for _, b in phrases)
    return [lo - 1, *sorted(cuts), hi + 1]


_SYMBOL = re.compile(r"^[$€£¥(]+$")
_CLOSER = re.compile(r"^[)%]+$")
_LOOSE_VALUE = re.compile(r"^([$€£¥(]+)\s+(?=[\d.(])|(?<=[\d.])\s+([)%]+)$")


def merge_symbol_cells(grid: list[list[str]]) -> list[list[str]]:
    """``$``, ``(`` cells joined to the value on their right, ``)``, ``%`` to the one on their left.

    Financial statements print the currency sign and the closing bracket of
    a negative value as separate text in a column of their own, or a space
    apart in the value's cell (``$ 2,535``, ``(316 )``); columns left empty
    afterwards are dropped.
    """
    out = [[_LOOSE_VALUE.sub(lambda m: m.group(1) or m.group(2), c) for c in r] for r in grid]
    for row in out:
        for i, cell in enumerate(row):
            text = cell.strip()
            if _SYMBOL.match(text):
                j = next((k for k in range(i + 1, len(row)) if row[k].strip()), None)
                if j is not None and not _SYMBOL.match(row[j].strip()):
                    row[j] = text + row[j].strip()
                    row[i] = ""
            elif _CLOSER.match(text):
                j = next((k for k in range(i - 1, -1, -1) if row[k].strip()), None)
                if j is not None:
                    row[j] = row[j].strip() + text
                    row[i] = ""
    width = max((len(r) for r in out), default=0)
    keep = [c for c in range(width) if any(c < len(r) and r[c].strip() for r in out)]
    return _join_split_columns([[r[c] if c < len(r) else "" for c in keep] for r in out])


def _join_split_columns(grid: list[list[str]]) -> list[list[str]]:
    """Two neighbouring value columns that no row fills both of, read as one column.

    A ``$`` printed in a cell of its own puts the values of ``$`` rows one
    column right of the others (HTML ``colspan``, a ruled grid's merged
    cells); once the signs are joined to their values the two columns
    interleave. Columns are joined only when each holds values (numbers)
    and no row, header rows included, has text in both.
    """
    if not grid:
        return grid
    c = 1
    while c < max(len(r) for r in grid):
        left = [r[c - 1].strip() if c - 1 < len(r) else "" for r in grid]
        right = [r[c].strip() if c < len(r) else "" for r in grid]
        clash = any(a and b for a, b in zip(left, right, strict=True))
        numbers = all(any(is_number(v) for v in col) for col in (left, right))
        if not clash and numbers and all(is_number(v) or not v for v in left + right):
            for r in grid:
                if c < len(r):
                    r[c - 1] = r[c - 1].strip() or r[c].strip()
                    del r[c]
            continue
        c += 1
    return grid


def word_grid(
    words: Sequence[Word],
    clip: Sequence[float],
    edges: Sequence[float] | None = None,
    rules: Sequence[float] = (),
) -> tuple[Box4, list[list[str]]] | None:
    """The grid of the words in ``clip``, rows from baselines, columns from ``edges`` or gaps.

    Columns lie between consecutive ``edges`` (x positions: drawn column
    rules or shading edges) or, without them, between the gaps the rows
    share (:func:`shared_gaps`). Each row is cut into phrases at wide gaps;
    a phrase goes to the column holding its left end (a header spanning two
    columns sits in the first, as ICDAR's ground truth places it), so a cell
    of several words stays one cell. ``None`` when the clip holds no words
    or there are fewer than two columns. ``rules`` (x positions of vertical
    rules) add column boundaries to the gaps where no gap is near them: a
    table ruled between column groups only.
    """
    inside = [
        w
        for w in words
        if clip[0] <= (w[0] + w[2]) / 2 <= clip[2] and clip[1] <= (w[1] + w[3]) / 2 <= clip[3]
    ]
    if not inside:
        return None
    heights = sorted(w[3] - w[1] for w in inside)
    min_gap = 0.8 * heights[len(heights) // 2]
    rows = baseline_rows(inside)
    xs = sorted(edges) if edges else shared_gaps(rows, min_gap)
    if xs and not edges:
        for x in rules:
            if xs[0] < x < xs[-1] and all(abs(x - e) > min_gap for e in xs):
                xs.append(x)
        xs.sort()
    if len(xs) < 3:
        return None
    n = len(xs) - 1
    grid: list[list[str]] = []
    for row in rows:
        cells: list[list[str]] = [[] for _ in range(n)]
        # With drawn edges, a phrase that crosses a rule is two cells; a phrase
        # of numbers set a space apart is several cells, one per number.
        pieces: list[list[Word]] = []
        for p in [[w] for w in row] if edges else _phrases(row, min_gap):
            if len(p) > 1 and all(is_number(w[4]) for w in p):
                pieces.extend([w] for w in p)
            else:
                pieces.append(p)
        for piece in pieces:
            x = (piece[0][0] + piece[0][2]) / 2 if edges or len(piece) == 1 else piece[0][0] + 0.5
            col = 0
            while col < n - 1 and x > xs[col + 1]:
                col += 1
            cells[col].extend(w[4] for w in piece)
        grid.append([" ".join(c) for c in cells])
    box = (
        min(w[0] for w in inside),
        min(w[1] for w in inside),
        max(w[2] for w in inside),
        max(w[3] for w in inside),
    )
    return box, merge_symbol_cells(grid)

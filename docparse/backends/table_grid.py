"""Table grids read from a region's words: rows from baselines, columns from shared gaps.

Given a region known to hold a table (from any finder of
:mod:`docparse.backends.table_candidates` or :mod:`docparse.backends.table_regions`),
:func:`word_grid` reads its cells from the words alone, the way a reader does:
rows are baselines (:func:`~docparse.backends.table_rows.baseline_rows`),
columns the x-gaps every row leaves free (:func:`shared_gaps`), and currency
signs, brackets and percent signs join the value they belong to
(:func:`merge_symbol_cells`). Regions holding two tables stacked or side by
side are cut into one region per table (:func:`stacked_tables`,
:func:`side_by_side_tables`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import pairwise

from docparse.backends.table_candidates import Box4, Word, is_number, phrase_gap, words_box
from docparse.backends.table_headers import NIL_CELL, UNITS_LINE
from docparse.backends.table_heads import (
    body_extents,
    heads_of_empty_columns,
    heads_over_body,
    spanning_starts,
)
from docparse.backends.table_rows import (
    baseline_rows,
    clip_rows,
    cut_above,
    row_phrases,
    valued_row,
    without_leaders,
)


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
    phrases = [(p[0][0], p[-1][2]) for r in rows for p in row_phrases(r, min_gap)]
    allowed = len(rows) // 10
    # Boundaries are placed from the rows of values: header words above them
    # (stacked, centred over two columns) would hide or shift them.
    # A date's day ("31,") is no value: a row of dates heads the columns; nor is
    # a number inside a header phrase ("Postnatal Day 14").
    values = [r for r in rows if _value_count(r, min_gap) >= 2]
    body = values or list(rows)
    body_phrases = [(p[0][0], p[-1][2]) for r in body for p in row_phrases(r, min_gap)]
    cuts: list[float] = []
    for a, b in _free_stretches(phrases, allowed, min_gap):
        cut = _cut_in(a, b, body_phrases, 0.2 * min_gap)
        # A gap that a row of values crosses is inside a cell; only a text
        # table's stray long cell is let through.
        if cut is None and not values:
            cut = (a + b) / 2
        if cut is not None:
            cuts.append(cut)
    words = [(w[0], w[2]) for r in body for w in r]
    for a, b in _free_stretches(words, len(body) // 10, 0.2 * min_gap):
        if any(a - 1 <= c <= b + 1 for c in cuts):
            continue
        # Where every value row leaves the gap open, else its middle (a stray
        # header number set over it).
        mid = _cut_in(a, b, words, 0.2 * min_gap) or (a + b) / 2
        both = numeric = 0
        for r in body:
            left = [w for w in r if w[2] <= mid]
            right = [w for w in r if w[0] >= mid]
            if left and right:
                both += 1
                # A nil mark ("—") stands for a value.
                numeric += _value(left[-1][4]) and _value(right[0][4])
        if both and numeric >= 0.6 * both:
            cuts.append(mid)
    lo = min(a for a, _ in phrases)
    hi = max(b for _, b in phrases)
    return [lo - 1, *sorted(cuts), hi + 1]


def _rules_between_heads(
    xs: list[float], rows: Sequence[Sequence[Word]], rules: Sequence[float], min_gap: float
) -> list[float]:
    """Boundaries ``xs`` where a drawn rule between two heads set close replaces a cut through one.

    Two heads set closer than a word space (``Estimate Margin of``) are one
    phrase; the middle of the gap between their columns' values can fall
    inside the second head's word, which then stands in neither column. A
    vertical rule near that boundary (2.5 ``min_gap``), between two words of
    the same phrase and in the same gap of the value rows (no value word
    between rule and boundary), is where the columns part: it takes the
    boundary's place.
    """
    if not rules:
        return xs
    values = [r for r in rows if _value_count(r, min_gap) >= 2]
    body = [(w[0], w[2]) for r in values for w in r]
    out = list(xs)
    for x in sorted(set(rules)):
        if any(a < x < b for a, b in body):
            continue
        for i in range(1, len(out) - 1):
            cut = out[i]
            if abs(cut - x) > 2.5 * min_gap or any(
                min(x, cut) < b and a < max(x, cut) for a, b in body
            ):
                continue
            between = any(
                a[2] <= x <= b[0] and any(w[0] < cut < w[2] for w in phrase)
                for r in rows[: len(rows) if not values else rows.index(values[0])]
                for phrase in row_phrases(r, min_gap)
                for a, b in pairwise(phrase)
            )
            if between:
                out[i] = x
                break
    return sorted(out)


def _value_count(row: Sequence[Word], min_gap: float) -> int:
    """Values in a row: numbers standing as cells of their own, not inside a phrase of words.

    A date's day (``31,``) is no value; numbers set a space apart (a
    typewriter table's columns) are one value each.
    """
    return sum(
        len(p)
        for p in row_phrases(row, min_gap)
        if all(is_number(w[4]) and w[4][-1] != "," for w in p)
    )


def _value(text: str) -> bool:
    """A number or a nil mark, its sign joined or not (``$—``)."""
    return is_number(text) or bool(NIL_CELL.match(text.lstrip("$€£¥(")))


def _cut_in(
    a: float, b: float, spans: Sequence[tuple[float, float]], min_width: float
) -> float | None:
    """The middle of the widest part of the stretch ``(a, b)`` that none of ``spans`` covers.

    ``None`` when no such part is wider than ``min_width``. A stretch counts
    as free with a stray phrase or two across it; its middle can then fall
    inside a column (a right-aligned value column with its ``$`` at the
    cell's left edge and a centred header over it), where no value is.
    """
    best: tuple[float, float | None] = (min_width, None)
    reach = a
    for lo, hi in sorted(s for s in spans if s[1] > a and s[0] < b):
        if lo - reach > best[0]:
            best = (lo - reach, (reach + lo) / 2)
        reach = max(reach, hi)
    if b - reach > best[0]:
        best = (b - reach, (reach + b) / 2)
    return best[1]


def attach_symbols(row: Sequence[Word]) -> list[Word]:
    """A row's words with ``$`` and ``(`` joined to the value after them, ``)``, ``%`` before.

    A financial statement prints the currency sign at the left edge of its
    cell and the value right-aligned, often with a wide gap between; read
    as separate words the sign would make a column (or a gap) of its own.
    Joined, the value's box starts at its sign, as the cell does. Only
    signs next to a value are joined (``$`` before a digit, ``)``/``%``
    after one, not after a date's day ``28,`` or a label ``Q4``), as the
    EDGAR ``.htm`` reader does.
    """
    out: list[Word] = []
    pending: Word | None = None
    for w in row:
        text = w[4]
        if pending is not None:
            if text[:1] in _VALUE_START:
                w = (
                    pending[0],
                    min(pending[1], w[1]),
                    w[2],
                    max(pending[3], w[3]),
                    pending[4] + text,
                )
            else:
                out.append(pending)
            pending = None
        if _SYMBOL.match(text) and w[4] == text:
            pending = w
            continue
        prev = out[-1] if out else None
        if (
            prev is not None
            and _CLOSER.match(text)
            # A date's day (``28,``) and a label ending in a digit (``Q4``) are no
            # values: a ``%`` after them heads the next column.
            and (_FIGURES.match(prev[4]) or (is_number(prev[4]) and prev[4][-1:] != ","))
        ):
            out[-1] = (prev[0], min(prev[1], w[1]), w[2], max(prev[3], w[3]), prev[4] + text)
            continue
        out.append(w)
    if pending is not None:
        out.append(pending)
    return out


_SYMBOL = re.compile(r"^[$€£¥(]+$")
#: What a value can start with after its sign: "$1,234", "$(5)", "$.5", "$—".
_VALUE_START = frozenset("0123456789(.-\u2014\u2013")
_CLOSER = re.compile(r"^[)%]+$")
#: A word of figures ending in a digit, no letter in it: ``2023``, ``<0.1``, ``(5``.
_FIGURES = re.compile(r"^[\W\d_]*\d$")
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
            # Only signs beside a value: "%" heading a column of percentages
            # stays a header cell.
            if _SYMBOL.match(text):
                j = next((k for k in range(i + 1, len(row)) if row[k].strip()), None)
                if j is not None and row[j].strip()[:1] in _VALUE_START:
                    row[j] = text + row[j].strip()
                    row[i] = ""
            elif _CLOSER.match(text):
                j = next((k for k in range(i - 1, -1, -1) if row[k].strip()), None)
                left = row[j].strip() if j is not None else ""
                # A nil mark takes its unit too ("— %" prints "—%", as the twin has it).
                if j is not None and (
                    left[-1:].isdigit()
                    or is_number(left)
                    or (text.startswith("%") and bool(NIL_CELL.match(left)))
                ):
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
    interleave. Columns are joined only when no row, header rows included,
    has text in both, and each holds values (numbers), or the left one holds
    only header text above the grid's first row of values and the right one
    values (a head over both drawn cells, read into the first).
    """
    if not grid:
        return grid
    first = next(
        (i for i, r in enumerate(grid) if any(is_number(v.strip()) for v in r[1:])), len(grid)
    )
    c = 1
    while c < max(len(r) for r in grid):
        left = [r[c - 1].strip() if c - 1 < len(r) else "" for r in grid]
        right = [r[c].strip() if c < len(r) else "" for r in grid]
        clash = any(a and b for a, b in zip(left, right, strict=True))
        numbers = all(any(is_number(v) for v in col) for col in (left, right))
        # A nil mark ("—") stands in a value column as a value does.
        values = all(is_number(v) or not v or NIL_CELL.match(v) for v in left + right)
        # A head drawn over both (``2024`` over the ``$`` cells and the
        # amounts) is read into the first: that column holds nothing else,
        # and nothing below the header lines (above the first row of values).
        head = any(left) and not any(left[first:]) and not any(is_number(v) for v in left)
        values_right = any(is_number(v) for v in right) and all(
            is_number(v) or not v or NIL_CELL.match(v) for v in right
        )
        if not clash and ((numbers and values) or (head and values_right)):
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
    breaks: Sequence[float] = (),
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
    table ruled between column groups only. ``breaks`` (y positions of row
    rules): lines on either side of one are never one wrapped row.
    """
    inside = without_leaders(
        w
        for w in words
        if clip[0] <= (w[0] + w[2]) / 2 <= clip[2] and clip[1] <= (w[1] + w[3]) / 2 <= clip[3]
    )
    if not inside:
        return None
    min_gap = phrase_gap(inside)
    rows = [attach_symbols(r) for r in baseline_rows(inside)]
    xs = sorted(edges) if edges else shared_gaps(rows, min_gap)
    if xs and not edges:
        # A line through a phrase is a cell's shading edge, not a column rule.
        spans = [(p[0][0], p[-1][2]) for r in rows for p in row_phrases(r, min_gap)]
        for x in rules:
            if (
                xs[0] < x < xs[-1]
                and all(abs(x - e) > min_gap for e in xs)
                and not any(a < x < b for a, b in spans)
            ):
                xs.append(x)
        xs = _rules_between_heads(sorted(xs), rows, rules, min_gap)
    if len(xs) < 3:
        return None
    n = len(xs) - 1
    first_values = next((i for i, r in enumerate(rows) if _valued(r, min_gap)), len(rows))
    # The columns right of the stub, from their words: a column of "$" signs
    # alone is no column a header could start.
    right_of_stub = [w for r in rows for w in r if w[0] >= xs[1] and not _SYMBOL.match(w[4])]
    group = (
        (
            min(w[0] for w in right_of_stub),
            max(w[2] for w in right_of_stub),
            min(bisect_right(xs, w[0]) - 1 for w in right_of_stub),
        )
        if right_of_stub
        else None
    )
    row_pieces: list[list[list[Word]]] = []
    row_placed: list[list[int]] = []
    for row in rows:
        # With drawn edges, a phrase that crosses a rule is two cells; a phrase
        # of numbers set a space apart is several cells, one per number.
        pieces: list[list[Word]] = []
        for p in [[w] for w in row] if edges else row_phrases(row, min_gap):
            if len(p) > 1 and all(is_number(w[4]) for w in p):
                pieces.extend([w] for w in p)
            else:
                pieces.extend(_split_at_bounds(p, xs, 0.5 * min_gap))
        placed: list[int] = []
        for piece in pieces:
            x = (piece[0][0] + piece[0][2]) / 2 if edges or len(piece) == 1 else piece[0][0] + 0.5
            col = 0
            while col < n - 1 and x > xs[col + 1]:
                col += 1
            placed.append(col)
        row_pieces.append(pieces)
        row_placed.append(placed)
    if not edges:
        extents = body_extents(row_pieces[first_values:], row_placed[first_values:], n)
        for ri in range(first_values):
            pieces, placed = row_pieces[ri], row_placed[ri]
            spanned = spanning_starts(pieces, placed, xs, min_gap, group)
            row_placed[ri] = heads_over_body(pieces, placed, spanned, extents, min_gap)
        row_placed[:first_values] = heads_of_empty_columns(
            row_pieces[:first_values], row_placed[:first_values], extents
        )
    grid: list[list[str]] = []
    spanning: list[bool] = []
    for ri, (pieces, placed) in enumerate(zip(row_pieces, row_placed, strict=True)):
        cells: list[list[str]] = [[] for _ in range(n)]
        for piece, col in zip(pieces, placed, strict=True):
            cells[col].extend(w[4] for w in piece)
        grid.append([" ".join(c) for c in cells])
        # Only header lines are asked whether they span (the lines above the first
        # value row, _join_wrapped_header_lines): the body's answer is never read.
        spanning.append(ri < first_values and any(_spans(p, xs, min_gap) for p in pieces))
    starts: list[int] = []
    grid = _join_wrapped_header_lines(grid, rows, min_gap, spanning, starts)
    mids = [(min(w[1] for w in r) + max(w[3] for w in r)) / 2 for r in rows]
    ruled = [bool(i) and any(mids[i - 1] < y < mids[i] for y in breaks) for i in starts]
    grid = _join_continued_rows(grid, ruled)
    box = words_box(inside)
    return box, merge_symbol_cells(grid)


def _split_at_bounds(phrase: list[Word], xs: Sequence[float], min_gap: float) -> list[list[Word]]:
    """A phrase cut between its words where they stand in different columns (``xs`` ascending).

    Narrow header columns set their words closer than the gap that splits
    phrases (``Weight Controls`` under two columns). When every word of the
    phrase lies (80% of its width) inside one column, and the words of two
    columns are set wider apart than a word space (``min_gap``), each
    column's words are a cell. A header centred over several columns
    (``Year of data``) has a word across a boundary and stays whole.
    """
    if len(phrase) < 2:
        return [phrase]
    cols: list[int] = []
    last = len(xs) - 2
    for w in phrase:
        width = max(w[2] - w[0], 1e-6)
        # ``xs`` ascend, so the one column holding 80% of the word holds its centre:
        # only that column and its neighbours are tested (in order, the first wins).
        at = bisect_right(xs, (w[0] + w[2]) / 2) - 1
        col = next(
            (
                c
                for c in range(max(at - 1, 0), min(at + 1, last) + 1)
                if min(w[2], xs[c + 1]) - max(w[0], xs[c]) >= 0.8 * width
            ),
            None,
        )
        if col is None:
            return [phrase]
        cols.append(col)
    out = [[phrase[0]]]
    for (a, ca), (b, cb) in pairwise(zip(phrase, cols, strict=True)):
        if ca != cb:
            if b[0] - a[2] <= min_gap:
                return [phrase]
            out.append([b])
        else:
            out[-1].append(b)
    return out


def _labelled(rows: Sequence[Sequence[Word]], lo: float, hi: float, min_gap: float) -> bool:
    """Most ``rows`` start their stretch ``lo..hi`` with a label, not a value.

    Signs join their values first and nil marks count as values: ``$ 1,118``
    and ``—`` open no label.
    """
    firsts = [
        [w[4] for w in row_phrases(attach_symbols([w for w in r if lo <= w[0] < hi]), min_gap)[0]]
        for r in rows
        if any(lo <= w[0] < hi for w in r)
    ]
    labels = sum(not all(is_number(t) or NIL_CELL.match(t) for t in f) for f in firsts)
    return bool(firsts) and labels >= 0.6 * len(firsts)


def _valued(row: Sequence[Word], min_gap: float) -> bool:
    """A row of values: two or more numbers standing as cells (:func:`_value_count`)."""
    return _value_count(row, min_gap) >= 2


def _join_continued_rows(grid: list[list[str]], ruled: Sequence[bool] = ()) -> list[list[str]]:
    """Rows that carry on the cells of the row above, joined to it.

    A label or description wrapped inside its cell goes on in lower case on
    the next line (``Disposable income per capita in`` / ``constant
    dollars``); read by baselines it is a row of its own. A row whose
    non-empty cells all start in lower case, hold no value and sit under
    non-empty cells of the row above, which do not end a sentence or a
    label (``.``, ``:``), continues that row, unless a rule is drawn between
    them (``ruled``: per row, whether one lies above it).
    """
    out: list[list[str]] = []
    for i, row in enumerate(grid):
        filled = [c for c, t in enumerate(row) if t.strip()]
        prev = out[-1] if out else None
        if (
            prev is not None
            and filled
            and not (i < len(ruled) and ruled[i])
            and all(
                _lower_word(row[c].strip())
                and not is_number(row[c].strip())
                and not NIL_CELL.match(row[c])
                and c < len(prev)
                and prev[c].strip()
                and prev[c].rstrip()[-1] not in ".:"
                for c in filled
            )
        ):
            out[-1] = [f"{a} {b}".strip() for a, b in zip(prev, row, strict=True)]
        else:
            out.append(list(row))
    return out


def _lower_word(text: str) -> bool:
    """Text that starts with a lower-case letter of running text.

    Mathematical italic letters (``𝑞gray``, U+1D400-U+1D7FF) are lower case to
    Unicode but name a symbol: a cell of a formula table, not a wrapped line.
    """
    first = text[:1]
    return first.islower() and not 0x1D400 <= ord(first) <= 0x1D7FF


def _spans(piece: Sequence[Word], xs: Sequence[float], min_gap: float) -> bool:
    """A piece reaching well into two or more columns (a header spanning them)."""
    lo, hi = piece[0][0], max(w[2] for w in piece)
    return sum(lo < b - min_gap and hi > a + min_gap for a, b in pairwise(xs)) >= 2


def _units_line(row: Sequence[str]) -> bool:
    """A line holding only a units phrase (``(In millions)``), alone or repeated per column."""
    filled = [c.strip() for c in row if c.strip()]
    return bool(filled) and all(UNITS_LINE.match(c) for c in filled)


def _join_wrapped_header_lines(
    grid: list[list[str]],
    rows: Sequence[Sequence[Word]],
    min_gap: float,
    spanning: Sequence[bool] = (),
    starts: list[int] | None = None,
) -> list[list[str]]:
    """Header lines of one wrapped header row joined, cell by cell.

    A column header wrapped inside its cell ("Estimated" / "Fair Value" /
    "Gain (Loss)") is set with the text's line spacing, while separate rows
    ("Year Ended" above the dates, the body rows) have the cells' padding
    between them. Above the first row holding a value (:func:`_value_count`),
    a line closer to the one above than 0.8 times the body rows' median
    spacing (top to top), or closer than 0.9 times its type's height (lines
    set solid, as in a cell, where the body is set solid too), continues that
    line's row (a line with the stub's header beside the last lines of the
    headers above: closer than 0.9 times the body spacing), unless the line
    above spans columns (``spanning``: a group
    header such as ``Fused aluminum oxide`` over ``2009 | 2010``, set solid
    too). A line set at the line spacing of the body's wrapped labels (from a
    line holding only a label to the next, closer than 0.9 times the rows'
    spacing) continues the line above too, unless that line spans columns.
    ``rows`` are the grid's rows of words; ``starts`` gets the index of the
    first of them in each row returned.
    """
    begun = starts if starts is not None else []
    first = next((i for i, r in enumerate(rows) if _value_count(r, min_gap)), len(rows))
    tops = [min(w[1] for w in r) for r in rows]
    heights = [sorted(w[3] - w[1] for w in r)[len(r) // 2] for r in rows]
    pitches = sorted(b - a for a, b in zip(tops[first:], tops[first + 1 :], strict=False))
    if first == 0 or not pitches:
        begun.extend(range(len(grid)))
        return grid
    tight = 0.8 * pitches[len(pitches) // 2]
    # A body whose labels wrap shows the cells' line spacing: from a line holding
    # only a label to the next, well under the rows' pitch (the tightest such step:
    # a section label can sit closer over its first row than rows do). A head's next
    # line is set at it, however little padding the rows have (``Sept. 30,`` over
    # ``2023``, ``%`` over ``Change``).
    line = 1.05 * min(
        (
            b - a
            for i, (a, b) in enumerate(pairwise(tops))
            if i >= first
            and b - a < 0.9 * pitches[len(pitches) // 2]
            and grid[i][0].strip()
            and not any(c.strip() for c in grid[i][1:])
            and not _value_count(rows[i], min_gap)
        ),
        default=0.0,
    )
    out: list[list[str]] = [grid[0]]
    begun.append(0)
    for i in range(1, len(grid)):
        # A units line and a label-column line (a section label) are rows of their own
        # ("(in years)" under one column's header among others is that header's last
        # line), but the stub's header set beside the last lines of the headers wrapped
        # above ("Item Format" beside "of items") joins them: the same columns go on.
        above = {c for c, t in enumerate(out[-1][1:]) if t.strip()}
        stub_beside = (
            bool(above)
            and not out[-1][0].strip()
            and above == {c for c, t in enumerate(grid[i][1:]) if t.strip()}
        )
        own = (
            (grid[i][0].strip() and not stub_beside) or _units_line(grid[i]) or _units_line(out[-1])
        )
        pitch = tops[i] - tops[i - 1]
        # Set solid and going on in a column of the line above: a cell's next line
        # (sub-table labels staggered in height share no column).
        below = {c for c, t in enumerate(grid[i]) if t.strip()}
        shared = below & {c for c, t in enumerate(grid[i - 1]) if t.strip()}
        spans_above = bool(spanning) and spanning[i - 1]
        solid = pitch < 0.9 * min(heights[i], heights[i - 1]) and bool(shared) and not spans_above
        # The stub's header beside the headers' last lines sits closer than a row.
        beside = bool(grid[i][0].strip()) and stub_beside and pitch < 1.125 * tight
        # At the line spacing of the body's wrapped labels, each head over one head
        # at most (``Year Ended`` centred over two dates heads them both).
        wrap = pitch <= line and not spans_above and _stacked(rows[i - 1], rows[i], min_gap)
        if i < first and (pitch < tight or wrap or solid or beside) and not own:
            out[-1] = [f"{a} {b}".strip() for a, b in zip(out[-1], grid[i], strict=True)]
        else:
            out.append(grid[i])
            begun.append(i)
    return out


def _stacked(upper: Sequence[Word], lower: Sequence[Word], min_gap: float) -> bool:
    """Each phrase of ``upper`` stands over one phrase of ``lower`` at most."""
    below = [(p[0][0], max(w[2] for w in p)) for p in row_phrases(lower, min_gap)]
    return all(
        sum(a < p_hi and b > p[0][0] for a, b in below) <= 1
        for p in row_phrases(upper, min_gap)
        for p_hi in [max(w[2] for w in p)]
    )


def stacked_tables(words: Sequence[Word], clip: Sequence[float]) -> list[Box4]:
    """``clip`` cut into one region per table where a table's header recurs below its body.

    Two tables of one layout printed one under the other ("Design effect"
    over 1.0-1.6, then again over 1.7-3.5) are read as one region by a
    finder that sees only rows of numbers. A reader sees the second header
    and starts a new table there: a row without values below the first row
    of values whose text is the same as one of the header rows above that
    row starts a new table, together with the rows without values right
    above it (the rest of its header). Returns ``[clip]`` when no header
    recurs.
    """
    rows = clip_rows(words, clip)
    # phrase_gap reads the words' heights only, in any order.
    inside = [w for r in rows for w in r]
    valued = valued_row

    def text(r: Sequence[Word]) -> str:
        return " ".join(w[4] for w in r)

    first = next((i for i, r in enumerate(rows) if valued(r)), None)
    if first is None or first == 0:
        brk = _column_break(rows, phrase_gap(inside)) if inside else None
        return cut_above(rows, [brk], clip) if brk else [(clip[0], clip[1], clip[2], clip[3])]
    heads = {text(r) for r in rows[:first] if any(c.isalpha() for c in text(r))}
    starts: list[int] = []
    seen_values = True
    for i in range(first + 1, len(rows)):
        if valued(rows[i]):
            seen_values = True
            continue
        if seen_values and text(rows[i]) in heads:
            start = i
            while start - 1 > (starts[-1] if starts else first) and not valued(rows[start - 1]):
                start -= 1
            starts.append(start)
            seen_values = False
    if not starts:
        brk = _column_break(rows, phrase_gap(inside))
        return cut_above(rows, [brk], clip) if brk else [(clip[0], clip[1], clip[2], clip[3])]
    return cut_above(rows, starts, clip)


#: Regions of more rows than this are not searched for a second tabular
#: (:func:`_column_break`): floats under one caption are short, statements long.
_BREAK_ROWS = 40


def _column_break(rows: Sequence[Sequence[Word]], min_gap: float) -> int | None:
    """Index of the first row of a second tabular set under the first, if any.

    One float can print two tabulars under one caption, the second with
    columns of its own. Read as one grid, the second's cells cross the
    first's column gaps and the first's columns merge. A row with two or
    more phrases that crosses two or more of the gaps every row above it
    leaves open (three rows of two phrases or more above) starts a new
    table when every row with two or more phrases below it crosses two of
    those gaps too (two such rows at least) and those rows share a column
    gap of their own.
    """
    if len(rows) > _BREAK_ROWS:
        return None
    phrases = [[(p[0][0], p[-1][2]) for p in row_phrases(r, min_gap)] for r in rows]
    multi = [i for i, ps in enumerate(phrases) if len(ps) >= 2]

    def crosses(i: int, gaps: Sequence[tuple[float, float]]) -> bool:
        # Across the whole of two gaps or more: a right-aligned column's
        # ragged left edge moves into a gap but never across it, and a long
        # row label crosses only the gap after the short labels above it.
        crossed = {g for a, b in phrases[i] for g in gaps if a < g[0] and b > g[1]}
        return len(crossed) >= 2

    for n, k in enumerate(multi):
        if n < 3:
            continue
        gaps = _free_stretches([s for ps in phrases[:k] for s in ps], 0, min_gap)
        below = [i for i in multi if i >= k]
        if len(gaps) < 2 or len(below) < 2 or not crosses(k, gaps):
            continue
        if (
            all(crosses(i, gaps) for i in below)
            and shared_gaps([rows[i] for i in below], min_gap)[1:-1]
        ):
            return k
        return None
    return None


def side_by_side_tables(words: Sequence[Word], clip: Sequence[float]) -> list[Box4]:
    """``clip`` cut into one region per table where tables stand side by side.

    A long two-column list is printed as two or three tables next to each
    other, each with the same header (``Age | Total population`` three times
    over). A reader sees the header repeat along its line and reads each
    repetition with the columns under it as a table of its own. A header
    line (above the first row of values) whose phrases are one sequence
    repeated two or more times is cut between the repetitions, in a gap no
    word of that line or the rows below crosses, when each repetition has
    row labels of its own (most rows of values start it with a label).
    Returns ``[clip]`` when no header repeats.
    """
    whole: list[Box4] = [(clip[0], clip[1], clip[2], clip[3])]
    inside = without_leaders(
        w
        for w in words
        if clip[0] <= (w[0] + w[2]) / 2 <= clip[2] and clip[1] <= (w[1] + w[3]) / 2 <= clip[3]
    )
    if not inside:
        return whole
    min_gap = phrase_gap(inside)
    rows = baseline_rows(inside)
    for row in rows:
        if sum(is_number(w[4]) and w[4][-1] != "," for w in row) >= 2:
            break  # only header lines above the body
        phrases = row_phrases(row, min_gap)
        texts = [" ".join(w[4] for w in p) for p in phrases]
        n = len(texts)
        for k in range(1, n // 2 + 1):
            if n % k or any(texts[i] != texts[i % k] for i in range(n)):
                continue
            if not any(c.isalpha() for t in texts[:k] for c in t):
                continue
            # Each cut in the widest gap that no word of this line or below
            # crosses (a title above runs over all of them), between the last
            # header of one table and the first of the next.
            spans = [(w[0], w[2]) for r in rows[rows.index(row) :] for w in r]
            found = [
                _cut_in(phrases[g - 1][-1][0], phrases[g][0][2], spans, min_gap)
                for g in range(k, n, k)
            ]
            cuts = [x for x in found if x is not None]
            if len(cuts) < len(found):
                continue
            xs = [clip[0], *cuts, clip[2]]
            # Each table has its own row labels; a column group repeating its
            # subheaders ("Total | Public | Private" twice) shares the labels
            # at the left of the first group and is one table.
            body = [r for r in rows if _valued(r, min_gap)]
            if not all(_labelled(body, a, b, min_gap) for a, b in pairwise(xs)):
                continue
            # A title line above the repeated header runs over all the tables:
            # it belongs to none of them.
            top = min(w[1] for w in row) - 1
            return [(a, top, b, clip[3]) for a, b in pairwise(xs)]
    return whole

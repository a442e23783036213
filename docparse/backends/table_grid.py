"""Table grids read from a region's words: rows from baselines, columns from shared gaps.

Given a region known to hold a table (from any finder of
:mod:`docparse.backends.table_candidates` or :mod:`docparse.backends.table_regions`),
:func:`word_grid` reads its cells from the words alone, the way a reader does:
rows are baselines (:func:`~docparse.backends.table_rows.baseline_rows`),
columns the x-gaps every row leaves free (:func:`shared_gaps`), and currency
signs, brackets and percent signs join the value they belong to
(:mod:`docparse.backends.table_symbols`); the lines of a wrapped cell are
joined by :mod:`docparse.backends.table_wraps`. Regions holding two tables
stacked or side by side are cut by :mod:`docparse.backends.table_split`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import pairwise

from docparse.backends.table_candidates import Box4, Word, is_number, phrase_gap, words_box
from docparse.backends.table_headers import NIL_CELL
from docparse.backends.table_heads import (
    body_extents,
    heads_of_empty_columns,
    heads_over_body,
    spanning_starts,
)
from docparse.backends.table_rows import (
    baseline_rows,
    row_phrases,
    value_count,
    without_leaders,
)
from docparse.backends.table_symbols import SYMBOL, attach_symbols, merge_symbol_cells
from docparse.backends.table_wraps import (
    join_continued_rows,
    join_wrapped_header_lines,
    lift_centred_labels,
    spans_columns,
)

__all__ = ["attach_symbols", "merge_symbol_cells", "shared_gaps", "word_grid"]

#: A head of figures alone: a year, a date in figures (``2023``, ``12/31/2023``).
_FIGURES = re.compile(r"^\d[\d/.\-]*$")


def free_stretches(
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
    values = [r for r in rows if value_count(r, min_gap) >= 2]
    body = values or list(rows)
    body_phrases = [(p[0][0], p[-1][2]) for r in body for p in row_phrases(r, min_gap)]
    cuts: list[float] = []
    for a, b in free_stretches(phrases, allowed, min_gap):
        cut = cut_in(a, b, body_phrases, 0.2 * min_gap)
        # A gap that a row of values crosses is inside a cell; only a text
        # table's stray long cell is let through.
        if cut is None and not values:
            cut = (a + b) / 2
        if cut is not None:
            cuts.append(cut)
    words = [(w[0], w[2]) for r in body for w in r]
    for a, b in free_stretches(words, len(body) // 10, 0.2 * min_gap):
        if any(a - 1 <= c <= b + 1 for c in cuts):
            continue
        # Where every value row leaves the gap open, else its middle (a stray
        # header number set over it).
        mid = cut_in(a, b, words, 0.2 * min_gap) or (a + b) / 2
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
    valued = [value_count(r, min_gap) >= 2 for r in rows]
    body = [(w[0], w[2]) for r, v in zip(rows, valued, strict=True) if v for w in r]
    # The head lines, above the first row of values (by position: two rows can be equal).
    heads = rows[: valued.index(True)] if any(valued) else rows
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
                for r in heads
                for phrase in row_phrases(r, min_gap)
                for a, b in pairwise(phrase)
            )
            if between:
                out[i] = x
                break
    return sorted(out)


def _value(text: str) -> bool:
    """A number or a nil mark, its sign joined or not (``$—``)."""
    return is_number(text) or bool(NIL_CELL.match(text.lstrip("$€£¥(")))


def cut_in(
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
    right_of_stub = [w for r in rows for w in r if w[0] >= xs[1] and not SYMBOL.match(w[4])]
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
        # value row, join_wrapped_header_lines): the body's answer is never read.
        spanning.append(ri < first_values and any(spans_columns(p, xs, min_gap) for p in pieces))
    starts: list[int] = []
    grid = join_wrapped_header_lines(grid, rows, min_gap, spanning, starts)
    mids = [(min(w[1] for w in r) + max(w[3] for w in r)) / 2 for r in rows]
    body = next((k for k, i in enumerate(starts) if i >= first_values), len(starts))
    grid, kept = lift_centred_labels(grid, [mids[i] for i in starts], body)
    starts = [starts[k] for k in kept]
    ruled = [bool(i) and any(mids[i - 1] < y < mids[i] for y in breaks) for i in starts]
    grid = join_continued_rows(grid, ruled)
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
    # Heads of figures alone (``2022 2021`` over value columns set a word space
    # apart) are no phrase a reader keeps whole: each stands over its column.
    figures = all(_FIGURES.match(w[4]) for w in phrase)
    out = [[phrase[0]]]
    for (a, ca), (b, cb) in pairwise(zip(phrase, cols, strict=True)):
        if ca != cb:
            if b[0] - a[2] <= min_gap and not figures:
                return [phrase]
            out.append([b])
        else:
            out[-1].append(b)
    return out


def _valued(row: Sequence[Word], min_gap: float) -> bool:
    """A row of values: two or more numbers standing as cells (:func:`value_count`)."""
    return value_count(row, min_gap) >= 2

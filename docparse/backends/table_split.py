"""Regions holding two tables cut into one region per table.

A finder that sees only rows of numbers reads two tables of one layout
printed one under the other (:func:`stacked_tables`), a second tabular under
the first's caption, or a long list printed as tables side by side
(:func:`side_by_side_tables`) as one region; a reader sees the header recur
and starts a new table there.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from docparse.backends.table_candidates import Box4, Word, is_number, phrase_gap
from docparse.backends.table_grid import cut_in, free_stretches, shared_gaps
from docparse.backends.table_headers import NIL_CELL
from docparse.backends.table_rows import (
    baseline_rows,
    clip_rows,
    cut_above,
    row_phrases,
    value_count,
    valued_row,
    without_leaders,
)
from docparse.backends.table_symbols import attach_symbols


def _valued(row: Sequence[Word], min_gap: float) -> bool:
    """A row of values: two or more numbers standing as cells (:func:`value_count`)."""
    return value_count(row, min_gap) >= 2


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
        gaps = free_stretches([s for ps in phrases[:k] for s in ps], 0, min_gap)
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
    for at, row in enumerate(rows):
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
            spans = [(w[0], w[2]) for r in rows[at:] for w in r]
            found = [
                cut_in(phrases[g - 1][-1][0], phrases[g][0][2], spans, min_gap)
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

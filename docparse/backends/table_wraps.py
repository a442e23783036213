"""Lines of one cell joined: header cells wrapped over lines, labels going on below.

A grid read by baselines (:func:`docparse.backends.table_grid.word_grid`)
makes each printed line a row; a head or a label wrapped inside its cell is
one row to a reader. :func:`join_wrapped_header_lines` joins a head's lines by
their spacing, :func:`join_continued_rows` a label's lower-case continuation.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from docparse.backends.table_candidates import Word, is_number
from docparse.backends.table_headers import NIL_CELL, UNITS_LINE
from docparse.backends.table_rows import row_phrases, value_count


def join_continued_rows(grid: list[list[str]], ruled: Sequence[bool] = ()) -> list[list[str]]:
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


def spans_columns(piece: Sequence[Word], xs: Sequence[float], min_gap: float) -> bool:
    """A piece reaching well into two or more columns (a header spanning them)."""
    lo, hi = piece[0][0], max(w[2] for w in piece)
    return sum(lo < b - min_gap and hi > a + min_gap for a, b in pairwise(xs)) >= 2


def _units_line(row: Sequence[str]) -> bool:
    """A line holding only a units phrase (``(In millions)``), alone or repeated per column."""
    filled = [c.strip() for c in row if c.strip()]
    return bool(filled) and all(UNITS_LINE.match(c) for c in filled)


def join_wrapped_header_lines(
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
    between them. Above the first row holding a value (:func:`value_count`),
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
    So does a line closer than 0.9 times the body's spacing when the heads
    are set to the foot (or the top) of their cells: the columns of one line
    are among the other's, each head of the upper line over one head at
    most, the stub's head (if any) on the lower line only.
    ``rows`` are the grid's rows of words; ``starts`` gets the index of the
    first of them in each row returned.
    """
    begun = starts if starts is not None else []
    first = next((i for i, r in enumerate(rows) if value_count(r, min_gap)), len(rows))
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
            and not value_count(rows[i], min_gap)
        ),
        default=0.0,
    )
    out: list[list[str]] = [grid[0]]
    # Whether a line joined into each row of ``out`` spans columns.
    out_spans = [bool(spanning) and spanning[0]]
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
        # Heads set to the foot (or the top) of their cells: one line's heads stand
        # in columns the other's fill too, each over one head at most, closer than
        # the body's rows (a cell's padding is missing between them), the stub's
        # head on the last line only (``Rate`` / ``type`` beside ``Instrument``).
        heads = {c for c, t in enumerate(grid[i][1:]) if t.strip()}
        aligned = (
            not out[-1][0].strip()
            and bool(above)
            and bool(heads)
            and (above <= heads or heads <= above)
            and pitch < 0.9 * pitches[len(pitches) // 2]
            and not out_spans[-1]
            and not _units_line(grid[i])
            and not _units_line(out[-1])
            and _stacked(rows[i - 1], rows[i], min_gap, exactly=True)
            and not _group_head(rows[i - 1], rows[i], min_gap)
        )
        if i < first and (aligned or ((pitch < tight or wrap or solid or beside) and not own)):
            out[-1] = [f"{a} {b}".strip() for a, b in zip(out[-1], grid[i], strict=True)]
            out_spans[-1] = out_spans[-1] or (bool(spanning) and spanning[i])
        else:
            out.append(grid[i])
            out_spans.append(bool(spanning) and spanning[i])
            begun.append(i)
    return out


def _group_head(upper: Sequence[Word], lower: Sequence[Word], min_gap: float) -> bool:
    """A phrase of ``upper`` centred alone over a run of three or more dates in ``lower``.

    ``Years Ended`` set over three dates (or years, periods: heads holding a
    digit) stands over the middle one only, yet heads them all: its middle
    is the middle of the run, and no other head stands over the run. Years
    set a word space apart are one phrase, each a head.
    """
    ups = [(p[0][0], max(w[2] for w in p)) for p in row_phrases(upper, min_gap)]
    lows: list[tuple[float, float, bool]] = []
    for p in row_phrases(lower, min_gap):
        if len(p) > 1 and all(w[4][:1].isdigit() for w in p):
            lows.extend((w[0], w[2], True) for w in p)
        else:
            lows.append((p[0][0], max(w[2] for w in p), any(c.isdigit() for w in p for c in w[4])))
    for a, b in ups:
        mid = (a + b) / 2
        for i in range(len(lows)):
            for j in range(i + 2, len(lows)):
                lo, hi = lows[i][0], lows[j][1]
                if abs((lo + hi) / 2 - mid) > 0.3 * min_gap or not all(
                    d for _, _, d in lows[i : j + 1]
                ):
                    continue
                if not any(u != (a, b) and u[0] < hi and u[1] > lo for u in ups):
                    return True
    return False


def _stacked(
    upper: Sequence[Word], lower: Sequence[Word], min_gap: float, exactly: bool = False
) -> bool:
    """Each phrase of ``upper`` stands over one phrase of ``lower`` at most (``exactly``: one).

    A head centred over the gap between two heads (``Women`` over ``Hispanic``
    and ``non-Hispanic``) stands over none: it heads both, no cell's upper line.
    """
    below = [(p[0][0], max(w[2] for w in p)) for p in row_phrases(lower, min_gap)]
    return all(
        (n == 1 if exactly else n <= 1)
        for p in row_phrases(upper, min_gap)
        for p_hi in [max(w[2] for w in p)]
        for n in [sum(a < p_hi and b > p[0][0] for a, b in below)]
    )


def lift_centred_labels(
    grid: list[list[str]], mids: Sequence[float], body: int
) -> tuple[list[list[str]], list[int]]:
    """Stub labels centred over a group of rows (LaTeX ``\\multirow``) moved to its first row.

    A label spanning an even number of rows is set between the middle two:
    read by baselines it is a line of its own holding the stub only. Such a
    line takes no height of its own (the rows on either side stand one row
    pitch apart, ``mids``: each row's middle) and the rows around it have no
    stub; the label goes to the first row of its group, the rows above it
    with no stub (as many as those below it), as the source writes it.
    ``body``: the first body row. Returns the grid and the indexes of the
    rows kept.
    """
    steps = sorted(
        mids[k + 1] - mids[k]
        for k in range(body, len(grid) - 1)
        if not _stub_only(grid[k]) and not _stub_only(grid[k + 1])
    )
    if not steps:
        return grid, list(range(len(grid)))
    pitch = steps[len(steps) // 2]
    out = [list(r) for r in grid]
    gone: set[int] = set()
    claimed = body
    for k in range(body + 1, len(grid) - 1):
        above, below = out[k - 1], out[k + 1]
        if not (
            _stub_only(out[k])
            and not above[0].strip()
            and not below[0].strip()
            and any(c.strip() for c in above[1:])
            and any(c.strip() for c in below[1:])
            and mids[k + 1] - mids[k - 1] < 1.3 * pitch
            and min(mids[k] - mids[k - 1], mids[k + 1] - mids[k]) > 0.25 * pitch
        ):
            continue
        up = 0
        while k - 1 - up >= claimed and _open_stub(out[k - 1 - up]) and k - 1 - up not in gone:
            up += 1
        down = 0
        while k + 1 + down < len(out) and _open_stub(out[k + 1 + down]):
            down += 1
        n = min(up, down)
        if n == 0:
            continue
        out[k - n][0] = out[k][0]
        gone.add(k)
        claimed = k + n + 1
    kept = [k for k in range(len(out)) if k not in gone]
    return [out[k] for k in kept], kept


def _stub_only(row: Sequence[str]) -> bool:
    return bool(row[0].strip()) and not any(c.strip() for c in row[1:])


def _open_stub(row: Sequence[str]) -> bool:
    """A body row with no stub label of its own."""
    return not row[0].strip() and any(c.strip() for c in row[1:])

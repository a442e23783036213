"""Currency signs, brackets and percent signs joined to the values they belong to.

A financial statement prints ``$`` at the left edge of its cell and the
amount right-aligned, a negative's closing bracket or a ``%`` a little apart:
read as words or cells of their own they would make columns of their own.
:func:`attach_symbols` joins them while a row's words are read,
:func:`merge_symbol_cells` when the grid is made (used by
:mod:`docparse.backends.table_grid` and the backends' ruled-table readers).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docparse.backends.table_candidates import Word, is_number
from docparse.backends.table_headers import NIL_CELL


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
        if SYMBOL.match(text) and w[4] == text:
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


SYMBOL = re.compile(r"^[$€£¥(]+$")


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
            if SYMBOL.match(text):
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

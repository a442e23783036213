"""Which grids are tables: the checks the PDF backends apply to candidate grids.

A strategy that finds grids in whitespace or in drawn lines finds prose too:
framed boxes of paragraphs, two text columns read as a table. The checks here
decide from a grid's cell strings alone whether it reads as a table
(:func:`plausible_table`, :func:`ruled_off_plausible`), as ruled-off prose
(:func:`prose_table`), or as a ruled table good enough to keep without a
whitespace reading (:func:`rich_table`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

from docparse.backends.table_candidates import Word, phrase_gap
from docparse.backends.table_headers import NUMBER_CELL
from docparse.backends.table_rows import baseline_rows, row_phrases


def plausible_table(rows: Sequence[Sequence[str]], page_fraction: float = 0.0) -> bool:
    """A whitespace-detected grid that looks like a table, not like prose.

    At least 3 rows and 2 columns, at least 40% of the grid filled, and short
    cells: median at most 6 words, at most 10% over 12 words, at most 30%
    starting in lower case (prose cut into columns); a column that is mostly
    values (:func:`value_cell`), or values only under at most three header cells; and
    not the whole page (``page_fraction``: the table's share of the page
    height; a whitespace "table" as tall as the page is the page's layout).
    """
    if page_fraction > 0.85:
        return False
    if len(rows) < 3 or max((len(r) for r in rows), default=0) < 2:
        return False
    if numbered_display(rows):
        return False
    cells = [c for r in rows for c in r]
    filled = [c for c in cells if c.strip()]
    if len(filled) < 0.4 * len(cells):
        return False
    lengths = sorted(len(c.split()) for c in filled)
    if sum(n > 12 for n in lengths) > 0.1 * len(lengths):
        return False
    if lengths[len(lengths) // 2] > 6:
        return False
    # Prose cut into columns: many cells start in the middle of a sentence.
    if sum(c.strip()[0].islower() for c in filled) > 0.3 * len(filled):
        return False
    width = max(len(r) for r in rows)
    for col in range(width):
        column = [r[col] for r in rows if col < len(r) and r[col].strip()]
        if len(column) < 3:
            continue
        values = [value_cell(c) for c in column]
        if sum(values) >= 0.6 * len(column):
            return True
        # A short body under its header lines: at most three header cells over
        # two or more cells, every one a value.
        head = values.index(True) if any(values) else len(values)
        if head <= 3 and len(values) - head >= 2 and all(values[head:]):
            return True
    return False


#: The word or dash joining the ends of a range of values.
_RANGE = re.compile(r"\s+(?:to|-|–|—)\s+")


#: An equation number as a display sets it at its row's end: ``(12)``, ``(3a)``.
_EQUATION_NUMBER = re.compile(r"^\((\d{1,4})[a-z]?\)$")
#: Relations a display's rows hold and a table's cells seldom do.
_RELATIONS = frozenset("=<>≤≥≈≠≡∝∼≃≅∈∉⊂⊆⊃⊇→⇒⇔↦")


def numbered_display(rows: Sequence[Sequence[str]]) -> bool:
    """Rows that are a display of numbered equations, not a table.

    Each row that holds anything ends with an equation number (``(1)``,
    ``(2a)``), the numbers never fall back, and the rest of every row holds a
    relation (``=``, ``≤``, ``∈`` ...). A finance table's ``(1)`` is a negative
    value, but its rows do not hold relations; an ``align`` of four numbered
    rows, read by whitespace, would otherwise be a table of two columns.

    >>> numbered_display([["E = mc2", "(1)"], ["a2 + b2 = c2", "(2)"]])
    True
    >>> numbered_display([["Revenue", "(1)"], ["Costs", "(2)"]])
    False
    """
    numbers: list[int] = []
    for row in rows:
        cells = [c.strip() for c in row if c.strip()]
        if not cells:
            continue
        m = _EQUATION_NUMBER.match(cells[-1])
        if m is None or not _RELATIONS.intersection("".join(cells[:-1])):
            return False
        numbers.append(int(m.group(1)))
    return len(numbers) >= 2 and all(a <= b for a, b in pairwise(numbers))


def value_cell(cell: str) -> bool:
    """A cell holding a value: a number (``NUMBER_CELL``) or a range of two.

    A range may bound its ends (``>76% - 168%``) and give a weighted average
    after it (``3.7% to 23.0% (13.0%)``): a filing's table of thresholds or
    of the inputs to a valuation holds such cells only.
    """
    c = cell.strip()
    if NUMBER_CELL.match(c):
        return True
    ends = _RANGE.split(c)
    if len(ends) != 2:
        return False
    low, high = ends[0].lstrip("<>≤≥ ").split(), ends[1].lstrip("<>≤≥ ").split()
    # One value at each end, the high one perhaps with its average in parentheses.
    average = len(high) == 2 and high[1][:1] == "(" and NUMBER_CELL.match(high[1])
    return (
        len(low) == 1
        and bool(NUMBER_CELL.match(low[0]))
        and (len(high) == 1 or bool(average))
        and bool(NUMBER_CELL.match(high[0]))
    )


def prose_table(rows: Sequence[Sequence[str]]) -> bool:
    """A "table" that is really ruled-off prose (a framed box of paragraphs).

    One column, or at least 30% of the non-empty cells longer than 15 words,
    unless the rows are led by short labels (:func:`labelled_rows`: a table of
    terms and their descriptions). Such regions stay text.
    """
    if max((len(r) for r in rows), default=0) < 2:
        return True
    filled = [c for r in rows for c in r if c.strip()]
    long = sum(len(c.split()) > 15 for c in filled)
    return bool(filled) and long >= 0.3 * len(filled) and not labelled_rows(rows)


def labelled_rows(rows: Sequence[Sequence[str]]) -> bool:
    """Rows of text led by short labels: a table of terms and their descriptions.

    A reader takes a grid whose rows each start with a short name (at most
    eight words, capitalised) followed by a paragraph for a table, however
    long the paragraphs: prose set in columns starts its pieces anywhere in
    a sentence. At least three rows with text beyond the first cell, 80% of
    them with such a label.
    """
    firsts = [r[0].strip() for r in rows if r and any(c.strip() for c in r[1:])]
    if len(firsts) < 3:
        return False
    labels = [f for f in firsts if f and len(f.split()) <= 8 and not f[0].islower()]
    return len(labels) >= 0.8 * len(firsts)


def text_line_count(bbox: Sequence[float], word_boxes: Iterable[Sequence[float]]) -> int:
    """Distinct text lines (3-point bins of word centres) inside ``bbox``."""
    x0, y0, x1, y1 = bbox[:4]
    bins = set()
    for w in word_boxes:
        cx = (w[0] + w[2]) / 2
        cy = (w[1] + w[3]) / 2
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            bins.add(round(cy / 3))
    return len(bins)


def rich_table(rows: Sequence[Sequence[str]], n_text_lines: int = 0) -> bool:
    """A ruled table good enough to keep without trying the whitespace strategies.

    At least 4 rows (a ruled header box alone is not enough) and not several
    text lines lumped per row (``n_text_lines``: text lines inside the table,
    see :func:`text_line_count`): a table ruled only around its column
    groups comes out as one row holding every data line.
    """
    return len(rows) >= 4 and len(rows) >= 0.3 * n_text_lines and not lumped_columns(rows)


def lumped_columns(rows: Sequence[Sequence[str]]) -> bool:
    """A ruled grid whose cells hold two values side by side: columns the rules left out.

    A table ruled only between column groups (``Male | Female`` under each
    group) comes out of a ruled strategy with one cell per group. At least
    30% of the non-empty cells hold two or more numbers, each of at least two
    with a thousands or decimal separator (``1,087,948 1,022,490``; a
    thousands group set with a space, ``12 345``, is one number).
    """
    filled = [c.split() for r in rows for c in r if c and c.strip()]
    lumped = sum(
        len(t) >= 2
        and all(NUMBER_CELL.match(x) for x in t)
        and sum(("," in x or "." in x) for x in t) >= 2
        for t in filled
    )
    return bool(filled) and lumped >= 0.3 * len(filled)


def ruled_off_plausible(rows: Sequence[Sequence[str]]) -> bool:
    """A grid found inside a rule-bounded region that is a table, not prose.

    At least 2 rows and 2 non-empty columns, short cells (median at most 6
    words, none over 20), and not :func:`prose_table`.
    """
    if len(rows) < 2 or prose_table(rows):
        return False
    width = max(len(r) for r in rows)
    used = sum(any(c.strip() for r in rows if i < len(r) for c in [r[i]]) for i in range(width))
    filled = [c for r in rows for c in r if c.strip()]
    if used < 2 or not filled:
        return False
    lengths = sorted(len(c.split()) for c in filled)
    # Prose columns read as a grid: most cells start in the middle of a
    # sentence. A one-word cell in lower case ("deg", "yes") is no piece of
    # one, nor is a command or an address (``sensible-browser "http://..."``).
    if sum(c.strip()[0].islower() and _words_run(c) for c in filled) > 0.4 * len(filled):
        return False
    return lengths[len(lengths) // 2] <= 6 and lengths[-1] <= 20


def grid_fill(grids: Iterable[tuple[Any, Sequence[Sequence[str]]]]) -> float:
    """Share of non-empty cells over ``(bbox, rows)`` grids; 0 when there are none."""
    cells = [c for _, rows in grids for r in rows for c in r]
    return sum(1 for c in cells if c.strip()) / len(cells) if cells else 0.0


def contents_list(rows: Sequence[Sequence[str]]) -> bool:
    """A table of contents read as a grid: titles with page numbers that never decrease.

    Its last filled column holds whole numbers on at least three rows, in
    order, and no other column holds a number but a row's leading section
    number (``7.1 | debdiff | 67``): a reader takes it for a table of
    contents, not for a table of values.
    """
    last = [next((c.strip() for c in reversed(r) if c.strip()), "") for r in rows]
    pages = [int(v) for v in last if v.isdecimal()]
    if len(pages) < 3 or len(pages) < 0.8 * len(rows):
        return False
    if any(a > b for a, b in pairwise(pages)):
        return False
    others = [
        c
        for r in rows
        for i, c in enumerate(list(r)[:-1])
        if c.strip() and not (i == 0 and _SECTION_NUMBER.match(c.strip()))
    ]
    return not any(c.strip().replace(",", "").replace(".", "").isdigit() for c in others)


#: A section number opening a contents line: "7", "7.1", "7.8.1", "A.3".
_SECTION_NUMBER = re.compile(r"^(?:\d+|[A-Z])(?:\.\d+)*\.?$")


#: A word of running text: letters only, with inner hyphens or apostrophes.
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"^[^\W\d_]+(?:[-'’][^\W\d_]+)*[,.;:]?$")


def _words_run(cell: str) -> bool:
    """Two or more tokens, most of them words of running text (:data:`_WORD`)."""
    tokens = cell.split()
    return len(tokens) > 1 and sum(_WORD.match(t) is not None for t in tokens) > 0.5 * len(tokens)


def rows_across(words: Iterable[Word], box: Sequence[float], x: float) -> bool:
    """Whether the words of ``box`` beyond ``x`` are a column of the rows before it.

    A table reaching past the middle of the page (its last column over a
    one-column page's centre line) is one table, not a table in one page
    column beside the other column's lines: every row with words beyond
    ``x`` has words before it on the same baseline (but the rows above the
    first with words before ``x``: the value columns' heads, with no stub
    head over the labels), at least three rows do,
    so do 80% of the rows before ``x`` (of those holding a digit, when three
    or more do), and no piece beyond holds more than
    four words of letters (cells and spanning headers such as ``Less than
    $10,000– $15,000– ...``, not the other column's prose). A word is on
    the side of ``x`` its centre lies on.
    """
    x0, y0, x1, y1 = box[:4]
    inside = [w for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1]
    if not inside:
        return False
    min_gap = phrase_gap(inside)
    near = far = both = labels = 0
    heads = True
    for row in baseline_rows(inside):
        before = [w for w in row if (w[0] + w[2]) / 2 < x]
        beyond = [w for w in row if (w[0] + w[2]) / 2 >= x]
        if any(
            sum(_WORD.match(w[4]) is not None for w in p) > 4 for p in row_phrases(beyond, min_gap)
        ):
            return False
        heads = heads and not before
        if heads:
            continue  # column heads over the value columns, above the stub's first line
        near += bool(before)
        far += bool(beyond)
        both += bool(before and beyond)
        labels += bool(before) and not beyond and not any(_DIGIT.search(w[4]) for w in before)
    # Label-only rows (``Current liabilities:``, a long label's first line)
    # have nothing beyond in a statement either: the rows of values are weighed.
    valued = near - labels
    return far >= 3 and both == far and both >= 0.8 * (valued if valued >= 3 else near)

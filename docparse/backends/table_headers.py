"""Header rows of table grids: which rows are values, which head the columns.

Shared by the PDF backends and the assembly, which counts a table's header
rows the way the structured twins (EDGAR ``.htm``, CSV) do when a backend
does not know them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docparse.header_rows import heads_text_columns, without_section_labels
from docparse.text import count_words

NUMBER_CELL = re.compile(r"^[\s$€£¥%()+\-–—.,/*\d]*\d[\s$€£¥%()+\-–—.,/*\d]*$")


#: The marks that end a sentence (or lead into a list), Latin and CJK full-width.
_SENTENCE_END = ".:;\u3002\uff1a\uff1b"
_YEAR = re.compile(r"^\s*(?:19|20)\d\d\s*$")
#: A date set in figures ("12/30/2017"): like a year, it heads a column.
_DATE = re.compile(r"^\s*\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\s*$")
#: Cells that stand for a missing value in a row of values ("-", "n/a", "(X)").
NIL_CELL = re.compile(r"^\s*(?:[-–—*.…]+|n/?a|\(x\))\s*$", re.IGNORECASE)


#: A units line under a table's column headers: "(In millions)", "($ in thousands)",
#: "(Dollars in millions, except per share amounts)", "(In years)".
UNITS_LINE = re.compile(
    r"^\(\s*(?:[$€£¥]\s*)?(?:in|amounts?|dollars?|euros?|thousands|millions|billions|"
    r"percent|unaudited)\b[^()]*(?:\([^()]*\)[^()]*)*\)$",
    re.IGNORECASE,
)


def is_data_row(row: Sequence[str]) -> bool:
    """A table row of values: at least half of its non-empty cells are numbers or nil marks.

    A bare year does not count: "2005 | 2010 | Difference" labels columns.
    """
    filled = [c for c in row if c.strip()]
    values = sum(
        (bool(NUMBER_CELL.match(c)) and not _YEAR.match(c)) or bool(NIL_CELL.match(c))
        for c in filled
    )
    return bool(filled) and values >= 0.5 * len(filled)


def header_row_count(
    rows: Sequence[Sequence[str]],
    cap: int = 5,
    *,
    heads_before: Sequence[Sequence[str]] = (),
) -> int:
    """How many leading rows of a grid are its column headers.

    The rows above the first row holding a value beyond its label column
    (a number, not a year or a date: ``2023 | 2022``, ``12/30/2017`` head
    columns), when there are at most ``cap`` of them, the way the structured
    twins (EDGAR ``.htm``, CSV) count them. With no values at all, the first row is a header when it
    reads as one (:func:`heads_text_columns`).

    ``heads_before`` are the header rows of the table before this one. A
    table continued on the next page repeats them over its rows: when the
    tests above find no header, leading rows that repeat them are its header
    (a continuation of one row gives those tests nothing to compare).
    """
    n = _header_rows(rows, cap)
    repeated = (
        n == 0
        and 0 < len(heads_before) < len(rows)
        and all(_cells(a) == _cells(b) for a, b in zip(rows, heads_before, strict=False))
    )
    return len(heads_before) if repeated else n


def _header_rows(rows: Sequence[Sequence[str]], cap: int) -> int:
    for i, row in enumerate(rows):
        if any(
            bool(NUMBER_CELL.match(c)) and not _YEAR.match(c) and not _DATE.match(c)
            for c in row[1:]
            if c.strip()
        ):
            return without_section_labels(rows, i) if i <= cap and i < len(rows) else 0
    return 1 if heads_text_columns(rows) else 0


def _cells(row: Sequence[str]) -> list[str]:
    return [" ".join(c.split()) for c in row]


def header_top(lines: Sequence[tuple[Sequence[float], str]], top: float, pitch: float) -> float:
    """The top of the column-header lines directly above a table whose body starts at ``top``.

    ``lines`` are the text lines over the table's width. Going up, a line
    joins while it is at most 1.5 ``pitch`` (a row's height) from the one
    below and reads as a header: at most 8 words, no sentence end, not a
    row of values (a lone footnote mark "(2)" is no value). Words are
    counted as everywhere in docparse (:func:`docparse.text.count_words`: a
    CJK character is one), and CJK full stops end sentences too.
    """
    for box, text in sorted((ln for ln in lines if ln[0][3] <= top + 1), key=lambda ln: -ln[0][3]):
        tokens = text.split()
        # Words as docparse counts them: a line of Chinese prose holds no space.
        sentence = count_words(text) > 8 or text.rstrip()[-1:] in _SENTENCE_END
        values = sum(is_data_row([t]) for t in tokens)
        if top - box[3] > 1.5 * pitch or sentence or values >= max(2, len(tokens) / 2):
            break
        top = min(top, box[1])
    return top

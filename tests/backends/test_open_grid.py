"""Tables ruled inside only (row rules crossed by a column rule, no frame): fhs-3.0's."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

import docparse
from docparse.backends.table_open_grid import open_grid_regions, with_open_grids

#: fhs-3.0 p37 (points): a two-column table, row rules 120-540 drawn cell by cell
#: between its rows, the column rule at x=330 drawn row by row from the top of the
#: header row (449.1) to the bottom of the last row (613.6); page rules above and below.
_ROW_YS = (465.4, 481.9, 498.4, 514.9, 531.4, 547.9, 564.4, 580.9, 597.4)
_COLUMN_YS = (449.1, *_ROW_YS, 613.6)
_FHS_P37 = [
    (72.0, 50.0, 540.0, 50.5),
    (72.0, 741.6, 540.0, 742.1),
    *((x0, y - 0.25, x1, y + 0.25) for y in _ROW_YS for x0, x1 in ((120.0, 330.0), (330.0, 540.0))),
    *((329.75, a, 330.25, b) for a, b in pairwise(_COLUMN_YS)),
]


#: One line of text a row, a cell each side of the column rule.
_WORDS = [
    w
    for a, b in pairwise(_COLUMN_YS)
    for w in ((122.0, a + 3, 160.0, b - 3, "cache"), (332.0, a + 3, 400.0, b - 3, "Lock"))
]


def test_column_rules_give_an_open_grid_its_header_and_last_row() -> None:
    [region] = open_grid_regions(_FHS_P37)
    # Header row above the first row rule, last row under the last one.
    assert region[1] < 449.2 and region[3] > 613.5
    assert region[0] < 120 and region[2] > 540
    # The booktabs reading (first to last row rule) grows to it, with its row rules.
    [(box, breaks)] = with_open_grids([(118.0, 464.4, 542.0, 598.4)], _FHS_P37, _WORDS)
    assert box == region
    assert [round(y, 1) for y in breaks] == list(_ROW_YS)


def test_crossing_rules_among_scattered_labels_are_no_table() -> None:
    # A diagram's axes (asmejour p2's Fig. 1): labels one a line, never both sides.
    labels = [
        (340.0 if i % 2 else 140.0, 455.0 + 16 * i, 350.0 if i % 2 else 150.0, 465.0 + 16 * i, "r")
        for i in range(8)
    ]
    assert with_open_grids([], _FHS_P37, labels) == []


def test_a_framed_grid_or_lone_rules_are_no_open_grid() -> None:
    framed = [*_FHS_P37, (119.75, 449.1, 120.25, 613.6), (539.75, 449.1, 540.25, 613.6)]
    assert open_grid_regions(framed) == []
    # Rules that no column rule crosses (a page's header and footer rules).
    assert open_grid_regions(_FHS_P37[:2]) == []


@pytest.mark.corpus
@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_fhs_directory_tables_keep_their_header_and_last_rows(
    corpus_dir: Path, backend: str
) -> None:
    pdf = corpus_dir / "books" / "fhs-3.0" / "fhs-3.0.pdf"
    doc = docparse.parse(pdf, backend=backend, config={"pages": (36, 39)})
    tables = [u.table for u in doc.units if u.kind == "table" and u.table is not None]
    by_first = {t.rows[1][0]: t for t in tables if len(t.rows) > 1}
    # Header lines are the tables' first rows, never headings of their own.
    assert not [
        u for u in doc.units if u.kind == "heading" and u.text in {"Directory", "Description"}
    ]
    assert all(t.rows[0] == ("Directory", "Description") for t in tables)
    # The last row under the last row rule is the table's (p37 'tmp', p38 'yp').
    assert by_first["cache"].rows[-1][0] == "tmp" and by_first["cache"].n_header_rows == 1
    assert by_first["account"].rows[-1][0] == "yp"
    # A lower-case entry under the header row is a row of its own: a rule lies between.
    assert by_first["docbook"].rows[:2] == (
        ("Directory", "Description"),
        ("docbook", "docbook XML DTD (optional)"),
    )
    # The table going on at the top of p39, header repeated: its one row there is
    # the last of the p38 table it continues (backends/table_pages.py), header once.
    [going_on] = [t for t in tables if t.rows[-1][0] == "<package>"]
    assert going_on.rows[-1][1] == "Package specific cache data (optional)"
    assert going_on.rows.count(("Directory", "Description")) == 1

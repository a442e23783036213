"""Statement rows that the finder of rows of numbers must keep in its run
(table_candidates.numeric_regions: values set apart from a long label, page halves)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.backends.table_candidates import numeric_regions, page_halves


def test_a_long_label_with_its_values_apart_goes_on_the_run() -> None:
    # Eight words of label and three values: fewer than a third of the tokens
    # are values, but each value is its own piece of the row, as in a column.
    lines = [
        ((50, 100, 120, 109), "Revenue"),
        ((400, 100, 430, 109), "1,234"),
        ((480, 100, 510, 109), "1,100"),
        ((50, 114, 330, 123), "Loss related to the extinguishment of junior subordinated debt"),
        ((410, 114, 430, 123), "3"),
        ((480, 114, 510, 123), "(34)"),
        ((50, 128, 120, 137), "Cost"),
        ((400, 128, 430, 137), "(234)"),
        ((480, 128, 510, 137), "(200)"),
    ]
    regions = numeric_regions(lines, 600)
    assert len(regions) == 1 and regions[0][0] < 50 and regions[0][1] < 100 < 137 < regions[0][3]
    # The same words run into one line of prose break the run.
    prose = [
        *lines[:3],
        ((50, 114, 510, 123), "Loss related to extinguishment of junior debt was 3 and (34)."),
        *lines[6:],
    ]
    assert not [r for r in numeric_regions(prose, 600) if r[0] < 100 and r[1] < 114 < 123 < r[3]]


def test_a_line_starting_right_of_the_middle_is_the_right_columns() -> None:
    lines = [((300.0, 10.0, 305.0, 18.0), "A"), ((27.0, 10.0, 80.0, 18.0), "Total")]
    left, right = page_halves(lines, 612.0)
    assert left == [lines[1]] and right == [lines[0]]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_cash_flow_statement_with_long_labels_is_one_table(
    backend: str, fixtures_dir: Path
) -> None:
    # GS 2016 p128: rows such as "Loss/(gain) related to extinguishment of junior
    # subordinated debt | 3 | (34) | (289)" broke the run; the statement came out
    # as three tables with its operating rows as paragraphs.
    pdf = fixtures_dir / "pdf" / "GS_2016-p128" / "GS_2016-p128.pdf"
    doc = docparse.parse(pdf, backend=backend)
    tables = [[[c for c in r if c] for r in u.table.rows] for u in doc.units if u.table]
    whole = [t for t in tables if ["Deferred income taxes", "551", "425", "495"] in t]
    assert len(whole) == 1
    rows = whole[0]
    assert ["Other, net", "(6,969)", "(5,417)", "(10,095)"] in rows
    assert ["Net cash provided by financing activities", "13,432", "29,118", "18,999"] in rows
    leaked = [u.text for u in doc.units if u.kind == "paragraph" and "(5,417)" in u.text]
    assert not leaked

"""Filing tables whose columns whitespace alone does not give: tight columns,
a wrapped label under the first values, cells holding ranges (fixtures/pdf)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.backends.table_checks import plausible_table, value_cell

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"


def _tables(pdf: Path, backend: str, page: int) -> list[list[list[str]]]:
    doc = docparse.parse(pdf, backend=backend)
    return [[list(r) for r in u.table.rows] for u in doc.units if u.table and u.page == page]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_columns_closer_than_a_word_space_are_read_from_the_values(backend: str) -> None:
    # GS 2016 p141: two points between the columns on some rows; the table was
    # prose (values glued to their labels, every row a paragraph).
    pdf = FIXTURES / "GS_2016-tight-columns" / "GS_2016-tight-columns.pdf"
    rows = [r for t in _tables(pdf, backend, 1) for r in t]
    assert ["Recovery rate", "8.9% to 99.0% (60.6%)", "19.6% to 96.5% (59.4%)"] in rows
    assert ["Growth rate", "N/A", "3.0% to 5.2% (4.5%)"] in rows
    assert ["Level 3 assets", "$10,263", "$8,549"] in rows


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_wrapped_label_under_the_first_values_keeps_the_label_column(backend: str) -> None:
    # GS 2016 p212: "Excess net tax benefit for other share-based" reaches under
    # the 2016 column; each row's 2016 value was glued to its label.
    pdf = FIXTURES / "GS_2016-tight-columns" / "GS_2016-tight-columns.pdf"
    rows = [r for t in _tables(pdf, backend, 2) for r in t]
    assert ["Share-based compensation", "$2,170", "$2,304", "$2,101"] in rows
    assert ["$ in millions", "2016", "2015", "2014"] in rows


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_values_glued_to_the_next_columns_sign_leave_the_label_column(backend: str) -> None:
    # GS 2016 p216: each column's "$" stands against the value before it, and a
    # row read "supervision $ 1,379$ 1,252$ 1,178$ 1,042 $965" passed for a label
    # reaching under the values: every label was glued to its 2016 value.
    pdf = FIXTURES / "GS_2016-p216" / "GS_2016-p216.pdf"
    rows = _tables(pdf, backend, 1)[0]
    assert ["Interest income", "9,691", "8,452", "9,604", "10,060", "11,381"] in rows
    assert ["Alternative investments", "$154", "$148", "$143", "$142", "$151"] in rows
    assert ["Liquidity products", "358", "306", "283", "246", "250"] in rows
    assert rows[2] == ["", "2016", "2015", "2014", "2013", "2012"]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_short_tables_of_ranges_are_tables(backend: str) -> None:
    # Viavi 2019 p40: two header lines over two rows of ranges; the rows were paragraphs.
    pdf = FIXTURES / "viavi-2019-p40" / "viavi-2019-p40.pdf"
    tables = _tables(pdf, backend, 1)
    assert len(tables) == 3
    assert tables[0][2:] == [
        ["0% - 76%", "0% - 96%", "0%"],
        [">76% - 168%", ">96% - 112%", "0% to 150%"],
    ]


def test_ranges_are_values_and_a_short_body_counts_from_its_first_value() -> None:
    assert value_cell(">76% - 168%") and value_cell("3.7% to 23.0% (13.0%)")
    assert not value_cell("Target to date") and not value_cell("2 to 3 years")
    # A chart's age band beside its bar value (ICDAR us-001's Figure 2) is no range.
    assert not value_cell("15 to 24 5.3")
    head = [["Profit", "Revenue", ""], ["as a % of Target", "of Target", "% of TIO"]]
    assert plausible_table([*head, ["0% - 76%", "0% - 96%", "0%"], [">76% - 168%", "1%", "2%"]])
    # Words under the header lines are no values: still no table.
    assert not plausible_table([*head, ["Low", "Mid", "High"], ["Low", "Mid", "High"]])

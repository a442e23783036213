"""The header-row rules the EDGAR twin reader and the PDF backends share."""

from __future__ import annotations

import lxml.html
import pytest

from docparse.backends.table_headers import header_row_count
from docparse.formats.htm import build_table
from docparse.header_rows import UNITS_LABEL, heads_text_columns, without_section_labels


@pytest.mark.parametrize(
    "label",
    [
        "(In millions)",
        "($ in thousands)",
        "(Dollars in millions, except per share amounts)",
        "(in millions, except per share data (a))",
        "(Unaudited)",
        "$ in millions",
        "In thousands",
        "Amounts in thousands",
        "Thousands of dollars",
    ],
)
def test_units_labels(label: str) -> None:
    assert UNITS_LABEL.match(label)


@pytest.mark.parametrize(
    "label",
    ["Revenues", "Current assets:", "Income taxes", "In the normal course:", "Amounts due"],
)
def test_section_labels_are_not_units(label: str) -> None:
    assert not UNITS_LABEL.match(label)


BALANCE = [
    ["", "December 31, 2022", "December 25, 2021"],
    ["(In millions)", "", ""],
    ["Current assets:", "", ""],
    ["Cash", "4,835", "2,535"],
]


def test_section_label_ends_the_heads_and_units_line_stays() -> None:
    # The first values are in row 3: rows 0-2 are candidates, the section label goes.
    assert without_section_labels(BALANCE, 3) == 2
    assert without_section_labels([["", "2023"], ["Revenues", ""], ["Net", "1"]], 2) == 1
    # A lone currency sign split from its value is no section label.
    assert without_section_labels([["", "2023"], ["$", ""], ["Net", "1"]], 2) == 2


@pytest.mark.parametrize(
    ("stub", "heads"),
    [("(In millions)", 2), ("Thousands of dollars", 2), ("Current assets:", 1), ("Amounts due", 1)],
)
def test_twin_and_pdf_count_the_same_header_rows(stub: str, heads: int) -> None:
    # Before the rules were shared the two sides parted on the last two of these.
    rows = [["", "2022", "2021"], [stub, "", ""], ["Cash", "4,835", "2,535"]]
    html = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    table = build_table(lxml.html.fromstring(f"<table>{html}</table>"))
    assert table is not None
    assert table.n_header_rows == header_row_count([tuple(r) for r in rows]) == heads


def test_text_table_heads() -> None:
    exhibits = [["Exhibit", "Description"], ["2.1", "Plan of merger"], ["10.13", "Lease"]]
    assert heads_text_columns(exhibits)
    # A first row shaped like the rows below (item numbers) heads nothing.
    assert not heads_text_columns([["1.1", "Plan"], ["2.1", "Merger"], ["10.13", "Lease"]])
    # A first row whose cell repeats below is a body row.
    assert not heads_text_columns([["Lease", "A"], ["Lease", "B"], ["Plan", "C"]])

"""Header rows of filing tables: the column heads, not the section labels
that open the body (the EDGAR ``.htm`` reader counts them the same way)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.backends.table_headers import header_row_count

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_section_labels_over_the_first_values_are_body_rows(backend: str) -> None:
    # GS 2016 p213 (the fixture's page 4): "Revenues" / "Dividends from
    # subsidiaries:" and "Assets" / "Cash and cash equivalents:" were counted
    # as header rows (4 each).
    pdf = FIXTURES / "GS_2016-two-column" / "GS_2016-two-column.pdf"
    doc = docparse.parse(pdf, backend=backend, config={"pages": (4, 4)})
    tables = [u.table for u in doc.units if u.table is not None]
    heads = {t.rows[t.n_header_rows][0]: t.rows[t.n_header_rows - 1][0] for t in tables}
    assert heads.get("Revenues") == "$ in millions"
    assert heads.get("Assets") == "$ in millions"


def test_units_lines_stay_header_rows() -> None:
    rows = [
        ("", "2022", "2021"),
        ("(In millions)", "", ""),
        ("Current assets:", "", ""),
        ("Cash", "$1", "$2"),
    ]
    assert header_row_count(rows) == 2
    assert header_row_count([rows[0], ("$ in millions", "", ""), *rows[2:]]) == 2
    # A lone "$" split from its value in the stub is no section label.
    assert header_row_count([rows[0], ("$", "", ""), ("", "745", "$1,330")]) == 2
    # Only section labels above the values: no column heads at all.
    assert header_row_count(rows[2:]) == 0

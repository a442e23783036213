"""Runs of rows of numbers sharing a row are one table region (table_repair.joined_runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.backends.table_repair import joined_runs


def test_runs_of_one_width_sharing_a_row_are_one_region() -> None:
    # J&J Q4 2022 p8: a subtotal row closes the upper run and opens the lower one.
    upper, lower = (52.0, 56.0, 739.0, 238.0), (52.0, 229.0, 739.0, 422.0)
    left = (52.0, 56.0, 404.0, 422.0)
    assert joined_runs([upper, lower, left]) == [(52.0, 56.0, 739.0, 422.0), left]
    apart = (52.0, 300.0, 739.0, 422.0)
    assert joined_runs([upper, apart]) == [upper, apart]


@pytest.mark.corpus
@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_statement_page_and_a_captioned_table_keep_all_rows_and_columns(
    corpus_dir: Path, backend: str
) -> None:
    jnj = corpus_dir / "financial" / "JOHNSON_JOHNSON_2022Q4_EARNINGS"
    doc = docparse.parse(
        jnj / "JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf", backend=backend, config={"pages": (8, 8)}
    )
    [table] = [u.table for u in doc.units if u.kind == "table" and u.table is not None]
    assert len(table.rows) >= 30
    # No row of the statement is left out as a paragraph.
    assert not [u for u in doc.units if u.kind == "paragraph" and any(c.isdigit() for c in u.text)]
    # ICDAR us-002 p1: the joined region spans the page's middle under a caption
    # whose last line sits in the left half: all eight columns stay.
    us002 = corpus_dir / "tables_icdar2013" / "us-002" / "us-002.pdf"
    doc = docparse.parse(us002, backend=backend, config={"pages": (1, 1)})
    [table] = [u.table for u in doc.units if u.kind == "table" and u.table is not None]
    assert max(len(r) for r in table.rows) == 8 and len(table.rows) >= 30

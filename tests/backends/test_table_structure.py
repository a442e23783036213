"""Table structure on real pages: column labels, missing-value marks (fixtures/pdf)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.backends.table_headers import header_row_count

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_missing_value_marks_stay_in_their_cells(backend: str) -> None:
    # AASTeX Table 1 (a longtable set sideways): "· · ·" (\nodata) stands for
    # a missing value; pdfplumber reads it as one word "···".
    doc = docparse.parse(FIXTURES / "aastex-table1" / "aastex-table1.pdf", backend=backend)
    rows = [r for u in doc.units if u.kind == "table" and u.table for r in u.table.rows]
    row = next(r for r in rows if r[0] == "CSS081007")
    assert [c.replace(" ", "") for c in row[1:5]] == ["···", "2454596.5", "···", "···"]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_table_continued_on_the_next_page_keeps_its_repeated_header(backend: str) -> None:
    # fhs-3.0 pp38-39: the /var/cache table goes on over one row on p39,
    # under its header row printed again.
    doc = docparse.parse(FIXTURES / "fhs-continued" / "fhs-continued.pdf", backend=backend)
    [unit] = [u for u in doc.units if u.kind == "table" and u.page == 2]
    assert unit.table is not None
    assert unit.table.rows[0] == ("Directory", "Description")
    assert unit.table.n_header_rows == 1


def test_header_rows_repeated_from_the_table_before() -> None:
    head = [("Directory", "Description")]
    rows = [("Directory", "Description"), ("<package>", "Package  specific cache data")]
    assert header_row_count(rows) == 0  # one row below: nothing to compare with
    assert header_row_count(rows, heads_before=head) == 1
    assert header_row_count(rows[1:], heads_before=head) == 0
    assert header_row_count(rows[:1], heads_before=head) == 0  # no row under it


def test_chinese_prose_above_a_table_is_no_header() -> None:
    # debian-reference-zh-cn p145: a heading and two lines of Chinese prose
    # (no spaces: one "word" each to str.split) stand between the running
    # head and the fonts table ruled under its header.
    pdf = FIXTURES / "debian-reference-zh-cn-p145" / "debian-reference-zh-cn-p145.pdf"
    doc = docparse.parse(pdf, backend="pymupdf")
    [unit] = [u for u in doc.units if u.kind == "table"]
    assert unit.table is not None
    assert unit.table.rows[0][0] == "软件包" and unit.table.n_header_rows == 1
    assert any(u.kind == "heading" and u.text.startswith("7.5.1") for u in doc.units)

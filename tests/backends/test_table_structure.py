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


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber", "pypdfium2"])
def test_a_table_continued_on_the_next_page_keeps_its_repeated_header(backend: str) -> None:
    # fhs-3.0 pp38-39: the /var/cache table goes on over one row on p39,
    # under its header row printed again: one table over both pages
    # (backends/table_pages.py), its header once.
    doc = docparse.parse(FIXTURES / "fhs-continued" / "fhs-continued.pdf", backend=backend)
    [unit] = [
        u for u in doc.units if u.kind == "table" and {p.page for p in u.provenance} == {1, 2}
    ]
    assert unit.table is not None
    assert unit.table.rows[0] == ("Directory", "Description")
    assert unit.table.n_header_rows == 1
    assert unit.table.rows.count(("Directory", "Description")) == 1
    assert unit.table.rows[-1][0] == "<package>"


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


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_line_of_many_column_heads_stays_with_its_table(backend: str) -> None:
    # AASTeX Table 1 p16: eleven one-word heads (`Name Vmax Date t2 FWHM
    # E(B-V) NH Period D Dust? RN?`, more words than a label) over a row of
    # units; each gap between two heads stands over a gutter of the body.
    doc = docparse.parse(FIXTURES / "aastex-table1" / "aastex-table1.pdf", backend=backend)
    [unit] = [u for u in doc.units if u.kind == "table" and u.page == 1]
    assert unit.table is not None and unit.table.n_header_rows >= 1
    head = [c.replace(" ", "") for c in unit.table.rows[0]]
    assert head[0] == "Name" and head[-2:] == ["Dust?", "RN?"] and all(head)
    assert not any(u.kind == "paragraph" and "FWHM" in u.text for u in doc.units)
    # The caption above stays out of the table.
    assert any(u.kind == "caption" and u.text.startswith("Table 1.") for u in doc.units)


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_stacked_column_heads_join_their_table(backend: str) -> None:
    # us-020 p2 (PIRLS 2011, Table A-1): heads wrapped over four lines above
    # the rows of values; the last of them (`Education system coverage ...
    # response rate`) holds more words than a label.
    doc = docparse.parse(FIXTURES / "us-020" / "us-020.pdf", backend=backend)
    [unit] = [u for u in doc.units if u.kind == "table" and u.page == 2]
    table = unit.table
    assert table is not None and table.n_header_rows >= 2
    assert any("Education system" in c for r in table.rows[: table.n_header_rows] for c in r)
    assert table.rows[table.n_header_rows][:2] == ("Australia", "100")


def _body_columns_filled(rows: tuple[tuple[str, ...], ...], n_header: int) -> list[bool]:
    return [any(r[c].strip() for r in rows[n_header:]) for c in range(len(rows[0]))]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_head_left_of_its_values_heads_their_column(backend: str) -> None:
    # J&J Q4 2022 p24: the head `Other` stands left of its column's
    # right-aligned values, over none of them; it made a column of its own,
    # empty in every body row, with the values one column to its right.
    doc = docparse.parse(FIXTURES / "JNJ_2022Q4-p24" / "JNJ_2022Q4-p24.pdf", backend=backend)
    tables = [u.table for u in doc.units if u.kind == "table" and u.table is not None]
    headed = [t for t in tables if any("Other" in c for c in t.rows[0])]
    assert len(headed) == 4
    for t in headed:
        assert all(_body_columns_filled(t.rows, t.n_header_rows))
        other = next(c for c, text in enumerate(t.rows[0]) if text == "Other")
        row = next(r for r in t.rows if r[0] == "Provision for taxes on income")
        assert row[other] in {"-", "(2)"}


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_right_aligned_heads_stand_over_their_values(backend: str) -> None:
    # us-020 p2: heads wider than their columns, right-aligned over them, with
    # column rules drawn in part of the table; placed by their left ends they
    # stood over the column to the left, or in a column of their own.
    doc = docparse.parse(FIXTURES / "us-020" / "us-020.pdf", backend=backend)
    [unit] = [u for u in doc.units if u.kind == "table" and u.page == 2]
    table = unit.table
    assert table is not None
    n = table.n_header_rows
    assert all(_body_columns_filled(table.rows, n))
    heads = [" ".join(r[c] for r in table.rows[:n]) for c in range(len(table.rows[0]))]
    assert table.rows[n][4] == "98" and "after substitution" in heads[4]
    assert table.rows[n][5] == "95" and "Weighted student" in heads[5]
    assert "Combined" in heads[6]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_a_column_rule_parts_two_heads_set_close(backend: str) -> None:
    # us-001 p3 (Table 2): `Estimate` and `Margin of` are set closer than a word
    # space, one phrase; the middle of the gap between their columns' values
    # fell inside `Margin`, and both heads stood in the Estimate column. The
    # drawn rule between the two words parts them.
    doc = docparse.parse(FIXTURES / "icdar2013-us-001" / "us-001.pdf", backend=backend)
    [table] = [u.table for u in doc.units if u.kind == "table" and u.page == 3 and u.table]
    body = next(i for i, r in enumerate(table.rows) if r[0].startswith("All people"))
    col = table.rows[body].index("18.6")
    assert table.rows[body][col + 1] == "0.3"
    heads = [" ".join(r[c] for r in table.rows[:body]) for c in (col, col + 1)]
    assert "Estimate" in heads[0] and "Margin" not in heads[0]
    assert "Margin of" in heads[1]

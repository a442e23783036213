"""benchmarks.financial_rows: which texts read as table rows, which table rows are shifted."""

from __future__ import annotations

from pathlib import Path

from benchmarks.financial_rows import filing_pdfs, row_text, shifted_rows
from docparse.model import Table


def test_statement_rows_in_text_are_counted() -> None:
    assert row_text("$ 2,632 $ 416 Short-term investments") == 1
    assert row_text("1,009,273 914,476 Operating lease assets") == 1
    assert row_text("2023 2022 2021") == 1
    assert row_text("Net loss (1,087) (1,035) (1,043)") == 1
    assert row_text("Gross margin 24.7 % 20.1 %") == 1
    # Two rows run together weigh two.
    assert row_text("Cash 1,200 1,100 Inventories 300 250") == 2


def test_prose_dates_and_note_marks_are_no_rows() -> None:
    assert row_text("As of June 30, 2017, the aggregate market value was $387 billion.") == 0
    assert row_text("Other commitments (4) (5)") == 0
    assert row_text("Year Ended December 31, 2018") == 0
    assert row_text("Pro Forma Financial Information - 2017 Acquisition Activity") == 0
    long = "Revenue grew. We sold more units in 2022 than 2021 " * 3 + "1,200 1,300"
    assert row_text(long) == 0


def test_a_row_with_its_values_one_column_off_is_shifted() -> None:
    table = Table(
        rows=(
            ("", "2022", "", "2021", ""),
            ("Cost of revenue", "$", "178", "$", "160"),
            ("Research", "3,423", "", "3,100", ""),
            ("Marketing", "1,200", "", "1,100", ""),
            ("General", "900", "", "850", ""),
        ),
        n_header_rows=1,
    )
    assert shifted_rows(table) == 1
    straight = Table(rows=table.rows[:1] + table.rows[2:], n_header_rows=1)
    assert shifted_rows(straight) == 0


def test_filings_are_the_financial_folder_and_company_reports(tmp_path: Path) -> None:
    for rel in (
        "financial/A_10K/A.pdf",
        "qa_evidence/uda-finqa-B/B.pdf",
        "qa_evidence/uda-paper-C/C.pdf",
        "research/D/D.pdf",
    ):
        (tmp_path / rel).parent.mkdir(parents=True)
        (tmp_path / rel).write_bytes(b"%PDF-1.4")
    assert [p.stem for p in filing_pdfs(tmp_path)] == ["A", "B"]

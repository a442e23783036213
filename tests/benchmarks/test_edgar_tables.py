"""benchmarks.edgar_tables: which rows of a twin table count as leaked when found in text."""

from __future__ import annotations

from benchmarks.edgar_tables import number_rows
from docparse.model import Table


def test_edgar_leak_rows_are_body_rows_of_values() -> None:
    # A header row of dates is no row of values: the same dates stand in sentences.
    table = Table(
        rows=(
            ("", "December 31, 2022", "December 25, 2021"),
            ("Net revenue", "$23,601", "$16,434"),
            ("Cost of sales", "11,550", "8,505"),
            ("Restructuring:", "", ""),
        ),
        n_header_rows=1,
    )
    rows = number_rows(table)
    assert len(rows) == 2
    assert rows[0].startswith("net revenue")
    assert not any("december" in r for r in rows)

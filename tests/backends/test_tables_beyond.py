"""table_whitespace.numeric_tables_beyond: value rows that a partly ruled statement left out."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.backends.table_candidates import Line, PageInputs, Word
from docparse.backends.table_combine import SIDE_SLACK, with_extra_tables
from docparse.backends.table_whitespace import numeric_tables_beyond
from tests.synthetic_pages import line_words


def _statement() -> PageInputs:
    """A balance sheet: a label column and two value columns, 12 rows 14 points apart."""
    rows = [
        ("Cash and cash equivalents", "19,334", "20,522"),
        ("Marketable securities", "6,647", "10,464"),
        ("Inventories", "11,461", "16,047"),
        ("Total current assets", "45,781", "60,197"),
        ("Current liabilities:", "", ""),
        ("Accounts payable", "25,309", "34,616"),
        ("Accrued expenses and other", "13,739", "18,170"),
        ("Unearned revenue", "4,768", "5,097"),
        ("Total current liabilities", "43,816", "57,883"),
        ("Long-term debt", "7,694", "24,743"),
        ("Retained earnings", "4,916", "8,636"),
        ("Total stockholders' equity", "19,285", "27,709"),
    ]
    words: list[Word] = []
    lines: list[Line] = []
    for i, (label, a, b) in enumerate(rows):
        top = 200.0 + 14.0 * i
        for x, text in ((40.0, label), (420.0, a), (520.0, b)):
            if text:
                ws = line_words(x, top, text)
                words += ws
                lines.append(((ws[0][0], top, ws[-1][2], top + 11.0), text))
    return PageInputs(612, 792, tuple(words), tuple(lines))


def test_unruled_rows_below_a_shaded_piece_are_read_as_one_table() -> None:
    inputs = _statement()
    # A ruled strategy read the shaded first four rows only (shading reaches past the words).
    piece = ((34.0, 198.0, 558.0, 254.0), [["Cash and cash equivalents", "19,334", "20,522"]])
    beyond = numeric_tables_beyond([piece[0]], inputs, [])
    assert len(beyond) == 1
    merged = with_extra_tables(
        [piece], beyond, lambda g: g[0], lambda g: g[1], side_slack=SIDE_SLACK
    )
    assert len(merged) == 1
    rows = merged[0][1]
    labels = [r[0] for r in rows]
    assert "Cash and cash equivalents" in labels
    assert "Total stockholders' equity" in labels
    assert ["Accounts payable", "25,309", "34,616"] in rows


def test_nothing_is_read_again_when_the_ruled_tables_hold_every_row_of_values() -> None:
    inputs = _statement()
    whole = (30.0, 198.0, 580.0, 370.0)
    assert numeric_tables_beyond([whole], inputs, []) == []


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_stacked_year_blocks_read_as_one_ruled_grid_come_out_whole(
    backend: str, fixtures_dir: Path
) -> None:
    # 3M 2018 10-K p73: three year blocks stacked, each under its own header.
    # The ruled search read them as one grid down to the first row of the 2016
    # block; that block's other rows came out as paragraphs.
    pdf = fixtures_dir / "pdf" / "3M_2018_10K-p73" / "3M_2018_10K-p73.pdf"
    doc = docparse.parse(pdf, backend=backend)
    rows = [[c for c in r if c] for u in doc.units if u.table for r in u.table.rows]
    assert ["Electronics and Energy", "918", "3,183", "559", "264", "2", "4,926"] in rows
    assert ["Total Company", "$12,188", "$8,847", "$6,163", "$2,901", "$10", "$30,109"] in rows
    leaked = [u.text for u in doc.units if u.kind == "paragraph" and "4,926" in u.text]
    assert not leaked

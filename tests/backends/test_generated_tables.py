"""Generated table pairs (``fixtures/tables_generated``): PDF tables against their HTML source.

The pairs come from ``benchmarks/table_pairs.py`` (HTML printed by Chromium,
LaTeX compiled by pdflatex); neither is needed here, the PDFs are committed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from align.metrics.tables import normalize_cell
from align.project import project

PAIRS = Path(__file__).resolve().parents[2] / "fixtures" / "tables_generated"


def _body(table: docparse.Table) -> list[tuple[str, ...]]:
    return [tuple(normalize_cell(c) for c in row) for row in table.rows[table.n_header_rows :]]


@pytest.mark.parametrize(
    "name",
    [
        *("statement-3", "quarters-5", "zebra-1", "two-3", "statement-7", "statement-8"),
        *("quarters-7", "texgroups-1", "texstatement-1", "quarters-1", "quarters-4"),
        *("texpaper-3", "narrow-6"),
    ],
)
def test_generated_table_body_rows_match_the_html(name: str) -> None:
    # Every gold table is found whole: same header row count and, row by row,
    # the same body cells (``$`` cells joined to their amounts, section label
    # rows kept, indented labels whole).
    source = PAIRS / f"{name}.htm"
    twin = docparse.parse(source if source.is_file() else source.with_suffix(".tex"))
    parsed = docparse.parse(PAIRS / f"{name}.pdf", backend="pymupdf")
    units = {u.id: u for u in [*twin.units, *parsed.units]}
    proj = project(twin, parsed)
    assert proj.tables
    for t in proj.tables:
        gold = units[t.twin_id].table
        assert gold is not None and t.parsed_id is not None
        got = units[t.parsed_id].table
        assert got is not None
        assert got.n_header_rows == gold.n_header_rows
        assert _body(got) == _body(gold)


@pytest.mark.parametrize(
    ("name", "heads"),
    [
        ("quarters-1", ("Sept. 30, 2023", "Sept. 28, 2022", "% Change")),
        ("quarters-4", ("Q2", "Q4", "% Change")),
    ],
)
def test_head_cells_wrapped_in_two_lines_are_one_header_row(
    name: str, heads: tuple[str, ...]
) -> None:
    # A date wrapped inside its cell (``Sept. 30,`` over ``2023``) and a
    # ``%``/``Change`` head on two lines are one header row each: the lines sit
    # at the spacing of the body's wrapped labels, closer than its rows.
    parsed = docparse.parse(PAIRS / f"{name}.pdf", backend="pymupdf")
    tables = [u.table for u in parsed.units if u.table is not None]
    assert len(tables) == 1
    table = tables[0]
    assert table.n_header_rows == 2
    assert set(heads) <= set(table.rows[1])


def test_heads_set_to_the_foot_of_their_cells_are_one_header_row() -> None:
    # ``Rate`` / ``type``, ``Maturity`` / ``date`` ... on two lines, ``Ranking``
    # and the stub's ``Instrument`` on the lower line only: one header row, as
    # the HTML has it (the lines stand closer than the body's rows).
    twin = docparse.parse(PAIRS / "textcols-1.htm")
    parsed = docparse.parse(PAIRS / "textcols-1.pdf", backend="pymupdf")
    (gold,) = [u.table for u in twin.units if u.table is not None]
    (got,) = [u.table for u in parsed.units if u.table is not None]
    assert got.n_header_rows == gold.n_header_rows == 1
    assert got.rows[0] == gold.rows[0]

"""Statements in one column of a two-column filing page (table_repair.column_runs_first,
table_repair.without_larger_type and with_closing_rows, tables.within_margins)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.backends.table_repair import (
    column_runs_first,
    with_closing_rows,
    without_larger_type,
)
from docparse.backends.table_whitespace import within_margins

PAGES = {"aus": 1, "cash": 2, "derivatives": 3, "parent": 4, "loans": 5}


@pytest.fixture(scope="module", params=["pymupdf", "pdfplumber"])
def tables(request: pytest.FixtureRequest, fixtures_dir: Path) -> dict[int, list[list[list[str]]]]:
    pdf = fixtures_dir / "pdf" / "GS_2016-two-column" / "GS_2016-two-column.pdf"
    doc = docparse.parse(pdf, backend=request.param)
    out: dict[int, list[list[list[str]]]] = {}
    for u in doc.units:
        if u.table is not None:
            out.setdefault(u.page, []).append([[c for c in r if c] for r in u.table.rows])
    return out


def _rows(tables: dict[int, list[list[list[str]]]], page: str) -> list[list[str]]:
    return [r for t in tables.get(PAGES[page], []) for r in t]


def test_a_statement_beside_prose_quoting_figures_is_read_in_its_column(
    tables: dict[int, list[list[list[str]]]],
) -> None:
    # GS 2016 p78: the prose column quotes "$3.03 billion in 2015, 24% lower
    # than 2014"; the statement beside it keeps its rows and takes no prose.
    rows = _rows(tables, "aus")
    assert ["Total long-term AUS net inflows/(outflows)", "42", "71", "74"] in rows
    assert ["Ending balance", "$1,379", "$1,252", "$1,178"] in rows
    assert not [c for r in rows for c in r if "basis points" in c or "billion in" in c]
    # p140: the Dec-2016 liability rows are table rows, labels beside their values.
    rows = _rows(tables, "cash")
    assert ["Money market instruments", "$188", "$1,131", "$—", "$1,319"] in rows
    assert [
        "Non-U.S. government and agency obligations",
        "(19,137)",
        "(1,364)",
        "(1)",
        "(20,502)",
    ] in rows
    assert ["Other debt obligations", "—", "(1)", "—", "(1)"] in rows
    assert not [c for r in rows for c in r if "performance" in c or "multiples" in c]
    # p148: a statement in the left column beside a table and prose in the right one.
    rows = _rows(tables, "derivatives")
    assert [
        "Counterparty netting within levels",
        "(12)",
        "(564,100)",
        "(1,417)",
        "(565,529)",
    ] in rows
    # Its net rows under the last subtotal hold one value each: rows of the table.
    assert ["Cross-level counterparty netting", "1,709"] in rows
    assert ["Cash collateral netting", "42,986"] in rows
    assert ["Net fair value", "$(47,499)"] in rows
    assert ["Net fair value", "$(46,771)"] in rows


def test_a_last_row_set_across_the_bottom_margin_stays_in_its_table(
    tables: dict[int, list[list[list[str]]]],
) -> None:
    # p140: the Dec-2015 table's last row starts above the 6% margin, ends below it.
    rows = _rows(tables, "cash")
    assert [
        "Total cash instrument liabilities",
        "$(59,769)",
        "$(8,515)",
        "$(193)",
        "$(68,477)",
    ] in rows


def test_statements_side_by_side_are_two_tables_without_title_or_notes(
    tables: dict[int, list[list[list[str]]]],
) -> None:
    # p213: the parent company's earnings and financial condition side by side.
    found = tables[PAGES["parent"]]
    assert len(found) == 2
    earnings, condition = found
    assert ["Net earnings", "7,398", "6,083", "8,477"] in earnings
    assert ["Bank subsidiaries", "$53", "$32", "$16"] in earnings
    # The larger title above and the note paragraph below are no rows.
    cells = [c for t in found for r in t for c in r]
    assert not [c for c in cells if "Condensed Statements" in c or "billion" in c]
    # The closing total has a long label and two values.
    assert condition[-1][0].replace(" ", "").startswith("Totalliabilitiesandshareholders")
    assert condition[-1][1:] == ["$295,682", "$288,056"]
    # p220: a statement in each column, each its own table.
    rows = _rows(tables, "loans")
    assert ["Total non-U.S.", "4,512", "4,220", "1,149", "852", "14"] in rows
    assert not [r for r in rows if any("Corporate loans" in c for c in r) and len(r) > 6]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_short_labels_of_the_right_column_stay_out_of_the_left_ones_table(
    backend: str, fixtures_dir: Path
) -> None:
    # GS 2016 p118: the right column's one-word labels (A, AA) end left of the
    # page's middle; read as the left column's, they pulled its statement across
    # the gutter, and the statement came out in pieces, its AAA row a paragraph.
    pdf = fixtures_dir / "pdf" / "GS_2016-p118" / "GS_2016-p118.pdf"
    doc = docparse.parse(pdf, backend=backend)
    tables = [[[c for c in r if c] for r in u.table.rows] for u in doc.units if u.table]
    cash = [t for t in tables if ["Sovereign", "95,092", "62,130"] in t]
    assert len(cash) == 1
    assert ["AAA", "$ 83,899", "$55,626"] in cash[0] or ["AAA", "$83,899", "$55,626"] in cash[0]
    assert ["BB or lower", "68", "95"] in cash[0]
    assert not [u for u in doc.units if u.kind == "paragraph" and "83,899" in u.text]


def test_closing_rows_take_one_value_rows_with_a_label_at_the_left_edge() -> None:
    words = [
        w
        for i in range(3)
        for w in (
            (50.0, 100.0 + 10 * i, 80.0, 107.0 + 10 * i, f"Item{i}"),
            (300.0, 100.0 + 10 * i, 330.0, 107.0 + 10 * i, "1,000"),
            (350.0, 100.0 + 10 * i, 380.0, 107.0 + 10 * i, "2,000"),
        )
    ]
    net = [
        (50.0, 131.0, 70.0, 138.0, "Net"),
        (74.0, 131.0, 94.0, 138.0, "value"),
        (350.0, 131.0, 380.0, 138.0, "3,000"),
    ]
    region = (45.0, 98.0, 400.0, 128.0)
    assert with_closing_rows(region, words + net)[3] == pytest.approx(139.0)
    # Indented, or a sentence, or a value off the columns: no row of the table.
    indented = [(60.0, *w[1:]) if w[4] == "Net" else w for w in net]
    assert with_closing_rows(region, words + indented)[3] == 128.0
    sentence = [(*w[:4], "value.") if w[4] == "value" else w for w in net]
    assert with_closing_rows(region, words + sentence)[3] == 128.0
    off = [(340.0, 131.0, 370.0, 138.0, "3,000") if w[4] == "3,000" else w for w in net]
    assert with_closing_rows(region, words + off)[3] == 128.0
    # One value in a column other than the last (a contents list's page number
    # under the left half of a two-column list) is no closing row either.
    inner = [(300.0, 131.0, 330.0, 138.0, "3,000") if w[4] == "3,000" else w for w in net]
    assert with_closing_rows(region, words + inner)[3] == 128.0
    # A contents line's page number led to by dots is no closing row.
    leaders = [*net, (100.0, 131.0, 346.0, 138.0, ". . . . . . . . . . . . . . . . . . .")]
    assert with_closing_rows(region, words + leaders)[3] == 128.0


def test_column_runs_first_keeps_a_table_across_the_page() -> None:
    # One table across a one-column page: label left of the middle, values right.
    words = []
    lines = []
    for i, label in enumerate(["Revenue", "Costs", "Income"]):
        y = 100.0 + 12 * i
        row = [
            (50.0, y, 90.0, y + 8, label),
            (400.0, y, 430.0, y + 8, "1,234"),
            (450.0, y, 480.0, y + 8, "5,678"),
        ]
        words.extend(row)
        lines.extend(((w[0], w[1], w[2], w[3]), w[4]) for w in row)
    run = (48.0, 99.0, 482.0, 133.0)
    assert column_runs_first([run], lines, words, 600.0) == [run]


def test_region_ends_are_cut_at_larger_type_and_grown_over_closing_rows() -> None:
    def row(
        y: float, h: float, *texts: tuple[float, str]
    ) -> list[tuple[float, float, float, float, str]]:
        return [(x, y, x + 6 * len(t), y + h, t) for x, t in texts]

    title = row(80.0, 10.0, (50.0, "Condensed"), (108.0, "Statements"))
    body = [
        w
        for i in range(3)
        for w in row(100.0 + 10 * i, 7.0, (50.0, f"Item{i}"), (300.0, "1,000"), (350.0, "2,000"))
    ]
    total = row(
        131.0,
        7.0,
        (50.0, "Total"),
        (90.0, "liabilities"),
        (160.0, "and"),
        (180.0, "equity"),
        (294.0, "$3,000"),
        (344.0, "$4,000"),
    )
    words = title + body + total
    region = (45.0, 78.0, 400.0, 128.0)
    cut = without_larger_type(region, words)
    assert 90.0 < cut[1] < 100.0 and cut[3] == 128.0
    grown = with_closing_rows(cut, words)
    assert grown[3] == pytest.approx(139.0)
    # A bottom margin cutting through a line keeps the line whole; a top margin cuts.
    assert within_margins((45.0, 0.0, 400.0, 500.0), words, 0.0, 134.0)[3] == pytest.approx(138.0)
    assert within_margins((45.0, 0.0, 400.0, 500.0), words, 85.0, 134.0)[1] == 85.0

"""table_repair.header_blocks: two tables stacked in one region, each under its own header."""

from __future__ import annotations

from collections.abc import Sequence

from docparse.backends.table_candidates import Line, PageInputs, Word
from docparse.backends.table_combine import SIDE_SLACK, with_extra_tables
from docparse.backends.table_reading import region_grids
from docparse.backends.table_repair import header_blocks
from docparse.backends.table_whitespace import numeric_tables_beyond
from tests.synthetic_pages import line_words

Row = Sequence[tuple[float, str]]


def _page(rows: Sequence[Row], top: float = 100.0) -> PageInputs:
    """Rows of ``(x, text)`` pieces, 14 points apart."""
    words: list[Word] = []
    lines: list[Line] = []
    for i, row in enumerate(rows):
        y = top + 14.0 * i
        for x, text in row:
            ws = line_words(x, y, text)
            words += ws
            lines.append(((ws[0][0], y, ws[-1][2], y + 11.0), text))
    return PageInputs(612, 792, tuple(words), tuple(lines))


_LABELS = ("Industrial", "Safety", "Health Care", "Consumer", "Total Company")
#: Net sales and operating income over three years each, then assets, depreciation and
#: capital spending over three years each: the second table's columns fall between the
#: first one's.
_SALES: list[Row] = [
    [(200.0, "Net Sales"), (350.0, "Operating Income")],
    [(40.0, "(Millions)"), *((200.0 + 60.0 * k, str(2018 - k % 3)) for k in range(6))],
    *(
        [(40.0, label), *((200.0 + 60.0 * k, f"{9 - i},{k}00") for k in range(6))]
        for i, label in enumerate(_LABELS)
    ),
]
_ASSETS: list[Row] = [
    [(150.0, "Assets"), (300.0, "Depreciation"), (450.0, "Capital Expenditures")],
    [(40.0, "(Millions)"), *((150.0 + 45.0 * k, str(2018 - k % 3)) for k in range(9))],
    *(
        [(40.0, label), *((150.0 + 45.0 * k, f"{i + 1}{k}5") for k in range(9))]
        for i, label in enumerate(_LABELS)
    ),
]


def test_a_second_year_header_after_rows_of_values_starts_a_table() -> None:
    inputs = _page([*_SALES, *_ASSETS])
    clip = (30.0, 95.0, 580.0, 100.0 + 14.0 * 14 + 12)
    parts = header_blocks(inputs.words, clip)
    assert len(parts) == 2
    # The cut falls between the first table's last row and the second one's header.
    assert 100.0 + 14.0 * 6 + 11 <= parts[0][3] <= 100.0 + 14.0 * 7
    grids = region_grids(inputs.words, clip, lines=inputs.lines)
    assert len(grids) == 2
    first, second = (g[1] for g in grids)
    assert ["Industrial", *(f"9,{k}00" for k in range(6))] in first
    # Each table has columns of its own: one value a cell.
    assert ["Consumer", *(f"4{k}5" for k in range(9))] in second
    assert any("Assets" in r for r in second)


def test_one_year_heading_a_block_and_section_labels_start_no_table() -> None:
    rows: list[Row] = [
        [(40.0, "(Millions)"), (300.0, "2018"), (400.0, "2017")],
        [(40.0, "Current assets:")],
        [(40.0, "Cash"), (300.0, "1,200"), (400.0, "1,100")],
        [(40.0, "Inventories"), (300.0, "2,200"), (400.0, "2,100")],
        [(40.0, "2016 acquisitions")],
        [(300.0, "2016")],
        [(40.0, "Goodwill"), (300.0, "3,200"), (400.0, "3,100")],
        [(40.0, "Total"), (300.0, "6,600"), (400.0, "6,300")],
    ]
    inputs = _page(rows)
    clip = (30.0, 95.0, 580.0, 100.0 + 14.0 * len(rows))
    assert header_blocks(inputs.words, clip) == [clip]


def test_a_stacked_table_whose_values_ruled_pieces_hold_is_read_again() -> None:
    # The first table has a row no ruled piece holds; the second one's rows all sit
    # in a piece that spans its first three columns only (cut at a column rule).
    inputs = _page([*_SALES, *_ASSETS])
    top2 = 100.0 + 14.0 * 7
    pieces = [
        ((38.0, 100.0 + 14.0 * 2 - 1, 340.0, 100.0 + 14.0 * 5), [["Industrial", "9,000"]]),
        ((38.0, top2 + 28.0 - 1, 300.0, top2 + 14.0 * 7), [["Industrial", "105"]]),
    ]
    beyond = numeric_tables_beyond([p[0] for p in pieces], inputs, [])
    assert len(beyond) == 2
    merged = with_extra_tables(
        pieces, beyond, lambda g: g[0], lambda g: g[1], side_slack=SIDE_SLACK
    )
    assert len(merged) == 2
    assert all(len(g[1]) == 7 for g in merged)


def test_rows_a_ruled_piece_holds_only_in_part_are_read_again() -> None:
    # A piece cut at a column rule holds each row's label and first values (and the
    # rows' middles), not the rest of their values.
    inputs = _page(_ASSETS)
    piece = ((38.0, 127.0, 300.0, 100.0 + 14.0 * 7), [["Industrial", "105"]])
    beyond = numeric_tables_beyond([piece[0]], inputs, [])
    merged = with_extra_tables(
        [piece], beyond, lambda g: g[0], lambda g: g[1], side_slack=SIDE_SLACK
    )
    assert len(merged) == 1
    assert ["Consumer", *(f"4{k}5" for k in range(9))] in merged[0][1]

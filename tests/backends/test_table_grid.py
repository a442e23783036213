"""Reading a table's cells from its words: symbols, column boundaries, merged cells, rules.

The word boxes below are copied from real pages (the Chromium-printed AMD
10-K's statement of operations summary, ICDAR-2013 ``eu-019`` and ``us-003``)
so that the geometry is the one the rules were written for.
"""

from __future__ import annotations

from docparse.backends.table_candidates import Word
from docparse.backends.table_grid import attach_symbols, merge_symbol_cells, word_grid
from docparse.backends.table_headers import UNITS_LINE, header_row_count
from docparse.backends.table_regions import rule_bounded_regions
from docparse.backends.table_repair import column_starts, spread_merged_cells
from docparse.backends.words import merge_continuation_rows

# Two value columns of a 10-K statement: "$" at each cell's left edge, values
# right-aligned, the date headers centred over sign and value.
STATEMENT: list[Word] = [
    (356, 456, 395, 465, "December"),
    (398, 456, 410, 465, "31,"),
    (412, 456, 428, 465, "2022"),
    (482, 456, 521, 465, "December"),
    (524, 456, 536, 465, "25,"),
    (538, 456, 554, 465, "2021"),
    (386, 468, 398, 476, "(In"),
    (400, 468, 430, 476, "millions,"),
    (432, 468, 460, 476, "except"),
    (462, 468, 474, 476, "for"),
    (476, 468, 523, 476, "percentages)"),
    (35, 478, 56, 490, "Net"),
    (58, 478, 89, 490, "revenue"),
    (333, 478, 338, 490, "$"),
    (409, 478, 439, 490, "23,601"),
    (459, 478, 464, 490, "$"),
    (535, 478, 565, 490, "16,434"),
    (35, 491, 56, 502, "Cost"),
    (58, 491, 66, 502, "of"),
    (68, 491, 93, 502, "sales"),
    (409, 491, 439, 502, "11,550"),
    (540, 491, 565, 502, "8,505"),
    (35, 505, 100, 516, "Amortization"),
    (414, 505, 439, 516, "1,448"),
    (555, 505, 565, 516, "—"),
    (35, 530, 62, 541, "Gross"),
    (64, 530, 95, 541, "margin"),
    (428, 530, 446, 541, "45"),
    (446, 530, 451, 541, "%"),
    (554, 530, 572, 541, "48"),
    (572, 530, 577, 541, "%"),
    (35, 583, 77, 594, "Licensing"),
    (79, 583, 99, 594, "gain"),
    (419, 583, 442, 594, "(102)"),
    (550, 583, 568, 594, "(12)"),
]


def test_signs_join_the_value_they_belong_to() -> None:
    row = [
        (333.0, 478.0, 338.0, 490.0, "$"),
        (409.0, 478.0, 439.0, 490.0, "23,601"),
        (428.0, 530.0, 446.0, 541.0, "45"),
        (446.0, 530.0, 451.0, 541.0, "%"),
    ]
    assert [w[4] for w in attach_symbols(row)] == ["$23,601", "45%"]
    # The joined value's box starts at its sign, as its cell does.
    assert attach_symbols(row)[0][:3] == (333.0, 478.0, 439.0)
    # A closing bracket of a header ("(FFr bn.)") takes no "%" of the next header.
    header = [(0.0, 0.0, 40.0, 8.0, "bn.)"), (60.0, 0.0, 66.0, 8.0, "%"), (70, 0, 80, 8, "of")]
    assert [w[4] for w in attach_symbols(header)] == ["bn.)", "%", "of"]
    # A "$" before a word is left alone.
    assert [w[4] for w in attach_symbols([(0, 0, 5, 8, "$"), (9, 0, 30, 8, "amounts")])] == [
        "$",
        "amounts",
    ]


def test_statement_columns_hold_sign_value_and_centred_header() -> None:
    words = [(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in STATEMENT]
    found = word_grid(words, (30, 450, 580, 600))
    assert found is not None
    rows = found[1]
    assert rows == [
        ["", "December 31, 2022", "December 25, 2021"],
        ["", "(In millions, except for percentages)", ""],
        ["Net revenue", "$23,601", "$16,434"],
        ["Cost of sales", "11,550", "8,505"],
        ["Amortization", "1,448", "—"],
        ["Gross margin", "45%", "48%"],
        ["Licensing gain", "(102)", "(12)"],
    ]


def test_a_shading_edge_through_a_value_is_no_column() -> None:
    words = [(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in STATEMENT]
    # Cell fills of the "$" cells put "rules" at 339 and 465, inside "$23,601" / "$16,434".
    found = word_grid(words, (30, 450, 580, 600), rules=[339.0, 465.0])
    assert found is not None
    assert max(len(r) for r in found[1]) == 3


def test_nil_marks_do_not_keep_split_value_columns_apart() -> None:
    grid = [
        ["Net revenue", "$", "23,601", "", "$", "16,434"],
        ["Cost of sales", "11,550", "", "", "8,505", ""],
        ["Amortization", "1,448", "", "", "—", ""],
    ]
    assert merge_symbol_cells(grid) == [
        ["Net revenue", "$23,601", "$16,434"],
        ["Cost of sales", "11,550", "8,505"],
        ["Amortization", "1,448", "—"],
    ]


def test_a_head_drawn_over_the_sign_cell_and_the_amount_goes_over_the_amounts() -> None:
    # Generated pair ruled-2: a fully ruled grid prints "$" in a cell of its
    # own; the year head spans that cell and the amount's, and is read into
    # the first. With the signs joined to the amounts, the head goes with them.
    grid = [
        ["Segment", "2024", "", "2020", "", "Share of total"],
        ["Consumer Health", "$", "(2,817)", "$", "64", "40.5%"],
        ["Asia Pacific", "", "—", "", "77,684", "47.9%"],
        ["Total", "$", "(11,833)", "$", "30", "100.0%"],
    ]
    assert merge_symbol_cells(grid) == [
        ["Segment", "2024", "2020", "Share of total"],
        ["Consumer Health", "$(2,817)", "$64", "40.5%"],
        ["Asia Pacific", "—", "77,684", "47.9%"],
        ["Total", "$(11,833)", "$30", "100.0%"],
    ]
    # A text column whose cells stand beside the values is no head.
    notes = [["Item", "Note", "2024"], ["Revenue", "", "5,000"], ["Cost", "see 4", "300"]]
    assert merge_symbol_cells(notes) == notes


def test_a_percent_column_header_stays_a_header_cell() -> None:
    # us-027: "Age | Enrollment | %" heads a column of percentages.
    grid = [["Age", "Enrollment", "%"], ["14-17", "231,000", "1.3"], ["Gross margin", "45", "%"]]
    assert merge_symbol_cells(grid) == [
        ["Age", "Enrollment", "%"],
        ["14-17", "231,000", "1.3"],
        ["Gross margin", "45%", ""],
    ]


def _x(w: tuple[float, float, str]) -> tuple[float, float, float]:
    return w[0], w[1], 8.0


def test_merged_body_cells_are_spread_over_the_header_columns() -> None:
    # eu-019: column lines only in the header, so each body row is one cell.
    boxes = [
        [(85, 134, 165, 150), (165, 134, 225, 150), (225, 134, 285, 150), (285, 134, 345, 150)],
        [(85, 150, 345, 162), None, None, None],
    ]
    starts = column_starts(boxes)
    assert starts == [85, 165, 225, 285]
    body = [(88.0, 110.0, "Germany"), (190.0, 204.0, "14.3"), (250.0, 264.0, "76.2")]
    body.append((320.0, 330.0, "21"))
    spread = spread_merged_cells([body, None, None, None], boxes[1], starts, _x)
    assert [[w[2] for w in c or []] for c in spread] == [["Germany"], ["14.3"], ["76.2"], ["21"]]
    # One phrase centred over two columns is a spanning cell and stays whole.
    header = [(180.0, 198.0, "Year"), (200.0, 222.0, "Ended")]
    span_boxes = [(165, 120, 285, 130), None]
    kept = spread_merged_cells([header, None], span_boxes, [165.0, 225.0], _x)
    assert [[w[2] for w in c or []] for c in kept] == [["Year", "Ended"], []]


def test_top_middle_bottom_rules_bound_a_table_without_caption() -> None:
    # us-003: a page-header rule, then the table's three rules; prose between.
    rules = [(71.0, 50.0, 541.0), (71.0, 298.0, 541.0), (72.0, 311.0, 540.0), (72.0, 371.0, 540.0)]
    lines = [
        ((108.0, 250.0, 540.0, 262.0), "For each year, respondents were divided into four groups"),
        ((180.0, 300.0, 210.0, 310.0), "1994"),
        ((290.0, 300.0, 320.0, 310.0), "1997"),
        ((76.0, 320.0, 110.0, 330.0), "Lowest"),
        ((180.0, 320.0, 260.0, 330.0), "$9,594 or less"),
        ((76.0, 340.0, 120.0, 350.0), "Highest"),
        ((180.0, 340.0, 280.0, 350.0), "Greater than $25,771"),
    ]
    regions = rule_bounded_regions(rules, lines, 792.0)
    assert len(regions) == 1
    assert regions[0][1] < 300 < 371 <= regions[0][3]
    # Two rules alone and no caption: a separator pair, not a table.
    assert rule_bounded_regions(rules[:1] + rules[2:3], lines, 792.0) == []


def test_a_units_line_stays_a_header_row_of_its_own() -> None:
    rows = [
        ["", "December 31, 2022", "December 25, 2021"],
        ["", "(In millions)", ""],
        ["Land", "$120", "$—"],
    ]
    assert merge_continuation_rows(rows) == tuple(tuple(r) for r in rows)
    assert header_row_count(rows) == 2
    # A bracketed second line that is no units line still continues its cell.
    wrapped = [["Net cash provided by", "1", "2"], ["(used in)", "", ""]]
    assert merge_continuation_rows(wrapped)[0][0] == "Net cash provided by (used in)"
    assert UNITS_LINE.match("($ in millions)") and not UNITS_LINE.match("(used in)")


def _words(spec: list[tuple[float, float, str]], height: float = 8.9) -> list[Word]:
    return [(x, top, x + 6.0 * len(t), top + height, t) for x, top, t in spec]


def test_a_header_wrapped_in_its_cell_is_one_row_and_a_units_line_its_own() -> None:
    # AMD 10-K p81 geometry: wrapped header lines 7.5 pt apart, rows 12.5 pt apart.
    words = _words(
        [
            (276, 559.0, "Average"),
            (337, 559.0, "Estimated"),
            (213, 566.5, "Notional"),
            (275, 566.5, "Contract"),
            (337, 566.5, "Fair"),
            (213, 574.0, "Amount"),
            (285, 574.0, "Rate"),
            (337, 574.0, "Value"),
            (300, 586.5, "(In millions)"),
            (35, 599.0, "Chinese"),
            (220, 599.0, "$599"),
            (280, 599.0, "6.7848"),
            (340, 599.0, "$(3)"),
            (35, 611.5, "Canadian"),
            (220, 611.5, "607"),
            (280, 611.5, "1.3137"),
            (340, 611.5, "(16)"),
            (35, 624.0, "Euro"),
            (220, 624.0, "200"),
            (280, 624.0, "1.1000"),
            (340, 624.0, "(2)"),
        ]
    )
    found = word_grid(words, (30, 550, 420, 640))
    assert found is not None
    rows = found[1]
    assert rows[0] == ["", "Notional Amount", "Average Contract Rate", "Estimated Fair Value"]
    assert [c for c in rows[1] if c] == ["(In millions)"]
    assert rows[2] == ["Chinese", "$599", "6.7848", "$(3)"]


def _line(y: float, cells: list[tuple[float, str]], height: float = 9.0) -> list[Word]:
    """Words of one line: each ``(x, text)`` a word 5 pt a character wide."""
    return [(x, y, x + 5.0 * len(t), y + height, t) for x, t in cells]


def test_a_head_centred_over_three_dates_is_its_own_row() -> None:
    # ``Years Ended`` stands over the middle date only, closer to the dates than
    # the body's rows are to each other, yet heads all three: its own row.
    dates = [(200.0, "2022"), (260.0, "2021"), (320.0, "2020")]
    words = [
        *_line(100.0, [(242.5, "Years"), (272.5, "Ended")]),
        *_line(110.0, dates),
        *_line(122.0, [(40.0, "Revenue"), (200.0, "1,234"), (260.0, "2,345"), (320.0, "3,456")]),
        *_line(134.0, [(40.0, "Cost"), (200.0, "1,111"), (260.0, "2,222"), (320.0, "3,333")]),
        *_line(146.0, [(40.0, "Profit"), (200.0, "123"), (260.0, "123"), (320.0, "123")]),
    ]
    found = word_grid(words, (0, 0, 600, 600))
    assert found is not None
    rows = found[1]
    assert [c for c in rows[1] if c] == ["2022", "2021", "2020"]


def test_heads_set_to_the_foot_of_their_cells_join_their_upper_lines() -> None:
    # ``Rate`` over ``type``, ``Maturity`` over ``date``; ``Ranking`` and the
    # stub's ``Instrument`` on the lower line only: one header row.
    heads = [(40.0, "Instrument"), (200.0, "type"), (260.0, "Ranking"), (320.0, "date")]
    words = [
        *_line(100.0, [(200.0, "Rate"), (320.0, "Maturity"), (400.0, "Amount")]),
        *_line(110.0, [*heads, (400.0, "(USD)")]),
        *_line(122.0, [(40.0, "Notes"), (200.0, "Fixed"), (260.0, "Senior"), (400.0, "1,250")]),
        *_line(134.0, [(40.0, "Loan"), (200.0, "Floating"), (320.0, "2029"), (400.0, "800")]),
        *_line(146.0, [(40.0, "Paper"), (260.0, "Senior"), (320.0, "2027"), (400.0, "2,000")]),
    ]
    found = word_grid(words, (0, 0, 600, 600))
    assert found is not None
    assert found[1][0] == ["Instrument", "Rate type", "Ranking", "Maturity date", "Amount (USD)"]

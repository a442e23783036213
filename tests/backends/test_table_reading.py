"""Reading tables as a reader does: captions, wrapped cells, stacked headers, rules in pieces.

The word boxes are copied from ICDAR-2013 pages (``us-021`` Table A-4,
``us-019`` Table A-1, ``us-037`` Table 6), so the geometry is the one the
rules were written for.
"""

from __future__ import annotations

from docparse.backends.table_candidates import Word, is_number
from docparse.backends.table_checks import labelled_rows, prose_table
from docparse.backends.table_combine import with_extra_tables
from docparse.backends.table_grid import word_grid
from docparse.backends.table_reading import region_grids
from docparse.backends.table_regions import (
    TABLE_CAPTION,
    caption_blocks,
    joined_rules,
    rule_bounded_regions,
)

# us-021 p2: a caption wrapped over three lines right above the table.
CAPTIONED: list[Word] = [
    (166, 615.0, 194, 625.0, "Table"),
    (197, 615.0, 217, 625.0, "A-4."),
    (218, 615.0, 259, 625.0, "Number"),
    (262, 615.0, 283, 625.0, "and"),
    (286, 615.0, 346, 625.0, "percentage"),
    (349, 615.0, 358, 625.0, "of"),
    (362, 615.0, 402, 625.0, "reading"),
    (218, 627.0, 246, 637.0, "items"),
    (249, 627.0, 258, 637.0, "in"),
    (261, 627.0, 277, 637.0, "the"),
    (281, 627.0, 307, 637.0, "PIRLS"),
    (310, 627.0, 373, 637.0, "assessment,"),
    (375, 627.0, 387, 637.0, "by"),
    (390, 627.0, 412, 637.0, "item"),
    (218, 639.0, 255, 649.0, "format:"),
    (258, 639.0, 283, 649.0, "2011"),
    (166, 663.2, 182, 673.5, "Item"),
    (184, 663.2, 208, 673.5, "Format"),
    (341, 656.0, 369, 663.3, "Number"),
    (342, 665.3, 348, 672.6, "of"),
    (350, 665.3, 369, 672.6, "items"),
    (383, 656.0, 409, 663.3, "Percent"),
    (382, 665.3, 388, 672.6, "of"),
    (391, 665.3, 409, 672.6, "items"),
    (176, 675.9, 194, 683.2, "Total"),
    (356, 675.9, 369, 683.2, "135"),
    (396, 675.9, 409, 683.2, "100"),
    (166, 684.3, 193, 694.6, "Multiple"),
    (195, 684.3, 218, 694.6, "choice"),
    (360, 684.3, 369, 694.6, "74"),
    (401, 684.3, 409, 694.6, "55"),
    (166, 698.4, 208, 705.6, "Constructed"),
    (210, 698.4, 242, 705.6, "response"),
    (360, 698.4, 369, 705.6, "61"),
    (401, 696.2, 409, 706.5, "45"),
]


def test_a_wrapped_caption_is_no_row_and_hides_no_column() -> None:
    assert TABLE_CAPTION.match("Table A-4. Number") and TABLE_CAPTION.match("TABLE II")
    assert not TABLE_CAPTION.match("Tables 3 and 4 show")
    grids = region_grids(CAPTIONED, (160, 610, 420, 710))
    assert len(grids) == 1
    rows = grids[0][1]
    assert rows == [
        ["Item Format", "Number of items", "Percent of items"],
        ["Total", "135", "100"],
        ["Multiple choice", "74", "55"],
        ["Constructed response", "61", "45"],
    ]


def test_caption_blocks_take_wrapped_lines_not_header_lines() -> None:
    lines = [
        ((166.0, 615.0, 402.0, 625.0), "Table A-4. Number and percentage of reading"),
        ((218.0, 627.0, 412.0, 637.0), "items in the PIRLS assessment, by item"),
        ((218.0, 639.0, 283.0, 649.0), "format: 2011"),
        ((218.0, 651.0, 260.0, 661.0), "Number"),
        ((300.0, 651.0, 340.0, 661.0), "Percent"),
    ]
    assert caption_blocks(lines) == [(166.0, 615.0, 412.0, 649.0)]


def test_caption_blocks_leave_a_column_head_under_a_short_caption() -> None:
    # Generated pair statement-7: ``2024`` is tight under the caption and the
    # other heads lie beyond the caption's end, but it starts right of the
    # caption's middle: a column head, not a wrapped caption line.
    lines = [
        ((75.0, 148.0, 229.0, 160.0), "Table 1. Comparison of Methods"),
        ((293.0, 165.0, 315.0, 176.0), "2024"),
        ((344.0, 165.0, 366.0, 176.0), "2020"),
        ((392.0, 165.0, 415.0, 176.0), "2015"),
    ]
    assert caption_blocks(lines) == [(75.0, 148.0, 229.0, 160.0)]


# us-019 p2: labels and descriptions wrapped inside their cells.
WRAPPED: list[Word] = [
    (40, 148.0, 83, 156.3, "Economic"),
    (85, 148.0, 140, 156.3, "assumptions"),
    (40, 160.0, 85, 168.5, "Disposable"),
    (87, 160.0, 117, 168.5, "income"),
    (119, 160.0, 133, 168.5, "per"),
    (135, 160.0, 160, 168.5, "capita"),
    (162, 160.0, 169, 168.5, "in"),
    (52, 170.0, 87, 178.5, "constant"),
    (90, 170.0, 116, 178.5, "dollars"),
    (336, 159.0, 364, 167.5, "Annual"),
    (366, 159.0, 397, 167.5, "percent"),
    (399, 159.0, 434, 167.5, "changes"),
    (436, 159.0, 459, 167.5, "range"),
    (461, 159.0, 496, 167.5, "between"),
    (498, 159.0, 523, 167.5, "-1.9%"),
    (526, 159.0, 541, 167.5, "and"),
    (544, 159.0, 565, 167.5, "2.2%"),
    (424, 170.0, 441, 178.5, "with"),
    (443, 170.0, 453, 178.5, "an"),
    (456, 170.0, 482, 178.5, "annual"),
    (485, 170.0, 513, 178.5, "growth"),
    (515, 170.0, 531, 178.5, "rate"),
    (533, 170.0, 541, 178.5, "of"),
    (544, 170.0, 565, 178.5, "1.4%"),
    (40, 182.1, 81, 190.6, "Inflation"),
    (83, 182.1, 105, 190.6, "rate"),
    (443, 182.1, 482, 190.6, "Inflation"),
    (485, 182.1, 505, 190.6, "rate"),
    (507, 182.1, 565, 190.6, "ranges"),
]


def test_a_row_going_on_in_lower_case_continues_the_cells_above() -> None:
    found = word_grid(WRAPPED, (30, 140, 580, 200))
    assert found is not None
    assert found[1] == [
        ["Economic assumptions", ""],
        [
            "Disposable income per capita in constant dollars",
            "Annual percent changes range between -1.9% and 2.2%"
            " with an annual growth rate of 1.4%",
        ],
        ["Inflation rate", "Inflation rate ranges"],
    ]


# us-037 p1: a four-line header set solid, bold, above rows set solid too.
STACKED: list[Word] = [
    (159, 111.6, 195, 124.0, "Postnatal"),
    (197, 111.6, 212, 124.0, "Day"),
    (215, 111.6, 219, 124.0, "1"),
    (192, 127.8, 220, 140.2, "Weight"),
    (190, 138.1, 221, 150.6, "Relative"),
    (159, 148.5, 179, 161.0, "Body"),
    (202, 148.5, 210, 161.0, "to"),
    (69, 159.9, 124, 172.4, "Concentration"),
    (155, 158.8, 183, 171.3, "Weight"),
    (189, 158.9, 222, 171.3, "Controls"),
    (85, 170.4, 108, 182.8, "(ppm)"),
    (134, 168.1, 147, 180.5, "No."),
    (161, 169.2, 172, 181.6, "(g)"),
    (198, 169.2, 213, 181.6, "(%)"),
    (72, 199.5, 92, 212.0, "Male"),
    (100, 220.0, 104, 230.7, "0"),
    (138, 220.0, 146, 230.7, "39"),
    (162, 220.0, 172, 230.7, "5.8"),
    (92, 229.3, 104, 240.0, "250"),
    (138, 229.3, 146, 240.0, "30"),
    (162, 229.3, 172, 240.0, "5.9"),
    (200, 229.3, 212, 240.0, "102"),
    (92, 238.4, 104, 249.1, "500"),
    (138, 238.4, 146, 249.1, "33"),
    (162, 238.4, 173, 249.1, "6.0"),
    (200, 238.4, 212, 249.1, "103"),
]


def test_header_lines_set_solid_are_one_row_and_close_words_of_two_columns_two_cells() -> None:
    found = word_grid(STACKED, (60, 105, 230, 255))
    assert found is not None
    rows = found[1]
    # Stacked lines set solid join in their columns; the stub's own wrapped line
    # beside units lines stays a row (a filing's stub line beside dates is one).
    assert ["Concentration", "", "Body Weight", "Weight Relative to Controls"] in rows
    assert ["(ppm)", "No.", "(g)", "(%)"] in rows
    # The spanning line above stays a row of its own, the body rows are untouched.
    assert any("Postnatal Day 1" in r for r in rows)
    assert ["250", "30", "5.9", "102"] in rows
    # A number inside a header phrase makes no row of values.
    assert is_number("5.3**") and is_number("7.3*")


def test_rules_drawn_in_pieces_bound_a_table() -> None:
    pieces = [(66.6, 108.3, 153.0), (153.0, 108.3, 153.5), (153.5, 108.3, 229.6)]
    assert joined_rules(pieces) == [(66.6, 108.3, 229.6)]
    # Top, middle and bottom rules, each in two cells' pieces.
    rules = [(x0, y, x1) for y in (51.0, 66.1, 200.0) for x0, x1 in ((36.0, 217.4), (217.4, 569.1))]
    lines = [
        ((40.0, 55.0, 80.0, 64.0), "Variable"),
        ((500.0, 55.0, 560.0, 64.0), "Assumption"),
        ((40.0, 70.0, 100.0, 79.0), "Population"),
        ((300.0, 70.0, 560.0, 79.0), "Projections are consistent with the estimates"),
    ]
    assert rule_bounded_regions(rules, lines, 792.0) == [(34.0, 50.0, 571.0, 201.0)]


def test_rows_led_by_short_labels_are_a_table_however_long_their_text() -> None:
    long = "A line of fixed length with words that anchor the scale at the extreme ends"
    glossary = [
        ["Type", "Description"],
        ["Visual analog scale (VAS)", long],
        ["Likert scale", long],
        ["Rating scale", long],
    ]
    assert labelled_rows(glossary) and not prose_table(glossary)
    # Prose cut into two columns starts its pieces in mid-sentence.
    columns = [[f"and then {long}", f"so {long}"] for _ in range(4)]
    assert not labelled_rows(columns) and prose_table(columns)


def test_a_table_between_rules_replaces_the_pieces_read_without_its_header() -> None:
    pieces = [
        ((72.0, 199.0, 546.0, 276.0), [["Male"], ["0", "39"]]),
        ((72.0, 293.0, 546.0, 371.0), [["Female"], ["0", "23"]]),
    ]
    whole = (
        (65.0, 107.0, 560.0, 381.0),
        [["Concentration", "No."], ["Male"], ["0", "39"], ["Female"], ["0", "23"]],
    )
    out = with_extra_tables(pieces, [whole], lambda g: g[0], lambda g: g[1])
    assert out == [whole]
    # A table elsewhere is added; one that does not hold what it overlaps is not.
    apart = ((65.0, 400.0, 560.0, 500.0), [["a", "b"], ["1", "2"]])
    partial = ((65.0, 250.0, 560.0, 300.0), [["x", "y", "z"], ["1", "2", "3"], ["4", "5", "6"]])
    out = with_extra_tables(pieces, [apart, partial], lambda g: g[0], lambda g: g[1])
    assert out == [*pieces, apart]


def test_a_table_whose_wrapped_heads_are_joined_replaces_pieces_that_keep_them_apart() -> None:
    # 3M 2018 10-K p82 as its pieces and its whole reading: the whole joins each
    # head's wrapped lines into one cell (fewer cells) and keeps the section labels
    # and rows the pieces lost. Heads weigh by their words.
    pieces = [
        (
            (56.0, 198.0, 543.0, 247.0),
            [
                ["", "Cumulative", "Pension and"],
                ["(Millions)", "Translation", "Postretirement"],
                ["", "Adjustment", "Plans Adjustment"],
                ["Balance at December 31, 2015", "$(1,679)", "$(4,804)"],
            ],
        ),
        ((56.0, 266.0, 543.0, 303.0), [["Tax effect", "(85)", "177"]]),
    ]
    whole = (
        (56.0, 198.0, 543.0, 320.0),
        [
            [
                "(Millions)",
                "Cumulative Translation Adjustment",
                "Pension and Postretirement Plans Adjustment",
            ],
            ["Balance at December 31, 2015", "$(1,679)", "$(4,804)"],
            ["Other comprehensive income (loss), before tax:", "", ""],
            ["Tax effect", "(85)", "177"],
        ],
    )
    assert with_extra_tables(pieces, [whole], lambda g: g[0], lambda g: g[1]) == [whole]

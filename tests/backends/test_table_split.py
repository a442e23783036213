"""Typewriter tables: dot leaders, typed rules, and tables printed side by side or stacked.

The pages are laid out as a typewriter (or a monospaced report generator)
sets them: every character 6 points wide, lines 12 points apart, so a
word's box follows from its line and its character column.
"""

from __future__ import annotations

import sys

import pytest

from docparse.backends.table_candidates import Word
from docparse.backends.table_grid import word_grid
from docparse.backends.table_reading import region_grids
from docparse.backends.table_rows import without_leaders
from docparse.backends.table_split import side_by_side_tables, stacked_tables

CHAR = 6.0
LINE = 12.0


def typed(lines: list[str], top: float = 100.0, left: float = 72.0) -> list[Word]:
    """The words of monospaced ``lines``, one box per space-separated token."""
    words: list[Word] = []
    for i, line in enumerate(lines):
        col = 0
        for token in line.split(" "):
            if token:
                x0 = left + col * CHAR
                y0 = top + i * LINE
                words.append((x0, y0, x0 + len(token) * CHAR, y0 + 10.0, token))
            col += len(token) + 1
    return words


LEADERED = [
    "                         Design effect",
    "Proportion          1.0     1.1     1.2",
    "---------------------------------------",
    "0.99 .............. 800     880     960",
    "0.95 .............. 160     176     192",
    "0.56-0.74 ......... 30      33      36",
]


def test_leaders_and_typed_rules_are_no_cell_text() -> None:
    kept = without_leaders(
        [
            (0.0, 0.0, 60.0, 10.0, "0.99......"),
            (0.0, 0.0, 60.0, 10.0, "......0.99"),
            (0.0, 0.0, 60.0, 10.0, ". . . ."),
            (0.0, 0.0, 60.0, 10.0, "-----"),
            (0.0, 0.0, 6.0, 10.0, "-"),
            (0.0, 0.0, 12.0, 10.0, ".."),
        ]
    )
    assert [w[4] for w in kept] == ["0.99", "0.99", "-", ".."]
    # The label's box ends where its text does, the value's starts where its text does.
    assert kept[0][2] == 24.0 and kept[1][0] == 36.0


def test_a_leader_separates_a_label_from_its_first_value() -> None:
    found = word_grid(typed(LEADERED), (0, 0, 1000, 1000))
    assert found is not None
    rows = [[c for c in r if c] for r in found[1]]
    assert ["0.99", "800", "880", "960"] in rows
    assert ["0.56-0.74", "30", "33", "36"] in rows
    assert not any("." * 3 in c or "---" in c for r in found[1] for c in r)


def test_a_header_repeated_below_the_body_starts_a_second_table() -> None:
    second = [
        "                         Design effect",
        "Proportion          1.7     1.8     1.9",
        "0.99 .............. 1,360   1,440   1,520",
        "0.95 .............. 272     288     304",
    ]
    words = typed([*LEADERED, "", *second])
    parts = stacked_tables(words, (0, 0, 1000, 1000))
    assert len(parts) == 2
    grids = region_grids(words, (0, 0, 1000, 1000))
    assert len(grids) == 2
    assert ["0.99", "1,360", "1,440", "1,520"] in [[c for c in r if c] for r in grids[1][1]]
    # One table alone is not cut, and neither is a section label that never heads it.
    assert len(stacked_tables(typed(LEADERED), (0, 0, 1000, 1000))) == 1
    labelled = typed([*LEADERED, "Totals", "0.50 .............. 30      33      36"])
    assert len(stacked_tables(labelled, (0, 0, 1000, 1000))) == 1


SIDE_BY_SIDE = [
    "Table A.2: Population by single year of age",
    "Age            Total        Age            Total",
    "               population                  population",
    "Under 1 year   3,533,692    40 years       2,468,083",
    "1 years        3,269,557    41 years       2,375,849",
    "2 years        3,223,816    42 years       2,325,572",
]


def test_a_header_repeated_along_its_line_is_one_table_per_repetition() -> None:
    words = typed(SIDE_BY_SIDE)
    parts = side_by_side_tables(words, (0, 0, 1000, 1000))
    assert len(parts) == 2
    # The title over both tables belongs to neither.
    assert all(p[1] >= 110.0 for p in parts)  # the title line ends at 110
    grids = region_grids(words, (0, 0, 1000, 1000))
    assert len(grids) == 2
    left = [[c for c in r if c] for r in grids[0][1]]
    right = [[c for c in r if c] for r in grids[1][1]]
    assert ["Under 1 year", "3,533,692"] in left
    assert ["40 years", "2,468,083"] in right


def test_different_headers_side_by_side_are_one_table() -> None:
    lines = [
        "Age          Total        Men          Women",
        "Under 1 year 3,533,692    1,800,000    1,733,692",
        "1 years      3,269,557    1,600,000    1,669,557",
    ]
    assert len(side_by_side_tables(typed(lines), (0, 0, 1000, 1000))) == 1


def test_column_groups_repeating_their_subheaders_are_one_table() -> None:
    # "Number of teachers" and "Number of new hires", each Total | Public |
    # Private, share the year labels at the left: one table, not two.
    lines = [
        "       Total    Public   Private    Total    Public   Private",
        "1996   3,051    2,667    384        305      222      83",
        "1997   3,138    2,746    391        311      236      74",
        "1998   3,230    2,830    400        327      246      80",
    ]
    assert len(side_by_side_tables(typed(lines), (0, 0, 1000, 1000))) == 1


def test_a_header_centred_over_a_column_group_is_placed_at_its_first_column() -> None:
    lines = [
        "                        Year of data",
        "Source       2007-08  2008-09  2009-10  2010-11",
        "Actual       49,293   49,266   49,373   49,484",
        "Projected    49,644   49,825   50,067   50,353",
    ]
    found = word_grid(typed(lines), (0, 0, 1000, 1000))
    assert found is not None
    rows = found[1]
    top = next(r for r in rows if "Year of data" in r)
    under = next(r for r in rows if "2007-08" in r)
    assert top.index("Year of data") == under.index("2007-08")


def test_a_label_value_list_is_a_table_and_a_table_of_contents_is_not() -> None:
    from docparse.backends.table_regions import label_value_regions

    ages = typed(
        [
            "Following are proportions based on the 1980 Census that should be used.",
            "",
            "Age Group         Proportion",
            "20-29                 0.2650",
            "30-39                 0.2046",
            "40-49                 0.1477",
            "80 +                  0.0336",
        ]
    )
    regions = label_value_regions(ages)
    assert len(regions) == 1
    grids = region_grids(ages, regions[0])
    assert [[c for c in r if c] for r in grids[0][1]][:2] == [
        ["Age Group", "Proportion"],
        ["20-29", "0.2650"],
    ]
    contents = typed(
        [
            "Introduction ............ 1",
            "Methods ................. 4",
            "Results ................ 12",
            "Discussion ............. 19",
        ]
    )
    assert label_value_regions(contents) == []


def test_the_other_page_columns_prose_is_cut_off_a_table_region() -> None:
    from docparse.backends.table_regions import without_prose_sides

    lines = [
        "enrollment levels of 10,000 students or more      Age     Enrollment   %",
        "percent of the institutions; however, they        14-17   231,000      1.3",
        "all college students. By comparison, 41 per       18-19   3,769,000    21.2",
        "institutions had enrollment levels of less        20-21   3,648,000    20.5",
    ]
    words = typed(lines)
    region = without_prose_sides((0, 0, 1000, 1000), words)
    assert region[0] > 72 + 44 * CHAR  # past the prose column
    grids = region_grids(words, region)
    assert [[c for c in r if c] for r in grids[0][1]][1] == ["14-17", "231,000", "1.3"]
    # A table whose labels are long but are no running text keeps them.
    labels = [
        "Projections of Education Statistics to 2017     49,644   49,825",
        "Projections of Education Statistics to 2018     49,470   49,623",
        "Projections of Education Statistics to 2019     49,265   49,312",
    ]
    assert without_prose_sides((0, 0, 1000, 1000), typed(labels)) == (0, 0, 1000, 1000)


def test_a_table_of_contents_read_as_a_grid_is_no_table() -> None:
    from docparse.backends.table_checks import contents_list

    assert contents_list([["1. Introduction", "1"], ["1.1. Purpose", "1"], ["2. Layout", "3"]])
    # Values out of order, or numbers beside the titles: a table.
    assert not contents_list([["Spain", "268"], ["Germany", "233"], ["France", "136"]])
    assert not contents_list([["2005", "28", "33"], ["2006", "25", "40"], ["2007", "66", "80"]])


def test_a_filing_index_with_long_titles_and_outdented_parts_is_one_region() -> None:
    from docparse.backends.table_regions import label_value_regions

    lines = [
        "PART I                                                            1",
        "   ITEM 1.    Business                                            1",
        "   ITEM 1A.   Risk Factors                                       14",
        "PART II                                                          38",
        "   ITEM 5.    Market for Common Equity, Related Stockholder Matters",
        "   ITEM 7.    Management's Discussion and Analysis of Results    40",
        "   ITEM 8.    Financial Statements                               51",
    ]
    # The title of ITEM 5 is cut to keep its page number off this line: the run stops there.
    regions = label_value_regions(typed(lines))
    assert len(regions) == 1 and regions[0][3] < 100 + 4 * LINE
    lines[4] = "   ITEM 5.    Market for Common Equity, Stockholder Matters      38"
    regions = label_value_regions(typed(lines))
    assert len(regions) == 1 and regions[0][3] > 100 + 6 * LINE
    grids = region_grids(typed(lines), regions[0])
    rows = [[c for c in r if c] for r in grids[0][1]]
    assert rows[0] == ["PART I", "1"]
    assert rows[5] == ["ITEM 7.", "Management's Discussion and Analysis of Results", "40"]


def test_a_repeated_header_line_is_cut_from_its_own_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two equal lines (a header printed twice, over two blocks) reach the cutter as
    # equal lists: each must be read with the lines below it, found by position,
    # not by ``rows.index`` (which finds the first and drags the title between the
    # two into the second's test, so no cut was made).
    words = typed(SIDE_BY_SIDE[1:])
    typed_rows = [[w for w in words if w[1] == y] for y in sorted({w[1] for w in words})]
    header = typed_rows[0]
    title = typed(["Population by single year of age in the two reporting periods"])
    rows = [header, title, list(header), *typed_rows[2:]]
    module = sys.modules[side_by_side_tables.__module__]
    monkeypatch.setattr(module, "baseline_rows", lambda _words: rows)
    parts = side_by_side_tables(words, (0, 0, 1000, 1000))
    assert len(parts) == 2

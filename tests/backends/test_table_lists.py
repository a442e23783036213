"""Keyed lists read as tables (an exhibit index), column rules drawn per column, and the
header row of a table without values."""

from __future__ import annotations

from itertools import pairwise

from docparse.backends.table_candidates import PageInputs, Word, ruled_clusters
from docparse.backends.table_combine import join_cut_grids
from docparse.backends.table_grid import merge_symbol_cells, word_grid
from docparse.backends.table_headers import header_row_count
from docparse.backends.table_lists import keyed_list_tables
from docparse.backends.table_split import side_by_side_tables
from docparse.backends.words import merge_continuation_rows
from tests.synthetic_pages import line_words

# AMD 10-K exhibit index geometry (Chromium print): keys centred near x 126-140,
# text from x 151, wrapped lines 11 pt apart, entries 20 pt apart.
_KEY_X = {"4.5": 126.0, "*10.1": 116.0, "10.10": 111.0, "10.16(a)": 100.0}


def _entry(key: str, top: float, lines: list[str]) -> list[Word]:
    words = line_words(_KEY_X.get(key, 126.0), top, key)
    for i, text in enumerate(lines):
        words += line_words(151.0, top + 11.0 * i, text)
    return words


def _index(keys: list[str], header: bool = True) -> list[Word]:
    words = (
        line_words(87, 390, "Exhibit") + line_words(301, 390, "Description of Exhibits")
        if header
        else []
    )
    top = 410.0
    for k in keys:
        words += _entry(k, top, ["Indenture by and among the Company and a Bank,", "dated 2016."])
        top += 31.0
    return words


def test_an_exhibit_index_is_a_two_column_table_with_its_header() -> None:
    found = keyed_list_tables(_index(["4.5", "*10.1", "10.10", "10.16(a)"]))
    assert len(found) == 1
    rows = found[0][1]
    assert rows[0] == ["Exhibit", "Description of Exhibits"]
    assert [r[0] for r in rows[1:]] == ["4.5", "*10.1", "10.10", "10.16(a)"]
    assert rows[1][1] == "Indenture by and among the Company and a Bank, dated 2016."
    assert header_row_count(rows) == 1
    # A page of the index without its header line: no header row.
    rows = keyed_list_tables(_index(["4.5", "*10.1", "10.10"], header=False))[0][1]
    assert len(rows) == 3 and header_row_count(rows) == 0


def test_lists_line_numbers_and_contents_are_no_keyed_tables() -> None:
    # List markers make a list, as the EDGAR twin reads a table of bullets.
    keys = ["1.", "2.", "3."]
    marked = [w for i, k in enumerate(keys) for w in _entry(k, 100 + 31 * i, ["Text"])]
    assert keyed_list_tables(marked) == []
    # Margin line numbers beside running text.
    numbered = [
        w
        for i, text in enumerate(["the text runs on", "and on across lines", "to the end here"])
        for w in line_words(20, 100 + 12 * i, str(14 + i)) + line_words(60, 100 + 12 * i, text)
    ]
    assert keyed_list_tables(numbered) == []
    # A table of contents: section numbers, titles led by dots to page numbers.
    contents = [
        w
        for i, k in enumerate(["5.3", "5.4", "5.5"])
        for w in line_words(100, 100 + 12 * i, k)
        + line_words(151, 100 + 12 * i, "Network setup . . . . 7")
    ]
    assert keyed_list_tables(contents) == []
    # A hanging entry must not start back under its key: prose paragraphs do.
    prose = _entry("4.5", 100, ["Indenture by and among the Company"]) + line_words(
        126, 111, "and a Bank continues under the key."
    )
    prose += _entry("4.6", 131, ["Indenture"]) + _entry("4.7", 162, ["Indenture"])
    assert [len(t[1]) for t in keyed_list_tables(prose)] == []


def test_column_rules_drawn_per_column_are_one_cluster() -> None:
    # Each value column ruled on its own, 6 pt between the rules of neighbours.
    segs = []
    for x0, x1 in ((35, 407), (413, 492), (498, 577)):
        segs += [(x0, y, x1, y) for y in (586, 612, 638)]
        segs += [(x, 586, x, 638) for x in (x0, x1)]
    words: list[Word] = [
        (x, y, x + 40, y + 10, t)
        for y in (590, 616)
        for x, t in ((40, "Japan"), (430, "4,177"), (510, "1,033"))
    ]
    assert len(ruled_clusters(segs, words)) == 1
    # Two tables one above the other stay two.
    lower = [(a, b + 200, c, d + 200) for a, b, c, d in segs]
    more = [*words, *((w[0], w[1] + 200, w[2], w[3] + 200, w[4]) for w in words)]
    assert len(ruled_clusters(segs + lower, more)) == 2


def test_dates_in_figures_head_columns() -> None:
    rows = [
        ["", "Base Period", "Years Ended", ""],
        ["Company / Index", "12/30/2017", "12/29/2018", "12/31/2022"],
        ["Advanced Micro Devices, Inc.", "100", "173", "630"],
        ["S&P 500 Index", "100", "95", "157"],
    ]
    assert header_row_count(rows) == 2


def test_a_repeated_header_over_values_without_labels_is_one_table() -> None:
    # AMD 10-K p121: two dates over "Amortized Cost | Fair Value" each; the
    # rows start with labels on the left only, and "$ 1,118" is a value.
    def row(top: float, cells: list[tuple[float, str]]) -> list[Word]:
        return [w for x, t in cells for w in line_words(x, top, t)]

    head = [
        (270, "Amortized Cost"),
        (360, "Fair Value"),
        (430, "Amortized Cost"),
        (520, "Fair Value"),
    ]
    words = row(115, head)
    for i, label in enumerate(["Due within 1 year", "Due later", "Due last"]):
        vals = [(40, label), (260, "$"), (300, "1,224"), (360, "$"), (380, "1,218")]
        vals += [(425, "$"), (460, "1,118"), (515, "—")]
        words += row(135 + 13 * i, vals)
    assert side_by_side_tables(words, (30, 100, 580, 200)) == [(30, 100, 580, 200)]


def test_a_units_phrase_ending_one_column_header_is_part_of_it() -> None:
    # AMD 10-K p128: "(in years)" ends the last column's wrapped header, beside
    # "of Shares"; the units line under all of them stays a row of its own.
    spec = [
        (266, 184.8, "Number"),
        (330, 184.8, "Intrinsic"),
        (410, 184.8, "Contractual Life"),
        (262, 193.0, "of Shares"),
        (330, 193.0, "Value"),
        (410, 193.0, "(in years)"),
        (280, 205.0, "(In millions except share price)"),
        (35, 215.2, "Granted"),
        (270, 215.2, "17"),
        (340, 215.2, "$92"),
        (420, 215.2, "1.67"),
        (35, 228.7, "Forfeited"),
        (270, 228.7, "(2)"),
        (340, 228.7, "$98"),
        (420, 228.7, "1.70"),
        (35, 241.4, "Vested"),
        (270, 241.4, "(9)"),
        (340, 241.4, "$86"),
        (420, 241.4, "1.80"),
    ]
    words = [w for x, top, text in spec for w in line_words(x, top, text)]
    found = word_grid(words, (30, 180, 520, 260))
    assert found is not None
    rows = found[1]
    assert rows[0] == ["", "Number of Shares", "Intrinsic Value", "Contractual Life (in years)"]
    assert [c for c in rows[1] if c] == ["(In millions except share price)"]
    assert header_row_count(rows) == 2


def test_pieces_of_one_ruled_table_and_its_total_row_are_one_grid() -> None:
    # AMD 10-K p121: ruled under the header and the first body row only, so a
    # ruled strategy gives two pieces; the column totals sit below the rules.
    def row(top: float, cells: list[tuple[float, str]]) -> list[Word]:
        return [w for x, t in cells for w in line_words(x, top, t)]

    words = row(103, [(300, "Cost"), (385, "Value"), (470, "Cost"), (550, "Value")])
    body = [("Due within 1 year", "1,224", "1,218", "1,118"), ("Due later", "159", "156", "—")]
    body.append(("Due last", "41", "38", "—"))
    for i, (label, *vals) in enumerate(body):
        cells = [(40, label), (255, "$")] if i == 0 else [(40, label)]
        cells += [(x, v) for x, v in zip((300, 385, 470, 550), [*vals, vals[-1]], strict=True)]
        words += row(120 + 13 * i, cells)
    words += row(160, [(255, "$"), (300, "1,424"), (385, "1,412"), (470, "1,118"), (550, "1,118")])
    inputs = PageInputs(612, 792, tuple(words), ())
    first = ((35.0, 103.0, 580.0, 131.0), [["", "Cost", "Value", "Cost", "Value"]])
    first[1].append(["Due within 1 year", "$1,224", "$1,218", "$1,118", "$1,118"])
    second = ((35.0, 133.0, 580.0, 157.0), [["Due later", "159", "156", "—", "—"]])
    second[1].append(["Due last", "41", "38", "—", "—"])
    (joined,) = join_cut_grids([first, second], inputs)
    assert [r[0] for r in joined[1]] == ["", "Due within 1 year", "Due later", "Due last", ""]
    assert joined[1][-1] == ["", "$1,424", "1,412", "1,118", "1,118"]
    assert joined[1][2] == ["Due later", "159", "156", "—", "—"]


def test_nil_values_with_signs_keep_their_columns_under_centred_dates() -> None:
    # AMD 10-K p121: two dates centred over two columns each, wrapped column
    # headers, two body rows, "$ —" nil values in the first.
    spec = [
        (303, 251.0, "December 31, 2022"),
        (464, 251.0, "December 25, 2021"),
        (282, 262.0, "Carrying"),
        (360, 262.0, "Estimated"),
        (444, 262.0, "Carrying"),
        (522, 262.0, "Estimated"),
        (283, 270.0, "Amount"),
        (360, 270.0, "Fair Value"),
        (445, 270.0, "Amount"),
        (522, 270.0, "Fair Value"),
        (397, 282.0, "(In millions)"),
        (35, 294.0, "Current portion, net"),
        (262, 294.0, "$"),
        (326, 294.0, "—"),
        (342, 294.0, "$"),
        (408, 294.0, "—"),
        (424, 294.0, "$"),
        (478, 294.0, "312"),
        (504, 294.0, "$"),
        (559, 294.0, "326"),
        (35, 306.0, "Long-term debt, net"),
        (306, 306.0, "2,467"),
        (388, 306.0, "2,281"),
        (488, 306.0, "1"),
        (564, 306.0, "15"),
    ]
    words = [w for x, top, text in spec for w in line_words(x, top, text)]
    found = word_grid(words, (30, 245, 580, 320))
    assert found is not None
    rows = found[1]
    assert rows[-2] == ["Current portion, net", "$—", "$—", "$312", "$326"]
    assert rows[-1] == ["Long-term debt, net", "2,467", "2,281", "1", "15"]
    head = ["Carrying Amount", "Estimated Fair Value"]
    assert rows[1] == ["", *head, *head]


def test_a_label_wrapped_above_its_values_is_one_row() -> None:
    rows = [
        ["", "December 31, 2022", "December 25, 2021"],
        ["Balance at beginning of year", "$275", "$119"],
        ["Increases to tax positions taken in", "", ""],
        ["acquisitions", "252", "—"],
        ["Current assets:", "", ""],
        ["Cash", "1", "2"],
    ]
    got = merge_continuation_rows(rows)
    assert got[2] == ("Increases to tax positions taken in acquisitions", "252", "—")
    # A section label stays a row of its own.
    assert got[3] == ("Current assets:", "", "")
    assert len(got) == 5


def test_a_nil_value_takes_its_percent_sign() -> None:
    grid = [
        ["Expected dividends", "—", "%", "—", "%"],
        ["Expected volatility", "51.28", "%", "57.87", "%"],
    ]
    assert merge_symbol_cells(grid) == [
        ["Expected dividends", "—%", "—%"],
        ["Expected volatility", "51.28%", "57.87%"],
    ]


def _cam(label_lines: list[list[str]], paragraphs: list[list[list[str]]], top: float) -> list[Word]:
    """A side-labelled entry per label: label lines at x 35, text lines from x 140, 13 pt apart.

    ``paragraphs[i]`` are the paragraphs of entry ``i`` (a blank line between two).
    """
    words: list[Word] = []
    for labels, paras in zip(label_lines, paragraphs, strict=True):
        for k, text in enumerate(labels):
            words += line_words(35, top + 13 * k, text)
        for p, para in enumerate(paras):
            for text in para:
                words += line_words(140, top, text)
                top += 13
            if p + 1 < len(paras):
                top += 13
    return words


_FULL = "the Company adjusts the carrying value of the inventory to the lower of cost and value"
_OPEN = "The" + _FULL[3:]  # a paragraph's first line, as long as a full line


def test_side_labels_beside_paragraphs_are_a_two_column_table() -> None:
    # AMD 10-K p141 (a critical audit matter): labels wrapped in a narrow left
    # column; a new label starts where the text beside it starts a paragraph.
    words = line_words(140, 90, "Inventory Valuation")
    words += _cam(
        [["Description of the", "Matter"], ["How We Addressed", "the Matter in Our", "Audit"]],
        [
            [[_OPEN, *[_FULL] * 4, "conditions."]],
            [["Our" + _FULL[3:], _FULL, _FULL, "judgments."], ["Our audit.", _FULL]],
        ],
        110,
    )
    (found,) = keyed_list_tables(words)
    rows = found[1]
    assert [r[0] for r in rows] == [
        "",
        "Description of the Matter",
        "How We Addressed the Matter in Our Audit",
    ]
    assert rows[0][1] == "Inventory Valuation"
    assert rows[1][1].startswith(_OPEN) and rows[1][1].endswith("conditions.")
    # The second paragraph, a blank line below, is the same cell's text.
    assert rows[2][1].endswith(f"Our audit. {_FULL}")


def test_two_columns_of_prose_are_no_side_labelled_table() -> None:
    # A label on every line: the left column is text, not labels.
    words: list[Word] = []
    for k in range(8):
        words += line_words(35, 100 + 13 * k, "Running text of")
        words += line_words(140, 100 + 13 * k, _FULL if k % 4 else "Another paragraph starts.")
    assert keyed_list_tables(words) == []
    # Text that runs on (lower case) beside a margin note is no entry.
    words = _cam([["Oct 18"], ["Notes"]], [[["ples of writing", _FULL]], [["vailing", _FULL]]], 100)
    assert keyed_list_tables(words) == []


def test_a_lone_header_centred_over_three_value_columns_spans_them() -> None:
    # AMD 10-K p84: "Year Ended" over three year columns sits inside the middle
    # one; the twin (and ICDAR-2013) put a spanning cell in its first column.
    spec = [
        (424, 100.0, "Year Ended"),
        (340, 112.0, "Dec 31, 2022"),
        (425, 112.0, "Dec 25, 2021"),
        (510, 112.0, "Dec 26, 2020"),
        (417, 124.0, "(In millions)"),
        (35, 136.0, "Net income of the year"),
        (330, 136.0, "$"),
        (365, 136.0, "1,320"),
        (415, 136.0, "$"),
        (450, 136.0, "3,162"),
        (500, 136.0, "$"),
        (541, 136.0, "2,490"),
        (45, 148.0, "Net change in unrealized gains (losses) on hedges"),
        (370, 148.0, "(38)"),
        (455, 148.0, "(20)"),
        (556, 148.0, "17"),
    ]
    words = [w for x, top, text in spec for w in line_words(x, top, text)]
    found = word_grid(words, (30, 95, 600, 160))
    assert found is not None
    rows = found[1]
    assert rows[0] == ["", "Year Ended", "", ""]
    assert rows[2] == ["", "(In millions)", "", ""]
    # Over the last column only, a lone header stays where it stands.
    audited = [(526.0, 100.0, "Audited"), *spec[1:]]
    words = [w for x, top, text in audited for w in line_words(x, top, text)]
    found = word_grid(words, (30, 95, 600, 160))
    assert found is not None
    assert found[1][0] == ["", "", "", "Audited"]


def test_margins_read_the_same_rows_as_the_words_between_them() -> None:
    # The band's rows come from the whole page's rows (table_regions.page_rows):
    # for any band, even one cutting a row (a tall mark on a text line's
    # baseline), they are the rows of the words between its edges.
    words = [
        *line_words(87, 40, "Company Annual Report"),
        *_index(["4.5", "*10.1", "10.10", "10.16(a)"]),
        (420.0, 405.0, 430.0, 425.0, "\u2020"),
        *line_words(300, 760, "12"),
    ]
    mids = sorted({(w[1] + w[3]) / 2 for w in words})
    # Each centre, and halfway to the next: every way of cutting the page.
    edges = [*mids, *((a + b) / 2 for a, b in pairwise(mids))]
    for top in [float("-inf"), *edges]:
        for bottom in [*(e for e in edges if e >= top), float("inf")]:
            inside = [w for w in words if top <= (w[1] + w[3]) / 2 <= bottom]
            assert keyed_list_tables(words, top, bottom) == keyed_list_tables(inside), (top, bottom)

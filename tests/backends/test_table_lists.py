"""Keyed lists read as tables (an exhibit index), column rules drawn per column, and the
header row of a table without values."""

from __future__ import annotations

from docparse.backends.table_candidates import Word, ruled_clusters
from docparse.backends.table_grid import side_by_side_tables
from docparse.backends.table_headers import header_row_count
from docparse.backends.table_lists import keyed_list_tables

# AMD 10-K exhibit index geometry (Chromium print): keys centred near x 126-140,
# text from x 151, wrapped lines 11 pt apart, entries 20 pt apart.
_KEY_X = {"4.5": 126.0, "*10.1": 116.0, "10.10": 111.0, "10.16(a)": 100.0}


def _line(x: float, top: float, text: str) -> list[Word]:
    out: list[Word] = []
    for t in text.split():
        out.append((x, top, x + 5.0 * len(t), top + 11.0, t))
        x += 5.0 * len(t) + 3.0
    return out


def _entry(key: str, top: float, lines: list[str]) -> list[Word]:
    words = _line(_KEY_X.get(key, 126.0), top, key)
    for i, text in enumerate(lines):
        words += _line(151.0, top + 11.0 * i, text)
    return words


def _index(keys: list[str], header: bool = True) -> list[Word]:
    words = _line(87, 390, "Exhibit") + _line(301, 390, "Description of Exhibits") if header else []
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
        for w in _line(20, 100 + 12 * i, str(14 + i)) + _line(60, 100 + 12 * i, text)
    ]
    assert keyed_list_tables(numbered) == []
    # A table of contents: section numbers, titles led by dots to page numbers.
    contents = [
        w
        for i, k in enumerate(["5.3", "5.4", "5.5"])
        for w in _line(100, 100 + 12 * i, k) + _line(151, 100 + 12 * i, "Network setup . . . . 7")
    ]
    assert keyed_list_tables(contents) == []
    # A hanging entry must not start back under its key: prose paragraphs do.
    prose = _entry("4.5", 100, ["Indenture by and among the Company"]) + _line(
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
        return [w for x, t in cells for w in _line(x, top, t)]

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

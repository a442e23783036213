"""Tables continued over a page break are one table (``backends/table_pages.py``).

Generated pairs from ``fixtures/tables_generated`` (see its SOURCE.txt): the
PDFs are committed, neither Chromium nor TeX is needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from align.metrics.tables import normalize_cell
from align.project import project
from docparse.backends.items import Item
from docparse.backends.pages import TableRegion
from docparse.backends.table_pages import join_page_tables
from docparse.model import BBox

PAIRS = Path(__file__).resolve().parents[2] / "fixtures" / "tables_generated"
BACKENDS = ("pymupdf", "pdfplumber", "pypdfium2")


def _twin(name: str) -> docparse.Document:
    source = PAIRS / f"{name}.htm"
    return docparse.parse(source if source.is_file() else source.with_suffix(".tex"))


def _tables(doc: docparse.Document) -> list[docparse.SourceUnit]:
    return [u for u in doc.units if u.table is not None]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["long-3", "texlong-2", "texlongplain-6"])
def test_a_table_over_a_page_break_is_one_table(name: str, backend: str) -> None:
    twin = _twin(name)
    parsed = docparse.parse(PAIRS / f"{name}.pdf", backend=backend)
    (gold,) = _tables(twin)
    (got,) = _tables(parsed)  # one table, not one per page
    assert [p.page for p in got.provenance] == [1, 2]
    assert all(p.bbox is not None for p in got.provenance)
    assert got.table is not None and gold.table is not None
    # The head once: the next page's repeat is dropped, not read as body rows.
    head = [normalize_cell(c) for c in got.table.rows[0]]
    body = got.table.rows[got.table.n_header_rows :]
    assert all([normalize_cell(c) for c in row] != head for row in body)
    (match,) = project(twin, parsed).tables
    assert match.parsed_id == got.id
    assert match.cell_f1 >= 0.95


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_tables_on_consecutive_pages_stay_two(backend: str) -> None:
    # Same column count, the second at the top of page 2: its own header
    # (and caption, when it has one) make it another table.
    twin = _twin("pagepair-8")
    parsed = docparse.parse(PAIRS / "pagepair-8.pdf", backend=backend)
    tables = _tables(parsed)
    assert len(_tables(twin)) == 2
    assert [[p.page for p in u.provenance] for u in tables] == [[1], [2]]


def _item(
    page: int,
    y0: float,
    y1: float,
    rows: list[list[str]],
    heads: int = 1,
    spans: tuple[tuple[int, int, int, int], ...] = ((0, 1, 1, 2),),
) -> Item:
    box = BBox(72, y0, 540, y1)
    it = Item(page, box, (), 10.0, False)
    it.table = TableRegion(box, tuple(tuple(r) for r in rows), heads, spans)
    it.kind = "table"
    return it


def _text(page: int, y0: float, text: str, kind: str = "paragraph") -> Item:
    it = Item(page, BBox(72, y0, 300, y0 + 10), (text,), 10.0, False)
    it.kind = kind  # type: ignore[assignment]
    return it


HEAD = ["Item", "2024", "2023"]
HEIGHTS = {1: 792.0, 2: 792.0, 3: 792.0}


def test_the_repeated_header_is_dropped_and_spans_shifted() -> None:
    a = _item(1, 400, 740, [HEAD, ["Cash", "1", "2"], ["Debt", "3", "4"]])
    b = _item(2, 60, 200, [HEAD, ["Equity", "5", "6"]], spans=((0, 1, 1, 2), (1, 1, 1, 2)))
    out = join_page_tables(
        [a, _text(1, 760, "7", "furniture"), _text(2, 30, "Head", "furniture"), b], HEIGHTS
    )
    assert b not in out and len(out) == 3
    assert a.table is not None
    assert a.table.rows == (
        tuple(HEAD),
        ("Cash", "1", "2"),
        ("Debt", "3", "4"),
        ("Equity", "5", "6"),
    )
    assert a.table.spans == ((0, 1, 1, 2), (3, 1, 1, 2))  # the repeat's span dropped
    assert a.extra == [(2, b.bbox)]


@pytest.mark.parametrize(
    "between",
    [
        [_text(2, 40, "Table 2: Segment results", "caption")],  # another table's caption
        [_text(2, 40, "The following table shows the results of the year.")],  # prose
        [_text(1, 745, "Table 1: Balance sheet", "caption")],  # the first part's own caption
        [_text(1, 745, "Video games", "heading")],  # a section heading left at the page foot
    ],
)
def test_a_caption_or_text_between_keeps_the_tables_apart(between: list[Item]) -> None:
    a = _item(1, 400, 740, [HEAD, ["Cash", "1", "2"]])
    b = _item(2, 60, 200, [HEAD, ["Equity", "5", "6"]])
    assert len(join_page_tables([a, *between, b], HEIGHTS)) == 2 + len(between)


def test_different_column_counts_stay_apart() -> None:
    a = _item(1, 400, 740, [HEAD, ["Cash", "1", "2"]])
    b = _item(2, 60, 200, [[*HEAD, "2022"], ["Equity", "5", "6", "7"]])
    assert len(join_page_tables([a, b], HEIGHTS)) == 2


def test_a_headless_continuation_needs_the_first_part_to_reach_the_page_foot() -> None:
    rows = [HEAD, ["Cash", "1", "2"]]
    cont = [["Equity", "5", "6"], ["Total", "7", "8"]]
    high = _item(1, 100, 300, rows)
    assert len(join_page_tables([high, _item(2, 60, 200, cont, heads=0)], HEIGHTS)) == 2
    low = _item(1, 400, 740, rows)
    assert len(join_page_tables([low, _item(2, 60, 200, cont, heads=0)], HEIGHTS)) == 1


def test_a_continued_note_joins_and_three_pages_make_one_table() -> None:
    a = _item(1, 400, 740, [HEAD, ["Cash", "1", "2"]])
    b = _item(2, 60, 740, [["Other", "Note", "x"], ["Debt", "3", "4"]])
    c = _item(3, 60, 200, [HEAD, ["Equity", "5", "6"]])
    note = _text(2, 40, "Table 1 (continued)", "caption")
    out = join_page_tables([_text(1, 380, "Table 1: Balance", "caption"), a, note, b, c], HEIGHTS)
    assert [it for it in out if it.table is not None] == [a]
    assert [p for p, _ in a.extra] == [2, 3]
    assert a.table is not None and len(a.table.rows) == 5


def test_two_headless_blocks_stay_apart() -> None:
    # An exhibit list set page by page: no header says the columns are one table's.
    a = _item(1, 400, 740, [["10.1", "Credit agreement"], ["10.2", "Lease"]], heads=0)
    b = _item(2, 60, 200, [["10.3", "Supply agreement"], ["10.4", "Plan"]], heads=0)
    assert len(join_page_tables([a, b], HEIGHTS)) == 2


@pytest.mark.parametrize(("band", "joined"), [("Item 2024 2023", True), ("Segment 2022", False)])
def test_a_head_left_in_the_top_band_is_a_repeat(band: str, joined: bool) -> None:
    # The finders read no rows in the margin bands: the repeated head may be
    # left there as text, over a next part that starts with values.
    a = _item(1, 400, 740, [HEAD, ["Cash", "1", "2"]])
    b = _item(2, 60, 200, [["Equity", "5", "6"], ["Total", "7", "8"]], heads=0)
    out = join_page_tables([a, _text(2, 30, band), b], HEIGHTS)
    assert (b not in out) is joined


def test_a_table_set_halfway_down_the_next_page_is_another_table() -> None:
    # A float page centres its table: the same heads, nothing above it but
    # the running head, yet no continuation (Debian reference zh-CN p231).
    a = _item(1, 400, 740, [HEAD, ["Cash", "1", "2"]], heads=1)
    b = _item(2, 330, 420, [HEAD, ["Equity", "5", "6"]])
    out = join_page_tables([a, _text(2, 30, "Reference", "furniture"), b], HEIGHTS)
    assert b in out and len(out) == 3
    top = _item(2, 60, 150, [HEAD, ["Equity", "5", "6"]])
    assert top not in join_page_tables([a, _text(2, 30, "Reference", "furniture"), top], HEIGHTS)

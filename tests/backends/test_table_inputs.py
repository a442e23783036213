"""Table finding reads each page once and runs grid builders only where tables can be.

No hidden layout-model calls, one drawings read per page, no library table
search on a page of prose, and the shared word grid (rows from baselines,
columns from shared gaps, ``$``/``)`` merged into their values).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import docparse
from align.metrics.tables import adjacency_relations, adjacency_scores, cell_f1
from docparse.backends.pymupdf import _TEXT_FLAGS
from docparse.backends.table_candidates import can_split_columns, numeric_regions, ruled_clusters
from docparse.backends.table_grid import merge_symbol_cells, shared_gaps, word_grid

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"
EU001 = FIXTURES / "icdar2013-eu-001" / "eu-001.pdf"
US001 = FIXTURES / "icdar2013-us-001" / "us-001.pdf"


def test_layout_model_never_runs_when_off(monkeypatch: pytest.MonkeyPatch) -> None:
    import pymupdf

    def refuse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("the ONNX layout model ran with table_layout_model=False")

    monkeypatch.setattr(pymupdf.Page, "get_layout", refuse)
    for pdf in (EU001, US001):
        doc = docparse.parse(pdf, backend="pymupdf", config={"table_layout_model": False})
        assert any(u.table is not None for u in doc.units)


def test_drawings_read_once_per_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """find_tables gets the page's filtered paths and never reads the drawings itself."""
    import pymupdf

    calls: list[int] = []
    original = pymupdf.Page.get_cdrawings

    def counted(self: Any, *a: Any, **k: Any) -> Any:
        calls.append(self.number)
        return original(self, *a, **k)

    def refuse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("get_drawings() read again")

    monkeypatch.setattr(pymupdf.Page, "get_cdrawings", counted)
    monkeypatch.setattr(pymupdf.Page, "get_drawings", refuse)
    doc = docparse.parse(EU001, backend="pymupdf")
    assert sum(u.table is not None for u in doc.units) >= 5
    assert len(calls) == len(set(calls)) == doc.n_pages


def test_prose_page_runs_no_table_search(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import pymupdf

    pdf = tmp_path / "prose.pdf"
    with pymupdf.open() as out:
        page = out.new_page()
        text = "A plain paragraph of prose that holds no table at all, line after line. " * 30
        page.insert_textbox(pymupdf.Rect(72, 72, 520, 760), text, fontsize=11)
        page.draw_line((72, 770), (520, 770))  # one rule: no grid
        out.save(pdf)

    def refuse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("a table search ran on a page with no table evidence")

    monkeypatch.setattr(pymupdf.Page, "find_tables", refuse)
    doc = docparse.parse(pdf, backend="pymupdf")
    assert doc.units and not any(u.table is not None for u in doc.units)
    import pdfplumber.page

    monkeypatch.setattr(pdfplumber.page.Page, "find_tables", refuse)
    doc = docparse.parse(pdf, backend="pdfplumber")
    assert doc.units and not any(u.table is not None for u in doc.units)


def test_page_text_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """One MuPDF text page per page serves the spans, the words of the table finders and
    the words of the ruled searches; those read the characters of a box (or of their
    region, once) only where the words leave the answer open, never the whole page."""
    import pymupdf

    from docparse.backends import pymupdf as backend

    made: list[int] = []
    exact: list[int] = []
    searched: list[int] = []
    get_textpage = pymupdf.Page.get_textpage
    get_text = pymupdf.Page.get_text
    page_words = backend.page_words

    def counted(self: Any, clip: Any = None, flags: int = 0, *a: Any, **k: Any) -> Any:
        if flags == _TEXT_FLAGS:
            assert clip is None
            made.append(self.number)
        else:  # an exact read of the ruled searches: a box or their region
            assert clip is not None
            exact.append(self.number)
        return get_textpage(self, clip, flags, *a, **k)

    def shared(self: Any, *a: Any, **k: Any) -> Any:
        assert k.get("textpage") is not None, "get_text made a text page of its own"
        return get_text(self, *a, **k)

    def words_of(page: Any, clip: Any = None, textpage: Any = None, spans: Any = None) -> Any:
        assert textpage is not None and spans is not None
        searched.append(page.number)
        return page_words(page, clip, textpage, spans)

    monkeypatch.setattr(pymupdf.Page, "get_textpage", counted)
    monkeypatch.setattr(pymupdf.Page, "get_text", shared)
    monkeypatch.setattr(backend, "page_words", words_of)
    doc = docparse.parse(EU001, backend="pymupdf")
    assert sum(u.table is not None for u in doc.units) >= 5
    assert sorted(made) == list(range(doc.n_pages or 0))
    # The ruled searches ran, reading their words once per page.
    assert searched and len(set(searched)) == len(searched)
    assert len(exact) <= 7 * len(searched)


def test_can_split_columns_needs_three_edge_positions() -> None:
    clip = (50, 100, 300, 200)
    assert not can_split_columns([50, 300, 50.4, 299.8], clip)  # a box: one column
    assert can_split_columns([50, 300, 170], clip)
    assert not can_split_columns([50, 300, 400, 500], clip)  # edges beside the region
    assert not can_split_columns([], clip)
    # A listing's frame: stroke, fill and rule a point and a half apart on each side.
    assert not can_split_columns([50, 51.5, 53, 297, 298.5, 300], clip)
    assert can_split_columns([50, 53.5, 300], clip)  # more than the snap tolerance apart
    # Positions just outside count at the clip's side (a line crossing it is cut there).
    assert can_split_columns([47.5, 150, 300], clip)
    assert not can_split_columns([40, 150, 300], clip)


def test_boxed_paragraph_runs_no_table_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A frame around text has crossing rules but can hold one column only: no search."""
    import pymupdf

    pdf = tmp_path / "boxed.pdf"
    with pymupdf.open() as out:
        page = out.new_page()
        text = "A framed note of prose, set in a box with nothing tabular in it. " * 8
        page.insert_textbox(pymupdf.Rect(80, 110, 510, 300), text, fontsize=11)
        page.draw_rect(pymupdf.Rect(72, 100, 520, 310))
        page.draw_line((72, 130), (520, 130))  # a title band under the top edge
        out.save(pdf)

    def refuse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("a table search ran on a single-column box")

    monkeypatch.setattr(pymupdf.Page, "find_tables", refuse)
    doc = docparse.parse(pdf, backend="pymupdf")
    assert doc.units and not any(u.table is not None for u in doc.units)


def test_pdfplumber_builds_text_lines_once_per_page(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pdfplumber")
    from docparse.backends import pdfplumber as backend

    calls: list[int] = []
    original = backend.lines_from_words

    def counted(words: Any) -> Any:
        calls.append(len(words))
        return original(words)

    monkeypatch.setattr(backend, "lines_from_words", counted)
    doc = docparse.parse(EU001, backend="pdfplumber")
    assert sum(u.table is not None for u in doc.units) >= 5
    assert len(calls) == doc.n_pages


# ------------------------------------------------------------------ the shared word grid


def _words(rows: list[list[tuple[float, str]]], top: float = 100.0) -> list[Any]:
    """Words at ``(x, text)`` on rows 14 points apart, 5 points per character."""
    out = []
    for i, row in enumerate(rows):
        y = top + 14 * i
        for x, text in row:
            out.append((x, y, x + 5.0 * len(text), y + 9.0, text))
    return out


BALANCE = [
    [(200, "2022"), (280, "2021")],
    [
        (50, "Cash"),
        (58 + 25, "and"),
        (104, "cash"),
        (180, "$"),
        (210, "4,835"),
        (270, "$"),
        (290, "2,535"),
    ],
    [(50, "Receivables"), (210, "4,128"), (290, "2,706")],
    [(50, "Losses"), (205, "(1,205"), (235, ")"), (290, "(316"), (310, ")")],
]


def test_word_grid_rows_columns_and_symbols() -> None:
    words = _words(BALANCE)
    found = word_grid(words, (0, 0, 600, 800))
    assert found is not None
    _box, grid = found
    assert grid == [
        ["", "2022", "2021"],
        ["Cash and cash", "$4,835", "$2,535"],
        ["Receivables", "4,128", "2,706"],
        ["Losses", "(1,205)", "(316)"],
    ]


def test_shared_gaps_survive_a_spanning_title() -> None:
    rows = [[w] for w in _words([[(50, "A long title that spans both columns here")]])]
    body = _words([[(50, "alpha"), (200, "1.0")] for _ in range(12)], top=120)
    by_row: dict[float, list[Any]] = {}
    for w in body:
        by_row.setdefault(w[1], []).append(w)
    edges = shared_gaps([*rows, *by_row.values()], 6.0)
    assert len(edges) == 3 and 80 < edges[1] < 200


def test_merge_symbol_cells_drops_emptied_columns() -> None:
    assert merge_symbol_cells([["$", "5", "%"], ["(", "3", ")"]]) == [["$5%"], ["(3)"]]


#: Two body rows of values under their labels, as ``numeric_regions`` reads lines.
VALUE_ROWS = [
    ((50, 130, 120, 139), "Revenue"),
    ((200, 130, 230, 139), "1,234"),
    ((280, 130, 310, 139), "1,100"),
    ((50, 144, 120, 153), "Cost"),
    ((200, 144, 230, 153), "(234)"),
    ((280, 144, 310, 153), "(200)"),
]


def test_numeric_regions_find_rows_of_values_not_prose() -> None:
    lines = [
        ((50, 100, 500, 109), "This sentence quotes 2 numbers, 3 and 4, in running text."),
        *VALUE_ROWS,
    ]
    regions = numeric_regions(lines, 600)
    assert len(regions) == 1
    assert regions[0][1] < 130 and regions[0][3] > 153 and regions[0][1] > 109


def test_numeric_regions_go_on_over_rows_of_placeholder_marks() -> None:
    # Body rows holding marks in place of values (not applicable, rounds to
    # zero) are rows of the table; the footnote under it is not.
    lines = [
        *VALUE_ROWS,
        ((50, 158, 120, 167), "Other"),
        ((215, 158, 222, 167), "†"),
        ((295, 158, 302, 167), "#"),
        ((50, 172, 120, 181), "Unallocated"),
        ((212, 172, 225, 181), "—"),
        ((290, 172, 305, 181), "n/a"),
        ((50, 195, 500, 204), "† Not applicable. # Rounds to zero. Figures are from the survey."),
    ]
    regions = numeric_regions(lines, 600)
    assert len(regions) == 1
    assert regions[0][3] > 181 and regions[0][3] < 195


def test_ruled_clusters_need_crossing_rules_and_words() -> None:
    grid = [(50, y, 300, y) for y in (100, 120, 140)] + [(x, 100, x, 140) for x in (50, 150, 300)]
    words = [(60, 105, 90, 115, "a"), (160, 105, 190, 115, "b")]
    assert len(ruled_clusters(grid, words)) == 1
    assert ruled_clusters(grid, []) == []
    assert ruled_clusters([(50, 100, 300, 100), (50, 120, 300, 120)], words) == []


# ------------------------------------------------------------------ adjacency relations


def test_adjacency_relations_skip_empty_cells() -> None:
    rel = adjacency_relations([["a", "", "b"], ["", "", "c"]])
    assert rel == {("a", "b", "h"): 1, ("b", "c", "v"): 1}


def test_adjacency_sees_a_value_on_the_wrong_row() -> None:
    gold = [["Cash", "2,632"], ["Investments", "416"]]
    shifted = [["Cash", "416"], ["Investments", "2,632"]]
    assert cell_f1(gold, shifted) == 1.0
    s = adjacency_scores(gold, shifted)
    assert s.f1 < 0.5 and adjacency_scores(gold, gold).f1 == 1.0
    assert adjacency_scores([["x"]], [["x"]]).f1 == 1.0
    assert adjacency_scores([["x"]], [["y"]]).f1 == 0.0

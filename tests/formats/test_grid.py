"""The one table-grid helper every format lays its spanned cells out with."""

from __future__ import annotations

import importlib.util

import pytest

from docparse.formats._grid import MAX_SPAN, Placed, cells_to_table, fill_grid, place_cells
from docparse.model import CellSpan

# A 3x3 table: "a" spans two rows, "b" two columns.
_HTML_ROWS = [[("a", 2, 1), ("b", 1, 2)], [("c", 1, 1), ("d", 1, 1)], [("e", 1, 1)]]
# The same table as LaTeX writes it: the row under \multirow lists the covered cell.
_LATEX_ROWS = [[("a", 2, 1), ("b", 1, 2)], [("", 1, 1), ("c", 1, 1), ("d", 1, 1)], [("e", 1, 1)]]


def test_html_and_latex_rules_give_the_same_grid() -> None:
    html = cells_to_table(_HTML_ROWS)
    latex = cells_to_table(_LATEX_ROWS, covered_listed=True)
    assert html.rows == latex.rows == (("a", "b", ""), ("", "c", "d"), ("e", "", ""))
    assert html.spans == latex.spans == (CellSpan(0, 0, 2, 1), CellSpan(0, 1, 1, 2))


def test_place_cells_skips_covered_positions_only_under_html_rules() -> None:
    rows = [[("a", 2, 1)], [("b", 1, 1)]]
    assert [(p.row, p.col) for p in place_cells(rows)] == [(0, 0), (1, 1)]
    assert [(p.row, p.col) for p in place_cells(rows, covered_listed=True)] == [(0, 0), (1, 0)]


def test_spans_are_clipped_and_cut_at_the_last_row() -> None:
    (placed,) = place_cells([[("x", 10**9, 10**9)]])
    assert (placed.row_span, placed.col_span) == (1, MAX_SPAN)
    table = cells_to_table([[("x", 5, 1), ("y", 0, -3)], [("z", 1, 1)]])
    assert table.rows == (("x", "y"), ("", "z"))
    assert table.spans == (CellSpan(0, 0, 2, 1),)


def test_fill_grid_takes_given_positions_and_a_minimum_width() -> None:
    rows, spans = fill_grid([Placed(0, 1, 2, 1, "v"), Placed(1, 0, 1, 1, "w")], 2, n_cols=4)
    assert rows == (("", "v", "", ""), ("w", "", "", ""))
    assert spans == (CellSpan(0, 1, 2, 1),)


def test_latex_multicolumn_beyond_the_limit_is_clipped() -> None:
    from docparse.formats.tex.tables import _grid

    grid, spans = _grid([[("wide", 1, 10**6)], [("a", 1, 1)]])
    assert len(grid[0]) == MAX_SPAN and grid[0][0] == "wide"
    assert spans == (CellSpan(0, 0, 1, MAX_SPAN),)


@pytest.mark.skipif(
    importlib.util.find_spec("markdown_it") is None, reason="the Markdown reader needs markdown-it"
)
def test_markdown_html_rowspan_past_the_last_row_is_cut() -> None:
    from docparse.formats.markdown import html_tables

    ((table, _),) = html_tables('<table><tr><td rowspan="3">a</td><td>b</td></tr></table>')
    assert table.rows == (("a", "b"),)
    assert table.spans == ()

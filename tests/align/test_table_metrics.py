"""Cell F1, TEDS, NED and Kendall tau on known cases."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from align.metrics import cell_f1, kendall_tau, ned, teds, word_ned
from align.metrics.tables import (
    lower_bound,
    row_aligned_distance,
    table_tree,
    tree_edit_distance,
)
from docparse.model import CellSpan, Table

# Table 2 of the aastex631 sample (TeX Live, LPPL), first rows.
GOLD = Table(
    rows=(
        ("Messier", "NGC/IC", "Object", "Distance", "Constellation", "V"),
        ("Number", "Number", "Type", "(kpc)", "", "(mag)"),
        ("M1", "NGC 1952", "Supernova remnant", "2", "Taurus", "8.4"),
        ("M2", "NGC 7089", "Cluster, globular", "11.5", "Aquarius", "6.5"),
        ("M3", "NGC 5272", "Cluster, globular", "10.4", "Canes Venatici", "6.2"),
    ),
    n_header_rows=2,
)


def replace_cell(t: Table, r: int, c: int, value: str) -> Table:
    rows = [list(row) for row in t.rows]
    rows[r][c] = value
    return Table(rows=tuple(tuple(row) for row in rows))


def test_identical_tables_score_one() -> None:
    assert cell_f1(GOLD, GOLD) == 1.0
    assert teds(GOLD, GOLD) == 1.0
    assert teds(GOLD, GOLD, structure_only=True) == 1.0


def test_cell_f1_counts_cells_as_multisets() -> None:
    changed = replace_cell(GOLD, 3, 3, "11.9")
    # 29 non-empty gold cells, one differs on each side.
    assert cell_f1(GOLD, changed) == pytest.approx(28 / 29)
    assert cell_f1([["a", "a"]], [["a"]]) == pytest.approx(2 * 1 * 0.5 / 1.5)
    assert cell_f1([], []) == 1.0
    assert cell_f1([["x"]], []) == 0.0
    # Normalisation: case, spacing and punctuation differences from a PDF do not count.
    assert cell_f1([["NGC 1952", "$5,123"]], [["ngc  1952", "$ 5,123"]]) == 1.0


def test_a_changed_cell_lowers_teds_by_its_edit_distance() -> None:
    changed = replace_cell(GOLD, 2, 4, "Taurux")
    n_nodes = 1 + len(GOLD.rows) + sum(len(r) for r in GOLD.rows)
    assert teds(GOLD, changed) == pytest.approx(1 - (1 / 6) / n_nodes)
    assert teds(GOLD, changed, structure_only=True) == 1.0


def test_structure_change_lowers_teds() -> None:
    dropped_col = Table(rows=tuple(row[:-1] for row in GOLD.rows))
    assert teds(GOLD, dropped_col) < 1.0
    assert teds(GOLD, dropped_col, structure_only=True) < 1.0
    # A merged cell is a different structure from two plain cells.
    spanned = Table(rows=GOLD.rows, spans=(CellSpan(0, 0, 1, 2),))
    assert teds(GOLD, spanned, structure_only=True) < 1.0


def test_teds_on_pubtabnet_style_example() -> None:
    # Two rows vs the same cells read as one row (a row-merge error):
    # exact TED deletes both <tr> and inserts one (3 edits) over 7 nodes.
    gold = [["a", "b"], ["c", "d"]]
    merged = [["a", "b", "c", "d"]]
    assert teds(gold, merged) == pytest.approx(1 - 3 / 7)


def test_large_tables_use_row_alignment_bound() -> None:
    rows = [[f"r{i}c{j}" for j in range(8)] for i in range(80)]
    other = [row[:] for row in rows]
    other[10][3] = "changed"
    del other[40]
    exact_free = teds(rows, other)  # over the node limit: row-aligned distance
    assert 0.9 < exact_free < 1.0
    small_a, small_b = rows[:6], other[:6]
    ta, tb = table_tree(small_a), table_tree(small_b)
    assert row_aligned_distance(ta, tb) >= tree_edit_distance(ta, tb) - 1e-9


cell_text = st.sampled_from(["", "0.41", "BM25", "DPR", "Model", "F1", "12.5", "n/a"])
grid = st.lists(st.lists(cell_text, min_size=1, max_size=4), min_size=0, max_size=4)


@settings(max_examples=60, deadline=None)
@given(grid, grid)
def test_teds_is_a_similarity(a: list[list[str]], b: list[list[str]]) -> None:
    score = teds(a, b)
    assert 0.0 <= score <= 1.0
    assert teds(a, a) == 1.0
    assert score == pytest.approx(teds(b, a))
    assert 0.0 <= cell_f1(a, b) <= 1.0


@settings(max_examples=40, deadline=None)
@given(grid, grid)
def test_row_aligned_distance_bounds_exact_distance(a: list[list[str]], b: list[list[str]]) -> None:
    ta, tb = table_tree(a), table_tree(b)
    assert row_aligned_distance(ta, tb) >= tree_edit_distance(ta, tb) - 1e-9


@settings(max_examples=60, deadline=None)
@given(grid, grid)
def test_lower_bound_bounds_exact_distance(a: list[list[str]], b: list[list[str]]) -> None:
    ta, tb = table_tree(a), table_tree(b)
    assert lower_bound(ta, tb) <= tree_edit_distance(ta, tb) + 1e-9


def test_lower_bound_counts_span_changes_and_meets_exact_on_row_edits() -> None:
    merged = Table(rows=GOLD.rows, spans=(CellSpan(2, 0, 1, 2),))
    for other in (merged, replace_cell(GOLD, 3, 2, "Cluster globular"), GOLD.rows[:3]):
        ta, tb = table_tree(GOLD), table_tree(other)
        exact = tree_edit_distance(ta, tb)
        assert lower_bound(ta, tb) == pytest.approx(exact)
        assert row_aligned_distance(ta, tb) == pytest.approx(exact)


def test_ned_is_edits_over_lengths() -> None:
    assert ned([("kitten", "sitting"), ("abc", "abc")]) == pytest.approx(3 / (7 + 3))
    assert ned([("abc", "")]) == 1.0
    assert ned([]) == 0.0
    assert word_ned([(["a", "b", "c"], ["a", "c"])]) == pytest.approx(1 / 3)


def test_kendall_tau_known_cases() -> None:
    assert kendall_tau([0, 1, 2, 3]) == pytest.approx(1.0)
    assert kendall_tau([3, 2, 1, 0]) == pytest.approx(-1.0)
    # One adjacent swap among four: 5 concordant, 1 discordant pairs.
    assert kendall_tau([0, 2, 1, 3]) == pytest.approx((5 - 1) / 6)
    assert kendall_tau([1]) is None


@settings(max_examples=40, deadline=None)
@given(grid, grid)
def test_teds_shortcut_equals_exact_apted(a: list[list[str]], b: list[list[str]]) -> None:
    ta, tb = table_tree(a), table_tree(b)
    exact = 1 - tree_edit_distance(ta, tb) / max(ta.size(), tb.size())
    assert teds(a, b) == pytest.approx(max(0.0, exact))


def test_cells_compared_without_spaces_as_icdar_does() -> None:
    from align.metrics.tables import adjacency_f1

    # ICDAR-2013 gold often lacks the spaces a PDF shows by position only.
    gold = [["Source", "Yearofdata"], ["Actual", "49,293"]]
    pred = [["Source", "Year of data"], ["Actual", "49,293"]]
    assert cell_f1(gold, pred) == pytest.approx(0.75)
    assert cell_f1(gold, pred, spaces=False) == 1.0
    assert adjacency_f1(gold, pred) < 1.0
    assert adjacency_f1(gold, pred, spaces=False) == 1.0
    # Different words stay different cells.
    assert cell_f1([["Year of data"]], [["Year of date"]], spaces=False) == 0.0

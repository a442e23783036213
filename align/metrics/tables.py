"""Table fidelity: cell F1 on cell multisets, adjacency-relation F1 and TEDS.

Cell F1 is a bag of cells: it cannot see a value on the wrong row. The
ICDAR-2013 table competition's structure measure can (Göbel et al. 2013):
every non-empty cell is paired with its next non-empty neighbour to the right
(same row) and below (same column); the two tables' multisets of such
``(cell, neighbour, direction)`` relations are compared with precision,
recall and F1 (:func:`adjacency_scores`).

TEDS follows PubTabNet (Zhong et al. 2020) and OmniDocBench: a table becomes a
tree ``table -> tr -> td``; inserting or deleting a node costs 1; renaming a
node costs 1 when the tags differ or when two ``td`` differ in ``colspan`` /
``rowspan``, otherwise the normalised Levenshtein distance between the two
cells' (normalised) texts. ``TEDS = 1 - TED / max(|T_gold|, |T_pred|)``.

The tree edit distance itself comes from the ``apted`` package (Pawlik and
Augsten's APTED algorithm), not from code written here. Unlike PubTabNet we do
not add ``thead``/``tbody`` nodes: PDF parsers rarely know which rows are the
header, and a fidelity score should not punish a parse for a guess the PDF
does not encode.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from apted import APTED, Config
from rapidfuzz.distance import Levenshtein

from align.normalize import normalize_text
from docparse.model import Table

Rows = Sequence[Sequence[str]]


@functools.lru_cache(maxsize=1 << 16)
def normalize_cell(text: str, *, spaces: bool = True) -> str:
    """The form in which two cells are compared.

    The shared :func:`align.normalize.normalize_text` with case and punctuation
    folded, so ``$ 5,123`` and ``$5,123`` (a PDF's spacing) are the same cell.
    ``spaces=False`` also removes every space, as the ICDAR-2013 competition
    compares cells: its ground truth was read from the PDFs' text objects and
    often lacks the spaces a PDF only shows by position (``Yearofdata``).
    """
    norm = normalize_text(text, fold_case=True, fold_punct=True)
    return norm if spaces else "".join(norm.split())


def _rows_of(table: Table | Rows) -> Rows:
    return table.rows if isinstance(table, Table) else table


def cell_bag(table: Table | Rows, *, spaces: bool = True) -> Counter[str]:
    """The multiset of normalised non-empty cells of a table (see :func:`normalize_cell`)."""
    bag: Counter[str] = Counter()
    for row in _rows_of(table):
        for cell in row:
            norm = normalize_cell(cell, spaces=spaces)
            if norm:
                bag[norm] += 1
    return bag


def bag_f1(gold: Counter[str], pred: Counter[str]) -> float:
    """:func:`cell_f1` on precomputed :func:`cell_bag` multisets."""
    if not gold and not pred:
        return 1.0
    if not gold or not pred:
        return 0.0
    overlap = sum((gold & pred).values())
    if overlap == 0:
        return 0.0
    precision = overlap / sum(pred.values())
    recall = overlap / sum(gold.values())
    return 2 * precision * recall / (precision + recall)


def cell_f1(gold_rows: Table | Rows, pred_rows: Table | Rows, *, spaces: bool = True) -> float:
    """F1 between the multisets of normalised non-empty cells of two tables.

    Position is ignored on purpose: it measures whether the cell *values*
    survive, whatever the parser did to rows and columns (TEDS measures
    structure). Two tables without any non-empty cell score 1.0; one empty
    side scores 0.0. ``spaces=False`` compares cells with their spaces
    removed (:func:`normalize_cell`).
    """
    return bag_f1(cell_bag(gold_rows, spaces=spaces), cell_bag(pred_rows, spaces=spaces))


Relation = tuple[str, str, str]


def adjacency_relations(table: Table | Rows, *, spaces: bool = True) -> Counter[Relation]:
    """The multiset of ICDAR-2013 adjacency relations of a table.

    For each non-empty cell (normalised by :func:`normalize_cell`), the nearest
    non-empty cell to its right in the same row gives ``(cell, right, "h")``
    and the nearest non-empty cell below it in the same column gives
    ``(cell, below, "v")``; empty cells in between are skipped, as the
    competition's measure does. A merged cell sits at its top-left position.
    ``spaces=False`` removes the cells' spaces (:func:`normalize_cell`).
    """
    grid = [[normalize_cell(c, spaces=spaces) for c in row] for row in _rows_of(table)]
    out: Counter[Relation] = Counter()
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not cell:
                continue
            right = next((x for x in row[c + 1 :] if x), None)
            if right is not None:
                out[(cell, right, "h")] += 1
            below = next(
                (grid[k][c] for k in range(r + 1, len(grid)) if c < len(grid[k]) and grid[k][c]),
                None,
            )
            if below is not None:
                out[(cell, below, "v")] += 1
    return out


@dataclass(frozen=True, slots=True)
class AdjacencyScore:
    """Precision, recall and F1 of adjacency relations (predicted against gold)."""

    precision: float
    recall: float
    f1: float


def adjacency_scores(
    gold: Table | Rows, pred: Table | Rows, *, spaces: bool = True
) -> AdjacencyScore:
    """ICDAR-2013 adjacency-relation precision, recall and F1 of ``pred`` against ``gold``.

    Two tables with no relation at all (no two non-empty cells side by side)
    are compared on their cells instead: equal bags score 1.0, else 0.0.
    ``spaces=False`` removes the cells' spaces (:func:`normalize_cell`).
    """
    g = adjacency_relations(gold, spaces=spaces)
    p = adjacency_relations(pred, spaces=spaces)
    if not g and not p:
        same = 1.0 if cell_bag(gold, spaces=spaces) == cell_bag(pred, spaces=spaces) else 0.0
        return AdjacencyScore(same, same, same)
    hit = sum((g & p).values())
    precision = hit / sum(p.values()) if p else 0.0
    recall = hit / sum(g.values()) if g else 0.0
    f1 = 2 * precision * recall / (precision + recall) if hit else 0.0
    return AdjacencyScore(precision, recall, f1)


def adjacency_f1(gold: Table | Rows, pred: Table | Rows, *, spaces: bool = True) -> float:
    """F1 of :func:`adjacency_scores`."""
    return adjacency_scores(gold, pred, spaces=spaces).f1


@dataclass(slots=True, eq=False)
class TableNode:
    """A node of a table tree as ``apted`` walks it (``name`` and ``children``)."""

    name: str
    text: str = ""
    colspan: int = 1
    rowspan: int = 1
    children: list[TableNode] = field(default_factory=list)

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children)


def table_tree(table: Table | Rows) -> TableNode:
    """The ``table -> tr -> td`` tree of a table.

    Grid positions covered by a merged cell (other than its top-left one)
    are not cells of their own, as in HTML.
    """
    spans: dict[tuple[int, int], tuple[int, int]] = {}
    covered: set[tuple[int, int]] = set()
    if isinstance(table, Table):
        for s in table.spans:
            spans[(s.row, s.col)] = (s.row_span, s.col_span)
            for r in range(s.row, s.row + s.row_span):
                for c in range(s.col, s.col + s.col_span):
                    if (r, c) != (s.row, s.col):
                        covered.add((r, c))
    root = TableNode("table")
    for r, row in enumerate(_rows_of(table)):
        tr = TableNode("tr")
        for c, cell in enumerate(row):
            if (r, c) in covered:
                continue
            rowspan, colspan = spans.get((r, c), (1, 1))
            tr.children.append(
                TableNode("td", normalize_cell(cell), colspan=colspan, rowspan=rowspan)
            )
        root.children.append(tr)
    return root


class _TedsConfig(Config):  # type: ignore[misc]
    """PubTabNet's costs; floats because cell renames cost a fraction."""

    valuecls = float

    def rename(self, node1: TableNode, node2: TableNode) -> float:
        if node1.name != node2.name:
            return 1.0
        if node1.name != "td":
            return 0.0
        if node1.colspan != node2.colspan or node1.rowspan != node2.rowspan:
            return 1.0
        return float(Levenshtein.normalized_distance(node1.text, node2.text))

    def children(self, node: TableNode) -> list[TableNode]:
        return node.children


def tree_edit_distance(a: TableNode, b: TableNode) -> float:
    """APTED tree edit distance between two table trees with TEDS costs."""
    return float(APTED(a, b, _TedsConfig()).compute_edit_distance())


def row_aligned_distance(a: TableNode, b: TableNode) -> float:
    """Edit distance of the mapping that keeps rows whole: rows aligned in order, cells
    aligned in order within each pair of aligned rows, with TEDS costs.

    It is the cost of one valid tree mapping, so it is never below the exact
    tree edit distance (equal to it unless the best mapping dissolves a row,
    as when a parser merges two rows into one). It runs in plain dynamic
    programming over rows and cells, so it stays fast on tables of thousands
    of cells where APTED would take minutes.
    """
    config = _TedsConfig()

    def row_distance(r1: TableNode, r2: TableNode) -> float:
        c1, c2 = r1.children, r2.children
        prev = [float(j) for j in range(len(c2) + 1)]
        for i in range(1, len(c1) + 1):
            cur = [float(i)] + [0.0] * len(c2)
            for j in range(1, len(c2) + 1):
                cur[j] = min(
                    prev[j] + 1.0,
                    cur[j - 1] + 1.0,
                    prev[j - 1] + config.rename(c1[i - 1], c2[j - 1]),
                )
            prev = cur
        return prev[-1]

    rows1, rows2 = a.children, b.children
    sizes1 = [r.size() for r in rows1]
    sizes2 = [r.size() for r in rows2]
    prev = [0.0]
    for s in sizes2:
        prev.append(prev[-1] + s)
    for i in range(1, len(rows1) + 1):
        cur = [prev[0] + sizes1[i - 1]] + [0.0] * len(rows2)
        for j in range(1, len(rows2) + 1):
            cur[j] = min(
                prev[j] + sizes1[i - 1],
                cur[j - 1] + sizes2[j - 1],
                prev[j - 1] + row_distance(rows1[i - 1], rows2[j - 1]),
            )
        prev = cur
    return prev[-1] + config.rename(a, b)


def _preorder(tree: TableNode) -> list[TableNode]:
    out = [tree]
    for tr in tree.children:
        out.append(tr)
        out.extend(tr.children)
    return out


def _postorder(tree: TableNode) -> list[int]:
    """Positions in :func:`_preorder` of the nodes in postorder."""
    out: list[int] = []
    k = 1
    for tr in tree.children:
        out.extend(range(k + 1, k + 1 + len(tr.children)))
        out.append(k)
        k += 1 + len(tr.children)
    out.append(0)
    return out


def _rename_costs(n1: list[TableNode], n2: list[TableNode]) -> Any:
    """The TEDS rename cost of every pair of nodes (:class:`_TedsConfig`), as an array."""
    import numpy as np
    from rapidfuzz.process import cdist

    cost = np.array([[1.0 if x.name != y.name else 0.0 for y in n2] for x in n1])
    i1 = [i for i, x in enumerate(n1) if x.name == "td"]
    i2 = [j for j, y in enumerate(n2) if y.name == "td"]
    if i1 and i2:
        text = cdist(
            [n1[i].text for i in i1],
            [n2[j].text for j in i2],
            scorer=Levenshtein.normalized_distance,
            dtype=np.float64,
        )
        span1 = np.array([(n1[i].colspan, n1[i].rowspan) for i in i1])
        span2 = np.array([(n2[j].colspan, n2[j].rowspan) for j in i2])
        other = (span1[:, None, :] != span2[None, :, :]).any(axis=2)
        cost[np.ix_(i1, i2)] = np.where(other, 1.0, text)
    return cost


def _sequence_distance(cost: Any) -> float:
    """Edit distance of two node sequences (indels 1, renames from ``cost``), a row at a time.

    ``cur[j] = min(a[j], cur[j-1] + 1)`` unrolls to ``min over k <= j of a[k] + j - k``,
    a running minimum, so each row is a few array operations.
    """
    import numpy as np

    n2 = cost.shape[1]
    idx = np.arange(n2 + 1, dtype=np.float64)
    prev = idx.copy()
    a = np.empty(n2 + 1)
    for row in cost:
        a[0] = prev[0] + 1.0
        np.minimum(prev[1:] + 1.0, prev[:-1] + row, out=a[1:])
        prev = np.minimum.accumulate(a - idx) + idx
    return float(prev[-1])


def lower_bound(a: TableNode, b: TableNode) -> float:
    """A lower bound of the tree edit distance, in milliseconds where APTED takes most of
    a second: the largest of three relaxations with TEDS costs.

    A tree mapping keeps the nodes' preorder and their postorder, so it is an alignment
    of the two preorder sequences, and of the two postorder ones: their edit distances
    are lower bounds (Guha et al. 2002). It is also a one-to-one pairing of the nodes
    (an unpaired node inserted or deleted at cost 1): the cheapest pairing, order
    ignored, is one more. Every rename costs at most 1, less than a deletion plus an
    insertion, so that pairing pairs as many nodes as the smaller tree has
    (:func:`scipy.optimize.linear_sum_assignment`).
    """
    from scipy.optimize import linear_sum_assignment

    n1, n2 = _preorder(a), _preorder(b)
    cost = _rename_costs(n1, n2)
    pre = _sequence_distance(cost)
    post = _sequence_distance(cost[_postorder(a)][:, _postorder(b)])
    rows, cols = linear_sum_assignment(cost)
    pairing = abs(len(n1) - len(n2)) + float(cost[rows, cols].sum())
    return max(pre, post, pairing)


#: Trees larger than this (nodes of the larger tree) use :func:`row_aligned_distance`.
#: APTED takes about 2 s at 400 nodes and grows roughly with the square.
TEDS_MAX_NODES = 500


def teds(
    gold: Table | Rows,
    pred: Table | Rows,
    *,
    structure_only: bool = False,
    max_nodes: int = TEDS_MAX_NODES,
) -> float:
    """Tree-Edit-Distance-based Similarity in [0, 1] between two tables.

    ``structure_only=True`` gives TEDS-S (cell texts ignored), which tells a
    wrong grid from wrong cell values. When the larger tree has more than
    ``max_nodes`` nodes the distance is :func:`row_aligned_distance` (an upper
    bound of the exact one, so the score is a lower bound) instead of APTED.
    """
    ta, tb = table_tree(gold), table_tree(pred)
    if structure_only:
        for tree in (ta, tb):
            for tr in tree.children:
                for td in tr.children:
                    td.text = ""
    n = max(ta.size(), tb.size())
    # Both trees are a bare <table> node at least, so n >= 1.
    distance = row_aligned_distance(ta, tb)
    # The row-aligned distance is an upper bound and the size difference and
    # lower_bound lower bounds of the exact distance; when they meet (identical
    # or row-wise edited tables, the common case) APTED has nothing to add.
    if (
        n <= max_nodes
        and distance > abs(ta.size() - tb.size()) + 1e-9
        and distance > lower_bound(ta, tb) + 1e-9
    ):
        distance = tree_edit_distance(ta, tb)
    return max(0.0, 1.0 - distance / n)

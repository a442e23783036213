"""Scores used by docparse's fidelity reports: text edit distance, reading order, tables.

``align.metrics.tables`` has cell F1, adjacency-relation F1 and TEDS; ``align.metrics.text`` has NED
and Kendall tau helpers.
"""

from __future__ import annotations

from align.metrics.tables import (
    AdjacencyScore,
    adjacency_f1,
    adjacency_relations,
    adjacency_scores,
    bag_f1,
    cell_bag,
    cell_f1,
    normalize_cell,
    table_tree,
    teds,
)
from align.metrics.text import kendall_tau, ned, word_ned

__all__ = [
    "AdjacencyScore",
    "adjacency_f1",
    "adjacency_relations",
    "adjacency_scores",
    "bag_f1",
    "cell_bag",
    "cell_f1",
    "kendall_tau",
    "ned",
    "normalize_cell",
    "table_tree",
    "teds",
    "word_ned",
]

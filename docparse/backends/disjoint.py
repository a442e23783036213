"""Disjoint sets over indices ``0 .. n - 1``: the one union-find the layout steps share.

Table frames are joined from touching rule segments
(:mod:`~docparse.backends.table_candidates`), ruled cells from shared
corners (:mod:`~docparse.backends.ruled_grid`) and a display equation's
pieces from their neighbours (:mod:`~docparse.backends.equations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class DisjointSets:
    """Union-find with path halving.

    >>> sets = DisjointSets(4)
    >>> sets.join(0, 2)
    >>> sets.groups("abcd")
    [['a', 'c'], ['b'], ['d']]
    """

    __slots__ = ("parent",)

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        """The root of ``i``'s set."""
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        """Put ``j``'s set into ``i``'s (``i``'s root stays the root)."""
        a, b = self.find(i), self.find(j)
        if a != b:
            self.parent[b] = a

    def groups(self, items: Sequence[T]) -> list[list[T]]:
        """``items`` (one per index) by set: sets in the order of their first
        member, each set's members in index order."""
        out: dict[int, list[T]] = {}
        for i, item in enumerate(items):
            out.setdefault(self.find(i), []).append(item)
        return list(out.values())

"""docparse.backends.disjoint: the union-find shared by the table and equation steps."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from docparse.backends.disjoint import DisjointSets


def test_groups_keep_first_member_order_and_index_order() -> None:
    sets = DisjointSets(6)
    sets.join(4, 1)
    sets.join(5, 4)
    sets.join(2, 0)
    assert sets.groups("abcdef") == [["a", "c"], ["b", "e", "f"], ["d"]]
    assert sets.find(1) == sets.find(5) != sets.find(3)


@given(st.lists(st.tuples(st.integers(0, 19), st.integers(0, 19)), max_size=40))
def test_sets_are_the_connected_components_of_the_joins(pairs: list[tuple[int, int]]) -> None:
    sets = DisjointSets(20)
    for i, j in pairs:
        sets.join(i, j)
    # The components by a plain search over the same edges.
    neighbours: dict[int, set[int]] = {k: set() for k in range(20)}
    for i, j in pairs:
        neighbours[i].add(j)
        neighbours[j].add(i)
    seen: set[int] = set()
    expected = []
    for k in range(20):
        if k in seen:
            continue
        stack, part = [k], set()
        while stack:
            n = stack.pop()
            if n not in part:
                part.add(n)
                stack.extend(neighbours[n] - part)
        seen |= part
        expected.append(sorted(part))
    assert sets.groups(list(range(20))) == expected

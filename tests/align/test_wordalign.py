"""align.wordalign: rare n-gram anchors."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from align.wordalign import _MAX_OCC, _anchors


def _plain_anchors(a: list[int], b: list[int], n: int) -> list[tuple[int, int]]:
    """The definition, written out: every pair of equal n-grams rare on both sides."""

    def where(seq: list[int]) -> dict[tuple[int, ...], list[int]]:
        out: dict[tuple[int, ...], list[int]] = {}
        for i in range(len(seq) - n + 1):
            out.setdefault(tuple(seq[i : i + n]), []).append(i)
        return out

    wa, wb = where(a), where(b)
    pairs = [
        (i, j)
        for g, is_ in wa.items()
        if g in wb and len(is_) <= _MAX_OCC and len(wb[g]) <= _MAX_OCC
        for i in is_
        for j in wb[g]
    ]
    return sorted(pairs, key=lambda p: (p[0], -p[1]))


words = st.lists(st.integers(0, 6), max_size=40)


@settings(max_examples=300, deadline=None)
@given(words, words, st.integers(1, 3))
def test_anchors_are_the_rare_equal_ngrams(a: list[int], b: list[int], n: int) -> None:
    assert _anchors(a, b, n) == _plain_anchors(a, b, n)


def test_anchors_skip_ngrams_more_frequent_than_max_occ() -> None:
    a = [1, 2, 3] * (_MAX_OCC + 1) + [7, 8, 9]
    b = [7, 8, 9, 1, 2, 3]
    assert _anchors(a, b, 3) == [(3 * (_MAX_OCC + 1), 0)]

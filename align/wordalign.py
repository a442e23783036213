"""Word-sequence alignment for projection: rare-word anchors, their longest increasing
chain, and the gaps between anchors aligned in order (bounded work on long gaps).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from rapidfuzz.distance import Indel

_ANCHOR_N = 3


# An n-gram occurring more often than this on either side is no anchor.
_MAX_OCC = 4


# Gaps between anchors are aligned directly up to this many word pairs; larger
# gaps are searched for anchors again first (words unique within the gap).
_MAX_GAP_CELLS = 4_000_000


_MAX_PASSES = 50


_SHORT_BLOCK = 3


_LONG_GAP = 5


def _anchors(a: Sequence[int], b: Sequence[int], n: int) -> list[tuple[int, int]]:
    """(i, j) pairs of equal n-grams that are rare on both sides (at most ``_MAX_OCC``).

    Rare rather than unique: books repeat their headings in tables of contents
    (sometimes twice in a twin, once in the PDF), and unique-only anchors
    would leave those stretches without any. :func:`_chain` picks, among the
    occurrences, the ones that make the longest consistent chain. Sorted by
    i ascending and j descending, as :func:`_chain` needs. Counted with NumPy
    (n-grams labelled by ``numpy.unique``): a book's words are a million n-grams.
    """
    import numpy as np

    na, nb = len(a) - n + 1, len(b) - n + 1
    if n < 1 or na <= 0 or nb <= 0:
        return []
    seq = np.asarray([*a, *b], dtype=np.int64)
    # Row k: the n-gram starting at k (those straddling the a|b seam are left out).
    grams = np.stack([seq[k : len(seq) - n + 1 + k] for k in range(n)], axis=1)
    grams = np.concatenate([grams[:na], grams[len(a) :]])
    _, label = np.unique(grams, axis=0, return_inverse=True)
    label = label.ravel()
    la, lb = label[:na], label[na:]
    n_labels = int(label.max()) + 1
    ca = np.bincount(la, minlength=n_labels)
    cb = np.bincount(lb, minlength=n_labels)
    rare = (ca >= 1) & (ca <= _MAX_OCC) & (cb >= 1) & (cb <= _MAX_OCC)
    i = np.flatnonzero(rare[la])
    # Every i against every j of its n-gram: b's positions grouped by n-gram.
    order = np.argsort(lb, kind="stable")
    first = np.searchsorted(lb[order], np.arange(n_labels))
    g = la[i]
    reps = cb[g]
    ii = np.repeat(i, reps)
    step = np.arange(len(ii)) - np.repeat(np.cumsum(reps) - reps, reps)
    jj = order[np.repeat(first[g], reps) + step]
    keep = np.lexsort((-jj, ii))
    return list(zip(ii[keep].tolist(), jj[keep].tolist(), strict=True))


def _chain(anchors: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest chain of anchors increasing on both sides (patience LIS on j).

    With several anchors at one i (sorted by j descending) at most one of
    them can extend a chain, so the chain is strictly increasing in i too.
    """
    tails: list[int] = []  # j of the last anchor of the best chain of each length
    tail_idx: list[int] = []
    prev: list[int] = [-1] * len(anchors)
    for k, (_, j) in enumerate(anchors):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tail_idx.append(k)
        else:
            tails[pos] = j
            tail_idx[pos] = k
        prev[k] = tail_idx[pos - 1] if pos else -1
    out: list[tuple[int, int]] = []
    k = tail_idx[-1] if tail_idx else -1
    while k >= 0:
        out.append(anchors[k])
        k = prev[k]
    out.reverse()
    return out


def _align_gap(
    a: Sequence[int], b: Sequence[int], a0: int, a1: int, b0: int, b1: int, depth: int
) -> list[tuple[int, int]]:
    """Matched (i, j) pairs between a[a0:a1] and b[b0:b1]."""
    na, nb = a1 - a0, b1 - b0
    if na <= 0 or nb <= 0:
        return []
    if na * nb > _MAX_GAP_CELLS:
        if depth > 3:
            return []
        return _align_ordered(a[a0:a1], b[b0:b1], depth + 1, offset=(a0, b0))
    ops = Indel.opcodes(a[a0:a1], b[b0:b1])
    blocks = list(ops)
    pairs: list[tuple[int, int]] = []
    for k, op in enumerate(blocks):
        if op.tag != "equal":
            continue
        length = op.src_end - op.src_start
        if length < _SHORT_BLOCK:
            before = blocks[k - 1] if k > 0 else None
            after = blocks[k + 1] if k + 1 < len(blocks) else None
            if _is_long(before) and _is_long(after):
                continue
        pairs.extend((a0 + op.src_start + d, b0 + op.dest_start + d) for d in range(length))
    return pairs


def _is_long(op: Any) -> bool:
    if op is None:
        return False
    return bool(max(op.src_end - op.src_start, op.dest_end - op.dest_start) > _LONG_GAP)


def _align_ordered(
    a: Sequence[int],
    b: Sequence[int],
    depth: int = 0,
    offset: tuple[int, int] = (0, 0),
    strict: bool = False,
) -> list[tuple[int, int]]:
    """An order-preserving alignment: anchor chain, then the gaps between anchors.

    ``strict`` (the passes after the first, over leftovers of unrelated
    places laid end to end) only aligns the words next to anchors, up to
    ``_STRICT_GAP`` on each side, so leftovers are not tied together by
    chance.
    """
    n = _ANCHOR_N if depth == 0 else max(1, _ANCHOR_N - depth)
    chain = _chain(_anchors(a, b, n))
    if not chain and (depth > 0 or strict):
        return []
    pairs: list[tuple[int, int]] = []
    ca, cb = 0, 0  # everything before (ca, cb) is settled
    first = True
    for i, j in chain:
        if i < ca or j < cb:
            continue  # overlaps the previous anchor on one side only
        if i - ca or j - cb:
            if strict:
                pairs.extend(_strict_gap(a, b, ca, i, cb, j, left=not first, right=True))
            else:
                pairs.extend(_align_gap(a, b, ca, i, cb, j, depth))
        pairs.extend((i + d, j + d) for d in range(n))
        ca, cb = i + n, j + n
        first = False
    if strict:
        pairs.extend(_strict_gap(a, b, ca, len(a), cb, len(b), left=True, right=False))
    else:
        pairs.extend(_align_gap(a, b, ca, len(a), cb, len(b), depth if chain else depth + 1))
    oa, ob = offset
    return [(i + oa, j + ob) for i, j in pairs]


_STRICT_GAP = 30


def _strict_gap(
    a: Sequence[int],
    b: Sequence[int],
    a0: int,
    a1: int,
    b0: int,
    b1: int,
    *,
    left: bool,
    right: bool,
) -> list[tuple[int, int]]:
    """Align only the words of a gap next to its bounding anchors."""
    na, nb = a1 - a0, b1 - b0
    if na <= _STRICT_GAP and nb <= _STRICT_GAP and left and right:
        return _align_gap(a, b, a0, a1, b0, b1, 0)
    out: list[tuple[int, int]] = []
    ka, kb = min(_STRICT_GAP, na // 2 if right else na), min(_STRICT_GAP, nb // 2 if right else nb)
    if left:
        out.extend(_align_gap(a, b, a0, a0 + ka, b0, b0 + kb, 0))
    if right:
        ka, kb = min(_STRICT_GAP, na - ka), min(_STRICT_GAP, nb - kb)
        out.extend(_align_gap(a, b, a1 - ka, a1, b1 - kb, b1, 0))
    return out


def match_words(a: Sequence[int], b: Sequence[int]) -> dict[int, int]:
    """Map from positions in ``a`` to matched positions in ``b`` (one-to-one).

    The first pass aligns everything in order; later passes run over the
    words still unmatched, so blocks moved out of order are found, one more
    per pass.
    """
    matched: dict[int, int] = {}
    rest_a = list(range(len(a)))
    rest_b = list(range(len(b)))
    for k in range(_MAX_PASSES):
        if not rest_a or not rest_b:
            break
        sub_a = [a[i] for i in rest_a]
        sub_b = [b[j] for j in rest_b]
        pairs = _align_ordered(sub_a, sub_b, strict=k > 0)
        if not pairs:
            break
        for i, j in pairs:
            matched[rest_a[i]] = rest_b[j]
        done_b = set(matched.values())
        rest_a = [i for i in rest_a if i not in matched]
        rest_b = [j for j in rest_b if j not in done_b]
    return matched

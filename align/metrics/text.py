"""Text-level scores: normalised edit distance and reading-order agreement."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

from rapidfuzz.distance import Levenshtein


def ned(pairs: Iterable[tuple[str, str]]) -> float:
    """Corpus-level normalised edit distance: sum of edits over sum of lengths.

    Each pair is (reference, hypothesis); a pair's length is the longer of
    the two, so the result lies in [0, 1]. No pairs (or only empty ones) give 0.
    """
    return _ned(pairs)


def word_ned(pairs: Iterable[tuple[Sequence[Hashable], Sequence[Hashable]]]) -> float:
    """:func:`ned` over word sequences instead of characters."""
    return _ned(pairs)


def _ned(pairs: Iterable[tuple[Sequence[Hashable], Sequence[Hashable]]]) -> float:
    # Levenshtein compares any sequences of hashables: a string is one of characters.
    edits = 0
    length = 0
    for ref, hyp in pairs:
        edits += Levenshtein.distance(ref, hyp)
        length += max(len(ref), len(hyp))
    return edits / length if length else 0.0


def kendall_tau(ranks: Sequence[float]) -> float | None:
    """Kendall's tau-b between ``0..n-1`` and ``ranks`` (None for fewer than 2 items).

    ``ranks[i]`` is where the i-th item of the reference order appears in
    the other order, so 1.0 means the same order and -1.0 the reverse.
    """
    if len(ranks) < 2:
        return None
    from scipy.stats import kendalltau

    tau = kendalltau(range(len(ranks)), ranks).statistic
    if tau is None or math.isnan(tau):
        return None
    return float(tau)

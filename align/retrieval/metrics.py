"""Ranking and evidence scores: hit/recall/MRR at k, QASPER Evidence-F1, GaRAGe attribution.

All functions take plain ids or strings, so they score any retriever or QA
system, not only docparse's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "PRF",
    "attribution",
    "evidence_f1",
    "first_rank",
    "hit_at_k",
    "mrr_at_k",
    "paragraph_f1",
    "recall_at_k",
]

#: QASPER marks figure and table evidence with this prefix.
FLOAT_SELECTED = "FLOAT SELECTED"


def first_rank(ranked: Sequence[str], gold: Collection[str]) -> int | None:
    """1-based rank of the first gold id in ``ranked`` (None if absent)."""
    for i, cid in enumerate(ranked, 1):
        if cid in gold:
            return i
    return None


def hit_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 if any gold id is among the first ``k``, else 0.0."""
    return 1.0 if any(c in gold for c in ranked[:k]) else 0.0


def recall_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """Share of the gold ids among the first ``k`` (1.0 for no gold)."""
    if not gold:
        return 1.0
    return len(set(ranked[:k]) & set(gold)) / len(set(gold))


def mrr_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """Reciprocal rank of the first gold id if it is within ``k``, else 0."""
    rank = first_rank(ranked[:k], gold)
    return 1.0 / rank if rank else 0.0


def paragraph_f1(prediction: Sequence[str], gold: Sequence[str]) -> float:
    """F1 between predicted and gold evidence, with QASPER's official semantics.

    Overlap is counted on sets; precision and recall divide by the lengths of
    the lists as given (as the official ``qasper_evaluator.py`` does). Both
    empty (an unanswerable question and no evidence predicted) scores 1.0.
    """
    if not gold and not prediction:
        return 1.0
    same = len(set(gold) & set(prediction))
    if same == 0:
        return 0.0
    precision = same / len(prediction)
    recall = same / len(gold)
    return 2 * precision * recall / (precision + recall)


def evidence_f1(
    prediction: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    text_evidence_only: bool = False,
) -> float:
    """QASPER Evidence-F1 of one question: the max over annotators of :func:`paragraph_f1`.

    ``references`` holds one evidence list per annotator. With
    ``text_evidence_only`` (the official ``--text_evidence_only`` flag) gold
    strings starting with ``FLOAT SELECTED`` are dropped first. No annotator
    at all is scored as one annotator with empty evidence.
    """
    refs = [list(r) for r in references] or [[]]
    if text_evidence_only:
        refs = [[e for e in r if FLOAT_SELECTED not in e] for r in refs]
    return max(paragraph_f1(prediction, r) for r in refs)


@dataclass(frozen=True, slots=True)
class PRF:
    """Precision, recall and F1."""

    precision: float
    recall: float
    f1: float

    def to_dict(self) -> dict[str, Any]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1}


def attribution(cited: Iterable[str], gold: Iterable[str]) -> PRF:
    """Attribution precision/recall/F1 of the passages an answer cites (GaRAGe).

    GaRAGe compares the passages cited by a model's answer with those cited
    by the human-written answer. Citing nothing when nothing should be cited
    scores 1/1/1; citing something when nothing should be, or nothing when
    something should, scores 0 on the side that has no passages.
    """
    c, g = set(cited), set(gold)
    if not c and not g:
        return PRF(1.0, 1.0, 1.0)
    same = len(c & g)
    precision = same / len(c) if c else 0.0
    recall = same / len(g) if g else 0.0
    f1 = 2 * precision * recall / (precision + recall) if same else 0.0
    return PRF(precision, recall, f1)

"""Retrieval fidelity of chunk lists: retrievers, ranking metrics, Evidence-F1, attribution.

>>> from align.retrieval import hit_at_k, evidence_f1
>>> hit_at_k(["c2", "c7"], {"c7"}, 1), hit_at_k(["c2", "c7"], {"c7"}, 3)
(0.0, 1.0)
>>> evidence_f1([], [["A paragraph."], []])  # an annotator said: no evidence
1.0
"""

from __future__ import annotations

from align.retrieval.evaluate import (
    RecordResult,
    RetrievalReport,
    evaluate,
    evaluate_files,
    find_document,
)
from align.retrieval.metrics import (
    PRF,
    attribution,
    evidence_f1,
    first_rank,
    hit_at_k,
    mrr_at_k,
    paragraph_f1,
    recall_at_k,
)
from align.retrieval.retrievers import (
    RETRIEVERS,
    BM25Retriever,
    Retriever,
    TfidfRetriever,
    get_retriever,
    tokenize,
)

__all__ = [
    "PRF",
    "RETRIEVERS",
    "BM25Retriever",
    "RecordResult",
    "RetrievalReport",
    "Retriever",
    "TfidfRetriever",
    "attribution",
    "evaluate",
    "evaluate_files",
    "evidence_f1",
    "find_document",
    "first_rank",
    "get_retriever",
    "hit_at_k",
    "mrr_at_k",
    "paragraph_f1",
    "recall_at_k",
    "tokenize",
]

"""Retrievers: BM25 (bm25s) and TF-IDF cosine (scikit-learn) over chunk lists.

A retriever is any callable ``(query, chunks) -> ranked chunk ids`` (see
:class:`Retriever`); chunks are anything with ``id`` and ``text`` (docparse
chunks, source units, your own objects). The two built-in retrievers index a
chunk list once and reuse the index while they are called with the same
list object, so evaluating many questions on one document costs one index.

Both tokenise with :func:`align.normalize.normalize_text` (case and
punctuation folded) and drop scikit-learn's English stop words; ties keep
document order.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from align.locate import ChunkLike
from align.normalize import normalize_text
from docparse.errors import UnknownParserError

__all__ = [
    "RETRIEVERS",
    "BM25Retriever",
    "Retriever",
    "TfidfRetriever",
    "get_retriever",
    "tokenize",
]


@runtime_checkable
class Retriever(Protocol):
    """Anything that ranks chunks for a query: returns chunk ids, best first."""

    def __call__(self, query: str, chunks: Sequence[ChunkLike]) -> list[str]: ...


def _stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS)


_STOP: frozenset[str] | None = None


def tokenize(text: str) -> list[str]:
    """Lower-cased, punctuation-folded words of ``text`` without English stop words."""
    global _STOP
    if _STOP is None:
        _STOP = _stop_words()
    return [
        w for w in normalize_text(text, fold_case=True, fold_punct=True).split() if w not in _STOP
    ]


class _Cached(ABC):
    """A :class:`Retriever` that keeps the indexes of the last few chunk lists seen
    (by identity). Subclasses build the index and rank with it."""

    _SIZE = 8

    def __init__(self) -> None:
        # id -> (the chunk list itself, its ids, its index); the list is kept so
        # that its id cannot be reused by another object while cached.
        self._cache: OrderedDict[int, tuple[Sequence[ChunkLike], list[str], Any]] = OrderedDict()

    def _prepare(self, chunks: Sequence[ChunkLike]) -> tuple[list[str], Any]:
        key = id(chunks)
        hit = self._cache.get(key)
        if hit is None or hit[0] is not chunks or len(hit[1]) != len(chunks):
            hit = (chunks, [c.id for c in chunks], self._build([c.text for c in chunks]))
            self._cache[key] = hit
            while len(self._cache) > self._SIZE:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        return hit[1], hit[2]

    @abstractmethod
    def _build(self, texts: list[str]) -> Any:
        """The index of one chunk list's texts (what :meth:`_prepare` caches)."""

    @abstractmethod
    def __call__(self, query: str, chunks: Sequence[ChunkLike]) -> list[str]:
        """Chunk ids of ``chunks``, best match for ``query`` first."""

    @staticmethod
    def _rank(scores: np.ndarray[Any, Any], ids: list[str]) -> list[str]:
        # Stable sort on negated scores: equal scores keep document order.
        order = np.argsort(-scores, kind="stable")
        return [ids[i] for i in order]


class BM25Retriever(_Cached):
    """Okapi BM25 (Lucene variant) via the ``bm25s`` package."""

    name = "bm25"

    def __init__(self, k1: float = 1.5, b: float = 0.75) -> None:
        super().__init__()
        self.k1 = k1
        self.b = b

    def _build(self, texts: list[str]) -> Any:
        import bm25s

        # bm25s sets its own logger to DEBUG on import, which floods docparse's log.
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        index = bm25s.BM25(k1=self.k1, b=self.b)
        index.index([tokenize(t) for t in texts], show_progress=False)
        return index

    def __call__(self, query: str, chunks: Sequence[ChunkLike]) -> list[str]:
        if not chunks:
            return []
        ids, index = self._prepare(chunks)
        scores = np.asarray(index.get_scores(tokenize(query)), dtype=float)
        return self._rank(scores, ids)


class TfidfRetriever(_Cached):
    """Cosine similarity of TF-IDF vectors (scikit-learn, sublinear tf)."""

    name = "tfidf"

    def _build(self, texts: list[str]) -> Any:
        from sklearn.feature_extraction.text import TfidfVectorizer

        vec = TfidfVectorizer(
            tokenizer=tokenize, lowercase=False, token_pattern=None, sublinear_tf=True
        )
        try:
            matrix = vec.fit_transform(texts)
        except ValueError:  # every chunk is empty or stop words only
            return None
        return vec, matrix

    def __call__(self, query: str, chunks: Sequence[ChunkLike]) -> list[str]:
        if not chunks:
            return []
        ids, index = self._prepare(chunks)
        if index is None:
            return list(ids)
        vec, matrix = index
        # Rows are L2-normalised, so the dot product is the cosine.
        scores = (matrix @ vec.transform([query]).T).toarray().ravel()
        return self._rank(scores, ids)


RETRIEVERS: dict[str, Callable[[], Retriever]] = {
    "bm25": BM25Retriever,
    "tfidf": TfidfRetriever,
}


def get_retriever(name: str) -> Retriever:
    """A new retriever by name (``bm25`` or ``tfidf``)."""
    if name not in RETRIEVERS:
        raise UnknownParserError(name, RETRIEVERS, kind="retriever")
    return RETRIEVERS[name]()

"""Semantic clusters of a document's units (pdfQA Appendix B, without a paid embedding API).

pdfQA embeds every paragraph with OpenAI's ``text-embedding-3-small`` and
runs KMeans with ``paragraphs / 15`` clusters. :func:`cluster` does the same
with TF-IDF vectors (scikit-learn) by default, optionally reduced with
TruncatedSVD (LSA), or with any embedding callable, and a fixed KMeans
``random_state`` and ``n_init`` so the result is deterministic.

Units can be left out by kind and by length (pdfQA-like filters); left-out
units are listed in :attr:`Clustering.excluded` with the reason, never
dropped silently. scikit-learn is imported only when :func:`cluster` runs.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from docparse.errors import ConfigError
from docparse.model import Document, SourceUnit

__all__ = ["DEFAULT_KINDS", "Clustering", "Embedder", "cluster"]

#: Callable turning texts into an (n_texts, dim) array of vectors.
Embedder = Callable[[list[str]], Any]

#: Unit kinds clustered by default: content a QA source can be made of.
DEFAULT_KINDS: tuple[str, ...] = (
    "abstract",
    "paragraph",
    "list_item",
    "table",
    "caption",
    "footnote",
    "equation",
    "code",
    "quote",
)


@dataclass(frozen=True, slots=True)
class Clustering:
    """Cluster labels of the clustered units of one document.

    ``unit_ids`` and ``labels`` are parallel, in document order. Labels are
    numbered by first appearance in the document (the first unit is in
    cluster 0). ``excluded`` lists ``(unit_id, reason)`` for every unit that
    was not clustered (``kind``, ``too_short``, ``too_long``).

    Example record::

        {"doc_id": "3f2a9c1d0e4b5a6f", "method": "tfidf", "n_clusters": 5,
         "unit_ids": ["3f2a...:00003:1a2b3c4d", ...], "labels": [0, 0, 1, ...],
         "excluded": [["3f2a...:00000:9f8e7d6c", "kind"]]}
    """

    doc_id: str
    method: str
    n_clusters: int
    unit_ids: tuple[str, ...]
    labels: tuple[int, ...]
    excluded: tuple[tuple[str, str], ...] = ()

    def label_of(self, unit_id: str) -> int | None:
        """The cluster of ``unit_id``, or None if it was not clustered."""
        return self.mapping().get(unit_id)

    def mapping(self) -> dict[str, int]:
        """``{unit_id: label}``."""
        return dict(zip(self.unit_ids, self.labels, strict=True))

    def members(self, label: int) -> tuple[str, ...]:
        """Unit ids of cluster ``label``, in document order."""
        return tuple(u for u, lab in zip(self.unit_ids, self.labels, strict=True) if lab == label)

    def sizes(self) -> dict[int, int]:
        """Number of units per cluster label."""
        out: dict[int, int] = {}
        for lab in self.labels:
            out[lab] = out.get(lab, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "method": self.method,
            "n_clusters": self.n_clusters,
            "unit_ids": list(self.unit_ids),
            "labels": list(self.labels),
            "excluded": [list(e) for e in self.excluded],
        }


def _select(
    doc: Document,
    kinds: Collection[str],
    min_words: int | None,
    max_words: int | None,
) -> tuple[list[SourceUnit], list[tuple[str, str]]]:
    kept: list[SourceUnit] = []
    excluded: list[tuple[str, str]] = []
    for u in doc.units:
        if u.kind not in kinds:
            excluded.append((u.id, "kind"))
        elif min_words is not None and u.n_words < min_words:
            excluded.append((u.id, "too_short"))
        elif max_words is not None and u.n_words > max_words:
            excluded.append((u.id, "too_long"))
        else:
            kept.append(u)
    return kept, excluded


def _vectors(
    texts: list[str],
    embed: Embedder | None,
    svd_components: int | None,
    random_state: int,
    path: str,
) -> tuple[Any, str]:
    import numpy as np

    if embed is not None:
        vecs = np.asarray(embed(texts), dtype=float)
        if vecs.ndim != 2 or vecs.shape[0] != len(texts):
            raise ConfigError(
                path,
                f"embed returned shape {vecs.shape}; expected ({len(texts)}, dim)",
            )
        return vecs, "embedding"
    from sklearn.feature_extraction.text import TfidfVectorizer

    try:
        matrix = TfidfVectorizer(sublinear_tf=True).fit_transform(texts)
    except ValueError:
        # Empty vocabulary (only one-character tokens): nothing to tell units apart.
        return np.zeros((len(texts), 1)), "tfidf-empty"
    method = "tfidf"
    if svd_components is not None:
        from sklearn.decomposition import TruncatedSVD
        from sklearn.preprocessing import Normalizer

        n_comp = min(svd_components, matrix.shape[1] - 1, len(texts) - 1)
        if n_comp >= 1:
            reduced = TruncatedSVD(n_components=n_comp, random_state=random_state).fit_transform(
                matrix
            )
            return Normalizer(copy=False).fit_transform(reduced), f"tfidf+svd{n_comp}"
    return matrix, method


def cluster(
    doc: Document,
    *,
    n_clusters: int | None = None,
    embed: Embedder | None = None,
    svd_components: int | None = None,
    min_words: int | None = None,
    max_words: int | None = None,
    kinds: Collection[str] = DEFAULT_KINDS,
    random_state: int = 0,
    n_init: int = 10,
) -> Clustering:
    """KMeans clusters of the document's units.

    Vectors are TF-IDF (sublinear tf) of the units' clean text, reduced to
    ``svd_components`` dimensions with TruncatedSVD and L2-normalised when
    that is set; ``embed`` (``list[str] -> (n, dim) array``) replaces them.
    ``n_clusters`` defaults to ``max(1, n_units // 15)`` (pdfQA's rule) and is
    capped at the number of clustered units. Only units of ``kinds`` with
    ``min_words <= n_words <= max_words`` (bounds optional) are clustered; the
    rest are reported in ``excluded``. The same input and ``random_state``
    give the same labels.
    """
    if n_clusters is not None and n_clusters < 1:
        raise ConfigError(doc.source_path, f"n_clusters must be >= 1, got {n_clusters}")
    units, excluded = _select(doc, kinds, min_words, max_words)
    if not units:
        return Clustering(doc.doc_id, "none", 0, (), (), tuple(excluded))
    k = min(n_clusters if n_clusters is not None else max(1, len(units) // 15), len(units))
    texts = [u.text for u in units]
    vecs, method = _vectors(texts, embed, svd_components, random_state, doc.source_path)
    if k == 1:
        raw: Sequence[int] = [0] * len(units)
    else:
        from sklearn.cluster import KMeans

        raw = KMeans(n_clusters=k, n_init=n_init, random_state=random_state).fit_predict(vecs)
    # Renumber by first appearance so labels do not depend on KMeans' numbering.
    renum: dict[int, int] = {}
    labels = tuple(renum.setdefault(int(lab), len(renum)) for lab in raw)
    return Clustering(
        doc_id=doc.doc_id,
        method=method,
        n_clusters=len(renum),
        unit_ids=tuple(u.id for u in units),
        labels=labels,
        excluded=tuple(excluded),
    )

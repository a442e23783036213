"""Corpus statistics: documents, units by kind, words and tokens per document type.

ASTRA-QA reports corpus tokens per task type and pdfQA file length per file
type; :func:`corpus_stats` gives those figures for any parsed documents, with
one row per document so a table can be rebuilt or filtered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from docparse.model import Document

__all__ = ["corpus_stats", "document_row"]


def document_row(doc: Document) -> dict[str, Any]:
    """One document's figures (furniture excluded from words and tokens, counted as units)."""
    kinds = Counter(u.kind for u in doc.units)
    return {
        "doc_id": doc.doc_id,
        "path": doc.source_path,
        "format": doc.format,
        "backend": doc.backend,
        "pages": doc.n_pages,
        "units": len(doc.units),
        "tables": kinds.get("table", 0),
        "words": doc.n_words,
        "tokens": doc.n_tokens,
        "units_by_kind": dict(sorted(kinds.items())),
        "flags": list(doc.flags),
    }


def corpus_stats(docs: Iterable[Document]) -> dict[str, Any]:
    """Totals, units by kind, and per-format (document type) figures of ``docs``.

    Returns ``{"documents", "units", "words", "tokens", "units_by_kind",
    "by_format": {format: {"documents", "units", "tables", "words", "tokens",
    "words_mean", "tokens_mean"}}, "rows": [document_row, ...]}``.

    >>> from docparse.builder import UnitDraft, build_document
    >>> d = build_document(path="a.txt", format="txt", backend="txt", doc_id="a",
    ...     drafts=[UnitDraft("heading", "Intro"), UnitDraft("paragraph", "Two words")])
    >>> s = corpus_stats([d])
    >>> s["documents"], s["words"], s["units_by_kind"], s["by_format"]["txt"]["words"]
    (1, 3, {'heading': 1, 'paragraph': 1}, 3)
    """
    rows = [document_row(d) for d in docs]
    kinds: Counter[str] = Counter()
    by_format: dict[str, dict[str, Any]] = {}
    for r in rows:
        kinds.update(r["units_by_kind"])
        f = by_format.setdefault(
            r["format"], {"documents": 0, "units": 0, "tables": 0, "words": 0, "tokens": 0}
        )
        f["documents"] += 1
        for key in ("units", "tables", "words", "tokens"):
            f[key] += r[key]
    for f in by_format.values():
        f["words_mean"] = f["words"] / f["documents"]
        f["tokens_mean"] = f["tokens"] / f["documents"]
    return {
        "documents": len(rows),
        "units": sum(r["units"] for r in rows),
        "words": sum(r["words"] for r in rows),
        "tokens": sum(r["tokens"] for r in rows),
        "units_by_kind": dict(sorted(kinds.items())),
        "by_format": dict(sorted(by_format.items())),
        "rows": rows,
    }

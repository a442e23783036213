"""Invariants every parsed document must hold, whatever its format or backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from docparse.builder import bucket_of
from docparse.model import Document
from docparse.text import clean_text, count_words


def check_invariants(doc: Document, *, pdf: Path | None = None) -> None:
    """Ids unique, order and word offsets contiguous, counts, positions and
    buckets consistent, clean non-empty text, links both ways, JSON round trip;
    with ``pdf``, every provenance box lies inside its page."""
    ids = [u.id for u in doc.units]
    assert len(ids) == len(set(ids)), "duplicate unit ids"
    total = doc.n_words
    start = 0
    for i, u in enumerate(doc.units):
        assert u.order == i
        assert u.word_start == start, f"unit {i}: word offsets not contiguous"
        words = 0 if u.kind == "furniture" else count_words(u.text)
        assert u.n_words == words
        assert u.position == pytest.approx(u.word_start / total if total else 0.0)
        assert u.position_bucket == bucket_of(u.position)
        assert u.text == clean_text(u.text), f"unit {i}: text not clean"
        # Only a table without cells (an image-only table) may have no text.
        assert u.text or (u.table is not None and not u.table.cells()), f"unit {i}: empty"
        assert u.modality == ("table" if u.kind == "table" else "text")
        for rid in u.related:
            assert u.id in doc.unit(rid).related, f"unit {i}: one-way link"
        start = u.word_end
    assert start == total
    assert Document.from_json(doc.to_json()) == doc
    if pdf is not None:
        import pymupdf

        with pymupdf.open(pdf) as opened:
            for u in doc.units:
                assert u.provenance, f"PDF unit {u.order} has no page"
                for prov in u.provenance:
                    assert prov.bbox is not None and prov.bbox.origin == "top-left"
                    rect = opened[prov.page - 1].rect
                    assert 0 <= prov.bbox.x0 <= prov.bbox.x1 <= rect.width + 0.01
                    assert 0 <= prov.bbox.y0 <= prov.bbox.y1 <= rect.height + 0.01

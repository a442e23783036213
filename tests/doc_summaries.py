"""Compact, reviewable pictures of parses, as the golden files under fixtures/golden hold them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from docparse.model import Document, Table


def twin_summary(doc: Document, table_detail: Callable[[Table], dict[str, Any]]) -> dict[str, Any]:
    """The JATS and S2ORC goldens: counts, every unit in short, tables, first references.

    ``table_detail`` adds the table fields one format's golden holds besides
    label, caption, header rows and the kinds of the linked units.
    """
    return {
        "title": doc.title,
        "n_words": doc.n_words,
        "n_tokens": doc.n_tokens,
        "kinds": dict(sorted(Counter(u.kind for u in doc.units).items())),
        "units": [
            [u.kind, " > ".join(u.section), u.text[:70], u.n_words, len(u.annotations)]
            for u in doc.units
        ],
        "tables": [
            {
                "label": u.table.label,
                "caption": u.table.caption,
                "n_header_rows": u.table.n_header_rows,
                "related_kinds": sorted(doc.unit(r).kind for r in u.related),
                **table_detail(u.table),
            }
            for u in doc.units
            if u.table is not None
        ],
        "n_references": len(doc.references),
        "references_head": [r.to_dict() for r in doc.references[:3]],
    }


def pdf_summary(doc: Document) -> dict[str, Any]:
    """The PDF backend goldens: pages, kinds, headings, furniture, tables and captions."""
    return {
        "backend": doc.backend,
        "n_pages": doc.n_pages,
        "title": doc.title,
        "kinds": dict(Counter(u.kind for u in doc.units)),
        "n_words": doc.n_words,
        "headings": [u.text for u in doc.units if u.kind == "heading"],
        "furniture": sorted({u.text for u in doc.units if u.kind == "furniture"}),
        "tables": [[len(u.table.rows), u.table.n_cols] for u in doc.units if u.table],
        "captions": [u.text[:40] for u in doc.units if u.kind == "caption"],
        "sections_of_first_paragraphs": [
            list(u.section) for u in doc.units if u.kind == "paragraph"
        ][:8],
    }

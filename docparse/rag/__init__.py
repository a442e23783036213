"""Documents for RAG frameworks: one record per unit, chunk or page, with docparse's metadata.

:func:`records` turns a parsed :class:`~docparse.model.Document` into
``(id, text, metadata)`` records that the framework loaders wrap:
:class:`docparse.rag.llamaindex.DocparseReader` (LlamaIndex ``BaseReader``,
extra ``llamaindex``) and :class:`docparse.rag.langchain.DocparseLoader`
(LangChain ``BaseLoader``, extra ``langchain``). Metadata values are flat
JSON values, as vector stores want them:

``doc_id``, ``source``, ``unit_ids`` (comma-separated), ``page`` (1-based or
``None``), ``pages`` (comma-separated), ``bbox`` (``[x0, y0, x1, y1]`` in
points, top-left origin, or ``None``), ``section`` (``" > "``-joined path),
``kind`` (unit kind; ``chunk`` or ``page`` for those), ``position_bucket``
(quartile 1-4 of the first unit's position).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from docparse.model import Document, SourceUnit

By = Literal["unit", "chunk", "page"]
BY: tuple[By, ...] = ("unit", "chunk", "page")

#: Metadata keys kept out of the text a splitter or embedder sees (ids and boxes
#: only lengthen every chunk).
HIDDEN_KEYS: tuple[str, ...] = ("doc_id", "source", "unit_ids", "bbox", "position_bucket")


@dataclass(frozen=True, slots=True)
class Record:
    """One framework document: an id, its text and flat metadata."""

    id: str
    text: str
    metadata: dict[str, Any]


def _unit_text(u: SourceUnit) -> str:
    if u.table is not None and u.table.rows:
        from docparse.export import table_markdown

        return table_markdown(u.table)
    return u.text


def _metadata(doc: Document, units: list[SourceUnit], kind: str) -> dict[str, Any]:
    first = units[0]
    pages = sorted({p for u in units for p in u.pages})
    bbox = first.bbox
    return {
        "doc_id": doc.doc_id,
        "source": doc.source_path,
        "unit_ids": ",".join(u.id for u in units),
        "page": pages[0] if pages else None,
        "pages": ",".join(map(str, pages)),
        "bbox": [bbox.x0, bbox.y0, bbox.x1, bbox.y1] if bbox is not None else None,
        "section": " > ".join(first.section),
        "kind": kind,
        "position_bucket": first.position_bucket,
    }


def records(
    doc: Document, by: By = "unit", *, include_furniture: bool = False, **chunking: Any
) -> Iterator[Record]:
    """``doc`` as records, one per content unit, chunk or page.

    ``chunking`` options go to :func:`docparse.chunking.chunk` (``strategy``,
    ``chunk_size``, ...) when ``by="chunk"``. Units without a page (twins)
    make one ``page`` record with ``page`` ``None``.
    """
    units = [u for u in doc.units if include_furniture or u.kind != "furniture"]
    if by == "unit":
        for u in units:
            yield Record(u.id, _unit_text(u), _metadata(doc, [u], u.kind))
    elif by == "chunk":
        from docparse.chunking import chunk

        strategy = chunking.pop("strategy", "sentence")
        by_id = {u.id: u for u in doc.units}
        for c in chunk(doc, strategy, include_furniture=include_furniture, **chunking):
            covered = [by_id[i] for i in c.unit_ids if i in by_id]
            if covered:
                yield Record(c.id, c.text, _metadata(doc, covered, "chunk"))
    elif by == "page":
        pages: dict[int | None, list[SourceUnit]] = {}
        for u in units:
            pages.setdefault(u.page, []).append(u)
        for page, group in pages.items():
            text = "\n\n".join(_unit_text(u) for u in group)
            yield Record(f"{doc.doc_id}:page:{page or 0}", text, _metadata(doc, group, "page"))
    else:
        from docparse.errors import ConfigError

        raise ConfigError(doc.source_path, f"by={by!r}; use one of {', '.join(BY)}")

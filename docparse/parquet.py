"""Documents as Parquet rows: one row per unit, one explicit schema.

``docparse ingest --format parquet`` writes one file per document under a
hive-partitioned folder (``parquet/backend=<backend>/``), which pandas,
pyarrow and Hugging Face ``datasets`` read as one table.
"""

from __future__ import annotations

import io
import json
from typing import Any

from docparse.errors import MissingDependencyError
from docparse.model import Document

__all__ = ["parquet_bytes", "parquet_schema", "unit_rows"]


def unit_rows(doc: Document) -> list[dict[str, Any]]:
    """Flat rows (one per unit) for the Parquet output."""
    rows = []
    for u in doc.units:
        b = u.bbox
        rows.append(
            {
                "doc_id": doc.doc_id,
                "source_path": doc.source_path,
                "format": doc.format,
                "unit_id": u.id,
                "kind": u.kind,
                "modality": u.modality,
                "text": u.text,
                "raw": u.raw,
                "section": list(u.section),
                "order": u.order,
                "page": u.page,
                "x0": b.x0 if b else None,
                "y0": b.y0 if b else None,
                "x1": b.x1 if b else None,
                "y1": b.y1 if b else None,
                "word_start": u.word_start,
                "word_end": u.word_end,
                "n_words": u.n_words,
                "n_tokens": u.n_tokens,
                "position": u.position,
                "position_bucket": u.position_bucket,
                "table": json.dumps(u.table.to_dict(), ensure_ascii=False) if u.table else None,
            }
        )
    return rows


def parquet_schema(pa: Any) -> Any:
    """One explicit schema, so documents without tables or pages concatenate."""
    s, i, f = pa.string(), pa.int64(), pa.float64()
    return pa.schema(
        [
            ("doc_id", s),
            ("source_path", s),
            ("format", s),
            ("unit_id", s),
            ("kind", s),
            ("modality", s),
            ("text", s),
            ("raw", s),
            ("section", pa.list_(s)),
            ("order", i),
            ("page", i),
            ("x0", f),
            ("y0", f),
            ("x1", f),
            ("y1", f),
            ("word_start", i),
            ("word_end", i),
            ("n_words", i),
            ("n_tokens", i),
            ("position", f),
            ("position_bucket", i),
            ("table", s),
        ]
    )


def parquet_bytes(doc: Document) -> bytes:
    """The document as a Parquet file (one row per unit, :func:`parquet_schema`)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingDependencyError(
            "Parquet output", "pip install 'docparse[parquet]'", cause=exc
        ) from exc
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(unit_rows(doc), schema=parquet_schema(pa)), buf)
    return buf.getvalue()

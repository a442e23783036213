"""The golden-file picture of a parse: the whole document, one field per line.

Every unit's kind, text, section, pages with boxes rounded to 0.1 pt and table
rows are written, so a wrong character anywhere in a parse shows in a golden
diff. Lists of plain values (a section path, a box, a table row) stay on one
line, so a diff points at the unit and the row that changed.
"""

from __future__ import annotations

import json
from typing import Any

from docparse.model import Document, SourceUnit, Table

#: Box coordinates are rounded so that sub-point float noise between library
#: versions does not churn the golden files, while a moved line still shows.
BOX_DIGITS = 1


def _table(table: Table) -> dict[str, Any]:
    out: dict[str, Any] = {
        "caption": table.caption,
        "label": table.label,
        "n_header_rows": table.n_header_rows,
        "shape": [table.n_rows, table.n_cols],
        "rows": [list(row) for row in table.rows],
    }
    if table.spans:
        out["spans"] = [[s.row, s.col, s.row_span, s.col_span] for s in table.spans]
    if table.footnotes:
        out["footnotes"] = list(table.footnotes)
    return out


def _unit(unit: SourceUnit) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": unit.id,
        "kind": unit.kind,
        "section": list(unit.section),
        "text": unit.text,
        "n_words": unit.n_words,
        "n_tokens": unit.n_tokens,
    }
    if unit.provenance:
        out["pages"] = [
            [p.page]
            + (
                [round(v, BOX_DIGITS) for v in (p.bbox.x0, p.bbox.y0, p.bbox.x1, p.bbox.y1)]
                if p.bbox
                else []
            )
            for p in unit.provenance
        ]
    if unit.table is not None:
        out["table"] = _table(unit.table)
    if unit.annotations:
        out["annotations"] = [[a.kind, a.target, a.text] for a in unit.annotations]
    if unit.related:
        out["related"] = list(unit.related)
    return out


def document_golden(doc: Document) -> dict[str, Any]:
    """The golden record of ``doc``: document fields, every unit, every reference."""
    return {
        "title": doc.title,
        "format": doc.format,
        "backend": doc.backend,
        "n_pages": doc.n_pages,
        "flags": list(doc.flags),
        "n_words": doc.n_words,
        "n_tokens": doc.n_tokens,
        "units": [_unit(u) for u in doc.units],
        "references": [r.to_dict() for r in doc.references],
    }


def _scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


def dumps(value: Any, indent: str = "") -> str:
    """JSON with one field per line and lists of plain values kept on one line."""
    inner = indent + " "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and not all(_scalar(v) for v in value):
        items = [inner + dumps(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)

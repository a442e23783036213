"""pdfQA (tobischimanski/pdfQA): per-document QA JSON with its sources CSV; benchmark tables.

* ``<id>_cfQA_<model>.json``: a list of records whose ``source_text`` items
  are the cited paragraphs, verbatim LaTeX from the ``.tex`` twin (so
  :attr:`Evidence.markup` is ``"latex"``); ``sources`` names them
  (``Source_17``), rows of ``<id>.csv`` (column ``source_identifier``).
  With the CSV, an item missing from ``source_text`` is taken from the
  row's ``content``.
* ``real-pdfQA.jsonl`` / ``syn-pdfQA.jsonl`` (the benchmark tables): one row
  per question, ``source_text`` items are PyMuPDF-parsed text chunks or (for
  financial reports) raw HTML ``<table>`` snippets (markup ``"html"``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from align.normalize import Markup
from align.readers.base import (
    Evidence,
    QARecord,
    checked,
    dedupe,
    read_csv_rows,
    read_json,
    read_jsonl,
)
from docparse.errors import ParseError

__all__ = ["read_pdfqa", "read_pdfqa_sources"]

_HTML = re.compile(r"<\s*(table|tr|td|th|p|div|span)\b", re.IGNORECASE)
_WRAPPED = re.compile(r"^\s*doc\d+\{(.*)\}\s*$", re.DOTALL)


def read_pdfqa_sources(path: str | Path) -> dict[str, dict[str, str]]:
    """The sources CSV: ``{source_identifier: row}`` (row keys as in the CSV header)."""
    out = {}
    for row in read_csv_rows(path, "sources CSV"):
        sid = row.get("source_identifier")
        if sid:
            out[sid] = row
    return out


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        # Some exports hold the list as its Python repr.
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            import ast

            try:
                parsed = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                return [value]
            if isinstance(parsed, list):
                return [str(v) for v in parsed]
        return [value]
    return [str(v) for v in value]


def _kind_of(modality: str | None) -> str:
    return "table" if modality and "table" in modality.lower() else "text"


def _qa_records(
    rows: list[dict[str, Any]], path: Path, sources: dict[str, dict[str, str]] | None
) -> list[QARecord]:
    records = []
    for n, row in enumerate(rows, 1):
        if "question" not in row:
            raise ParseError(path, f"record {n} has no 'question'")
        texts = _as_list(row.get("source_text"))
        ids = _as_list(row.get("sources"))
        modalities = _as_list(row.get("modalities_used"))
        evidence = []
        for i in range(max(len(texts), len(ids))):
            sid = ids[i] if i < len(ids) else None
            text = texts[i] if i < len(texts) else None
            if text is None and sources is not None and sid in sources:
                text = sources[sid].get("content")
            if not text:
                continue
            modality = modalities[i] if i < len(modalities) else None
            kind = "table" if _kind_of(modality) == "table" else "text"
            evidence.append(
                Evidence(text, markup="latex", kind=kind, id=sid)  # type: ignore[arg-type]
            )
        records.append(
            QARecord(
                doc=str(row.get("file_name", path.stem.split("_cfQA")[0])),
                question=str(row["question"]),
                answers=(str(row["answer"]),) if row.get("answer") is not None else (),
                evidence=dedupe(evidence),
                annotator_evidence=(tuple(e.text for e in evidence),),
                source="pdfqa",
                meta=tuple(
                    (k, str(row[k]))
                    for k in ("answer_type", "difficulty", "modality_configured")
                    if row.get(k) is not None
                ),
            )
        )
    return records


def _table_records(rows: list[dict[str, Any]]) -> list[QARecord]:
    records = []
    for row in rows:
        evidence = []
        for chunk in _as_list(row.get("source_text")):
            m = _WRAPPED.match(chunk)
            text = m.group(1) if m else chunk
            markup: Markup | None = "html" if _HTML.search(text) else None
            evidence.append(
                Evidence(text, markup=markup, kind="table" if markup else "text", raw=chunk)
            )
        records.append(
            QARecord(
                doc=str(row.get("file_name", "")),
                question=str(row.get("question", "")),
                answers=(str(row["answer"]),) if row.get("answer") is not None else (),
                evidence=dedupe(evidence),
                annotator_evidence=(tuple(e.text for e in evidence),),
                source="pdfqa-" + str(row.get("dataset", row.get("file_type", ""))),
            )
        )
    return records


#: What :func:`read_pdfqa` expects of a QA JSON list and of a benchmark table (named in errors).
LAYOUT = (
    "a pdfQA JSON list of {question, answer, sources, source_text, file_name}"
    " (with <file_name>.csv beside it for sources without text)"
)
LAYOUT_TABLES = "pdfQA benchmark JSON lines {dataset, file_name, question, answer, source_text}"


def read_pdfqa(path: str | Path, sources_csv: str | Path | None = None) -> list[QARecord]:
    """Read pdfQA QA data: a per-document QA JSON list (with its sources CSV) or a benchmark JSONL.

    When ``sources_csv`` is None and ``<file_name>.csv`` sits beside the QA
    JSON, it is used.
    """
    p = Path(path)
    if p.suffix == ".jsonl":
        return checked(_table_records(read_jsonl(p)), p, LAYOUT_TABLES)
    data = read_json(p)
    if not isinstance(data, list):
        raise ParseError(p, "expected a JSON list of QA records")
    sources = None
    if sources_csv is None and data and isinstance(data[0], dict):
        guess = p.with_name(f"{data[0].get('file_name', '')}.csv")
        if guess.is_file():
            sources_csv = guess
    if sources_csv is not None:
        sources = read_pdfqa_sources(sources_csv)
    return checked(_qa_records(data, p, sources), p, LAYOUT)

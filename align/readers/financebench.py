"""FinanceBench (patronus-ai/financebench) JSONL.

One record per line; ``evidence`` items carry ``evidence_text`` (copied from
the PDF text layer, newlines and all) and ``evidence_page_num``, a
**zero-based** page index: it is stored here as the 1-based page.
"""

from __future__ import annotations

import logging
from pathlib import Path

from align.readers.base import Evidence, QARecord, checked, dedupe, read_jsonl
from docparse.errors import ParseError

__all__ = ["read_financebench"]

log = logging.getLogger(__name__)


#: What :func:`read_financebench` expects (named in its errors).
LAYOUT = (
    "FinanceBench JSON lines {financebench_id, doc_name, question, answer,"
    " evidence: [{evidence_text, evidence_page_num}]}"
)


def read_financebench(path: str | Path) -> list[QARecord]:
    """Read ``financebench_open_source.jsonl``: one :class:`QARecord` per question."""
    records = []
    for n, row in enumerate(read_jsonl(path), 1):
        try:
            doc = str(row["doc_name"])
            question = str(row["question"])
            items = row.get("evidence") or []
        except KeyError as exc:
            raise ParseError(path, f"record {n} lacks key {exc}") from exc
        evidence = []
        for item in items:
            text = item.get("evidence_text")
            if not text:
                continue
            if item.get("doc_name", doc) != doc:
                log.warning("record %s cites another document %s", n, item.get("doc_name"))
            page = item.get("evidence_page_num")
            evidence.append(Evidence(str(text), int(page) + 1 if page is not None else None))
        records.append(
            QARecord(
                doc=doc,
                question=question,
                answers=(str(row["answer"]),) if row.get("answer") is not None else (),
                evidence=dedupe(evidence),
                annotator_evidence=(tuple(e.text for e in evidence),),
                source="financebench",
                qid=str(row.get("financebench_id", "")),
                meta=tuple(
                    (k, str(row[k]))
                    for k in ("company", "question_type", "question_reasoning")
                    if row.get(k) is not None
                ),
            )
        )
    return checked(records, path, LAYOUT)

"""QASPER-format QA as shipped by UDA-Benchmark (and QASPER itself), plus UDA's FinQA and TAT-QA.

UDA bench files are ``{doc_name: [record, ...]}``.

* QASPER (``bench_paper_text_qa.json``, ``bench_paper_tab_qa.json``): each
  annotator gives ``raw_evidence`` paragraphs; table evidence reads
  ``FLOAT SELECTED: Table N: caption``. QASPER's S2ORC placeholders
  (``BIBREF12``, ``TABREF3``, ``INLINEFORM0``, ...) are not text of the PDF,
  so they are removed from :attr:`Evidence.text` (the verbatim string stays in
  :attr:`Evidence.raw` and in ``annotator_evidence``, as Evidence-F1 compares
  strings).
* FinQA (``bench_fin_qa.json``): ``evidence`` maps ``table_N``/``text_N`` to
  gold facts (linearised table rows or sentences); the page is in ``q_uid``
  (``GS/2016/page_79.pdf-3``).
* TAT-QA (``bench_tat_qa.json``): ``facts`` (numbers, spans) as table evidence.

The original QASPER release (``{paper_id: {qas: [...], full_text: ...}}``) is
read too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from align.readers.base import Evidence, QARecord, checked, dedupe, read_json
from docparse.errors import ParseError

__all__ = ["read_qasper", "strip_placeholders"]

_PLACEHOLDER = re.compile(
    r"\s*\b(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d+\b(?:\s*,(?=\s*BIBREF))?"
)
_FLOAT = re.compile(r"^\s*FLOAT SELECTED:", re.IGNORECASE)
_FINQA_PAGE = re.compile(r"page_(\d+)\.pdf", re.IGNORECASE)


def strip_placeholders(text: str) -> str:
    """Remove QASPER/S2ORC placeholders such as ``BIBREF12`` and ``INLINEFORM0``."""
    return re.sub(r"\s+", " ", _PLACEHOLDER.sub("", text)).strip()


def _evidence(text: str) -> Evidence:
    if _FLOAT.match(text):
        return Evidence(text, kind="table" if "table" in text[:40].lower() else "figure")
    clean = strip_placeholders(text)
    return Evidence(clean, raw=text if clean != text else None)


def _qasper_record(doc: str, rec: dict[str, Any], source: str) -> QARecord:
    answers: list[str] = []
    per_annotator: list[tuple[str, ...]] = []
    pooled: list[Evidence] = []
    for ans in rec.get("answers") or []:
        # UDA: {"answer", "type"}; QASPER: {"answer": {"extractive_spans", "free_form_answer", ...}}
        inner = ans.get("answer", ans)
        if isinstance(inner, dict):
            text = inner.get("free_form_answer") or " ".join(inner.get("extractive_spans") or [])
            if not text and inner.get("yes_no") is not None:
                text = "Yes" if inner["yes_no"] else "No"
            if inner.get("evidence") is not None:
                ev = [str(e) for e in inner["evidence"]]
                per_annotator.append(tuple(ev))
                pooled.extend(_evidence(e) for e in ev)
        else:
            text = str(inner)
        if text:
            answers.append(str(text))
    for item in rec.get("evidence") or []:
        ev = [str(e) for e in item.get("raw_evidence") or []]
        per_annotator.append(tuple(ev))
        pooled.extend(_evidence(e) for e in ev)
    return QARecord(
        doc=doc,
        question=str(rec.get("question", "")),
        answers=tuple(answers),
        evidence=dedupe(pooled),
        annotator_evidence=tuple(per_annotator),
        source=source,
        qid=str(rec.get("q_uid", rec.get("question_id", ""))),
    )


def _finqa_record(doc: str, rec: dict[str, Any]) -> QARecord:
    m = _FINQA_PAGE.search(str(rec.get("q_uid", "")))
    page = int(m.group(1)) if m else None
    evidence = [
        Evidence(
            str(text),
            page=page,
            kind="table" if key.startswith("table") else "text",
            id=key,
        )
        for key, text in (rec.get("evidence") or {}).items()
    ]
    ans = rec.get("answers") or {}
    answers = (str(ans.get("str_answer", "")),) if isinstance(ans, dict) else (str(ans),)
    return QARecord(
        doc=doc,
        question=str(rec.get("question", "")),
        answers=answers,
        evidence=dedupe(evidence),
        annotator_evidence=(tuple(e.text for e in evidence),),
        source="finqa",
        qid=str(rec.get("q_uid", "")),
    )


def _tat_record(doc: str, rec: dict[str, Any]) -> QARecord:
    facts = [str(f) for f in rec.get("facts") or [] if str(f).strip()]
    ans = rec.get("answers") or {}
    answer = ans.get("answer", "") if isinstance(ans, dict) else ans
    answers = tuple(str(a) for a in answer) if isinstance(answer, list) else (str(answer),)
    return QARecord(
        doc=doc,
        question=str(rec.get("question", "")),
        answers=answers,
        evidence=dedupe([Evidence(f, kind="table") for f in facts]),
        annotator_evidence=(tuple(facts),),
        source="tatqa",
        qid=str(rec.get("q_uid", "")),
        meta=(("doc_page_uid", str(rec.get("doc_page_uid", ""))),),
    )


def _records(data: Any, path: Path) -> Iterator[QARecord]:
    if not isinstance(data, dict):
        raise ParseError(path, "expected a JSON object {doc_name: [records]}")
    for doc, value in data.items():
        if isinstance(value, dict) and "qas" in value:  # original QASPER release
            for rec in value["qas"]:
                yield _qasper_record(str(doc), rec, "qasper")
            continue
        if not isinstance(value, list):
            raise ParseError(path, f"document {doc!r}: expected a list of records")
        for rec in value:
            if not isinstance(rec, dict):
                raise ParseError(path, f"document {doc!r}: a record is not an object")
            if isinstance(rec.get("evidence"), list):
                yield _qasper_record(str(doc), rec, "qasper")
            elif isinstance(rec.get("evidence"), dict) and "program" in rec:
                yield _finqa_record(str(doc), rec)
            elif "facts" in rec:
                yield _tat_record(str(doc), rec)
            # FeTaQA/NQ records hold no text evidence to locate; skipped.


#: What :func:`read_qasper` expects (named in its errors).
LAYOUT = (
    "a UDA bench file {doc_name: [records]} of QASPER (evidence: [{raw_evidence}]),"
    " FinQA (evidence, program) or TAT-QA (facts) records, or a QASPER release"
    " {paper_id: {qas: [...]}}; FeTaQA and Natural Questions records carry no"
    " text evidence and are not read"
)


def read_qasper(path: str | Path, docs: Iterable[str] | None = None) -> list[QARecord]:
    """Read a UDA bench file (QASPER, FinQA or TAT-QA records) or a QASPER release file.

    ``docs`` keeps only those document names.
    """
    p = Path(path)
    keep = set(docs) if docs is not None else None
    records = checked(list(_records(read_json(p), p)), p, LAYOUT)
    return [r for r in records if keep is None or r.doc in keep]

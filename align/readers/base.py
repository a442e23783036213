"""The common record every QA reader returns.

A :class:`QARecord` is one question about one document with its gold
evidence; :class:`Evidence` is one piece of that evidence as the dataset
gives it (text or markup, optional 1-based page, text or table).
"""

from __future__ import annotations

import csv
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from align.locate import EvidenceKind
from align.normalize import Markup
from docparse.errors import ParseError

__all__ = [
    "EmptyQAError",
    "Evidence",
    "EvidenceKind",
    "QARecord",
    "checked",
    "dedupe",
    "read_csv_rows",
    "read_json",
    "read_jsonl",
]


@dataclass(frozen=True, slots=True)
class Evidence:
    """One piece of gold evidence.

    ``text`` is what :func:`align.locate` searches for (for ``markup``
    ``"latex"``/``"html"`` it is converted first); ``page`` is the 1-based
    PDF page the dataset gives (None when it gives none); ``kind`` says
    whether the dataset marks it as table (or figure) evidence; ``id`` is
    the dataset's own id of the source passage when it has one (pdfQA
    ``Source_17``, FinQA ``table_3``); ``raw`` the verbatim dataset string
    when ``text`` had dataset placeholders removed.

    Example record: ``{"text": "Net revenue was $5.1 billion ...", "page": 60,
    "markup": null, "kind": "text", "id": null, "raw": null}``
    """

    text: str
    page: int | None = None
    markup: Markup | None = None
    kind: EvidenceKind = "text"
    id: str | None = None
    raw: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "page": self.page,
            "markup": self.markup,
            "kind": self.kind,
            "id": self.id,
            "raw": self.raw,
        }


@dataclass(frozen=True, slots=True)
class QARecord:
    """One question on one document with its gold evidence.

    ``doc`` names the document as the dataset does (a file stem such as
    ``3M_2018_10K`` or a file name such as ``CT REIT 2022 ESG Report.pdf``).
    ``evidence`` is the union of all annotators' evidence, deduplicated in
    order; ``annotator_evidence`` keeps each annotator's list (QASPER has
    several) for Evidence-F1. ``source`` names the dataset reader.

    Example record: ``{"doc": "1809.01202", "question": "What baselines ...?",
    "answers": ["state-of-the-art PDTB taggers"], "evidence": [...],
    "annotator_evidence": [["We first use ..."], ["FLOAT SELECTED: Table 5: ..."]],
    "source": "qasper", "qid": "4cbe5a36..."}``
    """

    doc: str
    question: str
    answers: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    annotator_evidence: tuple[tuple[str, ...], ...] = ()
    source: str = ""
    qid: str = ""
    meta: tuple[tuple[str, str], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "question": self.question,
            "answers": list(self.answers),
            "evidence": [e.to_dict() for e in self.evidence],
            "annotator_evidence": [list(a) for a in self.annotator_evidence],
            "source": self.source,
            "qid": self.qid,
            "meta": dict(self.meta),
        }


class EmptyQAError(ParseError):
    """A QA file gave no record that can be evaluated: none at all, none that
    names its document, or none with evidence. The message names the file and
    the layout the reader expected."""


def checked(records: list[QARecord], path: str | Path, layout: str) -> list[QARecord]:
    """``records`` if at least one names its document and carries evidence.

    Raises :class:`EmptyQAError` naming ``path`` and the expected ``layout``
    otherwise, so a file in another layout never reads as an empty success.
    """
    if not records:
        raise EmptyQAError(path, f"no QA records read; expected {layout}")
    if not any(r.doc.strip() for r in records):
        raise EmptyQAError(path, f"no record names its document; expected {layout}")
    if not any(r.evidence for r in records):
        raise EmptyQAError(path, f"no record carries evidence; expected {layout}")
    return records


def read_json(path: str | Path) -> Any:
    """Load a JSON file, raising :class:`~docparse.errors.ParseError` on bad JSON."""
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ParseError(p, f"not valid JSON: {exc}", cause=exc) from exc


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Load a JSON-lines file (blank lines skipped); ParseError names the bad line."""
    p = Path(path)
    out: list[dict[str, Any]] = []
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise ParseError(p, f"not UTF-8: {exc}", cause=exc) from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ParseError(p, f"line {n} is not valid JSON: {exc}", cause=exc) from exc
        if not isinstance(obj, dict):
            raise ParseError(p, f"line {n} is not a JSON object")
        out.append(obj)
    return out


def read_csv_rows(path: str | Path, what: str = "CSV") -> list[dict[str, str]]:
    """Rows of a UTF-8 CSV file as dicts keyed by its header.

    :class:`~docparse.errors.ParseError` says it ``cannot read <what>``
    (``"CSV"``, ``"sources CSV"``) when the file is not UTF-8 or not CSV.
    """
    p = Path(path)
    # Evidence passages can be longer than the csv module's default field limit (128 KiB).
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    try:
        with p.open(encoding="utf-8", newline="") as fh:
            return list(csv.DictReader(fh))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ParseError(p, f"cannot read {what}: {exc}", cause=exc) from exc


def dedupe(items: list[Evidence]) -> tuple[Evidence, ...]:
    """Evidence in first-seen order without repeats (same text, page and kind)."""
    seen: set[tuple[str, int | None, str]] = set()
    out = []
    for e in items:
        key = (e.text, e.page, e.kind)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return tuple(out)

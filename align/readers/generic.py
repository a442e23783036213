"""The documented generic QA format: JSON lines.

One object per line::

    {"doc": "3M_2018_10K", "question": "...", "answers": ["..."],
     "evidence": ["a sentence", {"text": "...", "page": 3, "markup": "latex",
                                 "kind": "table"}],
     "page": 3}

``doc`` (a file stem or name under ``--docs``), ``question`` and ``evidence``
are required. An evidence item is a string or an object with ``text`` and
optional ``page`` (1-based), ``markup`` (``latex``/``html``), ``kind``
(``text``/``table``/``figure``), ``id``. A top-level ``page`` applies to
string items. ``answer`` (a string) is accepted for ``answers``; ``id`` is
kept as the question id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from align.normalize import Markup
from align.readers.base import Evidence, EvidenceKind, QARecord, checked, dedupe, read_jsonl
from docparse.errors import ParseError

__all__ = ["read_generic"]


def _item(value: Any, page: int | None, path: Path, n: int) -> Evidence:
    if isinstance(value, str):
        return Evidence(value, page=page)
    if not isinstance(value, dict) or "text" not in value:
        raise ParseError(path, f"line {n}: evidence items are strings or objects with 'text'")
    markup = value.get("markup")
    if markup not in (None, "latex", "html"):
        raise ParseError(path, f"line {n}: markup must be latex or html, not {markup!r}")
    kind = value.get("kind", "text")
    if kind not in ("text", "table", "figure"):
        raise ParseError(path, f"line {n}: kind must be text, table or figure, not {kind!r}")
    p = value.get("page", page)
    return Evidence(
        str(value["text"]),
        page=int(p) if p is not None else None,
        markup=cast("Markup | None", markup),
        kind=cast(EvidenceKind, kind),
        id=str(value["id"]) if value.get("id") is not None else None,
    )


#: What :func:`read_generic` expects (named in its errors).
LAYOUT = 'generic JSON lines {"doc", "question", "evidence": [text or {"text", "page"}]}'


def read_generic(path: str | Path) -> list[QARecord]:
    """Read the generic JSONL QA format (see the module docstring)."""
    p = Path(path)
    records = []
    for n, row in enumerate(read_jsonl(p), 1):
        missing = [k for k in ("doc", "question", "evidence") if k not in row]
        if missing:
            raise ParseError(p, f"line {n} lacks {', '.join(missing)}")
        ev = row["evidence"]
        if not isinstance(ev, list):
            ev = [ev]
        page = row.get("page")
        evidence = [_item(e, int(page) if page is not None else None, p, n) for e in ev]
        answers = row.get("answers", [row["answer"]] if "answer" in row else [])
        records.append(
            QARecord(
                doc=str(row["doc"]),
                question=str(row["question"]),
                answers=tuple(str(a) for a in answers),
                evidence=dedupe(evidence),
                annotator_evidence=(tuple(e.text for e in evidence),),
                source="generic",
                qid=str(row.get("id", "")),
            )
        )
    return checked(records, p, LAYOUT)

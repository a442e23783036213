"""ClimRetrieve (tobischimanski/ClimRetrieve) expert-annotated relevant sources CSV.

Each row is one relevant passage for one question about one report:
``Document`` (the PDF file name with ``.pdf``), ``Question``, ``Relevant``
(the evidence sentence(s)), ``Page``, ``Source From`` (``text``, ``table`` or
``graph``). Rows are grouped into one :class:`QARecord` per (document,
question).

Page caveat: ``Page`` is the 1-based PDF page for some reports (CT REIT,
CostCo) but a printed page number for others (Rio Tinto: Page 29 is PDF page
31), so treat it as a hint and locate by text.
"""

from __future__ import annotations

from pathlib import Path

from align.readers.base import Evidence, EvidenceKind, QARecord, checked, dedupe, read_csv_rows
from docparse.errors import ParseError

__all__ = ["read_climretrieve"]

_KINDS: dict[str, EvidenceKind] = {"text": "text", "table": "table", "graph": "figure"}


def _page(value: str | None) -> int | None:
    if value is None or not value.strip():
        return None
    try:
        return int(float(value))
    except ValueError:
        return None


#: What :func:`read_climretrieve` expects (named in its errors).
LAYOUT = "ClimRetrieve CSV with columns Document, Question, Relevant (Page, Source From, Answer)"


def read_climretrieve(path: str | Path) -> list[QARecord]:
    """Read ``ClimRetrieve_base.csv``: one record per (document, question)."""
    p = Path(path)
    rows = read_csv_rows(p)
    if rows and not {"Document", "Question", "Relevant"} <= set(rows[0]):
        raise ParseError(p, f"expected columns Document, Question, Relevant; expected {LAYOUT}")
    grouped: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in rows:
        grouped.setdefault((row["Document"], row["Question"]), []).append(row)
    records = []
    for (doc, question), group in grouped.items():
        evidence = [
            Evidence(
                r["Relevant"].strip(),
                page=_page(r.get("Page")),
                kind=_KINDS.get((r.get("Source From") or "text").strip().lower(), "text"),
            )
            for r in group
            if (r.get("Relevant") or "").strip()
        ]
        answers = tuple(dict.fromkeys(r["Answer"].strip() for r in group if r.get("Answer")))
        records.append(
            QARecord(
                doc=doc,
                question=question,
                answers=answers,
                evidence=dedupe(evidence),
                annotator_evidence=(tuple(e.text for e in evidence),),
                source="climretrieve",
            )
        )
    return checked(records, p, LAYOUT)

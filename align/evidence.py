"""Does the gold evidence of a QA dataset survive parsing? (``docparse evidence``)

:func:`evidence_report` parses each document the records point to once,
locates every evidence item in it and returns one :class:`QuestionReport`
per question: each evidence item found (exact, fuzzy or split across units),
partial or missing, with the pages it was found on and whether that is the
page the dataset gives.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from align.locate import PLACEHOLDER, Locator, Match, settle
from align.readers.base import Evidence, QARecord
from docparse.errors import DocparseError
from docparse.formats.catalog import FORMAT_TABLE
from docparse.model import FORMATS, Document

__all__ = [
    "EvidenceResult",
    "QuestionReport",
    "evidence_report",
    "evidence_summary",
    "find_document",
    "parser_for",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EvidenceResult:
    """One evidence item and where it was found.

    ``page_ok`` is None when the dataset gives no page (or nothing was
    found), else whether the dataset's page is the match's main page.
    """

    evidence: Evidence
    match: Match
    page_ok: bool | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "evidence": self.evidence.text[:200],
            "kind": self.evidence.kind,
            "gold_page": self.evidence.page,
            "page_ok": self.page_ok,
            **self.match.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class QuestionReport:
    """All evidence of one question. ``error`` says why the document could not be used."""

    record: QARecord
    doc_path: str | None
    results: tuple[EvidenceResult, ...]
    error: str | None = None

    @property
    def status(self) -> str:
        """``found`` (all evidence found), ``split`` (found, some split),
        ``ambiguous`` (all found or ambiguous, some ambiguous), ``partial``,
        ``missing`` (none found), ``no-document`` or ``no-evidence``."""
        if self.error is not None:
            return "no-document"
        if not self.results:
            return "no-evidence"
        statuses = [r.match.status for r in self.results]
        if all(r.match.found for r in self.results):
            return "split" if "split" in statuses else "found"
        if all(r.match.found or r.match.status == "ambiguous" for r in self.results):
            return "ambiguous"
        if all(s == "missing" for s in statuses):
            return "missing"
        return "partial"

    @property
    def pages(self) -> tuple[int, ...]:
        return tuple(sorted({p for r in self.results for p in r.match.pages}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc": self.record.doc,
            "doc_path": self.doc_path,
            "qid": self.record.qid,
            "question": self.record.question,
            "status": self.status,
            "pages": list(self.pages),
            "error": self.error,
            "evidence": [r.to_dict() for r in self.results],
        }


def find_document(docs_dir: str | Path, name: str, backend: str | None = None) -> Path | None:
    """The file under ``docs_dir`` for the document ``name``.

    ``name`` may be a stem (``3M_2018_10K``) or a file name (``X.pdf``). PDF
    backends (or None) look for ``.pdf``; a twin format name (``tex``,
    ``htm``, ...) for that format's suffixes. Looks at ``docs_dir/name.*``,
    ``docs_dir/name/name.*`` and then anywhere below ``docs_dir``.
    """
    root = Path(docs_dir)
    pdf = FORMAT_TABLE["pdf"].extensions
    spec = FORMAT_TABLE.get(backend or "")
    suffixes = pdf if spec is None else spec.extensions
    stem = name
    for s in (*pdf, *suffixes):
        if stem.lower().endswith(s):
            stem = stem[: -len(s)]
    stem = stem.strip()
    for s in suffixes:
        for cand in (root / f"{stem}{s}", root / stem / f"{stem}{s}"):
            if cand.is_file():
                return cand
    wanted = {f"{stem}{s}".lower() for s in suffixes}
    wanted_loose = {w.replace(" ", "").replace("_", "") for w in wanted}
    for p in sorted(root.rglob("*")):
        low = p.name.lower()
        if p.is_file() and (low in wanted or low.replace(" ", "").replace("_", "") in wanted_loose):
            return p
    return None


def parser_for(
    backend: str | None, config: Mapping[str, Any] | None = None
) -> Callable[[Path], Document]:
    """``path -> Document`` for ``backend``: a PDF backend, or a twin format name (``tex``).

    ``config`` holds the parser's options (``pages``, ``tables``, ...).
    """
    from docparse.api import parse

    if backend in FORMATS and backend != "pdf":
        return lambda p: parse(p, format=backend, config=config)  # type: ignore[arg-type]
    return lambda p: parse(p, backend=backend, config=config)


def evidence_report(
    records: Iterable[QARecord],
    docs_dir: str | Path,
    backend: str | None = "pymupdf",
    *,
    min_coverage: float = 0.9,
    parser: Callable[[Path], Document] | None = None,
    progress: bool = False,
    page_hint: bool = True,
) -> list[QuestionReport]:
    """Locate every record's evidence in the parse of its document.

    ``backend`` is a PDF backend (``pymupdf``, ``pdfplumber``,
    ``unstructured``) or a twin format (``tex``, ``htm``, ...), which also
    decides which file of the document is parsed. ``parser`` replaces
    :func:`docparse.parse` (any ``path -> Document``). Each document is
    parsed and indexed once; ``progress`` shows a tqdm bar over documents.
    The page a dataset gives only breaks ties between equally good matches
    (``page_hint=False`` ignores it).
    """
    records = list(records)
    parse_fn = parser or parser_for(backend)
    by_doc: dict[str, list[int]] = {}
    for i, r in enumerate(records):
        by_doc.setdefault(r.doc, []).append(i)
    out: list[QuestionReport | None] = [None] * len(records)
    docs: Sequence[str] = list(by_doc)
    if progress:
        from tqdm import tqdm

        docs = tqdm(docs, desc="documents", unit="doc")
    for name in docs:
        path = find_document(docs_dir, name, backend)
        error: str | None = None
        locator: Locator | None = None
        if path is None:
            error = f"no file for {name!r} under {docs_dir}"
        else:
            try:
                locator = Locator(parse_fn(path))
            except DocparseError as exc:
                error = f"{type(exc).__name__}: {exc}"
        if error is not None:
            log.warning("%s", error)
        # LaTeX evidence expands the macros of the document's .tex twin, when there is one.
        tex_source = None
        if locator is not None and any(
            e.markup == "latex" for i in by_doc[name] for e in records[i].evidence
        ):
            tex_source = path if backend == "tex" else find_document(docs_dir, name, "tex")
        for i in by_doc[name]:
            rec = records[i]
            if locator is None:
                out[i] = QuestionReport(rec, str(path) if path else None, (), error)
                continue
            matches = [
                locator.locate(
                    # Placeholders the reader removed are wildcards to the locator.
                    ev.raw if ev.raw and PLACEHOLDER.search(ev.raw) else ev.text,
                    markup=ev.markup,
                    min_coverage=min_coverage,
                    kind=ev.kind if ev.kind == "table" else None,
                    page=ev.page if page_hint else None,
                    markup_source=tex_source if ev.markup == "latex" else None,
                )
                for ev in rec.evidence
            ]
            # An ambiguous item whose neighbours (the question's other evidence)
            # were found unambiguously is the occurrence on their pages.
            near = {p for m in matches if m.found for p in m.pages}
            matches = [settle(m, pages=tuple(near)) for m in matches]
            results = [
                EvidenceResult(ev, m, None if ev.page is None or not m.found else m.page == ev.page)
                for ev, m in zip(rec.evidence, matches, strict=True)
            ]
            out[i] = QuestionReport(rec, str(path), tuple(results))
    return [r for r in out if r is not None]


def evidence_summary(reports: Sequence[QuestionReport]) -> dict[str, Any]:
    """Counts over all evidence items, per document and in total."""
    per_doc: dict[str, dict[str, int]] = {}
    for rep in reports:
        row = per_doc.setdefault(
            rep.record.doc,
            dict.fromkeys(
                ("questions", "evidence", "exact", "fuzzy", "split", "ambiguous", "partial",
                 "missing", "with_page", "page_ok", "no_document"),
                0,
            ),
        )  # fmt: skip
        row["questions"] += 1
        if rep.error is not None:
            row["no_document"] += 1
            row["evidence"] += len(rep.record.evidence)
            row["missing"] += len(rep.record.evidence)
            continue
        for r in rep.results:
            row["evidence"] += 1
            row[r.match.status] += 1
            if r.page_ok is not None:
                row["with_page"] += 1
                row["page_ok"] += int(r.page_ok)
    total = {k: sum(d[k] for d in per_doc.values()) for k in next(iter(per_doc.values()), {})}
    found = total.get("exact", 0) + total.get("fuzzy", 0) + total.get("split", 0)
    return {
        "documents": per_doc,
        "total": total,
        "found_rate": found / total["evidence"] if total.get("evidence") else 0.0,
        # Counted apart: occurs several times and nothing said which is meant.
        "ambiguous_rate": total["ambiguous"] / total["evidence"] if total.get("evidence") else 0.0,
        "page_rate": total["page_ok"] / total["with_page"] if total.get("with_page") else None,
    }

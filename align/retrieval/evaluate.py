"""Retrieval fidelity: do the chunks a retriever ranks first hold the gold evidence?

:func:`evaluate` takes QA records with gold evidence (from
:mod:`align.readers`), the chunks of each record's document (docparse chunks,
plain source units, or anything with ``id`` and ``text``) and a retriever.
Gold chunks are found with :func:`align.locate`: the chunks an evidence
string maps to. It reports

* hit@k, recall@k and MRR@k. hit@k and MRR@k look at the first gold chunk;
  recall@k is the share of the record's evidence pieces whose chunks are all
  within the first k (evidence split across two chunks needs both; evidence
  that could not be located in the chunks counts as not retrieved);
* how often evidence is split across chunk boundaries and how many chunks
  it takes to cover it;
* QASPER Evidence-F1 in string mode (the first ``evidence_k`` chunks are
  the predicted evidence; an annotator's evidence string is retrieved when a
  predicted chunk holds it, located with :func:`align.locate`, and a
  predicted chunk is right when it holds one of them; max over annotators;
  chunks are never the annotators' paragraphs, so comparing texts for
  equality, as the official script does on paragraphs, would always give 0)
  and in id mode (the same with chunk ids: each annotator's strings located
  in the chunks, every chunk of a split string needed);
* GaRAGe attribution precision/recall/F1 of the cited passages against the
  gold chunks, where the cited passages are the answer's citations when
  given (``citations``), else the first ``evidence_k`` chunks.
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from align.locate import ChunkLike, Match, locate
from align.readers.base import Evidence, QARecord
from align.retrieval.metrics import (
    FLOAT_SELECTED,
    PRF,
    attribution,
    evidence_f1,
    first_rank,
    hit_at_k,
    mrr_at_k,
)
from align.retrieval.retrievers import Retriever
from docparse.model import Document

__all__ = ["RecordResult", "RetrievalReport", "evaluate", "evaluate_files", "find_document"]

log = logging.getLogger(__name__)

Chunks = Sequence[ChunkLike] | Document


@dataclass(frozen=True, slots=True)
class RecordResult:
    """Scores of one QA record.

    ``evidence_chunks`` holds, per gold evidence piece, the ids of the chunks
    it was located in (empty when not located).
    """

    qid: str
    doc: str
    question: str
    evidence_chunks: tuple[tuple[str, ...], ...]
    ranked: tuple[str, ...]
    first_rank: int | None
    hit: dict[int, float]
    recall: dict[int, float]
    mrr: dict[int, float]
    evidence_f1: float
    evidence_f1_ids: float
    attribution: PRF

    @property
    def gold_ids(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for ids in self.evidence_chunks:
            seen.update(dict.fromkeys(ids))
        return tuple(seen)

    def to_dict(self) -> dict[str, Any]:
        return {
            "qid": self.qid,
            "doc": self.doc,
            "question": self.question,
            "evidence_chunks": [list(e) for e in self.evidence_chunks],
            "top": list(self.ranked[:10]),
            "first_rank": self.first_rank,
            "hit": {str(k): v for k, v in self.hit.items()},
            "recall": {str(k): v for k, v in self.recall.items()},
            "mrr": {str(k): v for k, v in self.mrr.items()},
            "evidence_f1": self.evidence_f1,
            "evidence_f1_ids": self.evidence_f1_ids,
            "attribution": self.attribution.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class RetrievalReport:
    """Aggregate retrieval fidelity over records (see the module docstring)."""

    retriever: str
    ks: tuple[int, ...]
    records: tuple[RecordResult, ...]
    n_records: int
    no_document: int
    n_evidence: int
    n_located: int
    n_split: int
    chunks_needed: tuple[int, ...] = field(default=())

    def _scored(self) -> list[RecordResult]:
        return [r for r in self.records if r.evidence_chunks]

    def _mean(self, values: list[float]) -> float | None:
        return statistics.fmean(values) if values else None

    def summary(self) -> dict[str, Any]:
        """All aggregate figures as a JSON-serialisable dict."""
        scored = self._scored()
        located = [n for n in self.chunks_needed if n > 0]
        att = [r.attribution for r in self.records]
        return {
            "retriever": self.retriever,
            "records": self.n_records,
            "evaluated": len(self.records),
            "no_document": self.no_document,
            "with_evidence": len(scored),
            "evidence": self.n_evidence,
            "located": self.n_located,
            "located_share": self.n_located / self.n_evidence if self.n_evidence else None,
            "split_share": self.n_split / self.n_located if self.n_located else None,
            "chunks_needed_mean": statistics.fmean(located) if located else None,
            "chunks_needed_max": max(located) if located else None,
            "hit": {str(k): self._mean([r.hit[k] for r in scored]) for k in self.ks},
            "recall": {str(k): self._mean([r.recall[k] for r in scored]) for k in self.ks},
            "mrr": {str(k): self._mean([r.mrr[k] for r in scored]) for k in self.ks},
            "evidence_f1": self._mean([r.evidence_f1 for r in self.records]),
            "evidence_f1_ids": self._mean([r.evidence_f1_ids for r in self.records]),
            "attribution": {
                "precision": self._mean([a.precision for a in att]),
                "recall": self._mean([a.recall for a in att]),
                "f1": self._mean([a.f1 for a in att]),
            },
        }

    def to_dict(self) -> dict[str, Any]:
        out = self.summary()
        out["per_record"] = [r.to_dict() for r in self.records]
        return out


def _as_chunks(chunks: Chunks) -> Sequence[ChunkLike]:
    if isinstance(chunks, Document):
        return chunks.content_units()
    return chunks


def _locate(ev: Evidence, chunks: Sequence[ChunkLike], min_coverage: float) -> Match:
    return locate(
        ev.text, chunks, markup=ev.markup, kind=ev.kind, page=ev.page, min_coverage=min_coverage
    )


def evaluate(
    records: Sequence[QARecord],
    chunks: Chunks | Mapping[str, Chunks],
    retriever: Retriever,
    ks: Sequence[int] = (1, 3, 5, 10),
    *,
    evidence_k: int = 1,
    min_coverage: float = 0.9,
    text_evidence_only: bool = False,
    citations: Mapping[str, Sequence[str]] | None = None,
) -> RetrievalReport:
    """Score ``retriever`` on ``records`` over ``chunks``.

    ``chunks`` is one chunk list (or Document) for all records, or a mapping
    from ``QARecord.doc`` to the chunks of that document; records whose
    document is absent from the mapping are counted in ``no_document``.
    ``citations`` maps a record's ``qid`` to the chunk ids its answer cites
    (for attribution); without it the first ``evidence_k`` chunks are the
    citations.
    """
    ks = tuple(sorted(set(ks)))
    per_doc: dict[int, Sequence[ChunkLike]] = {}
    results: list[RecordResult] = []
    no_document = 0
    for rec in records:
        if isinstance(chunks, Mapping):
            raw = chunks.get(rec.doc)
            if raw is None:
                no_document += 1
                continue
        else:
            raw = chunks
        cs = per_doc.setdefault(id(raw), _as_chunks(raw))
        cited = citations.get(rec.qid) if citations is not None else None
        results.append(
            _score_record(
                rec,
                cs,
                retriever,
                ks,
                evidence_k=evidence_k,
                min_coverage=min_coverage,
                text_evidence_only=text_evidence_only,
                cited=cited,
            )
        )
    needed = [len(ids) for r in results for ids in r.evidence_chunks]
    return RetrievalReport(
        retriever=getattr(retriever, "name", type(retriever).__name__),
        ks=ks,
        records=tuple(results),
        n_records=len(records),
        no_document=no_document,
        n_evidence=len(needed),
        n_located=sum(1 for n in needed if n),
        n_split=sum(1 for n in needed if n > 1),
        chunks_needed=tuple(needed),
    )


def _score_record(
    rec: QARecord,
    cs: Sequence[ChunkLike],
    retriever: Retriever,
    ks: tuple[int, ...],
    *,
    evidence_k: int,
    min_coverage: float,
    text_evidence_only: bool,
    cited: Sequence[str] | None,
) -> RecordResult:
    by_text = {e.text: e for e in rec.evidence}
    by_text.update({e.raw: e for e in rec.evidence if e.raw})
    located: dict[str, tuple[str, ...]] = {}
    # Evidence found word for word in several chunks (a repeated figure, or text in
    # the overlap of two chunks): any of them holds it.
    either: set[str] = set()

    def ids_of(text: str) -> tuple[str, ...]:
        ev = by_text.get(text, Evidence(text))
        if ev.text not in located:
            m = _locate(ev, cs, min_coverage)
            located[ev.text] = m.unit_ids if m.found or m.status == "ambiguous" else ()
            if m.status == "ambiguous":
                either.add(ev.text)
        return located[ev.text]

    ev_chunks = tuple(ids_of(e.text) for e in rec.evidence)
    any_of = tuple(e.text in either for e in rec.evidence)
    gold = {c for ids in ev_chunks for c in ids}
    ranked = list(retriever(rec.question, cs))
    predicted = ranked[:evidence_k]
    annotators = [list(a) for a in rec.annotator_evidence] or [
        [e.raw or e.text for e in rec.evidence]
    ]
    ids_refs = [
        list(
            dict.fromkeys(
                c for s in a if not (text_evidence_only and FLOAT_SELECTED in s) for c in ids_of(s)
            )
        )
        for a in annotators
    ]
    return RecordResult(
        qid=rec.qid,
        doc=rec.doc,
        question=rec.question,
        evidence_chunks=ev_chunks,
        ranked=tuple(ranked),
        first_rank=first_rank(ranked, gold),
        hit={k: hit_at_k(ranked, gold, k) for k in ks},
        recall={k: _evidence_recall(ranked, ev_chunks, k, any_of) for k in ks},
        mrr={k: mrr_at_k(ranked, gold, k) for k in ks},
        evidence_f1=max(
            _strings_f1(
                predicted,
                [s for s in a if not (text_evidence_only and FLOAT_SELECTED in s)],
                ids_of,
            )
            for a in annotators
        ),
        evidence_f1_ids=evidence_f1(predicted, ids_refs),
        attribution=attribution(predicted if cited is None else cited, gold),
    )


def _strings_f1(
    predicted: Sequence[str], gold: Sequence[str], ids_of: Callable[[str], tuple[str, ...]]
) -> float:
    """F1 of one annotator's evidence strings against the predicted chunks.

    Recall: share of the strings held (at least in part) by a predicted
    chunk; precision: share of the predicted chunks holding one of them.
    Both empty scores 1.0, as in :func:`align.retrieval.metrics.paragraph_f1`.
    """
    if not gold and not predicted:
        return 1.0
    if not gold or not predicted:
        return 0.0
    chosen = set(predicted)
    held = [set(ids_of(s)) for s in gold]
    recall = sum(1 for h in held if h & chosen) / len(gold)
    precision = sum(1 for c in predicted if any(c in h for h in held)) / len(predicted)
    return 0.0 if recall + precision == 0 else 2 * precision * recall / (precision + recall)


def _evidence_recall(
    ranked: Sequence[str],
    ev_chunks: Sequence[Sequence[str]],
    k: int,
    any_of: Sequence[bool] = (),
) -> float:
    """Share of evidence pieces whose chunks are all in the first ``k`` (unlocated: 0).

    For a piece flagged in ``any_of`` (it occurs whole in each of its chunks) one suffices.
    """
    if not ev_chunks:
        return 1.0
    top = set(ranked[:k])
    flags = list(any_of) + [False] * (len(ev_chunks) - len(any_of))
    return sum(
        1
        for ids, one in zip(ev_chunks, flags, strict=True)
        if ids and (any if one else all)(c in top for c in ids)
    ) / len(ev_chunks)


def find_document(name: str, docs_dir: str | Path, prefer: str = ".pdf") -> Path | None:
    """The file in ``docs_dir`` (searched recursively) that a QA record's ``doc`` names.

    A file matches when its name or stem equals ``name`` (case-insensitive);
    among several matches the one with suffix ``prefer`` wins, then the
    shortest path.
    """
    wanted = name.strip().lower()
    hits = [
        p
        for p in Path(docs_dir).rglob("*")
        if p.is_file() and wanted in (p.name.lower(), p.stem.lower())
    ]
    if not hits:
        return None
    return min(hits, key=lambda p: (p.suffix.lower() != prefer, len(str(p)), str(p)))


def evaluate_files(
    qa_file: str | Path,
    docs_dir: str | Path,
    *,
    chunker: str = "sentence",
    retriever: str | Retriever = "bm25",
    backend: str | None = None,
    qa_format: str | None = None,
    prefer: str = ".pdf",
    ks: Sequence[int] = (1, 3, 5, 10),
    evidence_k: int = 1,
    config: Mapping[str, Any] | None = None,
) -> RetrievalReport:
    """Read QA records, parse and chunk each document they name, and :func:`evaluate`.

    Documents are looked up in ``docs_dir`` with :func:`find_document`,
    parsed with :func:`docparse.parse` (``backend`` and the parser options
    ``config`` for PDFs) and cut with :func:`docparse.chunking.chunk`
    (``chunker``: ``sentence``, ``unit`` or ``section``). A twin format as
    ``backend`` (``tex``, ``htm``, ...) reads each document's file of that
    format instead. Records whose document is not found count as
    ``no_document``; a document that fails to parse raises its typed error.
    """
    from align.evidence import find_document as find_twin
    from align.evidence import parser_for
    from align.readers import read_qa
    from align.retrieval.retrievers import get_retriever
    from docparse.chunking import chunk
    from docparse.model import FORMATS

    records = read_qa(qa_file, qa_format)
    twin = backend is not None and backend in FORMATS and backend != "pdf"
    chunks: dict[str, Sequence[ChunkLike]] = {}
    for doc_name in dict.fromkeys(r.doc for r in records):
        if twin:
            path = find_twin(docs_dir, doc_name, backend)
        else:
            path = find_document(doc_name, docs_dir, prefer)
        if path is None:
            log.warning("no document for %r in %s", doc_name, docs_dir)
            continue
        if twin or path.suffix.lower() == ".pdf":
            doc = parser_for(backend, config)(path)
        else:
            doc = parser_for(None)(path)
        chunks[doc_name] = chunk(doc, chunker)
    r = get_retriever(retriever) if isinstance(retriever, str) else retriever
    return evaluate(records, chunks, r, ks, evidence_k=evidence_k)

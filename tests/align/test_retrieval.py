"""Retrieval fidelity: ranking metrics, Evidence-F1 semantics, attribution, evaluate()."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from align.locate import ChunkLike
from align.readers import Evidence, QARecord
from align.retrieval import (
    BM25Retriever,
    Retriever,
    TfidfRetriever,
    attribution,
    evaluate,
    evidence_f1,
    get_retriever,
    hit_at_k,
    mrr_at_k,
    paragraph_f1,
    recall_at_k,
)
from align.retrieval.retrievers import _Cached
from docparse.builder import UnitDraft, build_document
from docparse.errors import UnknownParserError


@dataclass(frozen=True)
class C:
    id: str
    text: str


# Real sentences from the Quantum journal template (TeX Live, LPPL).
CHUNKS = [
    C("c0", "Feel free to place figures at the top or bottom of the page."),
    C("c1", "Quantum is a member of Crossref, so references to works with a DOI must be "),
    C("c2", "hyperlinked according to the DOI. Those links must start with https://doi.org/."),
    C("c3", "Due to issues with biber we recommend to use the bibtex backend of biblatex."),
    C("c4", "Please do not group multiple citations into one bibitem."),
]


class Fixed:
    """A retriever with a fixed ranking, to test metrics with known ranks."""

    name = "fixed"

    def __init__(self, order: list[str]) -> None:
        self.order = order

    def __call__(self, query: str, chunks: Sequence[ChunkLike]) -> list[str]:
        return list(self.order)


def test_rank_metrics_known_cases() -> None:
    ranked = ["a", "b", "c", "d"]
    assert hit_at_k(ranked, {"c"}, 1) == 0.0
    assert hit_at_k(ranked, {"c"}, 3) == 1.0
    assert mrr_at_k(ranked, {"c"}, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(ranked, {"c"}, 2) == 0.0
    assert recall_at_k(ranked, {"a", "d"}, 3) == 0.5


def test_paragraph_f1_official_semantics() -> None:
    assert paragraph_f1([], []) == 1.0
    assert paragraph_f1(["p1"], []) == 0.0
    assert paragraph_f1([], ["p1"]) == 0.0
    assert paragraph_f1(["p1", "p2"], ["p1"]) == pytest.approx(2 * 0.5 * 1 / 1.5)
    # Strings are compared exactly, as in qasper_evaluator.py.
    assert paragraph_f1(["P1"], ["p1"]) == 0.0


def test_evidence_f1_is_max_over_annotators() -> None:
    refs = [["p1", "p2"], ["p3"], []]
    assert evidence_f1(["p3"], refs) == 1.0
    assert evidence_f1(["p1"], refs) == pytest.approx(2 / 3)
    # An annotator who found the question unanswerable makes empty predictions score 1.
    assert evidence_f1([], refs) == 1.0
    assert evidence_f1([], [["p1"]]) == 0.0
    floats = [["FLOAT SELECTED: Table 2: Results", "p1"]]
    assert evidence_f1(["p1"], floats, text_evidence_only=True) == 1.0
    assert evidence_f1(["p1"], floats) == pytest.approx(2 / 3)


def test_attribution_prf() -> None:
    a = attribution(["c1", "c2", "c9"], ["c1", "c2"])
    assert (a.precision, a.recall) == (pytest.approx(2 / 3), 1.0)
    assert a.f1 == pytest.approx(0.8)
    assert attribution([], []).f1 == 1.0
    assert attribution(["c1"], []).f1 == 0.0
    assert attribution([], ["c1"]).recall == 0.0


@given(st.lists(st.sampled_from("abcdef"), unique=True), st.sets(st.sampled_from("abcdef")))
def test_rank_metrics_are_monotone_in_k(ranked: list[str], gold: set[str]) -> None:
    for k in range(1, 6):
        assert hit_at_k(ranked, gold, k) <= hit_at_k(ranked, gold, k + 1)
        assert mrr_at_k(ranked, gold, k) <= mrr_at_k(ranked, gold, k + 1)
        assert recall_at_k(ranked, gold, k) <= recall_at_k(ranked, gold, k + 1)


def test_evaluate_with_known_ranks() -> None:
    rec = QARecord(
        doc="quantum",
        question="Which backend of biblatex is recommended?",
        evidence=(Evidence("we recommend to use the bibtex backend of biblatex"),),
        qid="q1",
    )
    split = QARecord(
        doc="quantum",
        question="How must DOI references be linked?",
        evidence=(
            Evidence("references to works with a DOI must be hyperlinked according to the DOI"),
        ),
        qid="q2",
    )
    report = evaluate([rec, split], CHUNKS, Fixed(["c0", "c3", "c1", "c4", "c2"]), ks=(1, 3, 5))
    by_q = {r.qid: r for r in report.records}
    assert by_q["q1"].evidence_chunks == (("c3",),)
    assert by_q["q1"].first_rank == 2
    assert by_q["q1"].hit == {1: 0.0, 3: 1.0, 5: 1.0}
    assert by_q["q1"].mrr[3] == 0.5
    # The DOI sentence runs over the c1/c2 boundary: both chunks are needed.
    assert set(by_q["q2"].evidence_chunks[0]) == {"c1", "c2"}
    assert by_q["q2"].recall == {1: 0.0, 3: 0.0, 5: 1.0}
    s = report.summary()
    assert s["split_share"] == 0.5
    assert s["chunks_needed_mean"] == 1.5
    assert s["hit"]["1"] == 0.0 and s["hit"]["3"] == 1.0
    assert s["mrr"]["5"] == pytest.approx((1 / 2 + 1 / 3) / 2)
    # Top-1 (c0) is never evidence: attribution and id-mode Evidence-F1 are 0.
    assert s["attribution"]["f1"] == 0.0 and s["evidence_f1_ids"] == 0.0


def test_evaluate_id_mode_and_string_mode_evidence_f1() -> None:
    text = CHUNKS[3].text
    rec = QARecord(
        doc="d",
        question="biber",
        evidence=(Evidence(text),),
        annotator_evidence=((text,), ("something not in the document at all, anywhere",)),
        qid="q",
    )
    report = evaluate([rec], CHUNKS, Fixed(["c3", "c0"]))
    r = report.records[0]
    assert r.evidence_f1 == 1.0  # the chunk text equals the gold string exactly
    assert r.evidence_f1_ids == 1.0
    cited = evaluate([rec], CHUNKS, Fixed(["c3"]), citations={"q": ["c3", "c4"]})
    assert cited.records[0].attribution.precision == 0.5


def test_evaluate_per_document_mapping_and_units() -> None:
    doc = build_document(
        path="q.tex",
        format="tex",
        backend="tex",
        doc_id="q",
        drafts=[UnitDraft("paragraph", c.text) for c in CHUNKS],
    )
    rec = QARecord(doc="q", question="bibtex backend biblatex", evidence=(Evidence("biber"),))
    other = QARecord(doc="missing", question="x", evidence=(Evidence("y"),))
    report = evaluate([rec, other], {"q": doc}, BM25Retriever())
    assert report.no_document == 1
    assert report.records[0].first_rank == 1
    assert report.records[0].evidence_chunks[0] == (doc.units[3].id,)


@pytest.mark.parametrize("name", ["bm25", "tfidf"])
def test_builtin_retrievers_rank_the_relevant_chunk_first(name: str) -> None:
    r = get_retriever(name)
    assert r("bibtex backend of biblatex", CHUNKS)[0] == "c3"
    assert r("group citations bibitem", CHUNKS)[0] == "c4"
    assert sorted(r("nothing matches zzz", CHUNKS)) == sorted(c.id for c in CHUNKS)
    assert r("anything", []) == []


def test_retrievers_reindex_when_the_chunk_list_changes() -> None:
    for r in (BM25Retriever(), TfidfRetriever()):
        assert r("biblatex", CHUNKS)[0] == "c3"
        other = [C("x", "nothing here"), C("y", "biblatex backend")]
        assert r("biblatex", other)[0] == "y"


def test_cached_retrievers_must_build_and_rank() -> None:
    class IndexOnly(_Cached):
        def _build(self, texts: list[str]) -> list[str]:
            return texts

    with pytest.raises(TypeError, match="__call__"):
        IndexOnly()  # type: ignore[abstract]
    for r in (BM25Retriever(), TfidfRetriever()):
        assert isinstance(r, Retriever)


def test_unknown_retriever() -> None:
    with pytest.raises(UnknownParserError):
        get_retriever("dense")

"""Evidence-F1 in string mode scores evidence strings held by the predicted chunks.

Chunks are never the annotators' paragraphs, so the string column must not
compare texts for equality (it was always 0.000 on real chunked documents).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from align.locate import ChunkLike
from align.readers import Evidence, QARecord
from align.retrieval import evaluate


@dataclass(frozen=True)
class C:
    id: str
    text: str


# Sentences from the Quantum journal template (TeX Live, LPPL), two to a chunk.
CHUNKS = [
    C(
        "c0",
        "Feel free to place figures at the top or bottom of the page. Quantum is a member of "
        "Crossref, so references to works with a DOI must be hyperlinked according to the DOI.",
    ),
    C(
        "c1",
        "Due to issues with biber we recommend to use the bibtex backend of biblatex. Please do "
        "not group multiple citations into one bibitem.",
    ),
]


def ranked(*order: str) -> Callable[[str, Sequence[ChunkLike]], list[str]]:
    """A retriever that ranks the chunks in ``order`` whatever the query."""
    return lambda query, chunks: list(order)


def _record(*gold: str) -> QARecord:
    return QARecord(
        "d", "which backend?", evidence=tuple(Evidence(g) for g in gold), annotator_evidence=(gold,)
    )


def test_string_mode_counts_a_gold_sentence_inside_the_predicted_chunk() -> None:
    rec = _record("Due to issues with biber we recommend to use the bibtex backend of biblatex.")
    assert evaluate([rec], CHUNKS, ranked("c1", "c0")).records[0].evidence_f1 == 1.0
    assert evaluate([rec], CHUNKS, ranked("c0", "c1")).records[0].evidence_f1 == 0.0


def test_string_mode_precision_and_recall() -> None:
    rec = _record(
        "Due to issues with biber we recommend to use the bibtex backend of biblatex.",
        "Feel free to place figures at the top or bottom of the page.",
    )
    # Two predicted chunks, both holding a gold string: P = R = 1.
    assert evaluate([rec], CHUNKS, ranked("c1", "c0"), evidence_k=2).records[0].evidence_f1 == 1.0
    # One predicted chunk holds one of the two strings: P = 1, R = 0.5.
    one = evaluate([rec], CHUNKS, ranked("c1", "c0")).records[0].evidence_f1
    assert abs(one - 2 / 3) < 1e-9
    report = evaluate([rec], CHUNKS, ranked("c1", "c0"))
    assert report.summary()["evidence_f1"] > 0


def test_evidence_in_two_overlapping_chunks_is_held_by_either() -> None:
    sentence = "Due to issues with biber we recommend to use the bibtex backend of biblatex."
    overlapping = [
        C("a", "Feel free to place figures at the top of the page. " + sentence),
        C("b", sentence + " Please do not group multiple citations into one bibitem."),
    ]
    rec = _record(sentence)
    for first in ("a", "b"):
        r = evaluate([rec], overlapping, ranked(first)).records[0]
        assert set(r.evidence_chunks[0]) == {"a", "b"}
        assert r.hit[1] == 1.0 and r.recall[1] == 1.0

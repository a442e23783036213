"""source_set: order invariance, spread from offsets, majority quartile, pdfQA columns."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import docparse
from docparse.builder import UnitDraft, bucket_of, build_document
from docparse.errors import DocparseError
from docparse.features import UnknownUnitError, majority_bucket, source_set
from docparse.model import Document, Table

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


def make_doc(spec: list[tuple[str, int]]) -> Document:
    drafts = []
    for i, (kind, n) in enumerate(spec):
        text = " ".join(WORDS[(i + j) % len(WORDS)] for j in range(n))
        if kind == "table":
            drafts.append(UnitDraft("table", text, table=Table(rows=((text,),))))
        else:
            drafts.append(UnitDraft(kind, text))  # type: ignore[arg-type]
    return build_document(path="mem.txt", format="txt", backend="txt", drafts=drafts, doc_id="d")


unit_spec = st.tuples(
    st.sampled_from(["paragraph", "paragraph", "table", "heading", "furniture"]),
    st.integers(min_value=1, max_value=40),
)


@st.composite
def doc_and_ids(draw: st.DrawFn) -> tuple[Document, list[str]]:
    doc = make_doc(draw(st.lists(unit_spec, min_size=1, max_size=30)))
    ids = [u.id for u in doc.units]
    chosen = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=12))
    return doc, chosen


@settings(max_examples=200, deadline=None)
@given(doc_and_ids(), st.randoms(use_true_random=False))
def test_invariant_to_id_order_and_duplicates(data: tuple[Document, list[str]], rnd) -> None:  # type: ignore[no-untyped-def]
    doc, ids = data
    shuffled = list(ids) + list(ids[: len(ids) // 2])
    rnd.shuffle(shuffled)
    for columns in ("docparse", "pdfqa"):
        assert source_set(doc, ids, columns=columns) == source_set(doc, shuffled, columns=columns)


@settings(max_examples=200, deadline=None)
@given(doc_and_ids())
def test_spread_is_the_words_between_first_and_last(data: tuple[Document, list[str]]) -> None:
    doc, ids = data
    units = sorted({doc.unit(i) for i in ids}, key=lambda u: u.order)
    first, last = units[0], units[-1]
    between = [u for u in doc.units if first.order < u.order < last.order]
    f = source_set(doc, ids)
    assert f["num_sources"] == len(units)
    assert f["spread_words"] == sum(u.n_words for u in between)
    assert f["spread_words"] == max(0, last.word_start - first.word_end)
    assert f["spread_tokens"] == sum(u.n_tokens for u in between if u.kind != "furniture")
    if len(units) == 1:
        assert f["spread_words"] == 0 and f["spread_tokens"] == 0
    p = source_set(doc, ids, columns="pdfqa")
    own = first.n_words + (last.n_words if last is not first else 0)
    assert p["source_spread"] == f["spread_words"] + own
    assert p["file_length"] == f["file_length_words"] == doc.n_words


@settings(max_examples=200, deadline=None)
@given(doc_and_ids())
def test_bucket_agrees_with_positions(data: tuple[Document, list[str]]) -> None:
    doc, ids = data
    units = sorted({doc.unit(i) for i in ids}, key=lambda u: u.order)
    for u in units:
        assert u.position_bucket == bucket_of(u.word_start / doc.n_words if doc.n_words else 0.0)
    counts = Counter(u.position_bucket for u in units)
    f = source_set(doc, ids)
    assert counts[f["position_bucket"]] == max(counts.values())
    if len(counts) == 1:
        assert f["position_bucket"] == units[0].position_bucket
    assert source_set(doc, ids, columns="pdfqa")["sources_position"] == 25 * f["position_bucket"]


@settings(max_examples=100, deadline=None)
@given(doc_and_ids())
def test_modality(data: tuple[Document, list[str]]) -> None:
    doc, ids = data
    mods = {doc.unit(i).modality for i in ids}
    f = source_set(doc, ids)
    assert f["modality"] == (mods.pop() if len(mods) == 1 else "mixed")
    p = source_set(doc, ids, columns="pdfqa")
    assert p["modalities"] == {"mixed": "multimodal"}.get(f["modality"], f["modality"])
    assert sorted(p["modalities_used"]) == sorted(doc.unit(i).modality for i in set(ids))


def test_tie_goes_to_the_quartile_nearest_the_median_source() -> None:
    doc = make_doc([("paragraph", 10)] * 8)  # two units per quartile
    ids = [u.id for u in doc.units]
    assert [u.position_bucket for u in doc.units] == [1, 1, 2, 2, 3, 3, 4, 4]
    # one source in each of quartiles 1, 2, 4: median source is in quartile 2
    assert source_set(doc, [ids[0], ids[2], ids[6]])["position_bucket"] == 2
    # quartiles 1 and 4 tied, median (lower) source in quartile 1
    assert source_set(doc, [ids[0], ids[1], ids[6], ids[7]])["position_bucket"] == 1
    # sources in 1, 1, 3, 4, 4: tie 1/4, median in 3 -> nearest tied is 4
    units = [doc.units[i] for i in (0, 1, 4, 6, 7)]
    assert majority_bucket(units) == 4


def test_adjacent_and_single_sources_have_zero_spread() -> None:
    doc = make_doc([("paragraph", 5), ("paragraph", 7), ("paragraph", 9)])
    ids = [u.id for u in doc.units]
    assert source_set(doc, [ids[1]])["spread_words"] == 0
    assert source_set(doc, [ids[1], ids[0]])["spread_words"] == 0
    assert source_set(doc, [ids[2], ids[0]])["spread_words"] == 7
    assert source_set(doc, [ids[1]], columns="pdfqa")["source_spread"] == 7


def test_unknown_ids_raise_a_typed_key_error() -> None:
    doc = make_doc([("paragraph", 5)])
    with pytest.raises(UnknownUnitError) as info:
        source_set(doc, [doc.units[0].id, "nope"])
    assert isinstance(info.value, KeyError) and isinstance(info.value, DocparseError)
    assert info.value.missing == ("nope",)
    assert "nope" in str(info.value)
    with pytest.raises(ValueError):
        source_set(doc, [])
    with pytest.raises(ValueError):
        source_set(doc, [doc.units[0].id], columns="other")  # type: ignore[arg-type]


def test_real_document_file_type_and_lengths(fixtures_dir: Path) -> None:
    tex = fixtures_dir / "research" / "arxiv-2510.22211v1" / "2510.22211v1.tex"
    doc = docparse.parse(tex)
    paras = [u.id for u in doc.units if u.kind == "paragraph"]
    f = docparse.features.source_set(doc, paras[:3])
    assert f["file_type"] == "tex" and f["file_length_words"] == doc.n_words
    p = docparse.features.source_set(doc, paras[:3], columns="pdfqa")
    assert p["file_type"] == "research articles"
    assert set(p) == {
        "num_sources",
        "source_spread",
        "sources_position",
        "modalities",
        "modalities_used",
        "file_length",
        "file_type",
    }


@pytest.mark.corpus
def test_modality_agrees_with_pdfqa_records(corpus_dir: Path) -> None:
    import json

    from align.locate import locate

    qa = corpus_dir / "qa_evidence" / "pdfqa-syn-2510.22211v1"
    records = json.loads(
        (qa / "2510.22211v1_cfQA_gpt-4o-mini-2024-07-18.json").read_text(encoding="utf-8")
    )
    doc = docparse.parse(corpus_dir / "research" / "arxiv-2510.22211v1" / "2510.22211v1.tex")
    agree = 0
    for rec in records:
        ids = [u for text in rec["source_text"] for u in locate(text, doc, markup="latex").unit_ids]
        used = set(rec["modalities_used"])
        theirs = used.pop() if len(used) == 1 else "multimodal"
        if ids and source_set(doc, ids, columns="pdfqa")["modalities"] == theirs:
            agree += 1
    assert agree / len(records) >= 0.9

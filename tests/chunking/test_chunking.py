"""Chunkers: spans map back to unit text, tables stay whole with captions, budgets hold."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import docparse
from docparse.builder import UnitDraft, build_document
from docparse.chunking import Chunk, SentenceSplitter, chunk, split_sentences
from docparse.errors import ConfigError
from docparse.model import Document, Table
from docparse.text import count_tokens


def _doc_from_text(path: Path) -> Document:
    paras = [p for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return build_document(
        path=path,
        format="txt",
        backend="txt",
        drafts=[UnitDraft("paragraph", p) for p in paras],
        doc_id="t",
    )


@pytest.fixture(scope="module")
def text_doc(fixtures_dir: Path) -> Document:
    return _doc_from_text(fixtures_dir / "texts" / "debmake-doc-en" / "debmake-doc-excerpt.en.txt")


@pytest.fixture(scope="module")
def pmc_doc(fixtures_dir: Path) -> Document:
    path = fixtures_dir / "pmc" / "PMC3460867" / "pone.0046493.nxml"
    return docparse.parse(path)


def _check_spans(doc: Document, chunks: list[Chunk]) -> None:
    units = {u.id: u for u in doc.units}
    for i, c in enumerate(chunks):
        assert c.order == i
        assert c.n_tokens == count_tokens(c.text)
        assert c.unit_ids == tuple(s[0] for s in c.spans)
        orders = [units[u].order for u in c.unit_ids]
        assert orders == sorted(orders)
        for uid, s, e in c.spans:
            piece = units[uid].text[s:e]
            assert piece and piece in c.text
        assert c.pages == tuple(sorted({p for u in c.unit_ids for p in units[u].pages}))
        assert Chunk.from_dict(c.to_dict()) == c


def test_sentence_strategy_matches_splitter_on_joined_text(text_doc: Document) -> None:
    chunks = chunk(text_doc, "sentence", chunk_size=200, chunk_overlap=0)
    joined = "\n\n".join(u.text for u in text_doc.content_units())
    assert [c.text for c in chunks] == SentenceSplitter(200, 0).split_text(joined)
    _check_spans(text_doc, chunks)
    # every unit is covered, spans of one unit tile its text without gaps
    covered: dict[str, list[tuple[int, int]]] = {}
    for c in chunks:
        for uid, s, e in c.spans:
            covered.setdefault(uid, []).append((s, e))
    for u in text_doc.content_units():
        spans = sorted(covered[u.id])
        assert spans[0][0] == 0 and spans[-1][1] == len(u.text)
        for (_, e1), (s2, _) in itertools.pairwise(spans):
            assert s2 <= e1 + 1  # at most a space stripped between sentence chunks


def test_sentence_strategy_with_overlap(text_doc: Document) -> None:
    chunks = chunk(text_doc, "sentence", chunk_size=150, chunk_overlap=40)
    _check_spans(text_doc, chunks)
    assert all(c.n_tokens <= 150 + 5 for c in chunks)


def test_unit_strategy_keeps_tables_with_captions(pmc_doc: Document) -> None:
    chunks = chunk(pmc_doc, "unit", max_tokens=120)
    _check_spans(pmc_doc, chunks)
    tables = [u for u in pmc_doc.units if u.kind == "table"]
    assert tables
    for t in tables:
        holding = [c for c in chunks if t.id in c.unit_ids]
        assert len(holding) == 1  # whole, never split
        assert holding[0].spans[[s[0] for s in holding[0].spans].index(t.id)][1:] == (
            0,
            len(t.text),
        )
        for r in t.related:
            if pmc_doc.unit(r).kind == "caption":
                assert r in holding[0].unit_ids
    captions_in_tables = {r for t in tables for r in t.related}
    seen = [uid for c in chunks for uid in c.unit_ids]
    assert not [u for u in seen if u in captions_in_tables and seen.count(u) > 1]
    # long non-table units are split at sentences within the budget
    for c in chunks:
        if len(c.unit_ids) == 1 and pmc_doc.unit(c.unit_ids[0]).kind != "table":
            assert c.n_tokens <= 120


def test_section_strategy_respects_sections_and_budget(pmc_doc: Document) -> None:
    chunks = chunk(pmc_doc, "section", max_tokens=300)
    _check_spans(pmc_doc, chunks)
    for c in chunks:
        sections = {pmc_doc.unit(u).section for u in c.unit_ids}
        assert len(sections) == 1
        if len(c.unit_ids) > 1:
            assert sum(pmc_doc.unit(u).n_tokens for u in c.unit_ids) <= 300
    # order of units is preserved and nothing is lost
    ids = list(dict.fromkeys(u for c in chunks for u in c.unit_ids))
    assert ids == [u.id for u in pmc_doc.content_units()]


def test_unknown_strategy_and_option(text_doc: Document) -> None:
    with pytest.raises(ConfigError):
        chunk(text_doc, "pages")
    with pytest.raises(ConfigError):
        chunk(text_doc, "unit", chunk_size=10)


def test_table_without_caption_and_pages() -> None:
    from docparse.model import Provenance

    doc = build_document(
        path="m",
        format="pdf",
        backend="pymupdf",
        doc_id="m",
        drafts=[
            UnitDraft("paragraph", "Before the table.", provenance=(Provenance(1),)),
            UnitDraft(
                "table",
                "",
                table=Table(rows=(("a", "b"), ("1", "2"))),
                provenance=(Provenance(2),),
                related=[2],
            ),
            UnitDraft("caption", "Table 1: numbers.", provenance=(Provenance(2),), related=[1]),
            UnitDraft("furniture", "Page 2", provenance=(Provenance(2),)),
        ],
    )
    chunks = chunk(doc, "unit")
    assert [c.text for c in chunks] == ["Before the table.", "a b 1 2\n\nTable 1: numbers."]
    assert chunks[1].pages == (2,)
    assert all("Page 2" not in c.text for c in chunk(doc, "sentence"))
    assert any("Page 2" in c.text for c in chunk(doc, "sentence", include_furniture=True))


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab .?!\n\"')(J3")), max_size=400),
    st.integers(min_value=3, max_value=60),
)
def test_split_spans_agree_with_split_text(text: str, size: int) -> None:
    sp = SentenceSplitter(size, min(size, 5))
    try:
        chunks = sp.split_text(text)
    except ValueError:
        return
    assert [text[s:e] for s, e in sp.split_spans(text)] == [c for c in chunks if c]


def test_split_sentences_keeps_text_after_first_start() -> None:
    text = "First one. Second one? (Third.) Fourth"
    parts = split_sentences(text)
    assert "".join(parts) == text
    assert parts == ["First one. ", "Second one? ", "(Third.) ", "Fourth"]


_SPECIALS = ["é", "ü", "\u00a0", "\u2028", "\x85", "一", "²", "😀", "ß", "\u3000", "’", "—"]
_SPECIALS += ["\u2009", "\u200b", "½", "ª", "µ", "×", "\xad", "\u2065", "\u2070", "ſ", "K"]
_COUNT_ALPHABET = st.sampled_from(
    [*" \t\n\r\x0b\x0cabcXYZ019'.,;!?-_()[]\x00\x1c\x7fsdmtlvre", *_SPECIALS, "\n\n"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_COUNT_ALPHABET, max_size=60).map("".join))
def test_fast_token_count_equals_tiktoken(text: str) -> None:
    from docparse.text import encoding

    assert SentenceSplitter(10, 0).count_tokens(text) == len(encoding().encode_ordinary(text))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_fast_token_count_on_any_text(text: str) -> None:
    from docparse.text import encoding

    assert SentenceSplitter(10, 0).count_tokens(text) == len(encoding().encode_ordinary(text))


def test_every_fast_character_counts_like_tiktoken() -> None:
    # The stdlib-re pre-tokenizer claims exactness on its "fast" characters:
    # check each of them in the contexts where pre-token rules differ.
    from docparse.chunking import sentence
    from docparse.text import encoding

    encode = encoding().encode_ordinary
    count = SentenceSplitter(10, 0).count_tokens
    contexts = ["{c}", "a{c}b", " {c}", "{c} ", "'{c}", "{c}{c}1", "1{c}2", "\n{c}\n", "'{c}s"]
    texts = [ctx.format(c=chr(cp)) for cp in sentence._fast_codes(None) for ctx in contexts]
    assert [count(t) for t in texts] == [len(encode(t)) for t in texts]

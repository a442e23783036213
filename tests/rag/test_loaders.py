"""RAG loaders: LlamaIndex and LangChain documents keep their metadata through splitting."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import docparse
from docparse.rag import records

KEYS = {"doc_id", "unit_ids", "page", "bbox", "section", "kind", "position_bucket"}


@pytest.fixture
def docling_json(fixtures_dir: Path) -> Path:
    return fixtures_dir / "docling/sample.docling.json"


@pytest.fixture
def twin(fixtures_dir: Path) -> Path:
    return fixtures_dir / "research/jmlr-pmlr-sample/pmlr-sample.tex"


def test_records_by_unit_chunk_page(docling_json: Path) -> None:
    doc = docparse.parse(docling_json)
    units = list(records(doc, "unit"))
    assert len(units) == len(doc.content_units())
    table = next(r for r in units if r.metadata["kind"] == "table")
    assert table.text.startswith("<table>")  # spans: an HTML table
    first = units[0]
    assert set(first.metadata) >= KEYS and first.metadata["page"] == 1
    assert first.metadata["bbox"] == pytest.approx([100.0, 72.0, 512.0, 92.0])
    pages = list(records(doc, "page"))
    assert [r.metadata["page"] for r in pages] == [1, 2]
    chunks = list(records(doc, "chunk", chunk_size=64))
    covered = {i for r in chunks for i in r.metadata["unit_ids"].split(",")}
    assert covered == {u.id for u in doc.content_units()}


def test_llamaindex_nodes_keep_metadata_through_sentence_splitter(
    docling_json: Path, twin: Path
) -> None:
    if importlib.util.find_spec("llama_index") is None:
        pytest.skip("llama-index-core is not installed")
    from llama_index.core.node_parser import SentenceSplitter

    from docparse.rag.llamaindex import DocparseReader

    docs = DocparseReader(by="unit").load_data(twin)
    assert docs and all(set(d.metadata) >= KEYS for d in docs)
    nodes = SentenceSplitter(chunk_size=128, chunk_overlap=0).get_nodes_from_documents(docs)
    assert len(nodes) >= len(docs)
    for node in nodes:
        assert set(node.metadata) >= KEYS
        assert node.metadata["doc_id"] == docs[0].metadata["doc_id"]
    sections = {n.metadata["section"] for n in nodes}
    assert "Introduction" in sections or any(s.startswith("Introduction") for s in sections)
    units = DocparseReader(by="unit").load_data(docling_json)
    assert {d.metadata["kind"] for d in units} >= {"title", "heading", "table", "caption"}
    assert units[0].id_ == docparse.parse(docling_json).units[0].id


def test_langchain_documents_keep_metadata_through_splitter(docling_json: Path, twin: Path) -> None:
    if importlib.util.find_spec("langchain_core") is None:
        pytest.skip("langchain-core is not installed")
    from docparse.rag.langchain import DocparseLoader

    docs = DocparseLoader(twin, by="chunk", chunk_size=200).load()
    assert docs and all(set(d.metadata) >= KEYS for d in docs)
    assert all(d.metadata["kind"] == "chunk" for d in docs)
    if importlib.util.find_spec("langchain_text_splitters") is None:
        pytest.skip("langchain-text-splitters is not installed")
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    pieces = RecursiveCharacterTextSplitter(chunk_size=200, chunk_overlap=0).split_documents(
        DocparseLoader(docling_json, by="page").load()
    )
    assert len(pieces) >= 2
    assert all(set(p.metadata) >= KEYS and p.metadata["page"] in (1, 2) for p in pieces)

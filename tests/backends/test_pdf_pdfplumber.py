"""The pdfplumber backend on real PDFs and generated bad PDFs."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from doc_invariants import check_invariants

import docparse
from align.metrics.tables import cell_f1
from docparse.errors import CorruptDocumentError, EncryptedDocumentError
from docparse.model import Document

BACKEND = "pdfplumber"
PMLR = Path("pdf/jmlr-pmlr-sample/pmlr-sample.pdf")


@pytest.fixture(scope="module")
def pmlr_doc(fixtures_dir: Path) -> Document:
    return docparse.parse(fixtures_dir / PMLR, backend=BACKEND)


def test_pmlr_golden_document(pmlr_doc: Document, golden: Callable[[str, Document], None]) -> None:
    golden("pdf_pdfplumber_pmlr_sample", pmlr_doc)


def test_pmlr_invariants_and_round_trip(pmlr_doc: Document, fixtures_dir: Path) -> None:
    doc = pmlr_doc
    assert doc.backend == "pdfplumber" and doc.n_pages == 11
    check_invariants(doc, pdf=fixtures_dir / PMLR)


def test_pmlr_sections_and_furniture(pmlr_doc: Document) -> None:
    doc = pmlr_doc
    headings = [u.text for u in doc.units if u.kind == "heading"]
    assert "1. Introduction" in headings
    intro = next(u for u in doc.units if u.text.startswith("This is a sample article"))
    assert intro.section[-1] == "1. Introduction"
    furniture = {u.text for u in doc.units if u.kind == "furniture"}
    assert {"Name1 Name2", "Short Title"} <= furniture
    for u in doc.content_units():
        assert "Short Title" not in u.text
        # No page number (a lone number in the bottom margin) survives.
        assert u.bbox is not None
        assert not (re.fullmatch(r"\d{1,2}", u.text) and u.bbox.y0 > 0.9 * 792)


def test_encrypted_and_truncated(tmp_path: Path, fixtures_dir: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Locked words for plumber.", fontsize=11)
    path = tmp_path / "locked.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="own")
    doc.close()
    with pytest.raises(EncryptedDocumentError, match=r"locked\.pdf is encrypted"):
        docparse.parse(path, backend=BACKEND)
    parsed = docparse.parse(path, backend=BACKEND, config={"password": "pw"})
    assert [u.text for u in parsed.units] == ["Locked words for plumber."]
    data = (fixtures_dir / PMLR).read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 3])
    with pytest.raises(CorruptDocumentError, match=r"cut\.pdf"):
        docparse.parse(cut, backend=BACKEND)


def test_config_is_validated() -> None:
    from docparse.backends.pdfplumber import PdfplumberConfig
    from docparse.config import resolve_config
    from docparse.errors import ConfigError

    cfg = resolve_config(PdfplumberConfig, {"pages": [1, 2], "table_strategy": "text"})
    assert cfg.pages == (1, 2)
    with pytest.raises(ConfigError):
        resolve_config(PdfplumberConfig, {"table_strategy": "magic"})


def test_pmlr_booktabs_table_found(pmlr_doc: Document, fixtures_dir: Path) -> None:
    """Table 3 of the paper has only top, middle and bottom rules (booktabs)."""
    tex = fixtures_dir / "research/jmlr-pmlr-sample/pmlr-sample.tex"
    gold = [u.table for u in docparse.parse(tex).units if u.table][2]
    tables = [u for u in pmlr_doc.units if u.table]
    ruled_off = [u for u in tables if u.provenance[0].page == 4 and u.provenance[0].bbox.y0 > 480]
    assert len(ruled_off) == 1
    assert cell_f1(gold, ruled_off[0].table) >= 0.9
    assert all(len(c.split()) <= 6 for u in tables for r in u.table.rows for c in r)


def test_contents_page_entries_stay_whole(fixtures_dir: Path) -> None:
    # debmake-doc's contents page: gaps wider than a gutter around each title
    # cut its entries apart; the pieces became columns of section numbers and
    # of page numbers, and the chapter's page number at the top furniture.
    doc = docparse.parse(
        fixtures_dir / "pdf/debmake-doc-contents/debmake-doc-contents.pdf", backend=BACKEND
    )
    texts = [" ".join(u.text.split()) for u in doc.units if u.kind != "furniture"]
    assert "7 Tips 67" in texts
    assert any(re.search(r"8\.3 Makefile \(shell, CLI\)(?: \.){5,} 88 8\.4", t) for t in texts)
    assert [u.text for u in doc.units if u.kind == "furniture"] == ["iv"]

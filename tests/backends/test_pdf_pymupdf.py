"""The PyMuPDF backend on real PDFs and on generated bad/unusual PDFs."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from doc_invariants import check_invariants

import docparse
from align.metrics.tables import cell_f1
from docparse.errors import (
    ConfigError,
    CorruptDocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
)
from docparse.model import Document

BACKEND = "pymupdf"


def pmlr(fixtures_dir: Path) -> Path:
    return fixtures_dir / "pdf" / "jmlr-pmlr-sample" / "pmlr-sample.pdf"


@pytest.fixture(scope="module")
def pmlr_doc(fixtures_dir: Path) -> Document:
    """The fixture paper parsed once for the tests that only read it."""
    return docparse.parse(fixtures_dir / "pdf/jmlr-pmlr-sample/pmlr-sample.pdf", backend=BACKEND)


def test_pmlr_golden_document(pmlr_doc: Document, golden: Callable[[str, Document], None]) -> None:
    golden("pdf_pymupdf_pmlr_sample", pmlr_doc)


def test_pmlr_invariants_round_trip_and_stable_ids(fixtures_dir: Path, pmlr_doc: Document) -> None:
    path = pmlr(fixtures_dir)
    doc = pmlr_doc
    check_invariants(doc, pdf=path)
    assert Document.from_json(doc.to_json()) == doc
    again = docparse.parse(path, backend=BACKEND)
    assert [u.id for u in again.units] == [u.id for u in doc.units]


def test_pmlr_structure(pmlr_doc: Document) -> None:
    doc = pmlr_doc
    assert doc.n_pages == 11
    headings = [u.text for u in doc.units if u.kind == "heading"]
    assert "1. Introduction" in headings and "2. Cross-Referencing" in headings
    intro = next(u for u in doc.units if u.text.startswith("This is a sample article"))
    assert intro.section[-1] == "1. Introduction"
    # Table 4 (ruled) caption linked both ways to its table, and the table knows it.
    cap = next(u for u in doc.units if u.kind == "caption" and u.text.startswith("Table 4"))
    assert cap.related
    table = doc.unit(cap.related[0])
    assert table.kind == "table" and table.table is not None
    assert table.table.caption == cap.text and cap.id in table.related


def test_pmlr_running_headers_and_page_numbers_removed(pmlr_doc: Document) -> None:
    doc = pmlr_doc
    furniture = [u for u in doc.units if u.kind == "furniture"]
    # The jmlr class prints "Name1 Name2" on even pages, "Short Title" on odd
    # pages and the page number at the bottom of each page but the first.
    assert {"Name1 Name2", "Short Title"} <= {u.text for u in furniture}
    numbers = {u.text for u in furniture if u.text.isdigit()}
    assert numbers >= {str(n) for n in range(2, 11)}
    for u in doc.content_units():
        assert "Short Title" not in u.text
        assert u.text != "Name1 Name2"
        assert u.bbox is not None
        assert not (re.fullmatch(r"\d{1,2}", u.text) and u.bbox.y0 > 0.9 * 792)


def test_pmlr_headers_kept_when_asked(fixtures_dir: Path) -> None:
    doc = docparse.parse(
        pmlr(fixtures_dir), backend=BACKEND, config={"remove_headers": False, "tables": False}
    )
    assert not [u for u in doc.units if u.kind == "furniture"]
    assert any(u.text == "Short Title" for u in doc.units)


def test_page_range_from_dict(fixtures_dir: Path) -> None:
    doc = docparse.parse(
        pmlr(fixtures_dir), backend=BACKEND, config={"pages": [2, 3], "tables": False}
    )
    assert {p for u in doc.units for p in u.pages} <= {2, 3}
    assert doc.n_pages == 11
    with pytest.raises(ConfigError):
        docparse.parse(pmlr(fixtures_dir), backend=BACKEND, config={"pages": [3, 2]})
    with pytest.raises(ConfigError):
        docparse.parse(pmlr(fixtures_dir), backend=BACKEND, config={"colour": True})


def test_tables_off_keeps_table_text_as_paragraphs(fixtures_dir: Path) -> None:
    path = fixtures_dir / "pdf" / "frx_2012_disclosure" / "frx_2012_disclosure.pdf"
    on = docparse.parse(path, backend=BACKEND)
    off = docparse.parse(path, backend=BACKEND, config={"tables": False})
    assert any(u.kind == "table" for u in on.units)
    assert not any(u.kind == "table" for u in off.units)
    assert "AALAEI" in " ".join(u.text for u in off.units)
    # Text inside a table region is not repeated as a paragraph.
    assert not any("AALAEI" in u.text for u in on.units if u.kind != "table")


# ----------------------------------------------------------------- generated PDFs


def _text_pdf(path: Path, pages: int = 2, **save: Any) -> Path:
    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.insert_text(
            (72, 100), f"Encrypted page {i + 1} says hello to the reader.", fontsize=11
        )
    doc.save(path, **save)
    doc.close()
    return path


def test_encrypted_pdf_needs_password(tmp_path: Path) -> None:
    path = _text_pdf(
        tmp_path / "secret.pdf",
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        user_pw="sesame",
        owner_pw="owner",
    )
    with pytest.raises(EncryptedDocumentError, match=r"secret\.pdf is encrypted; pass password"):
        docparse.parse(path, backend=BACKEND)
    with pytest.raises(EncryptedDocumentError, match="wrong"):
        docparse.parse(path, backend=BACKEND, config={"password": "nope"})
    doc = docparse.parse(path, backend=BACKEND, config={"password": "sesame"})
    assert "Encrypted page 2 says hello" in " ".join(u.text for u in doc.units)


def test_truncated_pdf_is_corrupt(fixtures_dir: Path, tmp_path: Path) -> None:
    data = pmlr(fixtures_dir).read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptDocumentError, match=r"cut\.pdf"):
        docparse.parse(cut, backend=BACKEND)
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"this is not a pdf at all\n" * 10)
    with pytest.raises(CorruptDocumentError):
        docparse.parse(junk, format="pdf", backend=BACKEND)


def test_zero_page_pdf(tmp_path: Path) -> None:
    path = tmp_path / "zero.pdf"
    path.write_text(
        "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        "2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
    )
    with pytest.raises(EmptyDocumentError, match="no pages"):
        docparse.parse(path, backend=BACKEND)


def test_image_only_pdf_flags_no_text_layer(tmp_path: Path) -> None:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
    pix.set_rect(pix.irect, (200, 30, 30))
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_image(pymupdf.Rect(72, 72, 372, 272), pixmap=pix)
    path = tmp_path / "scan.pdf"
    doc.save(path)
    doc.close()
    with pytest.warns(UserWarning, match="no text layer"):
        parsed = docparse.parse(path, backend=BACKEND)
    assert "no_text_layer" in parsed.flags
    assert parsed.units == ()


def test_rotated_page(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.insert_text((50, 100), "A rotated page still has its words in order.", fontsize=12)
    page.set_rotation(90)
    path = tmp_path / "rotated.pdf"
    doc.save(path)
    doc.close()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parsed = docparse.parse(path, backend=BACKEND)
    (unit,) = parsed.content_units()
    assert unit.text == "A rotated page still has its words in order."
    assert unit.bbox is not None
    # Displayed page is 600 wide and 400 high; the line runs downwards near the right.
    assert 0 <= unit.bbox.x0 < unit.bbox.x1 <= 600 and 0 <= unit.bbox.y0 < unit.bbox.y1 <= 400
    assert unit.bbox.height > unit.bbox.width
    assert unit.bbox.x0 > 400


def test_two_column_order_and_page_break_merge(tmp_path: Path) -> None:
    """A generated two-column page: left column first, sentence continued into the right."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((200, 60), "Wide Title Of The Paper", fontsize=20)
    left = "The left column starts here and it continues until the end of".split()  # noqa: SIM905
    right = "the sentence which finishes in the right column. Then a new one.".split()  # noqa: SIM905
    for col, words, x in ((0, left, 50), (1, right, 330)):
        for i in range(0, len(words), 4):
            page.insert_text((x, 150 + 14 * (i // 4)), " ".join(words[i : i + 4]), fontsize=10)
        assert col in (0, 1)
    path = tmp_path / "twocol.pdf"
    doc.save(path)
    doc.close()
    parsed = docparse.parse(path, backend=BACKEND)
    assert parsed.title == "Wide Title Of The Paper"
    texts = [u.text for u in parsed.units if u.kind == "paragraph"]
    whole = " ".join(left + right)
    assert texts == [whole.removesuffix(" Then a new one."), "Then a new one."]
    para = next(u for u in parsed.units if u.kind == "paragraph")
    assert len(para.provenance) == 2  # one box per column piece


def _gold_tables(fixtures_dir: Path) -> list[Any]:
    tex = fixtures_dir / "research" / "jmlr-pmlr-sample" / "pmlr-sample.tex"
    return [u.table for u in docparse.parse(tex).units if u.table]


def test_pmlr_booktabs_table_found(fixtures_dir: Path, pmlr_doc: Document) -> None:
    """Table 3 of the paper has only top, middle and bottom rules (booktabs)."""
    gold = _gold_tables(fixtures_dir)[2]
    tables = [u for u in pmlr_doc.units if u.table]
    ruled_off = [u for u in tables if u.provenance[0].page == 4 and u.provenance[0].bbox.y0 > 480]
    assert len(ruled_off) == 1
    assert cell_f1(gold, ruled_off[0].table) >= 0.9
    # The text between the rules is the table, not paragraphs too.
    assert not any(
        "0.54321" in u.text and u.provenance[0].page == 4 and u.provenance[0].bbox.y0 > 500
        for u in pmlr_doc.units
        if not u.table
    )
    # No prose became a table: every table cell is short.
    assert all(len(c.split()) <= 6 for u in tables for r in u.table.rows for c in r)


def test_text_of_layers_the_default_view_hides_is_read(fixtures_dir: Path) -> None:
    """lecturer's slide steps are optional content groups hidden by default:
    MuPDF left page 1 empty; its text is read as the other backends read it."""
    path = fixtures_dir / "pdf" / "lecturer-layers" / "LecturerDemo-Mondrian.pdf"
    doc = docparse.parse(path, backend=BACKEND, config={"ocr": "off", "pages": (1, 1)})
    text = " ".join(u.text for u in doc.units)
    assert "Some say the square root of 2" in text
    assert "integers without a common factor" in text
    assert doc.pages[0].n_chars > 300

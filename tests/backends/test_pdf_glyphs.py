"""Unmapped glyphs (U+FFFD, ``(cid:N)``) and page facts of the PDF backends."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

import docparse
from docparse.backends.base import Block, Line, PageContent, PdfConfig, TextSpan, assemble
from docparse.backends.glyphs import count_unmapped, strip_unmapped
from docparse.model import BBox, Document, PageInfo

# Page 9 sets an algorithm with CMEX8 summation signs that have no Unicode mapping
# (the text-layer backends read them by the font's encoding: backends/tex_fonts.py).
PMLR = Path("pdf/jmlr-pmlr-sample/pmlr-sample.pdf")
QUANTUM = Path("pdf/quantum-template/quantum-template.pdf")
HAVE_UNSTRUCTURED = importlib.util.find_spec("unstructured") is not None


def _texts(doc: Document) -> list[str]:
    out = [u.text for u in doc.units] + [u.raw for u in doc.units]
    out += [c for u in doc.units if u.table for row in u.table.rows for c in row]
    return out


def test_unmapped_glyphs_are_counted_and_stripped() -> None:
    text = "a\ufffdb (cid:12) c\x01d\te\n"
    assert count_unmapped(text) == 3
    assert strip_unmapped(text) == "ab  cd\te\n"
    assert count_unmapped("plain text, (cid) 12") == 0
    assert strip_unmapped("plain") == "plain"


def test_page_info_round_trips_and_reports_the_unmapped_share() -> None:
    info = PageInfo(3, n_chars=200, n_unmapped=150)
    assert info.unmapped_fraction == pytest.approx(0.75)
    assert PageInfo(1).unmapped_fraction == 0.0
    assert PageInfo.from_dict(info.to_dict()) == info


def test_assembly_reports_one_page_info_per_page_read() -> None:
    box = BBox(72, 100, 300, 112)
    line = Line((TextSpan("Some text here.", box, 10.0),), box)
    pages = [
        PageContent(4, 612, 792, blocks=(Block((line,), box),), unmapped_glyphs=5),
        PageContent(5, 612, 792),
    ]
    result = assemble(pages, PdfConfig(), path="x.pdf")
    assert result.pages == [PageInfo(4, 13 + 5, 5), PageInfo(5, 0, 0)]


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber", "pypdfium2", "pymupdf4llm"])
def test_no_replacement_characters_or_cid_placeholders(backend: str, fixtures_dir: Path) -> None:
    if importlib.util.find_spec(backend) is None:
        pytest.skip(f"{backend} is not installed")
    doc = docparse.parse(fixtures_dir / PMLR, backend=backend)
    texts = _texts(doc)
    assert not any("\ufffd" in t or "(cid:" in t for t in texts)
    counts = {p.page: p.n_unmapped for p in doc.pages}
    assert len(doc.pages) == doc.n_pages
    if backend == "pymupdf4llm":
        assert counts[9] >= 2, "the summation signs on page 9 are counted"
    else:
        # The text-layer backends read them by CMEX's encoding (tex_fonts).
        assert counts[9] == 0 and any("∑" in u.text for u in doc.units if u.page == 9)
    assert sum(counts.values()) == counts[9]
    assert all(p.n_chars > 0 for p in doc.pages)
    # The page facts survive serialisation.
    assert Document.from_json(doc.to_json()).pages == doc.pages


@pytest.mark.unstructured
@pytest.mark.skipif(not HAVE_UNSTRUCTURED, reason="unstructured is not installed")
def test_unstructured_elements_lose_cid_placeholders() -> None:
    from unstructured.documents.coordinates import PixelSpace
    from unstructured.documents.elements import ElementMetadata, NarrativeText, Table

    from docparse.backends import unstructured as ub

    para = NarrativeText("sum (cid:80) of x(cid:3)")
    table = Table("a b")
    table.metadata = ElementMetadata(
        text_as_html="<table><tr><td>a(cid:7)</td><td>b</td></tr></table>"
    )
    elements: list[Any] = [para, table]
    page = ub.page_content(1, 612, 792, 0, elements, tables=True, system_class=PixelSpace)
    assert page.unmapped_glyphs == 3
    assert page.blocks[0].lines[0].text == "sum  of x"
    assert page.tables[0].rows == (("a", "b"),)


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_page_range_keeps_the_document_title_and_page_count(
    backend: str, fixtures_dir: Path
) -> None:
    path = fixtures_dir / QUANTUM
    full = docparse.parse(path, backend=backend, config={"tables": False})
    part = docparse.parse(path, backend=backend, config={"pages": (2, 3), "tables": False})
    assert full.title and part.title == full.title
    assert part.n_pages == full.n_pages == 5
    assert [p.page for p in part.pages] == [2, 3]
    # The largest text of page 2 is a heading there, not the document's title.
    assert not any(u.kind == "title" for u in part.units)


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_tex_spacing_accents_are_merged_into_their_letters(
    fixtures_dir: Path, backend: str
) -> None:
    """An OT1 font sets á as ´ kerned over a: the units read á, not ´a or a´."""
    path = fixtures_dir / "pdf" / "mkpattern-accents" / "mkpatter-p3.pdf"
    doc = docparse.parse(path, backend=backend, config={"ocr": "off"})
    text = " ".join(u.text for u in doc.units)
    assert "&Va={á é í ó ú}" in text
    assert "\\encodingsubstitutions{á é í ó ú ñ ü ï}" in text
    assert "the character á is in position E1" in text
    assert not any(c in text for c in "\u00b4\u00a8\u02dc\u00b8")


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_accents_inside_a_table_are_merged_in_its_cells_too(
    fixtures_dir: Path, backend: str
) -> None:
    """A table's cells read the same merged letters as the lines: a cell
    ``´ecrire`` beside a line ``écrire`` left the line as a paragraph too."""
    path = fixtures_dir / "pdf" / "font-change-fr-accents" / "font-change-fr-p11.pdf"
    doc = docparse.parse(path, backend=backend, config={"ocr": "off"})
    tables = [u for u in doc.units if u.table is not None]
    assert len(tables) == 1
    assert "écrire" in tables[0].text and "´" not in tables[0].text
    assert not [u.text for u in doc.units if u.table is None and "Gras penché" in u.text]
    assert "La police Charter est déclarée" in " ".join(u.text for u in doc.units)

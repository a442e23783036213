"""pypdfium2: a font whose name says it is regular is not bold, whatever weight PDFium estimates."""

from __future__ import annotations

from pathlib import Path

import docparse

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"
DIRTREE = FIXTURES / "dirtree-p1-4" / "dirtree-p1-4.pdf"


def test_regular_latin_modern_is_not_bold_so_short_lines_are_no_headings() -> None:
    doc = docparse.parse(DIRTREE, backend="pypdfium2", config={"ocr": "off"})
    heads = [u.text for u in doc.units if u.kind == "heading"]
    # The body's short lines ("For example, the code") were headings: PDFium
    # reads LMRoman10-Regular's weight as bold.
    assert heads == ["Contents", "1 Introduction", "2 Usage"]
    # The same headings as PyMuPDF finds, which reads the weight from the name.
    ref = docparse.parse(DIRTREE, backend="pymupdf", config={"ocr": "off"})
    assert heads == [u.text for u in ref.units if u.kind == "heading"]

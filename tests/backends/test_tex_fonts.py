"""TeX's math fonts without a Unicode map, read by their encodings (OMS, OMX)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import docparse
from docparse.backends.tex_fonts import (
    NEGATION,
    negated,
    tex_math_char,
    tex_math_chars,
    write_glyph,
)

# quantum-template.pdf embeds LMMathSymbols10 and LMMathExtension10 without a
# /ToUnicode map: p2 "H |ψ⟩ = E |ψ⟩" (⟩ is code 0x69, "i"), p5 "A ≠ B".
QUANTUM = Path(__file__).resolve().parents[2] / "fixtures/pdf/quantum-template/quantum-template.pdf"
SYMBOLS = "DQCETI+LMMathSymbols10-Regular"


def test_codes_of_the_symbol_and_extension_fonts() -> None:
    assert tex_math_char(SYMBOLS, 0x69) == "⟩"
    assert tex_math_char("CMSY10", 0x14) == "≤"
    assert tex_math_char(SYMBOLS, 0x36) == NEGATION
    # The extension font's glyphs (here the display sum) and other fonts' are no character here.
    assert tex_math_char("QPXDOQ+LMMathExtension10-Regular", ord("X")) is None
    assert tex_math_char("CMR10", 0x69) is None
    assert negated("=") == "≠" and negated("∈") == "∉" and negated("x") is None


def _char(text: str, x0: float, x1: float, font: str = SYMBOLS) -> dict[str, Any]:
    return {"text": text, "fontname": font, "x0": x0, "x1": x1, "top": 100.0, "size": 10.0}


def test_pdfminer_chars() -> None:
    chars = [
        _char("A", 80, 88, "LMMathItalic10"),
        _char("6", 93.07, 93.07),  # the slash: no width, drawn before its "="
        _char("=", 93.07, 101.5, "LMRoman10-Regular"),
        _char("i", 110, 114),
        _char("|", 120, 122),  # a mapped bar: kept
        _char("(cid:105)", 130, 134),
        _char("6", 140, 140),  # a slash over no relation: unmapped
        _char("-", 150, 158, "LMRoman10-Regular"),
        _char("X", 160, 170, "QPXDOQ+LMMathExtension10-Regular"),  # a code, no text
    ]
    texts = [c["text"] for c in tex_math_chars(chars)]
    assert texts == ["A", "≠", "⟩", "|", "⟩", "\ufffd", "-", "\ufffd"]


def test_pdfium_units() -> None:
    units = bytearray("A 6= B 6x i".encode("utf-16-le"))
    for t, code in ((2, 0x36), (7, 0x36), (10, 0x69)):
        write_glyph(units, t, SYMBOLS, code)
    assert units.decode("utf-16-le") == "A  ≠ B \ufffdx ⟩"
    units = bytearray("P".encode("utf-16-le"))
    write_glyph(units, 0, "LMMathExtension10-Regular", ord("P"))
    assert units.decode("utf-16-le") == "\ufffd"


@pytest.mark.parametrize("backend", ["pypdfium2", "pdfplumber"])
def test_real_page_reads_the_symbols(backend: str) -> None:
    pytest.importorskip(backend)
    doc = docparse.parse(QUANTUM, backend=backend, config={"tables": False})
    text = {u.page: "" for u in doc.units}
    for u in doc.units:
        text[u.page] += " " + u.text
    assert "A ≠ B" in text[5]
    assert "|ψ⟩ = E |ψ⟩" in text[2]

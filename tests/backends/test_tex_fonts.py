"""TeX's math fonts without a Unicode map, read by their encodings (OMS, OMX)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import docparse
from align.math import glyphs
from docparse.backends.tex_fonts import (
    NEGATION,
    extension_rects,
    glyph_band,
    ink_band,
    is_extension,
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
    # Other fonts' glyphs are no character here.
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
        _char("B", 170, 175, "QPXDOQ+LMMathExtension10-Regular"),  # a brace's piece
    ]
    texts = [c["text"] for c in tex_math_chars(chars)]
    assert texts == ["A", "≠", "⟩", "|", "⟩", "\ufffd", "-", "\ufffd"]


def test_pdfium_units() -> None:
    units = bytearray("A 6= B 6x i".encode("utf-16-le"))
    for t, code in ((2, 0x36), (7, 0x36), (10, 0x69)):
        write_glyph(units, t, SYMBOLS, code)
    assert units.decode("utf-16-le") == "A  ≠ B \ufffdx ⟩"
    units = bytearray("PB".encode("utf-16-le"))
    write_glyph(units, 0, "LMMathExtension10-Regular", ord("P"))
    write_glyph(units, 1, "LMMathExtension10-Regular", ord("B"))  # a brace's middle piece
    assert units.decode("utf-16-le") == "∑\ufffd"


@pytest.mark.parametrize("backend", ["pypdfium2", "pdfplumber"])
def test_real_page_reads_the_symbols(backend: str) -> None:
    pytest.importorskip(backend)
    doc = docparse.parse(QUANTUM, backend=backend, config={"tables": False})
    text = {u.page: "" for u in doc.units}
    for u in doc.units:
        text[u.page] += " " + u.text
    assert "A ≠ B" in text[5]
    assert "|ψ⟩ = E |ψ⟩" in text[2]


def test_codes_of_the_extension_fonts() -> None:
    # TeX's OMX layout, shared by cmex, Latin Modern's, txfonts' and pxfonts' fonts.
    for font in ("CMEX10", "ABCDEF+LMMathExtension10-Regular", "lmex10", "txex", "PXEX"):
        assert is_extension(font), font
        codes = (0x50, 0x58, 0x5A, 0x51, 0x5B, 0x61, 0x48, 0x70, 0x00, 0x11, 0x2A, 0x30, 0x38)
        assert "".join(str(tex_math_char(font, k)) for k in codes) == "∑∑∫∏⋃∐∮√()⟨({", font
        # A tall delimiter's middle and bottom pieces, the wide accents: no character.
        for code in (0x42, 0x40, 0x3E, 0x3C, 0x0C, 0x62, 0x75):
            assert tex_math_char(font, code) is None, (font, hex(code))
    for font in ("CMSY10", "txexs-other", "esint10", "CMR10"):
        assert not is_extension(font), font


def test_extension_glyph_boxes() -> None:
    # An inline sum (an em deep): the line's middle band around its middle.
    assert ink_band("∑", 100.0, 110.0, 10.0) == (101.5, 108.5)
    # A display sum keeps its ink, to hold its limits; a tall parenthesis
    # takes its first row's band, a closing one its last row's.
    assert ink_band("∑", 100.0, 114.0, 10.0) == (100.0, 114.0)
    assert ink_band("(", 100.0, 130.0, 10.0) == (101.5, 108.5)
    assert ink_band(")", 100.0, 130.0, 10.0) == (121.5, 128.5)
    # A font's box (pdfminer, MuPDF): the glyph hangs from its baseline.
    assert glyph_band(100.0, [0x50], 10.0) == (101.5, 108.5)
    assert glyph_band(100.0, [0x5A], 10.0) == (100.0, 122.2)
    rects = np.array([[0.0, 0.0, 5.0, 30.0], [10.0, 0.0, 15.0, 30.0], [20.0, 0.0, 25.0, 10.0]])
    fonts = [("CMEX10", 0), ("CMEX10", 0), ("CMR10", 0)]
    out = extension_rects(rects, ["∫", "(", "x"], fonts, [10.0, 10.0, 10.0])
    assert out.tolist() == [
        [0.0, 0.0, 5.0, 30.0],
        [10.0, 21.5, 15.0, 28.5],
        [20.0, 0.0, 25.0, 10.0],
    ]
    assert rects[1, 1] == 0.0  # the caller's rectangles stay as they were


def test_pdfminer_extension_char_is_moved_onto_its_line() -> None:
    # pdfminer's box of a text-style sum on baseline y = 700 (PDF space),
    # size 10: descent -0.6 em below the baseline, an em high.
    char = {
        "text": "(cid:80)",
        "fontname": "QOULMD+CMEX10",
        "x0": 50.0,
        "x1": 60.0,
        "size": 10.0,
        "matrix": (10.0, 0.0, 0.0, 10.0, 50.0, 700.0),
        "y0": 694.0,
        "y1": 704.0,
        "top": 88.0,
        "bottom": 98.0,
        "doctop": 88.0,
    }
    (out,) = tex_math_chars([char])
    assert out["text"] == "∑"
    # Baseline at top 92; the glyph's middle half an em below, a band of 0.7 em.
    assert (out["top"], out["bottom"]) == pytest.approx((93.5, 100.5))
    assert (out["y0"], out["y1"]) == pytest.approx((691.5, 698.5))


GENERATED = Path(__file__).resolve().parents[2] / "fixtures/math_generated"


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber", "pypdfium2"])
@pytest.mark.parametrize("pair", ["cm-4", "bigopstx-4"])
def test_every_big_operator_and_radical_is_read(backend: str, pair: str) -> None:
    # cmex (cm-4) and txfonts' txex (bigopstx-4), embedded without a Unicode
    # map: every backend left out their sums, integrals and radicals (pypdfium2
    # read txex's display sum as its code, "X").
    pytest.importorskip(backend)
    ops = "∑∏∫∮⋃⋂∐√"
    twin = docparse.parse(GENERATED / f"{pair}.tex")
    doc = docparse.parse(GENERATED / f"{pair}.pdf", backend=backend, config={"tables": False})
    want = Counter(c for u in twin.units for c in glyphs(u.text) if c in ops)
    got = Counter(c for u in doc.units for c in u.text if c in ops)
    assert sum(want.values()) >= 10 and got == want


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber", "pypdfium2"])
def test_the_pieces_of_a_tall_delimiter_are_counted_unmapped(backend: str) -> None:
    # bigopstx-4 p2: tall parentheses and brackets built of pieces (txex);
    # only their top pieces are read.
    pytest.importorskip(backend)
    doc = docparse.parse(GENERATED / "bigopstx-4.pdf", backend=backend, config={"tables": False})
    counts = {p.page: p.n_unmapped for p in doc.pages}
    assert counts[2] >= 6 and not any("\ufffd" in u.text for u in doc.units)

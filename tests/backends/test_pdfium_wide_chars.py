"""pypdfium2: characters outside the BMP that PDFium's UTF-16 page text drops (fixtures/pdf)."""

from __future__ import annotations

from pathlib import Path

import docparse

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"


def test_math_letters_outside_the_bmp_do_not_shift_the_text_after_them() -> None:
    # asmejour p3: NewTXMI maps theta and its kin to one code point each
    # (U+1D703 ...), which PDFium's text leaves out while still counting it.
    # Before, every run after the first such letter was cut one place further
    # per letter: "In m os t cases", "2n conduction by potential theory.auxlock".
    doc = docparse.parse(
        FIXTURES / "asmejour-p3" / "asmejour-p3.pdf", backend="pypdfium2", config={"tables": False}
    )
    texts = [u.text for u in doc.units]
    assert any(t.startswith("In most cases, long equations can be kept below") for t in texts)
    assert (
        "Fig. 2 A figure with two subfigures: (a) interior region, and (b) exterior region [15]"
        in texts
    )
    joined = " ".join(texts)
    # The dropped letters are back, in place.
    assert "𝜃 = 1" in joined and "𝜃 = − 1" in joined
    eqs = ["".join(u.text.split()) for u in doc.units if u.kind == "equation"]
    assert any(e.endswith("(5)") and "u𝑟=𝑢𝑟" in e for e in eqs)
    assert any(e.endswith("(6)") and "𝑺=𝒌ln𝒘" in e for e in eqs)

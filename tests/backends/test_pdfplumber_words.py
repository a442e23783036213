"""Words as pdfplumber makes them for docparse (pdfplumber.page_words)."""

from __future__ import annotations

import re
from pathlib import Path

import docparse
from docparse.backends.pdfplumber import without_overlaid_spaces


def _char(text: str, x0: float, x1: float, top: float = 100.0) -> dict[str, object]:
    return {"text": text, "x0": x0, "x1": x1, "top": top, "upright": True}


def test_a_space_drawn_over_a_digit_splits_no_amount(fixtures_dir: Path) -> None:
    # J&J Q4 2022 p8 pads its amounts with spaces drawn after the digits; one
    # starts inside the first digit, and pdfplumber read "$1 ,696".
    pdf = fixtures_dir / "pdf" / "JNJ_2022Q4-p8" / "JNJ_2022Q4-p8.pdf"
    doc = docparse.parse(pdf, backend="pdfplumber")
    cells = [c for u in doc.units if u.table is not None for r in u.table.rows for c in r]
    assert "$1,696" in cells and "14,953" in cells
    assert not [c for c in cells if re.search(r"\d ,\d|\d \d{1,2},\d", c)]


def test_a_glyph_from_another_font_splits_no_word(fixtures_dir: Path) -> None:
    # GS 2016 p213: the "q" of "equity" comes from a subset font of its own.
    pdf = fixtures_dir / "pdf" / "GS_2016-two-column" / "GS_2016-two-column.pdf"
    doc = docparse.parse(pdf, backend="pdfplumber", config={"pages": (4, 4)})
    text = " ".join(u.text for u in doc.units)
    assert "shareholders’ equity" in text and "e q uity" not in text


def test_only_spaces_starting_inside_a_glyph_are_dropped() -> None:
    digit, comma = _char("1", 220.3, 224.1), _char(",", 224.1, 225.9)
    over = _char(" ", 220.5, 222.3)  # drawn after the number, inside the "1"
    after = _char(" ", 226.0, 227.9)  # a space between words
    lower = _char(" ", 220.5, 222.3, top=110.0)  # another line
    chars = [digit, comma, after, over, lower]
    assert without_overlaid_spaces(chars) == [digit, comma, after, lower]
    # Touching its glyph by less than half its width, a space stays.
    touch = _char(" ", 223.5, 225.3)
    assert without_overlaid_spaces([digit, touch]) == [digit, touch]

"""Words as pdfplumber makes them for docparse (pdfplumber.page_words)."""

from __future__ import annotations

import re
from pathlib import Path

import docparse
from docparse.backends.pdfplumber import page_words, without_overlaid_spaces


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


def test_small_type_set_without_space_characters_keeps_its_word_spaces(
    fixtures_dir: Path,
) -> None:
    # frx_2012_disclosure sets its 6 pt title and notes with no space characters,
    # the words 1.2 pt apart: a tolerance of 1.5 pt read "ForestLaboratories,Inc.".
    pdf = fixtures_dir / "pdf" / "frx_2012_disclosure" / "frx_2012_disclosure.pdf"
    doc = docparse.parse(pdf, backend="pdfplumber")
    texts = [u.text for u in doc.units]
    assert "Forest Laboratories, Inc." in texts
    text = " ".join(texts)
    assert "Disclosure Report January 1, 2012 - December 31, 2012" in text
    assert "Parentheses indicate return of previou payment of transfers of value." in text
    cells = [c for u in doc.units if u.table is not None for r in u.table.rows for c in r]
    assert "AALAEI, BEHZAD" in cells and "$51.24" in cells


def _set(text: str, size: float, gap: float, x0: float = 100.0) -> list[dict[str, object]]:
    """The characters of ``text`` set at ``size`` points, each ``0.5 * size`` wide and
    ``gap`` points after the one before."""
    chars: list[dict[str, object]] = []
    for ch in text:
        x1 = x0 + 0.5 * size
        chars.append(
            {
                "text": ch,
                "x0": x0,
                "x1": x1,
                "top": 100.0,
                "bottom": 100.0 + size,
                "doctop": 100.0,
                "upright": True,
                "size": size,
                "fontname": "Helvetica",
            }
        )
        x0 = x1 + gap
    return chars


def test_the_word_gap_is_measured_against_the_type_size() -> None:
    # A word space in 6 pt type (1.2 pt) and letter spacing in a 20 pt heading
    # (2 pt) are the other way round in points.
    small = [*_set("Forest", 6, 0.0), *_set("Inc.", 6, 0.0, x0=100 + 6 * 3 + 1.2)]
    heading = _set("Social", 20, 2.0)

    def texts(chars: list[dict[str, object]], ratio: float | None) -> list[str]:
        return [str(w["text"]) for w in page_words(chars, 1.5, 3.0, ratio)]

    assert texts(small, 0.15) == ["Forest", "Inc."]
    assert texts(heading, 0.15) == ["Social"]
    # A tolerance in points gets both wrong.
    assert texts(small, None) == ["ForestInc."]
    assert texts(heading, None) == ["S", "o", "c", "i", "a", "l"]

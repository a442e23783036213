"""benchmarks.outline_headings: PDF headings scored against the PDF's own outline."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import docparse
from benchmarks import outline_headings as oh

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
QUANTUM = FIXTURES / "pdf" / "quantum-template" / "quantum-template.pdf"


def test_heading_key_leaves_out_numbers_labels_and_accents() -> None:
    assert oh.heading_key("2.1 Method") == oh.heading_key("Method") == "method"
    assert oh.heading_key("A.2. Proofs") == "proofs"
    assert oh.heading_key("Chapter 3 Introduction") == "introduction"
    # The same rule on both sides: a letter that is a word goes from both.
    assert oh.heading_key("1 A Simple Example") == oh.heading_key("A Simple Example")
    assert oh.heading_key("Dulezita poznamka") == oh.heading_key("Důležitá poznámka")


def test_macro_entries_and_index_letters_name_no_section() -> None:
    assert oh.is_section_entry("Installing the package")
    assert not oh.is_section_entry("\\pdfoutput")
    assert not oh.is_section_entry("A")
    assert not oh.is_section_entry("2008")


def test_outline_of_a_real_pdf() -> None:
    entries = oh.outline(QUANTUM)
    assert len(entries) == 14
    assert entries[0].page == 1 and entries[0].level == 1
    assert all(e.level >= 1 and 1 <= e.page <= 5 for e in entries)
    # Destinations are read from the page top, in order down a page.
    same_page = [e.top for e in entries if e.page == entries[1].page]
    assert same_page == sorted(same_page)
    assert oh.outline(QUANTUM, max_pages=1) == [e for e in entries if e.page == 1]


@pytest.mark.parametrize("backend", ["pymupdf", "pypdfium2"])
def test_a_parse_that_finds_every_section_scores_full(backend: str) -> None:
    entries = oh.outline(QUANTUM)
    doc = docparse.parse(QUANTUM, backend=backend, config={"ocr": "off"})
    s = oh.score("quantum", entries, doc)
    assert (s.matched, s.entries) == (14, 14), s.missed
    assert s.level_ok == s.level_n == 14
    assert s.path_ok == s.units > 50
    assert s.headings >= s.matched


def test_a_parse_without_headings_scores_nothing() -> None:
    entries = oh.outline(QUANTUM)
    doc = docparse.parse(QUANTUM, backend="pymupdf", config={"ocr": "off"})
    flat = dataclasses.replace(
        doc,
        units=tuple(
            dataclasses.replace(u, kind="paragraph", section=())
            if u.kind == "heading"
            else dataclasses.replace(u, section=())
            for u in doc.units
        ),
    )
    s = oh.score("quantum", entries, flat)
    assert s.matched == 0 and s.headings == 0
    # Only the units before the first section stand where the outline has no path.
    assert s.path_ok < s.units // 4

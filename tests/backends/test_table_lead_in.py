"""The sentence introducing a table is no row of it (``table_repair.below_lead_in``).

``fixtures/tables_generated/leadin-sentences`` (see its SOURCE.txt): three filing
tables printed with Chromium, each under a sentence ending in a colon. The
PDF is committed: Chromium is not needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse

PDF = Path(__file__).resolve().parents[2] / "fixtures" / "tables_generated" / "leadin-sentences.pdf"


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber", "pypdfium2"])
def test_the_sentence_over_a_table_stays_text(backend: str) -> None:
    doc = docparse.parse(PDF, backend=backend)
    tables = [u.table for u in doc.units if u.table is not None]
    assert len(tables) == 3
    cells = [c for t in tables for r in t.rows for c in r]
    assert not [c for c in cells if c.endswith("(in millions):")]
    # Each table still starts with its own heads or first label.
    assert [t.rows[0][0] for t in tables] == ["", "", "2.600% Notes due on December 5, 2024"]
    assert "Operating expenses:" in [r[0] for r in tables[1].rows]
    # The sentences stay text (pypdfium2's reading order scatters some of their words).
    text = set(" ".join(u.text for u in doc.units if u.table is None).split())
    assert {"Information", "operating", "expenses", "follows", "unsecured", "debt"} <= text

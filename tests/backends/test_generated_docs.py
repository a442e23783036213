"""Generated document pairs (``fixtures/docs_generated``): PDF text structure against its ``.tex``.

The pairs come from ``benchmarks/doc_pairs_tex.py`` (pdflatex); neither TeX nor the generator
is needed here, the PDFs are committed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from align.project import project
from benchmarks.doc_pairs import bare_numbers
from benchmarks.doc_pairs_tex import generate_doc

PAIRS = Path(__file__).resolve().parents[2] / "fixtures" / "docs_generated"
BACKENDS = ("pymupdf", "pdfplumber", "pypdfium2")


@pytest.mark.parametrize("path", sorted(PAIRS.glob("*.tex")), ids=lambda p: p.stem)
def test_committed_pairs_are_what_their_seed_generates(path: Path) -> None:
    family, seed = path.stem.split("-")
    assert generate_doc(family, int(seed)) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["lineno-1", "lineno-4"])
def test_line_numbers_in_the_gutter_stay_out_of_the_text(name: str, backend: str) -> None:
    # lineno numbers the second column's lines left of it, in the gutter;
    # before the fix they stayed in paragraphs (25 and 118 stray numbers with
    # pymupdf) and made tables of two columns of prose.
    twin = docparse.parse(PAIRS / f"{name}.tex")
    doc = docparse.parse(PAIRS / f"{name}.pdf", backend=backend)
    extra = bare_numbers([u.text for u in doc.content_units()]) - bare_numbers(
        [u.text for u in twin.units]
    )
    assert extra <= doc.n_pages // 2
    twin_tables = sum(u.table is not None for u in twin.units)
    assert sum(u.table is not None for u in doc.units) <= twin_tables
    assert project(twin, doc).unit_recall(0.9) >= 0.93


@pytest.mark.parametrize("backend", BACKENDS)
def test_amsart_section_titles_and_run_in_subsections_are_headings(backend: str) -> None:
    # "1. CONDITION RESOURCE ..." in small capitals (most letters a size
    # down) and "1.1. Judgement strategy." run in, number upright, title bold.
    from benchmarks.pdf_layout import heading_levels

    twin = docparse.parse(PAIRS / "amsart-3.tex")
    doc = docparse.parse(PAIRS / "amsart-3.pdf", backend=backend)
    total, found, right, _ = heading_levels(doc, twin)
    assert total == 7
    # pypdfium2 sets a space after each small-capital initial ("2. C REATE"): 3 of 7 there.
    assert found >= (3 if backend == "pypdfium2" else 5) and right == found
    heads = [u.text for u in doc.units if u.kind == "heading"]
    assert any(h.startswith("1.1. Judgement strategy") for h in heads)
    # The run-in heading comes before the text it opens, as in the twin.
    gold = [u.text for u in twin.units]
    opens = gold[gold.index("Judgement strategy") + 1].split()[:3]
    texts = [u.text for u in doc.units]
    i = next(i for i, t in enumerate(texts) if t.startswith("1.1. Judgement"))
    assert texts[i + 1].split()[:3] == opens


@pytest.mark.parametrize("backend", BACKENDS)
def test_verbatim_in_a_bitmap_font_is_read(backend: str) -> None:
    # amsart-3's verbatim block is set in a Type 3 (bitmap) typewriter font with
    # no Unicode map: PDFium flags each glyph unmapped though its code is the
    # ASCII character; pypdfium2 left the whole block out before.
    doc = docparse.parse(PAIRS / "amsart-3.pdf", backend=backend)
    text = " ".join(u.text for u in doc.content_units())
    assert "if (count > limit) {" in text and "flush(buffer);" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_caption_label_cut_off_its_text_is_joined_to_it(backend: str) -> None:
    # lineno-5: "Figure 1:" on the first line of a two-line caption whose second line
    # starts under the label; pymupdf and pdfplumber cut the label off, a caption with
    # no words, and read the text as a paragraph (before the fix).
    doc = docparse.parse(PAIRS / "lineno-5.pdf", backend=backend)
    captions = [u.text for u in doc.units if u.kind == "caption"]
    assert "Figure 1: Framework and the broad detect behaviour increase order from." in captions
    assert not any(c.rstrip(":.") in ("Figure 1", "Figure 2", "Figure 3") for c in captions)


def test_doc_pairs_scores_captions_read_whole() -> None:
    # lineno-5 with pymupdf: 7 captions; Table 3's caption is not linked (its table
    # is read together with Table 4's, linked to Table 4's caption), Table 4's table
    # is not found.
    from benchmarks.doc_pairs import score_doc

    twin = docparse.parse(PAIRS / "lineno-5.tex")
    doc = docparse.parse(PAIRS / "lineno-5.pdf", backend="pymupdf")
    score = score_doc("lineno-5", "lineno", twin, doc, "pymupdf", [])
    assert score.captions == (7, 5)
    faults = sorted(w[1] for w in score.worst if w[2] == "caption")
    assert faults == ["link", "table"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_heading_level_with_the_other_columns_line_is_cut_at_the_gutter(backend: str) -> None:
    # lineno-4 (Times): a right-hand heading (12 pt, its space wider than the 10 pt
    # gutter) made one line with the left-hand line level with it and the gutter number
    # between them with pypdfium2 ("... in ac-215 Project global stable") before the fix.
    doc = docparse.parse(PAIRS / "lineno-4.pdf", backend=backend)
    texts = [u.text for u in doc.content_units()]
    heads = [u.text for u in doc.units if u.kind == "heading"]
    assert "Project global stable" in heads
    assert not any("215" in t.split() for t in texts)

"""benchmarks.doc_pairs: the generator is seeded and names its running heads; the scorer counts."""

from __future__ import annotations

from benchmarks.doc_pairs import GROUPS, DocScore, summary_row
from benchmarks.doc_pairs_tex import DOC_FAMILIES, furniture_of, generate_doc


def test_every_family_generates_a_seeded_document() -> None:
    for family in DOC_FAMILIES:
        text = generate_doc(family, 3)
        assert text == generate_doc(family, 3)
        assert r"\begin{document}" in text and r"\section" in text
        assert text.startswith("% furniture:")
    assert generate_doc("article", 1) != generate_doc("article", 2)
    assert r"\linenumbers" in generate_doc("lineno", 1)
    assert r"\chapter" in generate_doc("report", 1)


def test_furniture_line_names_the_running_heads() -> None:
    heads = [furniture_of(generate_doc("article", seed)) for seed in range(1, 9)]
    assert any(heads) and not all(heads)
    for seed, names in enumerate(heads, 1):
        for name in names:
            assert f"{{{name}}}" in generate_doc("article", seed)
    assert furniture_of("% furniture: A head | B\n\\documentclass{article}") == ["A head", "B"]


def test_summary_row_adds_the_documents() -> None:
    kinds = {g: (0, 0) for g in GROUPS} | {"para": (10, 9), "head": (4, 2)}
    one = DocScore("a-1", "a", "pymupdf", 2, kinds, (4, 3, 2), 1.0, 1, 0, 10, 0, 1, 4, 0.1, (4, 3))
    row = summary_row("pymupdf", [one, one])
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:4] == ["2", "28", f"{22 / 28:.3f}"]
    assert cells[4] == "0.900" and cells[6] == "0.500"
    # Captions read whole: 6 of 8, after the groups' columns.
    assert cells[4 + len(GROUPS)] == "0.750"
    assert "4/6/8" in cells

"""benchmarks.math_pairs: the generator is seeded and writes every construct it names."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from benchmarks.math_pairs import features, pairs_in, score_pair
from benchmarks.math_pairs_gen import FAMILIES, generate


def test_generator_is_seeded_and_varies_by_family() -> None:
    for family in FAMILIES:
        text = generate(family, 3)
        assert text == generate(family, 3)
        assert r"\begin{document}" in text and "$" in text
    assert generate("cm", 1) != generate("cm", 2)
    assert "twocolumn" in generate("cm2col", 1) and "mathpazo" in generate("palatino", 1)


def test_generated_documents_hold_the_constructs_papers_use() -> None:
    text = "\n".join(generate(f, s) for f in FAMILIES for s in range(1, 4))
    for env in ("equation", "equation*", "align", "gather", "multline", "split", "itemize"):
        assert rf"\begin{{{env}}}" in text, env
    for construct in (r"\tag{", r"\[", r"\nonumber", r"\operatorname{", r"\text{"):
        assert construct in text, construct
    held = set(features(text))
    assert held == {
        "fraction", "big operator", "root", "matrix", "cases", "rows", "text", "accent",
        "font", "operator name", "delimiters", "nested script",
    }  # fmt: skip


def test_features() -> None:
    assert features(r"\frac{a}{b} + \sum_{i} x_{i_j}") == (
        "fraction",
        "big operator",
        "nested script",
    )
    assert features(r"\begin{pmatrix} a \\ b \end{pmatrix}") == ("matrix",)
    assert features(r"a &= b \\ &= c") == ("rows",)


PAIRS = Path(__file__).resolve().parents[2] / "fixtures" / "math_generated"


@pytest.mark.parametrize("path", sorted(PAIRS.glob("*.tex")), ids=lambda p: p.stem)
def test_committed_pairs_are_what_their_seed_generates(path: Path) -> None:
    family, seed = path.stem.rsplit("-", 1)
    assert generate(family, int(seed)) == path.read_text(encoding="utf-8")


def test_every_equation_of_the_committed_pairs_is_located_with_pymupdf() -> None:
    # cm-4 eq. (6) was glued to a paragraph (.750); palatino-2's pmatrix
    # equation shared no glyph 3-gram with its print (0.000).
    for name, family, tex, pdf in pairs_in(PAIRS):
        score = score_pair(name, family, docparse.parse(tex), docparse.parse(pdf), "pymupdf")
        assert score.inline == score.inline_found
        missed = [(e.coverage, e.twin_text) for e in score.equations if not e.located]
        assert not missed, missed

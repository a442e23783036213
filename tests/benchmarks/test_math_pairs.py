"""benchmarks.math_pairs: the generator is seeded and writes every construct it names."""

from __future__ import annotations

from benchmarks.math_pairs import features
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

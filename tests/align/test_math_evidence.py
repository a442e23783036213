"""Math evidence: LaTeX rendered to the glyphs a PDF prints, located in a PDF parse.

The PDF fixture (fixtures/math/constructs.pdf) was compiled from
constructs.tex beside it with pdflatex; these tests need no TeX Live.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from align.locate import Locator
from align.math import GlyphIndex, glyphs, has_math, render_math, render_text, tile
from docparse.model import Document


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        # fraction: numerator, then denominator
        (r"\frac{m v^{2}}{2}", "mv22"),
        # sum with limits: the operator, its upper then lower limit (TeX sets the upper first)
        (r"\sum_{k=1}^{\infty} a_k", "∑∞k=1ak"),
        (r"\sum^{n}_{k=1} a_k", "∑nk=1ak"),
        # matrix: cells row by row, sized delimiters dropped
        (r"\left( \begin{array}{cc} a & b \\ c & d \end{array} \right)", "abcd"),
        (r"\begin{pmatrix} p_{11} & p_{12} \\ p_{21} & p_{22} \end{pmatrix}", "p11p12p21p22"),
        # cases: value then condition, row by row
        (
            r"\begin{cases} -1 & \text{if } x < 0 \\ 1 & \text{otherwise} \end{cases}",
            "-1ifx<01otherwise",
        ),
        # sub/superscripts flattened, a superscript before the subscript of its base;
        # fonts, labels, spacing dropped
        (r"T^{\mu\nu}_{\lambda} \, \mathrm{d}x \label{eq:t}", "tμνλdx"),
        (r"\mathcal{L}_{n}^{\star} \quad \bm{x}", "l⋆nx"),
        (r"x_{i_{j}}^{(k)} + y_{n}", "x(k)ij+yn"),
        # symbols the LaTeX renderer leaves out; literal braces and norms kept
        (r"a \ne b \land \neg c", "a≠b∧¬c"),
        (r"\{ x \colon \| x \| \le 1 \}", "{x:‖x‖≤1}"),
        (r"\[ E = m c^2 \nonumber \]", "e=mc2"),
        (r"\begin{align} a &= b \\ c &\leq d \end{align}", "a=bc≤d"),
    ],
)
def test_render_math_constructs(tex: str, expected: str) -> None:
    assert glyphs(render_math(tex), rendered=True) == expected


def test_glyphs_fold_what_a_text_layer_prints() -> None:
    # Math italic letters, a minus sign, accents printed apart, variation selectors.
    assert glyphs("𝑥𝑖 − ˆa ∑︁ · · ·") == glyphs(r"$x_i - \hat{a} \sum \cdots$")
    # Negated relations keep their slash: ≠ is not =.
    assert glyphs("a ≠ b") != glyphs("a = b")
    # A text layer may print the slash before its = (quantum template p5: "A̸ = B").
    assert glyphs("A\u0338 = B") == glyphs(r"\[ A \neq B \]") == glyphs("A ≠ B")
    # ... or set apart from both sides (pdfplumber: "φ(k) ̸= p", pypdfium2: "h ̸ = k").
    assert glyphs("φ(k) \u0338= p") == glyphs("φ(k) \u0338 = p") == "φ(k)≠p"
    assert glyphs("a \u0338= b") == glyphs(r"$a \ne b$") == "a≠b"
    # TeX's fonts name \Delta INCREMENT and \ast ASTERISK OPERATOR.
    assert glyphs("\u2206t \u2217 x") == glyphs(r"$\Delta t * x$")


def test_has_math_and_render_text() -> None:
    assert has_math(r"the mass $M_\star$ of the star")
    assert has_math(r"\begin{equation} x \end{equation}")
    assert not has_math("costs $5 and $6 per unit")
    assert render_text(r"mass $M_\star$ here").split() == ["mass", "M", "⋆", "here"]


def test_tile_finds_reordered_blocks_and_ignores_far_chance() -> None:
    ev = "∑i=0∞xi=∫0π+2f"
    # The parser printed the upper limits first and the lower limits last.
    window = "∞∫π+2∑f(2)xi=i=0"
    got = sum(b[1] - b[0] for b in tile(ev, window))
    assert got == len(ev) - 1  # all but the integral's lower limit "0", which is not printed
    # Single glyphs far outside the matched runs are not counted.
    far = "x" * 40 + "abc" + "q" * 40 + "∑"
    assert sum(b[1] - b[0] for b in tile("abc∑", far)) == 3


def test_glyph_index_item_spans() -> None:
    idx = GlyphIndex(["Notice the equation:", "∞", "∑︁ 𝑥 + 1 𝑖=0 and more"])
    hit = idx.find(r"\[ \sum_{i=0}^{\infty} x + 1 \]")
    assert hit is not None and hit.coverage == 1.0
    assert sorted(hit.items) == [1, 2]


def test_glyph_index_seeds_a_short_reordered_formula_with_glyph_pairs() -> None:
    # A column vector's top cell printed before the row of its relation: no
    # three glyphs in a row are shared, so no 3-gram seeds a window.
    idx = GlyphIndex(["The bound below holds for every state.", "z ψ ≤ t x (5)", "Then"])
    hit = idx.find(r"\[ \psi \le \begin{bmatrix} z \\ t \\ x \end{bmatrix} \]")
    assert hit is not None and hit.coverage == 1.0 and sorted(hit.items) == [1]
    # Pairs seed, they do not make a match: glyphs scattered far apart stay unfound.
    assert idx.find(r"\[ q \le \begin{bmatrix} k \\ w \end{bmatrix} \]") is None


@pytest.fixture(scope="module")
def pdf_and_twin(fixtures_dir: Path) -> tuple[Document, Document]:
    from docparse.api import parse

    return parse(fixtures_dir / "math" / "constructs.pdf", backend="pymupdf"), parse(
        fixtures_dir / "math" / "constructs.tex", format="tex"
    )


# Page of the constructs.pdf each construct is on, keyed by a string of its LaTeX.
CONSTRUCT_PAGES = {
    "fraction": (r"\frac{m v^{2}}{2}", 1),
    "sum with limits": (r"\sum_{k=1}^{\infty}", 2),
    "matrix": (r"\begin{pmatrix}", 3),
    "cases": (r"\begin{cases}", 4),
    "sub/superscripts": (r"T^{\mu\nu}_{\lambda}", 5),
}


@pytest.mark.parametrize("construct", list(CONSTRUCT_PAGES))
def test_twin_equation_located_in_pdf(
    construct: str, pdf_and_twin: tuple[Document, Document]
) -> None:
    pdf, twin = pdf_and_twin
    key, page = CONSTRUCT_PAGES[construct]
    units = [u for u in twin.units if u.kind == "equation" and key in u.text]
    assert len(units) == 1, [u.text for u in twin.units if u.kind == "equation"]
    m = Locator(pdf).locate(units[0].text)
    assert m.found and m.coverage >= 0.9, (m, units[0].text)
    assert m.page == page


def test_inline_math_paragraph_located(pdf_and_twin: tuple[Document, Document]) -> None:
    pdf, twin = pdf_and_twin
    para = next(u for u in twin.units if u.kind == "paragraph" and "inline" in u.text)
    m = Locator(pdf).locate(para.text)
    assert m.found and m.coverage >= 0.9 and m.page == 5


def test_equation_from_elsewhere_is_not_found(pdf_and_twin: tuple[Document, Document]) -> None:
    pdf, _ = pdf_and_twin
    m = Locator(pdf).locate(
        r"\begin{equation} \nabla \times \vec{B} = \mu_0 \vec{J} + \mu_0 \epsilon_0"
        r" \frac{\partial \vec{E}}{\partial t} \end{equation}"
    )
    assert not m.found


def test_project_reports_equation_units(pdf_and_twin: tuple[Document, Document]) -> None:
    from align.project import project

    pdf, twin = pdf_and_twin
    proj = project(twin, pdf)
    eqs = proj.equations
    assert len(eqs) == sum(u.kind == "equation" for u in twin.units) == 5
    assert all(e.similarity >= 0.9 and e.status in ("matched", "split") for e in eqs), eqs
    summary = proj.summary()["equations"]
    assert summary["units"] == 5 and summary["located"] == 1.0
    assert sum(summary["statuses"].values()) == 5
    # An equation the PDF does not print is missing, not found by its letters.
    other = project(_twin_with(r"\[ \oint_{\partial\Omega} \omega = \int_\Omega d\omega \]"), pdf)
    assert other.equations[0].status in ("missing", "partial")


def _twin_with(equation: str) -> Document:
    from docparse.builder import UnitDraft, build_document

    return build_document(
        path="x.tex",
        format="tex",
        backend="tex",
        doc_id="t",
        drafts=[UnitDraft("equation", equation)],
    )

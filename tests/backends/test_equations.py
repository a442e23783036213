"""Display equations in PDF parses: one ``equation`` unit each, prose kept apart (fixtures/pdf)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from align.math import GlyphIndex
from docparse.backends.equations import gather_equations, is_math_font
from docparse.backends.pages import Block, Line, PageContent, TextSpan
from docparse.export import to_markdown
from docparse.model import BBox

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"
BACKENDS = ["pymupdf", "pypdfium2", "pdfplumber"]


def _glyphs(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("backend", BACKENDS)
def test_display_equations_are_one_unit_each_between_their_prose(backend: str) -> None:
    # acmart sample p3, section 11.2: lim_{n->oo} x = 0 (1), an unnumbered
    # sum with limits above and below, and sum = integral (2) whose integral's
    # lower limit "0" sits alone on a baseline below. Before, the limits were
    # glued to the next prose, "0" taken for a page number, "(2)" left alone.
    doc = docparse.parse(FIXTURES / "acmart-equations" / "acmart-p3.pdf", backend=backend)
    units = [u for u in doc.units if u.kind != "furniture"]
    eqs = [u for u in units if u.kind == "equation"]
    assert len(eqs) == 3
    first, second, third = (_glyphs(u.text) for u in eqs)
    assert "lim" in first and first.endswith("(1)") and "𝑥=0" in first
    assert "𝑖=0" in second and "∞" in second and "𝑥+1" in second and "(" not in second
    assert third.endswith("(2)") and "∫" in third and "𝜋+2" in third and "0" in third
    # The prose around them stays prose, whole.
    texts = [u.text for u in units if u.kind == "paragraph"]
    assert "and follow it with another numbered equation:" in texts
    after = units[units.index(eqs[1]) + 1]
    assert after.kind == "paragraph" and after.text.startswith("and follow it")
    assert not [u for u in doc.units if u.kind == "furniture" and u.text.strip() == "0"]
    # The twin's equations are found whole in the parse's glyphs.
    index = GlyphIndex([u.text for u in units])
    for tex in (
        r"\[ \lim_{n\rightarrow \infty}x=0 \]",
        r"\[ \sum_{i=0}^{\infty}x_i=\int_{0}^{\pi+2} f \]",
    ):
        hit = index.find(tex)
        assert hit is not None and hit.coverage >= 0.9, tex
    assert "$$\n" in to_markdown(doc)


@pytest.mark.parametrize("backend", BACKENDS)
def test_glyphs_of_one_baseline_in_fonts_of_different_heights_make_one_row(backend: str) -> None:
    # asmejour template p1, equation (1) q = -k grad T: pdfplumber reads the
    # txsys glyphs (minus, nabla) as a line 7 pt below the others, pypdfium2
    # the bold q on its own; one row in reading order either way.
    doc = docparse.parse(FIXTURES / "asmejour-equations" / "asmejour-p1.pdf", backend=backend)
    [eq] = [u for u in doc.units if u.kind == "equation"]
    assert _glyphs(eq.text) == "q=−𝑘∇𝑇(1)"


@pytest.mark.parametrize("backend", BACKENDS)
def test_numbered_rows_of_one_alignment_keep_their_numbers(backend: str) -> None:
    # quantum template p2: an align of four rows numbered (1) to (4). pdfplumber's
    # words read it as a table of two columns before table_checks.numbered_display.
    doc = docparse.parse(FIXTURES / "quantum-template" / "quantum-template.pdf", backend=backend)
    eqs = [_glyphs(u.text) for u in doc.units if u.kind == "equation" and u.page == 2]
    joined = "".join(eqs)
    for number in ("(1)", "(2)", "(3)", "(4)"):
        assert joined.count(number) == 1
    assert "a2+b2=c2" in joined


def _line(text: str, x0: float, y0: float, *, size: float = 10.0, font: str = "CMR10") -> Line:
    box = BBox(x0, y0, x0 + 0.5 * size * len(text), y0 + size)
    return Line((TextSpan(text, box, size, False, font),), box)


def _page(*lines: Line) -> PageContent:
    return PageContent(1, 600, 800, blocks=tuple(Block((ln,), ln.bbox) for ln in lines))


def _prose(y: float) -> Line:
    # A full line of running text in a column from 72 to 300.
    ln = _line("running text of the column goes here and on", 72, y)
    box = BBox(72, y, 300, y + 10)
    return Line((TextSpan(ln.text, box, 10.0, False, "CMR10"),), box)


def test_a_centred_math_line_between_prose_lines_is_an_equation() -> None:
    eq = _line("α + β = γ", 160, 130, font="CMMI10")
    blocks = gather_equations(_page(_prose(100), _prose(112), eq, _prose(150), _prose(162)))
    roles = [b.role for b in blocks]
    assert roles.count("equation") == 1
    assert [b.text for b in blocks if b.role == "equation"] == ["α + β = γ"]


def test_text_font_subscript_labels_do_not_make_a_math_line_prose() -> None:
    # arXiv 2510.22211 eq. (1): t_{\rm fb} ~ 0.11 beta^-3 yr, its "fb" label a
    # 7 pt subscript and "yr" a unit, both in the text font.
    def span(text: str, x0: float, size: float, font: str) -> TextSpan:
        return TextSpan(
            text, BBox(x0, 130, x0 + 0.5 * size * len(text), 130 + size), size, False, font
        )

    spans = (
        span("t", 150, 10, "NimbusRomNo9L-ReguItal"),
        span("fb", 155, 7, "NimbusRomNo9L-Regu"),
        span("≈ 0.11", 165, 10, "CMSY10"),
        span("β", 200, 10, "CMMI10"),
        span("yr", 210, 10, "NimbusRomNo9L-Regu"),
    )
    eq = Line(spans, BBox(150, 130, 220, 140))
    blocks = gather_equations(_page(_prose(100), _prose(112), eq, _prose(150), _prose(162)))
    assert [b.text for b in blocks if b.role == "equation"] == [eq.text]
    # A line of the text font in one size keeps its words: prose.
    words = Line(
        (span("the flux in", 150, 10, "NimbusRomNo9L-Regu"), span("β", 210, 10, "CMMI10")),
        BBox(150, 130, 220, 140),
    )
    blocks = gather_equations(_page(_prose(100), _prose(112), words, _prose(150), _prose(162)))
    assert not [b for b in blocks if b.role == "equation"]
    # A figure's axis label, centred, with a unit and no relation: no formula.
    axis = Line(
        (span("λ", 170, 10, "CMMI10"), span("[nm]", 178, 10, "NimbusRomNo9L-Regu")),
        BBox(170, 130, 198, 140),
    )
    blocks = gather_equations(_page(_prose(100), _prose(112), axis, _prose(150), _prose(162)))
    assert not [b for b in blocks if b.role == "equation"]


def test_text_beside_math_on_its_rows_keeps_it_prose() -> None:
    # A table row: a label cell in text beside a formula cell.
    label = _line("Measured", 72, 130)
    eq = _line("α + β", 160, 130, font="CMMI10")
    blocks = gather_equations(_page(_prose(100), _prose(112), label, eq, _prose(150)))
    assert not [b for b in blocks if b.role == "equation"]


def test_a_lone_symbol_and_an_off_centre_formula_are_not_equations() -> None:
    lone = _line("∞", 180, 130, font="CMSY10")
    off = _line("α + β = γ", 80, 200, font="CMMI10")
    blocks = gather_equations(
        _page(_prose(100), _prose(112), lone, _prose(150), _prose(170), off, _prose(220))
    )
    assert not [b for b in blocks if b.role == "equation"]


def test_rows_of_cells_are_a_table_not_an_equation() -> None:
    spans = []
    rows = []
    for y in (130, 142, 154):
        cells = [
            TextSpan(t, BBox(x, y, x + 12, y + 10), 10.0, False, "CMMI10")
            for t, x in (("α", 110), ("β", 170), ("γ", 230))
        ]
        spans.extend(cells)
        rows.append(Line(tuple(cells), BBox(110, y, 242, y + 10)))
    blocks = gather_equations(_page(_prose(100), _prose(112), *rows, _prose(180), _prose(192)))
    assert not [b for b in blocks if b.role == "equation"]


def test_gaps_under_big_operator_limits_are_no_cell_gutters() -> None:
    # Generated pair cm-4, eq. (6): g ∝ (∫ v dx + ∑ T + ∏ m × π). The
    # operators are glyphs of TeX's extension font without a Unicode map, left
    # out; the three gaps they leave in the main row were read as a table
    # row's gutters. Their limits above and below sit in those gaps.
    def span(text: str, x0: float, x1: float, y0: float, size: float) -> TextSpan:
        return TextSpan(text, BBox(x0, y0, x1, y0 + size), size, False, "CMMI10")

    row = [span(t, x0, x1, 132, 10.9) for t, x0, x1 in (
        ("g ∝", 100, 120), ("v dx +", 150, 180), ("T +", 205, 225), ("m × π", 250, 280)
    )]  # fmt: skip
    main = Line(tuple(row), BBox(100, 132, 280, 142.9))
    limits = [
        Line((sp,), sp.bbox)
        for sp in (
            span("∞", 128, 140, 124, 7),
            span("−∞", 125, 143, 144, 7),
            span("∞", 188, 196, 124, 7),
            span("m=1", 185, 200, 144, 7),
            span("∞", 230, 238, 124, 7),
            span("l=1", 228, 243, 144, 7),
        )
    ]
    page = _page(_prose(98), _prose(110), *limits, main, _prose(165), _prose(177))
    eqs = [b for b in gather_equations(page) if b.role == "equation"]
    assert len(eqs) == 1 and "m × π" in eqs[0].text and "m=1" in eqs[0].text
    # Without the limits the same row is three gutters: a table's row.
    page = _page(_prose(98), _prose(110), main, _prose(165), _prose(177))
    assert not [b for b in gather_equations(page) if b.role == "equation"]


def test_one_row_of_cells_is_a_table_row_not_an_equation() -> None:
    # ICDAR eu-016's age bands: "5-14 15-24 25-44 45-64 ≥65", centred in the page.
    cells = [
        TextSpan(t, BBox(x, 130, x + 20, 140), 10.0, False, "Helvetica")
        for t, x in (("5-14", 100), ("15-24", 140), ("25-44", 180), ("45-64", 220), ("≥65", 260))
    ]
    row = Line(tuple(cells), BBox(100, 130, 280, 140))
    blocks = gather_equations(_page(_prose(100), _prose(112), row, _prose(150), _prose(162)))
    assert not [b for b in blocks if b.role == "equation"]


def test_one_run_spread_over_the_width_is_a_table_row() -> None:
    # pypdfium2 reads ICDAR eu-016's age bands as one run 230 pt wide, of size 1
    # (PDFium's size for text drawn through a scaled matrix).
    box = BBox(80, 130, 310, 136)
    row = Line((TextSpan("5-14 15-24 25-44 45-64 ≥65", box, 1.0, False, "MyriadPro"),), box)
    blocks = gather_equations(_page(_prose(100), _prose(112), row, _prose(150), _prose(162)))
    assert not [b for b in blocks if b.role == "equation"]


def test_math_fonts_are_known_by_name() -> None:
    for name in ("CMMI10", "ABCDEF+CMSY7", "txmiaX", "NewTXMI7", "LibertineMathMI", "MSBM10"):
        assert is_math_font(name), name
    for name in ("CMR10", "ABCDEF+TeXGyreTermesX-Regular", "LinLibertineT", "Helvetica"):
        assert not is_math_font(name), name


def _pages_read(pdf: Path, backend: str) -> list[PageContent]:
    """The pages as ``layout.page_items`` hands them to :func:`gather_equations`."""
    from docparse.backends import layout

    seen: list[PageContent] = []
    keep = layout.gather_equations

    def record(page: PageContent) -> tuple[Block, ...]:
        seen.append(page)
        return keep(page)

    layout.gather_equations = record
    try:
        docparse.parse(pdf, backend=backend, config={"tables": False})
    finally:
        layout.gather_equations = keep
    return seen


@pytest.mark.parametrize("backend", ["pymupdf", "pypdfium2"])
def test_the_quick_page_test_passes_every_page_with_a_math_line(backend: str) -> None:
    # gather_equations skips the line-by-line reading on a page the quick test
    # rules out; it must never rule out a page with a math line (output would
    # change), and it should rule out pages of prose and of figures in a table.
    from docparse.backends.equations import _may_hold_math, _sort_lines

    pages = [
        page
        for name in ("acmart-equations", "asmejour-equations", "GS_2016-p118", "JNJ_2022Q4-p8")
        for pdf in sorted((FIXTURES / name).glob("*.pdf"))
        for page in _pages_read(pdf, backend)
    ]
    ruled_out = 0
    for page in pages:
        math = _sort_lines(page.blocks)[1]
        if not _may_hold_math(page.blocks):
            assert not math, page.number
            ruled_out += 1
    math_pages = [p for p in pages if _sort_lines(p.blocks)[1]]
    assert ruled_out >= 2 and len(math_pages) >= 2


def test_a_formula_known_by_its_font_alone_passes_the_quick_test() -> None:
    # Letters of a math font mapped to plain ASCII (no math glyph in the text):
    # only the font tells, and the quick page test must look at it.
    eq = _line("f ( x ) 2", 160, 130, font="ABCDEF+CMMI10")
    blocks = gather_equations(_page(_prose(100), _prose(112), eq, _prose(150), _prose(162)))
    assert [b.text for b in blocks if b.role == "equation"] == ["f ( x ) 2"]


MATH_PAIRS = Path(__file__).resolve().parents[2] / "fixtures" / "math_generated"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_equation_of_big_operators_is_one_unit_apart_from_the_prose_after(
    backend: str,
) -> None:
    # Generated pair cm-4 (Computer Modern), eq. (6) (see the test above): it
    # was not gathered and pymupdf and pdfplumber glued it to the paragraph
    # after it ("... mi × π ... W the proof lies validation ...").
    doc = docparse.parse(MATH_PAIRS / "cm-4.pdf", backend=backend)
    # (Its parentheses, from the extension font, are read since.)
    held = [u for u in doc.units if "×π+Q" in _glyphs(u.text).replace(")", "")]
    assert [u.kind for u in held] == ["equation"], [u.text for u in doc.units if "π" in u.text]
    assert "∞" in held[0].text and _glyphs(held[0].text).endswith("(6)")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_text_words_of_cases_are_the_equations_own(backend: str) -> None:
    # Generated pair palatino-2: Q(Φ) < {log Θ × sgn(Z) if U > 0; p⁻¹ else}.
    # "else" is a word in the text font, which made the formula's rows
    # "shared with text": not gathered, and pymupdf glued it to the prose after.
    doc = docparse.parse(MATH_PAIRS / "palatino-2.pdf", backend=backend)
    # (With its brace read, pymupdf reads the formula's rows as one row, the
    # relation's row between them overlapping both: "ifelse".)
    held = [u for u in doc.units if "else" in u.text]
    assert [u.kind for u in held] == ["equation"]
    assert "sgn" in held[0].text and "if" in held[0].text


def test_a_word_inside_a_formulas_box_joins_it_and_a_label_beside_it_does_not() -> None:
    value = _line("α + β", 150, 130, font="CMMI10")
    cond = _line("if x > 0", 190, 130, font="CMMI10")
    other = _line("γ − 1", 150, 142, font="CMMI10")
    word = _line("otherwise", 190, 142)
    page = _page(_prose(100), _prose(112), value, cond, other, word, _prose(160), _prose(172))
    eqs = [b for b in gather_equations(page) if b.role == "equation"]
    assert len(eqs) == 1 and "otherwise" in eqs[0].text
    # A label left of the formula, outside its box: a table row, prose.
    label = _line("Measured", 72, 142)
    page = _page(_prose(100), _prose(112), value, cond, other, label, _prose(160), _prose(172))
    assert not [b for b in gather_equations(page) if b.role == "equation"]

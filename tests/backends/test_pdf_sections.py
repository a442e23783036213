"""Headings of PDF pages: levels from numbering and style, numbers joined, paths that nest."""

from __future__ import annotations

from synthetic_pages import block as _block
from synthetic_pages import build as _build
from synthetic_pages import line as _line

from docparse.backends.base import Line, PageContent, TextSpan
from docparse.backends.headings import assign_levels, is_section_number, numbering
from docparse.backends.items import Item
from docparse.model import BBox


def _heading(text: str, size: float, bold: bool = True, font: str = "Bold") -> Item:
    return Item(1, BBox(72, 72, 300, 84), [text], size, bold, font=font)


def test_numbering_schemes() -> None:
    assert numbering("3.2.1 Results") == ("decimal", 3)
    assert numbering("A.1 Proofs") == ("decimal", 2)
    assert numbering("II. MATH AND EQUATIONS") == ("roman", 1)
    assert numbering("B. Footnotes") == ("letter", 1)
    assert numbering("B ONLINE RESOURCES") == ("letter", 1)
    assert numbering("A Study of Things") == ("", 0)
    assert numbering("Results") == ("", 0)
    assert is_section_number("A.1") and is_section_number("II.") and is_section_number("3.2")
    assert not is_section_number("Results")


def test_unnumbered_heading_in_a_numbered_style_goes_below_the_numbering_in_effect() -> None:
    hs = [
        _heading("1. Introduction", 12),
        _heading("1.1. Sub-sections", 11),
        _heading("1.1.1. Sub-sub-sections", 11, bold=False, font="Caps"),
        # \paragraph: set like the numbered sub-sections, but inside 1.1.1
        _heading("Sub-sub-sub-sections", 11),
        # \subparagraph: a style no numbered heading uses, first seen under it
        _heading("Sub-sub-sub-sub-sections", 11, font="BoldItalic"),
        _heading("2. Methods", 12),
        # the same style as the sub-sections, under a level-1 section only
        _heading("Theorem 1 (Powers)", 11),
        _heading("Lemma 2 (A Lemma)", 11),
        _heading("References", 12),
    ]
    assign_levels(hs)
    assert [h.level for h in hs] == [1, 2, 3, 4, 5, 1, 2, 2, 1]


def test_roman_and_letter_numbering_nest() -> None:
    hs = [
        _heading("I. INTRODUCTION", 10, bold=False),
        _heading("A. Footnotes", 10, bold=False, font="Italic"),
        _heading("II. MATH AND EQUATIONS", 10, bold=False),
    ]
    assign_levels(hs)
    assert [h.level for h in hs] == [1, 2, 1]


def test_unnumbered_documents_rank_heading_styles_by_size_then_weight() -> None:
    hs = [_heading("Chapter", 16), _heading("Part", 12), _heading("Aside", 12, bold=False)]
    hs.append(_heading("Next Chapter", 16))
    assign_levels(hs)
    assert [h.level for h in hs] == [1, 2, 3, 1]


def test_heading_paths_nest_and_headings_record_their_parents() -> None:
    page = PageContent(
        1,
        612,
        792,
        blocks=(
            _block(_line("1 Introduction", 72, 100, size=12, bold=True)),
            _block(_line("Some introductory words.", 72, 130)),
            _block(_line("1.1 Details", 72, 200, size=10, bold=True)),
            _block(_line("More words about details.", 72, 230)),
            _block(_line("2 Methods", 72, 300, size=12, bold=True)),
            _block(_line("Words about methods.", 72, 330)),
        ),
    )
    doc = _build([page])
    by_text = {u.text: u for u in doc.units}
    assert by_text["1 Introduction"].section == ()
    assert by_text["1.1 Details"].section == ("1 Introduction",)
    assert by_text["More words about details."].section == ("1 Introduction", "1.1 Details")
    assert by_text["2 Methods"].section == ()
    assert by_text["Words about methods."].section == ("2 Methods",)


def test_a_heading_number_on_its_own_line_joins_the_title_beside_it() -> None:
    # "RESEARCH METHODS" and the next heading's number "A.1" in one block,
    # its title "Part One" beside the number on the same baseline.
    title = _block(
        _line("RESEARCH METHODS", 81, 533, size=11, bold=True),
        _line("A.1", 54, 548, size=11, bold=True),
    )
    number = _block(_line("A", 54, 533, size=11, bold=True))
    part = _block(_line("Part One", 81, 548, size=11, bold=True))
    body = _block(_line("Lorem ipsum dolor sit amet, consectetur.", 54, 570))
    doc = _build([PageContent(1, 612, 792, blocks=(number, title, part, body))])
    heads = [u.text for u in doc.units if u.kind == "heading"]
    assert heads == ["A RESEARCH METHODS", "A.1 Part One"]
    para = next(u for u in doc.units if u.kind == "paragraph")
    assert para.section == ("A RESEARCH METHODS", "A.1 Part One")


def test_symbols_of_a_bold_formula_are_no_heading() -> None:
    page = PageContent(
        1,
        612,
        792,
        blocks=(
            _block(_line("Plain body text of the page goes on here.", 72, 100)),
            _block(_line("QN", 200, 140, bold=True)),
            _block(_line("More plain body text of the page here.", 72, 180)),
        ),
    )
    doc = _build([page])
    assert not [u for u in doc.units if u.kind == "heading"]


def test_a_short_right_column_is_still_read_after_the_left_one() -> None:
    # The last page of a paper: a long left column of references, a short
    # right column (an appendix section) at its top.
    left = [
        _block(_line(f"[{i}] Author {i}. A referenced work, its venue, year.", 54, 90 + 20 * i))
        for i in range(20)
    ]
    right = [
        _block(_line("B ONLINE RESOURCES", 318, 86, size=11, bold=True)),
        _block(
            *(_line(f"Nam id fermentum dui, line {i} of it", 318, 101 + 12 * i) for i in range(4))
        ),
        _block(
            *(_line(f"Nam interdum magna at lectus {i} and", 318, 156 + 12 * i) for i in range(4))
        ),
    ]
    doc = _build([PageContent(1, 612, 792, blocks=tuple(right + left))])
    texts = [u.text for u in doc.units if u.kind != "furniture"]
    assert texts.index("B ONLINE RESOURCES") > texts.index(
        "[19] Author 19. A referenced work, its venue, year."
    )


def _spans_line(*parts: tuple[str, bool], x0: float, y0: float, size: float = 10.0) -> Line:
    """One line of several spans (text, bold) side by side."""
    spans, x = [], x0
    for text, bold in parts:
        box = BBox(x, y0, x + 0.5 * size * len(text), y0 + size)
        spans.append(TextSpan(text, box, size, bold, "Bold" if bold else "Times"))
        x = box.x1 + 0.3 * size
    return Line(tuple(spans), BBox(x0, y0, x, y0 + size))


def test_a_numbered_run_in_heading_is_split_off_its_paragraph() -> None:
    body = "the text of the sub-section goes on"
    page = PageContent(
        1,
        612,
        792,
        blocks=(
            _block(_line("3 Sections", 72, 80, size=12, bold=True)),
            _block(
                # the number in a box of its own, the title bold, then the text
                _spans_line(("3.1", True), ("Sub-sections.", True), (body, False), x0=72, y0=100),
                _line("and on over the next line of the paragraph.", 72, 112),
            ),
            _block(
                # a bold lead-in without a multi-level number stays text
                _spans_line(("Note.", True), ("A note in its paragraph.", False), x0=72, y0=140)
            ),
        ),
    )
    doc = _build([page])
    heads = [u for u in doc.units if u.kind == "heading"]
    assert [h.text for h in heads] == ["3 Sections", "3.1 Sub-sections"]
    assert heads[1].section == ("3 Sections",)
    para = next(u for u in doc.units if u.text.startswith("the text"))
    assert para.section == ("3 Sections", "3.1 Sub-sections")
    assert any(u.text.startswith("Note.") and u.kind == "paragraph" for u in doc.units)


def test_contents_list_entries_are_no_headings() -> None:
    entries = [
        _block(_line(f"{i}.1 Entry number {i} . . . . . . . . . . {10 * i}", 72, 100 + 14 * i))
        for i in range(1, 7)
    ]
    title = _block(_line("Contents", 72, 72, size=20, bold=True))
    doc = _build([PageContent(3, 612, 792, blocks=(title, *entries))])
    assert [u.text for u in doc.units if u.kind == "heading"] == ["Contents"]


def test_chapter_titles_in_capitals_rank_above_sections_of_the_same_size() -> None:
    hs = [
        _heading("SCOPE OF THIS DOCUMENT", 14),
        _heading("APPLYING TO BECOME A MEMBER", 14),
        _heading("2.1 Getting started", 14),
        _heading("2.2 Mentors", 14),
        _heading("DEBIAN DEVELOPER DUTIES", 14),
        _heading("3.1 Package duties", 14),
        _heading("3.1.1 Work towards the release", 12),
    ]
    assign_levels(hs)
    assert [h.level for h in hs] == [1, 1, 2, 2, 1, 2, 3]


def test_unnumbered_headings_rank_against_the_text_they_introduce() -> None:
    # Methods in 7 pt under a 7 pt heading in capitals, results in 9 pt
    # under a 9 pt one: siblings; a bold lower-case heading ranks below.
    hs = [
        _heading("MATERIALS AND METHODS", 7),
        _heading("RESULTS", 9),
        _heading("Quantification of genes", 9),
        _heading("DISCUSSION", 9),
        _heading("Big Display Heading", 16, bold=False),
    ]
    after = {id(hs[0]): 7.0, id(hs[1]): 9.0, id(hs[2]): 9.0, id(hs[3]): 9.0, id(hs[4]): 9.0}
    assign_levels(hs, after)
    assert [h.level for h in hs] == [2, 2, 3, 2, 1]


def test_title_page_lines_are_no_headings() -> None:
    words = " ".join(["word"] * 12)
    page = PageContent(
        1,
        612,
        792,
        blocks=(
            _block(_line("A Paper Title", 72, 60, size=20, bold=True)),
            _block(_line("Ann Author, Bob Author", 72, 100, size=13)),
            _block(_line("ABSTRACT", 72, 130, size=10, bold=True)),
            _block(*(_line(words, 72, 150 + 12 * i) for i in range(4))),
            _block(_line("INTRODUCTION", 72, 220, size=10, bold=True)),
            _block(*(_line(words, 72, 240 + 12 * i) for i in range(4))),
        ),
    )
    doc = _build([page])
    assert doc.title == "A Paper Title"
    assert [u.text for u in doc.units if u.kind == "heading"] == ["ABSTRACT", "INTRODUCTION"]

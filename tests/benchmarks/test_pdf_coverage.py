"""benchmarks.pdf_coverage: which margin lines count as running headers/footers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.pdf_coverage import LaidOutPage, PageLine, pdftotext_layout, running_lines

H = 792.0
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"


def _line(text: str, y0: float, x0: float = 72.0, size: float = 10.0) -> PageLine:
    return PageLine(text, y0, y0 + size, x0, x0 + 6.0 * len(text))


def _body(y0: float, n: int = 30, page: int = 0) -> list[PageLine]:
    """A paragraph of ``n`` tightly set lines (their boxes overlap a little)."""
    words = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta")
    return [_line(f"{words[page % 7]} text line {k}", y0 + 9.6 * k) for k in range(n)]


def _found(pages: list[LaidOutPage]) -> set[str]:
    return {x for lines in running_lines(pages).values() for x in lines}


def test_repeated_head_and_page_number_are_running_lines() -> None:
    pages = [
        LaidOutPage(H, (_line("A Book Title", 30), *_body(80, 30, i), _line(str(i + 5), 760, 300)))
        for i in range(5)
    ]
    found = _found(pages)
    assert "A Book Title" in found
    assert {"5", "9"} <= found


def test_tightly_set_paragraph_lines_are_not_running_lines() -> None:
    # Line boxes of a paragraph overlap slightly; they do not share a baseline,
    # so no line of it is "set apart" from the next.
    pages = [LaidOutPage(H, tuple(_body(40, 30, i))) for i in range(6)]
    assert _found(pages) == set()


def test_repeated_table_header_row_under_the_running_head_is_no_running_line() -> None:
    # A table that runs over pages repeats its header row right under the
    # running head; the rows below start at the header cells' left edges.
    def page() -> LaidOutPage:
        rows = [_line("File", 75, 120), _line("Description", 75, 330)]
        for k in range(20):
            rows += [_line(f"name{k}", 92 + 16.5 * k, 120), _line(f"what {k}", 92 + 16.5 * k, 330)]
        return LaidOutPage(H, (_line("The Root Filesystem", 37, 260), *rows))

    found = _found([page() for _ in range(4)])
    assert "The Root Filesystem" in found
    assert not {"File", "Description"} & found


def test_table_head_in_the_band_and_units_lines_are_no_running_lines() -> None:
    # "% Change" heads a table that runs out of the top band: the table's
    # block is no margin block; "(In millions)" is a statement's units line.
    def page(i: int) -> LaidOutPage:
        table = [_line("% Change", 69, 517)]
        table += [_line(f"Row {k} {i}", 77 + 9.6 * k, 52) for k in range(20)]
        return LaidOutPage(
            H,
            (
                _line("Table of Contents", 12, 270),
                *_body(41, 2, i),
                *table,
                _line("(In millions)", 760, 280),
            ),
        )

    found = _found([page(i) for i in range(5)])
    assert found == {"Table of Contents"}


def test_label_read_with_its_title_does_not_repeat() -> None:
    # "Item 7." and "Item 8." open pages (under the running head) with
    # different titles beside them.
    pages = [
        LaidOutPage(
            H,
            (
                _line("Table of Contents", 22, 18),
                _line(f"Item {i}.", 61, 19),
                _line(("Risk Factors", "Properties", "Legal", "Market", "Controls")[i], 61, 82),
                *_body(90, 30, i),
            ),
        )
        for i in range(5)
    ]
    found = _found(pages)
    assert "Table of Contents" in found
    assert not any(x.startswith("Item") for x in found)


def test_changing_running_head_in_the_same_place_is_a_running_line() -> None:
    # Odd/even heads name the chapter: the text changes, the place does not.
    pages = [
        LaidOutPage(H, (_line(f"Chapter {chr(65 + i)} heading", 30, 72), *_body(80, 30, i)))
        for i in range(6)
    ]
    assert len(_found(pages)) == 6


def test_a_label_that_also_stands_alone_in_the_body_is_no_running_line() -> None:
    # "Experience:" over each director's text opens three pages and stands
    # in the body of four others; "Table of Contents" is a running head.
    pages = []
    for i in range(8):
        if i < 3:
            lines = (_line("Experience:", 60), *_body(80, 30, i))
        else:
            lines = (*_body(60, 20, i), _line("Experience:", 300), *_body(330, 20, i + 1))
        pages.append(LaidOutPage(H, (_line("Table of Contents", 20), *lines)))
    found = _found(pages)
    assert "Table of Contents" in found
    assert "Experience:" not in found


def test_a_statement_title_in_the_running_head_place_is_no_running_line() -> None:
    # "Notes to Financial Statements" heads most pages; one page's statement
    # title stands in the same place, right over the table's period line.
    def page(i: int) -> LaidOutPage:
        title = "Statements of Earnings" if i == 3 else "Notes to Financial Statements"
        lines = [_line("ACME INC. AND SUBSIDIARIES", 30), _line(title, 40)]
        if i == 3:
            lines += [_line("Year Ended December", 69, 460), *_body(82, 30, i)]
        else:
            lines += _body(69, 30, i)
        return LaidOutPage(H, tuple(lines))

    found = _found([page(i) for i in range(6)])
    assert "Notes to Financial Statements" in found
    assert "Statements of Earnings" not in found


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils' pdftotext")
def test_a_page_title_without_the_running_head_above_it_is_no_running_line() -> None:
    # Three MD&A pages carry the company's name over the section's name; the
    # auditor's report page has no running head, and its two-line title
    # starts where the section's name sits on the others, as the first row
    # of its block, not the second.
    pages = pdftotext_layout(FIXTURES / "GS_2016-auditor" / "GS_2016-auditor.pdf")
    found = running_lines(pages)
    for i in range(3):
        assert "Management\u2019s Discussion and Analysis" in found[i]
        assert "THE GOLDMAN SACHS GROUP, INC. AND SUBSIDIARIES" in found[i]
    assert found[3] == ["Goldman Sachs 2016 Form 10-K 109"]

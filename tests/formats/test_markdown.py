"""The Markdown reader, the Markdown writer and the round trip between them."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_invariants import check_invariants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docparse
from docparse.builder import UnitDraft, build_document
from docparse.detect import detect_format
from docparse.export import comparable_units
from docparse.formats.markdown import MarkdownConfig, parse_markdown_text
from docparse.model import Document, Table

TWIN_GLOBS = (
    "research/*/*.tex",
    "pmc/*/*.nxml",
    "s2orc/*/*.json",
    "books/*/*-excerpt*.txt",
    "financial/*/*.htm",
    "csv/*/*.csv",
)


@pytest.fixture(scope="module")
def marker_style(fixtures_dir: Path) -> Path:
    return fixtures_dir / "markdown/marker-style.md"


def round_trip(doc: Document) -> Document:
    reader = parse_markdown_text(doc.to_markdown())
    return build_document(
        path=doc.source_path,
        format="markdown",
        backend="markdown",
        drafts=reader.drafts,
        doc_id="x",
    )


def test_fixture_units(marker_style: Path) -> None:
    doc = docparse.parse(marker_style)
    check_invariants(doc)
    assert doc.format == "markdown" and doc.n_pages == 2
    kinds = [u.kind for u in doc.units]
    assert kinds.count("equation") == 2 and "code" in kinds and "quote" in kinds
    methods = next(u for u in doc.units if u.text == "1. Methods")
    assert methods.kind == "heading" and methods.section == ("Setext Title", "1. Methods")
    items = [u.text for u in doc.units if u.kind == "list_item"]
    assert items == ["first item", "second item continued"]
    assert any("$x_1^2$" in u.text for u in doc.units)  # inline math kept as LaTeX
    pipe, html = [u for u in doc.units if u.kind == "table"]
    assert pipe.table is not None and pipe.table.rows[1] == ("BM25", "0.41")
    assert pipe.table.n_header_rows == 1 and pipe.table.caption == "Table 1: Results by model."
    assert pipe.page == 2 and pipe.related
    assert html.table is not None and html.table.n_header_rows == 2
    assert html.table.rows[0] == ("Name", "Score", "")
    assert {(s.row, s.col, s.row_span, s.col_span) for s in html.table.spans} == {
        (0, 0, 2, 1),
        (0, 1, 1, 2),
    }
    captions = [u.text for u in doc.units if u.kind == "caption"]
    assert "Figure 2: A plot of loss." in captions  # an image's alt text
    assert "Figure 3: Caption written as a paragraph." in captions


@pytest.mark.parametrize(
    ("text", "markers", "pages"),
    [
        ("one\n\n\fthree\n\n\ffive\n", ("formfeed",), [1, 2, 3]),
        ("one\n\n<!-- page 4 -->\n\ntwo\n", ("comment",), [1, 4]),
        ("one\n\n--- end of page.page_number=1 ---\n\ntwo\n", ("rule",), [1, 2]),
        ("{0}----------------\n\none\n\n{1}----------------\n\ntwo\n", ("marker",), [1, 2]),
        ("one\n\n---\n\ntwo\n", ("hr",), [1, 2]),
    ],
)
def test_page_markers(text: str, markers: tuple[str, ...], pages: list[int]) -> None:
    reader = parse_markdown_text(text, MarkdownConfig(page_markers=markers))  # type: ignore[arg-type]
    assert [d.provenance[0].page for d in reader.drafts] == pages


def test_no_markers_no_pages() -> None:
    reader = parse_markdown_text("one\n\n---\n\ntwo\n")  # a thematic break is not a page break
    assert [d.provenance for d in reader.drafts] == [(), ()]


def test_detected_by_extension_and_content(marker_style: Path, tmp_path: Path) -> None:
    assert detect_format(marker_style) == "markdown"
    bare = tmp_path / "parsed"
    bare.write_text("# Title\n\nText.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", encoding="utf-8")
    assert detect_format(bare) == "markdown"


@pytest.mark.fixture_files(*TWIN_GLOBS)
def test_round_trip_every_fixture_document(fixture_file: Path) -> None:
    doc = docparse.parse(fixture_file)
    assert comparable_units(round_trip(doc)) == comparable_units(doc)


def test_round_trip_pdf_parse_with_page_markers(fixtures_dir: Path) -> None:
    pdf = fixtures_dir / "pdf/jmlr-pmlr-sample/pmlr-sample.pdf"
    doc = docparse.parse(pdf, config={"pages": (1, 4)})
    md = doc.to_markdown(page_markers=True)
    back = parse_markdown_text(md)
    assert comparable_units(round_trip(doc)) == comparable_units(doc)
    assert [d.provenance[0].page for d in back.drafts] == [u.page for u in doc.content_units()]


_TEXT = (
    st.lists(
        st.sampled_from([*"ab Z9.-+=*_[]()\\$`#|<>&!~:{}é", "Table 1:", "1. ", "$x$", "<!--"]),
        min_size=1,
        max_size=12,
    )
    .map("".join)
    .filter(lambda t: t.strip() != "")
)


#: Cells as tables hold them: whitespace collapsed, possibly empty.
_CELL = _TEXT.map(lambda t: " ".join(t.split()))


@st.composite
def documents(draw: st.DrawFn) -> Document:
    drafts: list[UnitDraft] = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(
            st.sampled_from(
                ["paragraph", "list_item", "quote", "caption", "footnote", "abstract", "table"]
            )
        )
        if kind == "table":
            width = draw(st.integers(1, 3))
            rows = draw(st.lists(st.tuples(*[_CELL] * width), min_size=1, max_size=3))
            drafts.append(UnitDraft("table", "", table=Table(tuple(rows), 1)))
        else:
            drafts.append(UnitDraft(kind, draw(_TEXT)))  # type: ignore[arg-type]
    return build_document(path="x.md", format="markdown", backend="t", drafts=drafts, doc_id="x")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_round_trip_property(doc: Document) -> None:
    assert comparable_units(round_trip(doc)) == comparable_units(doc)


def test_export_text_and_html(marker_style: Path) -> None:
    from docparse.export import to_html, to_text

    doc = docparse.parse(marker_style)
    text = to_text(doc)
    assert "BM25\t0.41" in text and "<" not in text.split("Name")[0]
    page = to_html(doc)
    assert '<th rowspan="2">Name</th>' in page and "<h2>" in page

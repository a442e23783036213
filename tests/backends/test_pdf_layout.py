"""The shared PDF layout assembly: unit-level properties and cross-backend invariants."""

from __future__ import annotations

import csv
import importlib
import inspect
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic_pages import block as _block
from synthetic_pages import build as _build
from synthetic_pages import line as _line

import docparse
from align.metrics.tables import cell_f1
from docparse.backends.base import (
    Block,
    PageContent,
    PdfBackend,
    TableRegion,
    display_bbox,
)
from docparse.backends.layout import join_lines, merge_continuation_rows, vocabulary
from docparse.backends.table_checks import plausible_table, ruled_off_plausible
from docparse.backends.table_regions import rule_bounded_regions
from docparse.model import BBox
from docparse.registry import _BUILTIN, PDF_BACKENDS
from docparse.text import line_joiner

PMLR = Path("pdf/jmlr-pmlr-sample/pmlr-sample.pdf")
FRX = Path("pdf/frx_2012_disclosure/frx_2012_disclosure.pdf")

# ------------------------------------------------------------------ de-hyphenation


def test_dehyphenation_uses_the_documents_vocabulary() -> None:
    vocab = vocabulary(["the fidelity of", "high fi-", "delity again", "a well-known fact"])
    assert "fidelity" in vocab and "fi" not in vocab
    assert join_lines(["high fi-", "delity"], vocab) == "high fidelity"
    # Both parts are words and the joined form is unknown: a real compound.
    assert join_lines(["a state-of-the-", "art model"], vocabulary(["state of the art"])) == (
        "a state-of-the-art model"
    )
    assert join_lines(["the well-", "known fact"], vocab) == "the well-known fact"
    # Fragments that are not both words are joined.
    assert join_lines(["recon-", "struction"], set()) == "reconstruction"
    # A dash after a number is not a broken word: the lines are left as they are.
    assert join_lines(["pages 10-", "20"], set()) == "pages 10- 20"
    assert join_lines(["high fi-", "delity"], vocab, dehyphenate=False) == "high fi- delity"
    # A break leaves two letters or more on each side: after or before one
    # letter the hyphen is the text's own, whatever the vocabulary holds.
    assert join_lines(["the V-", "A measure"], {"va"}) == "the V-A measure"
    assert join_lines(["an x-", "axis label"], set()) == "an x-axis label"


line_text = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs",), blacklist_characters="-\u2010\u2011\u00ad"
    ),
    max_size=30,
).map(str.strip)


@given(st.lists(line_text, max_size=8), st.sets(st.text(min_size=1, max_size=8), max_size=5))
def test_dehyphenation_never_changes_text_without_line_end_hyphens(
    lines: list[str], vocab: set[str]
) -> None:
    # Lines are joined as docparse.text.line_joiner says (a space, none between CJK characters).
    kept = [s for s in lines if s]
    expected = "".join((line_joiner(kept[i - 1], s) if i else "") + s for i, s in enumerate(kept))
    assert join_lines(lines, vocab) == expected
    assert join_lines(lines, vocab, dehyphenate=False) == expected


@given(
    st.lists(
        st.lists(
            st.sampled_from(["Word", "don't", "l’été", "ÉCOLE", "İstanbul", "x2y", "a_b"])
            | st.sampled_from(["state-of-", "well-known", "(Fig.", "‐", "ſ", "Ⅻ", "  ", "\t"])
            | st.text(max_size=6),
            max_size=6,
        ).map(" ".join),
        max_size=6,
    )
)
def test_vocabulary_holds_each_words_lower_case_form(lines: list[str]) -> None:
    # Whatever shortcut vocabulary takes (ASCII tokens read by a simpler
    # pattern), it holds what the word pattern finds in the tokens of the
    # lines, lower-cased, less a line-final hyphenated fragment's last part.
    import re

    word = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
    expected: set[str] = set()
    for line in lines:
        toks = line.split()
        if toks and toks[-1][-1] in "-\u2010\u2011\u00ad":
            fragment = toks.pop().rstrip("-\u2010\u2011\u00ad")
            expected.update(p.lower() for p in fragment.split("-")[:-1] if p.isalpha())
        for tok in toks:
            expected.update(w.lower() for w in word.findall(tok))
            if "-" in tok:
                expected.add(tok.strip(".,;:()[]\"'").lower())
    assert vocabulary(lines) == expected


@given(st.lists(st.from_regex(r"[a-z]{1,8}-?", fullmatch=True), min_size=1, max_size=6))
def test_dehyphenation_only_removes_line_end_hyphens(lines: list[str]) -> None:
    out = join_lines(lines, vocabulary(lines))
    letters = "".join(lines).replace("-", "")
    assert out.replace(" ", "").replace("-", "") == letters


# ------------------------------------------------------------------ synthetic pages


def _page(n: int, blocks: list[Block], tables: tuple[TableRegion, ...] = ()) -> PageContent:
    return PageContent(number=n, width=612, height=792, blocks=tuple(blocks), tables=tables)


def test_running_headers_page_numbers_and_cross_page_merge() -> None:
    pages = []
    for n in range(1, 6):
        body = _block(
            _line(f"Body text of page {n} goes on and on without", 72, 300),
            _line("ending here so that" if n < 5 else "it ends.", 72, 312),
        )
        pages.append(
            _page(
                n,
                [
                    _block(_line("A Running Header", 250, 30, size=8)),
                    body,
                    _block(_line(str(n), 300, 760, size=8)),
                ],
            )
        )
    doc = _build(pages)
    furniture = [u.text for u in doc.units if u.kind == "furniture"]
    assert furniture.count("A Running Header") == 5
    assert sorted(t for t in furniture if t.isdigit()) == ["1", "2", "3", "4", "5"]
    content = doc.content_units()
    # "... without ending here so that" + lower-case "body"? No: each page's
    # body starts with "Body" (upper case), so no merge across pages.
    assert len(content) == 5
    assert all("Running Header" not in u.text for u in content)
    kept = _build(pages, remove_headers=False)
    assert not [u for u in kept.units if u.kind == "furniture"]


def test_sentence_continues_across_page_break() -> None:
    p1 = _page(1, [_block(_line("The experiment shows that the", 72, 700))])
    p2 = _page(2, [_block(_line("effect is real.", 72, 80))])
    doc = _build([p1, p2])
    (unit,) = doc.units
    assert unit.text == "The experiment shows that the effect is real."
    assert unit.pages == (1, 2)


def test_two_columns_are_read_left_then_right() -> None:
    left = [_block(_line(f"left {i} words here.", 60, 200 + 60 * i)) for i in range(4)]
    right = [_block(_line(f"right {i} words here.", 330, 200 + 60 * i)) for i in range(4)]
    title = _block(_line("A Wide Title Spanning Both Columns", 150, 100, size=18))
    doc = _build([_page(1, [*right, title, *left])])
    texts = [u.text for u in doc.units]
    assert texts[0] == "A Wide Title Spanning Both Columns"
    assert texts[1:] == [f"left {i} words here." for i in range(4)] + [
        f"right {i} words here." for i in range(4)
    ]
    assert doc.title == "A Wide Title Spanning Both Columns"


def test_headings_sections_tables_and_captions() -> None:
    table = TableRegion(
        BBox(72, 420, 400, 500), (("Model", "F1"), ("BM25", "0.41"), ("DPR", "0.5"))
    )
    inside = _block(_line("BM25 0.41", 80, 450))  # the table's own text on the text layer
    page = _page(
        1,
        [
            _block(_line("1 Introduction", 72, 100, size=12, bold=True)),
            _block(_line("Some introductory words.", 72, 130)),
            _block(_line("1.1 Details", 72, 200, size=10, bold=True)),
            _block(_line("More words about details.", 72, 230)),
            _block(_line("Table 2: Results on the test set.", 72, 400)),
            inside,
        ],
        (table,),
    )
    doc = _build([page])
    kinds = [(u.kind, u.text) for u in doc.units]
    assert ("heading", "1 Introduction") in kinds and ("heading", "1.1 Details") in kinds
    details = next(u for u in doc.units if u.text == "More words about details.")
    assert details.section == ("1 Introduction", "1.1 Details")
    assert not any(u.kind != "table" and "BM25" in u.text for u in doc.units)
    tab = next(u for u in doc.units if u.kind == "table")
    cap = next(u for u in doc.units if u.kind == "caption")
    assert tab.table is not None and tab.table.caption == "Table 2: Results on the test set."
    assert tab.related == (cap.id,) and cap.related == (tab.id,)


def test_element_roles_are_trusted() -> None:
    header = Block((_line("Confidential", 72, 20),), BBox(72, 20, 200, 30), role="header")
    title = Block((_line("Quarterly Report", 72, 100),), BBox(72, 100, 300, 110), role="heading")
    para = Block((_line("Revenue grew.", 72, 130),), BBox(72, 130, 300, 140), role="paragraph")
    doc = _build([_page(1, [header, title, para])])
    assert [u.kind for u in doc.units] == ["furniture", "heading", "paragraph"]
    assert doc.units[2].section == ("Quarterly Report",)


def test_display_bbox_rotations() -> None:
    b = BBox(10, 20, 30, 60)
    assert display_bbox(b, 0, 100, 200) == b
    assert display_bbox(b, 90, 100, 200) == BBox(140, 10, 180, 30)
    assert display_bbox(b, 180, 100, 200) == BBox(70, 140, 90, 180)
    assert display_bbox(b, 270, 100, 200) == BBox(20, 70, 60, 90)


def test_plausible_table_rejects_prose() -> None:
    assert plausible_table([["Alpha", "1"], ["Beta", "2"], ["Gamma", "3"]])
    assert not plausible_table([["the", "1"], ["of", "2"], ["and", "3"]])
    prose = [["This is a long sentence that runs across the page", ""]] * 4
    assert not plausible_table(prose)
    assert not plausible_table([["a", "1"]])


# ------------------------------------------------------------------ cross-backend


@pytest.fixture(scope="module")
def both(fixtures_dir: Path) -> dict[str, docparse.Document]:
    return {
        b: docparse.parse(fixtures_dir / PMLR, backend=b, config={"tables": False})
        for b in ("pymupdf", "pdfplumber")
    }


def test_backends_agree_on_pages_words_and_furniture(both: dict[str, docparse.Document]) -> None:
    a, b = both["pymupdf"], both["pdfplumber"]
    assert a.n_pages == b.n_pages == 11
    assert abs(a.n_words - b.n_words) <= 0.05 * max(a.n_words, b.n_words)
    fa = {u.text for u in a.units if u.kind == "furniture"}
    fb = {u.text for u in b.units if u.kind == "furniture"}
    assert {"Name1 Name2", "Short Title"} <= fa & fb
    # Numbered section headings are the same through both backends.
    numbered = re.compile(r"^\d+(\.\d+)*\. [A-Z]")
    ha = {u.text for u in a.units if u.kind == "heading" and numbered.match(u.text)}
    hb = {u.text for u in b.units if u.kind == "heading" and numbered.match(u.text)}
    assert len(ha) >= 8 and ha == hb


def test_backends_both_find_the_table(fixtures_dir: Path) -> None:
    for backend in ("pymupdf", "pdfplumber"):
        doc = docparse.parse(fixtures_dir / FRX, backend=backend)
        tables = [u for u in doc.units if u.kind == "table"]
        assert len(tables) == 1, backend
        assert tables[0].table is not None and "AALAEI, BEHZAD" in tables[0].table.cells()


def test_wrapped_cells_are_folded_back() -> None:
    rows = (
        ("Substance", "Threshold"),
        ("Chlorine and inorganic compounds", "10 000"),
        ("(as HCl)", ""),
        ("Methane", "100"),
        ("Metals:", ""),
    )
    merged = merge_continuation_rows(rows)
    assert merged[1] == ("Chlorine and inorganic compounds (as HCl)", "10 000")
    # A capitalised lone cell (a section row) is left alone.
    assert merged[-1] == ("Metals:", "")
    assert len(merged) == 4


# ------------------------------------------------------------------ backends


def test_a_backend_must_stream_pages() -> None:
    class NoPages(PdfBackend):
        name = "no-pages"

    with pytest.raises(TypeError, match="iter_pages"):
        NoPages()  # type: ignore[abstract]
    # Every built-in backend that assembles units from its library's page records implements
    # the page stream (instantiable, not abstract). pymupdf4llm is the exception by design: it
    # converts the units of pymupdf4llm's own layout model, so it has no page stream of ours.
    own_layout = {"pymupdf4llm"}
    for name in PDF_BACKENDS:
        module, attr = _BUILTIN[name].split(":")
        backend = getattr(importlib.import_module(module), attr)
        assert callable(getattr(backend, "parse", None)) and backend.name == name, name
        if name not in own_layout:
            assert issubclass(backend, PdfBackend) and not inspect.isabstract(backend), name


# ------------------------------------------------------------------ tables against oracles


@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
@pytest.mark.parametrize("folder", ["frx_2012_disclosure", "us-020"])
def test_table_cell_f1_against_tabula_csv(fixtures_dir: Path, folder: str, backend: str) -> None:
    base = fixtures_dir / "pdf" / folder
    with (base / f"{folder}.csv").open(encoding="utf-8", newline="") as fh:
        expected = list(csv.reader(fh))
    doc = docparse.parse(base / f"{folder}.pdf", backend=backend)
    best = max((cell_f1(expected, u.table) for u in doc.units if u.table), default=0.0)
    assert best >= 0.9


# ------------------------------------------------------------------ shared corpus

CORPUS_PDFS = ("research", "csv_tables")


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_corpus_papers_and_tables_parse_with_sane_units(corpus_dir: Path, backend: str) -> None:
    """Every research and csv_tables PDF parses; units have pages, boxes and no margin numbers."""
    import pymupdf

    pdfs = sorted(p for folder in CORPUS_PDFS for p in (corpus_dir / folder).rglob("*.pdf"))
    assert pdfs
    for path in pdfs:
        doc = docparse.parse(path, backend=backend)
        assert doc.n_pages and doc.content_units(), path
        ids = [u.id for u in doc.units]
        assert len(ids) == len(set(ids)), path
        with pymupdf.open(path) as pdf:
            for u in doc.units:
                assert u.page is not None and u.bbox is not None
                rect = pdf[u.page - 1].rect
                assert u.bbox.x1 <= rect.width + 0.01 and u.bbox.y1 <= rect.height + 0.01
                # A lone number in the bottom band is a page number: never content.
                if u.kind != "furniture" and re.fullmatch(r"\d{1,3}", u.text):
                    assert u.bbox.y0 < 0.93 * rect.height, (path, u.page, u.text)


_BOOKTABS_LINES = [
    ((200.0, 90.0, 400.0, 100.0), "Table 3: Results"),
    ((210.0, 112.0, 390.0, 120.0), "Model F1"),
    ((210.0, 126.0, 390.0, 134.0), "BM25 0.41"),
    ((210.0, 138.0, 390.0, 146.0), "DPR 0.52"),
]
_BOOKTABS_RULES = [(205.0, 108.0, 395.0), (205.0, 123.0, 395.0), (205.0, 150.0, 395.0)]


def test_rule_bounded_region_needs_rules_lines_and_caption() -> None:
    regions = rule_bounded_regions(_BOOKTABS_RULES, _BOOKTABS_LINES, 800.0)
    assert len(regions) == 1
    x0, y0, x1, y1 = regions[0]
    assert y0 < 108 and y1 > 150 and x0 < 205 and x1 > 395
    # Without a "Table N" caption two rules are a figure frame or a separator;
    # top, middle and bottom rule are a table's.
    frame = [_BOOKTABS_RULES[0], _BOOKTABS_RULES[2]]
    assert rule_bounded_regions(frame, _BOOKTABS_LINES[1:], 800.0) == []
    assert len(rule_bounded_regions(_BOOKTABS_RULES, _BOOKTABS_LINES[1:], 800.0)) == 1
    # One rule bounds nothing; rules with no text between them neither.
    assert rule_bounded_regions(_BOOKTABS_RULES[:1], _BOOKTABS_LINES, 800.0) == []
    assert rule_bounded_regions(_BOOKTABS_RULES[:2], _BOOKTABS_LINES, 800.0) == []


def test_ruled_off_plausible_rejects_prose() -> None:
    assert ruled_off_plausible([["Model", "F1"], ["BM25", "0.41"]])
    assert not ruled_off_plausible([["Model F1"], ["BM25 0.41"]])
    sentence = "this is a long sentence of running prose that is not a table cell at all here"
    assert not ruled_off_plausible([[sentence, sentence], [sentence, "x"]])


def test_paragraph_continues_around_a_figure_and_after_a_page_break() -> None:
    """A column paragraph cut by a page break and a figure at the top of the
    next page (tick labels, legend, axis title, caption) is one unit; the
    figure's text is one paragraph beside it, never a heading."""
    p1 = _page(1, [_block(_line("The outbursts are directly linked to", 72, 700))])
    figure = [
        _block(_line("500", 80, 60)),
        _block(_line("ZTF_g ZTF_r", 150, 60)),
        _block(_line("Flux (mJy)", 60, 120, size=13)),
        _block(_line("250", 80, 160)),
        _block(_line("MJD", 200, 220, size=13)),
        _block(_line("Figure 5. The light curves of the source.", 72, 250)),
    ]
    rest = _block(_line("SMBH accretion, as the light curves show in detail here.", 72, 300))
    doc = _build([p1, _page(2, [*figure, rest])])
    kinds = [(u.kind, u.text) for u in doc.units]
    assert ("heading", "Flux (mJy)") not in kinds
    (para,) = [u for u in doc.units if u.text.startswith("The outbursts")]
    assert para.text.endswith("linked to SMBH accretion, as the light curves show in detail here.")
    assert para.pages == (1, 2)
    (fig,) = [u for u in doc.units if "Flux" in u.text]
    assert fig.kind == "paragraph" and "500" in fig.text and "MJD" in fig.text
    assert [u.kind for u in doc.units].count("caption") == 1


def test_a_line_that_also_stands_in_the_body_is_not_a_running_head() -> None:
    """A content line that opens some pages ("Try the following examples"
    before a listing) and stands alone mid-page on others is content; the
    running head above it stays furniture."""
    pages = []
    for n in range(1, 9):
        at_top = n % 2 == 0
        blocks = [_block(_line("A Running Header", 250, 30, size=8))]
        if at_top:
            blocks.append(_block(_line("Try the following examples", 72, 80)))
        blocks.append(_block(_line(f"Body text of page {n} is long enough to be a line.", 72, 300)))
        if not at_top:
            blocks.append(_block(_line("Try the following examples", 72, 400)))
        blocks.append(_block(_line(f"$ command {n}", 72, 420)))
        pages.append(_page(n, blocks))
    doc = _build(pages)
    furniture = [u.text for u in doc.units if u.kind == "furniture"]
    assert furniture.count("A Running Header") == 8
    assert "Try the following examples" not in furniture


_column_item = st.tuples(
    st.sampled_from([(40.0, 280.0), (320.0, 560.0), (40.0, 560.0)]),  # left, right, full width
    st.sampled_from([10.0, 100.0, 100.0, 250.0, 400.0, 700.0, float("inf")]),
    st.integers(0, 300),
)


@given(st.lists(_column_item, min_size=1, max_size=14))
def test_two_column_order_by_bisection_is_the_scan_order(
    fields: list[tuple[tuple[float, float], float, int]],
) -> None:
    """The reading order of a two-column page found by bisecting the full-width
    items' tops is the order a scan of the page per stretch between them gives."""
    from docparse.backends.items import Item
    from docparse.backends.reading_order import _by_columns, _segments_by_scan

    items = [
        Item(1, BBox(x0, y0, x1, y0 + 12.0), ("x" * chars,), 10.0, False)
        for (x0, x1), y0, chars in fields
    ]
    left = [it for it in items if it.bbox.x1 <= 306.0 + 18.36]
    right = [it for it in items if it.bbox.x0 >= 306.0 - 18.36 and it.bbox.x1 > 306.0 + 18.36]
    ordered = _by_columns(items, left, right, 612.0)
    full = sorted((it for it in items if not it.col), key=lambda it: it.bbox.y0)
    assert [id(it) for it in ordered] == [id(it) for it in _segments_by_scan(items, full, 612.0)]


def test_a_name_left_of_the_middle_is_read_in_its_centred_row() -> None:
    """Authors on one centred line of a two-column page: the first name sits in the left
    column's band, the others reach past the middle; the row reads left to right before
    the columns below (gen24's case, doc_pairs twocolumn and lineno title pages)."""
    from docparse.backends.items import Item
    from docparse.backends.reading_order import reading_order

    def item(text: str, x0: float, y0: float, x1: float, lines: int = 1) -> Item:
        return Item(1, BBox(x0, y0, x1, y0 + 12.0 * lines), (text * 40,) * lines, 10.0, False)

    title = item("T", 129.0, 84.0, 483.0)
    second = item("B", 272.0, 118.5, 439.0)
    first = item("A", 173.0, 118.5, 229.0)
    left = [item("L", 54.0, 160.0 + 100 * i, 301.0, 6) for i in range(3)]
    right = [item("R", 311.0, 160.0 + 100 * i, 558.0, 6) for i in range(3)]
    order = reading_order([title, second, first, *left, *right], 612.0)
    assert order == [title, first, second, *left, *right]
    # A name a little above or below the wide one's top is read in its row too.
    first.bbox = BBox(173.0, 117.0, 229.0, 129.0)
    assert reading_order([title, second, first, *left, *right], 612.0)[:3] == [
        title,
        first,
        second,
    ]

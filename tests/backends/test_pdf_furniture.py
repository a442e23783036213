"""Page furniture on one page, and lines in the body's own styles that are not furniture."""

from __future__ import annotations

from synthetic_pages import block as _block
from synthetic_pages import build as _build
from synthetic_pages import line as _line

from docparse.backends.base import Block, Line, PageContent, TextSpan
from docparse.backends.pages import TableRegion
from docparse.model import BBox


def _prose(y: float) -> Block:
    return _block(
        *(
            _line(f"Body text of the article, line {i}, goes on here.", 72, y + 12 * i)
            for i in range(6)
        )
    )


def test_a_one_page_banner_in_its_own_small_font_is_furniture() -> None:
    banner = _block(_line("Journal of Things | www.journal.org", 72, 30, size=7, font="Sans"))
    stamp = _block(_line("Download date: 3 March 2014", 72, 760, size=7, font="Sans"))
    doc = _build([PageContent(1, 612, 792, blocks=(banner, _prose(150), _prose(300), stamp))])
    furniture = [u.text for u in doc.units if u.kind == "furniture"]
    assert "Journal of Things | www.journal.org" in furniture
    assert "Download date: 3 March 2014" in furniture


def test_a_code_line_at_a_page_top_is_content_when_the_body_uses_its_style() -> None:
    pages = []
    for n in range(1, 5):
        code = _block(
            *(_line(f"$ apt-get install package{i}", 72, 300 + 11 * i, 9, "Mono") for i in range(8))
        )
        blocks = [_prose(150), code, _prose(450)]
        if n == 3:  # a listing carried over from the page before: its last line
            blocks.insert(
                0, _block(_line("deb http://deb.example.org/ sid main", 72, 80, 9, "Mono"))
            )
        pages.append(PageContent(n, 612, 842, blocks=tuple(blocks)))
    doc = _build(pages)
    line = next(u for u in doc.units if "deb http" in u.text)
    assert line.kind != "furniture"


def test_a_banner_with_two_kinds_of_banner_text_is_furniture_in_the_body_style() -> None:
    banner = _block(_line("Vol. 77, No. 21 0099-2240/11/$12.00", 72, 62))
    doc = _build([PageContent(1, 612, 792, blocks=(banner, _prose(150), _prose(300)))])
    assert [u.text for u in doc.units if u.kind == "furniture"] == [
        "Vol. 77, No. 21 0099-2240/11/$12.00"
    ]
    # One piece of banner text in the body's style, next to the text, stays.
    cited = _block(_line("as shown in Vol. 3 of the series.", 72, 95))
    kept = _build([PageContent(1, 612, 792, blocks=(cited, _prose(105), _prose(300)))])
    assert not [u for u in kept.units if u.kind == "furniture"]


def _citing(mark: str, y: float) -> Block:
    """A body line that cites footnote ``mark`` (a raised span after its text)."""
    text = "A sentence of the body that cites a note"
    body = _line(text, 72, y)
    sup = BBox(body.bbox.x1, y - 2, body.bbox.x1 + 3, y + 6)
    spans = (*body.spans, TextSpan(mark, sup, 6.0, False, "Times"))
    return _block(Line(spans, body.bbox.union(sup)))


def test_running_heads_and_page_numbers_are_no_footnotes_on_pages_citing_notes() -> None:
    # Right-hand running heads carry the current section ("2.5. DOCUMENTATION"),
    # page numbers run on; the pages cite footnotes 1 and 2.
    pages = []
    for n in range(1, 7):
        head = _block(_line(f"2.{n}. SECTION NUMBER {n}", 380, 36, 9, "Italic"))
        number = _block(_line(str(10 + n), 72, 760))
        blocks = (head, _prose(150), _citing("1", 250), _citing("2", 270), _prose(300), number)
        pages.append(PageContent(n, 612, 792, blocks=blocks))
    doc = _build(pages)
    furniture = {u.text for u in doc.units if u.kind == "furniture"}
    assert "2.2. SECTION NUMBER 2" in furniture
    assert "12" in furniture
    assert not [u for u in doc.units if u.kind == "heading"]


def test_a_navigation_bar_on_one_baseline_is_furniture() -> None:
    # Four pieces on one baseline are one row, not a four-line paragraph.
    pages = []
    for n in range(1, 5):
        words = (("Overview", 339), ("Environmental", 402), ("Social", 485))
        words += (("Governance", 537), ("Glossary", 611), ("Appendix", 673))
        bar = _block(*(_line(w, x, 17, 7.5, True, "Sans") for w, x in words))
        pages.append(PageContent(n, 792, 612, blocks=(bar, _prose(150), _prose(300))))
    doc = _build(pages)
    bars = [u for u in doc.units if "Glossary" in u.text]
    assert len(bars) == 4
    assert all(u.kind == "furniture" for u in bars)


def _grid(y: float, n: int = 10) -> TableRegion:
    rows = tuple((f"Name {i}", f"Street {i}", f"{i * 10}.00") for i in range(n))
    return TableRegion(BBox(72, y, 540, y + 14 * n), (("Last Name", "Address", "Amount"), *rows), 1)


def test_a_report_title_over_the_table_on_every_page_is_furniture() -> None:
    pages = []
    for n in range(1, 5):
        title = _block(_line("Major Contribution Report", 300, 30, 7))
        period = _block(_line("For the Period Between August 1 and October 18", 260, 40, 7))
        pages.append(PageContent(n, 792, 612, blocks=(title, period), tables=(_grid(56),)))
    doc = _build(pages)
    furniture = [u.text for u in doc.units if u.kind == "furniture"]
    assert furniture.count("Major Contribution Report") == 4
    assert furniture.count("For the Period Between August 1 and October 18") == 4
    # Every page's table is kept: one table over the four pages (its header
    # repeated on each, backends/table_pages.py), one provenance piece a page.
    tables = [u for u in doc.units if u.kind == "table"]
    assert sorted(p.page for u in tables for p in u.provenance) == [1, 2, 3, 4]


def test_a_statement_title_over_tables_on_some_pages_is_content() -> None:
    pages = []
    for n in range(1, 7):
        blocks: list[Block] = [_prose(300)]
        tables: tuple[TableRegion, ...] = ()
        if n <= 3:
            blocks.insert(0, _block(_line("Consolidated Statements of Things", 220, 40)))
            tables = (_grid(56, 5),)
        pages.append(PageContent(n, 612, 792, blocks=tuple(blocks), tables=tables))
    doc = _build(pages)
    titles = [u for u in doc.units if u.text == "Consolidated Statements of Things"]
    assert titles
    assert not [u for u in titles if u.kind == "furniture"]


def test_a_running_head_a_table_region_took_as_its_first_row_is_furniture() -> None:
    pages = []
    for n in range(1, 6):
        head = _block(_line("A Book Title", 72, 30))
        number = _block(_line(str(n + 100), 300, 770))
        if n == 3:
            rows = (("A Book Title", "", f"{n + 100}"), ("Cell a", "Cell b", "Cell c"))
            rows += tuple((f"x{i}", f"y{i}", f"z{i}") for i in range(8))
            table = TableRegion(BBox(72, 30, 540, 200), rows)
            pages.append(PageContent(n, 612, 842, blocks=(_prose(300), number), tables=(table,)))
        else:
            pages.append(PageContent(n, 612, 842, blocks=(head, _prose(150), _prose(300), number)))
    doc = _build(pages)
    table = next(u for u in doc.units if u.kind == "table")
    assert table.table is not None
    assert table.table.rows[0] == ("Cell a", "Cell b", "Cell c")
    assert "A Book Title" not in table.text
    heads = [u for u in doc.units if u.page == 3 and "A Book Title" in u.text]
    assert [u.kind for u in heads] == ["furniture"]


def test_an_updated_month_and_year_footer_is_furniture_on_one_page() -> None:
    stamp = _block(_line("Updated Jan 2024", 480, 760, 8, False, "Sans-Italic"))
    doc = _build([PageContent(1, 612, 792, blocks=(_prose(150), _prose(300), stamp))])
    assert [u.text for u in doc.units if u.kind == "furniture"] == ["Updated Jan 2024"]


def test_a_copyright_line_in_the_body_style_is_one_kind_of_banner_text() -> None:
    # A book's copyright page: "Copyright" and "©" say one thing; content.
    notice = _block(_line("Copyright © 2013-2021 A. Author", 72, 83))
    doc = _build([PageContent(1, 612, 842, blocks=(notice, _prose(150), _prose(300)))])
    assert not [u for u in doc.units if u.kind == "furniture"]
    banner = _block(_line("doi:10.1000/xyz123 Copyright © 2020", 72, 83))
    doc = _build([PageContent(1, 612, 842, blocks=(banner, _prose(150), _prose(300)))])
    assert [u.text for u in doc.units if u.kind == "furniture"] == [banner.lines[0].text]


def test_a_navigation_bar_of_separate_pieces_is_furniture_to_its_last_piece() -> None:
    # Eight items on one baseline (a backend that gives each its own block)
    # are one row of the margin, not eight.
    words = ("Report Title", "Overview", "Environmental", "Social", "Governance", "Glossary")
    pages = []
    for n in range(1, 5):
        bar = [_block(_line(w, 30 + 100 * i, 21, 7.5, True, "Sans")) for i, w in enumerate(words)]
        bar.append(_block(_line(str(n + 1), 750, 21, 7.5, True, "Sans")))
        pages.append(PageContent(n, 792, 612, blocks=(*bar, _prose(150), _prose(300))))
    doc = _build(pages)
    pieces = [u for u in doc.units if u.text in (*words, "2", "3", "4", "5")]
    assert len(pieces) >= 4 * 7
    assert {u.kind for u in pieces} == {"furniture"}


def test_a_footer_opening_with_a_page_number_the_page_cites_as_a_note_is_furniture() -> None:
    # Even pages put the page number first in the footer ("14 Working Paper
    # Series No 1299"); page 2 also cites note 14, and has a real note 14.
    pages = []
    for n in range(1, 7):
        footer = _block(_line(f"{12 + n} Working Paper Series No 1299", 72, 770, 7, "Sans"))
        blocks = [_prose(150), _citing("14", 250), _prose(300)]
        if n == 2:
            blocks.append(_block(_line("14 Estimated from the survey of 2009.", 72, 700, 8)))
        pages.append(PageContent(n, 612, 792, blocks=(*blocks, footer)))
    doc = _build(pages)
    footer = next(u for u in doc.units if u.text == "14 Working Paper Series No 1299")
    assert footer.kind == "furniture"
    note = next(u for u in doc.units if u.text.startswith("14 Estimated"))
    assert note.kind == "footnote"


def test_a_banner_of_stacked_lines_is_furniture_line_by_line() -> None:
    # Journal and date over ISSN and DOI over copyright: no line is set
    # apart from the others, the three together are set apart from the title.
    lines = (
        ("APPLIED MICROBIOLOGY, Nov. 2011, p. 7469-7478", 72, 30),
        ("Vol. 77, No. 21", 480, 30),
        ("0099-2240/11/$12.00", 72, 39),
        ("doi:10.1128/AEM.00294-11", 160, 39),
        ("Copyright 2011, American Society for Microbiology.", 72, 48),
    )
    banner = tuple(_block(_line(t, x, y, size=7)) for t, x, y in lines)
    title = _block(_line("Niche Partitioning of Marine Group I", 72, 90, size=16))
    doc = _build([PageContent(1, 612, 792, blocks=(*banner, title, _prose(150), _prose(300)))])
    furniture = {u.text for u in doc.units if u.kind == "furniture"}
    assert furniture == {t for t, _, _ in lines}
    # A date in the first line of the text, right under a banner, stays.
    dated = _block(_line("Received 9 February 2011, accepted 15 July 2011", 72, 40))
    kept = _build([PageContent(1, 612, 792, blocks=(banner[0], dated, _prose(52), _prose(300)))])
    assert "Received 9 February 2011, accepted 15 July 2011" not in {
        u.text for u in kept.units if u.kind == "furniture"
    }


def test_a_changing_running_footer_whose_box_reaches_a_point_lower_is_furniture() -> None:
    # Odd/even footers name the section; one title's descender ("changelog")
    # sets its box a point and a half lower than the others.
    words = ("control", "rules", "copyright", "watch", "changelog", "source", "tests", "docs", "po")
    pages = []
    for n, word in enumerate(words, 1):
        y = 741.5 if word == "changelog" else 740
        footer = _block(_line(f"Best practices for debian/{word}", 72, y, 10, True, "Sans"))
        pages.append(PageContent(n, 612, 792, blocks=(_prose(150), _prose(300), footer)))
    doc = _build(pages)
    footer = next(u for u in doc.units if u.text == "Best practices for debian/changelog")
    assert footer.kind == "furniture"


def test_a_running_head_set_in_one_block_with_a_title_under_it_is_split_off() -> None:
    # The company name heads every page; on page 1 a block-grouping backend
    # sets it in one block with the centred title under it.
    pages = []
    for n in range(1, 5):
        lines = [_line("ACME CORP.", 277, 42, 9)]
        if n == 1:
            lines.append(_line("FORM 10-K", 279, 53, 9))
        pages.append(PageContent(n, 612, 792, blocks=(_block(*lines), _prose(150), _prose(300))))
    doc = _build(pages)
    furniture = [(u.page, u.text) for u in doc.units if u.kind == "furniture"]
    assert furniture == [(n, "ACME CORP.") for n in range(1, 5)]
    title = next(u for u in doc.units if "FORM 10-K" in u.text)
    assert title.text == "FORM 10-K" and title.bbox is not None and title.bbox.y0 >= 50


def test_a_running_head_split_off_goes_right_above_its_own_item() -> None:
    # An item before it equal to what the split leaves of it (same page, box
    # and text): the running line goes above the item it came from.
    from docparse.backends.furniture import _split_edge_line
    from docparse.backends.items import Item, PageItems

    cut = Item(1, BBox(277, 42, 335, 64), ("ACME CORP.", "FORM 10-K"), 9.0, False)
    twin = Item(1, BBox(277, 52, 335, 64), ("FORM 10-K",), 9.0, False)
    like = Item(2, BBox(277, 42, 335, 52), ("ACME CORP.",), 9.0, False)
    like.kind = "furniture"
    page = PageItems(1, 612, 792, [twin, cut])
    assert _split_edge_line(page, cut, {"acmecorp.": [like]}, top=True)
    assert cut == twin  # equal, not the same item
    assert [it.text for it in page.items] == ["FORM 10-K", "ACME CORP.", "FORM 10-K"]
    assert page.items[0] is twin and page.items[2] is cut and page.items[1].kind == "furniture"


def test_a_page_number_right_under_a_table_is_furniture_like_its_neighbours() -> None:
    # Page numbers run 7 ahead of the page index, as in a book whose front
    # matter is numbered apart. On page 4 a table ends right above the
    # number, so the margin rules keep it as a table's line; the offset the
    # other pages' numbers show still marks it.
    pages = []
    for n in range(1, 7):
        number = _block(_line(str(n + 7), 300, 760))
        tables: tuple[TableRegion, ...] = ()
        blocks: tuple[Block, ...] = (_prose(100), _prose(300), number)
        if n == 4:
            tables = (_grid(600, 10),)
            blocks = (_prose(100), number)
        pages.append(PageContent(n, 612, 792, blocks=blocks, tables=tables))
    doc = _build(pages)
    numbers = {u.page: u.kind for u in doc.units if u.text.strip().isdigit()}
    assert numbers == dict.fromkeys(range(1, 7), "furniture")


def test_banner_text_without_a_digit_passes_the_quick_check() -> None:
    # _banner_marks skips its long pattern for ASCII text with no digit and no
    # banner word: each digit-free banner the pattern knows must still count.
    from docparse.backends.furniture import _FURNITURE_TEXT, _banner_marks

    samples = [
        "see https://example.org/paper",
        "at www.example.org",
        "doi: 10.1000/xyz",
        "https://doi.org/10.1000/xyz",
        "ISSN 1234",
        "Downloaded from the archive",
        "Download date: today",
        "Accessed via the library",
        "Retrieved from the web",
        "Printed in the USA",
        "Copyright the authors",
        "All rights reserved",
        "DOWNLOADED BY GUEST",
    ]
    for text in samples:
        digitless = "".join(c for c in text if not c.isdigit())
        assert _FURNITURE_TEXT.search(digitless), digitless
        assert _banner_marks(digitless) >= 1, digitless


def test_banner_marks_agree_with_the_long_pattern_on_any_ascii_text() -> None:
    # _banner_marks skips the long pattern for ASCII text that holds none of
    # its clues: the count must be the pattern's own on any text, the clues
    # pieced together in any case, with digits or without.
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from docparse.backends.furniture import _COPYRIGHT, _FURNITURE_TEXT, _banner_marks

    def marks(text: str) -> int:
        kinds = set()
        for m in _FURNITURE_TEXT.finditer(text):
            word = m.group(0).lower()
            kinds.add("©" if _COPYRIGHT.match(word) else word[:4])
        return len(kinds)

    pieces = st.sampled_from(
        [
            *("http://", "www.", "doi:", "doi.org/", "arXiv:", "Vol.", "volume", "Issue"),
            *("No.", "pages", "pp.", "p.", "ISSN", "(c)", "Copyright", "all rights reserved"),
            *("Downloaded", "download date", "Accessed", "retrieved", "printed", "Sept"),
            *("Jan", "mar", "MAY", "oct", "Dec", "12", "2019", "2019-03-04", "0099-2240/11/$12"),
            *(" ", ", ", "-", "/", "–", "x", "Journal", "Page"),
        ]
    )

    @settings(max_examples=600, deadline=None)
    @given(st.lists(pieces, max_size=8).map("".join))
    def check(text: str) -> None:
        assert _banner_marks(text) == marks(text), text

    check()
    assert _banner_marks("Vol. 77, No. 21") == 2
    assert _banner_marks("Journal of Things 12") == 0


def test_table_head_check_agrees_with_its_pattern_on_any_ascii_text() -> None:
    # _table_head skips _TABLE_HEAD on ASCII text without one of its clues.
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from docparse.backends.furniture import _TABLE_HEAD, _table_head

    pieces = st.sampled_from(
        [
            *("In", "of", "Millions", "thousands", "BILLIONS", "except", "for", "per-share"),
            *("per share", "Years", "month", "months", "quarter", "weeks", "Period", "ENDED"),
            *("As", "(as", "as of", "June 30,", " ", "  ", "(", ")", "2023", "x"),
        ]
    )

    @settings(max_examples=600, deadline=None)
    @given(st.lists(pieces, max_size=8).map("".join))
    def check(text: str) -> None:
        assert _table_head(text) == bool(_TABLE_HEAD.search(text)), text

    check()
    assert _table_head("(In millions, except per share data)")
    assert _table_head("As of December 31,")
    assert not _table_head("Journal of Things")


def test_a_key_ends_as_its_texts_ascii_ends_say() -> None:
    # _body_repeats rules a text out by its first and last characters when
    # they are ASCII (_key_ends), whatever lies between them.
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from docparse.backends.furniture import _key_ends
    from docparse.backends.words import _norm_key

    chars = st.sampled_from("aZ IVXcdm 019\t.-#İıſKΣς٣²Ⅻ é")
    text = st.text(chars, min_size=1, max_size=20).map(str.strip).filter(bool)

    @settings(max_examples=600, deadline=None)
    @given(text)
    def check(text: str) -> None:
        key = _norm_key(text)
        if text[0].isascii():
            assert text[0] in _key_ends(key[:1]), text
        if text[-1].isascii():
            assert text[-1] in _key_ends(key[-1:]), text

    check()


def test_a_text_told_apart_by_length_never_has_a_key_of_that_length() -> None:
    # _body_repeats rules a text out by its key's length without making the
    # key (_keyed_apart): whenever it does, the key made the long way must
    # indeed not be that long.
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from docparse.backends.furniture import _keyed_apart
    from docparse.backends.words import _norm_key

    ascii_text = st.text(
        st.sampled_from("ab IVXcdm 019\t.-ABCDlixv"), min_size=12, max_size=40
    ).map(str.strip)

    @settings(max_examples=400, deadline=None)
    @given(ascii_text)
    def check(text: str) -> None:
        if len(text) >= 12:
            assert not _keyed_apart(text, {len(_norm_key(text))})

    check()
    # A digit-free printable line is told apart; one with a number or a tab is not.
    assert _keyed_apart("Running head of the journal", {3, 5})
    assert not _keyed_apart("Running head of page 12", {3, 5})
    assert not _keyed_apart("Running head\tof the journal", {3, 5})

"""The pypdfium2 and pymupdf4llm backends on the fixture paper and on bad input."""

from __future__ import annotations

import ctypes
import importlib.util
import itertools
from pathlib import Path

import pytest
from doc_invariants import check_invariants

import docparse
from docparse.errors import CorruptDocumentError, MissingDependencyError
from docparse.registry import PDF_BACKENDS, get_parser


@pytest.fixture(scope="module")
def pmlr(fixtures_dir: Path) -> Path:
    return fixtures_dir / "pdf/jmlr-pmlr-sample/pmlr-sample.pdf"


def _needs(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed")


def test_both_registered_for_all() -> None:
    assert {"pymupdf4llm", "pypdfium2"} <= set(PDF_BACKENDS)


def test_pypdfium2_pmlr(pmlr: Path) -> None:
    _needs("pypdfium2")
    doc = docparse.parse(pmlr, backend="pypdfium2")
    check_invariants(doc, pdf=pmlr)
    assert doc.backend == "pypdfium2" and doc.n_pages == 11
    headings = [u.text for u in doc.units if u.kind == "heading"]
    assert "1. Introduction" in headings
    intro = next(u for u in doc.units if u.text.startswith("This is a sample article"))
    assert intro.section == ("1. Introduction",) and intro.page == 1
    assert intro.bbox is not None and 80 < intro.bbox.x0 < 100
    # The kerned letters of the LaTeX logo are read once each.
    assert any("PDFLATEX" in u.text for u in doc.units)
    tables = [u for u in doc.units if u.kind == "table"]
    assert any(u.table and ("Data1", "0.12345") in u.table.rows for u in tables)
    captioned = [u for u in tables if u.table and u.table.caption]
    assert captioned and all(u.related for u in captioned)


def test_pypdfium2_tables_off_and_pages(pmlr: Path) -> None:
    _needs("pypdfium2")
    doc = docparse.parse(pmlr, backend="pypdfium2", config={"tables": False, "pages": (4, 5)})
    assert not [u for u in doc.units if u.kind == "table"]
    assert {u.page for u in doc.units} <= {4, 5}
    assert any("Data1" in u.text for u in doc.units)


@pytest.mark.parametrize("call", ["FPDF_LoadPage", "FPDFText_LoadPage"])
def test_pypdfium2_page_pdfium_cannot_load(
    pmlr: Path, monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    """A page (or its text page) PDFium cannot load is a CorruptDocumentError
    naming the page, and every page and text page loaded is closed."""
    _needs("pypdfium2")
    import pypdfium2.raw as raw

    opened: list[object] = []
    closed: list[object] = []
    real = {name: getattr(raw, name) for name in ("FPDF_LoadPage", "FPDF_ClosePage")}

    def load(document: object, index: int) -> object:
        page = real["FPDF_LoadPage"](document, index)
        opened.append(ctypes.addressof(page.contents))
        return page

    def close(page: object) -> None:
        closed.append(ctypes.addressof(page.contents))  # type: ignore[attr-defined]
        real["FPDF_ClosePage"](page)

    monkeypatch.setattr(raw, "FPDF_LoadPage", load)
    monkeypatch.setattr(raw, "FPDF_ClosePage", close)
    monkeypatch.setattr(raw, call, lambda *args: None)  # PDFium's NULL
    with pytest.raises(CorruptDocumentError, match="page 3 cannot be read"):
        docparse.parse(pmlr, backend="pypdfium2", config={"pages": (3, 4)})
    assert opened == closed
    assert len(opened) == (0 if call == "FPDF_LoadPage" else 1)


def test_pypdfium2_reads_a_large_file_from_its_path(
    pmlr: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file over the in-memory limit is read by PDFium from its path, with
    the same document as from memory."""
    _needs("pypdfium2")
    from docparse.backends import pypdfium2

    config = {"tables": True, "pages": (3, 5)}
    in_memory = docparse.parse(pmlr, backend="pypdfium2", config=config).to_dict()
    monkeypatch.setattr(pypdfium2, "IN_MEMORY_BYTES", 0)
    monkeypatch.setattr(pypdfium2.Pypdfium2Backend, "in_memory_bytes", 0)
    sources: list[object] = []
    document = pypdfium2.load_pypdfium2().PdfDocument

    def opened(source: object, **kwargs: object) -> object:
        sources.append(source)
        return document(source, **kwargs)

    monkeypatch.setattr(pypdfium2.load_pypdfium2(), "PdfDocument", opened)
    assert docparse.parse(pmlr, backend="pypdfium2", config=config).to_dict() == in_memory
    assert sources and all(s == str(pmlr) for s in sources)


def test_pypdfium2_reads_the_file_once(pmlr: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks, PDFium and the document id share one read of the file."""
    _needs("pypdfium2")
    from docparse import builder
    from docparse.backends import preflight

    doc_id = builder.file_hash(pmlr)
    reads: list[Path] = []
    read_bytes = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        return read_bytes(path)

    def no_file_hash(path: object) -> str:
        raise AssertionError(f"{path} hashed from the file again")

    checked = preflight._checked_document()
    opens: list[dict[str, object]] = []

    def checked_document(*args: object, **kwargs: object) -> object:
        opens.append({"args": args, **kwargs})
        return checked(*args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", counted)
    monkeypatch.setattr(builder, "file_hash", no_file_hash)
    monkeypatch.setattr(preflight, "_checked_document", lambda: checked_document)
    doc = docparse.parse(pmlr, backend="pypdfium2", config={"tables": False})
    assert doc.doc_id == doc_id and doc.units
    assert reads == [pmlr]
    assert len(opens) == 1 and opens[0]["args"] == () and isinstance(opens[0]["stream"], bytes)


def test_pypdfium2_unopenable_pdf_error_names_the_file_cause(tmp_path: Path) -> None:
    """A PDF PyMuPDF cannot open from memory is opened again from its path for
    the error it gives a file (from memory it says only "Failed to open stream")."""
    _needs("pypdfium2")
    bad = tmp_path / "x.pdf"
    bad.write_bytes(b"%PDF-1.4\nnot really\n%%EOF\n")
    with pytest.raises(CorruptDocumentError, match="Failed to open file as type pdf"):
        docparse.parse(bad, backend="pypdfium2")


def test_pymupdf4llm_pmlr_pages(pmlr: Path) -> None:
    _needs("pymupdf4llm")
    doc = docparse.parse(pmlr, backend="pymupdf4llm", config={"pages": (4, 5)})
    check_invariants(doc, pdf=pmlr)
    assert doc.backend == "pymupdf4llm" and {u.page for u in doc.units} <= {4, 5}
    tables = [u for u in doc.units if u.kind == "table"]
    assert tables and all(u.bbox is not None for u in tables)
    assert any(u.table and ("Data1", "0.12345") in u.table.rows for u in tables)
    assert any(u.table and u.table.caption and u.related for u in tables)
    assert any(u.kind == "heading" and u.text.endswith("Tables") for u in doc.units)
    paragraphs = [u for u in doc.units if u.kind == "paragraph"]
    assert paragraphs and paragraphs[-1].section


@pytest.mark.parametrize("backend", ["pypdfium2", "pymupdf4llm"])
def test_not_a_pdf(tmp_path: Path, backend: str) -> None:
    _needs(backend)
    bad = tmp_path / "x.pdf"
    bad.write_bytes(b"%PDF-1.4\nnot really\n")
    with pytest.raises(CorruptDocumentError):
        docparse.parse(bad, backend=backend)


@pytest.mark.parametrize(
    ("backend", "module"),
    [("pypdfium2", "pypdfium2"), ("pymupdf4llm", "pymupdf4llm")],
)
def test_missing_package_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, backend: str, module: str
) -> None:
    import sys

    from docparse import registry

    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    monkeypatch.setattr(registry, "_cache", {})
    if backend == "pymupdf4llm":
        from docparse.backends import pymupdf4llm

        pymupdf4llm.load_pymupdf4llm.cache_clear()
    with pytest.raises(MissingDependencyError, match=rf"pip install 'docparse\[{backend}\]'"):
        get_parser(backend)
    if backend == "pymupdf4llm":
        pymupdf4llm.load_pymupdf4llm.cache_clear()


class _FakeRaw:
    """PDFium's text-page calls over a made-up page: characters, their text
    objects (``None``: a generated character, in no rectangle) and the page text."""

    def __init__(self, chars: list[tuple[str, int | None]], unmapped: tuple[int, ...] = ()) -> None:
        self.chars = chars
        self.unmapped = unmapped  # characters whose font maps them to no Unicode
        # Each character is one UTF-16 code unit, the unit PDFium's text indices count.
        self.index = list(range(len(chars)))
        self.text = "".join(ch for ch, _ in chars)
        self.fonts = [obj for _, obj in chars]
        self.checked: list[int] = []  # characters asked for an unmapped glyph

    def _rects(self, start: int, count: int) -> list[int]:
        stop = len(self.chars) if count < 0 else start + count
        objs: list[int] = []
        for _, obj in self.chars[start:stop]:
            if obj is not None and (not objs or objs[-1] != obj):
                objs.append(obj)
        return objs

    def FPDFText_CountChars(self, handle: object) -> int:
        return len(self.chars)

    def FPDFText_CountRects(self, handle: object, start: int, count: int) -> int:
        self.last = self._rects(start, count)
        return len(self.last)

    def FPDFText_GetRect(self, handle: object, i: int, *refs: object) -> None:
        import ctypes

        for ref, v in zip(
            refs, (10.0 * self.last[i], 20.0, 10.0 * self.last[i] + 9, 10.0), strict=True
        ):
            ctypes.cast(ref, ctypes.POINTER(ctypes.c_double))[0] = v

    def FPDFText_GetTextIndexFromCharIndex(self, handle: object, k: int) -> int:
        return self.index[k]

    def FPDFText_IsGenerated(self, handle: object, k: int) -> int:
        return int(self.chars[k][1] is None)

    def FPDFText_HasUnicodeMapError(self, handle: object, k: int) -> int:
        self.checked.append(k)
        return int(k in self.unmapped)

    def FPDFText_GetFontSize(self, handle: object, k: int) -> float:
        return 10.0

    def FPDFText_GetFontInfo(
        self, handle: object, k: int, buf: object, size: int, flags: object
    ) -> int:
        import ctypes

        name = f"F{self.fonts[k]}".encode()  # one font per text object
        if buf is not None and size > len(name):  # as PDFium: no copy into a short buffer
            ctypes.memmove(buf, name + b"\0", len(name) + 1)  # type: ignore[call-overload]
        return len(name) + 1

    def FPDFText_GetTextObject(self, handle: object, k: int) -> int | None:
        return self.fonts[k]

    def FPDFTextObj_GetFont(self, obj: int | None) -> int | None:
        return obj  # one font per text object

    def FPDFText_GetFontWeight(self, handle: object, k: int) -> int:
        return 400


class _FakeTextPage:
    def __init__(self, raw: _FakeRaw) -> None:
        self.raw = object()
        self._text = raw.text

    def get_text_range(self, errors: str = "ignore") -> str:
        return self._text


def test_pypdfium2_runs_cut_text_in_utf16_units() -> None:
    """A letter outside the BMP (two UTF-16 units, one PDFium character each)
    does not shift the text of the runs after it; generated spaces stay with
    the run before them."""
    _needs("pypdfium2")
    from docparse.backends.pypdfium2_reader import RunReader

    r1, r2 = "\ud835", "\udc5f"  # U+1D45F MATHEMATICAL ITALIC SMALL R as PDFium lists it
    chars = [(r1, 0), (r2, 0), ("=", 0), ("1", 0), (" ", None)]
    chars += [(c, 1) for c in "where"] + [(" ", None)] + [(c, 2) for c in "radius"]
    raw = _FakeRaw(chars)
    page = _FakeTextPage(raw)
    page._text = raw.text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    runs = RunReader(page, raw)
    starts = runs.starts()
    assert starts == [0, 5, 11]
    assert runs.texts(starts) == ["\U0001d45f=1 ", "where ", "radius"]
    left, bottom, right, top = runs.edges
    assert (left, bottom, right, top) == (
        [0.0, 10.0, 20.0],
        [10.0] * 3,
        [9.0, 19.0, 29.0],
        [20.0] * 3,
    )


def test_pypdfium2_glyph_runs_found_without_search() -> None:
    """A page that sets every glyph apart (a run a character, PDFium's
    generated spaces between words) has its runs read off the text, proven by
    the page's rectangle count and one call a space; a space PDFium did not
    generate leaves the page to the search."""
    _needs("pypdfium2")
    from docparse.backends.pypdfium2_reader import RunReader

    chars = [("a", 0), ("b", 1), (" ", None), ("c", 2), ("d", 3)]
    raw = _FakeRaw(chars)
    runs = RunReader(_FakeTextPage(raw), raw)
    assert runs._glyph_starts() == [0, 1, 3, 4]
    assert runs.starts() == [0, 1, 3, 4]
    assert runs.texts(runs.starts()) == ["a", "b ", "c", "d"]
    # The space a glyph of b's text object: as many rectangles as guesses, but
    # the space is not generated, so the guess is not taken.
    chars[2] = (" ", 1)
    raw = _FakeRaw(chars)
    runs = RunReader(_FakeTextPage(raw), raw)
    assert runs.n_rects == 4 and runs._glyph_starts() is None
    assert runs.starts() == [0, 1, 3, 4]
    # Two glyphs in one run: fewer rectangles than guesses.
    raw = _FakeRaw([("a", 0), ("b", 0), (" ", None), ("c", 2)])
    runs = RunReader(_FakeTextPage(raw), raw)
    assert runs._glyph_starts() is None and runs.starts() == [0, 3]


def test_pypdfium2_runs_searched_across_lines() -> None:
    """The search for the runs' first characters probes the next line's first
    character (after PDFium's generated CR LF) before galloping: a line whose
    first character goes on the run before it, lines of several runs and runs
    of several lines come out as the rectangles say."""
    _needs("pypdfium2")
    from docparse.backends.pypdfium2_reader import RunReader

    chars: list[tuple[str, int | None]] = []
    pieces = [("Lorem ipsum ", 0), ("dolor", 1), ("\r\n", None), ("sit amet", 1)]
    pieces += [("\r\n", None), ("consectetur", 2), (",", 3), (" adipiscing", 3), ("\r\n", None)]
    pieces += [("elit", 4), (" ", None), ("sed", 5), ("\r\n", None), ("do", 6)]
    for text, obj in pieces:
        chars += [(c, obj) for c in text]
    raw = _FakeRaw(chars)
    runs = RunReader(_FakeTextPage(raw), raw)
    assert runs._line_starts() == [19, 29, 54, 64]
    starts = runs.starts()
    # A run starts where the text object changes, generated characters left out.
    objs = [(k, obj) for k, (_, obj) in enumerate(chars) if obj is not None]
    assert starts == [0] + [k for (_, a), (k, b) in itertools.pairwise(objs) if a != b]
    assert starts == [0, 12, 29, 40, 54, 59, 64]
    assert runs.texts(starts)[1:3] == ["dolor\r\nsit amet\r\n", "consectetur"]


def test_pypdfium2_runs_mark_glyphs_without_unicode() -> None:
    """A glyph PDFium maps to no Unicode (its code passed through as ``P``)
    becomes U+FFFD in place, so the runs after it keep their text and the
    assembly's glyph cleaning leaves it out."""
    _needs("pypdfium2")
    from docparse.backends.glyphs import count_unmapped, strip_unmapped
    from docparse.backends.pypdfium2_reader import RunReader

    chars = [(c, 0) for c in "Px"] + [(" ", None)] + [(c, 1) for c in "sum"]
    raw = _FakeRaw(chars, unmapped=(0,))
    runs = RunReader(_FakeTextPage(raw), raw)
    starts = runs.starts()
    assert runs.mark_unmapped([(0, 3), (3, 6)]) == 1
    texts = runs.texts(starts)
    assert texts == ["\ufffdx ", "sum"]
    assert count_unmapped(texts[0]) == 1 and strip_unmapped(texts[0]) == "x "


def test_pypdfium2_unmapped_check_once_per_font_and_character() -> None:
    """A run whose characters were all found mapped before in its font is not
    asked about each character again; a run in another font, or with a
    character not seen yet, is, so a glyph unmapped there is still left out
    and counted."""
    _needs("pypdfium2")
    from docparse.backends.pypdfium2_runs import page_runs

    mapped: dict[tuple[str, int], set[str]] = {}
    page1 = [(c, 0) for c in "sum"] + [(" ", None)] + [(c, 1) for c in "us"]
    raw = _FakeRaw(page1)
    spans, bad = page_runs(_FakeTextPage(raw), raw, 0.0, 0.0, 600, mapped)
    assert [s.text for s in spans] == ["sum", "us"] and bad == 0
    assert len(raw.checked) == len(page1)
    # Page 2: "mus" in font 0 is known; "Ps" in font 2 is new, its P unmapped.
    page2 = [(c, 0) for c in "mus"] + [(" ", None)] + [(c, 2) for c in "Ps"]
    raw = _FakeRaw(page2, unmapped=(4,))
    spans, bad = page_runs(_FakeTextPage(raw), raw, 0.0, 0.0, 600, mapped)
    assert [s.text for s in spans] == ["mus", "s"] and bad == 1
    assert raw.checked == [4, 5]
    # Without the memo every character is checked.
    raw = _FakeRaw(page2, unmapped=(4,))
    page_runs(_FakeTextPage(raw), raw, 0.0, 0.0, 600)
    assert len(raw.checked) == len(page2)


def test_pypdfium2_character_runs_join_into_words() -> None:
    """Runs of one character each (a PDF that sets every glyph apart) are read
    as words: same font and size, on one baseline, left to right, closer than
    a word space and no generated space between them. A descender's box
    still counts as on the baseline; a raised smaller digit, a wide gap, a
    space PDFium put in or another font ends the word."""
    _needs("pypdfium2")
    from docparse.backends.pypdfium2_words import _join_runs, _word_starts

    font, other = ("Times", 0), ("Times-Bold", 0)
    # (text, left, bottom, right, top) in PDF space, y upwards; size 10.
    runs = [
        ("t", 10.0, 100.0, 13.0, 107.0),
        ("y", 13.2, 97.8, 18.0, 105.0),  # descender: overlaps most of its height
        ("p", 18.1, 97.8, 23.0, 105.0),
        ("e", 23.1, 100.0, 27.0, 105.0),
        ("2", 27.2, 104.0, 29.0, 108.0),  # raised: overlaps less than half
        ("a", 31.0, 100.0, 35.0, 105.0),  # a 2 pt gap: a word space at size 10
        ("b", 35.1, 100.0, 39.0, 107.0),  # PDFium put a space after it
        ("c", 39.1, 100.0, 43.0, 105.0),
        ("d", 43.1, 100.0, 47.0, 107.0),  # another font
    ]
    texts = [r[0] for r in runs]
    edges = [[r[k] for r in runs] for k in range(1, 5)]  # a column an edge
    fonts = [font] * 8 + [other]
    sizes = [10.0] * 9
    spaced = [False] * 6 + [True, False, False]
    cuts = _word_starts(edges, fonts, sizes, spaced)
    assert cuts == [0, 4, 5, 7, 8]
    words, boxes, starts, word_fonts, word_sizes = _join_runs(
        cuts, texts, edges, list(range(9)), fonts, sizes
    )
    assert words == ["type", "2", "ab", "c", "d"]
    assert [column[0] for column in boxes] == [10.0, 97.8, 27.0, 107.0]
    assert [column[2] for column in boxes] == [31.0, 100.0, 39.0, 107.0]  # "ab"
    assert starts == [0, 4, 5, 7, 8] and word_fonts[-1] == other and word_sizes == [10.0] * 5
    # One word from all the runs.
    one = _join_runs([0], texts[:2], [e[:2] for e in edges], [0, 1], fonts[:2], sizes[:2])
    assert one == (["ty"], [[10.0], [97.8], [18.0], [107.0]], [0], [font], [10.0])
    # Right to left (or overlapping the run before) is never joined.
    assert _word_starts(
        [[20.0, 10.0], [0.0, 0.0], [24.0, 14.0], [7.0, 7.0]], [font] * 2, [10.0] * 2, [False] * 2
    ) == [0, 1]


def test_pypdfium2_array_words_match_the_loop(pmlr: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs joined into words over numpy arrays (pages of many runs) and by the
    per-run loop give the same document: each path forced on every page."""
    _needs("pypdfium2")
    from docparse.backends import pypdfium2_words

    docs = []
    for threshold in (1, 10**9):  # every page through the arrays, then none
        monkeypatch.setattr(pypdfium2_words, "ARRAY_RUNS", threshold)
        docs.append(docparse.parse(pmlr, backend="pypdfium2").to_dict())
    assert docs[0] == docs[1]
    assert len(docs[0]["units"]) > 50


def test_pypdfium2_page_text_as_pypdfium2_reads_it(pmlr: Path) -> None:
    """The backend's page text (one kept buffer, doubled when a page needs
    more) is pypdfium2's ``get_text_range`` on every page, a page after a
    longer one included."""
    _needs("pypdfium2")
    import pypdfium2
    import pypdfium2.raw as raw

    from docparse.backends import pypdfium2_calls

    pdf = pypdfium2.PdfDocument(pmlr)
    try:
        pages = [pdf[k] for k in range(len(pdf))]
        text_pages = [page.get_textpage() for page in pages]
        expected = [t.get_text_range() for t in text_pages]
        assert len({len(t) for t in expected}) > 2
        # Longest first, then the rest: the kept buffer holds a longer page's text.
        order = sorted(range(len(pages)), key=lambda k: -len(expected[k]))
        for k in [*order, *reversed(order)]:
            page_text = pypdfium2_calls.TextPage(text_pages[k].raw, raw)
            assert page_text.get_text_range() == expected[k]
    finally:
        pdf.close()

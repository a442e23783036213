"""OCR: which pages are read, how OCR lines become page records and units.

Most tests use a fake engine (fixed lines), so they run without any OCR engine
installed; the ones that run rapidocr or tesseract skip without them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import unicodedata
from pathlib import Path

import pymupdf
import pytest

import docparse
from docparse.backends.pages import Block, Line, PageContent, PdfConfig, TextSpan
from docparse.errors import ConfigError, MissingDependencyError
from docparse.model import BBox, Document, Provenance
from docparse.ocr import engine as engine_mod
from docparse.ocr.engine import OcrEngine, OcrLine, OcrWord
from docparse.ocr.pages import (
    needs_ocr,
    ocr_records,
    page_content,
    picture_text,
    skew,
    unmapped_glyphs,
)
from docparse.ocr.rapidocr import MAX_PIECE_RATIO, char_boxes, cut_points, split_words
from docparse.ocr.scan import ScanStyle, rasterize
from docparse.ocr.tesseract import parse_tsv


def _page(text: str) -> PageContent:
    span = TextSpan(text, BBox(72, 72, 300, 84), 10.0)
    line = Line((span,), span.bbox)
    return PageContent(1, 612, 792, blocks=(Block((line,), span.bbox),))


def test_needs_ocr_by_mode_and_text_layer() -> None:
    empty = PageContent(1, 612, 792)
    text = _page("A page with a real text layer.")
    broken = _page("\ufffd\ufffd\ufffd\ue001\ue002 ab")
    assert needs_ocr(empty, "auto") and needs_ocr(broken, "auto")
    # A backend that left its unmapped glyphs out of the text reports them as a count.
    cleaned = dataclasses.replace(_page("ab cd"), unmapped_glyphs=40)
    assert needs_ocr(cleaned, "auto")
    assert not needs_ocr(dataclasses.replace(text, unmapped_glyphs=2), "auto")
    assert not needs_ocr(text, "auto")
    assert needs_ocr(text, "force")
    assert not needs_ocr(empty, "off")


def test_unmapped_glyphs_are_the_meaningless_code_points() -> None:
    """The regex count agrees with the Unicode categories on every code point."""

    def meaningless(ch: str) -> bool:
        cat = unicodedata.category(ch)
        return ch == "\ufffd" or cat in ("Co", "Cs") or (cat == "Cc" and not ch.isspace())

    chars = [chr(c) for c in range(0x110000)]
    expected = sum(map(meaningless, chars)), sum(not c.isspace() for c in chars)
    assert unmapped_glyphs(_page("".join(chars))) == expected
    assert unmapped_glyphs(_page("ab \ufffd\x07\t\ue000 c")) == (3, 6)


def test_unmapped_glyphs_of_printable_text_count_what_the_pattern_counts() -> None:
    """Printable page text is counted without the split and the pattern: it can hold
    no space but " ", and no unmapped character but U+FFFD."""
    from docparse.ocr.pages import _UNMAPPED_CHARS

    chars = [chr(c) for c in range(0x110000)]
    assert not any(c.isprintable() for c in chars if c.isspace() and c != " ")
    assert [c for c in chars if c.isprintable() and _UNMAPPED_CHARS.match(c)] == ["\ufffd"]
    for text in ("ab \ufffd\ufffd c\u00e9 \U0001d400", "", "   ", "x\u00a0y \ue000"):
        page = _page(text)
        lines = (
            Line(
                (TextSpan(text, BBox(0, 0, 9, 9)), TextSpan("d e", BBox(20, 0, 29, 9))),
                BBox(0, 0, 29, 9),
            ),
        )
        for p in (page, dataclasses.replace(page, blocks=(Block(lines, BBox(0, 0, 29, 9)),))):
            joined = "".join(s.text for b in p.blocks for ln in b.lines for s in ln.spans)
            expected = len(_UNMAPPED_CHARS.findall(joined)), len("".join(joined.split()))
            assert unmapped_glyphs(p) == expected, text


def test_ocr_options_are_validated() -> None:
    from docparse.config import resolve_config

    with pytest.raises(ConfigError):
        resolve_config(PdfConfig, {"ocr": "sometimes"})
    with pytest.raises(ConfigError):
        resolve_config(PdfConfig, {"ocr_engine": "easyocr"})
    with pytest.raises(ConfigError):
        PdfConfig(ocr_dpi=5000)
    assert PdfConfig().ocr == "auto" and PdfConfig().ocr_engine == "rapidocr"


def test_split_words_cuts_at_spaces_and_wide_gaps() -> None:
    chars = [*"ab cd", "e", "f"]
    boxes = [(0, 0, 8, 20), (9, 0, 17, 20), (18, 0, 22, 20), (23, 0, 31, 20), (32, 0, 40, 20)]
    boxes += [(52, 0, 60, 20), (61, 0, 69, 20)]  # a 12 px gap on a 20 px line: a space
    words = split_words(chars, boxes, [0.9] * 7, 20.0)
    assert [w.text for w in words] == ["ab", "cd", "ef"]
    assert words[2].box == (52, 0, 69, 20)
    cjk = split_words(
        list("中文字"), [(0, 0, 10, 20), (20, 0, 30, 20), (31, 0, 40, 20)], [1] * 3, 20
    )
    assert [w.text for w in cjk] == ["中文字"]


def test_long_line_crops_are_cut_in_the_spaces_between_words() -> None:
    import numpy as np

    h = 40
    crop = np.full((h, 2000, 3), 250, dtype=np.uint8)
    gaps = []
    x = 10
    while x < 1990:  # "words" of 90 px ink, 14 px apart, letters 2 px apart
        for letter in range(x, min(x + 90, 1990), 10):
            crop[8:32, letter : letter + 8] = 20
        gaps.append((x + 90, x + 104))
        x += 104
    cuts = cut_points(crop)
    assert cuts, "a line 50 heights wide is cut"
    edges = [0, *cuts, 2000]
    assert all(b - a <= MAX_PIECE_RATIO * h for a, b in itertools.pairwise(edges))
    assert all(any(a <= c < b for a, b in gaps) for c in cuts)
    # A short line, and a long one with no space wide enough, stay whole.
    assert cut_points(crop[:, :400]) == []
    solid = np.full((h, 2000, 3), 250, dtype=np.uint8)
    solid[8:32, ::3] = 20
    assert cut_points(solid) == []


def test_tesseract_tsv_lines() -> None:
    head = "\t".join(
        [
            "level",
            "page_num",
            "block_num",
            "par_num",
            "line_num",
            "word_num",
            "left",
            "top",
            "width",
            "height",
            "conf",
            "text",
        ]
    )
    rows = [
        "5\t1\t1\t1\t1\t1\t10\t10\t40\t12\t96.5\tHello",
        "5\t1\t1\t1\t1\t2\t55\t10\t40\t12\t91\tworld",
        "4\t1\t1\t1\t2\t0\t10\t30\t40\t12\t-1\t",
        "5\t1\t1\t1\t2\t1\t10\t30\t40\t12\t80\tNext",
    ]
    lines = parse_tsv("\n".join([head, *rows]))
    assert [ln.text for ln in lines] == ["Hello world", "Next"]
    assert lines[0].box == (10, 10, 95, 22)
    assert lines[0].words[0].confidence == pytest.approx(0.965)


def _line(text: str, x: float, y: float, h: float = 20.0, angle: float = 0.0) -> OcrLine:
    words = []
    for i, t in enumerate(text.split()):
        x0 = x + i * 60
        dy = -math.tan(angle) * (x0 - x)
        words.append(OcrWord(t, (x0, y + dy, x0 + 50, y + dy + h), 0.9))
    box = (
        words[0].box[0],
        min(w.box[1] for w in words),
        words[-1].box[2],
        max(w.box[3] for w in words),
    )
    return OcrLine(tuple(words), box, h, angle)


def test_page_content_levels_skew_and_keeps_paragraph_lines_together() -> None:
    angle = math.radians(1.5)
    lines = [
        _line("one two three four five six seven", 100, 200 + 30 * i, angle=angle) for i in range(6)
    ]
    assert skew(lines) == pytest.approx(angle)
    page, words = page_content(1, lines, 2.0, (1200, 1600), 0)
    assert len(page.blocks) == 1 and len(page.blocks[0].lines) == 6
    assert page.blocks[0].lines[0].text == "one two three four five six seven"
    assert len(words) == 42 and page.width == 600 and page.rotation == 0


def test_page_content_of_a_turned_page_maps_back_to_the_displayed_page() -> None:
    # Read upright after one counter-clockwise quarter turn of a landscape image.
    page, words = page_content(1, [_line("upright text here", 100, 100)], 2.0, (800, 1000), 1)
    assert page.rotation == 90 and (page.width, page.height) == (400, 500)
    first = words[0][0]  # (50, 50, 75, 60) upright -> displayed (500 - 60, 50, 500 - 50, 75)
    assert (first.x0, first.y0, first.x1, first.y1) == (440, 50, 450, 75)


class FakeEngine(OcrEngine):
    """Reads every page as the same two paragraphs."""

    name = "fake"
    dpi = 72

    def recognize(self, image: object, sample: int | None = None) -> list[OcrLine]:
        out = [_line("Scanned Heading", 72, 60, h=18)]
        out += [_line("the body text of a scanned page", 72, 100 + 14 * i, h=10) for i in range(3)]
        return out


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(engine_mod._ENGINES, "rapidocr", FakeEngine())


def _mixed_pdf(path: Path) -> Path:
    """Page 1 text, page 2 an image only (a scan), page 3 text."""
    doc = pymupdf.open()
    for n in range(3):
        page = doc.new_page()
        if n == 1:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
            pix.set_rect(pix.irect, (120, 120, 120))
            page.insert_image(pymupdf.Rect(72, 72, 372, 272), pixmap=pix)
        else:
            page.insert_text((72, 100), f"Text layer page {n + 1} says something.", fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.mark.usefixtures("fake_engine")
@pytest.mark.parametrize("backend", ["pymupdf", "pdfplumber"])
def test_auto_ocrs_exactly_the_scanned_page(tmp_path: Path, backend: str) -> None:
    path = _mixed_pdf(tmp_path / "mixed.pdf")
    with ocr_records() as records:
        doc = docparse.parse(path, backend=backend)
    assert doc.ocr_pages == (2,) and [r.page for r in records] == [2]
    ocr_units = [u for u in doc.units if u.page == 2]
    assert ocr_units and all(u.provenance[0].source == "ocr" for u in ocr_units)
    assert all(u.provenance[0].confidence == pytest.approx(0.9) for u in ocr_units)
    assert any("the body text of a scanned page" in u.text for u in ocr_units)
    text_units = [u for u in doc.units if u.page != 2]
    assert all(
        p.source == "text_layer" and p.confidence is None for u in text_units for p in u.provenance
    )
    off = docparse.parse(path, backend=backend, config={"ocr": "off"})
    assert off.ocr_pages == () and [u.text for u in off.units] == [u.text for u in text_units]
    forced = docparse.parse(path, backend=backend, config={"ocr": "force"})
    assert forced.ocr_pages == (1, 2, 3)


class LogoEngine(OcrEngine):
    """Reads every page as one word in huge letters: a logo on a cover."""

    name = "logo"
    dpi = 72

    def recognize(self, image: object, sample: int | None = None) -> list[OcrLine]:
        return [_line("acme", 100, 500, h=150)]


def _cover_then_text(path: Path) -> Path:
    """Page 1 an image only (a scanned cover), pages 2-3 text with a heading each."""
    doc = pymupdf.open()
    cover = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
    pix.set_rect(pix.irect, (120, 120, 120))
    cover.insert_image(pymupdf.Rect(72, 72, 372, 272), pixmap=pix)
    for n, heading in ((2, "Introduction"), (3, "Methods and data")):
        page = doc.new_page()
        page.insert_text((72, 80 + 20 * n), heading, fontsize=16)
        for i in range(4):
            page.insert_text(
                (72, 160 + 14 * i), f"Body text line {i} of page {n} goes on here.", fontsize=10
            )
    doc.save(path)
    doc.close()
    return path


def test_ocr_text_without_structure_opens_no_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(engine_mod._ENGINES, "rapidocr", LogoEngine())
    path = _cover_then_text(tmp_path / "cover.pdf")
    auto = docparse.parse(path)
    off = docparse.parse(path, config={"ocr": "off"})
    assert auto.ocr_pages == (1,)
    logo = [u for u in auto.units if u.page == 1]
    assert [(u.kind, u.text) for u in logo] == [("paragraph", "acme")]
    text_pages = [(u.kind, u.text, u.section) for u in auto.units if u.page != 1]
    assert text_pages == [(u.kind, u.text, u.section) for u in off.units]
    assert any(u.kind == "heading" for u in off.units)


def test_picture_text_is_a_few_unnumbered_lines() -> None:
    assert picture_text([_line("acme", 100, 500, h=150)])
    assert picture_text([_line("Annual", 100, 100, h=60), _line("Report", 100, 200, h=60)])
    # A numbered section title alone on its page is a heading, not a picture.
    assert not picture_text([_line("3 Methods", 100, 100, h=30)])
    lines = [_line("Scanned Heading", 72, 60, h=18)]
    lines += [_line("the body of the page", 72, 100 + 14 * i, h=10) for i in range(3)]
    assert not picture_text(lines)
    page, _ = page_content(1, [_line("acme", 100, 500, h=150)], 1.0, (600, 800), 0)
    assert [b.role for b in page.blocks] == ["figure"]
    page, _ = page_content(1, lines, 1.0, (600, 800), 0)
    assert all(b.role is None for b in page.blocks)


@pytest.mark.usefixtures("fake_engine")
def test_ocr_provenance_round_trips_through_json(tmp_path: Path) -> None:
    doc = docparse.parse(_mixed_pdf(tmp_path / "mixed.pdf"))
    again = Document.from_json(doc.to_json())
    assert again == doc
    assert Provenance.from_dict({"page": 1, "bbox": None}).source == "text_layer"


def test_missing_engine_warns_in_auto_and_raises_in_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str) -> OcrEngine:
        raise MissingDependencyError("the rapidocr OCR engine", "pip install 'docparse[ocr]'")

    monkeypatch.setattr("docparse.ocr.pages.load_engine", missing)
    path = _mixed_pdf(tmp_path / "mixed.pdf")
    with pytest.warns(UserWarning, match=r"pip install 'docparse\[ocr\]'"):
        doc = docparse.parse(path)
    assert doc.ocr_pages == () and "no_text_layer:pages=2" in doc.flags
    with pytest.raises(MissingDependencyError, match=r"pip install 'docparse\[ocr\]'"):
        docparse.parse(path, config={"ocr": "force"})


def test_rasterize_writes_image_only_pages(tmp_path: Path) -> None:
    src = _mixed_pdf(tmp_path / "mixed.pdf")
    out = rasterize(src, tmp_path / "scan.pdf", ScanStyle(dpi=50, skew=1.5, noise=8, jpeg=60))
    with pymupdf.open(out) as doc:
        assert doc.page_count == 3
        assert all(not p.get_text().strip() and p.get_images() for p in doc)
        assert doc[0].rect == pymupdf.open(src)[0].rect


def _needs(engine: str) -> None:
    import importlib.util
    import shutil

    if engine == "rapidocr" and importlib.util.find_spec("rapidocr_onnxruntime") is None:
        pytest.skip("rapidocr is not installed (pip install 'docparse[ocr]')")
    if engine == "tesseract" and shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)")


@pytest.mark.parametrize(
    ("scan", "engine", "min_recall", "rotation"),
    [
        ("pmlr-intro-200dpi.pdf", "rapidocr", 0.95, 0),
        ("pmlr-intro-degraded.pdf", "rapidocr", 0.9, 0),
        ("pmlr-intro-turned.pdf", "rapidocr", 0.95, 90),
        ("pmlr-intro-200dpi.pdf", "tesseract", 0.9, 0),
    ],
)
def test_scan_reads_like_its_text_layer(
    scan: str, engine: str, min_recall: float, rotation: int, fixtures_dir: Path
) -> None:
    from align.project import project

    _needs(engine)
    ocr_dir = fixtures_dir / "ocr"
    gold = docparse.parse(ocr_dir / "pmlr-intro-text.pdf", config={"ocr": "off"})
    with ocr_records() as records:
        doc = docparse.parse(ocr_dir / scan, config={"ocr_engine": engine})
    assert [r.rotation for r in records] == [rotation]
    proj = project(gold, doc)
    assert proj.word_recall() >= min_recall, [u.text for u in doc.units]
    if engine == "rapidocr":
        # The same structure: a heading found by its bold strokes, then the paragraphs.
        assert [u.kind for u in doc.units] == [u.kind for u in gold.units]
    assert all(p.source == "ocr" and p.confidence for u in doc.units for p in u.provenance)
    # Boxes are on the displayed page, inside it.
    with pymupdf.open(ocr_dir / scan) as pdf:
        width = pdf[0].rect.width
    assert all(0 <= u.bbox.x0 < u.bbox.x1 <= width + 1 for u in doc.units if u.bbox)


def test_ocr_page_table_next_to_its_caption() -> None:
    def cell(text: str, x: float, y: float) -> OcrLine:
        return OcrLine(
            (OcrWord(text, (x, y, x + 12 * len(text), y + 20), 0.9),),
            (x, y, x + 12 * len(text), y + 20),
            20,
        )

    lines = [_line("Table 1: Scores of the models", 450, 100)]  # centred: both columns
    for i, (a, b) in enumerate(
        [("Model", "F1"), ("BM25", "0.41"), ("Dense", "0.57"), ("Hybrid", "0.62")]
    ):
        lines += [cell(a, 300, 140 + 30 * i), cell(b, 700, 140 + 30 * i)]
    page, _ = page_content(1, lines, 2.0, (1224, 1584), 0)
    assert [t.rows for t in page.tables] == [
        (("Model", "F1"), ("BM25", "0.41"), ("Dense", "0.57"), ("Hybrid", "0.62"))
    ]
    assert page_content(1, lines, 2.0, (1224, 1584), 0, tables=False)[0].tables == ()


def test_char_boxes_match_rapidocr_and_follow_the_quad() -> None:
    import numpy as np

    pytest.importorskip("rapidocr_onnxruntime")
    from rapidocr_onnxruntime.cal_rec_boxes import CalRecBoxes

    piece = np.zeros((30, 300, 3), dtype=np.uint8)
    quad = np.array([[100, 50], [400, 50], [400, 80], [100, 80]], dtype=np.float32)
    # "ab cd" and two CJK characters over 40 CTC columns, as rapidocr's decoder reports them.
    text = "ab cd\u4e2d\u6587"
    info = [
        40.0,
        [["a", "b", " ", "c", "d"], ["\u4e2d", "\u6587"]],
        [[2, 5, 8, 11, 14], [24, 30]],
        ["en&num", "cn"],
        [0.9] * 7,
    ]
    ours = char_boxes(piece, quad, (text, 0.9, info))
    theirs = CalRecBoxes()([piece], [quad], [(text, 0.9, info)])[0]
    assert ours is not None and ours[3] == list(text)
    spans = sorted(float(p[0]) for b in ours[2] for p in b)
    want = sorted(float(p[0]) for b in theirs[2] for p in b)
    assert spans == pytest.approx(want, abs=2.0)
    assert all(50 <= p[1] <= 80 for b in ours[2] for p in b)
    # A tall quadrilateral (a piece read turned) is left to rapidocr.
    tall = np.array([[0, 0], [30, 0], [30, 300], [0, 300]], dtype=np.float32)
    assert char_boxes(piece, tall, (text, 0.9, info)) is None


def test_read_crops_reads_a_rendered_line() -> None:
    import numpy as np

    _needs("rapidocr")
    from docparse.ocr.rapidocr import RapidOcrEngine

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Scanned pages cost time", fontsize=12)
    pix = page.get_pixmap(dpi=200, clip=pymupdf.Rect(66, 84, 230, 106), alpha=False)
    crop = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    engine = engine_mod.load_engine("rapidocr")
    assert isinstance(engine, RapidOcrEngine)
    ((text, score),) = engine.read_crops([crop])
    assert text.replace(" ", "") == "Scannedpagescosttime"
    assert 0.5 < score <= 1.0

"""PyMuPDF's ``get_text("dict")`` spans as docparse text blocks.

The text half of the PyMuPDF backend (:mod:`docparse.backends.pymupdf`):
spans to lines and blocks, bold by flags or font name, boxes mapped to the
displayed page, and the count of glyphs that map to no text.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from docparse.backends.base import Block, Line, TextSpan
from docparse.backends.glyphs import (
    count_unmapped,
    has_spacing_accent,
    place_accents,
    strip_unmapped,
)
from docparse.backends.lines import make_line, new_bbox, new_span
from docparse.model import BBox

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|\bbx|cmbx|,b\b|-b\b", re.IGNORECASE)


def is_bold(span: dict[str, Any]) -> bool:
    """Bold by the font flags (bit 4) or by the font's name."""
    return bool(int(span.get("flags", 0)) & 16) or _bold_font(str(span.get("font")))


@functools.lru_cache(maxsize=512)
def _bold_font(font: str) -> bool:
    # A page has a handful of fonts and thousands of spans: match each name once.
    return bool(_BOLD_FONT.search(font))


def to_bbox(b: Any) -> BBox:
    """A PyMuPDF rectangle or 4-tuple as a :class:`~docparse.model.BBox`."""
    return new_bbox(float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def rotator(rotation: int, width: float, height: float) -> Any:
    """Map unrotated-page coordinates to the displayed page (``None`` if unrotated).

    ``width``/``height`` are the unrotated page's size.
    """
    from docparse.backends.base import display_bbox

    if rotation % 360 == 0:
        return None

    def rot(b: Any) -> BBox:
        return display_bbox(to_bbox(b), rotation, width, height)

    return rot


def blocks_from_dict(
    data: dict[str, Any], rot: Any = None, page: Any = None, textpage: Any = None
) -> tuple[Block, ...]:
    """Text blocks of a ``get_text("dict")`` result as :class:`Block` records.

    ``rot`` (from :func:`rotator`) maps boxes to the displayed page. With
    the ``page`` and the ``textpage`` ``data`` was read from, TeX's spacing
    accents are merged into their letters (:func:`place_span_accents`).
    """
    box = rot or to_bbox
    blocks: list[Block] = []
    # Spans with a spacing accent, seen while reading the spans anyway: the
    # few pages with one are read again, glyph by glyph.
    accents: list[bool] = []
    for b in data.get("blocks", ()):
        if b.get("type", 0) != 0:
            continue
        lines: list[Line] = []
        # A line of one span has the span's box, a block of one line the line's: the
        # (frozen) box made for the one is used for the other.
        last_raw: Any = None
        last_box: BBox | None = None
        for ln in b.get("lines", ()):
            runs = _runs(ln.get("spans", ()), accents)
            for run in runs:
                if not run[0].isspace():
                    break
            else:
                continue  # nothing printed
            spans: list[TextSpan] = []
            for text, raw, s in runs:
                last_raw = raw
                # to_bbox's box, made here: a call fewer for each of a page's spans.
                last_box = (
                    new_bbox(float(raw[0]), float(raw[1]), float(raw[2]), float(raw[3]))
                    if rot is None
                    else rot(raw)
                )
                font = s.get("font", "")
                spans.append(
                    new_span(
                        text,
                        last_box,
                        float(s.get("size", 0.0)),
                        # is_bold, inline.
                        bool(int(s.get("flags", 0)) & 16) or _bold_font(str(font)),
                        str(font),
                    )
                )
            if last_box is None or tuple(ln["bbox"]) != tuple(last_raw):
                last_raw, last_box = ln["bbox"], box(ln["bbox"])
            # Text, size and bold set as the line is made: the assembly reads them all.
            lines.append(make_line(tuple(spans), last_box))
        if lines:
            block_box = last_box
            if block_box is None or tuple(b["bbox"]) != tuple(last_raw):
                block_box = box(b["bbox"])
            blocks.append(Block(tuple(lines), block_box))
    if accents and page is not None and place_span_accents(data, page, textpage):
        return blocks_from_dict(data, rot)
    return tuple(blocks)


def _runs(spans: Any, accents: list[bool]) -> list[list[Any]]:
    """A line's spans with text as ``[text, bbox, span]``, a blank span joined to
    the roman span before it when both have one font, size, flags and height.

    Justified text often comes as one span a word and one a space (half the
    spans of a book or a filing); the space is part of the word's run for
    every reader of spans (a line's text, size and bold, superscripts, marks,
    fonts), and a record fewer to make. Bold spans stay apart: a run-in
    heading's box ends at its last printed span. A span with a spacing
    accent (:func:`~docparse.backends.glyphs.has_spacing_accent`) adds to
    ``accents``.
    """
    runs: list[list[Any]] = []
    for s in spans:
        text = str(s.get("text", ""))
        # strip_unmapped's own test first: most spans have nothing to strip.
        if "\ufffd" in text or "(cid:" in text or not text.isprintable():
            text = strip_unmapped(text)
        if not text:
            continue
        if has_spacing_accent(text):
            accents.append(True)
        if runs and text.isspace():
            prev = runs[-1]
            p, pb, sb = prev[2], prev[1], s["bbox"]
            if (
                s.get("font") == p.get("font")
                and s.get("size") == p.get("size")
                and s.get("flags") == p.get("flags")
                and sb[1] == pb[1]
                and sb[3] == pb[3]
                and sb[0] >= pb[0]
                and not is_bold(s)
            ):
                prev[0] += text
                prev[1] = (pb[0], pb[1], sb[2] if sb[2] > pb[2] else pb[2], pb[3])
                continue
        runs.append([text, s["bbox"], s])
    return runs


def unmapped_in_dict(data: dict[str, Any]) -> int:
    """Glyphs of a ``get_text("dict")`` result that map to no text (U+FFFD)."""
    return sum(
        count_unmapped(str(s.get("text", "")))
        for b in data.get("blocks", ())
        for ln in b.get("lines", ())
        for s in ln.get("spans", ())
    )


def show_hidden_layers(doc: Any) -> None:
    """Turn on the optional content layers (OCGs) that ``doc``'s default view hides.

    MuPDF leaves the text of a hidden layer out of ``get_text``, where
    pdfium and pdfminer (the other backends) read every layer: a slide
    package's build steps (``lecturer``, ``ocgx``), a figure's switchable
    labels and a form's alternatives are text of the document, and a page
    whose layers all start hidden would read as empty. Only the document
    opened here changes (nothing is saved).
    """
    if not doc.get_ocgs():
        return
    for layer in doc.layer_ui_configs():
        # A label heads a group of layers and cannot be switched.
        if not layer["on"] and layer["type"] != "label":
            doc.set_layer_ui_config(layer["number"], 0)


def _text_lines(data: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [
        ln.get("spans", [])
        for b in data.get("blocks", ())
        if b.get("type", 0) == 0
        for ln in b.get("lines", ())
    ]


def place_span_accents(data: dict[str, Any], page: Any, textpage: Any) -> bool:
    """Merge TeX's spacing accents into their letters in ``data``'s spans
    (see :func:`docparse.backends.glyphs.place_accents`), in place.

    A span's text has no glyph boxes: the few pages with a spacing accent in
    a span are read again as ``rawdict`` from the same text page, whose
    lines and spans are ``data``'s one for one. An accent raised over a
    capital is a span of its own: a line's glyphs are read together, and a
    span left empty is dropped with the other empty spans. True when a
    span's text changed.
    """
    lines = _text_lines(data)
    raw = _text_lines(page.get_text("rawdict", textpage=textpage, sort=False))
    if len(raw) != len(lines):
        return False
    changed = False
    for spans, raw_spans in zip(lines, raw, strict=True):
        if len(spans) != len(raw_spans) or not any(has_spacing_accent(s["text"]) for s in spans):
            continue
        glyphs = [(c["c"], c["bbox"][0], c["bbox"][2]) for rs in raw_spans for c in rs["chars"]]
        texts = place_accents(glyphs)
        if texts is None:
            continue
        k = 0
        for span, rs in zip(spans, raw_spans, strict=True):
            n = len(rs["chars"])
            text = "".join(texts[k : k + n])
            if text != span["text"] and "".join(c["c"] for c in rs["chars"]) == span["text"]:
                span["text"] = text
                changed = True
            k += n
    return changed


def place_word_accents(words: list[Any], page: Any, textpage: Any) -> list[Any]:
    """``get_text("words")`` tuples with TeX's spacing accents merged into
    their letters, as :func:`place_span_accents` merges them in the spans:
    the table finders read these words, and a cell must read as the line the
    layout keeps (a cell ``´ecrire`` beside a line ``écrire`` is two texts).
    """
    if not any(has_spacing_accent(w[4]) for w in words):
        return words
    raw = page.get_text("rawdict", textpage=textpage, sort=False)
    chars = [
        (c["c"], c["bbox"])
        for b in raw.get("blocks", ())
        if b.get("type", 0) == 0
        for ln in b.get("lines", ())
        for s in ln.get("spans", ())
        for c in s.get("chars", ())
    ]
    out = []
    for w in words:
        if has_spacing_accent(w[4]):
            x0, y0, x1, y1 = w[:4]
            mine = [
                (c, b[0], b[2])
                for c, b in chars
                if x0 <= 0.5 * (b[0] + b[2]) <= x1 and y0 <= 0.5 * (b[1] + b[3]) <= y1
            ]
            texts = place_accents(mine)
            if texts is not None and "".join(c for c, _, _ in mine) == w[4]:
                w = (*w[:4], "".join(texts), *w[5:])
        out.append(w)
    return out

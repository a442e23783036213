"""TeX's math fonts read by their standard encodings when a PDF gives no Unicode map.

TeX's math symbol and extension fonts (Computer Modern's ``cmsy``/``cmex``,
Latin Modern's ``LMMathSymbols``/``LMMathExtension``) name their glyphs with
TeX's own names (``negationslash``, ``angbracketright``,
``summationdisplay``), which no Unicode glyph list knows. A PDF that embeds
them without a ``/ToUnicode`` map leaves the libraries with the glyph's code:
PDFium flags it (``FPDFText_HasUnicodeMapError``) and pdfminer passes the
code through as a character, so ``A ≠ B`` reads ``A 6= B`` and ``⟨ψ|`` reads
``|ψi``. These fonts have one fixed encoding each (TeX's OMS and OMX), so a
code of such a font names its glyph: :func:`tex_math_char` reads it.

The extension font's glyphs (big operators, radicals, delimiters in four
sizes) are read too, but their boxes are not the line's: PDFium gives the
ink, as tall as the formula, and pdfminer and MuPDF an em-high box hung
from the glyph's top, above its ink. Either pulled the lines beside an
inline ``∑`` into one, so each backend gives such a glyph the box
:func:`ink_band` says (the middle band of its formula's line; a display's
big operator keeps its ink). The pieces tall delimiters are built of but
the top one, the big circle of ``©`` and ``mapsto``'s bar, half of ``↦``,
are read as unmapped glyphs (:mod:`docparse.backends.glyphs`) and left out
of the text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

#: The negation slash (OMS 0x36), drawn over the relation it negates: U+0338 after it.
NEGATION = "\u0338"

# TeX's OMS encoding (cmsy10): code -> character. The calligraphic capitals
# (0x41-0x5A) are their letters, as NFKC reads 𝒜.
_OMS: dict[int, str] = {
    **dict(enumerate("−⋅×∗÷⋄±∓⊕⊖⊗⊘⊙")),
    # 0x0D, the big circle, is left out: TeX draws © as it and a ``c``.
    **dict(enumerate("∘∙≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻", start=0x0E)),
    **dict(enumerate("←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝′∞∈∋△▽", start=0x20)),
    0x36: NEGATION,
    **dict(enumerate("∀∃¬∅ℜℑ⊤⊥ℵ", start=0x38)),
    **{code: chr(code) for code in range(0x41, 0x5B)},
    **dict(enumerate("∪∩⊎∧∨⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠", start=0x5B)),
}

# TeX's math extension font (OMX: cmex10, and the fonts laid out as it:
# Latin Modern's, txfonts' ``txex``, pxfonts' ``pxex``): big operators,
# radicals and delimiters in four sizes, then the pieces tall ones are built
# of. A delimiter built of pieces reads as its top piece (``⎛`` of ``(``),
# a radical as its hook; the other pieces, the wide accents and the
# extensible bars read as no character (as a glyph without a map). The
# glyphs' boxes are the backends' to keep on the line (:func:`extension_box`).
_OMX: dict[int, str] = {
    **dict(enumerate("()[]⌊⌋⌈⌉{}⟨⟩", start=0x00)),
    0x0E: "/",
    0x0F: "\\",
    **dict(enumerate("()()[]⌊⌋⌈⌉{}⟨⟩/\\()[]⌊⌋⌈⌉{}⟨⟩/\\/\\", start=0x10)),
    0x30: "(",
    0x31: ")",
    0x32: "[",
    0x33: "]",
    0x38: "{",
    0x39: "}",
    0x44: "⟨",
    0x45: "⟩",
    **dict(enumerate("⨆⨆∮∮⨀⨀⨁⨁⨂⨂∑∏∫⋃⋂⨄⋀⋁∑∏∫⋃⋂⨄⋀⋁∐∐", start=0x46)),
    **dict(enumerate("[]⌊⌋⌈⌉{}√√√√√", start=0x68)),
}

# The height of an OMX glyph from its top (its baseline: TeX hangs them
# from it) to its bottom, in ems, by code (cmex10's metrics, rounded): the
# glyph's middle, where the formula's axis runs, is half of it down.
_OMX_DEPTH: dict[int, float] = {
    **dict.fromkeys(range(0x00, 0x10), 1.2),
    **dict.fromkeys((0x10, 0x11, 0x2A, 0x2B, 0x2E, 0x2F, 0x44, 0x45), 1.8),
    **dict.fromkeys(range(0x12, 0x20), 2.4),
    **dict.fromkeys((*range(0x20, 0x2A), 0x2C, 0x2D), 3.0),
    # Operators: text and display style alternate, but for eight of each in a row.
    **dict.fromkeys((*range(0x46, 0x50, 2), *range(0x50, 0x58), 0x60), 1.0),
    **dict.fromkeys((*range(0x47, 0x50, 2), *range(0x58, 0x60), 0x61), 1.4),
    **dict.fromkeys(range(0x68, 0x70), 1.8),
    0x48: 1.11,
    0x49: 2.22,
    0x52: 1.11,
    0x5A: 2.22,
    0x70: 1.2,
    0x71: 1.8,
    0x72: 2.4,
    0x73: 3.0,
}

# A font's name without its subset tag ("ABCDEF+"), then its family.
_SYMBOLS = re.compile(r"^(?:[A-Z]{6}\+)?(?:CMB?SY\d|LMB?SY\d|LMMathSymbols)", re.IGNORECASE)
_EXTENSION = re.compile(
    r"^(?:[A-Z]{6}\+)?(?:CMEXB?\d|LMEX\d|LMMathExtension|[TP]XEX(?![A-Z]))", re.IGNORECASE
)


@functools.lru_cache(maxsize=256)  # asked once a character, of a page's few fonts
def tex_math_table(font: str) -> Mapping[int, str] | None:
    """The code table of ``font`` when it is one of TeX's math symbol or
    extension fonts (by name), else ``None``.

    >>> tex_math_table("DQCETI+LMMathSymbols10-Regular")[0x69]
    '⟩'
    >>> tex_math_table("CMR10") is None
    True
    """
    if _SYMBOLS.match(font):
        return _OMS
    if _EXTENSION.match(font):
        return _OMX
    return None


def tex_math_char(font: str, code: int) -> str | None:
    """The character of glyph ``code`` in ``font``, one of TeX's math fonts
    read without a Unicode map; ``None`` for any other font or a glyph
    read as no character (the extension font's, :data:`_OMX`).

    >>> tex_math_char("LMMathSymbols10-Regular", ord("6")) == NEGATION
    True
    """
    table = tex_math_table(font)
    return None if table is None else table.get(code)


#: The depth, in ems, of the tallest extension glyphs running text holds
#: (a text style ``∫``, ``\bigl(``): a line's pitch. A taller glyph is a
#: display's, whose box may span the display's rows.
_INLINE_DEPTH = 1.25

#: The big operators of :data:`_OMX`, and the delimiters that open (with the
#: radical: its argument follows it) and close.
_OPERATORS = frozenset("⨆∮⨀⨁⨂∑∏∫⋃⋂⨄⋀⋁∐")
_OPENING = frozenset("([{⌊⌈⟨√")
_CLOSING = frozenset(")]}⌋⌉⟩")

#: Half the height of the box an extension glyph is given, in ems: a line's
#: middle band, so the glyph joins the line of its formula's main row and
#: no other (its own box spans the limits, the numerators or, inline, the
#: lines of prose above and below).
_AXIS_HALF = 0.35


def is_extension(font: str) -> bool:
    """Whether ``font`` is one of TeX's math extension fonts (by name).

    >>> is_extension("ABCDEF+CMEX10"), is_extension("txex"), is_extension("CMSY10")
    (True, True, False)
    """
    return tex_math_table(font) is _OMX


def axis_band(middle: float, size: float) -> tuple[float, float]:
    """The box's ``(top, bottom)`` (y down) of a line's middle band around
    ``middle``, for a glyph set at ``size``.

    >>> axis_band(100.0, 10.0)
    (96.5, 103.5)
    """
    return middle - _AXIS_HALF * size, middle + _AXIS_HALF * size


def ink_band(text: str, top: float, bottom: float, size: float) -> tuple[float, float]:
    """The box's ``(top, bottom)`` (y down) given to extension glyphs
    ``text`` whose ink spans ``top`` to ``bottom``, set at ``size``.

    A glyph no deeper than running text holds (:data:`_INLINE_DEPTH`) gets
    the :func:`axis_band` of its middle: TeX centres big operators and
    delimiters on the formula's axis, and its own box would span the
    lines of prose around an inline formula. A taller big operator keeps
    its ink: only displays hold it, and its box ties its limits to the
    formula's main row. A taller delimiter or radical would make one line
    of the rows it encloses (a matrix's, a fraction's): an opening one
    (and a radical) gets the band of its first row, a closing one that of
    its last, where the twin's reading order has them.

    >>> ink_band("∑", 100.0, 114.0, 10.0), ink_band("(", 100.0, 124.0, 10.0)
    ((100.0, 114.0), (101.5, 108.5))
    """
    if bottom - top <= _INLINE_DEPTH * size:
        return axis_band(0.5 * (top + bottom), size)
    if not _OPERATORS.isdisjoint(text):
        return top, bottom
    if text[:1] in _OPENING:
        return axis_band(top + 0.5 * size, size)
    if text[-1:] in _CLOSING:
        return axis_band(bottom - 0.5 * size, size)
    return axis_band(0.5 * (top + bottom), size)


def glyph_band(baseline: float, codes: Sequence[int], size: float) -> tuple[float, float]:
    """:func:`ink_band` of extension glyphs ``codes`` drawn on ``baseline``
    at ``size`` (y down), for backends that report a font's box, not the
    ink: the glyphs hang from their baseline, as deep as the font says
    (:data:`_OMX_DEPTH`; the deepest of ``codes`` counts).

    >>> glyph_band(100.0, [0x50], 10.0), glyph_band(100.0, [0x58], 10.0)
    ((101.5, 108.5), (100.0, 114.0))
    """
    depth = max(_OMX_DEPTH.get(k, 1.2) for k in codes)
    text = "".join(_OMX.get(k, "") for k in codes)
    return ink_band(text, baseline, baseline + depth * size, size)


def negated(relation: str) -> str | None:
    """The one character of ``relation`` with the negation slash over it
    (``=`` to ``≠``, ``∈`` to ``∉``), or ``None`` when Unicode has none.

    >>> negated("="), negated("a")
    ('≠', None)
    """
    composed = unicodedata.normalize("NFC", relation + NEGATION)
    return composed if len(composed) == 1 else None


# TeX's math fonts besides the symbol and extension fonts of
# :func:`tex_math_table` (subset tag left out): math italic, the AMS and Euler
# fonts. Their codes are glyph slots too (cmmi's ``-`` is a harpoon), never ASCII.
_OTHER_MATH = re.compile(
    r"^(?:[A-Z]{6}\+)?(?:CMMIB?|LMMIB?|LMMath|MSAM|MSBM|EUFM|EUSM)", re.IGNORECASE
)


def reads_as_itself(font: str, code: int | None) -> bool:
    """Whether a glyph PDFium could not map to Unicode is the printable ASCII
    character its code spells: any font but TeX's math fonts.

    Fonts without a Unicode map whose codes still spell text are common:
    TeX's bitmap (Type 3) fonts, which have no name (a ``verbatim`` block set
    in them), and plot labels in symbolic TrueType fonts. PyMuPDF and
    pdfminer read such codes as the characters; leaving them out as unmapped
    dropped whole code blocks and figure labels. Control codes and codes past
    ASCII stay unmapped: they spell nothing.

    >>> reads_as_itself("", ord("x")), reads_as_itself("CMEX10", ord("P"))
    (True, False)
    """
    if code is None or not 0x21 <= code <= 0x7E:
        return False
    return tex_math_table(font) is None and not _OTHER_MATH.match(font)


_REPLACEMENT = "\ufffd".encode("utf-16-le")


def write_glyph(units: bytearray, t: int, font: str, code: int | None) -> None:
    """Write an unmapped glyph of ``font`` with code ``code`` at UTF-16 unit
    ``t`` of ``units`` (a page's text, UTF-16-LE, as PDFium gives it), in
    place: the character it is in a TeX math symbol font
    (:func:`tex_math_char`), else U+FFFD (left out later as unmapped). One
    unit for one, so no other index moves.

    The negation slash with a relation right after it in the
    text (TeX draws the slash first) makes that relation negated (``=`` to
    ``≠``), the slash's own unit a space; over anything else (an arrow built
    of pieces) it stays unmapped.
    """
    char = None if code is None else tex_math_char(font, code)
    if char == NEGATION:
        after = units[2 * t + 2 : 2 * t + 4].decode("utf-16-le", "replace")
        composed = negated(after) if after else None
        char = None
        if composed is not None:
            units[2 * t : 2 * t + 4] = (" " + composed).encode("utf-16-le")
            return
    data = char.encode("utf-16-le") if char is not None else _REPLACEMENT
    units[2 * t : 2 * t + 2] = data if len(data) == 2 else _REPLACEMENT


#: Characters a TeX math font's glyphs map to when a map is present, which a
#: passed-through code would spell too (``|`` is OMS's ``bar``, not code 0x7C).
_MAPPED_ASCII = frozenset("|{}\\-*()[]<>/")
_CID = re.compile(r"^\(cid:(\d+)\)$")


def _code(text: str) -> int | None:
    """The glyph code a library passed through as ``text``, or ``None``."""
    m = _CID.match(text)
    if m:
        return int(m.group(1))
    if len(text) == 1 and text < "\x80" and text not in _MAPPED_ASCII:
        return ord(text)
    return None


def tex_math_chars(chars: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """pdfminer's characters (pdfplumber's ``page.chars``) with the glyphs of
    TeX's math fonts that had no Unicode map read by the fonts' encodings.

    pdfminer passes such a glyph's code through as a character (``6`` for
    the negation slash, ``X`` for the display summation sign) or as
    ``(cid:N)``; a character of a TeX math font that reads so is replaced
    by its glyph (:func:`tex_math_char`), or by U+FFFD when the glyph is
    read as no character (then counted and left out as unmapped, by
    :func:`~docparse.backends.glyphs.strip_unmapped`). The negation slash
    negates the relation it is drawn over (the character next to it in the
    drawing order, on its line, whose box holds the slash's start): ``=``
    becomes ``≠``; over anything else the slash is unmapped too.
    """
    out: list[dict[str, Any]] = []
    slash_over: list[int] = []  # indices in out of negation slashes
    for c in chars:
        text = str(c["text"])
        table = tex_math_table(str(c.get("fontname", "")))
        code = None if table is None else _code(text)
        if table is None or code is None:
            out.append(c)
            continue
        char = table.get(code, "\ufffd")
        if char == NEGATION:
            slash_over.append(len(out))
        if table is _OMX and char != "\ufffd":
            out.append({**c, "text": char, **_on_axis(c, code)})
            continue
        out.append({**c, "text": char})
    for i in reversed(slash_over):
        slash = out[i]
        for j in (i + 1, i - 1):
            other = out[j] if 0 <= j < len(out) else None
            composed = None if other is None else negated(str(other["text"]))
            if (
                other is not None
                and composed is not None
                and abs(float(other["top"]) - float(slash["top"])) < 0.5 * float(slash["size"])
                # The slash has no width of its own: it starts where its relation does.
                and float(other["x0"]) - 0.1 * float(slash["size"])
                <= float(slash["x0"])
                <= float(other["x1"])
            ):
                out[j] = {**other, "text": composed}
                del out[i]
                break
        else:
            out[i] = {**slash, "text": "\ufffd"}  # over no relation (an arrow of pieces)
    return out


def _on_axis(c: dict[str, Any], code: int) -> dict[str, float]:
    """The box fields of pdfminer character ``c``, a glyph of TeX's extension
    font with code ``code``, moved to :func:`glyph_band`. pdfminer's box is
    the font's (its descent and size from the baseline), which for these
    glyphs lies above the ink, an em high whatever their height."""
    size = float(c["size"])
    top = float(c["top"])
    # The baseline (matrix's f, y up) measured down from the box's top.
    baseline = top + float(c["y1"]) - float(c["matrix"][5])
    new_top, new_bottom = glyph_band(baseline, [code], size)
    shift = new_top - top
    return {
        "top": new_top,
        "bottom": new_bottom,
        "doctop": float(c.get("doctop", top)) + shift,
        "y1": float(c["y1"]) - shift,
        "y0": float(c["y1"]) - shift - (new_bottom - new_top),
    }


def extension_rects(
    rects: npt.NDArray[np.float64],
    texts: Sequence[str],
    fonts: Sequence[tuple[str, int]],
    sizes: Sequence[float],
) -> npt.NDArray[np.float64]:
    """PDFium's text rectangles (left, bottom, right, top; y up), a row a run
    with text ``texts[i]`` of font ``fonts[i]`` (name, flags) and size
    ``sizes[i]``, with those of TeX's extension fonts cut to
    :func:`axis_band` around their middle. PDFium's rectangles hold the
    ink, whose middle is the formula's axis. A big operator taller than
    running text holds (:data:`_INLINE_DEPTH`) keeps its ink: only displays
    hold it, and its box ties its limits to the formula's main row. A tall
    delimiter or radical is cut all the same: its box would make one line
    of the rows it encloses (a matrix's, a fraction's)."""
    out = rects.copy()
    for i, (name, _) in enumerate(fonts):
        size = float(sizes[i])
        if not is_extension(name):
            continue
        low, high = float(out[i, 1]), float(out[i, 3])
        # y up: the ink's top is -high, y down.
        top, bottom = ink_band(texts[i], -high, -low, size)
        out[i, 1], out[i, 3] = -bottom, -top
    return out


#: MuPDF's text flag that gives a glyph's code where the font has no Unicode
#: for it (``TEXT_CID_FOR_UNKNOWN_UNICODE``), in place of U+FFFD.
_MUPDF_CODES = 128


def mupdf_extension_text(page: Any, data: dict[str, Any], flags: int) -> int:
    """Read the glyphs of TeX's extension fonts that MuPDF gave as U+FFFD in
    ``data`` (``page.get_text("dict")`` made with ``flags``) by the fonts'
    encoding, in place; the number of spans changed.

    MuPDF's dict keeps no glyph codes: they are read from a second text page
    that gives codes for unmapped glyphs, made only for a page with such a
    span; a span is read from the span of that page with its font and box
    (the second page may cut a line into spans elsewhere), and left as it is
    when there is none.
    """
    spans = [s for b in data.get("blocks", ()) for ln in b.get("lines", ()) for s in ln["spans"]]
    todo = [
        s
        for s in spans
        if "\ufffd" in str(s.get("text", "")) and is_extension(str(s.get("font", "")))
    ]
    if not todo:
        return 0
    coded = page.get_text("rawdict", flags=flags | _MUPDF_CODES, sort=False)
    others = {
        (s.get("font"), *(round(float(v), 1) for v in s["bbox"])): s.get("chars", ())
        for b in coded.get("blocks", ())
        for ln in b.get("lines", ())
        for s in ln["spans"]
    }
    changed = 0
    for span in todo:
        text = str(span["text"])
        chars = others.get((span.get("font"), *(round(float(v), 1) for v in span["bbox"])), ())
        if len(chars) != len(text):
            continue
        codes = [
            ord(c["c"]) if t == "\ufffd" and len(c["c"]) == 1 else None
            for t, c in zip(text, chars, strict=True)
        ]
        span["text"] = "".join(
            t if k is None else _OMX.get(k, "\ufffd") for t, k in zip(text, codes, strict=True)
        )
        read = [k for k in codes if k is not None and k in _OMX]
        if read:
            # MuPDF's box is the font's, hung from the baseline like the
            # glyph but an em high whatever the glyph's depth.
            x0, _, x1, _ = span["bbox"]
            top, bottom = glyph_band(float(span["origin"][1]), read, float(span["size"]))
            span["bbox"] = (x0, top, x1, bottom)
        changed += 1
    for b in data.get("blocks", ()) if changed else ():
        for ln in b.get("lines", ()):
            if ln["spans"]:
                ln["bbox"] = _union([s["bbox"] for s in ln["spans"]])
        if b.get("lines"):
            b["bbox"] = _union([ln["bbox"] for ln in b["lines"]])
    return changed


def _union(boxes: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    """The box holding ``boxes`` (x0, y0, x1, y1)."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )

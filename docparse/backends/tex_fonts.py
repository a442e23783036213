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

Left out on purpose: every glyph of the extension font (big operators and
tall delimiters: a box as tall as the formula would pull the lines beside
it into one), the big circle of ``©`` and ``mapsto``'s bar, half of ``↦``.
They are read as unmapped glyphs (:mod:`docparse.backends.glyphs`) and
left out of the text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

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

# TeX's math extension font (OMX: cmex10) draws big operators and tall
# delimiters: its glyphs are known (``X`` is the display ``∑``), but their
# boxes span the lines beside them, and a line holding one would take those
# in (measured on the corpus: prose around an inline ``∑`` split and
# reordered, with PDFium's ink boxes and pdfminer's font boxes alike). Read
# as no character, they are left out, as a glyph without a map is.
_OMX: dict[int, str] = {}

# A font's name without its subset tag ("ABCDEF+"), then its family.
_SYMBOLS = re.compile(r"^(?:[A-Z]{6}\+)?(?:CMB?SY\d|LMB?SY\d|LMMathSymbols)", re.IGNORECASE)
_EXTENSION = re.compile(r"^(?:[A-Z]{6}\+)?(?:CMEX\d|LMEX\d|LMMathExtension)", re.IGNORECASE)


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

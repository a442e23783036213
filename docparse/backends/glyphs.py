"""Glyphs a PDF's fonts map to no text: found, counted and left out.

A font without a usable ``/ToUnicode`` map or glyph names (TeX's math
extension fonts, Type 3 bitmap fonts, subset CID fonts) leaves some glyphs
without text. PyMuPDF reports such a glyph as U+FFFD; pdfminer (pdfplumber,
unstructured) as ``(cid:N)``. PyMuPDF's ``TEXT_CID_FOR_UNKNOWN_UNICODE``
fallback (what a plain ``get_text()`` uses) puts the glyph's code in its
place instead; on the corpus those codes are control characters or letters
that are not the glyph (CMEX10's summation sign comes out as ``P``), so
they are not taken as text either: the glyph is dropped from the text and
counted, per page, in :attr:`~docparse.backends.pages.PageContent.unmapped_glyphs`
so that a page whose text layer is mostly unmapped can be read by OCR.

Accented letters of TeX's 7-bit font encodings (OT1, the default of plain
TeX and of LaTeX without ``fontenc``; CS fonts) are two glyphs: a spacing
accent (``¨``, ``´``, ``ˇ`` ...) kerned over a letter, before it (``\\accent``)
or after it. :func:`place_accents` puts them together again (``F¨ullw¨orter``
reads ``Füllwörter``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

#: An unmapped glyph as the PDF libraries report it, and C0 control
#: characters (a glyph code passed through as text).
UNMAPPED = re.compile(r"\ufffd|\(cid:\d+\)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def count_unmapped(text: str) -> int:
    """Unmapped glyphs in ``text`` (see :data:`UNMAPPED`)."""
    if "\ufffd" not in text and "(cid:" not in text and text.isprintable():
        return 0  # the common case, without a regex scan
    return len(UNMAPPED.findall(text))


def strip_unmapped(text: str) -> str:
    """``text`` without its unmapped glyphs (see :data:`UNMAPPED`).

    >>> strip_unmapped("x (cid:12) y\\ufffd")
    'x  y'
    """
    if "\ufffd" not in text and "(cid:" not in text and text.isprintable():
        return text
    return UNMAPPED.sub("", text)


#: Spacing accents a TeX font sets over a letter as a glyph of their own, and
#: the combining marks they stand for (the ASCII ones are OT1's ``\\``` ``\\^``
#: ``\\~`` glyphs; only a glyph over a letter counts, so code's own are left).
_COMBINING = {
    "\u00a8": "\u0308",
    "\u00b4": "\u0301",
    "`": "\u0300",
    "\u02c6": "\u0302",
    "^": "\u0302",
    "\u02dc": "\u0303",
    "~": "\u0303",
    "\u00af": "\u0304",
    "\u02c9": "\u0304",
    "\u02d8": "\u0306",
    "\u02d9": "\u0307",
    "\u02da": "\u030a",
    "\u02dd": "\u030b",
    "\u02c7": "\u030c",
    "\u00b8": "\u0327",
    "\u02db": "\u0328",
}
# A font may map its accent glyphs to the combining marks themselves: such a
# mark, drawn before its letter, would combine with the letter before it.
_COMBINING.update({chr(c): chr(c) for c in range(0x300, 0x370)})
_ACCENT = re.compile("[" + re.escape("".join(_COMBINING)) + "]")
_ASCII_ACCENT = re.compile(r"[A-Za-z][`^~]|[`^~][A-Za-z]")
#: The characters :func:`place_accents` may merge into a letter.
ACCENT_CHARS = frozenset(_COMBINING)
#: TeX accents an i or a j without its dot (``\\'{\\i}``).
_DOTLESS = {"\u0131": "i", "\u0237": "j"}


def has_spacing_accent(text: str) -> bool:
    """``text`` holds a spacing accent that :func:`place_accents` may merge."""
    if text.isascii():
        # Most text: three substring tests instead of a regex scan; then an
        # ASCII accent next to a letter only (not code's "~/" or "^^e1").
        if "`" not in text and "^" not in text and "~" not in text:
            return False
        return _ASCII_ACCENT.search(text) is not None
    return _ACCENT.search(text) is not None


def accented(letter: str, accent: str) -> str | None:
    """``letter`` with ``accent`` as one precomposed character, or ``None``.

    >>> accented("u", "\u00a8"), accented("\u0131", "\u00b4"), accented("h", "\u00af")
    ('ü', 'í', None)
    """
    base = _DOTLESS.get(letter, letter)
    mark = _COMBINING.get(accent)
    if mark is None or len(base) != 1 or not base.isalpha():
        return None
    out = unicodedata.normalize("NFC", base + mark)
    # A pair Unicode has no one character for (a math bar over h) stays as it is.
    return out if len(out) == 1 else None


def place_accents(glyphs: Sequence[tuple[str, float, float]]) -> list[str] | None:
    """The texts of ``glyphs`` (text, x0, x1, in drawing order along one line)
    with each spacing accent merged into the letter drawn next to it, before
    or after, whose box holds the accent's centre (an accent glyph has a
    width of its own); ``None`` when none is.

    TeX centres the accent over its letter; an accent between two letters
    or in a cell of its own (code's `````, ``^``, ``~``) is left alone, and
    so is a pair Unicode has no precomposed character for.

    >>> place_accents([("F", 0, 6), ("\u00a8", 6, 11), ("u", 6, 11), ("r", 11, 15)])
    ['F', '', 'ü', 'r']
    >>> place_accents([("s", 0, 4), ("\u02c7", 0, 4), ("a", 4, 9), ("\u00b4", 4.5, 9)])
    ['š', '', 'á', '']
    >>> place_accents([("a", 0, 5), ("~", 5, 10), ("b", 10, 15)]) is None
    True
    >>> place_accents([("e", 0, 5), ("\u0307", 5, 10), ("e", 5, 10)])
    ['e', '', 'ė']
    >>> place_accents([("t", 0, 5), ("\u0300", 5.5, 5.5), ("e", 5, 10)]) is None
    True
    """
    texts: list[str] | None = None
    n = len(glyphs)
    for i, (text, x0, x1) in enumerate(glyphs):
        if text not in _COMBINING:
            continue
        mid = 0.5 * (x0 + x1)
        best: tuple[float, int] | None = None
        for j in (i - 1, i + 1):
            if 0 <= j < n:
                _, lx0, lx1 = glyphs[j]
                # A mark of (almost) no width is the font's combining mark
                # put at the pen: not an accent glyph kerned over a letter.
                if lx0 < mid < lx1 and x1 - x0 > 0.2 * (lx1 - lx0):
                    off = abs(0.5 * (lx0 + lx1) - mid)
                    if best is None or off < best[0]:
                        best = (off, j)
        if best is None:
            continue
        j = best[1]
        current = texts[j] if texts is not None else glyphs[j][0]
        merged = accented(current, text)
        if merged is None:
            continue
        if texts is None:
            texts = [g[0] for g in glyphs]
        texts[j], texts[i] = merged, ""
    return texts

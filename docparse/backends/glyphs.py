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
"""

from __future__ import annotations

import re

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

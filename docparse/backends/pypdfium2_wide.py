"""Characters outside the BMP that PDFium's UTF-16 page text drops, put back.

PDFium keeps a character whose font maps its glyph to one code point outside
the BMP (a math italic letter of NewTXMI, U+1D703 ...) as one text index, but
its UTF-16 page text (``FPDFText_GetText``) leaves the character out. Every
text index after it then points one unit too far, and text cut at text
indices is cut out of place (a page read as scrambled letters). A font that
maps the glyph to a surrogate pair is kept as two text indices and two units,
and is not affected.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any

__all__ = ["restore_wide", "unit_of"]


def restore_wide(
    units: bytes,
    first: int,
    last: int,
    n_chars: int,
    unicode: Callable[[Any, int], int] | None,
    to_text: Callable[[Any, int], int],
    handle: Any,
) -> tuple[bytes, list[int]] | None:
    """``units`` (the page text, UTF-16-LE) with the dropped characters put
    back as their two units each, and their text indices in order; ``None``
    when nothing was dropped or the shortfall is not theirs alone.

    ``first``/``last``: the text indices of the first and last characters the
    text holds; ``unicode``/``to_text``: ``FPDFText_GetUnicode`` and
    ``FPDFText_GetTextIndexFromCharIndex`` for the text page ``handle`` of
    ``n_chars`` characters. The text holds fewer units than its text indices
    span only when characters were dropped; only then are the characters'
    code points read (one C call each).
    """
    n_units = len(units) // 2
    if unicode is None or last - first + 1 <= n_units:
        return None
    wide = []
    for k in range(n_chars):
        code = int(unicode(handle, k))
        if code > 0xFFFF and (t := int(to_text(handle, k))) >= 0:
            wide.append((t, code))
    if len(wide) != last - first + 1 - n_units:
        return None  # not the dropped characters alone: left as PDFium gives it
    wide.sort()
    pieces = []
    at = 0
    for k, (t, code) in enumerate(wide):
        # The unit of text index t in the text as given: its offset from the
        # first, less the characters dropped before it.
        cut = t - first - k
        pieces += [units[2 * at : 2 * cut], chr(code).encode("utf-16-le")]
        at = cut
    pieces.append(units[2 * at :])
    return b"".join(pieces), [t for t, _ in wide]


def unit_of(t: int, dropped: list[int]) -> int:
    """The unit of text index ``t`` once the ``dropped`` characters (two units each) are back."""
    return t + bisect.bisect_left(dropped, t) if dropped else t

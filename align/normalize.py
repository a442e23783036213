"""One text normalisation for both sides of an alignment, with an offset map.

Gold evidence and parsed units reach docparse in different shapes: PDF text
layers carry ligatures (``ﬁ``), typographic quotes and dashes, soft hyphens
and words broken at line ends (``evi-\\ndence``); annotators copy text with
newlines and odd spacing; twins give LaTeX or HTML. :func:`normalize` maps all
of them to one comparable form and keeps, for every output character, the
span of the original string it came from, so that a match found in normalised
text is reported as a character span of the original unit text.

Markup (LaTeX, HTML) is turned into text by the twin parsers' own converters
(:func:`docparse.formats.tex.latex_to_text`, :func:`docparse.formats.htm.html_to_text`)
so that evidence given as markup becomes exactly what the twin parse holds.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from docparse.formats._math import tex_math_to_text
from docparse.formats.htm import html_to_text
from docparse.formats.tex import latex_to_text

Markup = Literal["latex", "html"]

__all__ = [
    "Markup",
    "NormalizedText",
    "markup_to_text",
    "math_to_text",
    "normalize",
    "normalize_text",
]

# Quotes, dashes and other look-alikes that NFKC leaves alone but PDF text
# layers and annotators use interchangeably with their ASCII forms.
_CHAR_MAP: dict[int, str] = {
    **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032\u2035\u00b4\u02bc\u02b9\uff07"), "'"),
    **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\uff02"), '"'),
    **dict.fromkeys(
        map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d"), "-"
    ),
    # Invisible characters: soft hyphen, zero-width space/joiners, word joiner, BOM.
    **dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), ""),
}

# Pieces that need more than a copy: whitespace runs, hyphens at line ends,
# and runs of non-ASCII text with the ASCII character before them unless it is
# whitespace, so that a combining mark composes with it or at least stays with
# it ("e\u0301", "=\u0338", "0\u0301", even a control character "\x1b\u0300").
# A hyphen followed by spaces inside a line ("a- b") is text, not a broken
# word: joining it would make the output of normalize() change again on a
# second pass ("a–\xa0evi-\ndence").
_SPECIAL = re.compile(
    r"(?P<hyph>(?<=[^\W\d_])[-\u00ad\u2010\u2011][ \t]*(?:\r\n|\r|\n)\s*(?=[^\W\d_A-Z]))"
    r"|(?P<hyphkeep>(?<=[^\W_])-[ \t]*(?:\r\n|\r|\n)\s*(?=[A-Z0-9]))"
    r"|(?P<ws>\s+)"
    r"|(?P<uni>(?:(?!\s)[\x00-\x7f])?[^\x00-\x7f]+)"
)
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_PUNCT_TO_SPACE = str.maketrans(dict.fromkeys(_ASCII_PUNCT, " "))
_TOKEN = re.compile(r"\S+")


def _is_punct(ch: str) -> bool:
    if ch in _ASCII_PUNCT:
        return True
    if ch.isascii():
        return False
    cat = unicodedata.category(ch)
    return cat[0] in "PS"


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """Normalised text plus the original span of every character.

    ``starts[i]``/``ends[i]`` delimit the piece of :attr:`original` that
    produced ``text[i]`` (several output characters can share one piece,
    as ``fi`` from ``ﬁ``).
    """

    text: str
    original: str
    starts: array[int]
    ends: array[int]

    def __len__(self) -> int:
        return len(self.text)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of :attr:`original` that produced ``text[start:end]``."""
        if not self.text:
            return (0, 0)
        start = max(0, min(start, len(self.text) - 1))
        end = max(start + 1, min(end, len(self.text)))
        return (self.starts[start], self.ends[end - 1])


class _Builder:
    """Collects output characters and their original spans, collapsing whitespace."""

    __slots__ = ("chars", "ends", "fold_case", "fold_punct", "last_space", "starts")

    def __init__(self, fold_case: bool, fold_punct: bool) -> None:
        self.chars: list[str] = []
        self.starts: array[int] = array("q")
        self.ends: array[int] = array("q")
        self.last_space = True  # true at the start: leading whitespace is dropped
        self.fold_case = fold_case
        self.fold_punct = fold_punct

    def plain(self, text: str, offset: int) -> None:
        """ASCII text without whitespace: copied one to one (the fast path)."""
        if self.fold_case:
            text = text.lower()
        if self.fold_punct:
            folded = text.translate(_PUNCT_TO_SPACE)
            if folded != text:
                pos = 0
                for m in _TOKEN.finditer(folded):
                    if m.start() > pos:
                        self.space(offset + pos, offset + pos + 1)
                    self._copy(m.group(), offset + m.start())
                    pos = m.end()
                if pos < len(folded):
                    self.space(offset + pos, offset + pos + 1)
                return
        self._copy(text, offset)

    def _copy(self, text: str, offset: int) -> None:
        self.chars.append(text)
        self.starts.extend(range(offset, offset + len(text)))
        self.ends.extend(range(offset + 1, offset + len(text) + 1))
        self.last_space = False

    def space(self, start: int, end: int) -> None:
        if not self.last_space:
            self.chars.append(" ")
            self.starts.append(start)
            self.ends.append(end)
            self.last_space = True

    def piece(self, text: str, start: int, end: int) -> None:
        """Replacement text for original[start:end], character by character
        (already case-folded by :func:`_unicode_piece` when folding)."""
        for ch in text:
            if ch.isspace() or (self.fold_punct and _is_punct(ch)):
                self.space(start, end)
                continue
            if unicodedata.combining(ch) and self.last_space:
                # A lone combining mark (no base letter) carries no comparable text.
                continue
            self.chars.append(ch)
            self.starts.append(start)
            self.ends.append(end)
            self.last_space = False

    def finish(self, original: str) -> NormalizedText:
        text = "".join(self.chars)
        starts, ends = self.starts, self.ends
        if text.endswith(" "):
            text = text[:-1]
            starts = starts[:-1]
            ends = ends[:-1]
        return NormalizedText(text, original, starts, ends)


class _TextBuilder(_Builder):
    """:class:`_Builder` for :func:`normalize_text`: the same characters, no offset map."""

    __slots__ = ()

    def _copy(self, text: str, offset: int) -> None:
        self.chars.append(text)
        self.last_space = False

    def space(self, start: int, end: int) -> None:
        if not self.last_space:
            self.chars.append(" ")
            self.last_space = True

    def piece(self, text: str, start: int, end: int) -> None:
        for ch in text:
            if ch.isspace() or (self.fold_punct and _is_punct(ch)):
                self.space(start, end)
                continue
            if unicodedata.combining(ch) and self.last_space:
                continue
            self.chars.append(ch)
            self.last_space = False

    def text(self) -> str:
        text = "".join(self.chars)
        return text[:-1] if text.endswith(" ") else text


def _unicode_round(text: str, fold_case: bool) -> str:
    out = unicodedata.normalize("NFKC", text).translate(_CHAR_MAP)
    return out.casefold() if fold_case else out


def _unicode_piece(piece: str, fold_case: bool) -> str:
    """NFKC, the look-alike map and case folding of a non-ASCII run, to a fixed point.

    Each step can undo another's normal form: NFKC yields characters the map
    handles, and case folding a composed letter decomposes it (``ß́`` folds
    to ``ss`` plus a combining accent, which NFKC composes to ``sś``; ``İ``
    folds to ``i`` plus a dot that must be reordered against a following
    cedilla). Folding inside the loop, on the whole run rather than letter by
    letter, makes the result a fixed point, so normalize() is idempotent.
    """
    out = _unicode_round(piece, fold_case)
    for _ in range(4):
        again = _unicode_round(out, fold_case)
        if again == out:
            break
        out = again
    return out


# LaTeX math in evidence or twin text: $...$, $$...$$, \[...\], \(...\). A
# dollar pair only counts as math when it holds TeX syntax or one short symbol,
# so amounts such as "$5 and $6" stay text.
_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$]+?)\$|\\\[(.+?)\\\]|\\\((.+?)\\\)", re.DOTALL)
_TEXISH = re.compile(r"[\\^_{}]|^\s*[A-Za-z][A-Za-z0-9]{0,2}\s*$")


def math_to_text(tex: str) -> str:
    """Unicode approximation of a LaTeX math fragment (``$\\beta^{-3}$`` -> ``β^-3``).

    A PDF shows rendered math; its text layer holds the glyphs, so evidence
    and twin text compare with a PDF best in this form. It is
    :func:`docparse.formats._math.tex_math_to_text` keeping the source's
    spaces, since a PDF's text layer often has a gap between math glyphs.
    """
    return tex_math_to_text(tex, strict_spaces=False)


_HYPHEN_HINT = re.compile(r"[A-Za-z0-9]-[ \t]*[\r\n]")


def _ascii(text: str, fold_case: bool, fold_punct: bool) -> NormalizedText:
    """The common case, token by token: ASCII text with no hyphen at a line break.

    Gives exactly what the general path gives (a space maps to the gap it
    replaces), an order of magnitude faster on long documents.
    """
    t = text.lower() if fold_case else text
    if fold_punct:
        t = t.translate(_PUNCT_TO_SPACE)
    parts: list[str] = []
    starts: array[int] = array("q")
    ends: array[int] = array("q")
    prev = -1
    for m in _TOKEN.finditer(t):
        s, e = m.span()
        if prev >= 0:
            parts.append(" ")
            starts.append(prev)
            ends.append(s)
        parts.append(m.group())
        starts.extend(range(s, e))
        ends.extend(range(s + 1, e + 1))
        prev = e
    return NormalizedText("".join(parts), text, starts, ends)


def _feed(b: _Builder, text: str, offset: int, join_hyphens: bool) -> None:
    pos = 0
    for m in _SPECIAL.finditer(text):
        start, end = m.span()
        if start > pos:
            b.plain(text[pos:start], offset + pos)
        kind = m.lastgroup
        if kind == "hyph":
            if not join_hyphens:
                b.piece("-", offset + start, offset + start + 1)
                b.space(offset + start + 1, offset + end)
        elif kind == "hyphkeep":
            # A real hyphen that ended a line (non-\nGAAP, 2016-\n2017): keep it, drop the break.
            b.piece("-", offset + start, offset + start + 1)
        elif kind == "ws":
            b.space(offset + start, offset + end)
        else:
            b.piece(_unicode_piece(m.group(), b.fold_case), offset + start, offset + end)
        pos = end
    if pos < len(text):
        b.plain(text[pos:], offset + pos)


def normalize(
    text: str,
    *,
    fold_case: bool = False,
    fold_punct: bool = False,
    join_hyphens: bool = True,
    math: bool = False,
) -> NormalizedText:
    """Normalise ``text`` and keep the map back to it.

    Steps: Unicode NFKC (which also splits ligatures such as ``ﬁ``/``ﬂ``),
    typographic quotes to ``'``/``"``, dashes and minus signs to ``-``, soft
    hyphens and zero-width characters removed, a word broken at a line end
    (``evi-\\n dence``) joined (a hyphen and a space inside a line, ``evi- dence``,
    is kept: nothing says a line ended there), a line break after a real hyphen
    (``non-\\nGAAP``, ``2016-\\n2017``) dropped, whitespace collapsed to single
    spaces and trimmed. ``fold_case`` case-folds; ``fold_punct`` turns
    punctuation and symbols into spaces (so ``$ 5,123`` and ``$5,123`` both
    give ``5 123``); ``math`` replaces LaTeX math (``$\\beta^{-3}$``) by its
    Unicode rendering (:func:`math_to_text`). The result is a fixed point:
    normalising it again with the same options changes nothing.

    >>> normalize("The ﬁrst “evi-\\ndence” —  here").text
    'The first "evidence" - here'
    """
    no_math = not math or ("$" not in text and "\\" not in text)
    if no_math and text.isascii() and not (join_hyphens and _HYPHEN_HINT.search(text)):
        return _ascii(text, fold_case, fold_punct)
    rendered = None if no_math else _render_math(text)
    b = _Builder(fold_case, fold_punct)
    if rendered is None:
        _feed(b, text, 0, join_hyphens)
        return b.finish(text)
    plain, piece_starts, piece_ends = rendered
    _feed(b, plain, 0, join_hyphens)
    out = b.finish(plain)
    starts = array("q", (piece_starts[i] for i in out.starts))
    ends = array("q", (piece_ends[i - 1] for i in out.ends))
    return NormalizedText(out.text, text, starts, ends)


def _render_math(text: str) -> tuple[str, array[int], array[int]] | None:
    """``text`` with its LaTeX math rendered, and the original span of each character.

    The rendering goes through the same normalisation as the text around it,
    as one string: a combining mark after ``$x$`` (or a rendering that opens
    with one) then composes with its neighbour on the first pass already, as
    it would on a second pass over the output. ``None`` when no math is found.
    """
    parts: list[str] = []
    starts: array[int] = array("q")
    ends: array[int] = array("q")
    pos = 0
    for m in _MATH.finditer(text):
        body = next(g for g in m.groups() if g is not None)
        if m.group().startswith("$") and not _TEXISH.search(body):
            continue
        parts.append(text[pos : m.start()])
        starts.extend(range(pos, m.start()))
        ends.extend(range(pos + 1, m.start() + 1))
        math = math_to_text(m.group())
        parts.append(math)
        starts.extend([m.start()] * len(math))
        ends.extend([m.end()] * len(math))
        pos = m.end()
    if not parts:
        return None
    parts.append(text[pos:])
    starts.extend(range(pos, len(text)))
    ends.extend(range(pos + 1, len(text) + 1))
    return "".join(parts), starts, ends


def normalize_text(
    text: str,
    *,
    fold_case: bool = False,
    fold_punct: bool = False,
    join_hyphens: bool = True,
    math: bool = False,
) -> str:
    """:func:`normalize` without the offset map (the same text, made without building it)."""
    if math and ("$" in text or "\\" in text):
        return normalize(
            text, fold_case=fold_case, fold_punct=fold_punct, join_hyphens=join_hyphens, math=math
        ).text
    if text.isascii() and not (join_hyphens and _HYPHEN_HINT.search(text)):
        # _ascii's text: its tokens are the \S+ runs, which str.split() also gives.
        t = text.lower() if fold_case else text
        if fold_punct:
            t = t.translate(_PUNCT_TO_SPACE)
        return " ".join(t.split())
    b = _TextBuilder(fold_case, fold_punct)
    _feed(b, text, 0, join_hyphens)
    return b.text()


def markup_to_text(text: str, markup: Markup | None, *, source: str | Path | None = None) -> str:
    """Plain text of evidence given as LaTeX or HTML, as the twin parsers see it.

    Uses :func:`docparse.formats.tex.latex_to_text` and
    :func:`docparse.formats.htm.html_to_text`, so evidence copied from a
    ``.tex`` or ``.htm`` twin becomes the same text the twin parse holds.
    ``markup=None`` returns ``text`` unchanged. ``source`` is the ``.tex``
    file LaTeX evidence was copied from: its own macros (``\\newcommand``)
    are then expanded as in the twin parse.
    """
    if markup is None:
        return text
    if markup == "latex":
        return latex_to_text(text, source=source)
    if markup == "html":
        return html_to_text(text)
    raise ValueError(f"unknown markup {markup!r}; expected None, 'latex' or 'html'")

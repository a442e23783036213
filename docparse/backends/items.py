"""The lightweight per-page records the layout assembly works on.

:class:`Item` is a paragraph candidate, table or figure of one page;
:class:`PageItems` a page's items in reading order. Only strings and floats
are kept across pages, never a PDF library's page objects. The assembly
steps (:mod:`~docparse.backends.layout`, :mod:`~docparse.backends.furniture`,
:mod:`~docparse.backends.footnotes`) set :attr:`Item.kind` on them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from docparse.backends.pages import BlockRole, Line, TableRegion, TextSpan
from docparse.model import BBox, UnitKind

#: A figure or table caption's opening ("Table 2:", "Fig. 3.", "TABLE IV").
CAPTION = re.compile(
    r"^(?P<kind>table|tab\.|figure|fig\.|exhibit|chart)\s*"
    r"(?P<num>[0-9]+(?:\.[0-9]+)?[a-z]?|[IVXL]+|[A-Z])\s*(?:[.:|—–-]|$)",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Item:
    """A paragraph candidate, table or figure on one page (lightweight).

    ``font`` is the font of most of its characters; ``marker`` the text of
    a superscript that starts it (a footnote's mark), else ``""``.

    ``lines`` is a tuple: the assembly steps that change an item's lines
    (joining a title's parts, a caption's label, a paragraph's continuation)
    assign a new tuple. :attr:`text` and :attr:`chars`, read many times per
    item, are worked out once and kept with the tuple they were made from,
    so a new tuple makes them again and they cannot go stale.
    """

    page: int
    bbox: BBox
    lines: tuple[str, ...]
    size: float
    bold: bool
    role: BlockRole | None = None
    table: TableRegion | None = None
    kind: UnitKind | None = None
    level: int = 0
    col: int = 0
    extra: list[tuple[int, BBox]] = field(default_factory=list)
    font: str = ""
    marker: str = ""
    # The lines the kept text and chars were made from (see the class docstring).
    _text_of: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _text: str = field(default="", init=False, repr=False, compare=False)
    _chars_of: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _chars: int = field(default=0, init=False, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The lines stripped and joined by a space (blank lines left out)."""
        lines = self.lines
        if self._text_of is lines:
            return self._text
        if len(lines) == 1:
            text = lines[0].strip()
        else:
            text = " ".join([t for t in map(str.strip, lines) if t])
        self._text_of = lines
        self._text = text
        return text

    @property
    def chars(self) -> int:
        """Characters of the lines, spaces included."""
        lines = self.lines
        if self._chars_of is lines:
            return self._chars
        chars = sum(map(len, lines))
        self._chars_of = lines
        self._chars = chars
        return chars


_new = object.__new__


def new_item(
    page: int,
    bbox: BBox,
    lines: tuple[str, ...],
    size: float,
    bold: bool,
    role: BlockRole | None = None,
    font: str = "",
    marker: str = "",
) -> Item:
    """``Item(page, bbox, lines, size, bold, role, font=font, marker=marker)``.

    Each field stored directly: the dataclass's ``__init__``, called with its
    keyword and factory defaults, costs about twice as much, and a page makes
    an item of most of its lines. Right while :class:`Item` has no
    ``__post_init__`` (``tests/backends/test_items.py`` checks both).
    """
    it: Item = _new(Item)
    it.page = page
    it.bbox = bbox
    it.lines = lines
    it.size = size
    it.bold = bold
    it.role = role
    it.table = None
    it.kind = None
    it.level = 0
    it.col = 0
    it.extra = []
    it.font = font
    it.marker = marker
    it._text_of = it._chars_of = None
    it._text = ""
    it._chars = 0
    return it


def line_item(
    page: int,
    bbox: BBox,
    text: str,
    stripped: str,
    size: float,
    bold: bool,
    role: BlockRole | None = None,
    font: str = "",
    marker: str = "",
) -> Item:
    """``Item(page, bbox, (text,), size, bold, role, font=font, marker=marker)``, an item of
    one line, with :attr:`Item.text` (``stripped``, ``text.strip()``) and :attr:`Item.chars`
    kept as it is made: a one-line block's text is stripped to tell it is not blank, and
    most items are one line. Made as :func:`new_item` makes an item."""
    lines = (text,)
    it = new_item(page, bbox, lines, size, bold, role, font, marker)
    it._text_of = it._chars_of = lines
    it._text = stripped
    it._chars = len(text)
    return it


@dataclass(slots=True)
class PageItems:
    """One page's items in reading order.

    ``superscripts`` holds the texts of the short raised spans inside its
    lines (footnote and affiliation marks), for matching footnotes to them.
    """

    number: int
    width: float
    height: float
    items: list[Item]
    superscripts: set[str] = field(default_factory=set)


def is_superscript(span_size: float, span_y1: float, line_size: float, line_y1: float) -> bool:
    """A span set smaller than its line and raised off the line's baseline."""
    return 0 < span_size <= 0.85 * line_size and span_y1 < line_y1 - 0.15 * line_size


def leading_marker(line: Line) -> str:
    """The superscript that starts ``line`` ("1", "*", "a"), else ``""``."""
    spans = line.spans
    if len(spans) < 2:
        return ""
    if len(spans[0].text.strip()) > 3:
        return ""  # the first span has text and is too long for a mark (most lines)
    first: TextSpan | None = None
    for s in spans:
        if s.text.strip():
            if first is not None:  # at least two spans with text
                text = first.text.strip()
                if len(text) <= 3 and is_superscript(
                    first.size, first.bbox.y1, line.size, line.bbox.y1
                ):
                    return text
                return ""
            first = s
    return ""


def superscripts(lines: Sequence[Line]) -> set[str]:
    """Texts of the short raised spans inside ``lines`` (see :func:`is_superscript`)."""
    out: set[str] = set()
    for ln in lines:
        spans = ln.spans
        if len(spans) < 2:
            continue
        # is_superscript's bounds, worked out once a line.
        line_size = ln.size
        max_size = 0.85 * line_size
        max_y1 = ln.bbox.y1 - 0.15 * line_size
        k = 0
        # A raised span that starts a line is a footnote's own mark, not a reference to it.
        while k < len(spans) and not spans[k].text.strip():
            k += 1
        for s in spans[k + 1 :]:
            # The cheap size test first: most spans are set at the line's size.
            if 0 < s.size <= max_size and s.bbox.y1 < max_y1:
                text = s.text.strip()
                if text and len(text) <= 3:
                    out.update(text.replace(",", " ").split())
    return out


def dominant_font(lines: Sequence[Line]) -> str:
    """The font of most characters of ``lines`` (the first seen among equals)."""
    if len(lines) == 1 and len(spans := lines[0].spans) == 1:
        return spans[0].font  # one line of one span (most items of a text-run backend)
    fonts = [s.font for ln in lines for s in ln.spans]
    if not fonts:
        return ""
    first = fonts[0]
    if fonts.count(first) == len(fonts):
        return first  # one font (most items): no count by characters
    c: dict[str, int] = {}
    for ln in lines:
        for s in ln.spans:
            c[s.font] = c.get(s.font, 0) + len(s.text)
    if not c:
        return ""
    # As Counter.most_common(1): the first font in order of appearance among the most used.
    return max(c, key=c.__getitem__)

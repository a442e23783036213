"""Page furniture: running headers and footers, journal banners, page numbers.

Furniture is found by three kinds of evidence, each enough alone:

* **Repetition.** A margin line whose text, digits and roman numerals
  normalised, repeats on several pages (``Page 3 of 10``, a journal name).
* **Position and style repeating with varying text.** Odd/even running
  heads carry the current chapter or section title (``3.5. DEVSCRIPTS``),
  so their text changes; but they sit on the same baseline in the outermost
  band of many pages, in the same font, set apart from the text below.
* **One page is enough** for a margin line that reads as furniture (a URL,
  a date, ``Volume 8 | Issue 3``, a page number, ``Downloaded from``) and
  is set in a small or distinct font: a one-page document has no repeats.

Text that belongs to a table (a header line right above a table such as
``For the years ended June 30,`` or ``($ in millions)``), a caption or a
footnote is never furniture, however often it repeats.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from docparse.backends.floats import caption_match
from docparse.backends.footnotes import footnote_mark
from docparse.backends.items import Item, PageItems
from docparse.backends.pages import TableRegion
from docparse.backends.words import _norm_key
from docparse.model import BBox

#: Share of the page height that makes the top and bottom margin bands.
BAND = 0.13
#: The outermost band, where only furniture lives.
EDGE = 0.075

_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?(?:[-–—]\s*)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*[-–—])?"
    r"(?:\s+(?:of|/)\s+\d{1,4})?$",
    re.IGNORECASE,
)
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
#: What a banner, a footer or a download stamp says, and body text rarely does.
_FURNITURE_TEXT = re.compile(
    r"https?://|\bwww\.|\bdoi\s*:|\bdoi\.org/|\barxiv:\s*\d"
    rf"|\b\d{{1,2}}\s+{_MONTH}\s+\d{{4}}\b|\b{_MONTH}\s+(?:\d{{1,2}},?\s+)?\d{{4}}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b"
    r"|\bvol(?:ume)?\.?\s*\d+|\bissue\s*\d+|\bno\.\s*\d+"
    r"|\bpages?\s+\d+|\bpp?\.\s*\d+\s*[-–]\s*\d+|\bpp\.\s*\d+"
    r"|\bissn\b|\b\d{4}-\d{3}[\dX]/\d{2}/\$?\d"  # a copyright clearance code
    r"|\b(?:downloaded|download date|accessed|retrieved|printed)\b"
    r"|©|\(c\)\s*\d{4}|\bcopyright\b|\ball rights reserved\b",
    re.IGNORECASE,
)

#: A table's units line or period header, repeated on every statement page.
_TABLE_HEAD = re.compile(
    r"\b(?:in|of)\s+(?:millions|thousands|billions)\b|\bexcept\s+(?:for\s+)?per[- ]share"
    r"|\b(?:years?|months|quarters?|weeks|periods?)\s+ended\b|^\(?as\s+of\b",
    re.IGNORECASE,
)


def _near_table(it: Item, tables: Sequence[Item]) -> bool:
    """``it`` sits right above or below one of ``tables``, the table items of
    its page (a header or units line)."""
    size = max(it.size, 6.0)
    for t in tables:
        overlap = min(it.bbox.x1, t.bbox.x1) - max(it.bbox.x0, t.bbox.x0)
        gap = max(t.bbox.y0 - it.bbox.y1, it.bbox.y0 - t.bbox.y1)
        if overlap > 0 and gap < 2.5 * size:
            return True
    return False


def _protected(it: Item, page: PageItems, top: bool) -> bool:
    """Text that is content wherever it sits: captions, footnotes, table headers.

    A line right above or below a table is counted apart (see
    :func:`mark_furniture`): it is content when it is near a table on most
    of the pages it repeats on. Footnotes are at the foot of a page: a
    running head at the top that opens with a number cited on the page
    (``2.5. DEBIAN DOCUMENTATION`` on a page citing note 2) is no footnote.
    A footer that opens with its page number which a note on the same page
    happens to bear is told apart later (:func:`_note_like`).
    """
    text = it.text
    return it.kind == "footnote" or bool(caption_match(text) or _table_head(text))


#: What every match of :data:`_TABLE_HEAD` holds (lower-cased), or, for its
#: ``as of`` line, starts with.
_TABLE_HEAD_CLUES = ("illions", "thousands", "except", "ended")


def _table_head(text: str) -> bool:
    """``_TABLE_HEAD.search(text)``, the pattern not run on ASCII text without
    one of its clues (most lines)."""
    if text.isascii():
        low = text.lower()
        if not (any(map(low.__contains__, _TABLE_HEAD_CLUES)) or low.startswith(("as", "(as"))):
            return False
    return bool(_TABLE_HEAD.search(text))


def _note_like(it: Item, page: PageItems, top: bool) -> bool:
    """``it`` at the foot of a page opens with a footnote mark the page cites."""
    return not top and (bool(it.marker) or bool(footnote_mark(it, page.superscripts)))


def body_font(pages: Sequence[PageItems]) -> str:
    """The font of most of the documents' text."""
    c: Counter[str] = Counter()
    for p in pages:
        for it in p.items:
            if it.table is None:
                c[it.font] += it.chars
    return c.most_common(1)[0][0] if c else ""


#: Roles of furniture blocks (element streams', margin line numbers), marked anywhere on the page.
_FURNITURE_ROLES = frozenset(("header", "footer", "page_number", "line_number"))


def _page_margins(p: PageItems, in_body: list[Item]) -> tuple[list[tuple[Item, bool]], list[Item]]:
    """The outermost text items of a page's top and bottom bands, with ``top``;
    and the page's lowest and highest text items (see :func:`_mark_page_numbers`).

    One pass over the page's items serves three steps of :func:`mark_furniture`:
    items an element stream gave a furniture role are marked furniture on
    the way, and are none of the margin items; the text items of three lines
    or fewer outside the bands are added to ``in_body`` (see
    :func:`_body_repeats`). The steps after it change no item's box, lines or
    table, so what it finds holds for them.
    """
    top_edge, bottom_edge = BAND * p.height, (1 - BAND) * p.height
    top: list[Item] = []
    bottom: list[Item] = []
    # The lowest and the highest text item (the first of equals), by index.
    low = high = -1
    low_y = high_y = 0.0
    for i, it in enumerate(p.items):
        if it.role in _FURNITURE_ROLES:
            it.kind = "furniture"
        if it.table is not None or not it.lines:
            continue
        b = it.bbox
        if low < 0 or b.y1 > low_y:
            low, low_y = i, b.y1
        if high < 0 or b.y0 < high_y:
            high, high_y = i, b.y0
        if b.y1 <= top_edge or b.y0 >= bottom_edge:
            if it.kind is None:
                if b.y1 <= top_edge:
                    top.append(it)
                if b.y0 >= bottom_edge:
                    bottom.append(it)
        elif len(it.lines) <= 3:
            in_body.append(it)
    top = _outer_rows(sorted(top, key=lambda it: it.bbox.y0), True)
    bottom = _outer_rows(sorted(bottom, key=lambda it: -it.bbox.y1), False)
    ends = [p.items[i] for i in sorted({low, high})] if low >= 0 else []
    return [(it, True) for it in top] + [(it, False) for it in bottom], ends


def _outer_rows(items: list[Item], top: bool, rows: int = 4) -> list[Item]:
    """The items of the ``rows`` outermost baselines of ``items`` (sorted from
    the edge inward): a navigation bar's eight pieces on one baseline are one row."""
    out: list[Item] = []
    n = 0
    edge = 0.0
    for it in items:
        start = it.bbox.y0 if top else -it.bbox.y1
        if not out or start > edge:
            n += 1
            if n > rows:
                break
            size = max(it.size, 1.0)
            edge = (it.bbox.y0 + 0.5 * size) if top else -(it.bbox.y1 - 0.5 * size)
        out.append(it)
    return out


def _n_rows(it: Item) -> int:
    """Baselines of ``it``: pieces set on one baseline (a navigation bar's
    ``Social Governance Glossary``) are lines of one row."""
    return 1 if it.bbox.y1 - it.bbox.y0 <= 1.8 * max(it.size, 1.0) else len(it.lines)


def _set_apart(it: Item, p: PageItems, top: bool, stacked: bool = False) -> bool:
    """Nothing lies between ``it`` and the page edge, and a gap separates it from the rest.

    With ``stacked``, lines already marked furniture do not count: a banner
    of three stacked lines (journal and date, ISSN and DOI, copyright) is
    set apart as a whole.
    """
    size = max(it.size, 6.0)
    for o in p.items:
        if o is it or not (o.lines or o.table is not None):
            continue
        if stacked and o.kind == "furniture":
            continue
        if top and o.bbox.y0 < it.bbox.y1 - 0.3 * size and o.bbox.y1 > it.bbox.y0:
            continue  # beside it on the same band (a left and a right running head)
        gap = o.bbox.y0 - it.bbox.y1 if top else it.bbox.y0 - o.bbox.y1
        if -0.3 * size < gap < 0.9 * size:
            return False
    return True


@dataclass
class _Margins:
    """What a pass over the margin lines of every page collects."""

    #: (item, key, in the outermost band or near a table) of repeat candidates
    candidates: list[tuple[Item, str, bool]] = field(default_factory=list)
    #: (item, key) of footers that open with a footnote mark the page cites
    notes: list[tuple[Item, str]] = field(default_factory=list)
    #: pages each key is a margin line on, and of those, near a table
    counts: Counter[str] = field(default_factory=Counter)
    near_table: Counter[str] = field(default_factory=Counter)
    #: banner lines that only other banner lines may keep from being set apart
    stacked: list[tuple[Item, PageItems, bool]] = field(default_factory=list)
    #: (top, baseline rounded, size rounded, font) -> items there
    slots: dict[tuple[bool, int, float, str], list[Item]] = field(default_factory=dict)

    def add(self, it: Item, key: str, extreme: bool, seen: set[str], near: bool = False) -> None:
        self.candidates.append((it, key, extreme))
        if key not in seen:
            self.counts[key] += 1
            if near:
                self.near_table[key] += 1
            seen.add(key)


@dataclass(frozen=True, slots=True)
class TextStats:
    """What one pass over a document's text items finds.

    ``body_size``: the most common type size by characters (half points);
    ``main_font``: the font of most characters (see :func:`body_font`);
    ``styles``: the font and size pairs of the text outside the margin bands
    of at least ``share`` of it, or of items on at least three pages (code
    listings in a book of prose).
    """

    body_size: float
    main_font: str
    styles: frozenset[tuple[str, float]]


def text_stats(pages: Sequence[PageItems], share: float = 0.02) -> TextStats:
    """The body size, main font and body styles of ``pages``, in one pass over their items.

    Counted as :func:`body_font` counts (the first seen first among equals),
    so that ``text_stats(pages).main_font == body_font(pages)``.
    """
    sizes: Counter[float] = Counter()
    fonts: Counter[str] = Counter()
    chars: Counter[tuple[str, float]] = Counter()
    # Pages each style is on, counted once a page from the page's set of styles.
    on_pages: Counter[tuple[str, float]] = Counter()
    halves: dict[float, float] = {}  # a size to half a point, worked out once a size
    for p in pages:
        top, bottom = BAND * p.height, (1 - BAND) * p.height
        # A page's characters by font, size and whether they are body text
        # (outside the margin bands): a page has a few such keys, counted
        # into the document's counters once each. Keys are met in the order
        # of their first item, so the first seen stays first among equals.
        page: dict[tuple[str, float, bool], int] = {}
        get = page.get
        for it in p.items:
            if it.table is None:
                b = it.bbox
                key = (it.font, it.size, bool(it.lines) and not (b.y1 <= top or b.y0 >= bottom))
                page[key] = get(key, 0) + it.chars
        styles = set()
        for (font, size, in_body), n in page.items():
            fonts[font] += n
            half = halves.get(size)
            if half is None:
                half = halves[size] = round(size * 2) / 2
            if size > 0:
                sizes[half] += n
            if in_body:
                style = (font, half)
                chars[style] += n
                styles.add(style)
        on_pages.update(styles)
    total = sum(chars.values())
    return TextStats(
        sizes.most_common(1)[0][0] if sizes else 0.0,
        fonts.most_common(1)[0][0] if fonts else "",
        frozenset(s for s, c in chars.items() if c >= share * total or on_pages[s] >= 3),
    )


def mark_furniture(pages: Sequence[PageItems], body: float, stats: TextStats | None = None) -> bool:
    """Mark running headers/footers, banners and page numbers as ``furniture``.

    ``body`` is the document's body font size (0 when unknown); ``stats``
    the pages' :func:`text_stats` when the caller has them. Returns whether
    running lines were split off items (their text, and so the pages'
    :func:`body_font`, changed).
    """
    n = len(pages)
    stats = stats or text_stats(pages)
    main_font = stats.main_font
    common = stats.styles
    m = _Margins()
    style = (body, main_font, common)
    in_body: list[Item] = []
    ends: list[tuple[PageItems, list[Item]]] = []
    for p in pages:
        seen: set[str] = set()
        margins, page_ends = _page_margins(p, in_body)
        ends.append((p, page_ends))
        if margins:
            tables = [t for t in p.items if t.table is not None]
            for it, top in margins:
                _margin_line(it, p, top, m, seen, style, tables)
    _mark_repeated(len(pages), in_body, m.candidates, m.counts, m.near_table)
    _mark_stacked(m.stacked)
    marked = {key for it, key, _ in m.candidates if it.kind == "furniture"}
    for it, key in m.notes:
        if key in marked and m.counts[key] >= 2:
            it.kind = "furniture"
    for (top, base, size, font), items in m.slots.items():
        # Running heads with changing text: the same place and font on many
        # pages (a third of them, at least three). A descender or a slash
        # moves a line's box edge a point: the next slot counts too.
        near = (m.slots.get((top, b, size, font), []) for b in (base - 1, base, base + 1))
        if len({it.page for group in near for it in group}) >= max(3, n // 3):
            for it in items:
                it.kind = "furniture"
    _mark_page_numbers(ends)
    return _split_running_rows(pages)


def _margin_line(
    it: Item,
    p: PageItems,
    top: bool,
    m: _Margins,
    seen: set[str],
    style: tuple[float, str, frozenset[tuple[str, float]]],
    tables: Sequence[Item],
) -> None:
    """Sort one margin line of a page (``tables``: its table items): a note, a
    table's header, a page number, or a line that may be furniture (see
    :func:`_single_page`)."""
    text = it.text.strip()
    if len(text.split()) > 25 or _n_rows(it) > 3 or _protected(it, p, top):
        return
    key = _norm_key(text)
    # Only letters make a running header; "2018 2017 2016" is a table head.
    lettered = bool(key) and any(c.isalpha() for c in text)
    if _note_like(it, p, top):
        # "14 ECB Working Paper Series" on a page citing note 14: a
        # footer when its text (number normalised) repeats in the
        # margin of other pages; its own page does not count.
        if lettered:
            m.notes.append((it, key))
    elif _near_table(it, tables):
        # A table's header or units line repeats on every statement
        # page; a running head only sometimes sits above a table.
        if lettered:
            m.add(it, key, True, seen, near=True)
    elif _PAGE_NUMBER.match(text):
        it.kind = "furniture"
    elif lettered:
        _single_page(it, p, top, m, seen, style, key)
    elif marks := _banner_marks(text):
        # An ISSN and price ("0099-2240/11/$12.00") have no letters.
        _single_page(it, p, top, m, seen, style, key, marks)


def _single_page(
    it: Item,
    p: PageItems,
    top: bool,
    m: _Margins,
    seen: set[str],
    style: tuple[float, str, frozenset[tuple[str, float]]],
    key: str,
    marks: int | None = None,
) -> None:
    """Count a margin line as a repeat candidate (``key``: its text's
    ``_norm_key``), and mark it furniture on its own page when its text and
    style say so, or note its place for running heads whose text changes.
    ``marks``: the line's :func:`_banner_marks` when the caller has counted them."""
    body, main_font, common = style
    text = it.text.strip()
    extreme = it.bbox.y1 <= EDGE * p.height or it.bbox.y0 >= (1 - EDGE) * p.height
    m.add(it, key, extreme, seen)
    # A style the body of the document uses (code listings in a
    # monospace font, Latin text in a CJK book) is content's style,
    # however small or unlike the main font it is.
    usual = _style(it) in common
    small = body > 0 and it.size <= 0.92 * body and not usual
    distinct = bool(main_font) and it.font != main_font and not usual
    # Two kinds of banner text in one short line ("Vol. 77, No. 21",
    # "doi:... Copyright ©") say furniture in any style.
    if marks is None:
        marks = _banner_marks(text)
    # Whether it is set apart (a scan of the page's items) is asked only where it counts.
    if marks and (small or distinct or extreme or marks >= 2):
        if _set_apart(it, p, top):
            it.kind = "furniture"
        else:
            m.stacked.append((it, p, top))
    elif extreme and _n_rows(it) == 1 and _set_apart(it, p, top):
        base = round((it.bbox.y0 if top else it.bbox.y1) / 2)
        m.slots.setdefault((top, base, round(it.size * 2) / 2, it.font), []).append(it)


def _mark_stacked(stacked: list[tuple[Item, PageItems, bool]]) -> None:
    """Mark banner lines set apart from the text once the furniture beside them is left out."""
    changed = True
    while changed:
        changed = False
        for it, p, top in stacked:
            if it.kind is None and _set_apart(it, p, top, stacked=True):
                it.kind = "furniture"
                changed = True


def _mark_repeated(
    n: int,
    body_items: Sequence[Item],
    candidates: list[tuple[Item, str, bool]],
    counts: Counter[str],
    near_table: Counter[str],
) -> None:
    """Mark the candidate margin lines whose text repeats on enough of the ``n``
    pages (``body_items``: the pages' text items outside the margin bands)."""
    in_body = _body_repeats(body_items, {key for _, key, _ in candidates if counts[key] >= 2})
    for it, key, extreme in candidates:
        # Lines in the outermost band of the page need fewer repeats: only
        # running heads live there (a table of contents with a footer on
        # just two of its pages).
        need = 2 if n <= 6 or extreme else 3
        # A line that stands alone in the body of pages as often is content
        # that happens to open some pages ("Try the following examples"
        # before a listing); a running head is in the body once at most
        # (its chapter's heading).
        content = in_body[key] >= 2 and 3 * in_body[key] >= counts[key]
        tabular = 2 * near_table[key] >= counts[key]
        # A report whose every page is one table under the same title lines
        # ("Major Contribution Report" / "For the Period Between ...") has
        # them near the table on every page: that is a running header. A
        # statement's title or header line is near tables on some pages only.
        if tabular and n >= 3 and counts[key] >= 0.9 * n and len(it.text.split()) >= 3:
            tabular = False
        if counts[key] >= need and not content and not tabular:
            it.kind = "furniture"


#: The ways of saying "copyright": one kind of banner text however many a line holds.
_COPYRIGHT = re.compile(r"©|\(c\)|copyright|all rights", re.IGNORECASE)


#: Text that :data:`_FURNITURE_TEXT` can match without a digit holds one of
#: these (lower-cased); each of its other patterns needs a digit.
_BANNER_WORDS = (
    "http",
    "www.",
    "doi",
    "issn",
    "download",
    "accessed",
    "retrieved",
    "printed",
    "copyright",
    "all rights reserved",
)
#: Text that :data:`_FURNITURE_TEXT` can match holds one of these (lower-cased):
#: a piece of each of its patterns that every match of it holds.
_BANNER_CLUES = (
    *_BANNER_WORDS,
    *("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
    *("arxiv", "vol", "issue", "no.", "page", "p.", "-", "/", "(c)"),
)
_DIGIT = re.compile(r"\d")


def _banner_marks(text: str) -> int:
    """How many different pieces of banner text (:data:`_FURNITURE_TEXT`) ``text`` holds.

    ``Copyright © 2013 Osamu Aoki`` holds one: a book's copyright page
    states it in the body's style, and it is content there.
    """
    # Most margin lines are ASCII and hold none of the words the long pattern
    # needs: no scan by it. (Only ASCII: with IGNORECASE, re folds a few
    # other letters, "ſ" to "s", where str.lower() does not.)
    if text.isascii():
        low = text.lower()
        clues = _BANNER_CLUES if _DIGIT.search(text) else _BANNER_WORDS
        if not any(map(low.__contains__, clues)):
            return 0
    kinds = set()
    for m in _FURNITURE_TEXT.finditer(text):
        word = m.group(0).lower()
        kinds.add("©" if _COPYRIGHT.match(word) else word[:4])
    return len(kinds)


def _style(it: Item) -> tuple[str, float]:
    return it.font, round(it.size * 2) / 2


def _body_repeats(items: Sequence[Item], keys: set[str]) -> Counter[str]:
    """How often each of ``keys`` is the whole text of one of ``items`` (the
    text items of three lines or fewer outside the margin bands)."""
    found: Counter[str] = Counter()
    if not keys:
        return found
    # A key starts with its text's first character lower-cased, or "#" for a
    # number: an ASCII text whose first or last character no key could come
    # from is no key (told without making its key; see _key_ends).
    firsts = _key_ends(k[:1] for k in keys)
    lasts = _key_ends(k[-1:] for k in keys)
    lengths = {len(k) for k in keys}
    for it in items:
        text = it.text.strip()
        # The key of a text whose ends are ASCII ends as the text does,
        # lower-cased or as "#" (see _key_ends), whatever lies between.
        if text and text[0].isascii() and text[-1].isascii():
            if text[0] not in firsts or text[-1] not in lasts:
                continue
            if len(text) >= 12 and text.isascii() and _keyed_apart(text, lengths):
                continue
        key = _norm_key(text)
        if key in keys:
            found[key] += 1
    return found


def _keyed_apart(text: str, lengths: set[int]) -> bool:
    """The key of ``text`` (ASCII, twelve characters or more) is none of
    ``lengths`` long, told without making it when ``text`` holds no digit
    and no white space but spaces.

    ``_norm_key`` lower-cases such a text (its length kept), replaces no
    number (roman numerals only in text under twelve characters) and drops
    its spaces: the key is as long as the text less its spaces.
    """
    return (
        len(text) - text.count(" ") not in lengths
        and text.isprintable()  # ASCII white space but the space is unprintable
        and not _DIGIT.search(text)
    )


def _key_ends(chars: Iterable[str]) -> frozenset[str]:
    """The ASCII characters a stripped text may start (or end) with when its
    ``_norm_key`` starts (ends) with one of ``chars``.

    The key lower-cases the text, turns numbers, arabic or roman, into
    ``#`` and drops white space: the key of a text whose first (last)
    character is ASCII starts (ends) with that character lower-cased, or
    with ``#`` from a digit or a roman numeral's letter, whatever the
    characters between are.
    """
    out: set[str] = set()
    for c in chars:
        out.update((c, c.upper()))
        if c == "#":
            out.update("0123456789ivxlcdmIVXLCDM")
    return frozenset(out)


def _mark_page_numbers(ends: Sequence[tuple[PageItems, Sequence[Item]]]) -> None:
    """Lone numbers that end (or start) a page and follow the page index.

    ``ends``: each page with its lowest and highest text item (the first of
    equals), in page order (see :func:`_page_margins`).

    Some documents (10-K filings) print the page number right below the last
    line of text, far from the bottom margin. A lone number that is the
    lowest or highest text on its page is a page number when, on at least
    three pages, such numbers (marked already or not) differ from the page
    index by the same offset.
    """
    found: list[tuple[Item, int]] = []
    offsets: Counter[int] = Counter()
    for p, items in ends:
        for it in items:
            if it.kind not in (None, "furniture"):
                continue
            if re.fullmatch(r"\d{1,4}", it.text.strip()):
                off = int(it.text.strip()) - p.number
                # Numbers the margin rules already took are page numbers too:
                # they confirm the offset for one kept as content, e.g. right
                # under a table that ends near the foot of its page.
                offsets[off] += 1
                if it.kind is None:
                    found.append((it, off))
    if not offsets:
        return
    off, count = offsets.most_common(1)[0]
    if count >= 3:
        for it, o in found:
            if o == off:
                it.kind = "furniture"


def _split_running_rows(pages: Sequence[PageItems]) -> bool:
    """Take a running head out of a table region that reaches over it.

    A table detected from the top (bottom) edge of a page can take the
    running head (footer) as its first (last) row: ``Debian Reference`` and
    ``117 / 223`` as two cells over the table's columns. When that row lies
    in the outermost band and each of its cells is a page number or the text
    of a line marked as furniture on other pages, it is furniture, split off
    the table into an item of its own. A row in the wider margin band with
    only furniture between it and the page edge counts as in the outermost.
    Returns whether a row or line was split off.
    """
    marked: dict[str, list[Item]] = {}
    # One pass finds the furniture lines and the items a split may take a
    # row or line off; a split changes only the item it takes from.
    reaching: list[tuple[PageItems, Item]] = []
    for p in pages:
        # Both splits take a row or line off an item reaching into the margin band.
        top_band, bottom_band = BAND * p.height, (1 - BAND) * p.height
        for it in p.items:
            if it.table is None:
                if it.kind == "furniture":
                    marked.setdefault(_norm_key(it.text.strip()), []).append(it)
                    continue
                if it.kind is not None or len(it.lines) < 2:
                    continue  # most items: neither split below can take anything off them
            if top_band < it.bbox.y0 and it.bbox.y1 < bottom_band:
                continue
            reaching.append((p, it))
    if not marked:
        return False
    split = False
    for p, it in reaching:
        for top in (True, False):
            # Stacked running lines ("Table of Contents" over the
            # company's name over "NOTES ... (Continued)") go row by row.
            while _split_edge_row(p, it, marked, top) or _split_edge_line(p, it, marked, top):
                split = True
    return split


def _split_edge_line(p: PageItems, it: Item, marked: dict[str, list[Item]], top: bool) -> bool:
    """Split the first (``top``) or last line off a text item when it is a running line.

    A backend that groups lines into blocks by their size and alignment can
    set the running head in one block with a title centred under it (``ADOBE
    INC.`` over ``FORM 10-K``). The line is furniture when a line marked as
    furniture on other pages has its text and its place: the same edge of
    the margin band, across the same x-range.
    """
    if it.table is not None or it.kind is not None or len(it.lines) < 2:
        return False
    b = it.bbox
    if not (b.y0 <= BAND * p.height if top else b.y1 >= (1 - BAND) * p.height):
        return False
    size = max(it.size, 1.0)
    line = (it.lines[0] if top else it.lines[-1]).strip()
    # Lone numbers share a key with every page number: a contents line's page
    # number or a table's year is no running line.
    if not any(c.isalpha() for c in line):
        return False
    like = next(
        (
            o
            for o in marked.get(_norm_key(line), ())
            if o.page != it.page
            and abs((o.bbox.y0 - b.y0) if top else (o.bbox.y1 - b.y1)) <= 0.5 * size
            and min(o.bbox.x1, b.x1) - max(o.bbox.x0, b.x0) > 0.5 * (o.bbox.x1 - o.bbox.x0)
        ),
        None,
    )
    if like is None:
        return False
    h = min(like.bbox.y1 - like.bbox.y0, 0.5 * (b.y1 - b.y0))
    cut = b.y0 + h if top else b.y1 - h
    head = BBox(b.x0, b.y0, b.x1, cut) if top else BBox(b.x0, cut, b.x1, b.y1)
    it.bbox = BBox(b.x0, cut, b.x1, b.y1) if top else BBox(b.x0, b.y0, b.x1, cut)
    it.lines = it.lines[1:] if top else it.lines[:-1]
    row = Item(it.page, head, (line,), like.size, like.bold, font=like.font)
    row.kind = "furniture"
    at = _position(p.items, it)
    p.items.insert(at if top else at + 1, row)
    return True


def _position(items: list[Item], it: Item) -> int:
    """Where ``it`` itself is in ``items``: ``list.index`` compares items
    field by field, slowly, and would stop at an equal item before it."""
    return next(i for i, o in enumerate(items) if o is it)


def _split_edge_row(p: PageItems, it: Item, marked: dict[str, list[Item]], top: bool) -> bool:
    """Split the first (``top``) or last row off ``it``'s table when it is furniture."""
    t = it.table
    if t is None or len(t.rows) < 2:
        return False
    edge = it.bbox.y0 <= EDGE * p.height if top else it.bbox.y1 >= (1 - EDGE) * p.height
    # In the margin band, with only furniture between the table and the page
    # edge: the third of three stacked running lines.
    edge = edge or (
        (it.bbox.y0 <= BAND * p.height if top else it.bbox.y1 >= (1 - BAND) * p.height)
        and all(
            o.kind == "furniture"
            for o in p.items
            if o is not it and (o.bbox.y1 <= it.bbox.y0 if top else o.bbox.y0 >= it.bbox.y1)
        )
    )
    cells = [c.strip() for c in (t.rows[0] if top else t.rows[-1]) if c.strip()]
    keys = [_norm_key(c) for c in cells]
    if not edge or not any(k in marked for k in keys):
        return False
    if not all(k in marked or _PAGE_NUMBER.match(c) for c, k in zip(cells, keys, strict=True)):
        return False
    like = next(marked[k][0] for k in keys if k in marked)
    _split_row(p, it, cells, like, top)
    return True


def _split_row(p: PageItems, it: Item, cells: list[str], like: Item, top: bool) -> None:
    """Split the first (``top``) or last row of ``it``'s table off as a furniture item."""
    t = it.table
    if t is None:
        return
    h = min(like.bbox.y1 - like.bbox.y0, 0.5 * (it.bbox.y1 - it.bbox.y0))
    b = it.bbox
    cut = b.y0 + h if top else b.y1 - h
    head = BBox(b.x0, b.y0, b.x1, cut) if top else BBox(b.x0, cut, b.x1, b.y1)
    rest = BBox(b.x0, cut, b.x1, b.y1) if top else BBox(b.x0, b.y0, b.x1, cut)
    last = len(t.rows) - 1
    spans = []
    for r, c, rs, cs in t.spans:
        if top:
            r, rs = (r - 1, rs) if r > 0 else (0, rs - 1)
        elif r + rs - 1 == last:
            rs -= 1
        if rs >= 1 and (rs, cs) != (1, 1) and r >= 0:
            spans.append((r, c, rs, cs))
    rows = t.rows[1:] if top else t.rows[:-1]
    n_head = max(0, t.n_header_rows - 1) if top else min(t.n_header_rows, len(rows))
    it.table = TableRegion(rest, rows, n_head, tuple(spans))
    it.bbox = rest
    row = Item(it.page, head, (" ".join(cells),), like.size, like.bold, font=like.font)
    row.kind = "furniture"
    at = _position(p.items, it)
    p.items.insert(at if top else at + 1, row)

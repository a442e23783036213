"""Tables continued over a page break, joined into one table.

The table finders read one page at a time, so a table that runs over a page
break (a long statement, an appendix, a LaTeX ``longtable``, an HTML table
printed with its head repeated) comes out as one table per page. A reader
takes them as one table: the rows of the second page are read under the
header of the first. :func:`join_page_tables` joins a table that ends its
page with the table that starts the next page when the evidence says they
are one:

* the next page's table repeats the first one's header rows (they are
  dropped), or
* a "continued" note or caption stands between them ("Table 3
  (continued)", a caption naming the same table again), or the words of the
  first one's header stand in the pieces left in the next page's top band
  (the repeat the finders did not read), or
* the next page's table has no header of its own, the first one has one and
  reaches the foot of its page, and both have the same columns (count, left
  and right edges) and the same kind of cells in each column (numbers under
  numbers, text under text).

Only furniture (running heads, page numbers), such notes and lines of the
table cut off in the margin band (short pieces inside the table's width,
between the table and the page edge) may stand between the two. A caption
naming another table, a paragraph, a heading or a different column count
keeps them apart. The joined item keeps the first part's page and box and
gains one provenance piece per further page (:attr:`Item.extra`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from docparse.backends.items import CAPTION, Item
from docparse.backends.pages import TableRegion
from docparse.backends.table_headers import header_row_count
from docparse.model import BBox

__all__ = ["join_page_tables"]

#: A note or caption saying a table goes on ("Table 1 (continued)", "continued on next page").
_CONTINUED = re.compile(r"\b(?:continued|cont\.|contd\.?)(?:\W|$)", re.IGNORECASE)
#: A value cell: a number, maybe signed, in parentheses, with ``$``/``%`` or a nil mark.
_VALUE = re.compile(r"^[($€£¥-]*\s*[-+−]?(?:\d[\d,.]*|[—–-])\s*[)%*]*$")
#: Share of the page height at the top and bottom where the table finders
#: read no rows (``table_regions.TABLE_MARGIN`` and a little more): the
#: lines of a table cut off there are left as short text items.
_MARGIN = 0.08
#: A first part reaching below this share of its page height ends low on it;
#: a continuation starts above ``1 - _LOW`` of its page.
_LOW = 0.75


def join_page_tables(order: list[Item], heights: Mapping[int, float]) -> list[Item]:
    """``order`` with each table continued on the next page joined to its first part.

    ``order`` is the document's items in reading order, ``heights`` the page
    heights by page number. The joined table is the first part's item, its
    rows followed by those of each continuation (a repeated header dropped),
    spans shifted, one :attr:`Item.extra` piece per further page.
    """
    if sum(it.table is not None for it in order) < 2:
        return order
    out: list[Item] = []
    dropped: set[int] = set()
    for i, it in enumerate(order):
        if id(it) in dropped:
            continue
        out.append(it)
        if it.table is None:
            continue
        caption = _caption_of(order, i)
        while True:
            found = _continuation(order, i, it, caption, heights)
            if found is None:
                break
            j, drop = found
            nxt = order[j]
            assert nxt.table is not None and it.table is not None
            it.table = _joined(it.table, nxt.table, drop)
            it.extra.append((nxt.page, nxt.bbox))
            it.extra.extend(nxt.extra)
            dropped.add(id(nxt))
            i = j
    return out


def _last_piece(it: Item) -> tuple[int, BBox]:
    return it.extra[-1] if it.extra else (it.page, it.bbox)


def _caption_of(order: Sequence[Item], i: int) -> str:
    """The text of the caption right above the table at ``i`` (``""`` if none)."""
    if i > 0 and order[i - 1].kind == "caption" and order[i - 1].page == order[i].page:
        return order[i - 1].text.strip()
    return ""


def _names_other(order: Sequence[Item], j: int, page: int, caption: str) -> bool:
    """Whether the caption at ``j`` (under a next page's table) names a table other
    than the first part's ``caption``: the table over it is that other table.

    With no caption over the first part, a caption under the last part may
    be the whole table's (set at its end), and names no other.
    """
    if j >= len(order) or order[j].page != page or order[j].kind != "caption" or not caption:
        return False
    text = order[j].text.strip()
    number = _table_number(text)
    return not _CONTINUED.search(text) and number != _table_number(caption)


def _table_number(text: str) -> str | None:
    m = CAPTION.match(text)
    if m is None or m.group("kind").lower() not in ("table", "tab."):
        return None
    return m.group("num").lower()


def _continuation(
    order: Sequence[Item], i: int, it: Item, caption: str, heights: Mapping[int, float]
) -> tuple[int, int] | None:
    """The table item continuing ``it`` (at ``i``) on the next page: its index
    and how many of its leading rows repeat the header; ``None`` if none does."""
    page, last = _last_piece(it)
    a = it.table
    assert a is not None
    noted = cut = False
    pieces: list[str] = []  # the text left in the top band of the next page
    for j in range(i + 1, len(order)):
        o = order[j]
        if o.table is not None:
            if o.page != page + 1 or _names_other(order, j + 1, o.page, caption):
                return None
            if not pieces and not noted and not _starts_high(o, heights):
                return None
            # A table that ends high on its page ends there (the rest is blank).
            low = last.y1 >= _LOW * heights.get(page, 0.0)
            # The repeated header may be among the pieces: its words, in order.
            head = " ".join(c for c in _column_text(a.rows[: _head_count(a)], _n_cols(a)) if c)
            noted = noted or bool(head and head in " ".join(pieces).lower())
            drop = _one_table(a, o.table, last, o.bbox, noted=noted, cut=cut, low=low)
            return None if drop is None else (j, drop)
        if o.kind == "furniture":
            continue
        if o.page > page + 1:
            return None
        text = o.text.strip()
        number = _table_number(text)
        if number is not None or o.kind == "caption":
            # A caption between the parts must say the table goes on, or name
            # the first part's table again on the next page; one under the
            # first part closes it.
            if _CONTINUED.search(text) or (
                o.page > page and number is not None and number == _table_number(caption)
            ):
                noted = True
                continue
            return None
        if len(text.split()) <= 8 and _CONTINUED.search(text):
            noted = True
            continue
        if _cut_off_line(o, page, last, heights):
            if o.page == page + 1:
                cut = True
                pieces.append(" ".join(text.split()))
            continue
        return None
    return None


def _starts_high(o: Item, heights: Mapping[int, float]) -> bool:
    """Whether the table ``o`` starts in the top quarter of its page.

    A table goes on at the top of the next page, under the running head
    only. One set lower with nothing above it stands alone there: a float
    page centres its tables (Debian reference zh-CN p231: Table 11.18, the
    same heads as the table ending page 230, set halfway down a page of its
    own), and a page whose table follows a blank top is no continuation.
    """
    h = heights.get(o.page, 0.0)
    return h <= 0 or o.bbox.y0 <= (1 - _LOW) * h


def _cut_off_line(o: Item, page: int, last: BBox, heights: Mapping[int, float]) -> bool:
    """Whether ``o`` is a piece of a table row left in a page's margin band.

    A short text piece (twelve words or fewer, three type sizes high at
    most) inside the table's width, in the bottom band of the first part's
    page below it, or in the top band of the next page: the table finders
    leave the margin bands out of tables. A piece inside the first part's
    box is one its finder left out of the rows. A sentence, or a heading
    flush with the table's left edge (a section's, unless it ends in a colon
    as a statement's label rows do), is no piece of a row.
    """
    h = heights.get(o.page, 0.0)
    # The pieces of a cut row are short; a backend may give each cell a line.
    if h <= 0 or o.bbox.y1 - o.bbox.y0 > 3 * max(o.size, 1.0) or len(o.text.split()) > 12:
        return False
    b = o.bbox
    if b.x0 < last.x0 - 2 or b.x1 > last.x1 + 2:
        return False
    text = o.text.strip()
    if text[-1:] in ".!?" and len(text.split()) >= 5:
        return False  # a sentence
    # A heading flush with the table's left edge opens a section (a browser
    # sets one alone at a page's foot too); a cut head's cells are centred
    # over their columns, and a statement's label row ends in a colon.
    if o.kind in ("heading", "title") and b.x0 <= last.x0 + 3 and not text.endswith(":"):
        return False
    if o.page == page and last.y0 <= b.y0 and b.y1 <= last.y1 + 2:
        return True  # inside the part's box: a piece the finder left out of its rows
    if o.page == page:
        return b.y0 >= last.y1 - 2 and b.y1 >= (1 - _MARGIN) * h
    return o.page == page + 1 and b.y0 <= _MARGIN * h


def _column_text(rows: Sequence[Sequence[str]], n_cols: int) -> tuple[str, ...]:
    """Each column's cells over ``rows`` as one lower-case phrase."""
    return tuple(
        " ".join(" ".join(r[c] for r in rows if c < len(r)).split()).lower() for c in range(n_cols)
    )


def _head_count(t: TableRegion) -> int:
    return t.n_header_rows or header_row_count(t.rows)


def _repeats_head(a: TableRegion, b: TableRegion, cut: bool = False) -> int:
    """How many leading rows of ``b`` repeat ``a``'s header rows (0 when they do not).

    The header is compared column by column, its lines joined: one finder
    reads a wrapped header as one row, another as two. ``cut``: lines above
    ``b`` were left in the top margin band, where the finders read no rows;
    the top lines of a repeated header may be among them, so each of
    ``b``'s header phrases may be the end of ``a``'s (``2020`` under a
    ``December 31,`` left out).
    """
    n, width = _head_count(a), _n_cols(a)
    head = _column_text(a.rows[:n], width)
    if n == 0 or not any(head):
        return 0
    # A wrapped header takes a few more rows in the other reading, never many.
    for k in range(1, min(len(b.rows) - 1, n + 3) + 1):
        got = _column_text(b.rows[:k], width)
        if got == head:
            return k
        if cut and all(
            x == y or (x and y.endswith(" " + x)) for x, y in zip(got, head, strict=True)
        ):
            return k
    return 0


def _kinds(t: TableRegion, skip: int) -> list[str]:
    """Per column: ``value`` when most filled body cells are values, ``text``, or ``""`` (empty)."""
    out = []
    body = t.rows[skip:]
    for c in range(max((len(r) for r in t.rows), default=0)):
        cells = [r[c].strip() for r in body if c < len(r) and r[c].strip()]
        if not cells:
            out.append("")
            continue
        values = sum(bool(_VALUE.match(x)) for x in cells)
        out.append("value" if 2 * values > len(cells) else "text")
    return out


def _same_columns(a: TableRegion, b: TableRegion, last: BBox, box: BBox) -> bool:
    """Whether ``b`` reads as more rows of ``a``: same edges, each column the same kind."""
    width = max(last.x1 - last.x0, box.x1 - box.x0, 1.0)
    tol = max(6.0, 0.03 * width)
    if abs(last.x0 - box.x0) > tol or abs(last.x1 - box.x1) > tol:
        return False
    ka, kb = _kinds(a, _head_count(a)), _kinds(b, 0)
    filled = [(x, y) for x, y in zip(ka, kb, strict=True) if x and y]
    return len(filled) >= max(2, len(ka) // 2) and all(x == y for x, y in filled)


def _one_table(
    a: TableRegion, b: TableRegion, last: BBox, box: BBox, *, noted: bool, cut: bool, low: bool
) -> int | None:
    """Whether ``b``, starting the next page, goes on with ``a``, ending the
    page before: the number of ``b``'s rows repeating ``a``'s header if so,
    ``None`` if not. ``noted``: a "continued" note stands between them;
    ``cut``: lines were left in the top band above ``b``; ``low``: ``a``
    reaches the lowest quarter of its page (needed when only the columns
    say they are one table)."""
    if _n_cols(a) != _n_cols(b) or not a.rows or not b.rows:
        return None
    across = min(last.x1, box.x1) - max(last.x0, box.x0)
    if across <= 0.5 * min(last.x1 - last.x0, box.x1 - box.x0):
        return None
    drop = _repeats_head(a, b, cut)
    if noted or drop:
        return drop
    # No header of its own: the first row already holds values.
    # Lines cut off above ``b`` may be its own header, unread: the columns
    # alone then say nothing. Nor do they when ``a`` has no header either:
    # two blocks of rows without one (an exhibit list set page by page) are
    # as likely two tables as one, and a filer's HTML sets them as two.
    if cut or not low or _head_count(b) or not _head_count(a):
        return None
    return 0 if _same_columns(a, b, last, box) else None


def _n_cols(t: TableRegion) -> int:
    return max((len(r) for r in t.rows), default=0)


def _joined(a: TableRegion, b: TableRegion, drop: int) -> TableRegion:
    """``a`` with ``b``'s rows under it but the first ``drop`` (a repeat of ``a``'s header)."""
    shift = len(a.rows) - drop
    spans = list(a.spans)
    for r, c, rs, cs in b.spans:
        if r >= drop:
            spans.append((r + shift, c, rs, cs))
    return TableRegion(
        bbox=a.bbox,
        rows=(*a.rows, *b.rows[drop:]),
        n_header_rows=a.n_header_rows,
        spans=tuple(spans),
    )

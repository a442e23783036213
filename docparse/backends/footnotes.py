"""Footnotes of PDF pages: small text at the foot of a page, under a mark the text cites.

A footnote is an item below all the body text of its column, set smaller
than the body, that starts with a mark (``1``, ``*``, ``†``, ``a``) which
appears as a superscript in the text of the same page. Items right below a
footnote, in its size and without a mark of their own, continue it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docparse.backends.items import Item, PageItems
from docparse.model import BBox

#: A mark printed on the footnote's baseline rather than raised ("1 See ...").
#: A section number (``2.5.``) is no mark, nor the first digit of a number (``12``).
_INLINE_MARK = re.compile(r"^([0-9]{1,3}(?![0-9])(?![.,]\d)|[*†‡§¶‖#]{1,3}|[a-z])(?=\s*\S)")


def footnote_mark(it: Item, marks: set[str]) -> str:
    """The mark ``it`` starts with when the page's text cites it, else ``""``."""
    if it.marker:
        return it.marker if it.marker in marks else ""
    m = _INLINE_MARK.match(it.text)
    return m.group(1) if m and m.group(1) in marks else ""


def _below_body(it: Item, page: PageItems, body: float) -> bool:
    """No body-size text lies below ``it`` in its column."""
    for o in page.items:
        if o is it or o.table is not None or o.kind == "furniture" or not o.lines:
            continue
        overlap = min(it.bbox.x1, o.bbox.x1) - max(it.bbox.x0, o.bbox.x0)
        if overlap > 0 and o.bbox.y0 >= it.bbox.y1 - 1 and o.size > 0.92 * body:
            return False
    return True


def _split_at_next_marks(it: Item, marks: set[str]) -> list[Item]:
    """Cut a footnote item where a line starts with the next footnote's mark.

    Footnotes set one under another with their marks on the baseline
    (``2. Either ...`` / ``3. For reasons ...``) come as one block; a line
    that opens with the number after the previous one, cited on the page,
    starts the next footnote. Its box is the item's share of those lines.
    """
    m = _INLINE_MARK.match(it.text)
    # After a symbol's note (``†``) the numbered notes start at 1.
    number = int(m.group(1)) if m and m.group(1).isdigit() else 0
    cuts = [0]
    for i, line in enumerate(it.lines[1:], 1):
        nxt = re.match(r"^([0-9]{1,3})[.)]?\s", line.strip())
        if nxt and int(nxt.group(1)) == number + 1 and nxt.group(1) in marks:
            cuts.append(i)
            number += 1
    if len(cuts) == 1:
        return [it]
    out = []
    step = (it.bbox.y1 - it.bbox.y0) / max(len(it.lines), 1)
    for a, b in zip(cuts, [*cuts[1:], len(it.lines)], strict=True):
        box = BBox(it.bbox.x0, it.bbox.y0 + a * step, it.bbox.x1, it.bbox.y0 + b * step)
        part = Item(it.page, box, it.lines[a:b], it.size, it.bold, font=it.font, col=it.col)
        part.kind = "footnote"
        out.append(part)
    out[0].marker = it.marker
    return out


def mark_footnotes(pages: Sequence[PageItems], body: float) -> None:
    """Set ``kind = "footnote"`` on footnotes and fold their continuations into them."""
    if body <= 0:
        return
    for page in pages:
        if not page.superscripts:
            continue
        last: Item | None = None
        dropped: set[int] = set()
        for it in sorted(page.items, key=lambda it: (it.col, it.bbox.y0)):
            small = it.table is None and it.lines and 0 < it.size <= 0.92 * body
            low = it.bbox.y0 >= 0.5 * page.height
            if not (small and low and it.kind is None):
                last = None if it.kind != "furniture" else last
                continue
            if footnote_mark(it, page.superscripts) and _below_body(it, page, body):
                it.kind = "footnote"
                last = it
            elif last is not None and abs(it.size - last.size) < 0.6 and not it.marker:
                last.lines += it.lines
                last.bbox = last.bbox.union(it.bbox)
                dropped.add(id(it))
            else:
                last = None
        if dropped:
            page.items = [it for it in page.items if id(it) not in dropped]
        split: list[Item] = []
        for it in page.items:
            split.extend(
                _split_at_next_marks(it, page.superscripts) if it.kind == "footnote" else [it]
            )
        page.items = split

"""Floats in the reading order: the text inside figures, read as one block.

A vector figure's tick labels, legends and axis titles come out of the text
layer as many short items. Read as paragraphs and headings, they cut the
column paragraph the figure interrupts in two (the headings also reset the
section path). A figure caption (``Figure 3.``) sits below its figure: the
items right above it, across the caption's width, up to the first line of
body text (the body's font and size, a sentence's worth of words) or a
bold or numbered heading, are the
figure's text. They become one item with the ``figure`` role, placed where
the first of them was, which the assembly reads as a paragraph that never
interrupts the text flow. A lone number in the margin band inside the
figure's extent is a tick label, not a page number.

A caption's label set apart from its text ("Table 3" in bold, a wide space,
then the title; or "TABLE III" centred over its title line) often comes out
of the text layer as two items: the label alone is a caption with no words,
the title a heading. :func:`join_caption_labels` makes them one item.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from docparse.backends.headings import numbering
from docparse.backends.items import CAPTION, Item, PageItems
from docparse.builder import UnitDraft
from docparse.model import BBox

#: A table caption's label, with or without punctuation after its number
#: ("Table 2:", "TABLE III", "Tab. 4", "Table 1 A simple table" once its
#: label and text are joined, see :func:`join_caption_labels`).
_TABLE_LABEL = re.compile(
    r"^\s*(?:table|tab\.)\s*(?:[0-9]+(?:\.[0-9]+)?[a-z]?|(?-i:[IVXL]+|[A-Z](?:[-.]?[0-9]+)?))\b",
    re.IGNORECASE,
)


#: The letters :data:`~docparse.backends.items.CAPTION` can match first: its
#: kinds' initials (no other character folds to one of them in a
#: case-blind match).
CAPTION_INITIALS = frozenset("TtFfEeCc")


def caption_match(text: str) -> re.Match[str] | None:
    """``CAPTION.match(text)``, the pattern not run on text whose first letter
    no caption starts with (most items)."""
    return CAPTION.match(text) if text[:1] in CAPTION_INITIALS else None


def _bare_label(it: Item) -> bool:
    """A caption label with no words after it: "Table 3", "Fig. 2:", "TABLE III"."""
    m = caption_match(it.text)
    return m is not None and not it.text[m.end() :].strip(" .:|—–-")


def _label_text(label: Item, it: Item) -> bool:
    """``it`` is the text of the bare caption ``label``: on its baseline right
    after it, or the next line under it, centred with it (a title set under
    its label)."""
    size = max(label.size, 6.0)
    if it is label or it.table is not None or it.kind is not None or not it.lines:
        return False
    if CAPTION.match(it.text) or it.role == "figure":
        return False
    # On the label's baseline: the item's first line overlaps the label's line.
    first_bottom = min(it.bbox.y1, it.bbox.y0 + 1.3 * max(it.size, 6.0))
    same_line = min(first_bottom, label.bbox.y1) - max(it.bbox.y0, label.bbox.y0) > 0.5 * size
    if same_line:
        if 0 <= it.bbox.x0 - label.bbox.x1 <= 4 * size:
            return True
        # The caption's first line runs on right of the label, its later lines start
        # under it: the item's box starts where the label does and reaches past it.
        return (
            len(it.lines) >= 2
            and abs(it.bbox.x0 - label.bbox.x0) <= size
            and it.bbox.x1 - label.bbox.x1 > 4 * size
        )
    # Under it: a title line set centred under a label centred over it.
    gap = it.bbox.y0 - label.bbox.y1
    centre = (label.bbox.x0 + label.bbox.x1) / 2
    centred = abs((it.bbox.x0 + it.bbox.x1) / 2 - centre) <= 0.05 * (it.bbox.x1 - it.bbox.x0) + 2
    return -0.2 * size <= gap <= 0.8 * size and centred and len(it.lines) <= 3


def join_caption_labels(pages: Sequence[PageItems]) -> None:
    """Join each bare caption label to its text (see the module docstring)."""
    for page in pages:
        taken: set[int] = set()
        labels = [
            it
            for it in page.items
            if it.kind is None and it.text[:1] in CAPTION_INITIALS and _bare_label(it)
        ]
        for label in labels:
            if id(label) in taken:
                continue
            text = next(
                (it for it in page.items if id(it) not in taken and _label_text(label, it)), None
            )
            if text is None:
                continue
            taken.add(id(text))
            head = " ".join(t.strip() for t in label.lines)
            label.lines = (f"{head} {text.lines[0].strip()}", *text.lines[1:])
            # Without punctuation after its number ("Table 1 A simple table")
            # the joined text no longer reads as a caption by its words alone.
            label.role = "caption"
            label.bbox = label.bbox.union(text.bbox)
            label.bold = label.bold and text.bold
            label.size = max(label.size, text.size)
        if taken:
            page.items = [it for it in page.items if id(it) not in taken]


def _is_figure_caption(it: Item, body: float) -> bool:
    m = caption_match(it.text)
    if not m or not m.group("kind").lower().startswith("fig"):
        return False
    return body <= 0 or it.size <= body * 1.05 or it.bold


def _is_body_text(it: Item, body: float, body_font: str) -> bool:
    """Running text of the document, which no figure holds."""
    same_size = body > 0 and abs(it.size - body) <= 0.6
    return same_size and it.font == body_font and len(it.text.split()) >= 8


def _figure_items(cap: Item, page: PageItems, body: float, body_font: str) -> list[Item]:
    size = max(cap.size, 6.0)
    above = [
        it
        for it in page.items
        if it is not cap
        and it.table is None
        and it.lines
        and it.bbox.y1 <= cap.bbox.y0 + 0.5 * size
        and min(it.bbox.x1, cap.bbox.x1) - max(it.bbox.x0, cap.bbox.x0) > 0
    ]
    found: list[Item] = []
    for it in sorted(above, key=lambda it: -it.bbox.y1):
        if it.kind == "furniture" or it.role == "figure":
            continue
        if it.kind is not None or CAPTION.match(it.text) or _is_body_text(it, body, body_font):
            break
        if it.bold or numbering(it.text)[1]:
            break  # a section heading right above the figure
        found.append(it)
    return found


def mark_figure_text(pages: Sequence[PageItems], body: float, body_font: str) -> None:
    """Join each figure's text items into one ``figure`` item (see the module docstring)."""
    for page in pages:
        # A figure caption opens with "fig" (the initial read first: most items are none).
        for cap in [
            it
            for it in page.items
            if it.kind is None and it.text[:1] in "Ff" and _is_figure_caption(it, body)
        ]:
            found = _figure_items(cap, page, body, body_font)
            if not found:
                continue
            box = found[0].bbox
            for it in found[1:]:
                box = box.union(it.bbox)
            # Page numbers taken from inside the figure's extent are its tick labels.
            for it in page.items:
                cx, cy = (it.bbox.x0 + it.bbox.x1) / 2, (it.bbox.y0 + it.bbox.y1) / 2
                inside = box.x0 <= cx <= box.x1 and box.y0 - it.size <= cy <= box.y1
                if it.kind == "furniture" and inside and it.text.strip().isdigit():
                    found.append(it)
                    box = box.union(it.bbox)
            found.sort(key=lambda it: (round(it.bbox.y0 / 3), it.bbox.x0))
            ids = {id(it) for it in found}
            # The first of them in reading order, found by identity: Item compares
            # by fields, and list.index would stop at an equal item that is not
            # one of them (the same text drawn twice at one place).
            head = next(it for it in page.items if id(it) in ids)
            joined = Item(
                page.number,
                box,
                tuple([ln for it in found for ln in it.lines]),
                max(it.size for it in found),
                False,
                "figure",
                font=head.font,
                col=head.col,
            )
            page.items = [
                joined if it is head else it for it in page.items if it is head or id(it) not in ids
            ]


def sideways(it: Item) -> bool:
    """The item's text runs up or down the page: its box is as wide as its
    lines are tall, and taller than wide (a caption over a rotated table, read
    turned and mapped back to the displayed page)."""
    across = len(it.lines) * 1.6 * max(it.size, 1.0)
    b = it.bbox
    return b.x1 - b.x0 <= across < b.y1 - b.y0


def _transposed(b: BBox) -> BBox:
    return BBox(b.y0, b.x0, b.y1, b.x1)


def link_captions(
    drafts: list[UnitDraft],
    captions: list[tuple[int, Item]],
    tables: list[Item],
    table_index: dict[int, int],
) -> None:
    """Link each table caption to the nearest table on its page and in its column (both ways).

    ``captions`` are caption units ``(index in drafts, item)``; ``tables`` the
    table items, ``table_index`` their draft index by ``id``. Pairs are taken
    nearest first, each caption and each table once.
    """
    taken: set[int] = set()
    pairs: list[tuple[float, int, Item]] = []
    turned_caps: set[int] = set()
    for ci, cap in captions:
        if not _TABLE_LABEL.match(drafts[ci].text):
            continue
        # A caption set sideways (over a rotated table) is over its table
        # along the page's width: the boxes are compared turned.
        turned = sideways(cap)
        if turned:
            turned_caps.add(ci)
        c = _transposed(cap.bbox) if turned else cap.bbox
        for t in tables:
            # A table joined over a page break has a piece on each page.
            for page, box in ((t.page, t.bbox), *t.extra):
                if page != cap.page:
                    continue
                b = _transposed(box) if turned else box
                # In its column: a caption and a table side by side in two page
                # columns are not each other's.
                if min(b.x1, c.x1) - max(b.x0, c.x0) <= 0:
                    continue
                gap = max(b.y0 - c.y1, c.y0 - b.y1, 0.0)
                pairs.append((gap, ci, t))
    used_caps: set[int] = set()
    for _gap, ci, t in sorted(pairs, key=lambda x: x[0]):
        ti = table_index[id(t)]
        if ci in used_caps or ti in taken:
            continue
        used_caps.add(ci)
        taken.add(ti)
        d = drafts[ti]
        if d.table is None:
            continue
        d.table = dataclasses.replace(d.table, caption=drafts[ci].text.strip())
        d.related.append(ci)
        drafts[ci].related.append(ti)
        for part in continued_parts(drafts, ti, turned=ci in turned_caps):
            p = drafts[part]
            if p.table is None or part in taken:
                break
            taken.add(part)
            p.table = dataclasses.replace(p.table, caption=d.table.caption)
            p.related += [ci, ti]
            drafts[ci].related.append(part)
            d.related.append(part)


#: A note that a table goes on ("Table 1 continued on next page", "Table 1 (continued)").
_CONTINUED_NOTE = re.compile(r"\b(?:continued|cont\.|contd\.?)(?:\W|$)", re.IGNORECASE)


def continued_parts(drafts: Sequence[UnitDraft], head: int, *, turned: bool = False) -> list[int]:
    """Indices of the table drafts that go on with the table at ``head``.

    One caption can stand over several tables: a wide table split into parts
    printed one under the other, a second tabular under the first, a table
    continued on the next page (with its header repeated or a "continued"
    note). A reader takes each as a part of the captioned table. A part is
    the next draft after the previous part, with only furniture and
    "continued" notes between, holding a table with no caption of its own,
    either right under the previous part on its page and across its
    width (the gap under three quarters of the taller part's height) or at
    the top of the next page. ``turned``: the table is set sideways (its
    caption is, see :func:`sideways`), so "under" runs along the page's width.
    """
    out: list[int] = []
    prev = head
    i = head + 1
    while i < len(drafts):
        d = drafts[i]
        if d.kind == "furniture" or (
            d.table is None and len(d.text.split()) <= 8 and _CONTINUED_NOTE.search(d.text)
        ):
            i += 1
            continue
        if d.table is None or d.table.caption or not d.provenance or not drafts[prev].provenance:
            break
        above, here = drafts[prev].provenance[-1], d.provenance[0]
        a, b = above.bbox, here.bbox
        if turned and a is not None and b is not None:
            a, b = _transposed(a), _transposed(b)
        if here.page == above.page and a is not None and b is not None:
            gap = b.y0 - a.y1
            across = min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5 * min(a.x1 - a.x0, b.x1 - b.x0)
            if not (-2 <= gap <= 0.75 * max(a.y1 - a.y0, b.y1 - b.y0) and across):
                break
        elif here.page != above.page + 1:
            break
        out.append(i)
        prev = i
        i += 1
    return out

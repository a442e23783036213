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
"""

from __future__ import annotations

from collections.abc import Sequence

from docparse.backends.headings import numbering
from docparse.backends.items import CAPTION, Item, PageItems


def _is_figure_caption(it: Item, body: float) -> bool:
    m = CAPTION.match(it.text)
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
        for cap in [it for it in page.items if it.kind is None and _is_figure_caption(it, body)]:
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
            head = min(found, key=page.items.index)
            ids = {id(it) for it in found}
            joined = Item(
                page.number,
                box,
                [ln for it in found for ln in it.lines],
                max(it.size for it in found),
                False,
                "figure",
                font=head.font,
                col=head.col,
            )
            page.items = [
                joined if it is head else it for it in page.items if it is head or id(it) not in ids
            ]

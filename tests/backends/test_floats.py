"""The text inside a figure joined into one ``figure`` item (``floats.mark_figure_text``)."""

from __future__ import annotations

import dataclasses

from docparse.backends.floats import mark_figure_text
from docparse.backends.items import Item, PageItems
from docparse.model import BBox


def _item(text: str, box: tuple[float, float, float, float], size: float = 7.0) -> Item:
    return Item(1, BBox(*box), (text,), size, False, font="Helvetica")


def test_figure_text_joins_where_the_first_of_it_is_read() -> None:
    # Reading order puts the right-hand tick label before the axis title that
    # sits higher on the page, and a side note (beside the figure, not over the
    # caption) between them: the joined item takes the reading-order place of
    # the first, while its lines run top to bottom.
    tick = _item("loss", (200.0, 250.0, 220.0, 258.0))
    side = _item("A side note", (400.0, 245.0, 500.0, 255.0))
    axis = _item("Accuracy", (60.0, 240.0, 110.0, 248.0))
    cap = _item("Figure 1: A plot of accuracy.", (50.0, 300.0, 300.0, 310.0), size=9.0)
    body = _item("Running text of the paper " * 4, (50.0, 320.0, 300.0, 330.0), size=10.0)
    page = PageItems(1, 612.0, 792.0, [body, tick, side, axis, cap])
    mark_figure_text([page], 10.0, "Helvetica")
    assert [it.role for it in page.items] == [None, "figure", None, None]
    assert page.items[0] is body and page.items[2] is side and page.items[3] is cap
    assert page.items[1].lines == ("Accuracy", "loss")


def test_text_drawn_twice_is_joined_once_per_object() -> None:
    # Items compare by their fields: the same label drawn twice at one place
    # gives two equal items. Each is found by identity, and both are taken.
    tick = _item("loss", (200.0, 250.0, 220.0, 258.0))
    twin = dataclasses.replace(tick)
    assert twin == tick and twin is not tick
    axis = _item("Accuracy", (60.0, 240.0, 110.0, 248.0))
    cap = _item("Figure 2. Another plot.", (50.0, 300.0, 300.0, 310.0), size=9.0)
    page = PageItems(1, 612.0, 792.0, [tick, twin, axis, cap])
    mark_figure_text([page], 10.0, "Helvetica")
    assert len(page.items) == 2
    assert page.items[0].role == "figure" and page.items[1] is cap
    assert page.items[0].lines == ("Accuracy", "loss", "loss")

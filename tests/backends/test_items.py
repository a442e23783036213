"""The fast item makers of :mod:`docparse.backends.items`."""

from __future__ import annotations

import dataclasses

from docparse.backends.items import Item, line_item, new_item
from docparse.model import BBox


def _fields(it: Item) -> list[tuple[str, object]]:
    return [(f.name, getattr(it, f.name)) for f in dataclasses.fields(it)]


def test_item_checks_nothing_on_init() -> None:
    """The makers skip ``__init__``: they are right only while it only sets fields."""
    assert not hasattr(Item, "__post_init__")
    assert dataclasses.is_dataclass(Item)


def test_makers_give_what_the_dataclass_gives() -> None:
    box = BBox(1.0, 2.0, 30.0, 12.0)
    made = new_item(3, box, ("a ", " b"), 9.5, True, "heading", "F", "1")
    plain = Item(3, box, ("a ", " b"), 9.5, True, "heading", font="F", marker="1")
    assert _fields(made) == _fields(plain)
    assert (made.text, made.chars) == (plain.text, plain.chars) == ("a b", 4)
    assert made.extra is not new_item(3, box, (), 9.5, True).extra  # a list of its own
    one = line_item(3, box, " x y ", "x y", 9.5, False, None, "F")
    plain = Item(3, box, (" x y ",), 9.5, False, None, font="F")
    assert (one.text, one.chars) == (plain.text, plain.chars) == ("x y", 5)
    assert _fields(one) == _fields(plain)  # the text and chars kept, as reading them keeps them
    # Every slot is set: a slot a maker forgot would raise on reading.
    for it in (made, one):
        for name in Item.__slots__:
            getattr(it, name)

"""Pages whose text is set sideways: the turn that makes them read upright.

A rotated table (LaTeX ``longrotatetable``, ``sidewaystable``, a landscape
page printed on portrait paper without ``/Rotate``) puts most of a page's
text at 90 or 270 degrees. Lines, table rows and columns only make sense in
the frame where that text runs left to right, so a backend reads such a page
turned upright (both built-in backends do it by giving the page a ``/Rotate``
for the read, in memory) and reports ``rotation`` so the assembly maps every
box back to the displayed page (:class:`~docparse.backends.pages.PageContent`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from docparse.backends.lines import make_line, new_span
from docparse.backends.pages import Block, display_bbox
from docparse.model import BBox

#: Share of a page's characters that must run in one non-upright direction
#: before the page is read turned: a page of prose with a plot whose axis
#: labels are rotated keeps its frame.
ROTATED_SHARE = 0.6

#: Fewer rotated characters than this never turn a page (a lone margin stamp).
MIN_ROTATED_CHARS = 40


def direction_turn(dx: float, dy: float) -> int:
    """Clockwise turn (0, 90, 180 or 270 degrees) that makes text running along
    ``(dx, dy)`` (displayed page, y pointing down) read left to right."""
    if abs(dx) >= abs(dy):
        return 0 if dx >= 0 else 180
    # Upward text (dy < 0) reads left to right once the page turns clockwise.
    return 90 if dy < 0 else 270


def upright_turn(directions: Iterable[tuple[float, float, int]]) -> int:
    """The clockwise turn that sets a page's text upright, or 0 to keep it.

    ``directions``: ``(dx, dy, n_chars)`` per line or character run, in the
    displayed page (y down). The page turns when one non-upright direction
    holds at least :data:`ROTATED_SHARE` of its characters.
    """
    counts = [0, 0, 0, 0]
    for dx, dy, n in directions:
        counts[direction_turn(dx, dy) // 90] += n
    total = sum(counts)
    best = max(range(1, 4), key=lambda i: counts[i])
    if counts[best] < MIN_ROTATED_CHARS or counts[best] < ROTATED_SHARE * total:
        return 0
    return 90 * best


def turn_vector(dx: float, dy: float, rotation: int) -> tuple[float, float]:
    """A direction in the unrotated page (y down) as seen on the page displayed
    with ``rotation`` degrees clockwise (as :func:`~docparse.backends.pages.display_bbox`)."""
    for _ in range((rotation % 360) // 90):
        dx, dy = -dy, dx
    return dx, dy


def turned_blocks(blocks: Sequence[Block], turn: int, width: float, height: float) -> list[Block]:
    """``blocks`` of the displayed page (``width`` x ``height``) with their boxes
    in the page turned ``turn`` degrees clockwise.

    A backend reading a turned page keeps the text that was upright on the
    displayed page (a running head, a page number) as the blocks it made there;
    only their boxes move, so the assembly maps them back unchanged.
    """

    def box(b: BBox) -> BBox:
        return display_bbox(b, turn, width, height)

    out: list[Block] = []
    for b in blocks:
        # One span per line: a line's text is worked out from its spans' gaps,
        # which only the displayed page's boxes still show.
        lines = tuple(
            make_line(
                (new_span(ln.text, box(ln.bbox), ln.size, ln.bold, ln.spans[0].font),),
                box(ln.bbox),
            )
            for ln in b.lines
            if ln.spans
        )
        out.append(dataclasses.replace(b, lines=lines, bbox=box(b.bbox)))
    return out


def mupdf_directions(data: dict[str, Any], rotation: int) -> Iterator[tuple[float, float, int]]:
    """Each line's direction and length in a MuPDF ``get_text("dict")`` result,
    on the page displayed with ``rotation``."""
    for b in data.get("blocks", ()):
        for ln in b.get("lines", ()):
            dx, dy = turn_vector(float(ln["dir"][0]), float(ln["dir"][1]), rotation)
            yield dx, dy, sum(len(s["text"]) for s in ln["spans"])


def mupdf_cross_lines(data: dict[str, Any], rotation: int) -> set[tuple[int, int]]:
    """``(block number, line number)`` of the lines of a MuPDF ``get_text("dict")``
    result that do not run left to right on the page displayed with ``rotation``
    (the keys of ``get_text("words")``' block and line numbers)."""
    return {
        (int(b["number"]), li)
        for b in data.get("blocks", ())
        for li, ln in enumerate(b.get("lines", ()))
        if direction_turn(*turn_vector(float(ln["dir"][0]), float(ln["dir"][1]), rotation))
    }

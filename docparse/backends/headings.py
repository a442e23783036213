"""Headings of PDF pages: which items are headings, their numbers and their levels.

A heading is found by style (larger than the body, or a short bold line)
or by numbering: a short line that starts with a section number (``2.1``,
``II.``, ``B.``) and reads as a title (all capitals, a multi-level number,
or a font other than the body's). Levels come from the numbering scheme
(``3.2.1`` is level 3; roman ``II.`` is above letter ``B.``) and, for
unnumbered headings, from the level that numbered headings of the same
style have elsewhere in the document, then from font size.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from docparse.backends.items import CAPTION, Item

_BULLET_CHARS = re.compile(r"^\s*[•◦▪▫●○■□‣⁃∙·]\s*")
_DECIMAL = re.compile(r"^((?:\d+\.)*\d+)\.?\s+(?=[^\d\s])")
_ROMAN = re.compile(r"^([IVXL]+)\.\s+(?=[A-Z])")
_LETTER = re.compile(r"^([A-Z])\.\s+(?=[A-Z])")
_SECTION_NUMBER = re.compile(r"(?:\d+(?:\.\d+)*\.?|[IVXL]+\.|[A-Z]\.?)")


def numbering(text: str) -> tuple[str, int]:
    """``(scheme, depth)`` of a heading's number: ``("decimal", 2)`` for
    ``2.1 Method``, ``("roman", 1)`` for ``II. MATH``, ``("letter", 1)`` for
    ``B. Footnotes``; ``("", 0)`` when unnumbered."""
    m = _DECIMAL.match(text)
    if m:
        return "decimal", m.group(1).count(".") + 1
    if _ROMAN.match(text):
        return "roman", 1
    if _LETTER.match(text):
        return "letter", 1
    return "", 0


def _style(it: Item) -> tuple[float, bool, str]:
    return round(it.size * 2) / 2, it.bold, it.font


def is_heading(it: Item, body: float, body_font: str) -> bool:
    """``it`` reads as a heading by its style or its numbering."""
    text = it.text
    words = text.split()
    if not words or len(words) > 18 or len(it.lines) > 3:
        return False
    if not any(c.isalpha() for c in text):
        return False
    scheme, depth = numbering(text)
    if text.endswith((".", ",", ";")) and not scheme and len(words) > 6:
        return False
    if CAPTION.match(text) or _BULLET_CHARS.match(text):
        return False
    if body <= 0:
        return False
    larger = it.size >= body * 1.12
    bold = it.bold and it.size >= body * 0.9
    if larger:
        return not text.endswith(".") or len(words) <= 8
    if bold:
        return len(words) <= 12 and (text[:1].isupper() or bool(scheme))
    if not scheme or len(it.lines) > 1 or len(words) > 12 or text.endswith((".", ",", ";", ":")):
        return False
    title = text.split(None, 1)[1] if len(words) > 1 else ""
    letters = [c for c in title if c.isalpha()]
    capitals = len(letters) >= 3 and all(c.isupper() for c in letters)
    distinct = bool(body_font) and it.font != body_font and it.size >= body * 0.9
    if scheme == "letter":
        # "A. Smith" is a name as often as a heading: capitals or own font only.
        return capitals or (distinct and len(words) <= 8)
    return capitals or (scheme == "decimal" and depth >= 2) or distinct


def assign_levels(headings: Sequence[Item]) -> None:
    """Set :attr:`Item.level` on ``headings`` (in document order).

    Numbered: roman numbers are level 1; letters are level 2 under roman
    sections, else 1; decimal numbers their depth (one below roman and
    letter levels when the document numbers its top sections that way and
    uses ``1)`` under them is not assumed). Unnumbered: the most common level
    of numbered headings in the same style (size, weight, font), else the
    rank of the font size among heading sizes.
    """
    has_roman = any(numbering(h.text)[0] == "roman" for h in headings)
    by_style: dict[tuple[float, bool, str], Counter[int]] = defaultdict(Counter)
    for h in headings:
        scheme, depth = numbering(h.text)
        if scheme == "roman":
            h.level = 1
        elif scheme == "letter":
            h.level = 2 if has_roman else 1
        elif scheme == "decimal":
            h.level = depth
        else:
            h.level = 0
            continue
        by_style[_style(h)][h.level] += 1
    sizes = sorted({round(h.size * 2) / 2 for h in headings}, reverse=True)
    ranks = {s: i + 1 for i, s in enumerate(sizes)}
    for h in headings:
        if h.level:
            continue
        seen = by_style.get(_style(h))
        h.level = seen.most_common(1)[0][0] if seen else ranks.get(round(h.size * 2) / 2, 1)


def attach_section_numbers(items: list[Item]) -> list[Item]:
    """Join a heading's number set apart ("1" ... "INTRODUCTION") to its text.

    Classes that put the number in its own box make the backend report it
    as a separate block on the same baseline just left of the title.
    """
    numbers = [
        it for it in items if len(it.lines) == 1 and _SECTION_NUMBER.fullmatch(it.text.strip())
    ]
    if not numbers:
        return items
    dropped: set[int] = set()
    # Only items whose top lies within a size of the number's centre can be
    # near it: found by bisection over the tops, plus the items already
    # widened by a number (their top moved).
    order = sorted(range(len(items)), key=lambda i: items[i].bbox.y0)
    tops = [items[i].bbox.y0 for i in order]
    moved: set[int] = set()
    for num in numbers:
        size = max(num.size, 1.0)
        cy = (num.bbox.y0 + num.bbox.y1) / 2
        lo = bisect.bisect_left(tops, cy - size)
        hi = bisect.bisect_right(tops, cy + 0.5 * size)
        best: Item | None = None
        best_i = -1
        for i in sorted(moved.union(order[lo:hi])):
            it = items[i]
            if it is num or id(it) in dropped or not it.lines:
                continue
            first = it.bbox.y0 + min(it.bbox.y1 - it.bbox.y0, size) / 2
            gap = it.bbox.x0 - num.bbox.x1
            near = abs(first - cy) < 0.5 * size and 0 <= gap < 4 * size
            if near and (best is None or it.bbox.x0 < best.bbox.x0):
                best, best_i = it, i
        if best is not None and not _SECTION_NUMBER.fullmatch(best.text.strip()):
            best.lines[0] = num.text.strip() + " " + best.lines[0].strip()
            best.bbox = best.bbox.union(num.bbox)
            moved.add(best_i)
            dropped.add(id(num))
    return [it for it in items if id(it) not in dropped]

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
_APPENDIX = re.compile(r"^([A-Z](?:\.\d+)+)\.?\s+(?=[^\d\s])")
_ROMAN = re.compile(r"^([IVXL]+)\.\s+(?=[A-Z])")
# "B. Footnotes"; "B ONLINE RESOURCES" (appendices of acmart-like classes)
# without the dot only before a title in capitals.
_LETTER = re.compile(r"^([A-Z])(?:\.\s+(?=[A-Z])|\s+(?=[A-Z]{2,}(?:\s|$)))")
_SECTION_NUMBER = re.compile(r"(?:\d+(?:\.\d+)*\.?|[IVXL]+\.|[A-Z](?:\.\d+)*\.?)")


def is_section_number(text: str) -> bool:
    """``text`` is a section number alone: ``2.1``, ``II.``, ``B``, ``A.1``."""
    return bool(_SECTION_NUMBER.fullmatch(text.strip()))


def numbering(text: str) -> tuple[str, int]:
    """``(scheme, depth)`` of a heading's number: ``("decimal", 2)`` for
    ``2.1 Method``, ``("roman", 1)`` for ``II. MATH``, ``("letter", 1)`` for
    ``B. Footnotes``; ``("", 0)`` when unnumbered."""
    m = _DECIMAL.match(text)
    if m:
        return "decimal", m.group(1).count(".") + 1
    m = _APPENDIX.match(text)
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
    if sum(c.isalpha() for c in text) < 3:
        return False  # symbols of a formula set in a bold math font ("QN", "0 σµ")
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
    if not scheme or len(it.lines) > 2 or len(words) > 12 or text.endswith((".", ",", ";", ":")):
        return False
    title = text.split(None, 1)[1] if len(words) > 1 else ""
    letters = [c for c in title if c.isalpha()]
    capitals = len(letters) >= 3 and all(c.isupper() for c in letters)
    distinct = bool(body_font) and it.font != body_font and it.size >= body * 0.9
    if len(it.lines) > 1 and not (capitals or distinct):
        return False  # a long title wraps; a numbered line of body text does not make one
    if scheme == "letter":
        # "A. Smith" is a name as often as a heading: capitals or own font only.
        return capitals or (distinct and len(words) <= 8)
    return capitals or (scheme == "decimal" and depth >= 2) or distinct


def _prominence(it: Item) -> tuple[float, bool]:
    return round(it.size * 2) / 2, it.bold


def assign_levels(headings: Sequence[Item]) -> None:
    """Set :attr:`Item.level` on ``headings`` (in document order).

    Numbered: roman numbers are level 1; letters are level 2 under roman
    sections, else 1; decimal numbers (``3.2.1``, appendix ``A.1``) their
    depth. Each style (size, weight, font) of numbered headings is thereby
    tied to its most common level, and an unnumbered heading in that style
    gets the same level (``References`` beside ``1. Introduction``) -- except
    below level 1 when the numbering around it already reaches that level:
    a ``paragraph`` heading set like the numbered sub-sections but inside ``1.1.1``
    is a level below ``1.1.1``, not a sibling of ``1.1`` without a number.
    An unnumbered style the numbered headings never use is, where it first
    appears, one level below the heading in effect (when it is not set
    larger than that heading), and keeps that level wherever it reappears,
    so the levels are the same across the document. A document with no
    numbered headings ranks its heading styles by size, then weight.
    """
    has_roman = any(numbering(h.text)[0] == "roman" for h in headings)
    by_style: dict[tuple[float, bool, str], Counter[int]] = defaultdict(Counter)
    numbered: dict[int, int] = {}
    for h in headings:
        scheme, depth = numbering(h.text)
        if scheme == "roman":
            level = 1
        elif scheme == "letter":
            level = 2 if has_roman else 1
        elif scheme == "decimal":
            level = depth
        else:
            continue
        numbered[id(h)] = level
        by_style[_style(h)][level] += 1
    if not numbered:
        ranks = sorted({_prominence(h) for h in headings}, reverse=True)
        rank = {p: i + 1 for i, p in enumerate(ranks)}
        for h in headings:
            h.level = rank[_prominence(h)]
        return
    style_level = {s: c.most_common(1)[0][0] for s, c in by_style.items()}
    context = 0  # depth of the last numbered heading
    last: Item | None = None
    for h in headings:
        if id(h) in numbered:
            h.level = context = numbered[id(h)]
        else:
            style = _style(h)
            known = style_level.get(style)
            if known is not None:
                h.level = context + 1 if 2 <= known <= context else known
            elif last is not None and _prominence(h) <= _prominence(last):
                h.level = last.level + 1
                style_level[style] = h.level
            else:
                # Larger than the heading in effect: the level of the
                # smallest numbered style at least as large, else the top.
                size = _prominence(h)[0]
                above = [lv for s, lv in style_level.items() if s[0] >= size]
                h.level = max(above) if above else 1
                style_level[style] = h.level
        last = h


def attach_section_numbers(items: list[Item]) -> list[Item]:
    """Join a heading's number set apart ("1" ... "INTRODUCTION") to its text.

    Classes that put the number in its own box make the backend report it
    as a separate block on the same baseline just left of the title.
    """
    numbers = [it for it in items if len(it.lines) == 1 and is_section_number(it.text)]
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
        if best is not None and not is_section_number(best.text):
            best.lines[0] = num.text.strip() + " " + best.lines[0].strip()
            best.bbox = best.bbox.union(num.bbox)
            moved.add(best_i)
            dropped.add(id(num))
    return [it for it in items if id(it) not in dropped]

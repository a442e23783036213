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
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence

from docparse.backends.items import CAPTION, Item, PageItems, is_superscript
from docparse.backends.lines import union_boxes
from docparse.backends.pages import Block, Line, TextSpan
from docparse.model import BBox

_BULLET_CHARS = re.compile(r"^\s*[•◦▪▫●○■□‣⁃∙·]\s*")
_DECIMAL = re.compile(r"^((?:\d+\.)*\d+)\.?\s+(?=[^\d\s])")
_APPENDIX = re.compile(r"^([A-Z](?:\.\d+)+)\.?\s+(?=[^\d\s])")
_ROMAN = re.compile(r"^([IVXL]+)\.\s+(?=[A-Z])")
# "B. Footnotes"; "B ONLINE RESOURCES" (appendices of acmart-like classes)
# without the dot only before a title in capitals.
_LETTER = re.compile(r"^([A-Z])(?:\.\s+(?=[A-Z])|\s+(?=[A-Z]{2,}(?:\s|$)))")
_SECTION_NUMBER = re.compile(r"(?:\d+(?:\.\d+)*\.?|[IVXL]+\.|[A-Z](?:\.\d+)*\.?)")
# The same, white space around it allowed: ``\s`` is what str.strip() strips
# (both read Unicode's white space), and no section number starts or ends with it.
_SECTION_ALONE = re.compile(r"\s*" + _SECTION_NUMBER.pattern + r"\s*")


#: Dot leaders running to a page number at the end of a line of a contents list.
_LEADER = re.compile(r"(?:\.\s?){4,}\s*(?:\d+|[ivxlc]+)?\s*$", re.IGNORECASE)


def contents_pages(pages: Sequence[PageItems]) -> set[int]:
    """Pages that hold a table of contents: five or more lines led by dots
    to their page number (the backend may report a leader apart from its
    title, so lines are counted over the whole page)."""
    out = set()
    for p in pages:
        # A leader is four dots or more: a line with fewer is not searched.
        n = sum(1 for it in p.items for ln in it.lines if ln.count(".") >= 4 and _LEADER.search(ln))
        if n >= 5:
            out.add(p.number)
    return out


#: The line number that opens a line of a numbered listing: ``59 \\dimendef``.
_LEADING_NUMBER = re.compile(r"(\d+)\s")


def text_fonts(pages: Sequence[PageItems]) -> frozenset[str]:
    """Fonts that set running text: each holds 5% or more of the characters
    of the items of three lines or more (the body's, a code listing's).

    So do the fonts of listings whose lines are numbered (``ltxdoc``'s code, a
    ``listings`` block): items in one font, one after another, that open with
    the numbers ``n`` and ``n + 1``, twice or more in the document. A backend
    may cut such a listing into one item a line, which no font share of long
    items then sees; numbered sections never follow one another without text
    between them (a contents list aside, which is no heading either).
    """
    c: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    for p in pages:
        last_font, last_n = "", -1
        for it in p.items:
            if it.table is not None:
                last_n = -1
                continue
            lines = it.lines
            if len(lines) >= 3:
                c[it.font] += it.chars
            # Most items open with a letter: no number to read (on the first
            # line, not the joined text, which most items need no more).
            first = lines[0] if lines else ""
            m = _LEADING_NUMBER.match(first) if first[:1].isdecimal() else None
            if m is None:
                last_n = -1
                continue
            n = int(m.group(1))
            if n == last_n + 1 and it.font == last_font:
                pairs[it.font] += 1
            last_font, last_n = it.font, n
    total = sum(c.values())
    running = {f for f, n in c.items() if n >= 0.05 * total}
    return frozenset(running.union(f for f, k in pairs.items() if k >= 2))


def body_sizes(pages: Sequence[PageItems]) -> frozenset[float]:
    """Type sizes (to half a point) that each set a quarter or more of the
    text outside tables: the body's, and a second body size if any."""
    # Characters summed by exact size first, then by half point: a document
    # sets its items in a few sizes, so each is rounded once, not once an item.
    exact: dict[float, int] = {}
    get = exact.get
    for p in pages:
        for it in p.items:
            size = it.size
            if it.table is None and size > 0:
                exact[size] = get(size, 0) + it.chars
    c: Counter[float] = Counter()
    for size, n in exact.items():
        c[round(size * 2) / 2] += n
    total = sum(c.values())
    return frozenset(size for size, n in c.items() if n >= 0.25 * total)


def is_section_number(text: str) -> bool:
    """``text`` is a section number alone: ``2.1``, ``II.``, ``B``, ``A.1``."""
    return _SECTION_ALONE.fullmatch(text) is not None


def numbering(text: str) -> tuple[str, int]:
    """``(scheme, depth)`` of a heading's number: ``("decimal", 2)`` for
    ``2.1 Method``, ``("roman", 1)`` for ``II. MATH``, ``("letter", 1)`` for
    ``B. Footnotes``; ``("", 0)`` when unnumbered."""
    # Each number opens with a decimal digit (``\d``) or a capital A-Z: most
    # text opens with neither and needs none of the four patterns. After a
    # capital, only a roman numeral's letter or a full stop or white space
    # (``\s``, what str.isspace() reads) can go on to a number: most capitalised
    # words need no pattern either.
    c = text[:1]
    if not c.isdecimal():
        if not "A" <= c <= "Z":
            return "", 0
        d = text[1:2]
        if d != "." and not d.isspace() and c not in "IVXL":
            return "", 0
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


# Italic and slanted faces by name: ``Times-Italic``, ``Helvetica-Oblique``,
# ``NimbusRomNo9L-ReguItal``, ``MinionPro-It``, TeX's ``CMTI10``, ``CMSL10``,
# ``CMBXTI10`` and the EC fonts' ``SFTI1000``. The backends report no italic
# flag, but every one reports the font's name. TeX's math italic (``CMMI``)
# sets symbols, not titles, and is left out.
_ITALIC = re.compile(
    r"italic|oblique|ital$|-it$|-it[^a-z]|^cm(?:bx)?(?:ti|sl)\d|^(?:ec|tc|sf)(?:ti|bi|sl|so)\d",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)
def is_italic_font(font: str) -> bool:
    """``font`` (a PDF font name, a subset tag ``ABCDEF+`` allowed) is an italic
    or slanted face.

    >>> is_italic_font("QWERTY+NimbusRomNo9L-ReguItal"), is_italic_font("CMTI10")
    (True, True)
    >>> is_italic_font("CMMI10"), is_italic_font("TeXGyreTermes-Regular")
    (False, False)
    """
    return _ITALIC.search(font.rsplit("+", 1)[-1]) is not None


def _italic(s: TextSpan) -> bool:
    return is_italic_font(s.font)


def _bold(s: TextSpan) -> bool:
    return s.bold


def _run_in_end(line: Line) -> int:
    """Index of the first span after a bold run that opens ``line`` and ends
    with ``.`` or ``:`` ("Subsection Headings." then roman text), else 0.

    Raised spans inside the run (a footnote mark after the title) belong to it.
    A section number in the text's weight may open the run (``1.1.`` then a
    bold ``Title.``, as the AMS classes set ``\\subsection``); after such a
    number the run may be italic instead (``1.1.1.`` then an italic
    ``Title.``: the AMS classes' ``\\subsubsection``).
    """
    bold: list[str] = []
    number = False
    italic = False
    for i, s in enumerate(line.spans):
        t = s.text
        if not t.strip():
            continue
        if not bold and not s.bold:
            # Most lines open with neither a bold run nor a number: no title to read.
            if number or not t[:1].isdecimal() or not is_section_number(t):
                return 0
            number = True
            bold.append(t)
            continue
        if s.bold and not italic:
            bold.append(s.text)
            continue
        # An italic run only right after a number: italics alone are emphasis.
        if (italic or (number and len(bold) == 1)) and not s.bold and is_italic_font(s.font):
            italic = True
            bold.append(s.text)
            continue
        if bold and is_superscript(s.size, s.bbox.y1, line.size, line.bbox.y1):
            continue
        title = "".join(bold).strip()
        rest = "".join(t.text for t in line.spans[i:])
        letters = sum(c.isalpha() for c in title)
        if title.endswith((".", ":")) and letters >= 3 and any(c.isalpha() for c in rest):
            return i if len(title.split()) <= 14 else 0
        return 0
    return 0


def split_run_in(lines: Sequence[Line]) -> tuple[list[Line], set[int]]:
    """Split numbered run-in headings off the text they open.

    A sub-section heading set in bold at the start of its paragraph's first
    line (``3.1 Subsection Headings.`` then the text, as journals set
    ``\\subsection`` and ``\\paragraph``) is a line of its own, returned with
    the ids of the heading lines. Only multi-level numbers (``3.1``, ``A.2``)
    count: a bold lead-in of a list item (``1. Install.``)
    or an unnumbered one (``Note.``, ``Proof.``) stays in its paragraph.
    """
    # No bold run can open a line of most blocks, nor an italic one, which
    # needs a number before it (read first: a digit is cheaper than a font name).
    if not any([s.bold for ln in lines for s in ln.spans]) and (
        not any([ln.spans[0].text[:1].isdecimal() for ln in lines if ln.spans])
        or not any([is_italic_font(s.font) for ln in lines for s in ln.spans])
    ):
        return list(lines), set()
    out: list[Line] = []
    heads: set[int] = set()
    i = 0
    while i < len(lines):
        # The backend may cut one printed line where the font changes (a
        # boxed number, a typewriter word): read the pieces on one baseline
        # as one line.
        j = i + 1
        while j < len(lines) and _beside(lines[j - 1], lines[j]):
            j += 1
        if j == i + 1:
            ln = lines[i]
            spans = ln.spans
        else:
            spans = tuple(s for ln in lines[i:j] for s in ln.spans)
            ln = Line(spans, _spans_box(spans))
        end = _run_in_end(ln)
        # No bold run opens most lines: nothing to number.
        scheme, depth = numbering(Line(spans[:end], ln.bbox).text.strip()) if end else ("", 0)
        if scheme == "decimal" and depth >= 2:
            run = _bold if any(s.bold for s in spans[:end]) else _italic
            head = Line(_title_spans(spans[:end], run), _spans_box(spans[:end]))
            out.extend((head, Line(spans[end:], _spans_box(spans[end:]))))
            heads.add(id(head))
        else:
            out.extend(lines[i:j])
        i = j
    return out, heads


def _beside(a: Line, b: Line) -> bool:
    """``b`` goes on from ``a`` on the same baseline."""
    return b.bbox.x0 >= a.bbox.x1 - 1 and abs(a.bbox.y1 - b.bbox.y1) < 0.5 * max(a.size, 1.0)


def _title_spans(
    spans: Sequence[TextSpan], run: Callable[[TextSpan], bool] = _bold
) -> tuple[TextSpan, ...]:
    """A run-in title's spans (its section number in the text's weight too) without
    what only sets it off from the text: a footnote mark raised after it and the
    closing full stop. ``run`` tells the title's spans (bold, or italic)."""
    first = next((i for i, s in enumerate(spans) if run(s)), len(spans))
    out = [s for s in spans[:first] if s.text.strip()] + [s for s in spans[first:] if run(s)]
    while out and out[-1].text.strip() in ("", "."):
        out.pop()
    if out and out[-1].text.rstrip().endswith("."):
        last = out[-1]
        out[-1] = TextSpan(last.text.rstrip()[:-1], last.bbox, last.size, last.bold, last.font)
    return tuple(out)


def join_number_blocks(blocks: Sequence[Block]) -> list[Block]:
    """Put a heading number the backend reports as a block of its own in front
    of the block that starts just right of it on its baseline, so that a
    run-in title there (:func:`split_run_in`) sees its number."""
    numbers = [
        b
        for b in blocks
        if b.role is None
        and len(b.lines) == 1
        and b.lines[0].bold
        and is_section_number(b.lines[0].text)
    ]
    if not numbers:
        return list(blocks)
    # The blocks a number may join, sorted by their first line's bottom: a
    # number reads only those near its own bottom (found by bisection), in
    # the blocks' order, as a scan of all of them would.
    firsts = sorted(
        (b.lines[0].bbox.y1, k) for k, b in enumerate(blocks) if b.role is None and b.lines
    )
    bottoms = [y1 for y1, _ in firsts]
    if any(y1 != y1 for y1 in bottoms):
        bottoms = []  # a NaN bottom sorts nowhere: every block is read
    joined: dict[int, Block] = {}
    used: set[int] = set()
    for num in numbers:
        ln = num.lines[0]
        size = max(ln.size, 1.0)
        near: Sequence[Block] = blocks
        if bottoms:
            # Twice the reach of the test below: no rounding at the edges drops a block.
            y1 = ln.bbox.y1
            lo = bisect.bisect_left(bottoms, y1 - size)
            hi = bisect.bisect_right(bottoms, y1 + size)
            near = [blocks[k] for k in sorted([k for _, k in firsts[lo:hi]])]
        for b in near:
            if b is num or b.role is not None or not b.lines or id(b) in used:
                continue
            first = b.lines[0]
            gap = first.bbox.x0 - ln.bbox.x1
            if 0 <= gap < 4 * size and abs(first.bbox.y1 - ln.bbox.y1) < 0.5 * size:
                target = joined.get(id(b), b)
                joined[id(b)] = Block((ln, *target.lines), target.bbox.union(ln.bbox), None)
                used.add(id(num))
                break
    return [joined.get(id(b), b) for b in blocks if id(b) not in used]


def _spans_box(spans: Sequence[TextSpan]) -> BBox:
    return union_boxes([s.bbox for s in spans])


def _capitals(it: Item) -> bool:
    letters = [c for c in it.text if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def _style(it: Item) -> tuple[float, bool, str, bool]:
    return round(it.size * 2) / 2, it.bold, it.font, _capitals(it)


def _capital_title(text: str) -> bool:
    """The words after ``text``'s first (a number) are three letters or more, all capitals."""
    parts = text.split(None, 1)
    letters = [c for c in parts[1] if c.isalpha()] if len(parts) > 1 else []
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def _three_letters(text: str) -> bool:
    """``text`` has three letters or more (read no further than the third)."""
    if len(text) >= 3 and text[:3].isalpha():
        return True  # three letters open it (most text)
    n = 0
    for c in text:
        if c.isalpha():
            n += 1
            if n == 3:
                return True
    return False


def is_heading(
    it: Item,
    body: float,
    body_font: str,
    running: frozenset[str] = frozenset(),
    body_sizes: frozenset[float] = frozenset(),
) -> bool:
    """``it`` reads as a heading by its style or its numbering.

    ``running`` names the fonts of running text (:func:`text_fonts`): a
    numbered line in one of them (a code line ``3 root root 4096``) is not
    set apart by its font. ``body_sizes`` are the sizes (to half a point)
    that set a large share of the text (:func:`body_sizes`): a line in one of
    them is not larger than the body (a paper setting its methods in 7 pt
    and its results in 9 pt).
    """
    # The answer is the rule of its branch (larger, bold or numbered) and a
    # few gates every branch passes; all are pure tests, so they are read
    # cheapest first and the first that fails answers (most items fail one).
    lines = it.lines
    if len(lines) > 3 or body <= 0:
        return False
    text = it.text
    size = it.size
    larger = size >= body * 1.12 and round(size * 2) / 2 not in body_sizes
    bold = it.bold and size >= body * 0.9
    styled = larger or bold
    if not styled:
        # Only a numbered heading is left (most items): its gates before the
        # word count, the number itself last of them.
        # A number in small type: a table note, an infobox's "1.67 m"; but a
        # title in small capitals (``1. INTRODUCTION`` with its small letters
        # drawn as capitals a size down) has the small size for most letters.
        small = size < body * 0.9
        if (
            len(lines) > 2
            or (small and (size < body * 0.75 or not text[:1].isdecimal()))
            or text.endswith((".", ",", ";", ":"))
        ):
            return False
        scheme, depth = numbering(text)
        if not scheme or (small and not _capital_title(text)):
            return False
    words = text.split(None, 18)  # a nineteenth part: more than 18 words, not split further
    if not words or len(words) > 18 or (not styled and len(words) > 12):
        return False
    if not _three_letters(text):
        return False  # symbols of a formula set in a bold math font ("QN", "0 σµ")
    if styled:
        scheme, depth = numbering(text)
    if text.endswith((".", ",", ";")) and not scheme and len(words) > 6:
        return False
    if CAPTION.match(text) or _BULLET_CHARS.match(text):
        return False
    if larger:
        return not text.endswith(".") or len(words) <= 8
    if bold:
        return len(words) <= 12 and (text[:1].isupper() or bool(scheme))
    title = text.split(None, 1)[1] if len(words) > 1 else ""
    letters = [c for c in title if c.isalpha()]
    capitals = len(letters) >= 3 and all(c.isupper() for c in letters)
    distinct = (
        bool(body_font)
        and it.font != body_font
        and it.font not in running
        and it.size >= body * 0.9
    )
    if len(it.lines) > 1 and not (capitals or distinct):
        return False  # a long title wraps; a numbered line of body text does not make one
    if scheme == "letter":
        # "A. Smith" is a name as often as a heading: capitals or own font only.
        return capitals or (distinct and len(words) <= 8)
    return capitals or (scheme == "decimal" and depth >= 2) or distinct


def _prominence(it: Item) -> tuple[float, bool, bool]:
    # Capitals over lower case in one size and weight: the chapter titles
    # of a book set like its numbered sections, but in capitals.
    return round(it.size * 2) / 2, it.bold, _capitals(it)


def _unnumbered_rank(it: Item, text_size: float) -> tuple[int, float, bool, bool]:
    """How prominent an unnumbered heading is, against the text it introduces.

    A display heading (1.3 times that text's size or more) ranks by its
    size above every heading set near the text's size; those rank by
    capitals, then weight, whatever their size: journals set the methods or
    the acknowledgments in smaller type than the rest, with headings to
    match (``MATERIALS AND METHODS`` at 7 pt over 7 pt text is a sibling of
    ``RESULTS`` at 9 pt over 9 pt text).
    """
    if text_size > 0 and it.size >= 1.3 * text_size:
        return 1, round(it.size * 2) / 2, True, True
    return 0, 0.0, _capitals(it), it.bold


def assign_levels(headings: Sequence[Item], text_size: Mapping[int, float] | None = None) -> None:
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
    numbered headings ranks its heading styles by :func:`_unnumbered_rank`
    against ``text_size``, the type size of the text after each heading
    (keyed by ``id``); without it, by size, then weight.
    """
    has_roman = any(numbering(h.text)[0] == "roman" for h in headings)
    by_style: dict[tuple[float, bool, str, bool], Counter[int]] = defaultdict(Counter)
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
        keys: dict[int, tuple[float, ...]] = {
            id(h): _prominence(h)
            if text_size is None or id(h) not in text_size
            else _unnumbered_rank(h, text_size[id(h)])
            for h in headings
        }
        rank = {p: i + 1 for i, p in enumerate(sorted(set(keys.values()), reverse=True))}
        for h in headings:
            h.level = rank[keys[id(h)]]
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
                # smallest numbered style at least as large (capitals over
                # lower case in one size), else the top.
                mine = (_prominence(h)[0], _capitals(h))
                above = [lv for s, lv in style_level.items() if (s[0], s[3]) >= mine]
                h.level = max(above) if above else 1
                style_level[style] = h.level
        last = h


def front_matter(items: Sequence[Item], front: set[int]) -> list[Item]:
    """Headings among the items of a title page (``front``: ids of the items
    before the first running text) that are no section headings: unnumbered,
    found by style alone, in a style no heading after them uses (authors,
    affiliations, a release line). ``ABSTRACT`` set like the sections stays."""
    later = {_style(it) for it in items if it.kind == "heading" and id(it) not in front}
    return [
        it
        for it in items
        if it.kind == "heading"
        and id(it) in front
        and it.role is None
        and not numbering(it.text)[0]
        and _style(it) not in later
    ]


def attach_section_numbers(items: list[Item]) -> list[Item]:
    """Join a heading's number set apart ("1" ... "INTRODUCTION") to its text.

    Classes that put the number in its own box make the backend report it
    as a separate block on the same baseline just left of the title.
    """
    # An item of one line has that line stripped as its text: is_section_number
    # read on the line itself, white space around it allowed (no text made an item).
    alone = _SECTION_ALONE.fullmatch
    numbers = [it for it in items if len(it.lines) == 1 and alone(it.lines[0])]
    if not numbers:
        return items
    dropped: set[int] = set()
    # Only items whose top lies within a size of the number's centre can be
    # near it: found by bisection over the tops, plus the items already
    # widened by a number (their top moved).
    y0s = [it.bbox.y0 for it in items]
    order = sorted(range(len(items)), key=y0s.__getitem__)
    tops = [y0s[i] for i in order]
    moved: set[int] = set()
    for num in numbers:
        size = max(num.size, 1.0)
        nb = num.bbox
        cy = (nb.y0 + nb.y1) / 2
        right, reach = nb.x1, 4 * size
        lo = bisect.bisect_left(tops, cy - size)
        hi = bisect.bisect_right(tops, cy + 0.5 * size)
        near = order[lo:hi]
        if moved:
            near = list(moved.union(near))
        near.sort()
        best: Item | None = None
        best_i = -1
        for i in near:
            it = items[i]
            b = it.bbox
            # The tests are pure: the gap first (most items of the row are not
            # just right of the number).
            gap = b.x0 - right
            if not 0 <= gap < reach or it is num or id(it) in dropped or not it.lines:
                continue
            first = b.y0 + min(b.y1 - b.y0, size) / 2
            if abs(first - cy) < 0.5 * size and (best is None or b.x0 < best.bbox.x0):
                best, best_i = it, i
        if best is not None and not is_section_number(best.text):
            head = num.text.strip() + " " + best.lines[0].strip()
            best.lines = (head, *best.lines[1:])
            best.bbox = best.bbox.union(num.bbox)
            moved.add(best_i)
            dropped.add(id(num))
    return [it for it in items if id(it) not in dropped]

"""Display equations among a page's lines, gathered into ``equation`` blocks.

A text layer prints a display equation as glyphs on several baselines: a big
operator's limits above and below it, a fraction's numerator and denominator,
sub- and superscripts, the equation number at the column's right edge.
Backends put these pieces in blocks of their own or glue them to the prose
around them, and the assembly then made paragraphs of scattered fragments.

:func:`gather_equations` finds them in layout terms, without knowing the
document: a *math line* holds no word of running text (two letters or more of
any script in a text font, operator names such as ``lim`` or ``log`` aside)
and at least one math glyph (the Mathematical Alphanumeric Symbols, Greek,
letterlike symbols, operators and arrows, or a letter or digit set in a math
font: ``CMMI``, ``txsy``, ``msbm``, ``STIXMath`` ...). A line with neither a
word nor a math glyph (a limit ``0``, ``lim`` over its limit, a bold ``q``)
may join math lines but never makes an equation. Math lines closer than 0.6
of the body size that overlap horizontally (or sit on one baseline up to three
em apart) are one group; a group of three glyphs or more is a display
equation when no text line of its column shares its rows (a table's row, a
figure's labels), it is no grid of cells, and it is centred in its column or
carries an equation number ``(N)`` / ``(N.M)`` / ``(A1)`` at the column's
right edge on one of its baselines.

Most pages hold no math line, and a quick look at the page's text and fonts
tells (:func:`_may_hold_math`) before any line is read on its own.

Each equation becomes one block with the role ``equation``: its pieces are
re-read as rows (heights overlapping by half, or by a quarter in one type
size: glyphs of one baseline from fonts whose boxes differ), each row's spans
left to right, rows top to bottom, and the number, when it stood apart,
last (an alignment's numbered rows keep theirs). The lines it took leave their
blocks, so the prose before and after stays prose.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, pairwise

from docparse.backends.disjoint import DisjointSets
from docparse.backends.lines import union_boxes
from docparse.backends.pages import Block, Line, PageContent
from docparse.model import BBox

__all__ = ["gather_equations", "is_math_font"]

#: Fonts that set math (TeX's Computer Modern, AMS, Euler, the tx/px/newtx,
#: Libertine, Latin Modern, STIX, XITS and Cambria math fonts, Symbol).
_MATH_FONT = re.compile(
    r"math|cmmi|cmsy|cmex|cmbsy|msam|msbm|eufm|eusm|euex|rsfs|t?x(?:b)?(?:mi|sy|ex)"
    r"|px(?:b)?(?:mi|sy|ex)|zsfmi|zxmi|boondox|stmary|wasy|esint|lm(?:mi|sy|ex)"
    r"|mt(?:mi|sy|ex)|symbol",
    re.IGNORECASE,
)

#: Operator names set upright in math (``\lim``, ``\log`` ...): no running text.
_OPERATOR = re.compile(
    r"lim(?:inf|sup)?|log|ln|lg|exp|(?:arc)?(?:sin|cos|tan)h?|cot|sec|csc|coth|max|min|sup|inf"
    r"|det|arg(?:max|min)?|dim|ker|deg|gcd|lcm|mod|Pr|[Tt]r|diag|sgn|sign|[Vv]ar|[Cc]ov|erf"
    r"|rank|span|const"
)
#: Letters of any script (CJK, Cyrillic ...), Greek and math letters included.
_WORD = re.compile(r"[^\W\d_]{2,}")
#: An equation number: ``(3)``, ``(2.1)``, ``(4a)``, ``(A.2)``.
_NUMBER = r"\(\s*(?:[A-Z]\.?)?\d+(?:\.\d+)*[a-z]?\s*\)"
_NUMBER_LINE = re.compile(_NUMBER)
_NUMBERED = re.compile(rf"^\s*{_NUMBER}\s|\s{_NUMBER}\s*$")
#: A relation between two sides of a formula.
_RELATION = re.compile(
    "[=<>\u2208\u2209\u2192\u21d2\u21d4\u221d\u223c\u2243\u2245\u2248\u2260-\u2265\u226a\u226b\u2282\u2286]"
)
_WEAK = re.compile(r"[\d\s.,;:()\[\]|'′″*-]+")


@lru_cache(maxsize=512)
def is_math_font(name: str) -> bool:
    """Whether the font ``name`` (a subset prefix ``ABCDEF+`` allowed) sets math."""
    return bool(_MATH_FONT.search(name.rpartition("+")[2]))


#: A math glyph: Unicode's math symbols (category Sm; the bullet operator and
#: ASCII's | and ~, common in prose and tables, aside), Greek, letterlike
#: symbols, arrows and the Mathematical Alphanumerics.
_MATH = re.compile(
    "[\u002b\u003c-\u003e\u00ac\u00b1\u00d7\u00f7\u0391-\u03f6\u0606-\u0608\u2044\u2052\u207a-\u207c\u208a-\u208c\u2100-\u214f\u2190-\u2218\u221a-\u22ff\u2320-\u2321\u237c\u239b-\u23b3\u23dc-\u23e1\u25b7\u25c1\u25f8-\u25ff\u266f\u27c0-\u27c4\u27c7-\u27e5\u27f0-\u27ff\u2900-\u2982\u2999-\u29d7\u29dc-\u29fb\u29fe-\u2aff\u2b30-\u2b44\u2b47-\u2b4c\ufb29\ufe62\ufe64-\ufe66\uff0b\uff1c-\uff1e\uff5c\uff5e\uffe2\uffe9-\uffec]|[\U0001d400-\U0001d7ff]"
)
#: Four letters in a row no math font sets: a word of running text, unless an operator name.
_PROSE = re.compile(r"[A-Za-z]{4,}")


def _words(text: str) -> bool:
    """``text`` holds a word: two letters or more, of no math glyph, no operator name."""
    return any(not _OPERATOR.fullmatch(w) and not _MATH.search(w) for w in _WORD.findall(text))


def _running_words(text: str) -> bool:
    """``text`` holds words (:func:`_words`) beyond one or two of three letters at most."""
    words = [w for w in _WORD.findall(text) if not _OPERATOR.fullmatch(w) and not _MATH.search(w)]
    return len(words) > 2 or any(len(w) > 3 for w in words)


def _prose(text: str) -> bool:
    """``text`` holds a run of four Latin letters or more that is no operator name."""
    m = _PROSE.search(text)
    while m is not None:
        if not _OPERATOR.fullmatch(m.group()):
            return True
        m = _PROSE.search(text, m.end())
    return False


def _math_glyphs(line: Line) -> bool:
    """A letter or digit of ``line`` is set in a math font."""
    return any(is_math_font(s.font) and any(c.isalnum() for c in s.text) for s in line.spans)


def _kind(line: Line) -> str:
    """``math``, ``weak`` (joins math, never makes it), ``number``, ``text`` or ``""`` (blank)."""
    text = line.text
    # Most lines are running text: one search tells (no span is looked at).
    if _prose(text):
        return "text"
    text = text.strip()
    if not text:
        return ""
    if _NUMBER_LINE.fullmatch(text):
        return "number"
    if _WEAK.fullmatch(text):
        return "weak"
    math = _MATH.search(text) is not None
    if _words(text) or not math:
        # Letters set in a math font are symbols (``xy`` in CMMI); in a text
        # font, two or more of them are a word of running text.
        # Letters set in a text font smaller than its largest text on the line
        # are sub- or superscript labels (``t_fb``, ``T_eff``, ``M_bh``), and on
        # a line with a relation a word or two of three letters at most are
        # units or joins (``yr``, ``or``): neither is running text. (Without a
        # relation they stay words: ``λ [nm]`` is a figure's axis label,
        # centred like a display; a table's ``km s`` keeps its row prose.)
        spans = [s for s in line.spans if s.text.strip()]
        script = 0.8 * max([s.size for s in spans if not is_math_font(s.font)], default=0.0)
        plain = "".join(
            " " if is_math_font(s.font) or 0 < s.size <= script else s.text for s in spans
        )
        if _running_words(plain) if _RELATION.search(text) else _words(plain):
            return "text"
        if not math:
            math = _math_glyphs(line)
    # No word and no math glyph: an operator name over its limit ("lim"), a
    # bold vector's letter ("q"), figures; these may join math, not make it.
    return "math" if math else "weak"


@dataclass(slots=True)
class _Piece:
    line: Line
    block: int
    kind: str
    group: int = -1


def _body_size(texts: Sequence[Line]) -> float:
    sizes: dict[float, int] = {}
    for ln in texts:
        key = round(ln.size, 1)
        sizes[key] = sizes.get(key, 0) + len(ln.text)
    return max(sizes, key=sizes.__getitem__) if sizes else 0.0


def _groups(math: list[_Piece], body: float) -> list[list[_Piece]]:
    """Math and weak pieces linked when stacked or side by side, closer than a line gap."""
    math.sort(key=lambda p: p.line.bbox.y0)
    sets = DisjointSets(len(math))
    gap = 0.6 * body
    # Each piece's box and size read once (the pairs below read them many times).
    boxes = [
        (b.x0, b.y0, b.x1, b.y1, b.y1 - b.y0, max(p.line.size, 1.0))
        for p in math
        for b in (p.line.bbox,)
    ]
    n = len(boxes)
    for i, (ax0, ay0, ax1, ay1, ah, asz) in enumerate(boxes):
        for j in range(i + 1, n):
            bx0, by0, bx1, by1, bh, bsz = boxes[j]
            if by0 - ay1 > gap:
                break
            reach = asz if asz > bsz else bsz
            if min(ay1, by1) - max(ay0, by0) >= 0.5 * min(ah, bh):
                reach *= 3  # one baseline: parts set a \quad or two apart
            if bx0 - ax1 <= reach and ax0 - bx1 <= reach:
                sets.join(i, j)
    return [g for g in sets.groups(math) if any(p.kind == "math" for p in g)]


def _column(text: Sequence[Line], x: float) -> tuple[float, float] | None:
    """The left and right edge of the column of running text that holds ``x``."""
    lines = [ln.bbox for ln in text if ln.bbox.x0 <= x <= ln.bbox.x1]
    if len(lines) < 2:
        return None
    lefts = sorted(b.x0 for b in lines)
    rights = sorted(b.x1 for b in lines)
    return lefts[len(lefts) // 2], rights[len(rights) // 2]


def _middle(line: Line) -> float:
    return (line.bbox.y0 + line.bbox.y1) / 2


def _rows(lines: Sequence[Line]) -> list[Line]:
    """The pieces as rows, each row's spans left to right.

    Two pieces share a row when their heights overlap by half, or by a
    quarter in the same type size (glyphs of one baseline from fonts whose
    boxes differ in height).
    """
    rows: list[list[Line]] = []
    for ln in sorted(lines, key=_middle):
        b = ln.bbox
        if rows:
            top = min(r.bbox.y0 for r in rows[-1])
            bottom = max(r.bbox.y1 for r in rows[-1])
            shared = min(b.y1, bottom) - max(b.y0, top)
            same = abs(ln.size - rows[-1][0].size) <= 0.5
            if shared >= (0.25 if same else 0.5) * min(b.y1 - b.y0, bottom - top):
                rows[-1].append(ln)
                continue
        rows.append([ln])
    out = []
    for row in rows:
        if len(row) == 1:
            out.append(row[0])
            continue
        spans = sorted((s for ln in row for s in ln.spans), key=lambda s: s.bbox.x0)
        out.append(Line(tuple(spans), union_boxes([ln.bbox for ln in row])))
    return out


def _in_table(line: Line, page: PageContent) -> bool:
    b = line.bbox
    cx, cy = (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2
    return any(t.bbox.x0 <= cx <= t.bbox.x1 and t.bbox.y0 <= cy <= t.bbox.y1 for t in page.tables)


def _tabular(rows: Sequence[Line]) -> bool:
    """A table's cells: a row with three gaps of 1.5 em or more, or two rows with two.

    A gap that a piece of another row reaches into is no gutter between
    cells: the limits of a big operator (or a numerator) over the place of
    a glyph that the text layer left out (TeX's unmapped extension font:
    ``∑``, ``∫``, tall parentheses). A table's gutters are empty in every row.
    """
    wide = 0
    inked: list[list[tuple[float, float]]] | None = None
    for k, row in enumerate(rows):
        spans = sorted((s for s in row.spans if s.text.strip()), key=lambda s: s.bbox.x0)
        em = 1.5 * max(row.size, 1.0)
        gaps = 0
        for a, b in pairwise(spans):
            x0, x1 = a.bbox.x1, b.bbox.x0
            if x1 - x0 <= em:
                continue
            if inked is None:  # each row's inked spans, read once and only for a wide gap
                inked = [[(s.bbox.x0, s.bbox.x1) for s in r.spans if s.text.strip()] for r in rows]
            least = 0.25 * (x1 - x0)
            gaps += not any(
                min(x1, b1) - max(x0, b0) >= least
                for j, boxes in enumerate(inked)
                if j != k
                for b0, b1 in boxes
            )
        if gaps >= 3:
            return True  # a header row of ranges ("5-14 15-24 ... ≥65")
        text = row.text
        chars = len(text) - text.count(" ")
        if text.count(" ") >= 3 and row.bbox.width > 4 * chars * max(row.size, 1.0):
            return True  # the same read as one run: words spread over the width
        wide += gaps >= 2
    return wide >= 2


def _may_hold_math(blocks: Sequence[Block]) -> bool:
    """Whether a line of the blocks without a role may be a math line.

    A math line holds a math glyph or a letter or digit in a math font, and no
    run of prose letters (:func:`_kind`). Most pages have no such line: one
    search of the page's text and one look at its fonts tell, and only the
    lines that pass either are read on their own. ``False`` is certain;
    ``True`` leaves it to the full reading.
    """
    free = [b for b in blocks if b.role is None]
    texts = [ln.text for b in free for ln in b.lines]
    joined = "\n".join(texts)
    if _MATH.search(joined) is not None:
        ends = list(accumulate(len(t) + 1 for t in texts))
        seen = -1
        for m in _MATH.finditer(joined):
            k = bisect_right(ends, m.start())
            if k != seen and not _prose(texts[k]):
                return True
            seen = k
    fonts = {s.font for b in free for ln in b.lines for s in ln.spans}
    if any(is_math_font(f) for f in fonts):
        return any(_math_glyphs(ln) and not _prose(ln.text) for b in free for ln in b.lines)
    return False


def _sort_lines(
    blocks: Sequence[Block],
) -> tuple[list[Line], list[_Piece], list[_Piece], list[Line]]:
    """The lines of the blocks without a role: text, math, weak and number lines."""
    text: list[Line] = []
    math: list[_Piece] = []
    weak: list[_Piece] = []
    numbers: list[Line] = []
    for k, b in enumerate(blocks):
        if b.role is not None:
            continue
        for ln in b.lines:
            kind = _kind(ln)
            if kind == "text":
                text.append(ln)
            elif kind == "math":
                math.append(_Piece(ln, k, kind))
            elif kind == "weak":
                weak.append(_Piece(ln, k, kind))
            elif kind == "number":
                numbers.append(ln)
    return text, math, weak, numbers


def _inner_words(line: Line, box: BBox, body: float) -> bool:
    """``line`` is one or two short words lying within ``box`` (an em of slack at its right)."""
    text = line.text.strip()
    b = line.bbox
    em = max(body, 1.0)
    return (
        0 < len(text) <= 16
        and len(text.split()) <= 2
        and b.x0 >= box.x0
        and b.x1 <= box.x1 + em
        and b.y0 >= box.y0 - 0.2 * em
        and b.y1 <= box.y1 + 0.2 * em
    )


def gather_equations(page: PageContent) -> tuple[Block, ...]:
    """``page.blocks`` with each display equation gathered into one ``equation`` block.

    Blocks a backend already gave a role keep it and are not searched; a page
    whose backend marks equations itself is returned as it is.
    """
    blocks = page.blocks
    if any(b.role == "equation" for b in blocks) or not _may_hold_math(blocks):
        return blocks
    text, math, weak, numbers = _sort_lines(blocks)
    if not text or not math:
        return blocks
    body = _body_size(text)
    # Weak lines join math lines, so only those near one can matter (a page of
    # figures may hold hundreds); lines of a detected table are the table's.
    reach = 3 * max(body, 1.0)
    spans = sorted((p.line.bbox.y0 - reach, p.line.bbox.y1 + reach) for p in math)
    near = [
        p for p in weak if any(lo <= p.line.bbox.y1 and p.line.bbox.y0 <= hi for lo, hi in spans)
    ]
    candidates = [p for p in math + near if not _in_table(p.line, page)]
    taken: set[int] = set()
    found: list[tuple[int, Block]] = []
    for group in _groups(candidates, body):
        if sum(len(p.line.text) - p.line.text.count(" ") for p in group) < 3:
            continue  # a lone symbol: a figure's label more often than a display
        box = union_boxes([p.line.bbox for p in group])
        col = _column(text, (box.x0 + box.x1) / 2)
        if col is None or box.width > col[1] - col[0] + 2:
            continue
        # A word or two of text inside the formula's box is its own (``cases``'
        # ``otherwise``, ``for all``), not a table's label beside it.
        sharing = [
            t
            for t in text
            if min(col[1], t.bbox.x1) - max(col[0], t.bbox.x0) > 1
            and min(box.y1, t.bbox.y1) - max(box.y0, t.bbox.y0) > 1
        ]
        inner = [t for t in sharing if id(t) not in taken and _inner_words(t, box, body)]
        if len(inner) < len(sharing):
            continue  # text shares its rows in the column: a table, a figure's labels
        width = col[1] - col[0]
        pieces = [p.line for p in group] + inner
        rows = _rows(pieces)
        if _tabular(rows):
            continue
        tags = [
            n
            for n in numbers
            if id(n) not in taken
            and box.y0 <= (n.bbox.y0 + n.bbox.y1) / 2 <= box.y1
            and n.bbox.x0 > box.x1
            and n.bbox.x1 >= col[1] - 0.05 * width
        ]
        centred = abs((box.x0 + box.x1) / 2 - (col[0] + col[1]) / 2) <= 0.08 * width
        numbered = bool(tags) or any(_NUMBERED.search(p.line.text) for p in group)
        if not (centred or numbered):
            continue
        # One number ends the equation; numbered rows (``align``) keep theirs.
        lines = rows + tags if len(tags) <= 1 else _rows(pieces + tags)
        taken.update(id(ln) for ln in pieces)
        taken.update(id(n) for n in tags)
        first = min(p.block for p in group)
        found.append(
            (first, Block(tuple(lines), union_boxes([ln.bbox for ln in lines]), "equation"))
        )
    if not found:
        return blocks
    out: list[Block] = []
    for k, b in enumerate(blocks):
        out.extend(eq for first, eq in found if first == k)
        kept = tuple(ln for ln in b.lines if id(ln) not in taken)
        if len(kept) == len(b.lines):
            out.append(b)
        elif kept:
            out.append(Block(kept, union_boxes([ln.bbox for ln in kept]), b.role))
    return tuple(out)

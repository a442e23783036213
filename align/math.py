"""Math as a PDF text layer shows it: LaTeX rendered to glyphs, compared without spaces.

A PDF prints ``\\sum_{i=0}^{\\infty} x_i`` as the glyphs ``∞ ∑ x i i=0``: the
limits of a big operator above and below it, sub- and superscripts as small
glyphs on their own baseline, a fraction's numerator and denominator on the
lines above and below the main line. The text layer keeps the glyphs and
loses the layout, and parsers emit the lines of one display in an order of
their own. Evidence and twin units keep the LaTeX source.

:func:`render_math` turns LaTeX math into the glyph sequence the PDF prints
(commands to Unicode symbols; font switches, ``\\left``/``\\right``, spacing
and labels dropped; scripts flattened in reading order; a fraction as its
numerator then its denominator; the cells of ``align``/``array``/``cases``
in order). :func:`glyphs` folds any text (rendered math or a parsed unit) to
the comparable whitespace-free symbol sequence, and :class:`GlyphIndex`
finds such a sequence in a parsed document with a reorder-tolerant aligner
(:func:`tile`): repeated LCS passes of rapidfuzz's Indel alignment, each
over what the previous passes left, so blocks a parser moved (the limits of
a sum, a numerator line) are still matched.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import Indel

from align.match import vote_clusters
from align.normalize import math_to_text, normalize

__all__ = [
    "MATH_SPAN",
    "GlyphHit",
    "GlyphIndex",
    "glyph_map",
    "glyphs",
    "has_math",
    "math_share",
    "render_math",
    "render_text",
    "tile",
]

# Commands whose argument is kept and the command dropped (regex alternatives):
# font and style switches, accents (the PDF prints the accent as a separate
# glyph, or none), braces that only group.
_KEEP_ARG = (
    "mathrm|mathbf|mathit|mathcal|mathbb|mathsf|mathtt|mathfrak|mathscr|mathnormal|"
    "boldsymbol|bm|pmb|text|textrm|textbf|textit|textsf|texttt|textnormal|mbox|hbox|"
    "operatorname|mathop|mathord|mathrel|mathbin|mathpunct|hat|widehat|bar|overline|"
    "underline|vec|tilde|widetilde|dot|ddot|dddot|check|breve|acute|grave|mathring|"
    "underbrace|overbrace|overrightarrow|overleftarrow|displaystyle|textstyle|"
    "scriptstyle|scriptscriptstyle"
)
# Switches without an argument (old-style fonts, spacing, numbering).
_DROP = (
    "rm|bf|it|cal|sf|tt|mit|em|limits|nolimits|nonumber|notag|displaystyle|textstyle|"
    "scriptstyle|scriptscriptstyle|quad|qquad|enspace|thinspace|medspace|thickspace|"
    "negthinspace|allowbreak|nobreak|relax|protect|strut|mathstrut"
)
_DROP_WITH_ARG = "label|tag|hspace|vspace|mspace|kern|mkern|hskip|phantom|hphantom|vphantom"

# Sized delimiters go with their delimiter: a PDF draws them from extensible
# pieces that its text layer leaves out or maps to U+FFFD.
_RE_SIZED = re.compile(
    r"\\(?:left|right|middle|[bB]ig{1,2}[lrm]?)(?![A-Za-z])\s*"
    r"(?:\\[A-Za-z]+|\\[{}|]|[()\[\]|./<>])?"
)
_RE_DROP_WITH_ARG = re.compile(r"\\(?:" + _DROP_WITH_ARG + r")\*?\s*\{[^{}]*\}")
_RE_KERN = re.compile(r"\\m?kern\s*-?[\d.]+\s*[a-z]{2}")
_RE_KEEP_ARG = re.compile(r"\\(?:" + _KEEP_ARG + r")(?![A-Za-z])\s*")
_RE_DROP = re.compile(r"\\(?:" + _DROP + r")(?![A-Za-z])\s*\.?")
_RE_SPACING = re.compile(r"\\[,;:! >]|~")
_RE_FRAC = re.compile(r"\\[dtc]?frac(?![A-Za-z])|\\over(?![A-Za-z])|\\atop(?![A-Za-z])")
_RE_BINOM = re.compile(r"\\[dt]?binom(?![A-Za-z])")
_RE_SQRT = re.compile(r"\\sqrt\s*(?:\[([^\]]*)\])?")
_RE_BEGIN = re.compile(r"\\begin\s*\{([A-Za-z*]+)\}(?:\s*\{[^{}]*\})?")
_RE_END = re.compile(r"\\end\s*\{[A-Za-z*]+\}")
_RE_INTERTEXT = re.compile(r"\\(?:intertext|shortintertext)(?![A-Za-z])")
_RE_ROWSEP = re.compile(r"\\\\(?:\[[^\]]*\])?|\\cr(?![A-Za-z])|&")
_RE_DISPLAY = re.compile(r"^\s*(?:\\\[|\$\$|\\\()|(?:\\\]|\$\$|\\\))\s*$")
_RE_LEFTOVER = re.compile(r"\\[A-Za-z]+|[_^{}$\\]")

#: LaTeX math in text: $...$, $$...$$, \[...\], \(...\) and math environments.
MATH_SPAN = re.compile(
    r"\$\$(?P<dd>.+?)\$\$|\$(?P<d>[^$]+?)\$|\\\[(?P<b>.+?)\\\]|\\\((?P<p>.+?)\\\)"
    r"|\\begin\{(?P<env>equation|align|alignat|gather|multline|flalign|eqnarray|displaymath|math)"
    r"(?P<star>\*?)\}(?P<e>.+?)\\end\{(?P=env)(?P=star)\}",
    re.DOTALL,
)
# A dollar pair is math only when it holds TeX syntax, one short symbol or a
# formula of short symbols ("$i=1$"); "$5 and $6" is two amounts.
_TEXISH = re.compile(
    r"[\\^_{}]|^\s*[A-Za-z][A-Za-z0-9]{0,2}\s*$"
    r"|^\s*[A-Za-z(][A-Za-z0-9().]{0,3}(?:\s*[-=<>+*/,]\s*[A-Za-z0-9().]{1,4})+\s*$"
)


def has_math(text: str) -> bool:
    """Whether ``text`` holds LaTeX math (a dollar pair that looks like TeX, ``\\[``, ...)."""
    if "$" not in text and "\\" not in text:
        return False
    for m in MATH_SPAN.finditer(text):
        body = m.group("d")
        if body is None or _TEXISH.search(body):
            return True
    return False


@lru_cache(maxsize=4096)
def render_math(tex: str) -> str:
    """The glyphs a PDF prints for the LaTeX math ``tex``, in reading order.

    ``tex`` is a formula with or without its delimiters (``$..$``, ``\\[..\\]``,
    an ``equation``/``align`` environment). Sub- and superscripts follow
    their base, a fraction is its numerator then its denominator, matrix and
    ``cases`` cells come row by row; equation labels and tags are dropped.
    A base's superscript comes before its subscript, as TeX draws them
    (:func:`_sup_first`).
    Tokens are separated by spaces, which :func:`glyphs` removes.

    >>> render_math(r"\\sum_{i=0}^{\\infty} \\frac{\\alpha_i}{2} \\label{e1}")
    '∑∞ i=0 α i 2'
    """
    s = _RE_DISPLAY.sub(" ", tex.strip())
    s = _RE_DROP_WITH_ARG.sub(" ", s)
    s = _RE_SIZED.sub(" ", s)
    s = _RE_KERN.sub(" ", s)
    s = _RE_INTERTEXT.sub(" ", s)
    s = _RE_BEGIN.sub(" ", s)
    s = _RE_END.sub(" ", s)
    s = _RE_ROWSEP.sub(" ", s)
    s = _RE_FRAC.sub(" ", s)
    s = _RE_BINOM.sub(" ", s)
    s = _RE_SQRT.sub(lambda m: f" √ {m.group(1) or ''} ", s)
    s = _RE_SPACING.sub(" ", s)
    s = _RE_KEEP_ARG.sub(" ", s)
    s = _RE_DROP.sub(" ", s)
    s = _RE_SYMBOL.sub(lambda m: f" {_SYMBOLS[m.group(1) or m.group(2)]} ", s)
    if "_" in s and "^" in s:
        s = _sup_first(s)
    # Scripts and groups: the glyphs stay, in source order, each group a token.
    s = re.sub(r"[_^]", " ", s)
    s = s.replace("{", " ").replace("}", " ")
    text = math_to_text(f"${s}$") if "\\" in s else s
    text = _RE_LEFTOVER.sub(" ", text.strip("$"))
    return " ".join(text.translate(_BRACES).split())


# Symbols the LaTeX renderer (pylatexenc) leaves out, as TeX's fonts print
# them; literal braces stand in private-use characters until groups are gone.
_SYMBOLS = {
    "ne": "\u2260",
    "neg": "\u00ac",
    "lnot": "\u00ac",
    "land": "\u2227",
    "lor": "\u2228",
    "bot": "\u22a5",
    "models": "\u22a8",
    "gets": "\u2190",
    "colon": ":",
    "Re": "\u211c",
    "Im": "\u2111",
    "triangle": "\u25b3",
    "imath": "\u0131",
    "jmath": "\u0237",
    "|": "\u2016",
    "{": "\ue000",
    "lbrace": "\ue000",
    "}": "\ue001",
    "rbrace": "\ue001",
}
_RE_SYMBOL = re.compile(
    r"\\(ne|neg|lnot|land|lor|bot|models|gets|colon|Re|Im|triangle|imath|jmath|lbrace|rbrace)"
    r"(?![A-Za-z])|\\([|{}])"
)
_BRACES = str.maketrans({"\ue000": "{", "\ue001": "}"})


def _script_arg(s: str, i: int) -> int:
    """The end of the script argument of ``s`` that starts at ``i`` (spaces skipped)."""
    n = len(s)
    while i < n and s[i] == " ":
        i += 1
    if i >= n:
        return i
    if s[i] == "{":
        depth = 0
        for j in range(i, n):
            if s[j] == "{":
                depth += 1
            elif s[j] == "}":
                depth -= 1
                if depth == 0:
                    return j + 1
        return n
    if s[i] == "\\":
        j = i + 1
        while j < n and s[j].isalpha():
            j += 1
        return max(j, i + 2)
    return i + 1


def _sup_first(s: str) -> str:
    """``s`` with each ``_{a}^{b}`` written ``^{b}_{a}``.

    TeX sets a base's superscript and subscript as one box, the superscript
    first, and text layers keep that order: ``x_i^2`` prints ``x 2 i``, and a
    big operator's limits, ``\\sum_{i=1}^{n}``, print the upper one first.
    """
    out: list[str] = []
    i = 0
    n = len(s)
    while i < n:
        ch = s[i]
        if ch not in "_^" or (i and s[i - 1] == "\\"):
            out.append(ch)
            i += 1
            continue
        end = _script_arg(s, i + 1)
        j = end
        while j < n and s[j] == " ":
            j += 1
        if ch == "_" and j < n and s[j] == "^":
            end2 = _script_arg(s, j + 1)
            sub = _sup_first(s[i + 1 : end])
            sup = _sup_first(s[j + 1 : end2])
            out.append(f"^{sup}_{sub}")
            i = end2
            continue
        out.append(ch + _sup_first(s[i + 1 : end]))
        i = end
    return "".join(out)


def math_share(text: str) -> float:
    """Share of the glyphs of ``text`` that come from its LaTeX math."""
    total = len(glyphs(text))
    if not total:
        return 0.0
    prose = MATH_SPAN.sub(" ", text)
    return max(0.0, 1.0 - len(glyphs(prose, rendered=True)) / total)


def render_text(text: str) -> str:
    """``text`` with every LaTeX math span replaced by :func:`render_math` of it."""
    if "$" not in text and "\\" not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        body = m.group("d")
        if body is not None and not _TEXISH.search(body):
            return m.group()
        return f" {render_math(m.group())} "

    return MATH_SPAN.sub(sub, text)


# Marks a text layer prints apart from their base or not at all: combining
# accents, spacing accents (ˆ ¯ ˜ ˙ ¨ ˇ ´ `), variation selectors (∑︁).
_SPACING_ACCENTS = frozenset("\u02c6\u02c7\u02d8\u02d9\u02da\u02dc\u00af\u00a8\u00b4\u0060\u02dd")
# Big operators that TeX's extension font draws; PDFs without a Unicode map for
# that font print U+FFFD for them, which then stands for any of them.
_BIG_OPS = frozenset("∑∏∐∫∬∭∮⋃⋂⋁⋀⨁⨂⨀⨄√")
_UNMAPPED = "\ufffd"


# Overlays that negate a relation (≠ is = with U+0338 after NFKC) are kept.
_NEGATION = frozenset("\u0338\u20d2")


def _droppable(ch: str) -> bool:
    if ch in _SPACING_ACCENTS or ch.isspace():
        return True
    if ch in _NEGATION:
        return False
    cat = unicodedata.category(ch)
    # Mn/Me: combining marks (variation selectors too); Cf: format characters;
    # Co: private-use pieces of big braces and brackets.
    return cat in ("Mn", "Me", "Cf", "Cc", "Co")


# Glyphs a text layer spells out where Unicode has one character.
# Glyphs fonts name apart from the letter Unicode means: TeX's text fonts map
# \\Delta to INCREMENT, its symbol font \\ast to ASTERISK OPERATOR.
_SPELLED = {
    "\u22ef": "\u00b7\u00b7\u00b7",
    "\u2026": "...",
    "\u22c5": "\u00b7",
    "\u2206": "\u03b4",
    "\u2217": "*",
}


def glyphs(text: str, *, rendered: bool = False) -> str:
    """The whitespace-free, case-folded glyph sequence of ``text``.

    LaTeX math in ``text`` is rendered first (``rendered=True`` says it
    already was). Both sides of a math comparison go through this: math
    italic letters (``𝑥``) become ASCII by NFKC, dashes and minus signs
    ``-`` (:func:`align.normalize.normalize_text`), accents and spaces go.
    """
    if not rendered:
        text = render_text(text)
    return glyph_map(text)[0]


def glyph_map(text: str) -> tuple[str, list[int]]:
    """:func:`glyphs` of ``text`` (math already rendered) and, per glyph, its offset in ``text``."""
    kept: list[int] | None = None
    if "\u0338" in text or "\u20d2" in text:
        # A negation slash a text layer sets apart (``a ̸= b``): normalising
        # would drop it with the space before it, so the spaces around it go.
        gaps = [i for m in _RE_LOOSE_NEGATION.finditer(text) for i in range(*m.span())]
        if gaps:
            dropped = set(gaps)
            kept = [i for i in range(len(text)) if i not in dropped]
            text = "".join(text[i] for i in kept)
    norm = normalize(text, fold_case=True)
    out: list[str] = []
    starts: list[int] = []
    for i, ch in enumerate(norm.text):
        if _droppable(ch):
            continue
        spelled = _SPELLED.get(ch, ch)
        if out and out[-1] in _NEGATION and unicodedata.category(ch) == "Sm":
            # The slash of ≠ drawn before its =: a text layer may print it
            # first; composed as NFKC composes "=" and the slash after it.
            negated = unicodedata.normalize("NFC", ch + out[-1])
            if len(negated) == 1:
                out[-1] = negated
                continue
        out.append(spelled)
        starts.extend([norm.starts[i]] * len(spelled))
    if kept is not None:
        starts = [kept[k] for k in starts]
    return "".join(out), starts


_RE_LOOSE_NEGATION = re.compile(r"\s+(?=[\u0338\u20d2])|(?<=[\u0338\u20d2])\s+")


def tile(ev: str, window: str, *, pad: int = 4) -> list[tuple[int, int, int, int]]:
    """Blocks ``(ev_start, ev_end, win_start, win_end)`` of ``ev`` found in ``window``.

    Reorder-tolerant: each pass aligns what earlier passes left unmatched
    (rapidfuzz Indel/LCS opcodes on both strings, matched characters masked
    by characters that never compare equal), so a block found out of order
    is picked up by a later pass. Passes keep equal runs of three glyphs or
    more first, then of two, then single glyphs (a ``∑`` or ``∞`` the parser
    moved is one glyph); single glyphs only within ``pad`` glyphs of the
    span the longer runs cover, since further out they are chance. A last
    pass lets a big operator match U+FFFD, which PDFs print for glyphs of
    TeX's extension font that have no Unicode mapping.
    """
    if not ev or not window:
        return []
    e = list(ev)
    w = list(window)
    found = 0
    out: list[tuple[int, int, int, int]] = []
    last = 0
    for min_block in (3, 3, 3, 3, 2, 2, 1, 1, 1, 0):
        if min_block == last and not found:
            continue  # the previous pass at this length found nothing more
        if min_block <= 1 and last > 1:
            if not out:
                return []  # no run of two glyphs or more: nothing but chance
            lo = max(0, min(b[2] for b in out) - pad)
            hi = max(b[3] for b in out) + pad
            w = ["\x01"] * lo + w[lo:hi] + ["\x01"] * max(0, len(w) - hi)
        if min_block == 0:
            if _UNMAPPED not in w:
                break
            e = [_UNMAPPED if c in _BIG_OPS else c for c in e]
        last = min_block
        found = 0
        for o in Indel.opcodes("".join(e), "".join(w)):
            if o.tag != "equal" or o.src_end - o.src_start < max(1, min_block):
                continue
            out.append((o.src_start, o.src_end, o.dest_start, o.dest_end))
            for i in range(o.src_start, o.src_end):
                e[i] = "\x00"
            for i in range(o.dest_start, o.dest_end):
                w[i] = "\x01"
            found += o.src_end - o.src_start
    return sorted(out)


@dataclass(frozen=True, slots=True)
class GlyphHit:
    """Where a glyph sequence was found: matched evidence glyphs and the items holding them.

    ``items`` maps an item index to the ``(start, end)`` span of its glyph
    string that the match touches; ``chars`` to the evidence glyphs it holds.
    """

    matched: int
    length: int
    items: dict[int, tuple[int, int]]
    chars: dict[int, int]

    @property
    def coverage(self) -> float:
        return self.matched / self.length if self.length else 0.0


_Q = 3  # glyph q-grams that seed candidate windows
# Below this coverage glyph pairs seed more windows (see GlyphIndex.find).
_RESEED_BELOW = 0.9
_MAX_POSTING = 64


class GlyphIndex:
    """The glyph sequences of a document's items laid end to end, with a q-gram index.

    Built lazily by :class:`align.locate.Locator` the first time evidence
    holding math is located. ``texts`` are the items' texts in order.
    """

    def __init__(self, texts: Sequence[str]) -> None:
        parts: list[str] = []
        # Per item, the offset in its text of each glyph (None when LaTeX was rendered).
        self.offsets: list[list[int] | None] = []
        for t in texts:
            rendered = render_text(t)
            g, offsets = glyph_map(rendered)
            parts.append(g)
            self.offsets.append(offsets if rendered == t else None)
        self.starts: list[int] = []
        pos = 0
        for p in parts:
            self.starts.append(pos)
            pos += len(p)
        self.lengths = [len(p) for p in parts]
        self.concat = "".join(parts)
        grams: dict[str, list[int]] = {}
        c = self.concat
        for i in range(len(c) - _Q + 1):
            grams.setdefault(c[i : i + _Q], []).append(i)
        self.grams = grams
        self._pair_index: dict[str, list[int]] | None = None

    def item_at(self, pos: int) -> int:
        return max(0, bisect.bisect_right(self.starts, pos) - 1)

    def original_span(self, item: int, start: int, end: int, text: str) -> tuple[int, int]:
        """The span of the item's ``text`` behind its glyphs ``start:end``."""
        offsets = self.offsets[item]
        if not offsets or end <= start:
            return (0, len(text))
        last = offsets[min(end, len(offsets)) - 1]
        return (offsets[start], last + 1)

    def _pairs(self) -> dict[str, list[int]]:
        """The concatenation's glyph pairs and where each starts (built on first use)."""
        if self._pair_index is None:
            pairs: dict[str, list[int]] = {}
            c = self.concat
            for i in range(len(c) - 1):
                pairs.setdefault(c[i : i + 2], []).append(i)
            self._pair_index = pairs
        return self._pair_index

    def _windows(self, ev: str, q: int = _Q) -> list[tuple[int, int]]:
        """Candidate windows of the concatenation, best first (q-gram votes by offset)."""
        votes: list[tuple[int, int]] = []
        grams = self.grams if q == _Q else self._pairs()
        for j in range(len(ev) - q + 1):
            post = grams.get(ev[j : j + q])
            if post is not None and len(post) <= _MAX_POSTING:
                votes.extend((p - j, j) for p in post)
        if not votes:
            return []
        votes.sort()
        n = len(ev)
        clusters = vote_clusters(votes, max(8, n // 2))
        clusters.sort(key=lambda c: -c[2])
        slack = max(12, n // 2)
        out = []
        for lo, hi, _ in clusters[:4]:
            start = max(0, lo - slack)
            end = min(len(self.concat), hi + n + slack)
            out.append((start, min(end, start + 3 * n + 2 * slack)))
        return out

    def find(self, text: str, *, rendered: bool = False) -> GlyphHit | None:
        """Best placement of ``text``'s glyph sequence, or None when nothing seeds a window."""
        ev = glyphs(text, rendered=rendered)
        if not ev:
            return None
        windows = self._windows(ev)
        best = self._best(ev, windows)
        if best is None or best.coverage < _RESEED_BELOW:
            # A short formula whose scripts or matrix cells the text layer
            # reordered may share no three glyphs in a row with its print
            # (``ψ≤ztx`` printed ``zψ≤tx``): glyph pairs seed it then.
            more = [w for w in self._windows(ev, 2) if w not in windows]
            again = self._best(ev, more)
            if again is not None and (best is None or again.matched > best.matched):
                best = again
        return best

    def _best(self, ev: str, windows: list[tuple[int, int]]) -> GlyphHit | None:
        best: GlyphHit | None = None
        for start, end in windows:
            blocks = tile(ev, self.concat[start:end])
            if not blocks:
                continue
            hit = self._hit(blocks, start, len(ev))
            if best is None or hit.matched > best.matched:
                best = hit
            if best.matched == len(ev):
                break
        return best

    def _hit(self, blocks: list[tuple[int, int, int, int]], offset: int, n: int) -> GlyphHit:
        mask = bytearray(n)
        items: dict[int, tuple[int, int]] = {}
        chars: dict[int, int] = {}
        for e0, e1, w0, w1 in blocks:
            mask[e0:e1] = b"\x01" * (e1 - e0)
            pos = offset + w0
            end = offset + w1
            while pos < end:
                i = self.item_at(pos)
                s = self.starts[i]
                lo, hi = pos - s, min(end, s + self.lengths[i]) - s
                if hi > lo:
                    span = items.get(i, (lo, hi))
                    items[i] = (min(span[0], lo), max(span[1], hi))
                    chars[i] = chars.get(i, 0) + hi - lo
                pos = s + max(hi, 1) if hi > lo else pos + 1
        return GlyphHit(sum(mask), n, items, chars)

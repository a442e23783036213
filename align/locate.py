"""Find gold evidence in a parsed document or in a list of chunks.

:class:`Locator` indexes one target (a :class:`~docparse.model.Document`'s
content units, or chunks) once; :meth:`Locator.locate` then finds one
evidence string in it:

1. Both sides go through :func:`align.normalize.normalize` with case and
   punctuation folded, and the units are laid end to end (unit boundaries
   kept), so evidence running over two units is found as one string.
2. Exact search, anchored on the evidence's rarest word 3-gram.
3. Otherwise a fuzzy pass: word 3-grams shared with the target vote for
   candidate windows (rarest grams first), and the evidence is aligned to
   the best window with rapidfuzz's Indel (LCS) opcodes. Evidence text the
   first window does not explain (reordered table cells, a paragraph cut by
   a page break and a footnote) is searched again on its own.
4. Table evidence (QASPER ``FLOAT SELECTED: Table 2: caption``, FinQA rows
   such as ``the net revenue of 2016 is $ 5,123 ;``, bare cell values) is
   matched against table and caption units.

``coverage`` is the share of the (normalised) evidence characters found;
a match is ``exact``, ``fuzzy`` (coverage >= ``min_coverage`` in one unit),
``split`` (over several units or chunks), ``partial`` (some text found,
below ``min_coverage``) or ``missing``.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from align.math import GlyphHit, GlyphIndex, has_math, math_share
from align.normalize import Markup, NormalizedText, markup_to_text, normalize
from docparse.model import Document, SourceUnit

__all__ = [
    "ChunkLike",
    "EvidenceKind",
    "Locator",
    "Match",
    "MatchStatus",
    "locate",
]

MatchStatus = Literal["exact", "fuzzy", "split", "partial", "missing"]
EvidenceKind = Literal["text", "table", "figure"]


@runtime_checkable
class ChunkLike(Protocol):
    """What :func:`locate` needs of a chunk: an id and its text.

    ``pages`` (1-based page numbers) is read when present, so matches in
    :class:`docparse.chunking.Chunk` lists carry pages; the match's
    ``unit_ids`` are then chunk ids (a chunk's own ``unit_ids`` say which
    units it covers).
    """

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Match:
    """Where one evidence string was found.

    ``unit_ids`` are unit ids (or chunk ids) in document order; ``spans``
    is parallel to them: the character span ``(start, end)`` of the match
    in that unit's ``text``. ``coverage`` is the share of the normalised
    evidence characters found, ``score`` the similarity (0-1) of the
    evidence and the matched text. ``pages`` are the pages of the matched
    units; ``page`` the one holding most of the matched text.

    Example record: ``{"status": "split", "unit_ids": ["d:00012:ab", "d:00013:cd"],
    "spans": [[310, 402], [0, 57]], "coverage": 0.97, "score": 0.95,
    "pages": [3], "page": 3}``
    """

    status: MatchStatus
    unit_ids: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    coverage: float = 0.0
    score: float = 0.0
    pages: tuple[int, ...] = ()
    page: int | None = None

    @property
    def found(self) -> bool:
        """True for ``exact``, ``fuzzy`` and ``split`` (coverage reached the threshold)."""
        return self.status in ("exact", "fuzzy", "split")

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "unit_ids": list(self.unit_ids),
            "spans": [list(s) for s in self.spans],
            "coverage": round(self.coverage, 4),
            "score": round(self.score, 4),
            "pages": list(self.pages),
            "page": self.page,
        }


MISSING = Match("missing")


@dataclass(frozen=True, slots=True)
class _Item:
    id: str
    text: str
    kind: str
    pages: tuple[int, ...]
    related: tuple[str, ...] = ()
    caption: str = ""


@dataclass(slots=True)
class _Hit:
    """One aligned block: evidence[ev_start:ev_end] ~ concat[start:end]."""

    ev_start: int
    ev_end: int
    start: int
    end: int


@dataclass(slots=True)
class _Found:
    blocks: list[_Hit] = field(default_factory=list)
    exact: bool = False

    def matched(self) -> int:
        """Evidence characters covered (overlapping blocks counted once)."""
        total = 0
        reach = 0
        for b in sorted(self.blocks, key=lambda b: b.ev_start):
            lo = max(b.ev_start, reach)
            if b.ev_end > lo:
                total += b.ev_end - lo
            reach = max(reach, b.ev_end)
        return total


# Words that say nothing about where a FinQA-style row sits.
_ROW_STOP = frozenset(
    ("the", "of", "is", "in", "and", "a", "an", "to", "for", "on", "at", "by", "as", "from")
)
_FLOAT_SELECTED = re.compile(r"^\s*FLOAT SELECTED:\s*", re.IGNORECASE)
_TABLE_LABEL = re.compile(
    r"^\s*(table|tab\.?|figure|fig\.?)\s*([0-9ivxlc]+[a-z]?)\b", re.IGNORECASE
)
_FINQA_ROW = re.compile(r"\bis\s+[-$(]?\s*[-$]?\s*[\d.,]+\s*%?\s*\)?\s*;")
_ELISION = re.compile(
    r"\s*[\[(](?:\.\s?){3}[\])]\s*|\s*[\[(]\u2026[\])]\s*|\s+(?:\.\.\.|\u2026)\s+"
)

# S2ORC/QASPER placeholders for what the PDF prints as a citation, a reference,
# a formula: "proposed in BIBREF21, BIBREF22" is "[21, 22]" or "(Smith, 2019)".
_PLACEHOLDER = re.compile(
    r"\b(?:BIBREF|TABREF|FIGREF|EQREF|SECREF|INLINEFORM|DISPLAYFORM|FOOTREF)\d*\b"
)

_MIN_BLOCK = 4  # shorter equal blocks of an LCS are mostly chance matches
_MAX_DF = 64  # grams seen more often than this do not point anywhere
_MAX_GRAMS = 48


def _norm(text: str) -> NormalizedText:
    return normalize(text, fold_case=True, fold_punct=True, math=True)


def _items_of(target: Document | Sequence[Any]) -> list[_Item]:
    if isinstance(target, Document):
        out = []
        for u in target.units:
            if u.kind == "furniture":
                continue
            out.append(_unit_item(u))
        return out
    items = []
    for c in target:
        pages = getattr(c, "pages", None) or ()
        items.append(
            _Item(
                id=str(c.id),
                text=str(c.text),
                kind=str(getattr(c, "kind", "chunk")),
                pages=tuple(int(p) for p in pages),
            )
        )
    return items


def _unit_item(u: SourceUnit) -> _Item:
    caption = u.table.caption or "" if u.table is not None else ""
    return _Item(u.id, u.text, u.kind, u.pages, u.related, caption)


class Locator:
    """Evidence search over one target, indexed once.

    ``target`` is a :class:`~docparse.model.Document` (its content units;
    furniture is skipped) or a sequence of chunk-like objects (see
    :class:`ChunkLike`). Building the index costs about one pass over the
    text; each :meth:`locate` call then touches only the candidate windows.
    """

    def __init__(self, target: Document | Sequence[Any]) -> None:
        self.items = _items_of(target)
        self._norms: list[NormalizedText] = [_norm(it.text) for it in self.items]
        parts: list[str] = []
        starts: list[int] = []
        pos = 0
        for n in self._norms:
            starts.append(pos)
            parts.append(n.text)
            pos += len(n.text) + 1
        # Items are joined by one space: evidence running from one unit into the
        # next is then one contiguous string.
        self.concat = " ".join(parts)
        self._item_starts = starts
        self.word_starts: list[int] = []
        self.word_ends: list[int] = []
        words: list[str] = []
        for m in re.finditer(r"\S+", self.concat):
            self.word_starts.append(m.start())
            self.word_ends.append(m.end())
            words.append(m.group())
        self.words = words
        self.grams: dict[str, list[int]] = {}
        for i in range(len(words) - 2):
            self.grams.setdefault(f"{words[i]} {words[i + 1]} {words[i + 2]}", []).append(i)
        self.unigrams: dict[str, list[int]] = {}
        for i, w in enumerate(words):
            self.unigrams.setdefault(w, []).append(i)
        self._dense = [n.text.replace(" ", "") for n in self._norms]
        self._table_items: list[int] | None = None
        self._tokens: list[frozenset[str]] | None = None
        self._grouped: dict[str, list[int]] | None = None
        self._glyph_index: GlyphIndex | None = None

    # -- public -----------------------------------------------------------------

    def locate(
        self,
        evidence: str,
        *,
        markup: Markup | None = None,
        min_coverage: float = 0.9,
        kind: EvidenceKind | None = None,
        page: int | None = None,
        markup_source: str | Path | None = None,
    ) -> Match:
        """Find ``evidence`` in the target.

        ``markup`` (``"latex"`` or ``"html"``) converts the evidence to text
        first (``markup_source``: the ``.tex`` file it comes from, whose
        macros are then expanded). ``kind="table"`` (or evidence that looks like a table
        reference: ``FLOAT SELECTED: Table ...``, a FinQA row) also tries
        table and caption units. ``page`` (1-based) only breaks ties between
        equally good candidates.
        """
        text = markup_to_text(evidence, markup, source=markup_source)
        caption = _FLOAT_SELECTED.match(text)
        if caption:
            return self._locate_caption(text[caption.end() :], min_coverage, page)
        if kind == "table" or _FINQA_ROW.search(text):
            return self._locate_table_text(text, min_coverage, page)
        if has_math(text):
            return self._locate_math(text, min_coverage, page)
        return self._locate_text(text, min_coverage, page)

    # -- math -------------------------------------------------------------------

    def _locate_math(self, text: str, min_coverage: float, page: int | None) -> Match:
        """Evidence holding LaTeX math: as words, else as the glyphs the PDF prints.

        Words lose the math (its symbols fold away, its layout scatters it);
        the glyph comparison (:mod:`align.math`) renders the math and aligns
        whitespace-free symbol sequences, tolerant of reordered lines.
        """
        if self._glyph_index is None:
            self._glyph_index = GlyphIndex([it.text for it in self.items])
        if math_share(text) >= 0.5:
            # Mostly math: its words are a few letters that occur anywhere.
            hit = self._glyph_index.find(text)
            return MISSING if hit is None else self._glyph_match(hit, min_coverage)
        words = self._locate_text(text, min_coverage, page)
        if words.found:
            return words
        hit = self._glyph_index.find(text)
        if hit is None or hit.coverage <= words.coverage:
            return words
        return self._glyph_match(hit, min_coverage)

    def _glyph_match(self, hit: GlyphHit, min_coverage: float) -> Match:
        assert self._glyph_index is not None
        order = sorted(hit.items)
        page_chars: dict[int, int] = {}
        for i in order:
            for p in self.items[i].pages[:1]:
                page_chars[p] = page_chars.get(p, 0) + hit.chars[i]
        status: MatchStatus
        if hit.coverage < min_coverage:
            status = "partial"
        elif len(order) > 1:
            status = "split"
        else:
            status = "exact" if hit.matched == hit.length else "fuzzy"
        span_of = self._glyph_index.original_span
        return Match(
            status,
            tuple(self.items[i].id for i in order),
            tuple(span_of(i, *hit.items[i], self.items[i].text) for i in order),
            hit.coverage,
            hit.coverage,
            tuple(sorted({p for i in order for p in self.items[i].pages})),
            max(page_chars, key=lambda p: (page_chars[p], -p)) if page_chars else None,
        )

    # -- text -------------------------------------------------------------------

    def _locate_text(self, text: str, min_coverage: float, page: int | None) -> Match:
        # Annotators mark left-out text with "[...]" and S2ORC stands placeholders
        # for citations and formulas: the parts between them are found on their
        # own, and what the parse prints in their place is not compared.
        pieces = _ELISION.split(text)
        wildcards = _PLACEHOLDER.search(text) is not None
        if wildcards:
            pieces = [q for p in pieces for q in _PLACEHOLDER.split(p)]
        parts = [p for p in (_norm(t).text for t in pieces) if p]
        if wildcards and len(parts) > 1:
            # A lone word between two placeholders ("BIBREF1 and BIBREF2") belongs
            # to the citation and would only be found by chance.
            parts = [p for p in parts if " " in p] or parts
        ev = " ".join(parts)
        if not ev:
            return MISSING
        found = _Found(exact=True)
        offset = 0
        for part in parts:
            got = self._exact(part, page)
            if got is None:
                got = self._fuzzy(part, page, min_coverage)
            for b in got.blocks:
                b.ev_start += offset
                b.ev_end += offset
            found.blocks.extend(got.blocks)
            found.exact = found.exact and got.exact
            offset += len(part) + 1
        if found.matched() < max(min_coverage, 0.97) * len(ev) and len(ev) >= 150:
            self._mosaic(ev, found, page)
        return self._to_match(found, ev, min_coverage)

    def _exact(self, ev: str, page: int | None) -> _Found | None:
        ev_words = ev.split(" ")
        positions: list[int] = []
        if len(ev_words) >= 3:
            best: list[int] | None = None
            best_j = 0
            for j in range(len(ev_words) - 2):
                post = self.grams.get(f"{ev_words[j]} {ev_words[j + 1]} {ev_words[j + 2]}")
                if post is None:
                    if 0 < j < len(ev_words) - 3:
                        return None  # an inner gram is absent: no exact occurrence
                    continue
                if best is None or len(post) < len(best):
                    best, best_j = post, j
                    if len(post) == 1:
                        break
            if best is None:
                return None
            # The evidence may start or end inside a word, so look a little around.
            offset = len(" ".join(ev_words[:best_j])) + (1 if best_j else 0)
            for p in best[:256]:
                lo = max(0, self.word_starts[p] - offset - 64)
                i = self.concat.find(ev, lo, self.word_starts[p] - offset + len(ev) + 64)
                if i >= 0:
                    positions.append(i)
        else:
            i = self.concat.find(ev)
            while i >= 0 and len(positions) < 256:
                positions.append(i)
                i = self.concat.find(ev, i + 1)
            positions = self._whole_words(positions, len(ev)) or positions
        if not positions:
            return None
        pos = self._prefer(positions, len(ev), page)
        return _Found([_Hit(0, len(ev), pos, pos + len(ev))], exact=True)

    def _whole_words(self, positions: list[int], n: int) -> list[int]:
        c = self.concat
        return [
            p
            for p in positions
            if (p == 0 or c[p - 1] == " ") and (p + n == len(c) or c[p + n] == " ")
        ]

    def _prefer(self, positions: list[int], n: int, page: int | None) -> int:
        """Among occurrences: one inside a single item, then on ``page``, then the first."""

        def rank(p: int) -> tuple[int, int, int]:
            first = self._item_at(p)
            last = self._item_at(p + n - 1)
            on_page = page is not None and page in self.items[first].pages
            return (0 if first == last else 1, 0 if on_page else 1, p)

        return min(positions, key=rank)

    def _item_at(self, pos: int) -> int:
        return max(0, bisect.bisect_right(self._item_starts, pos) - 1)

    # Over the C901 limit on purpose: page filter, rare-gram votes and bounds in one pass.
    def _candidates(self, ev_words: list[str], page: int | None) -> list[tuple[int, int, int]]:  # noqa: C901
        """Candidate windows ``(first word, end word, votes)``, best first."""
        n = len(ev_words)
        grams: list[tuple[int, int, list[int]]] = []
        if n >= 3:
            for j in range(n - 2):
                post = self.grams.get(f"{ev_words[j]} {ev_words[j + 1]} {ev_words[j + 2]}")
                if post is not None and len(post) <= _MAX_DF:
                    grams.append((len(post), j, post))
        if len(grams) < 2:
            # Too garbled (or too short) for 3-grams: fall back to rare words.
            for j, w in enumerate(ev_words):
                post = self.unigrams.get(w)
                if post is not None and len(post) <= _MAX_DF // 4 and len(w) > 2:
                    grams.append((len(post), j, post))
        if not grams:
            return []
        grams.sort(key=lambda g: g[0])
        if len(grams) > _MAX_GRAMS:
            # Keep the rarest, but spread over the evidence so a long passage
            # whose start is lost still has anchors near its end.
            half = _MAX_GRAMS // 2
            rare, rest = grams[:half], grams[half:]
            rest.sort(key=lambda g: g[1])
            grams = rare + [rest[i * len(rest) // half] for i in range(half)]
        votes: list[tuple[int, int]] = []
        for _, j, post in grams:
            votes.extend((p - j, j) for p in post)
        votes.sort()
        tol = max(8, n // 2)
        clusters: list[tuple[int, int, int]] = []
        i = 0
        while i < len(votes):
            k = i
            while k + 1 < len(votes) and votes[k + 1][0] - votes[k][0] <= tol:
                k += 1
            js = {j for _, j in votes[i : k + 1]}
            clusters.append((votes[i][0], votes[k][0], len(js)))
            i = k + 1

        def rank(c: tuple[int, int, int]) -> tuple[int, int]:
            if page is None:
                return (-c[2], 0)
            item = self.items[
                self._item_at(self.word_starts[max(0, min(c[0], len(self.words) - 1))])
            ]
            return (-c[2], 0 if page in item.pages else 1)

        clusters.sort(key=rank)
        slack = max(6, n // 5)
        out = []
        for lo, hi, v in clusters[:4]:
            first = max(0, lo - slack)
            end = min(len(self.words), hi + n + slack)
            # Bound the window: a cluster spread far apart is two candidates.
            if end - first > 3 * n + 2 * slack:
                end = first + 3 * n + 2 * slack
            out.append((first, end, v))
        return out

    def _fuzzy(self, ev: str, page: int | None, min_coverage: float) -> _Found:
        found = _Found()
        todo = [(0, len(ev))]
        searched = 0
        while todo and searched < 8:
            seg_start, seg_end = todo.pop(0)
            seg = ev[seg_start:seg_end]
            cands = self._candidates(seg.split(), page)
            best: list[_Hit] = []
            best_n = 0
            for first, end, _ in cands[:3]:
                searched += 1
                blocks = self._align(seg, first, end)
                n = sum(b.ev_end - b.ev_start for b in blocks)
                if n > best_n:
                    best, best_n = blocks, n
                if best_n >= 0.98 * len(seg):
                    break
            if not best:
                continue
            if seg_end - seg_start < len(ev) and best_n < 0.6 * len(seg):
                # A leftover stretch that aligns this poorly is chance, not evidence.
                continue
            for b in best:
                b.ev_start += seg_start
                b.ev_end += seg_start
            found.blocks.extend(best)
            if found.matched() >= min(0.98, max(min_coverage, 0.5)) * len(ev):
                break
            # Unexplained stretches of the evidence get their own search.
            gaps = _gaps(best, seg_start, seg_end)
            todo.extend(g for g in gaps if g[1] - g[0] >= 40 and ev[g[0] : g[1]].count(" ") >= 3)
            todo.sort(key=lambda g: g[0] - g[1])
        found.blocks.sort(key=lambda b: b.ev_start)
        return found

    # Over the C901 limit on purpose: each branch is one way a piece is found or skipped.
    def _mosaic(self, ev: str, found: _Found, page: int | None) -> None:  # noqa: C901
        """Order-free pass for long evidence: the units that occur inside it.

        A table copied from a PDF viewer runs row by row while a parse may
        give the label column, then the value column, or glue a cell's words
        together; a page of evidence may hold its blocks in another order.
        Every unit found (>= 90 % similar, spaces ignored) inside the evidence
        covers that part of it; the densest run of such units (within about
        twice the evidence's length of document text) is the match, if it
        explains more of the evidence than the ordered alignment did.
        """
        keep, flat = _dense(ev)
        hits: list[tuple[int, int, int]] = []  # (item, ev start, ev end)
        for i in self._mosaic_items(ev, found, page):
            unit = self._dense[i]
            if len(unit) < 6:
                continue
            al = fuzz.partial_ratio_alignment(unit, flat, score_cutoff=90)
            if al is None or al.dest_end <= al.dest_start:
                continue
            # A high partial ratio says where; the characters actually shared say how much.
            d0 = al.dest_start
            for o in Indel.opcodes(flat[d0 : al.dest_end], unit[al.src_start : al.src_end]):
                if o.tag == "equal" and o.src_end - o.src_start >= _MIN_BLOCK:
                    hits.append((i, keep[d0 + o.src_start], keep[d0 + o.src_end - 1] + 1))
        if not hits:
            return
        reach = 2 * len(ev) + 200
        best: tuple[int, int, int, int] | None = None  # (covered, on page, lo, hi)
        # Sliding window over the hits (in document order); the evidence
        # characters it covers are counted incrementally.
        count = [0] * len(ev)
        covered = 0
        lo = 0
        for hi in range(len(hits)):
            for k in range(hits[hi][1], hits[hi][2]):
                covered += count[k] == 0
                count[k] += 1
            while self._item_starts[hits[hi][0]] - self._item_starts[hits[lo][0]] > reach:
                for k in range(hits[lo][1], hits[lo][2]):
                    count[k] -= 1
                    covered -= count[k] == 0
                lo += 1
            on_page = int(page is not None and page in self.items[hits[lo][0]].pages)
            key = (covered, on_page, -lo, hi)
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None
        _, _, neg_lo, hi = best
        chosen = hits[-neg_lo : hi + 1]
        first_item = min(h[0] for h in chosen)
        last_item = max(h[0] for h in chosen)
        start = self._item_starts[first_item]
        end = self._item_starts[last_item] + len(self._norms[last_item].text)
        blocks = [b for b in found.blocks if b.start >= start and b.end <= end]
        for i, e0, e1 in chosen:
            s0 = self._item_starts[i]
            blocks.append(_Hit(e0, e1, s0, s0 + len(self._norms[i].text)))
        # Short units inside the run (a table's lone values: "380", "5 020") are
        # too short to place on their own; inside the run, an occurrence in a
        # stretch of the evidence nothing else explains is theirs.
        taken = bytearray(len(ev))
        for blk in blocks:
            taken[blk.ev_start : blk.ev_end] = b"\x01" * (blk.ev_end - blk.ev_start)
        for i in range(first_item, last_item + 1):
            unit = self._dense[i]
            if not 3 <= len(unit) < 6:
                continue
            pos = flat.find(unit)
            while pos >= 0:
                e0, e1 = keep[pos], keep[pos + len(unit) - 1] + 1
                if not any(taken[e0:e1]):
                    taken[e0:e1] = b"\x01" * (e1 - e0)
                    s0 = self._item_starts[i]
                    blocks.append(_Hit(e0, e1, s0, s0 + len(self._norms[i].text)))
                    break
                pos = flat.find(unit, pos + 1)
        if _Found(blocks).matched() > found.matched():
            found.blocks = blocks

    def _mosaic_items(self, ev: str, found: _Found, page: int | None) -> list[int]:
        """Units worth comparing with long evidence, in document order.

        Near the ordered candidates and blocks, around units sharing a rare
        word with the evidence, and on the page hint: scanning every unit
        would make evidence absent from a long document expensive.
        """
        reach = len(ev)
        ranges: list[tuple[int, int]] = []
        for first, end, _ in self._candidates(ev.split(), page)[:3]:
            ranges.append((self.word_starts[first], self.word_ends[end - 1]))
        ranges.extend((b.start, b.end) for b in found.blocks)
        picked: set[int] = set()
        last = len(self.concat) - 1
        for lo, hi in ranges:
            a = self._item_at(max(0, lo - reach))
            b = self._item_at(min(last, hi + reach))
            picked.update(range(a, b + 1))
        for tok in set(ev.split()):
            post = self.unigrams.get(tok) if len(tok) >= 4 else None
            if post is not None and len(post) <= 8:
                for p in post:
                    i = self._item_at(self.word_starts[p])
                    picked.update(range(max(0, i - 3), min(len(self.items), i + 4)))
        if page is not None:
            picked.update(i for i, it in enumerate(self.items) if page in it.pages)
        return sorted(picked)

    def _align(self, seg: str, first: int, end: int) -> list[_Hit]:
        """LCS blocks of ``seg`` in the window of words ``first:end``.

        Spaces are left out on both sides: PDF table cells often lose the
        spaces between their words (``costofsales``), and a space says nothing
        about whether the evidence's text is there.
        """
        w_start = self.word_starts[first]
        window = self.concat[w_start : self.word_ends[end - 1]]
        seg_keep, seg_dense = _dense(seg)
        win_keep, win_dense = _dense(window)
        ops = Indel.opcodes(seg_dense, win_dense)
        short = len(seg_dense) < 8
        dense = [
            (o.src_start, o.src_end, o.dest_start, o.dest_end)
            for o in ops
            if o.tag == "equal" and (o.src_end - o.src_start >= _MIN_BLOCK or short)
        ]
        if not short:
            dense = _fill_gaps(seg_dense, win_dense, dense)
        return [
            _Hit(
                seg_keep[a],
                seg_keep[b - 1] + 1,
                w_start + win_keep[c],
                w_start + win_keep[d - 1] + 1,
            )
            for a, b, c, d in dense
        ]

    # -- tables -----------------------------------------------------------------

    def _table_idx(self) -> list[int]:
        if self._table_items is None:
            self._table_items = [
                i for i, it in enumerate(self.items) if it.kind in ("table", "caption")
            ]
        return self._table_items

    def _locate_caption(self, caption: str, min_coverage: float, page: int | None) -> Match:
        """``FLOAT SELECTED: Table 2: ...``: the caption (or its table) unit.

        The caption text is searched like any evidence; when the units found
        are not a table or caption, a caption or table unit carrying the same
        label (``Table 2``) is added: PDF backends sometimes keep only the
        label in the caption unit and run its text into a neighbouring
        paragraph.
        """
        ev = _norm(caption).text
        if not ev:
            return MISSING
        general = self._locate_text(caption, min_coverage, page)
        if general.found and self._is_table_match(general):
            return self._with_related(general)
        label = _TABLE_LABEL.match(caption)
        candidates: list[tuple[float, int]] = []
        if label:
            want = _norm(label.group()).text
            for i in self._table_idx():
                it = self.items[i]
                texts = (self._norms[i].text, _norm(it.caption).text if it.caption else "")
                hit = [t for t in texts if t == want or t.startswith(want + " ")]
                if hit:
                    candidates.append((max(_coverage(ev, t) for t in hit), i))
        if not candidates:
            return self._with_related(general) if general.found else general

        def near(c: tuple[float, int]) -> tuple[float, int]:
            pages = self.items[c[1]].pages
            ref = general.page if general.found else page
            return (-c[0], abs(pages[0] - ref) if pages and ref is not None else 0)

        cov, i = min(candidates, key=near)
        it = self.items[i]
        if general.found:
            units = (it.id, *general.unit_ids)
            spans = ((0, len(it.text)), *general.spans)
            pages = tuple(sorted(set(it.pages) | set(general.pages)))
            m = Match(
                "split",
                units,
                spans,
                max(cov, general.coverage),
                general.score,
                pages,
                general.page,
            )
        else:
            status: MatchStatus = "fuzzy" if cov >= min_coverage else "partial"
            first = it.pages[0] if it.pages else None
            m = Match(status, (it.id,), ((0, len(it.text)),), cov, cov, it.pages, first)
        return self._with_related(m)

    def _is_table_match(self, m: Match) -> bool:
        ids = set(m.unit_ids)
        return any(self.items[i].id in ids for i in self._table_idx())

    def _with_related(self, m: Match) -> Match:
        """Add the table of a matched caption (and the caption of a matched table)."""
        by_id = {it.id: it for it in self.items}
        extra = [
            r
            for uid in m.unit_ids
            if uid in by_id
            for r in by_id[uid].related
            if r not in m.unit_ids and r in by_id
        ]
        if not extra:
            return m
        pages = sorted(set(m.pages).union(*(by_id[r].pages for r in extra)))
        return Match(
            m.status,
            m.unit_ids + tuple(extra),
            m.spans + tuple((0, len(by_id[r].text)) for r in extra),
            m.coverage,
            m.score,
            tuple(pages),
            m.page,
        )

    def _tokens_of(self) -> list[frozenset[str]]:
        if self._tokens is None:
            # Numbers also whole and without digit-group commas (FinQA writes 4,761 as 4761).
            self._tokens = [
                frozenset(n.text.split()).union(_numbers(it.text))
                for n, it in zip(self._norms, self.items, strict=True)
            ]
        return self._tokens

    def _grouped_numbers(self) -> dict[str, list[int]]:
        """Items holding each number (whole, without digit-group commas)."""
        if self._grouped is None:
            self._grouped = {}
            for i, it in enumerate(self.items):
                for num in _numbers(it.text):
                    self._grouped.setdefault(num, []).append(i)
        return self._grouped

    def _locate_table_text(self, text: str, min_coverage: float, page: int | None) -> Match:
        """Linearised rows and cell values: the unit(s) holding their words.

        Row templates (``the X of Y is Z ;``) are in no PDF; what is there are
        the row label, the column header and the values, often as separate
        units when a backend does not recognise the table. So the evidence's
        words are compared as a set (values weighted double, column headers
        half, template words not at all) with single units (table units first)
        and with short runs of units around the rarest values; ``coverage`` is
        then the weighted share of those words found.
        """
        general = self._locate_text(text, min_coverage, page)
        if general.found:
            return general
        weights = _row_weights(text)
        if not weights:
            return general
        total = sum(weights.values())
        tokens = self._tokens_of()

        def score(have: set[str] | frozenset[str]) -> float:
            return sum(w for t, w in weights.items() if t in have) / total

        # (coverage, single unit, on page, first item, last item)
        best: tuple[float, int, int, int, int] | None = None
        for pool in (self._table_idx(), range(len(self.items))):
            for i in pool:
                on_page = int(page is not None and page in self.items[i].pages)
                key = (score(tokens[i]), 1, on_page, i, i)
                if best is None or key[:3] > best[:3]:
                    best = key
            if best is not None and best[0] >= min_coverage:
                break
        values = [t for t in weights if t[0].isdigit() and len(t) >= 2]
        anchors: set[int] = set()
        grouped = self._grouped_numbers()
        for t in values:
            post = self.unigrams.get(t)
            if post is not None and len(post) <= 30:
                anchors.update(self._item_at(self.word_starts[p]) for p in post)
            if len(grouped.get(t, ())) <= 30:
                anchors.update(grouped.get(t, ()))
        for a in sorted(anchors):
            lo, hi = max(0, a - 8), min(len(self.items) - 1, a + 8)
            useful = [i for i in range(lo, hi + 1) if any(t in tokens[i] for t in values)]
            if not useful:
                continue
            first, last = useful[0], useful[-1]
            union: set[str] = set().union(*tokens[max(0, first - 3) : last + 1])
            on_page = int(page is not None and page in self.items[a].pages)
            key = (score(union), 0, on_page, max(0, first - 3), last)
            if best is None or key[:3] > best[:3]:
                best = key
        if best is None or best[0] <= general.coverage:
            return general
        cov, _, _, first, last = best
        # Keep the units that hold some of the evidence's words.
        picked = [i for i in range(first, last + 1) if any(t in tokens[i] for t in weights)]
        items = [self.items[i] for i in picked] or [self.items[first]]
        status: MatchStatus = (
            "partial" if cov < min_coverage else "fuzzy" if len(items) == 1 else "split"
        )
        pages = tuple(sorted({p for it in items for p in it.pages}))
        first_page = next((it.pages[0] for it in items if it.pages), None)
        m = Match(
            status,
            tuple(it.id for it in items),
            tuple((0, len(it.text)) for it in items),
            cov,
            cov,
            pages,
            first_page,
        )
        return self._with_related(m)

    # -- result -----------------------------------------------------------------

    def _to_match(self, found: _Found, ev: str, min_coverage: float) -> Match:
        if not found.blocks:
            return MISSING
        matched = min(found.matched(), len(ev))
        # Coverage counts the evidence's non-space characters inside matched blocks.
        mask = bytearray(len(ev))
        for b in found.blocks:
            mask[b.ev_start : b.ev_end] = b"\x01" * (b.ev_end - b.ev_start)
        n_dense = len(ev) - ev.count(" ")
        got = sum(1 for ch, m in zip(ev, mask, strict=True) if m and ch != " ")
        coverage = got / n_dense if n_dense else 0.0
        per_item: dict[int, list[int]] = {}
        chars: dict[int, int] = {}
        for b in found.blocks:
            pos = b.start
            while pos < b.end:
                i = self._item_at(pos)
                item_start = self._item_starts[i]
                item_end = item_start + len(self._norms[i].text)
                lo, hi = pos - item_start, min(b.end, item_end) - item_start
                if hi > lo:
                    span = per_item.setdefault(i, [lo, hi])
                    span[0], span[1] = min(span[0], lo), max(span[1], hi)
                    # Mosaic blocks stand for a whole unit: count evidence characters.
                    chars[i] = chars.get(i, 0) + min(hi - lo, b.ev_end - b.ev_start)
                pos = max(item_end + 1, pos + 1)
        order = sorted(per_item)
        # Drop stray items that hold a sliver of a long match (a shared phrase
        # elsewhere): tiny ones, and small ones on a page that holds little of it.
        if len(order) > 1:
            order = [i for i in order if chars[i] >= min(12, 0.5 * matched)] or order
            on_page: dict[int | None, int] = {}
            for i in order:
                key = self.items[i].pages[0] if self.items[i].pages else None
                on_page[key] = on_page.get(key, 0) + chars[i]
            order = [
                i
                for i in order
                if chars[i] >= 0.05 * matched
                or on_page[self.items[i].pages[0] if self.items[i].pages else None] >= 0.2 * matched
            ] or order
        ids = tuple(self.items[i].id for i in order)
        spans = tuple(self._norms[i].original_span(*per_item[i]) for i in order)
        matched_len = sum(per_item[i][1] - per_item[i][0] for i in order)
        score = 2 * matched / (len(ev) + max(matched_len, matched))
        page_chars: dict[int, int] = {}
        for i in order:
            for p in self.items[i].pages[:1]:
                page_chars[p] = page_chars.get(p, 0) + chars[i]
        pages = tuple(sorted({p for i in order for p in self.items[i].pages}))
        main_page = max(page_chars, key=lambda p: (page_chars[p], -p)) if page_chars else None
        status: MatchStatus
        if coverage < min_coverage:
            status = "partial"
        elif len(order) > 1:
            status = "split"
        elif found.exact:
            status = "exact"
        else:
            status = "fuzzy"
        return Match(status, ids, spans, coverage, min(1.0, score), pages, main_page)


# A number as written (4,761 / 36.6 / 2016), keyed without digit-group commas.
_NUMBER_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> list[str]:
    return [m.rstrip(",").replace(",", "") for m in _NUMBER_TOKEN.findall(text)]


_ROW_HEADER = re.compile(r"\bof\s+(.+?)\s+is\s", re.IGNORECASE)


def _row_weights(text: str) -> dict[str, float]:
    """Weights of the words of table evidence: values x2, headers x0.5, template words 0.

    Headers are FinQA's column header (``of <header> is``) and the table's
    corner cell before the first row (``$ in millions the ...``). Numbers are
    kept whole (``36.6``, ``4761``), as written in the table.
    """
    header_words: set[str] = set()
    corner = re.match(r"^(.*?)\bthe\b", text, re.IGNORECASE)
    for h in [m.group(1) for m in _ROW_HEADER.finditer(text)] + (
        [corner.group(1)] if corner else []
    ):
        header_words.update(_norm(_NUMBER_TOKEN.sub(" ", h)).text.split())
        header_words.update(_numbers(h))
    weights: dict[str, float] = {}
    words = _norm(_NUMBER_TOKEN.sub(" ", text)).text.split()
    for t in [*words, *_numbers(text)]:
        if t in _ROW_STOP or t in weights:
            continue
        if t in header_words:
            weights[t] = 0.5 * len(t)
        elif t[0].isdigit():
            weights[t] = 2.0 * len(t)
        else:
            weights[t] = float(len(t))
    return weights


def _fill_gaps(
    src: str, dest: str, blocks: list[tuple[int, int, int, int]]
) -> list[tuple[int, int, int, int]]:
    """Re-align the stretches between LCS blocks, preferring long common substrings.

    An LCS has many optimal solutions; with interleaved text (two PDF columns
    read line by line) the one returned can shred a phrase into 1-3 character
    pieces that are then dropped as chance matches. Between two kept blocks,
    difflib's longest-block-first matching recovers the phrase.
    """
    from difflib import SequenceMatcher

    out: list[tuple[int, int, int, int]] = []
    prev_s, prev_d = 0, 0
    for blk in [*blocks, (len(src), len(src), len(dest), len(dest))]:
        gs, gd = src[prev_s : blk[0]], dest[prev_d : blk[2]]
        if len(gs) >= _MIN_BLOCK and len(gd) >= _MIN_BLOCK and len(gs) * len(gd) < 4_000_000:
            sm = SequenceMatcher(None, gs, gd, autojunk=False)
            for a, b, size in sm.get_matching_blocks():
                if size >= _MIN_BLOCK:
                    out.append((prev_s + a, prev_s + a + size, prev_d + b, prev_d + b + size))
        if blk[1] > blk[0]:
            out.append(blk)
        prev_s, prev_d = blk[1], blk[3]
    return out


def _dense(text: str) -> tuple[list[int], str]:
    """``text`` without spaces, and the position in ``text`` of each kept character."""
    return [i for i, ch in enumerate(text) if ch != " "], text.replace(" ", "")


def _gaps(blocks: list[_Hit], start: int, end: int) -> list[tuple[int, int]]:
    out = []
    pos = start
    for b in sorted(blocks, key=lambda b: b.ev_start):
        if b.ev_start > pos:
            out.append((pos, b.ev_start))
        pos = max(pos, b.ev_end)
    if end > pos:
        out.append((pos, end))
    return out


def _coverage(ev: str, text: str) -> float:
    """Share of the non-space characters of ``ev`` found in order in ``text`` (LCS blocks)."""
    ev_dense = ev.replace(" ", "")
    if not ev_dense:
        return 0.0
    ops = Indel.opcodes(ev_dense, text.replace(" ", ""))
    short = len(ev_dense) < 8
    got = sum(
        o.src_end - o.src_start
        for o in ops
        if o.tag == "equal" and (o.src_end - o.src_start >= _MIN_BLOCK or short)
    )
    return got / len(ev_dense)


_CACHE: OrderedDict[tuple[int, int], tuple[object, Locator]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 8


def locator_for(target: Document | Sequence[Any]) -> Locator:
    """A cached :class:`Locator` for ``target`` (the last few targets are kept).

    Targets are recognised by identity, so do not mutate a chunk list
    between calls.
    """
    key = (id(target), len(target.units) if isinstance(target, Document) else len(target))
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit[0] is target:
            _CACHE.move_to_end(key)
            return hit[1]
    loc = Locator(target)
    with _CACHE_LOCK:
        _CACHE[key] = (target, loc)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return loc


def locate(
    evidence: str,
    target: Document | Sequence[Any],
    *,
    markup: Markup | None = None,
    min_coverage: float = 0.9,
    kind: EvidenceKind | None = None,
    page: int | None = None,
    markup_source: str | Path | None = None,
) -> Match:
    """Find ``evidence`` in ``target`` (a Document or a list of chunks).

    Uses a cached :class:`Locator`, so many calls on the same target index it
    once. See :meth:`Locator.locate` for the options.

    >>> from docparse.builder import UnitDraft, build_document
    >>> doc = build_document(path="x", format="txt", backend="txt", doc_id="d",
    ...     drafts=[UnitDraft("paragraph", "The ﬁrst evidence is here.")])
    >>> locate("the first evidence", doc).status
    'exact'
    """
    return locator_for(target).locate(
        evidence,
        markup=markup,
        min_coverage=min_coverage,
        kind=kind,
        page=page,
        markup_source=markup_source,
    )

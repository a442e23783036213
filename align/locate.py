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
   a page break and a footnote) is searched again on its own. This search
   and the order-free mosaic pass for long evidence are in
   :mod:`align.locate_fuzzy`.
4. Table evidence (QASPER ``FLOAT SELECTED: Table 2: caption``, FinQA rows
   such as ``the net revenue of 2016 is $ 5,123 ;``, bare cell values) is
   matched against table and caption units (:mod:`align.locate_tables`).

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
from pathlib import Path
from typing import Any

from align.locate_fuzzy import FuzzyLocating
from align.locate_tables import TableLocating
from align.match import (
    _ELISION,
    _FINQA_ROW,
    _FLOAT_SELECTED,
    MISSING,
    PLACEHOLDER,
    ChunkLike,
    EvidenceKind,
    Match,
    MatchStatus,
    _Found,
    _Hit,
    _Item,
    _norm,
    settle,
)
from align.math import GlyphHit, GlyphIndex, has_math, math_share
from align.normalize import Markup, NormalizedText, markup_to_text
from docparse.model import Document, SourceUnit

__all__ = [
    "PLACEHOLDER",
    "ChunkLike",
    "EvidenceKind",
    "Locator",
    "Match",
    "MatchStatus",
    "locate",
    "settle",
]


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


class Locator(TableLocating, FuzzyLocating):
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
        context: str | None = None,
    ) -> Match:
        """Find ``evidence`` in the target.

        ``markup`` (``"latex"`` or ``"html"``) converts the evidence to text
        first (``markup_source``: the ``.tex`` file it comes from, whose
        macros are then expanded). ``kind="table"`` (or evidence that looks like a table
        reference: ``FLOAT SELECTED: Table ...``, a FinQA row) also tries
        table and caption units. ``page`` (1-based) only breaks ties between
        equally good candidates. Evidence that occurs word for word in several
        units is ``ambiguous`` unless ``page`` or ``context`` (text around
        the evidence, as the dataset gives it) singles one occurrence out.
        """
        m = self._locate(evidence, markup, min_coverage, kind, page, markup_source)
        if m.status == "ambiguous" and context:
            around = self._locate(context, markup, min_coverage, None, page, markup_source)
            if around.found:
                m = settle(m, unit_ids=around.unit_ids)
        return m

    def _locate(
        self,
        evidence: str,
        markup: Markup | None,
        min_coverage: float,
        kind: EvidenceKind | None,
        page: int | None,
        markup_source: str | Path | None,
    ) -> Match:
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
        wildcards = PLACEHOLDER.search(text) is not None
        if wildcards:
            pieces = [q for p in pieces for q in PLACEHOLDER.split(p)]
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
            if len(parts) == 1 and got.others:
                return self._ambiguous(got, ev)
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
            if ev[:1].isdigit() or ev[-1:].isdigit():
                positions = [p for p in positions if self._whole_number(p, len(ev))]
        if not positions:
            return None
        pos = self._prefer(positions, len(ev), page)
        return _Found(
            [_Hit(0, len(ev), pos, pos + len(ev))],
            exact=True,
            others=self._rivals(positions, pos, len(ev), page),
        )

    def _rivals(self, positions: list[int], pos: int, n: int, page: int | None) -> list[int]:
        """Occurrences in items other than ``pos``'s that ``page`` does not rule out.

        One occurrence per item; when ``page`` holds exactly one of the items,
        it is the one meant and there are no rivals.
        """
        by_item: dict[int, int] = {}
        for p in sorted(positions):
            if self._item_at(p) == self._item_at(p + n - 1):
                by_item.setdefault(self._item_at(p), p)
        if len(by_item) <= 1:
            return []
        if page is not None:
            on_page = [i for i in by_item if page in self.items[i].pages]
            if len(on_page) == 1:
                return []
        chosen = self._item_at(pos)
        return [p for i, p in by_item.items() if i != chosen]

    def _ambiguous(self, found: _Found, ev: str) -> Match:
        cands = []
        for p in sorted([found.blocks[0].start, *found.others]):
            i = self._item_at(p)
            lo = p - self._item_starts[i]
            span = self._norms[i].original_span(lo, lo + len(ev))
            cands.append((self.items[i].id, span, self.items[i].pages))
        return Match(
            "ambiguous",
            tuple(c[0] for c in cands),
            tuple(c[1] for c in cands),
            1.0,
            1.0,
            tuple(sorted({p for c in cands for p in c[2]})),
            None,
            tuple(cands),
        )

    def _whole_words(self, positions: list[int], n: int) -> list[int]:
        c = self.concat
        return [
            p
            for p in positions
            if (p == 0 or c[p - 1] == " ") and (p + n == len(c) or c[p + n] == " ")
        ]

    def _whole_number(self, pos: int, n: int) -> bool:
        """Whether a number found at ``pos`` is not part of a longer one (242 in 1,242 or 2.42)."""
        i = self._item_at(pos)
        lo = pos - self._item_starts[i]
        start, end = self._norms[i].original_span(lo, lo + n)
        text = self.items[i].text
        before = text[max(0, start - 2) : start]
        after = text[end : end + 2]
        glued_before = len(before) == 2 and before[1] in ",." and before[0].isdigit()
        glued_after = len(after) == 2 and after[0] in ",." and after[1].isdigit()
        return not (glued_before or glued_after)

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
    context: str | None = None,
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
        context=context,
    )

"""The fuzzy evidence search of :class:`~align.locate.Locator`: windows, alignment, mosaic.

Evidence with no exact occurrence is searched here. Word 3-grams shared with
the target vote for candidate windows (rarest grams first); the evidence is
aligned to the best windows with rapidfuzz's Indel (LCS) opcodes, and what the
first window does not explain is searched again on its own. Long evidence
whose parts a parse gives in another order (a table read column by column)
gets an order-free pass, the mosaic: the units found inside the evidence.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from align.match import (
    _MAX_DF,
    _MAX_GRAMS,
    _MIN_BLOCK,
    _Found,
    _Hit,
    _Item,
    vote_clusters,
)
from align.normalize import NormalizedText


class FuzzyLocating(ABC):
    """The fuzzy and mosaic searches of :class:`~align.locate.Locator`, mixed into it.

    The index attributes are the locator's (set in its ``__init__``); the
    position lookup is its method.
    """

    items: list[_Item]
    _norms: list[NormalizedText]
    _item_starts: list[int]
    _dense: list[str]
    concat: str
    words: list[str]
    word_starts: list[int]
    word_ends: list[int]
    grams: dict[str, list[int]]
    unigrams: dict[str, list[int]]

    @abstractmethod
    def _item_at(self, pos: int) -> int: ...

    # Over the C901 limit on purpose: page filter, rare-gram votes and bounds in one pass.
    def _candidates(self, ev_words: list[str], page: int | None) -> list[tuple[int, int, int]]:
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
        clusters = vote_clusters(votes, max(8, n // 2))

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
        keep, flat = _without_spaces(ev)
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
        seg_keep, seg_dense = _without_spaces(seg)
        win_keep, win_dense = _without_spaces(window)
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


def _without_spaces(text: str) -> tuple[list[int], str]:
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

"""Table and caption evidence: a caption's unit, a table's rows and numbers"""

from __future__ import annotations

from abc import ABC, abstractmethod

from align.match import (
    _TABLE_LABEL,
    MISSING,
    Match,
    MatchStatus,
    _coverage,
    _Item,
    _norm,
    _numbers,
    _row_weights,
)
from align.normalize import NormalizedText


class TableLocating(ABC):
    """The table and caption searches of :class:`~align.locate.Locator`, mixed into it.

    The index attributes are the locator's (set in its ``__init__``); the text
    search and position lookup are its methods.
    """

    items: list[_Item]
    _norms: list[NormalizedText]
    word_starts: list[int]
    unigrams: dict[str, list[int]]
    _table_items: list[int] | None
    _tokens: list[frozenset[str]] | None
    _grouped: dict[str, list[int]] | None

    @abstractmethod
    def _locate_text(self, text: str, min_coverage: float, page: int | None) -> Match: ...

    @abstractmethod
    def _item_at(self, pos: int) -> int: ...

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
        if general.found or general.status == "ambiguous":
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

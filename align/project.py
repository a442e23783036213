"""Project a twin parse onto a PDF parse of the same document, unit by unit.

:func:`project` answers, for every content unit of the twin (the ``.tex`` /
``.htm`` / ... parse, taken as ground truth): did its text survive the PDF
parse, where did it land, and in what shape. The result, a
:class:`Projection`, carries one :class:`UnitProjection` per twin unit and the
document-level fidelity scores (unit recall, text NED, reading order, spurious
text, tables), broken down by modality, kind, position bucket and top-level
section, plus a per-page loss map.

How the alignment works
-----------------------
Both documents become one sequence of *comparison words* each (units laid
end to end in reading order), every word remembering its unit. Comparison
words are the words of :func:`align.normalize.normalize_text` with case and
punctuation folded, so ``"Fig. 3,"`` and ``fig 3`` are equal and PDF
ligatures, quotes, dashes and line-end hyphenation do not count as loss.

The two sequences are aligned in passes. Each pass takes the words not yet
matched, finds word 3-grams that occur exactly once on each side (anchors),
keeps the longest chain of anchors that is in the same order on both sides,
and aligns the words between consecutive anchors with rapidfuzz's Indel
(LCS) alignment. Later passes find the blocks the parser moved (a table
emitted at the end of the page, columns read in the wrong order), since
what was out of order for the first chain is in order among the leftovers.
Runs of one or two equal words stranded between long unequal stretches are
dropped, so that common words (``the``, ``of``) do not tie a lost paragraph to
unrelated parsed text. The cost is linear in document length apart from the
gaps between anchors, which are short, so a 300-page book aligns in seconds.

Matched words are then attributed to units on both sides: a twin unit's
*similarity* is the share of its comparison words matched; the parsed units
holding a meaningful share (at least 10%) of them are its ``parsed_ids``.

Math
----
LaTeX twins keep math as source (``$\\alpha_{i}^2$``) while a PDF's text
layer holds the rendering (``α2 i``); they cannot be compared as words. Words
carrying TeX math syntax (``$``, ``\\``, ``^``, ``_``, ``{``, ``}``) are
therefore removed from the comparison on *both* sides before normalisation
and counted (``math_words`` in :meth:`Projection.summary`). The rendered math
of the PDF stays in, so it counts as spurious text; display equations, which
are math only, have no comparison words and are counted as ``unscored_units``
by the word alignment. They are projected on their own instead
(:attr:`Projection.equations`, ``equations`` in the summary, with the same
statuses): the equation is rendered to the glyphs a PDF prints and aligned
with the parse's glyphs (:mod:`align.math`); ``n_words``/``n_matched`` then
count glyphs and ``parsed_position`` is the index of the parsed unit.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rapidfuzz.distance import Levenshtein

from align.metrics.tables import adjacency_f1, bag_f1, cell_bag, teds
from align.metrics.text import kendall_tau
from align.normalize import normalize_text
from align.wordalign import match_words
from docparse.model import Document, SourceUnit
from docparse.text import words

Status = Literal["matched", "split", "merged", "partial", "missing"]
STATUSES: tuple[Status, ...] = ("matched", "split", "merged", "partial", "missing")
#: The dimensions :meth:`Projection.breakdown` groups twin units by.
DIMENSIONS: tuple[str, ...] = ("modality", "kind", "position_bucket", "section")

# A whitespace token that carries TeX math syntax, or a whole inline math span.
_MATH = re.compile(r"\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]|\S*[\\^_{}$]\S*")

# Letters glued to digits are split (``rio1`` -> ``rio 1``) on both sides: PDF text
# layers glue footnote and affiliation marks to words, ``x^2`` renders as ``x2``.
_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")

# Unit text has its line breaks collapsed, so a word a PDF backend left broken
# at a line end reads "para- graph". normalize() keeps a hyphen and space inside
# a line (it may be a suspended hyphen, "pre- and post-"); the compared words
# join it, on both sides alike.
_BROKEN_WORD = re.compile(r"(?<=[a-z])-[ \t]+(?=[a-z]{2})")


@dataclass(frozen=True, slots=True)
class ProjectionConfig:
    """Thresholds of :func:`project`.

    A twin unit is ``missing`` below ``missing_below`` similarity, ``partial``
    below ``partial_below``; otherwise ``split``/``merged``/``matched`` by
    where its words went. A parsed unit counts for a twin unit when it holds
    at least ``min_share`` of the unit's matched words. A twin table counts as
    recalled when its best parsed table has cell F1 of at least
    ``table_found``. TEDS uses exact APTED up to ``teds_max_nodes`` nodes and
    the row-aligned bound above (see :func:`align.metrics.tables.teds`), so
    documents with hundreds of tables stay fast.
    """

    missing_below: float = 0.25
    partial_below: float = 0.9
    min_share: float = 0.1
    table_found: float = 0.5
    teds_max_nodes: int = 150


@dataclass(frozen=True, slots=True)
class UnitProjection:
    """Where one twin unit went in the parse.

    ``similarity`` is the share of the unit's comparison words found in the
    parse; ``edits`` / ``length`` are its character edit distance (on
    comparison words) to the parsed text aligned with it, for NED.
    ``parsed_position`` is the median index of its matched words in the
    parsed word sequence (None when missing); ``pages`` the pages of the
    parsed units holding it.
    """

    twin_id: str
    status: Status
    parsed_ids: tuple[str, ...]
    similarity: float
    n_words: int
    n_matched: int
    edits: int
    length: int
    kind: str
    modality: str
    section: str
    position_bucket: int
    parsed_position: float | None = None
    pages: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "twin_id": self.twin_id,
            "status": self.status,
            "parsed_ids": list(self.parsed_ids),
            "similarity": self.similarity,
            "n_words": self.n_words,
            "n_matched": self.n_matched,
            "edits": self.edits,
            "length": self.length,
            "kind": self.kind,
            "modality": self.modality,
            "section": self.section,
            "position_bucket": self.position_bucket,
            "parsed_position": self.parsed_position,
            "pages": list(self.pages),
        }


@dataclass(frozen=True, slots=True)
class TableProjection:
    """A twin table and its best parsed table (one-to-one assignment on cell F1)."""

    twin_id: str
    parsed_id: str | None
    cell_f1: float
    teds: float
    found: bool
    section: str
    position_bucket: int
    #: ICDAR-2013 adjacency-relation F1 (:func:`align.metrics.tables.adjacency_f1`).
    adjacency_f1: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "twin_id": self.twin_id,
            "parsed_id": self.parsed_id,
            "cell_f1": self.cell_f1,
            "adjacency_f1": self.adjacency_f1,
            "teds": self.teds,
            "found": self.found,
            "section": self.section,
            "position_bucket": self.position_bucket,
        }


@dataclass(frozen=True, slots=True)
class PageLoss:
    """Twin words expected on one PDF page and how many of them were lost."""

    page: int
    words: float
    lost: float

    @property
    def loss(self) -> float:
        return self.lost / self.words if self.words else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"page": self.page, "words": self.words, "lost": self.lost, "loss": self.loss}


@dataclass(frozen=True, slots=True)
class Projection:
    """The twin projected onto a parse: per-unit results and document scores."""

    twin_source: str
    parsed_source: str
    backend: str
    units: tuple[UnitProjection, ...]
    tables: tuple[TableProjection, ...]
    parsed_words: int
    spurious_words: int
    math_words: int
    unscored_units: int
    n_parsed_units: int
    page_losses: tuple[PageLoss, ...] = ()
    config: ProjectionConfig = field(default_factory=ProjectionConfig)
    #: Twin ``equation`` units, compared as the glyphs a PDF prints (:mod:`align.math`).
    equations: tuple[UnitProjection, ...] = ()

    # -- unit-level scores -------------------------------------------------

    def unit_recall(
        self, threshold: float = 0.9, units: Sequence[UnitProjection] | None = None
    ) -> float:
        """Share of twin units whose similarity is at least ``threshold`` (1.0 if none)."""
        us = self.units if units is None else units
        if not us:
            return 1.0
        return sum(1 for u in us if u.similarity >= threshold) / len(us)

    def word_recall(self, units: Sequence[UnitProjection] | None = None) -> float:
        """Share of twin comparison words found in the parse."""
        us = self.units if units is None else units
        total = sum(u.n_words for u in us)
        return sum(u.n_matched for u in us) / total if total else 1.0

    def ned(self, units: Sequence[UnitProjection] | None = None) -> float:
        """Text NED: sum of edits over sum of lengths, over twin units (0 is perfect)."""
        us = self.units if units is None else units
        length = sum(u.length for u in us)
        return sum(u.edits for u in us) / length if length else 0.0

    def kendall_tau(self, units: Sequence[UnitProjection] | None = None) -> float | None:
        """Reading-order agreement: Kendall tau between twin order and parsed order,
        over units found in the parse (None with fewer than two)."""
        us = self.units if units is None else units
        return kendall_tau([u.parsed_position for u in us if u.parsed_position is not None])

    def spurious(self) -> float:
        """Share of parsed comparison words that match nothing in the twin."""
        return self.spurious_words / self.parsed_words if self.parsed_words else 0.0

    def statuses(self, units: Sequence[UnitProjection] | None = None) -> dict[str, int]:
        us = self.units if units is None else units
        counts = Counter(u.status for u in us)
        return {s: counts.get(s, 0) for s in STATUSES}

    # -- tables -------------------------------------------------------------

    def table_recall(self, tables: Sequence[TableProjection] | None = None) -> float | None:
        ts = self.tables if tables is None else tables
        return sum(t.found for t in ts) / len(ts) if ts else None

    def table_cell_f1(self, tables: Sequence[TableProjection] | None = None) -> float | None:
        ts = self.tables if tables is None else tables
        return statistics.fmean(t.cell_f1 for t in ts) if ts else None

    def table_adjacency_f1(self, tables: Sequence[TableProjection] | None = None) -> float | None:
        ts = self.tables if tables is None else tables
        return statistics.fmean(t.adjacency_f1 for t in ts) if ts else None

    def table_teds(self, tables: Sequence[TableProjection] | None = None) -> float | None:
        ts = self.tables if tables is None else tables
        return statistics.fmean(t.teds for t in ts) if ts else None

    # -- breakdowns ---------------------------------------------------------

    def _scores(self, us: Sequence[UnitProjection], threshold: float) -> dict[str, Any]:
        return {
            "units": len(us),
            "words": sum(u.n_words for u in us),
            "unit_recall": self.unit_recall(threshold, us),
            "word_recall": self.word_recall(us),
            "mean_similarity": statistics.fmean(u.similarity for u in us) if us else None,
            "ned": self.ned(us),
            "kendall_tau": self.kendall_tau(us),
            "statuses": self.statuses(us),
        }

    def breakdown(self, dimension: str, threshold: float = 0.9) -> dict[str, dict[str, Any]]:
        """Scores per value of ``dimension`` (one of :data:`DIMENSIONS`), tables included."""
        if dimension not in DIMENSIONS:
            raise ValueError(f"unknown dimension {dimension!r}; one of {DIMENSIONS}")
        groups: dict[str, list[UnitProjection]] = defaultdict(list)
        for u in self.units:
            groups[str(getattr(u, dimension))].append(u)
        tgroups: dict[str, list[TableProjection]] = defaultdict(list)
        if dimension in ("section", "position_bucket"):
            for t in self.tables:
                tgroups[str(getattr(t, dimension))].append(t)
        elif dimension in ("modality", "kind"):
            tgroups["table"] = list(self.tables)
        out: dict[str, dict[str, Any]] = {}
        for key in sorted(groups, key=_group_order(self.units, dimension)):
            scores = self._scores(groups[key], threshold)
            ts = tgroups.get(key, [])
            if ts:
                scores["tables"] = self._table_scores(ts)
            out[key] = scores
        return out

    def _table_scores(self, ts: Sequence[TableProjection]) -> dict[str, Any]:
        return {
            "count": len(ts),
            "recall": self.table_recall(ts),
            "cell_f1": self.table_cell_f1(ts),
            "adjacency_f1": self.table_adjacency_f1(ts),
            "teds": self.table_teds(ts),
        }

    def summary(self, threshold: float = 0.9) -> dict[str, Any]:
        """Every score as a JSON-serialisable dict (the ``docparse fidelity`` output)."""
        return {
            "twin": self.twin_source,
            "parsed": self.parsed_source,
            "backend": self.backend,
            "threshold": threshold,
            "twin_units": len(self.units),
            "unscored_units": self.unscored_units,
            "parsed_units": self.n_parsed_units,
            "twin_words": sum(u.n_words for u in self.units),
            "parsed_words": self.parsed_words,
            "math_words": self.math_words,
            "unit_recall": self.unit_recall(threshold),
            "word_recall": self.word_recall(),
            "ned": self.ned(),
            "kendall_tau": self.kendall_tau(),
            "spurious": self.spurious(),
            "statuses": self.statuses(),
            "tables": self._table_scores(self.tables),
            "equations": {
                "units": len(self.equations),
                "located": self.unit_recall(threshold, self.equations) if self.equations else None,
                "statuses": self.statuses(self.equations),
            },
            "breakdown": {d: self.breakdown(d, threshold) for d in DIMENSIONS},
            "pages": [p.to_dict() for p in self.page_losses],
        }

    def to_dict(self) -> dict[str, Any]:
        """:meth:`summary` plus the per-unit and per-table results."""
        out = self.summary()
        out["units"] = [u.to_dict() for u in self.units]
        out["table_matches"] = [t.to_dict() for t in self.tables]
        out["equation_units"] = [u.to_dict() for u in self.equations]
        return out


def _group_order(
    units: Sequence[UnitProjection], dimension: str
) -> Callable[[str], tuple[int, str]]:
    """Sort sections by first appearance, everything else by value."""
    first: dict[str, int] = {}
    for i, u in enumerate(units):
        first.setdefault(str(getattr(u, dimension)), i)
    if dimension == "section":
        return lambda k: (first.get(k, 0), k)
    return lambda k: (0, k)


# -- comparison words -------------------------------------------------------


def comparison_words(text: str) -> tuple[list[str], int]:
    """The words two texts are compared on, and how many math words were removed.

    TeX math (words with ``$ \\ ^ _ { }``) is removed first, then the rest is
    normalised with :func:`align.normalize.normalize_text` (case and
    punctuation folded, a word broken as ``para- graph`` joined), letters and
    digits glued together are split apart (PDFs glue footnote marks to words),
    and the result split into words with
    :func:`docparse.text.words` (whitespace tokens; one word per CJK character,
    so that a line break or a stray space inside Chinese text changes nothing).
    """
    n_math = 0

    def drop(m: re.Match[str]) -> str:
        nonlocal n_math
        n_math += max(1, len(m.group().split()))
        return " "

    stripped = _BROKEN_WORD.sub("", _MATH.sub(drop, text))
    norm = normalize_text(stripped, fold_case=True, fold_punct=True)
    return words(_LETTER_DIGIT.sub(" ", norm)), n_math


@dataclass(slots=True)
class _Side:
    """A document as one word sequence with the unit of every word."""

    units: list[SourceUnit]
    words: list[int]  # interned ids
    unit_of: list[int]  # index into units
    starts: list[int]  # first word of each unit
    ends: list[int]
    math: int


def _side(doc: Document, vocab: dict[str, int], seen: dict[str, tuple[list[str], int]]) -> _Side:
    """``seen`` memoises :func:`comparison_words` by text across both sides of one
    projection: a book repeats its headings, code lines and table cells, and
    the twin and the parse share most unit texts."""
    units: list[SourceUnit] = []
    words: list[int] = []
    unit_of: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    math = 0
    for u in doc.units:
        if u.kind == "furniture":
            continue
        hit = seen.get(u.text)
        if hit is None:
            hit = seen[u.text] = comparison_words(u.text)
        ws, m = hit
        math += m
        idx = len(units)
        units.append(u)
        starts.append(len(words))
        words.extend(vocab.setdefault(w, len(vocab)) for w in ws)
        unit_of.extend([idx] * len(ws))
        ends.append(len(words))
    return _Side(units, words, unit_of, starts, ends, math)


# -- alignment --------------------------------------------------------------


# -- projection -------------------------------------------------------------


def preload() -> None:
    """Import what :func:`project` otherwise imports on its first call (SciPy's
    assignment solver and rank correlation: about 0.9 s of CPU).

    ``docparse ingest`` calls it before forking its workers, so that they share
    one copy instead of each paying for its own.
    """
    import scipy.optimize
    import scipy.stats  # noqa: F401

    import align.math  # noqa: F401


def _top_section(u: SourceUnit) -> str:
    return u.section[0] if u.section else "(none)"


def project(twin: Document, parsed: Document, config: ProjectionConfig | None = None) -> Projection:
    """Project every content unit of ``twin`` onto ``parsed``.

    Each twin unit gets a status: ``matched`` (found, in one parsed unit of
    its own), ``split`` (its words spread over several parsed units),
    ``merged`` (one parsed unit holds it together with other twin units),
    ``partial`` (only part of its words found) or ``missing``. See the module
    docstring for the alignment and for how math is handled.
    """
    cfg = config or ProjectionConfig()
    vocab: dict[str, int] = {}
    seen: dict[str, tuple[list[str], int]] = {}
    tw = _side(twin, vocab, seen)
    pw = _side(parsed, vocab, seen)
    matched = match_words(tw.words, pw.words)
    inverse = list(vocab)  # ids are handed out in insertion order

    # Matched words per (twin unit, parsed unit).
    per_twin: list[Counter[int]] = [Counter() for _ in tw.units]
    positions: list[list[int]] = [[] for _ in tw.units]
    for i, j in matched.items():
        ti = tw.unit_of[i]
        per_twin[ti][pw.unit_of[j]] += 1
        positions[ti].append(j)
    significant: list[list[int]] = []
    holders: dict[int, set[int]] = defaultdict(set)  # parsed unit -> twin units it holds
    for ti, counts in enumerate(per_twin):
        m = sum(counts.values())
        sig = sorted(p for p, c in counts.items() if c >= cfg.min_share * m)
        significant.append(sig)
        n = tw.ends[ti] - tw.starts[ti]
        # Stray words of a lost unit do not make the parsed unit a merge.
        if n and m / n >= cfg.missing_below:
            for p in sig:
                holders[p].add(ti)

    units: list[UnitProjection] = []
    unscored = 0
    for ti, u in enumerate(tw.units):
        n = tw.ends[ti] - tw.starts[ti]
        if n == 0:
            unscored += 1
            continue
        m = sum(per_twin[ti].values())
        sim = m / n
        sig = significant[ti]
        status: Status
        if sim < cfg.missing_below:
            status = "missing"
        elif sim < cfg.partial_below:
            status = "partial"
        elif len(sig) > 1:
            status = "split"
        elif sig and len(holders[sig[0]]) > 1:
            status = "merged"
        else:
            status = "matched"
        ref = tw.words[tw.starts[ti] : tw.ends[ti]]
        hyp = _aligned_span(sorted(positions[ti]), pw.words)
        ref_text, hyp_text = _text(ref, inverse), _text(hyp, inverse)
        edits = Levenshtein.distance(ref_text, hyp_text)
        pages = sorted({pg for p in sig for pg in pw.units[p].pages})
        units.append(
            UnitProjection(
                twin_id=u.id,
                status=status,
                parsed_ids=tuple(pw.units[p].id for p in sig) if status != "missing" else (),
                similarity=sim,
                n_words=n,
                n_matched=m,
                edits=edits,
                length=max(len(ref_text), len(hyp_text)),
                kind=u.kind,
                modality=u.modality,
                section=_top_section(u),
                position_bucket=u.position_bucket,
                parsed_position=(statistics.median(positions[ti]) if status != "missing" else None),
                pages=tuple(pages),
            )
        )

    matched_b = set(matched.values())
    return Projection(
        twin_source=twin.source_path,
        parsed_source=parsed.source_path,
        backend=parsed.backend,
        units=tuple(units),
        tables=_project_tables(twin, parsed, cfg),
        parsed_words=len(pw.words),
        spurious_words=len(pw.words) - len(matched_b),
        math_words=tw.math,
        unscored_units=unscored,
        n_parsed_units=len(pw.units),
        page_losses=_page_losses(tw, pw, matched),
        config=cfg,
        equations=_project_equations(twin, parsed, cfg),
    )


def _project_equations(
    twin: Document, parsed: Document, cfg: ProjectionConfig
) -> tuple[UnitProjection, ...]:
    """Twin equation units located in ``parsed`` as glyph sequences, with the unit statuses.

    Display math has no comparison words; its glyphs (:func:`align.math.render_math`)
    are aligned with the parse's glyphs instead, tolerant of the lines a PDF
    reorders. Similarity is the share of the equation's glyphs found.
    """
    from align.math import GlyphIndex

    eqs = [u for u in twin.units if u.kind == "equation"]
    if not eqs:
        return ()
    content = [u for u in parsed.units if u.kind != "furniture"]
    index = GlyphIndex([u.text for u in content])
    out = []
    for u in eqs:
        hit = index.find(u.text)
        sim = hit.coverage if hit is not None else 0.0
        held = sorted(hit.items) if hit is not None else []
        sig = [i for i in held if hit is not None and hit.chars[i] >= cfg.min_share * hit.matched]
        status: Status
        if sim < cfg.missing_below:
            status = "missing"
        elif sim < cfg.partial_below:
            status = "partial"
        else:
            status = "split" if len(sig) > 1 else "matched"
        found = status != "missing"
        n = hit.length if hit is not None else 0
        out.append(
            UnitProjection(
                twin_id=u.id,
                status=status,
                parsed_ids=tuple(content[i].id for i in sig) if found else (),
                similarity=sim,
                n_words=n,
                n_matched=hit.matched if hit is not None else 0,
                edits=n - (hit.matched if hit is not None else 0),
                length=n,
                kind=u.kind,
                modality=u.modality,
                section=_top_section(u),
                position_bucket=u.position_bucket,
                parsed_position=statistics.median(sig) if found and sig else None,
                pages=tuple(sorted({p for i in sig for p in content[i].pages})) if found else (),
            )
        )
    return tuple(out)


def _text(ids: Iterable[int], words: Sequence[str]) -> str:
    return " ".join(words[i] for i in ids)


# Unmatched parsed words between two matched words of the same twin unit are
# part of its parsed text (an intrusion) when the gap is at most this long.
_MAX_INTRUSION = 20


def _aligned_span(js: list[int], words: list[int]) -> list[int]:
    """Parsed words aligned with a twin unit: its matched words and short gaps between them."""
    out: list[int] = []
    for k, j in enumerate(js):
        if k and 1 < j - js[k - 1] <= _MAX_INTRUSION + 1:
            out.extend(words[js[k - 1] + 1 : j])
        out.append(words[j])
    return out


def _project_tables(
    twin: Document, parsed: Document, cfg: ProjectionConfig
) -> tuple[TableProjection, ...]:
    """Assign parsed tables to twin tables one-to-one, maximising total cell F1."""
    gold = [(u, u.table) for u in twin.units if u.table is not None]
    cand = [(u, u.table) for u in parsed.units if u.table is not None]
    if not gold:
        return ()
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    gold_bags = [cell_bag(t) for _, t in gold]
    cand_bags = [cell_bag(t) for _, t in cand]
    f1 = np.zeros((len(gold), len(cand)))
    # bag_f1 is 0 for two bags without a common cell unless both are empty: only the
    # pairs sharing a cell (or both empty) are scored, not every twin table against
    # every parsed one (160 x 160 on a book).
    holding: dict[str, list[int]] = defaultdict(list)
    for ci, cb in enumerate(cand_bags):
        for cell in cb:
            holding[cell].append(ci)
    empty = [ci for ci, cb in enumerate(cand_bags) if not cb]
    for gi, gb in enumerate(gold_bags):
        share = {ci for cell in gb for ci in holding.get(cell, ())} if gb else set(empty)
        for ci in share:
            f1[gi, ci] = bag_f1(gb, cand_bags[ci])
    best: dict[int, int] = {}
    if cand:
        rows, cols = linear_sum_assignment(f1, maximize=True)
        best = {int(r): int(c) for r, c in zip(rows, cols, strict=True) if f1[r, c] > 0}
    out: list[TableProjection] = []
    for gi, (g, gt) in enumerate(gold):
        pick = best.get(gi)
        if pick is None:
            out.append(
                TableProjection(g.id, None, 0.0, 0.0, False, _top_section(g), g.position_bucket)
            )
            continue
        c, ct = cand[pick]
        score = float(f1[gi, pick])
        out.append(
            TableProjection(
                twin_id=g.id,
                parsed_id=c.id,
                cell_f1=score,
                adjacency_f1=adjacency_f1(gt, ct),
                teds=teds(gt, ct, max_nodes=cfg.teds_max_nodes),
                found=score >= cfg.table_found,
                section=_top_section(g),
                position_bucket=g.position_bucket,
            )
        )
    return tuple(out)


def _page_losses(tw: _Side, pw: _Side, matched: dict[int, int]) -> tuple[PageLoss, ...]:
    """Per PDF page: twin words that belong there and how many were lost.

    A twin word's page is the page of the parsed unit its match sits in; an
    unmatched word takes the page of the nearest matched word of its own unit,
    else that of the closest earlier twin word with a page (so a lost
    paragraph is charged to the page where the text around it landed).
    """
    if not any(u.provenance for u in pw.units):
        return ()
    page_of_word: list[int | None] = [None] * len(tw.words)
    for i, j in matched.items():
        page_of_word[i] = pw.units[pw.unit_of[j]].page
    words: dict[int, float] = defaultdict(float)
    lost: dict[int, float] = defaultdict(float)
    last_page: int | None = None
    pending: list[int] = []  # lost words before the first page is known
    for ti in range(len(tw.units)):
        s, e = tw.starts[ti], tw.ends[ti]
        unit_pages = [p for p in page_of_word[s:e] if p is not None]
        fallback = Counter(unit_pages).most_common(1)[0][0] if unit_pages else last_page
        for i in range(s, e):
            p = page_of_word[i]
            if p is not None:
                words[p] += 1
                last_page = p
                continue
            if fallback is None:
                pending.append(i)
                continue
            words[fallback] += 1
            lost[fallback] += 1
        if unit_pages:
            last_page = unit_pages[-1]
    if pending:
        first = min(words) if words else 1
        words[first] += len(pending)
        lost[first] += len(pending)
    return tuple(PageLoss(p, words[p], lost[p]) for p in sorted(words))

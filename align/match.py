"""What a search for evidence returns (:class:`Match`), the records the locator indexes,
and the text helpers its text and table searches share.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from rapidfuzz.distance import Indel

from align.normalize import NormalizedText, normalize

MatchStatus = Literal["exact", "fuzzy", "split", "partial", "missing", "ambiguous"]


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

    ``ambiguous``: the evidence occurs word for word in several units and
    nothing (a page hint, its context, the evidence's neighbours) says which
    one is meant; ``candidates`` lists each occurrence as ``(unit id, span,
    pages)`` and ``unit_ids``/``pages`` are theirs. An ambiguous match is not
    ``found``.

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
    candidates: tuple[tuple[str, tuple[int, int], tuple[int, ...]], ...] = ()

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
            **(
                {
                    "candidates": [
                        {"unit_id": u, "span": list(sp), "pages": list(pg)}
                        for u, sp, pg in self.candidates
                    ]
                }
                if self.candidates
                else {}
            ),
        }


MISSING = Match("missing")


def settle(match: Match, *, pages: Sequence[int] = (), unit_ids: Sequence[str] = ()) -> Match:
    """An ambiguous ``match`` narrowed to the one candidate in ``unit_ids`` or on ``pages``.

    Returns ``match`` unchanged when it is not ambiguous or when not exactly
    one candidate qualifies (units are tried first, then pages).
    """
    if match.status != "ambiguous":
        return match
    for keep in (
        [c for c in match.candidates if c[0] in set(unit_ids)],
        [c for c in match.candidates if set(c[2]) & set(pages)],
    ):
        if len(keep) == 1:
            uid, span, on = keep[0]
            return Match(
                "exact", (uid,), (span,), match.coverage, match.score, on, on[0] if on else None
            )
    return match


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
    # Exact occurrences in other items that nothing told apart (start positions).
    others: list[int] = field(default_factory=list)

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


#: S2ORC/QASPER placeholders for what the PDF prints as a citation, a reference,
#: a formula: "proposed in BIBREF21, BIBREF22" is "[21, 22]" or "(Smith, 2019)".
PLACEHOLDER = re.compile(
    r"\b(?:BIBREF|TABREF|FIGREF|EQREF|SECREF|INLINEFORM|DISPLAYFORM|FOOTREF)\d*\b"
)


_MIN_BLOCK = 4  # shorter equal blocks of an LCS are mostly chance matches


_MAX_DF = 64  # grams seen more often than this do not point anywhere


_MAX_GRAMS = 48


def _norm(text: str) -> NormalizedText:
    return normalize(text, fold_case=True, fold_punct=True, math=True)


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


def vote_clusters(votes: list[tuple[int, int]], tol: int) -> list[tuple[int, int, int]]:
    """Group sorted ``(offset, evidence position)`` votes whose offsets lie within ``tol``.

    Returns ``(first offset, last offset, distinct evidence positions)`` per group, in offset
    order: a candidate placement of the evidence and how much of it agrees on it.
    """
    clusters: list[tuple[int, int, int]] = []
    i = 0
    while i < len(votes):
        k = i
        while k + 1 < len(votes) and votes[k + 1][0] - votes[k][0] <= tol:
            k += 1
        clusters.append((votes[i][0], votes[k][0], len({j for _, j in votes[i : k + 1]})))
        i = k + 1
    return clusters
